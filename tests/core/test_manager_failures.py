"""A table that keeps failing, a finished match's one transaction, and finished tables leaving memory
(bot/core/tables/pipeline.py, bot/core/tables/lifecycle.py, bot/core/tables/registry.py)."""

from __future__ import annotations

import logging
import random

import pytest

from bot.present.i18n import translator
from bot.present.render import render_notices
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, Harness, make_manager, person_to_act, started_table, turn


class BrokenAppends(MemoryRepository):
    """Every ``append_action`` fails while ``broken``; the clock time of each attempt is kept."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False
        self.attempts: list[float] = []
        self.clock_now = lambda: 0.0

    async def append_action(self, action, table):  # type: ignore[no-untyped-def]
        if self.broken:
            self.attempts.append(self.clock_now())
            raise OSError("disk I/O error")
        return await super().append_action(action, table)


class BrokenFinal(MemoryRepository):
    """``append_final_action`` fails while ``broken`` (nothing of it is written)."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = True
        self.final_calls = 0

    async def append_final_action(self, action, table, result):  # type: ignore[no-untyped-def]
        self.final_calls += 1
        if self.broken:
            raise OSError("disk full")
        return await super().append_final_action(action, table, result)


async def _ai_to_move(h: Harness) -> int:
    """A started table (seed 7) where an AI seat is to move next; its id."""
    snap = await started_table(h, ALICE)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
    snap2 = h.manager.get(snap.table_id)
    assert snap2 is not None and turn(h, snap2) != 0
    return snap.table_id


@pytest.mark.expected_hidden_errors
async def test_a_failing_table_backs_off_exponentially_then_is_parked_with_one_line_and_a_notice(
        caplog: pytest.LogCaptureFixture) -> None:
    repo = BrokenAppends()
    h = make_manager(repo, retry_first=1.0, retry_max=16.0, park_after=7, background=False)
    repo.clock_now = h.clock.now
    await h.manager.start()
    table_id = await _ai_to_move(h)
    repo.broken = True
    caplog.set_level(logging.INFO)
    caplog.clear()
    sched = h.manager.turns.sched
    start = h.clock.now()
    while (when := sched.when(table_id)) is not None:  # to each wake-up the table asked for
        h.clock.advance(max(0.0, when - h.clock.now()))
        await h.manager.run_due()
    gaps = [b - a for a, b in zip([start, *repo.attempts], repo.attempts, strict=False)]
    assert gaps == [0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 16.0]  # doubling up to retry_max, then parked
    h.clock.advance(600.0)
    await h.manager.run_due()
    assert len(repo.attempts) == 7  # parked: no more tries
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(problems) == 1 and problems[0].levelno == logging.ERROR
    line = problems[0].getMessage()
    assert "table parked" in line and str(table_id) in line and "disk I/O error" in line
    assert problems[0].exc_info is None and "\n" not in line  # one line, not a traceback a second
    parked = [u for u in h.updates if any(e["type"] == "table_parked" for e in u.events)]
    assert len(parked) == 1
    for lang in ("en", "ar"):
        notices = render_notices(parked[0], translator(lang))
        assert len(notices) == 1 and str(table_id) in notices[0].text
    assert "paused" in render_notices(parked[0], translator("en"))[0].text
    # storage is back: the table stays parked (the mark is stored; a person's move or /stop ends it,
    # see test_manager_parking.py), and nothing wakes it by itself
    repo.broken = False
    snap = h.manager.get(table_id)
    assert snap is not None and snap.table.status == "playing" and snap.table.parked == 7
    assert (await repo.get_table(table_id)).parked == 7  # type: ignore[union-attr]
    h.manager.turns.reschedule(h.manager._tables[table_id])
    assert sched.when(table_id) is None
    await h.manager.close()


async def test_a_table_that_fails_once_is_tried_again_after_a_second_without_noise(
        caplog: pytest.LogCaptureFixture) -> None:
    repo = BrokenAppends()
    h = make_manager(repo)
    await h.manager.start()
    table_id = await _ai_to_move(h)
    version = h.manager.get(table_id).table.version  # type: ignore[union-attr]
    repo.broken = True
    caplog.set_level(logging.INFO)
    await h.manager.run_due()
    assert len(repo.attempts) == 1
    repo.broken = False
    h.clock.advance(1.0)
    await h.manager.run_due()
    assert h.manager.get(table_id).table.version > version  # type: ignore[union-attr]
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []  # a retry is not news
    await h.manager.close()


