"""Platform-neutral ids of people, chats and private destinations (the one place they are spelled).

Chats: ``"tg:-100123"``, ``"tg:-100123/7"`` (a forum topic), ``"dc:<channel>"``, ``"cli:<name>"``.
People: ``"tg:<user>"``, ``"dc:<user>"``, ``"cli:you"``; AI seats ``"ai:<level>:<seat>"``.
A person's private destination (DM) is ``"dm:<player_id>"``.
"""

from __future__ import annotations

TELEGRAM, DISCORD, CLI = "tg", "dc", "cli"


def platform_of(dest: str) -> str:
    """``"tg"`` for ``"tg:-100"``, ``"dm:tg:5"`` or ``"tg:5"``."""
    return dest.removeprefix("dm:").split(":", 1)[0]


def dm_dest(player_id: str) -> str:
    """The private destination of a person (``"dm:tg:5"``)."""
    return f"dm:{player_id}"


def is_dm(dest: str) -> bool:
    """Whether ``dest`` is a person's private destination."""
    return dest.startswith("dm:")


def player_of_dm(dest: str) -> str | None:
    """The person of a private destination (``"dm:tg:5"`` → ``"tg:5"``), else None."""
    return dest[3:] if dest.startswith("dm:") else None


def person_id(platform: str, user_id: int) -> str:
    """The neutral player id of a platform user (``person_id("tg", 5) == "tg:5"``)."""
    return f"{platform}:{user_id}"


def user_of(player: str, platform: str) -> int | None:
    """The platform's user id in a neutral player id of that platform, else None."""
    prefix = f"{platform}:"
    if not player.startswith(prefix):
        return None
    rest = player[len(prefix):]
    return int(rest) if _is_int(rest) else None


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


def dc_channel(channel_id: int) -> str:
    """The neutral id of a Discord channel or thread: ``dc:<id>`` (also the table's chat id)."""
    return f"dc:{channel_id}"


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
