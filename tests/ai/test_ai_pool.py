"""The AI process pool: real worker processes, the bound on decisions in flight, the cap, breakage."""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import logging
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import engine
from ai.pool import AIPool
from ai.rules import RulePlayer

pytestmark = pytest.mark.slow  # worker processes


class SlowPlayer:
    """Sleeps ``seconds`` (without CPU), logs when it thought to ``log``, answers the first legal move."""

    heavy = True

    def __init__(self, seconds: float, log: str | None) -> None:
        self.seconds = seconds
        self.log = log

    def decide(self, view: dict[str, Any], game: str, rng: random.Random, deadline: float | None = None) -> str:
        start = time.monotonic()
        if self.seconds < 0:
            os._exit(3)  # a worker that dies: the pool breaks
        time.sleep(self.seconds)
        if self.log:
            with open(self.log, "a") as f:
                f.write(json.dumps([start, time.monotonic(), os.getpid()]) + "\n")
        return str(view["legal"][-1])


def slow_provider(seconds: float, log: str | None, level: str) -> SlowPlayer:
    return SlowPlayer(seconds, log)


def _view(game: str = "tarneeb41", seed: int = 3) -> dict[str, Any]:
    g = engine.new_game(game, seed=seed)
    while len(g.legal()) < 2:
        g.act(g.to_act, g.auto())  # type: ignore[arg-type]
    assert g.to_act is not None
    return g.view(g.to_act)


def _rule(view: dict[str, Any], seed: int) -> str:
    return RulePlayer().decide(view, str(view["game"]), random.Random(seed))


async def test_the_pool_runs_the_strong_ai_in_worker_processes_and_answers_legal_moves() -> None:
    pool = AIPool(2, cap=30.0)  # three decisions for two workers: a cap no loaded machine reaches, so
    # none waits past it for a slot (the cap's own tests use stubbed slow searches)
    try:
        await pool.start()
        games = [engine.new_game(game, seed=5) for game in ("tarneeb", "tarneeb41", "trix")]
        for g in games:
            while len(g.legal()) < 2:
                g.act(g.to_act, g.auto())  # type: ignore[arg-type]
        seats = [g.to_act for g in games]
        codes = await asyncio.gather(*(pool.decide("strong", g.view(s), s, 7)  # type: ignore[arg-type]
                                       for g, s in zip(games, seats, strict=True)))
        for g, code in zip(games, codes, strict=True):
            assert code in g.legal()
        # a game's JSON is accepted as well: the view is taken here
        g = games[1]
        assert await pool.decide("normal", g.to_json(), g.to_act, 1) in g.legal()  # type: ignore[arg-type]
        assert pool.stats.decided + pool.stats.late == 4
    finally:
        await pool.close()


async def test_the_pool_never_has_more_decisions_in_flight_than_its_bound(tmp_path: Path) -> None:
    log = tmp_path / "thinking.jsonl"
    pool = AIPool(2, in_flight=1, cap=5.0, provider=functools.partial(slow_provider, 0.15, str(log)))
    try:
        await pool.start()
        view = _view()
        seen: list[int] = []

        async def watch() -> None:
            while True:
                seen.append(pool.busy)
                await asyncio.sleep(0.01)

        watcher = asyncio.create_task(watch())
        codes = await asyncio.gather(*(pool.decide("strong", view, view["seat"], i) for i in range(6)))
        watcher.cancel()
        assert codes == [view["legal"][-1]] * 6  # every one thought in a worker (none fell back)
        spans = [json.loads(line) for line in log.read_text().splitlines()]
        assert len(spans) == 6
        spans.sort()
        # two workers, but a bound of one: no two decisions ever overlapped in the workers
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
        assert max(seen) == 1 and pool.stats.in_flight_max == 1
    finally:
        await pool.close()


