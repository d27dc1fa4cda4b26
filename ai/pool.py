"""Heavy AI decisions in a process pool, off the event loop, within the one-second cap.

::

    pool = AIPool()                      # one worker process per core
    code = await pool.decide("strong", game.view(seat), seat, seed)
    await pool.close()

The search is pure Python (Trix rollouts) or a C solver behind a lock (DDS); in threads it holds
the GIL and stalls the loop, so it runs in worker processes instead, fed the seat's view (a small
JSON-like dict: it pickles in microseconds). The workers run at a lower CPU priority than the
process that asks (``os.nice``), so the event loop is served first on a busy machine.

Bounds and the cap:

- at most ``in_flight`` decisions (default: one per worker) are in the workers at once; the rest
  wait their turn in the loop (no hidden queue in the executor);
- every decision is asked with a wall-clock deadline (:data:`ai.think.HARD_CAP` from the
  call, less a margin): the search fits its work before it (its budget is CPU time, so a loaded
  machine does not make it weaker, only the cap can cut it short);
- if no answer has come back by the cap (a queue too long, one solve slower than the cap, a
  stuck worker), the rule player answers instead and the late answer is dropped; its worker slot
  stays taken until the worker is really done, so the bound holds;
- if the pool breaks (a worker killed), a warning is logged, the rule player answers, and the
  next decision starts a new pool.

Signals: the asking process owns the workers' lives. A worker ignores ``SIGINT`` (a Ctrl-C goes to
the whole process group: the workers used to die with a traceback each and the pool logged that
it broke, while the parent was shutting it down anyway) and ``SIGTERM`` from anyone but the asking
process (whose executor terminates the workers of a broken pool with it). A thread in each worker
waits for ``SIGTERM`` with ``sigtimedwait`` (which tells who sent it) and also ends the worker when
the asking process is gone (killed with ``SIGKILL``: nobody would shut the pool down).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ai.base import Player
from ai.think import HARD_CAP

log = logging.getLogger(__name__)

#: The answer's way back from the cap: the search stops this much before it (pickling, the loop).
SEARCH_MARGIN = 0.12
#: The pool answers with the rule player this long before the cap if the worker has not.
ANSWER_MARGIN = 0.04
#: A decision that waited so long for a worker that less than this is left plays the rule move.
MIN_THINK = 0.1
#: The workers' niceness increment: they yield the CPU to the event loop's process (the loop's
#: lag p99 was about 40 ms at +5 and 25 ms at +19 with 16 decisions in flight on a loaded 2-core
#: machine; ``SCHED_IDLE`` did little better and starved the workers whenever anything else ran).
WORKER_NICE = 19


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# ---------------------------------------------------------------------- in the worker processes
_players: dict[str, Player] = {}
_provider: Callable[[str], Player] | None = None


#: How often a worker checks that the asking process still lives (seconds).
ORPHAN_CHECK = 1.0


def _init_worker(provider: Callable[[str], Player] | None, nice: int, owner: int | None = None) -> None:
    global _provider
    _provider = provider
    if owner is not None:
        guard_signals(owner)
    if nice:
        with contextlib.suppress(OSError, AttributeError):  # not allowed: run at the same priority
            os.nice(nice)


def guard_signals(owner: int) -> None:
    """In a worker: ignore ``SIGINT``, and ``SIGTERM`` unless ``owner`` (the asking process) sent
    it; end the worker when ``owner`` is gone. Call it in the worker's main thread, first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # blocked in every thread (the ones started later inherit the mask): it waits for the watcher
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    threading.Thread(target=_watch, args=(owner, os.getppid()), name="majlis-ai-signals", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process of that id: alive
        return True
    return True


def _watch(owner: int, parent: int) -> None:
    """The worker's signal thread: a ``SIGTERM`` from ``owner`` ends the worker, anyone else's is
    ignored; the worker ends as well once ``owner`` has died (or the fork server that is its
    ``parent`` has, which happens when the owner dies)."""
    while True:
        info = signal.sigtimedwait({signal.SIGTERM}, ORPHAN_CHECK)
        if info is not None and info.si_pid == owner:
            os._exit(128 + signal.SIGTERM)  # the executor terminating a broken pool's workers
        if info is not None:
            log.info("AI worker %d ignores SIGTERM from process %d (its owner is %d)",
                     os.getpid(), info.si_pid, owner)
        if os.getppid() != parent or not _alive(owner):
            os._exit(0)  # orphaned: nobody would ever shut this worker down


def _player(level: str) -> Player:
    player = _players.get(level)
    if player is None:
        if _provider is not None:
            player = _provider(level)
        else:
            from ai import ai_player

            player = ai_player(level)
        _players[level] = player
    return player


def _warm(levels: tuple[str, ...]) -> int:
    """Import and build the players (and the DDS library) before the first real decision."""
    for level in levels:
        _player(level)
    try:
        from ai.strong import dds

        dds.available()
    except ImportError:  # pragma: no cover - the strong package always imports
        pass
    return os.getpid()


def _work(level: str, view: dict[str, Any], game: str, seed: int, deadline: float) -> tuple[str, float]:
    """One decision in a worker: the action and the CPU seconds it took."""
    cpu = time.thread_time()
    player = _player(level)
    rng = random.Random(seed)
    decide: Any = player.decide
    try:
        action = decide(view, game, rng, deadline=deadline)
    except TypeError:  # a player without a deadline: light, or the caller's own
        action = decide(view, game, rng)
    return str(action), time.thread_time() - cpu


def _advise(fn: Callable[..., Any], args: tuple[Any, ...], deadline: float) -> Any:
    """Advice in a worker (:mod:`ai.advice`): ``fn(*args, deadline=deadline)``."""
    return fn(*args, deadline=deadline)


# ---------------------------------------------------------------------- in the asking process
def _context() -> multiprocessing.context.BaseContext:
    """Workers forked from a clean server process that has the AI imported (never a fork of this
    process, which has threads); ``spawn`` where there is no fork server."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["ai.strong", "ai.rules"])
        return ctx
    return multiprocessing.get_context("spawn")  # pragma: no cover - not Linux


@dataclass
class PoolStats:
    """What the pool did: decisions answered by a worker, by the rule player at the cap, and so on."""

    decided: int = 0
    late: int = 0          # the worker missed the cap: the rule player answered
    queued_out: int = 0    # waited for a worker until too little time was left
    broken: int = 0        # the pool broke under a decision
    failed: int = 0        # the worker raised
    cpu: list[float] = field(default_factory=list)  # CPU seconds of each worker decision (last 1000)
    in_flight_max: int = 0
    advised: int = 0       # advice (hints, reviews) answered by a worker
    advice_busy: int = 0   # advice refused: no worker free beside the one kept for the tables
    advice_late: int = 0   # advice whose worker missed the cap


def _view_of(game_json_or_view: dict[str, Any], seat: int) -> dict[str, Any]:
    if "legal" in game_json_or_view and "seat" in game_json_or_view:
        return game_json_or_view
    import engine

    return engine.load(game_json_or_view).view(seat)


class AIPool:
    """A process pool for heavy AI decisions with a bound on decisions in flight and a hard cap.

    ``provider`` (a picklable module-level function, default :func:`ai.ai_player`) gives the
    player for a level in the workers; ``fallback`` answers in this process when a worker cannot
    in time (default: the rule player).
    """

    def __init__(self, workers: int | None = None, *, in_flight: int | None = None, cap: float = HARD_CAP,
                 provider: Callable[[str], Player] | None = None, fallback: Player | None = None,
                 nice: int = WORKER_NICE, warm_levels: tuple[str, ...] = ("strong",)) -> None:
        self.workers = workers or cores()
        self.in_flight = in_flight or self.workers
        self.cap = cap
        self.provider = provider
        self.nice = nice
        self.warm_levels = warm_levels
        self.stats = PoolStats()
        self._fallback = fallback
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None
        self._busy = 0
        self._closed = False
        self._pending: set[asyncio.Future[Any]] = set()

    # ------------------------------------------------------------------ lifecycle
    def _ensure(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the AI pool is closed")
        if self._executor is None:
            ctx = _context()
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=ctx, initializer=_init_worker,
                initargs=(self.provider, self.nice, os.getpid()))
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.in_flight)
        return self._executor

    async def start(self) -> list[int]:
        """Start the workers and load the players in each (optional: the first decision does it);
        the process ids of the workers that warmed up."""
        ex = self._ensure()
        loop = asyncio.get_running_loop()
        pids = await asyncio.gather(*(loop.run_in_executor(ex, _warm, self.warm_levels)
                                      for _ in range(self.workers)))
        return sorted(set(pids))

    async def close(self) -> None:
        """Stop the workers (decisions still thinking are dropped); idempotent."""
        self._closed = True
        ex, self._executor = self._executor, None
        if ex is not None:
            await asyncio.to_thread(ex.shutdown, wait=True, cancel_futures=True)

    def abandon(self) -> None:
        """Stop the workers without waiting (a pool whose event loop is gone)."""
        self._closed = True
        ex, self._executor = self._executor, None
        if ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)

    @property
    def busy(self) -> int:
        """Decisions in the workers now."""
        return self._busy

    # ------------------------------------------------------------------ decisions
    async def decide(self, level: str, game_json_or_view: dict[str, Any], seat: int, seed: int,
                     game: str | None = None) -> str:
        """The action of the AI at ``level`` for ``seat`` (a legal code), within the cap.

        ``game_json_or_view`` is the seat's view (``engine`` ``view(seat)``) or a game's
        ``to_json()`` (the view is then taken here). ``seed`` seeds the decision's generator.
        """
        asked = time.monotonic()
        cap_at = asked + self.cap
        view = _view_of(game_json_or_view, seat)
        game = game or str(view.get("game"))
        legal = list(view.get("legal") or [])
        if len(legal) == 1:
            return str(legal[0])
        ex = self._ensure()
        assert self._slots is not None
        try:
            await asyncio.wait_for(self._slots.acquire(), timeout=max(0.0, cap_at - MIN_THINK - SEARCH_MARGIN
                                                                     - time.monotonic()))
        except TimeoutError:
            self.stats.queued_out += 1
            return self._rule_move(view, game, seed)
        self._busy += 1
        self.stats.in_flight_max = max(self.stats.in_flight_max, self._busy)
        loop = asyncio.get_running_loop()
        try:
            fut = loop.run_in_executor(ex, _work, level, view, game, seed, cap_at - SEARCH_MARGIN)
        except (BrokenProcessPool, RuntimeError):
            self._release(None)
            return self._broken(view, game, seed)
        fut.add_done_callback(self._release)
        self._pending.add(fut)
        try:
            action, cpu = await asyncio.wait_for(asyncio.shield(fut), max(0.0, cap_at - ANSWER_MARGIN
                                                                          - time.monotonic()))
        except TimeoutError:
            self.stats.late += 1
            log.info("AI %s did not answer within %.1f s; the rule player answers", level, self.cap)
            return self._rule_move(view, game, seed)
        except BrokenProcessPool:
            return self._broken(view, game, seed)
        except Exception:
            self.stats.failed += 1
            log.exception("AI %s failed in its worker; the rule player answers", level)
            return self._rule_move(view, game, seed)
        self.stats.decided += 1
        self.stats.cpu.append(cpu)
        del self.stats.cpu[:-1000]
        return action

    async def advise(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Advice for a person (:mod:`ai.advice`): ``fn(*args, deadline=...)`` in a worker, within
        the cap, at a lower priority than the tables' decisions; None when it cannot be had.

        It never waits in line: it starts only when a worker is free beside one kept for the tables'
        own decisions (with a single worker slot: when that slot is idle), so a table's AI move never
        queues behind more than one piece of advice (none at all with two slots or more). An answer
        not back by the cap, a failure or a broken pool give None; the late worker's slot stays
        taken until it is done, as for decisions.
        """
        cap_at = time.monotonic() + self.cap
        ex = self._ensure()
        assert self._slots is not None
        keep = 1 if self.in_flight > 1 else 0
        if self._slots.locked() or self._busy + keep >= self.in_flight:
            self.stats.advice_busy += 1
            return None
        await self._slots.acquire()  # free: no wait
        self._busy += 1
        loop = asyncio.get_running_loop()
        try:
            fut = loop.run_in_executor(ex, _advise, fn, args, cap_at - SEARCH_MARGIN)
        except (BrokenProcessPool, RuntimeError):
            self._release(None)
            return None
        fut.add_done_callback(self._release)
        self._pending.add(fut)
        try:
            out = await asyncio.wait_for(asyncio.shield(fut), max(0.0, cap_at - ANSWER_MARGIN - time.monotonic()))
        except TimeoutError:
            self.stats.advice_late += 1
            log.info("AI advice did not come within %.1f s", self.cap)
            return None
        except BrokenProcessPool:
            self._broken_pool()
            return None
        except Exception:
            log.exception("AI advice failed in its worker")
            return None
        self.stats.advised += 1
        return out

    def _broken_pool(self) -> None:
        self.stats.broken += 1
        log.warning("the AI process pool broke; a new pool starts")
        ex, self._executor = self._executor, None
        if ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)

    def _release(self, fut: asyncio.Future[Any] | None) -> None:
        self._busy -= 1
        if fut is not None:
            self._pending.discard(fut)
            if not fut.cancelled():
                fut.exception()  # retrieved: a late failure is not "never retrieved"
        if self._slots is not None:
            self._slots.release()

    def _broken(self, view: dict[str, Any], game: str, seed: int) -> str:
        self.stats.broken += 1
        log.warning("the AI process pool broke; the rule player answers and a new pool starts")
        ex, self._executor = self._executor, None
        if ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)
        return self._rule_move(view, game, seed)

    def _rule_move(self, view: dict[str, Any], game: str, seed: int) -> str:
        if self._fallback is None:
            from ai.rules import RulePlayer

            self._fallback = RulePlayer()
        return str(self._fallback.decide(view, game, random.Random(seed)))
