"""A finished table told trick by trick, for the replay page (``/replay/<id>``).

Rebuilt from the table's seed and action log, like ``majlis replay``. Only a table that is no
longer live is told: its hands are no secret any more.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import engine
from bot.adapters.web.view import card
from bot.core.advice import engine_options
from bot.core.model import TableSnapshot
from bot.core.views import events_of
from bot.present.i18n import T
from bot.present.render.cards import by_suit, game_name
from bot.present.render.common import seat_name, trick_taken_text
from bot.present.render.summary import deal_summary, match_over_text
from storage.records import LIVE_STATUSES, ActionRecord, TableRecord


def _hands(g: engine.Game, t: T) -> list[list[dict[str, str]]]:
    return [[card(c, t) for codes in by_suit(g.hand(s)).values() for c in codes] for s in range(4)]


def replay_frames(record: TableRecord, actions: Iterable[ActionRecord], t: T) -> dict[str, Any]:
    """The replay of a finished table: seat names and one frame per trick and per deal's end."""
    if record.status in LIVE_STATUSES:
        raise ValueError("a live table is not replayed")
    snap = TableSnapshot(table=record)
    g = engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=engine_options(record.options))
    frames: list[dict[str, Any]] = []
    deal = 1
    hands = _hands(g, t)

    def title() -> str:
        return t.gettext("{game} · table {table} · deal {deal}", game=game_name(record.game, t),
                         table=record.table_id, deal=deal)

    for a in actions:
        for e in events_of(g.act(a.seat, a.action)):
            if e["type"] == "trick_taken":
                frames.append({
                    "title": title(),
                    "text": trick_taken_text(snap, int(e.get("trick_no") or 0), int(e["seat"]), t),
                    "trick": [{"seat": int(p["seat"]), **card(str(p["card"]), t)} for p in e.get("cards") or []],
                    "winner": int(e["seat"]),
                    "hands": hands,
                })
                hands = _hands(g, t)
            elif e["type"] == "deal_scored":
                frames.append({"title": title(), "text": deal_summary(snap, e, t), "trick": [], "winner": None,
                               "hands": hands})
            elif e["type"] == "match_over":
                frames.append({"title": title(), "text": match_over_text(snap, e, t), "trick": [],
                               "winner": None, "hands": hands})
            elif e["type"] == "deal_started":
                deal = int(e.get("deal_no") or deal + 1)
                hands = _hands(g, t)
    return {"table": record.table_id, "seats": [seat_name(snap, s, t) for s in range(4)], "frames": frames}
