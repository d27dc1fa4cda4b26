"""The presenter's outbox keys and recipients: which message of a table a key names, and who a
seat's private messages go to."""

from __future__ import annotations

from bot.core.identity import ascii_int, is_ai_id, platform_of
from bot.core.model import TableSnapshot

#: A destination prefix -> the platform name the renderers take.
PLATFORM_NAMES = {"tg": "telegram", "dc": "discord", "cli": "cli"}


def platform_name(dest: str) -> str:
    """``"telegram"``, ``"discord"`` or ``"cli"`` for a destination (the render API's word)."""
    prefix = platform_of(dest)
    return PLATFORM_NAMES.get(prefix, prefix)


def table_key(table_id: int) -> str:
    """The outbox key of a table's public message."""
    return f"table:{table_id}"


def hand_key(table_id: int, player_id: str) -> str:
    """The outbox key of a player's private hand at a table."""
    return f"hand:{table_id}:{player_id}"


def hand_player(key: str, table_id: int) -> str | None:
    """The player of ``table_id``'s hand key ``key`` (see :func:`hand_key`), else None."""
    prefix = hand_key(table_id, "")
    return key[len(prefix):] if key.startswith(prefix) else None


def ping_key(table_id: int, player_id: str) -> str:
    """The outbox key of a player's newest turn notice of a table ("your turn", "seconds left"):
    one at a time is shown, the one before deleted; kept in memory only, not stored."""
    return f"ping:{table_id}:{player_id}"


#: The outbox key of a chat's standings message (bot/present/season_notices.py): one per chat,
#: edited in place; its id is kept in meta under :func:`standings_meta_key`.
STANDINGS_KEY = "standings"


def standings_meta_key(league: str, chat_id: str) -> str:
    """The meta key of the standings message of ``chat_id`` (of ``league``): a league's chats share a prefix."""
    return f"standings:{league} {chat_id}"


def is_ping_key(key: str) -> bool:
    """Whether ``key`` names a turn notice (see :func:`ping_key`)."""
    return key.startswith("ping:")


def table_of_key(key: str | None) -> int | None:
    """The table id in a ``table:<id>``, ``hand:<id>:<player>`` or ``ping:<id>:<player>`` key."""
    if not key:
        return None
    kind, _, rest = key.partition(":")
    if kind not in ("table", "hand", "ping"):
        return None
    tid = rest.split(":", 1)[0]
    return ascii_int(tid)


def human_of(snapshot: TableSnapshot, seat: int) -> str | None:
    """The person a seat's private messages go to (its owner while an AI stands in), else None."""
    s = snapshot.table.seats[seat]
    pid = s.owner if (s.away and s.owner) else s.player_id
    if not pid or is_ai_id(pid) or (s.is_ai and not s.away):
        return None
    return pid


def tournament_key(tournament_id: int) -> str:
    """The outbox key of a tournament's message in its group (bot/present/tournament_notices.py): edited
    in place; its id is kept in meta under the same key, so that every process edits the same message."""
    return f"tournament:{tournament_id}"
