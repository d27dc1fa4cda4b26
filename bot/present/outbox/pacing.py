"""Pacing: one destination's :class:`Window` (token bucket + completion window) and the bot-wide
:class:`Limiter`."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from bot.present.outbox.types import Budget

if TYPE_CHECKING:
    from bot.core.clock import Clock


class Window:
    """The pacing of one destination: a token bucket for an even stream, and a sliding window of
    completion times as the hard limit (see the module's docstring).

    The worker asks :meth:`wait` before an operation, calls :meth:`take` when it starts it and
    :meth:`record` when it has completed (or failed).
    """

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.smooth = budget.burst is not None  # without a burst: the sliding window alone
        self.burst = max(1, min(budget.burst or budget.ops, budget.ops))
        self._done: deque[float] = deque(maxlen=budget.ops)
        self._tokens = float(self.burst)
        self._stamp: float | None = None
        self.last = float("-inf")

    def _refill(self, now: float) -> float:
        if not self.smooth:
            return float(self.burst)
        if self._stamp is None:
            self._stamp = now
        elif now > self._stamp:
            self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) / self.budget.interval)
            self._stamp = now
        return self._tokens

    def wait(self, now: float) -> float:
        """Seconds to wait from ``now`` before the next operation may start (0 if it may)."""
        wait = 0.0
        if len(self._done) == self.budget.ops:
            wait = self._done[0] + self.budget.window - now
        tokens = self._refill(now)
        if tokens < 1.0:
            wait = max(wait, (1.0 - tokens) * self.budget.interval)
        return max(wait, 0.0)

    def take(self, now: float) -> None:
        """An operation starts at ``now`` (spends a token)."""
        self._refill(now)
        self._tokens -= 1.0

    def record(self, now: float) -> None:
        """An operation completed (or failed) at ``now``."""
        self._done.append(now)
        self.last = max(self.last, now)

    def restored(self, now: float) -> None:
        """Start as if the window had been spent just before ``now`` at this budget's pace (the
        most the previous process could have sent): a burst (and one more, for the request that
        was in flight) at ``now``, the rest one interval apart before it, and an empty bucket.
        A budget without a ``burst`` (no pace: a console, a test) starts fresh."""
        if not self.smooth:  # a budget without a pace (a console, a test): nothing to restore
            return
        interval = self.budget.interval
        times = [now - max(0, k - self.burst) * interval for k in range(self.budget.ops)]
        self._done.clear()
        self._done.extend(sorted(times))
        self._tokens, self._stamp = 0.0, now
        self.last = now

    def idle_since(self, now: float) -> bool:
        """Whether nothing of this window constrains an operation at ``now`` any more."""
        return now - self.last >= self.budget.window


class Limiter:
    """A bot-wide budget shared by every outbox of a hub: at most ``budget.ops`` operations in any
    ``budget.per_seconds``, with bursts of ``budget.burst``, handed out by reservation (GCRA) so
    that many waiting outboxes do not wake up together."""

    def __init__(self, budget: Budget, clock: Clock) -> None:
        self.budget = budget
        self.clock = clock
        self.burst = max(1, min(budget.burst or 1, budget.ops))
        # ``burst`` at once, then an interval that keeps any window of per_seconds within ``ops``.
        self.interval = budget.window / (budget.ops - self.burst + 1)
        self._tat = float("-inf")
        self.granted = 0

    def reserve(self) -> float:
        """Reserve the next slot; the seconds to wait for it."""
        now = self.clock.now()
        tat = max(self._tat, now)
        start = max(now, tat - (self.burst - 1) * self.interval)
        self._tat = max(tat, start) + self.interval
        self.granted += 1
        return start - now

    async def acquire(self) -> None:
        """Wait for the next slot."""
        wait = self.reserve()
        if wait > 0:
            await self.clock.sleep(wait)