async def test_a_worker_that_misses_the_cap_is_answered_by_the_rule_player(tmp_path: Path) -> None:
    pool = AIPool(1, cap=0.5, provider=functools.partial(slow_provider, 1.5, None))
    try:
        await pool.start()
        view = _view()
        started = time.monotonic()
        code = await pool.decide("strong", view, view["seat"], 11)
        assert time.monotonic() - started < 1.5  # answered before the worker was done
        assert code == _rule(view, 11)
        assert pool.stats.late == 1
        # the slot stays taken until the worker is really done: the next decision waits, then is
        # answered by the rule player too when no time is left to think
        code2 = await pool.decide("strong", view, view["seat"], 12)
        assert code2 == _rule(view, 12)
        assert pool.stats.queued_out == 1
        assert pool.busy == 1
    finally:
        await pool.close()


async def test_a_broken_pool_logs_a_warning_answers_by_rule_and_starts_again(
        caplog: pytest.LogCaptureFixture) -> None:
    pool = AIPool(1, cap=5.0, provider=functools.partial(slow_provider, -1.0, None))
    try:
        view = _view()
        with caplog.at_level(logging.WARNING, logger="ai.pool"):
            code = await pool.decide("strong", view, view["seat"], 4)
        assert code == _rule(view, 4)
        assert pool.stats.broken == 1
        assert "pool broke" in caplog.text
        pool.provider = functools.partial(slow_provider, 0.0, None)
        assert await pool.decide("strong", view, view["seat"], 4) == view["legal"][-1]  # a new pool
        assert pool.busy == 0
    finally:
        await pool.close()


