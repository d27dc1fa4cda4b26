"""Words only the Telegram adapter says: usage, refusals of commands, settings, deep-link joins.

Help, rules, scores, leaderboards and stats come from ``bot/present/render`` like on every platform.

Every sentence is a gettext message (``t.gettext``) so that the catalogs carry its Arabic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.identity import ascii_int
from bot.core.model import TableSnapshot
from bot.present.i18n import T
from bot.present.render.cards import game_name
from storage.records import ChatRecord

GAMES = ("tarneeb41", "tarneeb", "trix")
#: What people may type after /new for each game.
GAME_ALIASES = {
    "tarneeb41": "tarneeb41", "41": "tarneeb41", "syrian": "tarneeb41", "طرنيب41": "tarneeb41",
    "tarneeb": "tarneeb", "طرنيب": "tarneeb",
    "trix": "trix", "tricks": "trix", "تركس": "trix", "تريكس": "trix",
}




def new_usage(t: T) -> str:
    """How to use /new."""
    return t.gettext("Use /new tarneeb41, /new tarneeb or /new trix, optionally with target=N.")


def private_only(t: T) -> str:
    """A group command sent in the private chat."""
    return t.gettext("Use this command in a group where you play.")


def lang_usage(t: T) -> str:
    """How to use /lang."""
    return t.gettext("Use /lang ar or /lang en.")


def lang_set(t: T) -> str:
    """The confirmation of /lang, in the new language (``t``)."""
    language = t.pgettext("language", "Arabic") if t.lang == "ar" else t.pgettext("language", "English")
    return t.gettext("From now on I speak {language} here.", language=language)


def admins_only(t: T) -> str:
    """Refusal of an admin command."""
    return t.gettext("Only the group's admins may change this.")


def settings_usage(t: T) -> str:
    """How to use /settings."""
    return t.gettext("Use /settings turn=SECONDS digits=western|arabic ai=easy|normal|strong "
                     "hands=both|group|dm notify=on|off GAME.target=N")


def hands_setting(hands: str, t: T) -> str:
    """Where the chat's hands go (``ChatRecord.hands``), in one line of /settings."""
    if hands == "group":
        where = t.gettext("in the group, each to its player only (My hand)")
    elif hands == "dm":
        where = t.gettext("in the private chat with me")
    else:
        where = t.gettext("in the private chat, and in the group to its player only (My hand)")
    return t.gettext("Hands: {where}", where=where)


def settings_text(chat: ChatRecord, t: T) -> str:
    """The current settings of a chat."""
    lines = [t.ngettext("Turn timer: {n} second", "Turn timer: {n} seconds", chat.turn_seconds),
             t.gettext("Digits: {digits}", digits=chat.digits),
             t.gettext("AI level: {level}", level=chat.ai_level),
             hands_setting(chat.hands, t),
             t.gettext("Table calls (/notify tables on): allowed") if chat.notify
             else t.gettext("Table calls (/notify tables on): not allowed")]
    for game, opts in sorted(chat.default_options.items()):
        shown = " ".join(f"{k}={v}" for k, v in sorted(opts.items()))
        lines.append(t.gettext("{game} defaults: {options}", game=game_name(game, t), options=shown))
    return "\n".join(lines)





def joined_text(snapshot: TableSnapshot, seat: int, t: T) -> str:
    """The private confirmation after a deep-link join."""
    return t.gettext("You sit in seat {seat} at table {table} ({game}). Your cards will come here.",
                     seat=seat, table=snapshot.table.table_id, game=game_name(snapshot.table.game, t))


def welcome_text(t: T) -> str:
    """The answer to a plain /start in the private chat."""
    return t.gettext("Welcome to Majlis. Add me to a group and type /new there; your cards will come "
                     "to you here.")


def hand_alert(hand: Sequence[str], legal: Sequence[str], t: T, line: str) -> str:
    """The "My hand" alert (≤ 200 characters): the cards, and whether it is your turn."""
    text = line if hand else t.gettext("You hold no cards now.")
    if legal:
        text = t.gettext("Your turn. {cards}", cards=text)
    return text[:200]


#: The words of a switch in a command (``ai=on``, ``season=off``).
ON_WORDS, OFF_WORDS = ("on", "yes", "1", "true"), ("off", "no", "0", "false")


def parse_options(words: Sequence[str]) -> dict[str, Any]:
    """``["target=31", "x=true"]`` → ``{"target": 31, "x": True}``; words without ``=`` are ignored."""
    out: dict[str, Any] = {}
    for w in words:
        key, sep, raw = w.partition("=")
        if not sep or not key:
            continue
        out[key.strip().lower()] = _value(raw.strip())
    return out


def _value(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    number = ascii_int(raw)  # ASCII digits only: "٣٠", "²" or "①" stay words and are refused as values
    return number if number is not None else raw
