"""The pause after a deal: the next deal's first AI move waits ``deal_pause`` so people read the result;
the only person at the table ends it with Next deal (issue 29, item 4)."""

from __future__ import annotations

import random

import pytest
from test_manager_helpers import ALICE, BOB, CAROL, Harness, make_manager, person_to_act, started_table, turn

from bot.core.commands import Actor, NextDeal
from bot.core.errors import Refusal, TableError
from bot.core.identity import dm_dest
from bot.core.model import Person, TableSnapshot
from bot.core.service import Service
from storage.memory import MemoryRepository

PAUSE = 6.0


async def to_deal_end(h: Harness, table_id: int, people: tuple[Person, ...]) -> TableSnapshot:
    """Play (people: random legal moves; AI: one paced second at a time) until a deal is scored and an
    AI seat is the first to act in the next one."""
    rng = random.Random(3)
    seen = len(h.events("deal_scored"))
    for _ in range(2000):
        snap = h.manager.get(table_id)
        assert snap is not None and snap.table.status == "playing"
        if len(h.events("deal_scored")) > seen:
            if snap.table.seats[turn(h, snap) or 0].is_ai:
                return snap
            seen = len(h.events("deal_scored"))  # a person opens this deal: try the next one
        person = person_to_act(h, snap, people)
        if person is not None:
            legal = h.manager.view(table_id, turn(h, snap))["legal"]
            await h.manager.act(table_id, person, snap.table.version, rng.choice(legal))
        else:
            h.clock.advance(1.0)
            await h.manager.run_due()
    raise AssertionError("no deal ended with an AI seat to open the next")


async def test_the_first_ai_move_of_the_next_deal_waits_the_pause_and_next_deal_ends_it() -> None:
    h = make_manager(MemoryRepository(), ai_delay=1.0, deal_pause=PAUSE, default_turn_seconds=0)
    await h.manager.start()
    try:
        snap = await started_table(h, ALICE, game="tarneeb41")
        snap = await to_deal_end(h, snap.table_id, (ALICE,))
        version = snap.table.version
        h.clock.advance(PAUSE - 3.0)  # the AI's usual second is long gone: it still waits
        await h.manager.run_due()
        assert h.manager.get(snap.table_id).table.version == version  # type: ignore[union-attr]
        service = Service(h.manager)
        await service.dispatch(NextDeal(snap.table_id), Actor(ALICE, dm_dest(ALICE.player_id)))
        h.clock.advance(0.99)  # after Next deal, the AI's usual pace (1 s)
        await h.manager.run_due()
        assert h.manager.get(snap.table_id).table.version == version  # type: ignore[union-attr]
        h.clock.advance(0.01)
        await h.manager.run_due()
        assert h.manager.get(snap.table_id).table.version == version + 1  # type: ignore[union-attr]
        with pytest.raises(TableError) as e:  # a stranger's Next deal: refused, nothing changes
            await service.dispatch(NextDeal(snap.table_id), Actor(CAROL, dm_dest(CAROL.player_id)))
        assert e.value.code == Refusal.NOT_SEATED
    finally:
        await h.manager.close()


async def test_with_two_people_next_deal_does_not_cut_the_others_pause_which_runs_out_by_itself() -> None:
    h = make_manager(MemoryRepository(), ai_delay=1.0, deal_pause=PAUSE, default_turn_seconds=0)
    await h.manager.start()
    try:
        snap = await started_table(h, ALICE, BOB, game="tarneeb41")
        snap = await to_deal_end(h, snap.table_id, (ALICE, BOB))
        version = snap.table.version
        await h.manager.next_deal(snap.table_id, ALICE)
        h.clock.advance(PAUSE - 0.01)
        await h.manager.run_due()
        assert h.manager.get(snap.table_id).table.version == version  # type: ignore[union-attr]
        h.clock.advance(0.01)
        await h.manager.run_due()
        assert h.manager.get(snap.table_id).table.version == version + 1  # type: ignore[union-attr]
    finally:
        await h.manager.close()


async def test_without_a_pause_setting_the_next_deal_goes_on_at_the_ai_pace() -> None:
    h = make_manager(MemoryRepository(), ai_delay=1.0, default_turn_seconds=0)
    await h.manager.start()
    try:
        snap = await started_table(h, ALICE, game="tarneeb41")
        snap = await to_deal_end(h, snap.table_id, (ALICE,))
        h.clock.advance(1.0)
        await h.manager.run_due()
        assert h.manager.get(snap.table_id).table.version == snap.table.version + 1  # type: ignore[union-attr]
    finally:
        await h.manager.close()
