"""Platform-neutral ids of people, chats and private destinations (the one place they are spelled).

Chats: ``"tg:-100123"``, ``"tg:-100123/7"`` (a forum topic), ``"dc:<channel>"``, ``"cli:<name>"``;
a Discord server's settings record ``"dc:guild:<id>"``.
People: ``"tg:<user>"``, ``"dc:<user>"``, ``"cli:you"``; AI seats ``"ai:<level>:<seat>"``.
A person's private destination (DM) is ``"dm:<player_id>"``.
"""

from __future__ import annotations

TELEGRAM, DISCORD, CLI = "tg", "dc", "cli"
_DM, _AI, _GUILD = "dm:", "ai:", "dc:guild:"


def chat_prefix(platform: str) -> str:
    """What the ids of a platform's chats and people start with (``chat_prefix("tg") == "tg:"``)."""
    return f"{platform}:"


def cli_id(name: str) -> str:
    """A terminal or local web id: ``cli_id("local") == "cli:local"``."""
    return f"{CLI}:{name}"


#: The one person at a terminal or local web table (``majlis play``, ``majlis web``).
TERMINAL_PLAYER = cli_id("you")


def platform_of(dest: str) -> str:
    """``"tg"`` for ``"tg:-100"``, ``"dm:tg:5"`` or ``"tg:5"``."""
    return dest.removeprefix(_DM).split(":", 1)[0]


def dm_dest(player_id: str) -> str:
    """The private destination of a person (``"dm:tg:5"``)."""
    return f"{_DM}{player_id}"


def is_dm(dest: str) -> bool:
    """Whether ``dest`` is a person's private destination."""
    return dest.startswith(_DM)


def is_dm_of(dest: str, platform: str) -> bool:
    """Whether ``dest`` is the private destination of a person of ``platform`` (``"dm:tg:5"``, ``"tg"``)."""
    return dest.startswith(_DM + chat_prefix(platform))


def player_of_dm(dest: str) -> str | None:
    """The person of a private destination (``"dm:tg:5"`` → ``"tg:5"``), else None."""
    return dest[len(_DM):] if dest.startswith(_DM) else None


def person_id(platform: str, user_id: int) -> str:
    """The neutral player id of a platform user (``person_id("tg", 5) == "tg:5"``)."""
    return f"{platform}:{user_id}"


def user_of(player: str, platform: str) -> int | None:
    """The platform's user id in a neutral player id of that platform, else None."""
    prefix = chat_prefix(platform)
    if not player.startswith(prefix):
        return None
    rest = player[len(prefix):]
    return int(rest) if _is_int(rest) else None


def ai_seat_id(level: str, seat: int) -> str:
    """The player id of an AI in ``seat``: ``"ai:<level>:<seat>"``."""
    return f"{_AI}{level}:{seat}"


def is_ai_id(player_id: str) -> bool:
    """Whether ``player_id`` is an AI seat's (``"ai:<level>:<seat>"``)."""
    return player_id.startswith(_AI)


def is_human_id(player_id: str | None) -> bool:
    """True for a person's id (not empty, not an AI)."""
    return bool(player_id) and not is_ai_id(str(player_id))


def tg_group(chat_id: int, thread_id: int | None = None) -> str:
    """The neutral id of a Telegram group or forum topic: ``tg:-100123`` or ``tg:-100123/7``."""
    return f"tg:{chat_id}" if thread_id is None else f"tg:{chat_id}/{thread_id}"


def tg_parse(dest: str) -> tuple[int, int | None]:
    """``(chat_id, message_thread_id)`` of a Telegram destination or chat id; raises ``ValueError``."""
    if dest.startswith("dm:tg:"):
        return _int(dest[6:]), None
    if not dest.startswith("tg:"):
        raise ValueError(f"not a Telegram destination: {dest!r}")
    chat, _, thread = dest[3:].partition("/")
    return _int(chat), (_int(thread) if thread else None)


def is_tg_topic(chat_id: str) -> bool:
    """Whether ``chat_id`` is a Telegram forum topic (``tg:-100123/7``)."""
    return chat_id.startswith(chat_prefix(TELEGRAM)) and "/" in chat_id


def dc_channel(channel_id: int) -> str:
    """The neutral id of a Discord channel or thread: ``dc:<id>`` (also the table's chat id)."""
    return f"dc:{channel_id}"


def dc_guild(guild_id: int) -> str:
    """The settings record of a Discord server: ``dc:guild:<id>`` (its channels inherit it)."""
    return f"{_GUILD}{guild_id}"


def is_dc_channel(chat_id: str) -> bool:
    """Whether ``chat_id`` is a Discord channel or thread (not a server's record, not a DM)."""
    return chat_id.startswith(chat_prefix(DISCORD)) and not chat_id.startswith(_GUILD)


def dc_parse(dest: str) -> int:
    """The channel id (``dc:``) or user id (``dm:dc:``) of a Discord destination; raises ``ValueError``."""
    if dest.startswith("dm:dc:"):
        return _int(dest[6:])
    if dest.startswith("dc:"):
        return _int(dest[3:])
    raise ValueError(f"not a Discord destination: {dest!r}")


def ascii_int(text: str) -> int | None:
    """The whole number spelled in ASCII digits (an optional leading ``-``), else None.

    ``str.isdigit()`` also accepts ``"²"`` and ``"①"``, which ``int()`` refuses.
    """
    return int(text) if _is_int(text) else None


def _is_int(text: str) -> bool:
    body = text[1:] if text.startswith("-") else text
    return bool(body) and body.isascii() and body.isdigit()


def _int(text: str) -> int:
    if not _is_int(text):
        raise ValueError(f"not a whole number: {text!r}")
    return int(text)
