"""Bounded memory for the bot's per-person and per-chat maps, and the command cooldown."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from bot.clock import Clock

K = TypeVar("K")
V = TypeVar("V")


class TTLCache(OrderedDict[K, V]):
    """A dict with a size bound (least recently set goes first) and an age bound per entry.

    ``get_fresh(key, now)`` returns a value no older than ``ttl`` seconds (None otherwise);
    ``put(key, value, now)`` stores it. Plain ``dict`` access ignores the age.
    """

    def __init__(self, maxsize: int, ttl: float = float("inf")) -> None:
        super().__init__()
        self.maxsize = maxsize
        self.ttl = ttl
        self._at: dict[K, float] = {}

    def put(self, key: K, value: V, now: float = 0.0) -> None:
        """Store ``value`` as read at ``now``."""
        self[key] = value
        self.move_to_end(key)
        self._at[key] = now
        while len(self) > self.maxsize:
            old, _ = self.popitem(last=False)
            self._at.pop(old, None)

    def get_fresh(self, key: K, now: float) -> V | None:
        """The value if it was stored less than ``ttl`` seconds before ``now``."""
        if key not in self:
            return None
        if now - self._at.get(key, now) >= self.ttl:
            self.discard(key)
            return None
        return self[key]

    def discard(self, key: K) -> None:
        """Forget ``key`` (no error if absent)."""
        self.pop(key, None)
        self._at.pop(key, None)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What :meth:`Cooldown.check` decided: ``ok`` (serve it), else ``first`` (the first refusal
    since the person was last served: tell them once) and ``wait`` (seconds until they may again)."""

    ok: bool
    first: bool = False
    wait: float = 0.0


OK = Verdict(True)


class Cooldown:
    """A per-key token bucket for the adapters' commands (a key is a person in a chat).

    ``burst`` commands may come at once, then one every ``every`` seconds (GCRA: each key keeps
    only the time its bucket is full again, and a key whose bucket is full is forgotten, so memory
    is bounded by the people who used a command in the last ``burst * every`` seconds and by
    ``maxsize``). ``burst <= 0`` turns it off.
    """

    def __init__(self, clock: Clock, burst: int = 5, every: float = 3.0, maxsize: int = 10_000) -> None:
        self.clock = clock
        self.burst = burst
        self.every = every
        #: key -> (the bucket's "theoretical arrival time", warned since last served)
        self._state: TTLCache[str, tuple[float, bool]] = TTLCache(maxsize, ttl=max(burst, 1) * every)

    def check(self, key: str) -> Verdict:
        """Whether ``key`` may be served now (and, if so, spend one token)."""
        if self.burst <= 0 or self.every <= 0:
            return OK
        now = self.clock.now()
        stored = self._state.get_fresh(key, now)
        tat = max(stored[0], now) if stored is not None else now
        tolerance = (self.burst - 1) * self.every
        if tat - now > tolerance:
            warned = stored is not None and stored[1]
            self._state.put(key, (tat, True), now)
            return Verdict(False, first=not warned, wait=tat - now - tolerance)
        self._state.put(key, (tat + self.every, False), now)
        return OK

    def allow(self, key: str) -> bool:
        """Whether ``key`` may be served now (``check(key).ok``)."""
        return self.check(key).ok
