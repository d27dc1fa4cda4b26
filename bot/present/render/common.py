"""Small pieces shared by the renderers: seat names, teams, action buttons, score lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.core.identity import TERMINAL_PLAYER
from bot.core.model import TableSnapshot
from bot.core.views import Double, Play, Scores
from bot.present import codec
from bot.present.i18n import T
from bot.present.render.cards import card_label, contract_name, trump_label
from bot.present.render.message import Button

TEAM_GAMES = frozenset({"tarneeb", "tarneeb41"})
#: The one person at a terminal table (``majlis play``) is always "You" in the language of the screen.


def seat_name(snapshot: TableSnapshot, seat: int, t: T) -> str:
    """The name shown for a seat: ``snapshot.table.seats[i].name``; "Sara (AI)" while an AI plays a
    person's seat; "AI 2" for an AI seat without a name; "Seat 2" when empty.

    Kept by the translator for the seats tuple it was made of (a table's records share their seats
    tuple until a seat changes): a message names each seat several times."""
    seats = snapshot.table.seats
    key = (_SEAT_NAME, id(seats), seat)
    hit = t.recall(key)
    if hit is not None and hit[0] is seats:
        name: str = hit[1]
        return name
    name = _seat_name(seats, seat, t)
    t.keep(key, (seats, name))  # the tuple held: its id is not reused while the entry lives
    return name


_SEAT_NAME = object()


def _seat_name(seats: tuple[Any, ...], seat: int, t: T) -> str:
    s = seats[seat] if 0 <= seat < len(seats) else None
    if s is not None and s.player_id == TERMINAL_PLAYER:  # named in the reader's language, not the stored one
        return t.gettext("You (AI)") if s.is_ai else t.gettext("You")
    if s is not None and s.name:
        return t.gettext("{name} (AI)", name=s.name) if s.is_ai else s.name
    if s is not None and s.is_ai:
        return t.gettext("AI {seat}", seat=seat)
    return t.gettext("Seat {seat}", seat=seat)


def viewer(snapshot: TableSnapshot, me: int | None) -> int | None:
    """The reader's seat: ``me``, else the seat of the terminal's player (who is "You" to every text
    about that table, so that no sentence says "You is")."""
    if me is not None:
        return me
    for i, s in enumerate(snapshot.table.seats):
        if s.player_id == TERMINAL_PLAYER:
            return i
    return None


def seat_order(t: T) -> str:
    """The order of play, ``0 → 1 → 2 → 3`` in the reader's digits; in Arabic read from the right,
    the arrows pointing the way it is read (``0 ← 1 ← 2 ← 3``)."""
    return t.join([t.number(i) for i in range(4)], sep=" ← " if t.rtl else " → ")


def team_name(team: int, t: T, me: int | None = None) -> str:
    """Team A (seats 0 and 2) or Team B (seats 1 and 3); "Us" / "Them" for a reader at seat ``me``."""
    if me is not None:
        return t.gettext("Us") if team == me % 2 else t.gettext("Them")
    return t.gettext("Team A") if team == 0 else t.gettext("Team B")


def trick_line(snapshot: TableSnapshot, plays: Iterable[Play | Double], t: T) -> str:
    """``Ali Q♠ · Sara 3♠`` for a list of ``{"seat", "card"}``."""
    return t.join([
        t.gettext("{name} {card}", name=seat_name(snapshot, p["seat"], t), card=card_label(p["card"], t))
        for p in plays
    ], sep=" · ")


def taken_by(snapshot: TableSnapshot, seat: int, t: T, me: int | None = None) -> str:
    """"Taken by Sara" for a trick's taker; "Taken by you" for the reader (``me``, or the terminal's
    player)."""
    if seat == viewer(snapshot, me):
        return t.gettext("Taken by you")
    return t.gettext("Taken by {name}", name=seat_name(snapshot, seat, t))


def trick_taken_text(snapshot: TableSnapshot, trick: int, seat: int, t: T, me: int | None = None) -> str:
    """"Trick 3: taken by Sara" (the web replay's caption); "taken by you" for the reader."""
    if seat == viewer(snapshot, me):
        return t.gettext("Trick {n}: taken by you", n=trick)
    return t.gettext("Trick {n}: taken by {name}", n=trick, name=seat_name(snapshot, seat, t))


def doubled_list(snapshot: TableSnapshot, doubled: Iterable[Double], t: T, me: int | None = None) -> str:
    """``K♥ by Ali, Q♠ by Sara`` for revealed doubles (``{"card", "seat"}``); "Q♠ by you" for seat ``me``."""
    items = []
    me = viewer(snapshot, me)
    for d in doubled:
        if int(d["seat"]) == me:
            items.append(t.gettext("{card} by you", card=card_label(d["card"], t)))
            continue
        item = t.gettext("{card} by {name}", card=card_label(d["card"], t), name=seat_name(snapshot, int(d["seat"]), t))
        items.append(item)
    return t.join(items)


def shown_bid(snapshot: TableSnapshot, bid: int) -> int:
    """A classic Tarneeb bid as the table shows it: tricks (7..13), or levels (1..7) with
    ``bid_display = levels`` (seed 001's way of saying it)."""
    display = (snapshot.public or {}).get("bid_display") or (snapshot.table.options or {}).get("bid_display")
    return bid - 6 if snapshot.table.game == "tarneeb" and display == "levels" else bid


def action_label(code: str, t: T, *, levels: bool = False) -> str:
    """A short button label for an engine action code (``levels``: classic bids as 1..7)."""
    words = code.split()
    verb = words[0]
    if verb == "play" and len(words) == 2:
        return card_label(words[1], t)
    if verb == "bid" and len(words) == 2:
        return t.number(int(words[1]) - (6 if levels else 0))
    if verb == "pass":
        return t.pgettext("action", "Pass")
    if verb == "trump" and len(words) == 2:
        return trump_label(words[1], t)
    if verb == "contract" and len(words) == 2:
        return contract_name(words[1], t)
    if verb == "double" and len(words) == 2:
        return t.gettext("Double {card}", card=card_label(words[1], t))
    if verb == "done":
        return t.pgettext("action", "Done")
    return code


def action_button(snapshot: TableSnapshot, code: str, t: T, *, enabled: bool = True,
                  style: str = "primary") -> Button:
    """A button that sends ``code`` at the snapshot's version."""
    label = action_label(code, t, levels=shown_bid(snapshot, 13) == 7)
    if not enabled:
        label = f"({label})"
    payload = codec.encode("a", snapshot.table.table_id, snapshot.table.version, code)
    return Button(label, payload=payload, style=style if enabled else "secondary", disabled=not enabled)


def hand_button(snapshot: TableSnapshot, t: T) -> Button:
    """The "My hand" button of a public table (works at any version)."""
    return Button(t.gettext("My hand"), payload=codec.encode("h", snapshot.table.table_id, None),
                  style="primary")


def score_lines(snapshot: TableSnapshot, scores: Scores, game: str, t: T,
                me: int | None = None) -> list[str]:
    """The running totals, one line per team or player (teams as "Us" / "Them" for a reader at ``me``,
    the reader's team first)."""
    players = scores.get("players") or []
    teams = scores.get("teams") or []
    out: list[str] = []
    order = (me % 2, 1 - me % 2) if me is not None else (0, 1)
    if game == "tarneeb41" and players and teams:
        for team in order:
            a, b = team, team + 2
            out.append(t.gettext(
                "{team}: {total} ({name_a} {score_a}, {name_b} {score_b})",
                team=team_name(team, t, me), total=teams[team],
                name_a=seat_name(snapshot, a, t), score_a=players[a],
                name_b=seat_name(snapshot, b, t), score_b=players[b],
            ))
    elif game in TEAM_GAMES and teams:
        for team in order:
            out.append(t.gettext(
                "{team} ({name_a} & {name_b}): {total}", team=team_name(team, t, me),
                name_a=seat_name(snapshot, team, t), name_b=seat_name(snapshot, team + 2, t),
                total=teams[team],
            ))
    else:
        for seat, score in enumerate(players):
            out.append(t.gettext("{name}: {score}", name=seat_name(snapshot, seat, t), score=score))
        for team, total in enumerate(teams[:2]):  # Trix played in partnership
            out.append(t.gettext(
                "{team} ({name_a} & {name_b}): {total}", team=team_name(team, t, me),
                name_a=seat_name(snapshot, team, t), name_b=seat_name(snapshot, team + 2, t), total=total,
            ))
    return out


def winners_text(snapshot: TableSnapshot, winner: list[int], game: str, t: T, *,
                 teams: bool | None = None, me: int | None = None) -> str:
    """"Team A (Ali & Omar) wins" / "Ali wins" / "a draw: Ali, Sara share the top score"; for a reader at seat
    ``me``: "We win" / "They win" / "You win".

    ``teams``: partners win together (default: the Tarneeb games; Trix with ``partnership``)."""
    names = [seat_name(snapshot, s, t) for s in winner]
    me = viewer(snapshot, me)
    if not names:
        return ""
    if teams is None:
        teams = game in TEAM_GAMES or bool((snapshot.table.options or {}).get("partnership"))
    if teams and len(winner) == 2 and winner[1] - winner[0] == 2:
        if me is not None:
            if winner[0] % 2 == me % 2:
                return t.gettext("We win the match ({name_a} & {name_b})!", name_a=names[0], name_b=names[1])
            return t.gettext("They win the match ({name_a} & {name_b}).", name_a=names[0], name_b=names[1])
        return t.gettext("{team} ({name_a} & {name_b}) wins the match!",
                         team=team_name(winner[0] % 2, t), name_a=names[0], name_b=names[1])
    if len(names) == 1:
        if me is not None and winner[0] == me:
            return t.gettext("You win the match!")
        return t.gettext("{name} wins the match!", name=names[0])
    return t.gettext("The match ends in a draw: {names} share the top score.", names=t.join(names))