async def _play_until_the_final_move_fails(h: Harness, repo: BrokenFinal, table_id: int) -> None:
    rng = random.Random(3)
    for _ in range(5000):
        if repo.final_calls:
            return
        snap = h.manager.get(table_id)
        assert snap is not None and snap.table.status == "playing"
        person = person_to_act(h, snap, [ALICE, BOB])
        if person is None:  # an AI's move failed at the end: it is retried by the timer
            h.clock.advance(1.0)
            await h.manager.run_due()
            continue
        legal = h.manager.view(table_id, turn(h, snap))["legal"]
        try:
            await h.manager.act(table_id, person, snap.table.version, rng.choice(legal))
        except OSError:
            return
        await h.manager.run_due()
    raise AssertionError("the match did not reach its last move")


async def test_the_last_move_result_and_ratings_are_one_transaction() -> None:
    game = "trix"
    repo = BrokenFinal()
    h = make_manager(repo)
    await h.manager.start()
    snap = await started_table(h, ALICE, BOB, game=game)
    table_id = snap.table_id
    await _play_until_the_final_move_fails(h, repo, table_id)
    # the last move failed: nothing of it is stored, nobody was told the match is over or recorded
    stored = await repo.get_table(table_id)
    assert stored is not None and stored.status == "playing"
    assert await repo.table_results(table_id) is None
    assert h.events("match_over") == [] and h.events("match_recorded") == []
    live = h.manager.get(table_id)
    assert live is not None and live.table.status == "playing" and live.table.version == stored.version
    await h.manager.set_message_id(table_id, "table:x", "42")  # a later save cannot mark it finished
    assert (await repo.get_table(table_id)).status == "playing"  # type: ignore[union-attr]
    # storage is back: the move is made again and the match ends, recorded exactly once
    repo.broken = False
    for _ in range(50):
        snap2 = h.manager.get(table_id)
        assert snap2 is not None
        if snap2.table.status != "playing":
            break
        person = person_to_act(h, snap2, [ALICE, BOB])
        if person is None:
            h.clock.advance(1.0)
            await h.manager.run_due()
        else:
            legal = h.manager.view(table_id, turn(h, snap2))["legal"]
            await h.manager.act(table_id, person, snap2.table.version, legal[0])
            await h.manager.run_due()
    assert (await repo.get_table(table_id)).status == "finished"  # type: ignore[union-attr]
    result = await repo.table_results(table_id)
    assert result is not None and {r.player_id for r in result.results} >= {ALICE.player_id, BOB.player_id}
    assert len(h.events("match_over")) == 1 and len(h.events("match_recorded")) == 1
    stats = await repo.player_stats(ALICE.player_id, CHAT)
    assert [s.matches for s in stats if s.game == game] == [1]
    await h.manager.close()


async def test_finished_tables_leave_memory_after_the_grace_period() -> None:
    repo = MemoryRepository()
    h = make_manager(repo, finished_grace=60.0)
    await h.manager.start()
    ended: list[int] = []
    for chat in ("tg:-1", "tg:-2", "tg:-3"):
        snap = await h.manager.create(chat, ALICE, "trix")
        await h.manager.stop(chat, ALICE)
        ended.append(snap.table_id)
        assert h.manager.get(snap.table_id) is not None  # a late press is still answered
    h.clock.advance(61.0)
    snap = await h.manager.create("tg:-4", BOB, "trix")
    await h.manager.stop("tg:-4", BOB)  # the next table to end sweeps the old ones out
    assert [h.manager.get(t) for t in ended] == [None, None, None]
    assert h.manager.get(snap.table_id) is not None
    assert set(h.manager.registry.chat_tables) == {"tg:-4"}  # no empty per-chat entries are left
    assert set(h.manager._tables) == {snap.table_id}
    await h.manager.close()

