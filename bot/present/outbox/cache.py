"""Bounded memory for the bot's per-person and per-chat maps."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    pass

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
