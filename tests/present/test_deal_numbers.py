"""Issue 29, item 7b: a deal number means the same on the title, the web score sheet and the replay,
a thrown-in deal included (the sheet shows it as a row "N (thrown in)")."""

from __future__ import annotations

import dataclasses

from test_render_helpers import record

import engine
from bot.adapters.web.hub import replay_rows
from bot.adapters.web.view import sheet
from bot.core.model import TableSnapshot
from bot.core.views import events_of, public_view
from bot.present.i18n import translator
from bot.present.render.table import _header
from bot.present.story import Story

EN = translator("en")


@dataclasses.dataclass
class Action:
    seat: int
    action: str
    seq: int


def play_with_two_thrown_in_deals() -> tuple[engine.Game, list[Action]]:
    """A Tarneeb 41 match whose first two deals are thrown in (every bid 2), the third played out (every bid 4)."""
    g = engine.new_game("tarneeb41", seed=5, dealer=0)
    log: list[Action] = []
    while public_view(g).get("deal_no") in (1, 2, 3):
        seat = g.to_act
        bid = "bid 2" if public_view(g).get("deal_no") in (1, 2) else "bid 4"  # 8 < 11 thrown in; 16 played
        action = bid if bid in g.legal() else g.auto()
        g.act(seat, action)
        log.append(Action(seat, action, len(log) + 1))
    return g, log


def test_the_title_the_score_sheet_and_the_replay_number_the_deals_alike() -> None:
    g, log = play_with_two_thrown_in_deals()
    rec = dataclasses.replace(record("tarneeb41"), seed=5, dealer=0)
    title = _header(TableSnapshot(rec, public_view(g)), public_view(g), EN)
    assert title.endswith("deal 4")  # two thrown in, one scored, the fourth being dealt

    rows, _ = replay_rows(rec, log)
    body = sheet(TableSnapshot(rec, public_view(g)), rows, None, EN)["rows"]
    assert [r[0] for r in body] == ["1 (thrown in)", "2 (thrown in)", "3"]
    assert body[0][1:] == ["—", "—"] and body[2][1].startswith(("+", "−", "0"))
    assert len(body) + 1 == 4  # the next row the sheet will write is the title's deal

    story = Story(rec, EN, show_hands=False)
    g2 = engine.new_game("tarneeb41", seed=5, dealer=0)
    for a in log:
        for e in events_of(g2.act(a.seat, a.action)):
            story.event(e)
    told = [line for line in story.lines if line.startswith("Deal ")]
    assert [line.split(" — ")[0] for line in told] == ["Deal 2", "Deal 3", "Deal 4"]  # deal 1 opens the log