def _gone(pids: list[int], within: float = 10.0) -> bool:
    """Whether every process of ``pids`` has ended (waiting up to ``within`` seconds for it)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        alive = []
        for pid in pids:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                continue
            with open(f"/proc/{pid}/stat") as f:  # a zombie has ended (its parent reaps it later)
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False


def _foreign_sigterm(pid: int) -> None:
    """SIGTERM sent to ``pid`` by another process (not the pool's)."""
    subprocess.run([sys.executable, "-c", f"import os, signal; os.kill({pid}, signal.SIGTERM)"], check=True)


async def test_workers_ignore_ctrl_c_and_a_sigterm_from_anyone_but_the_pool(tmp_path: Path) -> None:
    log = tmp_path / "thinking.jsonl"
    pool = AIPool(1, cap=5.0, provider=functools.partial(slow_provider, 0.0, str(log)))
    try:
        [pid] = await pool.start()
        os.kill(pid, signal.SIGINT)  # a Ctrl-C reaches the terminal's whole process group
        _foreign_sigterm(pid)
        await asyncio.sleep(0.5)  # time for the default handlers to have killed it
        view = _view()
        assert await pool.decide("strong", view, view["seat"], 1) == view["legal"][-1]
        assert pool.stats.decided == 1 and pool.stats.broken == 0
        assert json.loads(log.read_text())[2] == pid  # the same worker thought
    finally:
        await pool.close()
    assert _gone([pid])  # and the pool's own shutdown still ends it


async def test_a_broken_pool_still_terminates_its_other_workers() -> None:
    pool = AIPool(2, cap=5.0, provider=functools.partial(slow_provider, -1.0, None))
    try:
        pids = await pool.start()
        view = _view()
        await pool.decide("strong", view, view["seat"], 4)  # one worker dies: the executor SIGTERMs the rest
        assert pool.stats.broken == 1
        assert _gone(pids)
    finally:
        await pool.close()


_ORPHAN = """
import asyncio
from ai.pool import AIPool

async def main():
    pool = AIPool(2, warm_levels=())
    print(*await pool.start(), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_workers_end_when_the_process_that_asked_is_killed() -> None:
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen([sys.executable, "-c", _ORPHAN], cwd=root, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    try:
        assert child.stdout is not None
        pids = [int(x) for x in child.stdout.readline().split()]
        assert pids
        _foreign_sigterm(pids[0])  # ignored: the pool owns its workers
        assert not _gone(pids, within=0.3)
        child.kill()  # SIGKILL: nobody will shut the pool down
        child.wait()
        assert _gone(pids)
    finally:
        child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()


async def test_a_forced_move_never_reaches_the_workers() -> None:
    pool = AIPool(1)
    g = engine.new_game("trix", seed=2)
    while len(g.legal()) != 1:
        g.act(g.to_act, g.auto())  # type: ignore[arg-type]
    seat = g.to_act
    assert seat is not None
    assert await pool.decide("strong", g.view(seat), seat, 1) == g.legal()[0]
    assert pool.stats.decided == 0
    await pool.close()


async def test_the_manager_plays_search_ai_seats_in_the_pool_and_stops_it_on_close() -> None:
    from ai import ai_player
    from bot.core.tables import ai_runner
    from storage.memory import MemoryRepository
    from tests.core.test_manager_helpers import ALICE, make_manager, started_table

    h = make_manager(MemoryRepository(), ai=ai_player)  # the real provider: levels normal/strong search
    try:
        snap = await started_table(h, ALICE, game="tarneeb41")
        pool = ai_runner._pool
        assert pool is not None, "the AI seats thought in the pool"
        stats = pool.stats
        assert stats.decided + stats.late + stats.queued_out > 0
        assert stats.broken == stats.failed == 0
        assert h.manager._tables[snap.table_id].to_act == 0  # the AI seats moved until Alice's turn
        executor = pool._executor
        assert executor is not None
        workers = list(executor._processes.values())  # type: ignore[attr-defined]
        assert workers and all(p.is_alive() for p in workers)
    finally:
        await h.manager.close()
    assert ai_runner._pool is None
    for p in workers:
        p.join(timeout=5)
        assert not p.is_alive()


def slow_advice(seconds: float, view: dict[str, Any], deadline: float) -> str:
    """A stubbed slow search for advice: sleeps ``seconds``, then names the first legal move."""
    time.sleep(seconds)
    return str(view["legal"][0])


async def test_advice_comes_from_the_workers_within_the_cap_and_a_slow_search_gives_none() -> None:
    from ai import advice

    view = _view("trix", 5)
    roomy = AIPool(2, cap=10.0)  # a real search: a cap no loaded machine reaches (never fail on timing)
    try:
        await roomy.start()
        hint = await roomy.advise(advice.hint, view, "trix", 9)
        assert hint is not None and hint.action in view["legal"]
        assert await roomy.advise(advice.hint, view, "trix", 9) == hint  # same position and seed
        assert roomy.stats.advised == 2
    finally:
        await roomy.close()
    pool = AIPool(2, cap=1.0)
    try:
        await pool.start()
        assert await pool.advise(slow_advice, 0.0, view) == view["legal"][0]
        started = time.monotonic()
        assert await pool.advise(slow_advice, 3.0, view) is None  # the stubbed slow search
        # answered (with nothing) at the cap, long before the 3 s search would be: the margin is for a
        # loaded machine, the cap itself is the pool's (a test never fails on timing)
        assert time.monotonic() - started < 2.5
        assert pool.stats.advice_late == 1 and pool.stats.advised == 1
    finally:
        await pool.close()


async def test_advice_never_takes_the_last_free_worker_from_the_tables_moves(tmp_path: Path) -> None:
    pool = AIPool(2, cap=5.0, provider=functools.partial(slow_provider, 0.6, None))
    try:
        await pool.start()
        view = _view()
        move = asyncio.create_task(pool.decide("strong", view, view["seat"], 1))
        await asyncio.sleep(0.1)  # one table decision thinks: one worker left, kept for the tables
        assert await pool.advise(slow_advice, 0.0, view) is None and pool.stats.advice_busy == 1
        assert await move == view["legal"][-1]
        assert await pool.advise(slow_advice, 0.0, view) == view["legal"][0]  # both free again
        lone = AIPool(1, cap=5.0, provider=functools.partial(slow_provider, 0.6, None))
        try:  # a pool of one slot gives advice only while that slot is idle
            await lone.start()
            move = asyncio.create_task(lone.decide("strong", view, view["seat"], 1))
            await asyncio.sleep(0.1)
            assert await lone.advise(slow_advice, 0.0, view) is None
            await move
        finally:
            await lone.close()
    finally:
        await pool.close()
