"""One wake-up time per table, on a heap, driven by a :class:`bot.core.clock.Clock`.

A wake-up names only the table: when it fires, the manager looks at the table's own state
(lobby deadline, AI due time, warning time, turn deadline) and does what is due. So a stale
wake-up is harmless, and rescheduling is a push plus a generation bump (lazy deletion).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable

from bot.core.clock import Clock

log = logging.getLogger(__name__)


class Scheduler:
    """Keeps the next wake-up time of each table and fires ``fire(table_id)`` when it comes."""

    def __init__(self, clock: Clock, fire: Callable[[int], Awaitable[None]]) -> None:
        self._clock = clock
        self._fire = fire
        self._heap: list[tuple[float, int, int, int]] = []  # (when, order, table_id, generation)
        self._gen: dict[int, int] = {}
        self._when: dict[int, float] = {}
        self._order = itertools.count()
        self._waiter: asyncio.Future[None] | None = None
        self._loop_task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._closed = False

    def set(self, table_id: int, when: float | None) -> None:
        """Wake ``table_id`` at ``when`` (None: never), replacing any earlier wake-up."""
        gen = self._gen.get(table_id, 0) + 1
        self._gen[table_id] = gen
        if when is None:
            self._when.pop(table_id, None)
            return
        if self._loop_task is not None and not self._closed and when <= self._clock.now():
            self._when.pop(table_id, None)
            self._spawn(table_id)  # due already: no trip through the heap and the loop
            return
        self._when[table_id] = when
        heapq.heappush(self._heap, (when, next(self._order), table_id, gen))
        if self._heap[0][2] == table_id:
            self._poke()

    def when(self, table_id: int) -> float | None:
        """The pending wake-up time of ``table_id``."""
        return self._when.get(table_id)

    def forget(self, table_id: int) -> None:
        """Drop the table entirely."""
        self.set(table_id, None)
        self._gen.pop(table_id, None)

    def pop_due(self, now: float) -> list[int]:
        """Remove and return the tables whose wake-up time is ``<= now``, earliest first."""
        out: list[int] = []
        while self._heap and self._heap[0][0] <= now:
            _, _, table_id, gen = heapq.heappop(self._heap)
            if self._gen.get(table_id) == gen:
                self._when.pop(table_id, None)
                self._gen[table_id] = gen + 1
                out.append(table_id)
        return out

    def _next_time(self) -> float | None:
        while self._heap and self._gen.get(self._heap[0][2]) != self._heap[0][3]:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def start(self) -> None:
        """Run the background loop that fires wake-ups as the clock reaches them."""
        if self._loop_task is None:
            self._closed = False
            self._loop_task = asyncio.create_task(self._run(), name="majlis-scheduler")

    async def close(self) -> None:
        """Stop the loop and wait for the wake-ups being handled."""
        self._closed = True
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
            self._loop_task = None
        await self.drain()

    async def drain(self) -> None:
        """Wait until every wake-up being handled in the background has finished."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    def _spawn(self, table_id: int) -> None:
        task = asyncio.create_task(self._safe_fire(table_id))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _safe_fire(self, table_id: int) -> None:
        try:
            await self._fire(table_id)
        except Exception:
            log.exception("timer of table %s failed", table_id)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        call_later = getattr(self._clock, "call_later", None)
        while not self._closed:
            due = self._next_time()
            now = self._clock.now()
            if due is not None and due <= now:
                for table_id in self.pop_due(now):
                    self._spawn(table_id)
                await asyncio.sleep(0)
                continue
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiter = waiter
            handle = None
            if due is not None:
                if call_later is not None:
                    handle = call_later(due - now, functools.partial(_release, waiter))
                else:
                    handle = asyncio.ensure_future(self._clock.sleep(due - now))
                    handle.add_done_callback(functools.partial(_release_after, waiter))
            try:
                await waiter
            finally:
                self._waiter = None
                if handle is not None:
                    handle.cancel()

    def _poke(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def run_due(self) -> None:
        """Fire every due wake-up now, one after the other, until nothing more is due."""
        while True:
            await self.drain()
            due = self.pop_due(self._clock.now())
            if not due:
                if not self._running:
                    return
                continue
            for table_id in due:
                await self._safe_fire(table_id)


def _release(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _release_after(waiter: asyncio.Future[None], _: object) -> None:
    _release(waiter)
