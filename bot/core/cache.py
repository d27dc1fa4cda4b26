"""The process's bounded memory: one map bounded in size and, if asked, in age.

Used for the preference cache (``bot/core/prefs.py``), Telegram's admin answers, the DMs that
refused the bot (the presenter and the outbox hub), Discord's DM channels and the adapters'
per-person cooldowns (``bot/adapters/throttle.py``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class TTLCache(Generic[K, V]):
    """A map bounded in size (least recently used out first) whose entries expire ``ttl`` seconds
    after they were stored (never, by default), on ``clock`` (``time.monotonic`` unless given).

    ``get`` gives only a fresh value; ``peek`` and ``in`` ignore the age. An expired entry stays
    until it is stored again, discarded or pushed out by the size bound.
    """

    def __init__(self, size: int, ttl: float = float("inf"), clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.ttl, self._clock = size, ttl, clock
        self._data: OrderedDict[K, tuple[float, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The fresh value of ``key``, else None."""
        hit = self._data.get(key)
        if hit is None or self._clock() - hit[0] >= self.ttl:
            return None
        self._data.move_to_end(key)
        return hit[1]

    def peek(self, key: K) -> V | None:
        """The value of ``key`` however old (None if never stored or evicted)."""
        hit = self._data.get(key)
        return hit[1] if hit is not None else None

    def put(self, key: K, value: V) -> None:
        """Store ``value``, evicting the least recently used entry beyond the size bound."""
        self._data[key] = (self._clock(), value)
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)

    def discard(self, key: K) -> None:
        """Forget ``key`` (no error if absent)."""
        self._data.pop(key, None)

    def clear(self) -> None:
        """Forget everything."""
        self._data.clear()

    def __contains__(self, key: K) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)
