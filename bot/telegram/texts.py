"""Words the Telegram adapter says itself: help, rules in brief, usage, scores, leaderboards, settings.

Every sentence is a gettext message (``t.gettext``) so that the catalogs carry its Arabic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import T
from bot.render.cards import game_name
from bot.render.common import score_lines
from bot.types import TableSnapshot
from storage.records import ChatRecord, LeaderRow, PlayerStats

GAMES = ("tarneeb41", "tarneeb", "trix")
#: What people may type after /new for each game.
GAME_ALIASES = {
    "tarneeb41": "tarneeb41", "41": "tarneeb41", "syrian": "tarneeb41", "طرنيب41": "tarneeb41",
    "tarneeb": "tarneeb", "طرنيب": "tarneeb",
    "trix": "trix", "tricks": "trix", "تركس": "trix", "تريكس": "trix",
}


def help_text(t: T) -> str:
    """The /help answer: every command in one line each."""
    lines = [
        t.gettext("Majlis: Tarneeb, Syrian Tarneeb 41 and Trix at this table."),
        t.gettext("/new tarneeb41|tarneeb|trix [target=N]: open a table"),
        t.gettext("/join: take a seat · /leave: leave your seat"),
        t.gettext("/begin: start the match (AI players fill empty seats)"),
        t.gettext("/stop: end the table (creator or admin)"),
        t.gettext("/scores: this table's scores · /leaderboard [game]: this group's best"),
        t.gettext("/stats: your record · /rules [game]: the rules in brief"),
        t.gettext("/lang ar|en: the group's language (admins) · /settings: turn timer and defaults (admins)"),
        t.gettext("Your cards come to you in a private chat with me: press Start there once."),
    ]
    return "\n".join(lines)


def rules_text(game: str | None, t: T) -> str:
    """A few lines per game; ``game`` None gives all three."""
    out: list[str] = []
    for g in GAMES if game is None else (game,):
        out.append(f"• {game_name(g, t)}")
        if g == "tarneeb41":
            out.append(t.gettext(
                "Partners sit opposite. The dealer's last card is shown and its suit is trump. Each player "
                "bids the tricks they will take (the four bids must total at least 11). Make your bid to "
                "score it, miss it to lose it. A team wins at 41 when both partners are positive."))
        elif g == "tarneeb":
            out.append(t.gettext(
                "Partners sit opposite. Bid 7 to 13 tricks or pass; the highest bidder names trump. Make "
                "the bid to score the tricks taken; fail and the bid is lost while the defenders score "
                "theirs. The first team to the target wins."))
        else:
            out.append(t.gettext(
                "Four kingdoms, each player owns one and chooses its five contracts in turn: King of "
                "Hearts, Queens, Diamonds and Tricks are taken to lose points; in Trix cards are laid out "
                "from the jacks and the first out scores most. The highest total after 20 deals wins."))
    return "\n".join(out)


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
    """The confirmation of /lang, in the new language."""
    return t.gettext("From now on I speak English here.")


def admins_only(t: T) -> str:
    """Refusal of an admin command."""
    return t.gettext("Only the group's admins may change this.")


def settings_usage(t: T) -> str:
    """How to use /settings."""
    return t.gettext("Use /settings turn=SECONDS digits=western|arabic ai=easy|normal|strong "
                     "GAME.target=N")


def settings_text(chat: ChatRecord, t: T) -> str:
    """The current settings of a chat."""
    lines = [t.gettext("Turn timer: {seconds} s", seconds=chat.turn_seconds),
             t.gettext("Digits: {digits}", digits=chat.digits),
             t.gettext("AI level: {level}", level=chat.ai_level)]
    for game, opts in sorted(chat.default_options.items()):
        shown = " ".join(f"{k}={v}" for k, v in sorted(opts.items()))
        lines.append(t.gettext("{game} defaults: {options}", game=game_name(game, t), options=shown))
    return "\n".join(lines)


def scores_text(snapshot: TableSnapshot, t: T) -> str:
    """The running scores of a table."""
    pub = snapshot.public or {}
    scores: dict[str, list[int]] = pub.get("scores") or {}
    head = t.gettext("{game} · table {table}", game=game_name(snapshot.table.game, t),
                     table=snapshot.table.table_id)
    if not scores:
        return "\n".join([head, t.gettext("The match has not started yet.")])
    return "\n".join([head, *score_lines(snapshot, scores, snapshot.table.game, t)])


def leaderboard_text(game: str, rows: Sequence[LeaderRow], t: T) -> str:
    """One game's leaderboard in this chat."""
    head = t.gettext("Leaderboard · {game}", game=game_name(game, t))
    if not rows:
        return "\n".join([head, t.gettext("No finished matches yet.")])
    lines = [head]
    for i, r in enumerate(rows, 1):
        lines.append(t.gettext("{rank}. {name}: rating {rating}, {wins} wins in {matches} matches",
                               rank=i, name=r.name, rating=round(r.rating), wins=r.wins,
                               matches=r.matches))
    return "\n".join(lines)


def stats_text(name: str, stats: Sequence[PlayerStats], t: T) -> str:
    """A player's record per game."""
    head = t.gettext("{name}'s record", name=name)
    if not stats:
        return "\n".join([head, t.gettext("No finished matches yet.")])
    lines = [head]
    for s in stats:
        lines.append(t.gettext("{game}: {wins} wins in {matches} matches, rating {rating}",
                               game=game_name(s.game, t), wins=s.wins, matches=s.matches,
                               rating=round(s.rating)))
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
    try:
        return int(raw)
    except ValueError:
        return raw
