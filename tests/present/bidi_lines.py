"""The composite lines of a table (lists of bids, cards on the table, the last trick, scores per player,
Trix layout rows, the order of play), rendered by the real renderers from real engine views, each with
the pieces whose reading order the bidi tests check (``tests/present/test_bidi_reading_order.py``
through python-bidi, ``tests/adapters/web/test_bidi_browser.py`` through Chromium)."""

from __future__ import annotations

import dataclasses
from typing import Any

import engine
from bot.core.model import TableSnapshot, TableUpdate
from bot.present.i18n import T
from bot.present.render import render_notices
from bot.present.render.cards import SUIT_SYMBOL, card_label
from bot.present.render.common import score_lines, seat_name
from bot.present.render.table import game_lines, table_lines
from storage.records import Seat, TableRecord

#: Seats with a Latin name, a Latin name, an Arabic name and an AI ("AI 3" / "لاعب آلي 3").
SEATS = (Seat(player_id="tg:0", name="Ali"), Seat(player_id="tg:1", name="Omar"),
         Seat(player_id="tg:2", name="سارة"), Seat(player_id="ai:3", name="", is_ai=True))
#: The same with a Latin name at seat 2 (English lines are not isolated: an Arabic name in them is
#: another matter, see ``test_an_arabic_name_in_an_english_line_keeps_its_card_after_it``).
LATIN_SEATS = (*SEATS[:2], Seat(player_id="tg:2", name="Sara"), SEATS[3])


@dataclasses.dataclass(frozen=True)
class Line:
    """A rendered line and its items in logical order, each item its pieces in logical order (the
    first piece names the item: its place is the item's place)."""

    kind: str
    text: str
    items: tuple[tuple[str, ...], ...]


def _snap(g: engine.Game, view: dict[str, Any], seats: tuple[Seat, ...]) -> TableSnapshot:
    rec = TableRecord(table_id=7, chat_id="tg:-100", game=g.game_id, options={}, seed=1,
                      dealer=0, creator="tg:0", status="playing", seats=seats, version=5)
    return TableSnapshot(rec, view, g.to_act)


def _find(lines: list[str], start: str) -> str:
    hits = [x for x in lines if x.lstrip("\u200f ").startswith(start)]
    assert len(hits) == 1, (start, lines)
    return hits[0]


def _name(snap: TableSnapshot, seat: int, t: T) -> str:
    """The part of a seat's name that is the same in every seat's name only once ("لاعب آلي", not the
    isolated digit after it), searchable in a line laid out either way."""
    name = seat_name(snap, seat, t)
    return name.split("\u2068")[0].strip()


def composite_lines(t: T, seats: tuple[Seat, ...] = SEATS) -> list[Line]:
    """One line of each kind, in ``t``'s language, around ``seats``."""
    out: list[Line] = []
    # Tarneeb 41: three bids in (seats 2, 3, 0), as a seat's page shows them (the web's info lines)
    g = engine.new_game("tarneeb41", seed=3, options={"target": 41})
    for code in ("bid 5", "bid 6", "bid 7"):
        g.act(g.to_act, code)
    snap = _snap(g, g.view(0), seats)
    bids = game_lines(snap, g.view(0), t)
    text = _find(bids, t.gettext("Bids: {bids}", bids="").strip())
    out.append(Line("bids", text, tuple((_name(snap, s, t),) for s in (0, 2, 3))))
    # ... then play until two cards lie on the table and a trick has been taken
    g.act(g.to_act, "bid 4")
    while not (g.view(None).get("last_trick") and len(g.view(None).get("trick") or []) >= 2):
        g.act(g.to_act, g.auto())
    pub = g.view(None)
    snap = _snap(g, pub, seats)
    lines = table_lines(snap, t)
    on = _find(lines, t.gettext("On the table: {cards}", cards="").strip())
    out.append(Line("on the table", on, tuple((_name(snap, p["seat"], t), card_label(p["card"], t))
                                               for p in pub["trick"])))
    last = _find(lines, t.gettext("Last trick: {cards} (taken by {name})", cards="", name="").split(":")[0])
    out.append(Line("last trick", last, tuple((_name(snap, p["seat"], t), card_label(p["card"], t))
                                              for p in pub["last_trick"]["cards"])))
    order = _find(lines, t.gettext("Play passes {order}", order="").strip())
    out.append(Line("order of play", order, tuple((t.number(i),) for i in range(4))))
    for team, text in enumerate(score_lines(snap, pub["scores"], "tarneeb41", t)):
        out.append(Line(f"scores per player, team {team}", text,
                        tuple((_name(snap, s, t),) for s in (team, team + 2))))
    # the table's first notice names the players in the order of play
    started = render_notices(TableUpdate(snap, [{"type": "table_started"}]), t)  # type: ignore[list-item]
    text = started[0].text.split("\n")[0]
    out.append(Line("players", text, tuple((_name(snap, s, t),) for s in range(4))))
    # Tarneeb: the auction so far
    g = engine.new_game("tarneeb", seed=4)
    first = g.to_act
    for code in ("bid 7", "pass", "bid 8"):
        g.act(g.to_act, code)
    snap = _snap(g, g.view(None), seats)
    auction = _find(table_lines(snap, t), t.gettext("Auction: {bids}", bids="").strip())
    out.append(Line("auction", auction, tuple((_name(snap, (first + i) % 4, t),) for i in range(3))))
    # Trix: the layout, in the terminal's one line
    g = engine.new_game("trix", seed=3)
    g.act(g.to_act, "contract trix")
    while sum(1 for r in (g.view(None).get("layout") or {}).values() if r) < 3:
        g.act(g.to_act, g.auto())
    snap = _snap(g, g.view(None), seats)
    layout = _find(table_lines(snap, t, compact=True), t.gettext("Layout:"))
    out.append(Line("layout rows", layout, tuple((SUIT_SYMBOL[s],) for s in "SHDC")))
    return out
