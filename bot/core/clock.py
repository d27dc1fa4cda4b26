"""Time for the table manager: the real clock, and a fake one that tests move by hand."""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Cancellable(Protocol):
    """A scheduled callback that can be called off (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None:
        """Do not run the callback."""
        ...


class Clock(Protocol):
    """Epoch seconds now, and a sleep measured on the same clock.

    A clock may also offer ``call_later(seconds, callback) -> Cancellable`` (both clocks here do);
    the scheduler then waits with one timer instead of a sleeping task.
    """

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

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        """Run ``callback`` on the running loop after ``seconds``."""
        return asyncio.get_running_loop().call_later(max(0.0, seconds), callback)


class _FakeTimer:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


def _run_timer(timer: _FakeTimer) -> None:
    if not timer.cancelled:
        timer.callback()


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


class FakeClock:
    """A clock that stands still until :meth:`advance` moves it; sleepers wake when it passes them.

    ``sleep`` never waits for real time, so timers driven by this clock are exact and instant.
    """

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)
        self._timers: list[tuple[float, int, _FakeTimer]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        """The fake time."""
        return self._now

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Cancellable:
        """Run ``callback`` when :meth:`advance` reaches ``now() + seconds`` (at once if ``<= 0``)."""
        timer = _FakeTimer(callback)
        if seconds <= 0:
            asyncio.get_running_loop().call_soon(_run_timer, timer)
        else:
            heapq.heappush(self._timers, (self._now + seconds, next(self._counter), timer))
        return timer

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced by ``seconds`` (at once if ``seconds <= 0``)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.call_later(seconds, functools.partial(_resolve, fut))
        await fut

    def advance(self, seconds: float) -> None:
        """Move time forward and run every timer whose time has come, in time order."""
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds
        while self._timers and self._timers[0][0] <= self._now:
            _, _, timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                timer.callback()
