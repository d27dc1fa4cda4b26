"""How often one person may use an adapter: a token bucket per key (:class:`Cooldown`) and the limits
the operator sets for chat commands and button presses (:class:`CommandLimits`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.cache import TTLCache

if TYPE_CHECKING:
    from bot.core.clock import Clock


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
        self._state: TTLCache[str, tuple[float, bool]] = TTLCache(maxsize, ttl=max(burst, 1) * every, clock=clock.now)

    def check(self, key: str) -> Verdict:
        """Whether ``key`` may be served now (and, if so, spend one token)."""
        if self.burst <= 0 or self.every <= 0:
            return OK
        now = self.clock.now()
        stored = self._state.get(key)
        tat = max(stored[0], now) if stored is not None else now
        tolerance = (self.burst - 1) * self.every
        if tat - now > tolerance:
            warned = stored is not None and stored[1]
            self._state.put(key, (tat, True))
            return Verdict(False, first=not warned, wait=tat - now - tolerance)
        self._state.put(key, (tat + self.every, False))
        return OK

    def allow(self, key: str) -> bool:
        """Whether ``key`` may be served now (``check(key).ok``)."""
        return self.check(key).ok


@dataclass(frozen=True, slots=True)
class CommandLimits:
    """How often one person may use the chat adapters (:class:`Cooldown` buckets).

    - ``burst``, ``every``: chat commands (Telegram ``/help``, Discord ``/majlis help`` ...) per
      person and chat: ``burst`` at once, then one every ``every`` seconds. The first command over
      the limit is answered "slow down, try again in N seconds"; further ones in that window are
      dropped (Discord: answered ephemerally with the same line, as every interaction must be).
      ``burst = 0`` turns the limit off (``MAJLIS_COMMAND_BURST``, ``MAJLIS_COMMAND_EVERY``).
    - ``press_burst``, ``press_every``: button presses per person, a generous cap against floods
      only (a stale or doubled press is already refused by the table); 0 turns it off.
    """

    burst: int = 5
    every: float = 3.0
    press_burst: int = 30
    press_every: float = 0.1

    def commands(self, clock: Clock) -> Cooldown:
        """The command bucket on ``clock``."""
        return Cooldown(clock, self.burst, self.every)

    def presses(self, clock: Clock) -> Cooldown:
        """The press bucket on ``clock``."""
        return Cooldown(clock, self.press_burst, self.press_every)
