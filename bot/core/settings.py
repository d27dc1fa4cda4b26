"""The table manager's tunables (the per-chat ones, like the turn timer, live in ``ChatRecord``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass


@dataclass(frozen=True, slots=True)
class ManagerSettings:
    """Knobs of :class:`bot.core.manager.TableManager`.

    - ``lobby_timeout``: seconds after which a lobby nobody started is cancelled.
    - ``ai_delay``: seconds an AI seat waits before it moves, so people can follow (0 in tests and
      benchmarks); ``ai_jitter`` spreads it over ``delay * (1 ± jitter)``;
      ``fast_forward_unwatched`` lets a table with no person left at it play out without pacing.
    - ``deal_pause``: seconds the first AI move of the next deal waits after a deal is scored or
      thrown in, so people read the result before the game goes on (only where AI moves are paced,
      ``ai_delay`` > 0 and someone watching; 0: no pause). The only person at a table ends it early
      (:meth:`bot.core.manager.TableManager.next_deal`, the web page's "Next deal").
    - ``autoplay_after``: automatic moves in a row after which the AI plays the seat until its owner
      acts again.
    - ``default_turn_seconds``, ``default_ai_level``, ``default_digits``: the turn timer, AI level
      and digits of a chat that has no stored settings (``majlis run`` passes the configured
      ``MAJLIS_TURN_SECONDS``, ``MAJLIS_AI_LEVEL`` and ``MAJLIS_DIGITS``).
    - ``auto_begin_when_full``: start the match when a fourth person sits down.
    - ``snapshot_every``: save the engine state after that many actions (0: only at the end of each
      deal), so that a restore replays a short tail of the log.
    - ``seed_source``: gives each new table's seed (tests fix it; default: system randomness).
    - ``background``: run timers and AI moves on the clock by themselves; False: only when
      ``run_due()`` is called (step-by-step tests).
    - ``latency_sink``: receives the seconds each action took, lock to notification (benchmarks).
    - ``finished_grace``: seconds a finished, stopped or cancelled table stays in memory (late presses
      are answered, ``get()`` still finds it) before it is dropped; None: until the chat opens a new one.
    - ``retry_first``, ``retry_max``, ``park_after``: a table whose timer or AI move fails is tried
      again after ``retry_first`` seconds, doubling up to ``retry_max``; after ``park_after`` failures
      in a row it is parked: no more tries until a person's move or ``begin`` (stored: a restart
      leaves it parked; ``stop`` still ends it), one log line and a message in its chat.
    - ``chat_prefixes``: restore only the live tables of chats whose id starts with one of these
      (``("tg:",)`` for the Telegram bot), so that two bots on one database never both run a
      table; None: every live table.
    - ``owner``: this process's name when several processes share one database: it runs only the
      tables it holds by lease (``bot/core/tables/leases.py``): the ones it creates, and live tables
      nobody holds or whose holder stopped renewing. Every ``heartbeat_seconds`` it renews its
      leases (``lease_seconds`` long) and takes over the tables of a process that died. None: one
      process runs every live table (no leases).
    - ``route_wait``, ``route_poll``: with ``owner`` set, a command for a table another live process
      holds is forwarded to it (``bot/core/cluster/routing.py``) and its answer awaited at most ``route_wait``
      seconds; ``route_poll``: seconds between looks at the inbox when no notification came
      (None: 1 s where the database notifies, PostgreSQL; 0.05 s where it cannot).
    """

    lobby_timeout: float = 600.0
    ai_delay: float = 1.0
    ai_jitter: float = 0.0
    deal_pause: float = 0.0
    fast_forward_unwatched: bool = True
    autoplay_after: int = 2
    default_turn_seconds: int = 60
    default_ai_level: str = "normal"
    default_digits: str = "western"
    auto_begin_when_full: bool = True
    snapshot_every: int = 0
    seed_source: Callable[[], int] | None = None
    background: bool = True
    latency_sink: Callable[[float], None] | None = None
    chat_prefixes: tuple[str, ...] | None = None
    owner: str | None = None
    lease_seconds: float = 30.0
    heartbeat_seconds: float = 10.0
    route_wait: float = 5.0
    route_poll: float | None = None
    finished_grace: float | None = 600.0
    retry_first: float = 1.0
    retry_max: float = 60.0
    park_after: int = 8


def lease_owner(db: str) -> str | None:
    """This process's lease name when its database can be shared by several processes (PostgreSQL):
    host, process id and a random part; None for SQLite and memory (one process runs every table)."""
    if not db.startswith(("postgresql://", "postgres://")):
        return None
    import os
    import secrets
    import socket

    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def tune_gc(threshold0: int = 50_000) -> None:
    """Process-wide GC tuning for a bot holding many live tables (call after ``TableManager.start``).

    Moves what exists now (restored tables, imported modules) out of the collector's sight and makes
    young collections rarer, so that garbage collection no longer stalls actions for tens of
    milliseconds (measured with ``bench/tables.py``: p99 of one action 71 ms → 9 ms at 2,000/s).
    """
    import gc

    gc.collect()
    gc.freeze()
    _, g1, g2 = gc.get_threshold()
    gc.set_threshold(threshold0, max(g1, 20), max(g2, 100))
