"""Time for the table manager: the real clock, and a fake one that tests move by hand."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    """Epoch seconds now, and a sleep measured on the same clock."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return after ``seconds`` have passed on this clock."""
        ...


class RealClock:
    """Wall time (``time.time``) and ``asyncio.sleep``."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """Sleep for real."""
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it; sleepers wake when it passes them.

    ``sleep`` never waits for real time, so timers driven by this clock are exact and instant.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        """The fake time."""
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced by ``seconds`` (at once if ``seconds <= 0``)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._counter), fut))
        await fut

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every sleeper whose time has come."""
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)
