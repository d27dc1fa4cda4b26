"""Hints and deal reviews through the dispatch (bot/core/service.py, bot/core/advice.py): who may ask,
where they are allowed, that they stay private and are the same for the same position and seed."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from bot.core import advice as table_advice
from bot.core.commands import Actor, Hint, Review
from bot.core.errors import TableError
from bot.core.service import Service
from bot.core.tables import ai_runner
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, Harness, make_manager, started_table, turn

HINTS = {table_advice.HINTS: True}


@pytest.fixture(autouse=True)
def in_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The advice in a worker thread (the process pool's own tests, the cap's among them, are in
    tests/ai/test_ai_pool.py), under a cap no loaded machine reaches: what is tested here is what the
    answer says and where it goes, never how fast it comes."""
    monkeypatch.setattr(ai_runner, "POOL", False)
    monkeypatch.setattr(ai_runner, "HARD_CAP", 20.0)
    monkeypatch.setattr(ai_runner, "deadline_in", lambda: time.monotonic() + 19.0)
    yield


async def alices_turn(h: Harness, game: str = "trix", options: dict[str, object] | None = None) -> int:
    """A table of Alice and three AI seats, run until Alice must play a card with a real choice."""
    snap = await started_table(h, ALICE, game=game, options=HINTS if options is None else options)
    rng = random.Random(3)
    for _ in range(200):
        view = h.manager.view(snap.table_id, 0)
        if turn(h, snap) == 0 and view.get("phase") == "play" and len(view["legal"]) > 2:
            return snap.table_id
        assert turn(h, snap) == 0
        snap = await h.manager.act(snap.table_id, ALICE, snap.table.version, rng.choice(view["legal"]))
        await h.manager.run_due()
        got = h.manager.get(snap.table_id)
        assert got is not None
        snap = got
    raise AssertionError("Alice never had a choice of cards")


async def test_a_hint_answers_the_seat_whose_turn_it_is_and_only_them() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    table_id = await alices_turn(h)
    published = len(h.updates)
    version = h.manager.get(table_id).table.version  # type: ignore[union-attr]
    answer = await service.dispatch(Hint(table_id, version), Actor(ALICE, CHAT))
    assert answer.seat == 0 and answer.hint is not None and answer.review is None
    assert answer.hint.action in h.manager.view(table_id, 0)["legal"]
    assert answer.hint.runner_up in h.manager.view(table_id, 0)["legal"] and answer.hint.loss is not None
    assert answer.hint.loss >= 0 and answer.hint.unit == "points"
    assert len(h.updates) == published  # nothing published: no other seat nor the group hears of it
    assert h.manager.get(table_id).table.version == version  # type: ignore[union-attr]
    again = await service.dispatch(Hint(table_id, None), Actor(ALICE, CHAT))
    assert again.hint == answer.hint  # the same position and seed: the same hint


async def test_a_hint_is_refused_to_anyone_else_out_of_turn_or_for_an_old_position() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    table_id = await alices_turn(h)
    version = h.manager.get(table_id).table.version  # type: ignore[union-attr]
    for cmd, actor, why in ((Hint(table_id, version), Actor(BOB, CHAT), "not_seated"),
                            (Hint(table_id, version), Actor(BOB, f"dm:{BOB.player_id}"), "not_seated"),
                            (Review(table_id), Actor(BOB, CHAT), "not_seated"),
                            (Hint(table_id, version - 1), Actor(ALICE, CHAT), "stale"),
                            (Hint(table_id, "7"), Actor(ALICE, CHAT), "stale")):  # type: ignore[arg-type]
        with pytest.raises(TableError) as e:
            await service.dispatch(cmd, actor)
        assert e.value.code == why, cmd
    table = h.manager._tables[table_id]
    assert table.game is not None
    view = h.manager.view(table_id, 1)  # a seat whose turn it is not
    assert not view.get("legal")
    with pytest.raises(TableError) as e:
        await h.manager.hint(table_id, 1)
    assert e.value.code == "not_your_turn"


@pytest.mark.parametrize("options", [None, {table_advice.HINTS: False}])
async def test_hints_and_reviews_are_refused_where_the_table_does_not_allow_them(
        options: dict[str, object] | None) -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    table_id = await alices_turn(h, options=options or {})
    published = len(h.updates)
    for cmd in (Hint(table_id, None), Review(table_id)):
        with pytest.raises(TableError) as e:
            await service.dispatch(cmd, Actor(ALICE, CHAT))
        assert e.value.code == "hints_off"
    assert len(h.updates) == published


async def test_the_table_option_must_be_true_or_false_and_the_engine_never_sees_it() -> None:
    h = make_manager(MemoryRepository())
    with pytest.raises(TableError) as e:
        await h.manager.create(CHAT, ALICE, "trix", {table_advice.HINTS: "yes"})
    assert e.value.code == "bad_option"
    snap = await started_table(h, ALICE, game="tarneeb41", options=HINTS)
    assert snap.table.options[table_advice.HINTS] is True and snap.table.status == "playing"


async def test_a_review_names_the_costliest_card_of_the_last_finished_deal_the_same_each_time() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    table_id = await alices_turn(h)
    first = await service.dispatch(Review(table_id), Actor(ALICE, CHAT))
    assert first.review is not None and first.review.cards == 0  # no deal of hers has finished yet
    rng = random.Random(5)
    snap = h.manager.get(table_id)
    assert snap is not None
    deal = h.manager.view(table_id, None)["deal_no"]
    while h.manager.view(table_id, None)["deal_no"] == deal:
        legal = h.manager.view(table_id, 0)["legal"]
        snap = await h.manager.act(table_id, ALICE, snap.table.version, rng.choice(legal))
        await h.manager.run_due()
        snap = h.manager.get(table_id)  # type: ignore[assignment]
    published = len(h.updates)
    answer = await service.dispatch(Review(table_id), Actor(ALICE, CHAT))
    r = answer.review
    assert r is not None and r.deal_no == deal and r.cards > 0
    if r.played is not None:  # random play nearly always loses something
        assert r.better is not None and r.better != r.played and r.cost > 0 and r.unit == "points"
        assert 1 <= r.trick_no <= 13
    assert len(h.updates) == published
    assert (await service.dispatch(Review(table_id), Actor(ALICE, CHAT))).review == r
