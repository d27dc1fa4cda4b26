"""A decision's thinking budget: CPU time of the thinking thread, under a wall-clock hard cap.

Budgets are in CPU seconds of the thread that thinks (``time.thread_time``), so a loaded machine
does not make the AI weaker: the search does the same work, only later. The wall-clock
``deadline`` is the hard cap (every decision answers within :data:`HARD_CAP` seconds of being
asked): a unit of work (a double-dummy solve, a rollout round) is only begun when the slowest
unit measured so far in this decision still fits before it, and the best answer found so far is
played when time is up. The pool (:mod:`ai.pool`) adds the last guard: a decision whose
worker has not answered by the deadline is replaced by the rule player's move.

Deadlines are ``time.monotonic()`` values, which are system-wide on Linux (the pool's workers
read the same clock as the process that asked).
"""

from __future__ import annotations

import time

#: Every decision answers within this many seconds of wall time.
HARD_CAP = 1.0
#: What the search leaves of the cap for the answer's way back (pickling, the event loop).
MARGIN = 0.12
#: A unit of work is begun only if this many times the slowest one so far still fits.
SAFETY = 1.5


def deadline_in(seconds: float = HARD_CAP - MARGIN) -> float:
    """The wall-clock deadline ``seconds`` from now."""
    return time.monotonic() + seconds


class Think:
    """One decision's budget: ``cpu`` seconds of thinking, never past ``deadline`` (wall clock).

    ``first`` is the wall time a first unit of work is assumed to need before one was measured.
    """

    __slots__ = ("cpu", "cpu0", "deadline", "slowest", "units")

    def __init__(self, cpu: float, deadline: float | None = None, *, first: float = 0.0) -> None:
        self.cpu = cpu
        self.cpu0 = time.thread_time()
        self.deadline = deadline_in() if deadline is None else deadline
        self.slowest = first
        self.units = 0

    def cpu_used(self) -> float:
        """CPU seconds this thread has spent since the decision began."""
        return time.thread_time() - self.cpu0

    def wall_left(self) -> float:
        """Wall seconds left before the hard cap."""
        return self.deadline - time.monotonic()

    def fits(self) -> bool:
        """Whether one more unit of work (as slow as the slowest so far) ends before the deadline."""
        return self.wall_left() > SAFETY * self.slowest

    def more(self, n: int, min_units: int = 1, cpu: float | None = None) -> bool:
        """Begin unit number ``n + 1``? Below ``min_units`` whenever it fits before the hard cap,
        afterwards only while the CPU budget (``cpu``, else the decision's) lasts too."""
        if not self.fits():
            return False
        if n < min_units:
            return True
        return self.cpu_used() < (self.cpu if cpu is None else cpu)

    def measured(self, started: float) -> None:
        """Record a unit of work begun at ``started`` (a ``time.monotonic()`` value)."""
        self.slowest = max(self.slowest, time.monotonic() - started)
        self.units += 1
