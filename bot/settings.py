"""The table manager's tunables (the per-chat ones, like the turn timer, live in ``ChatRecord``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ManagerSettings:
    """Knobs of :class:`bot.manager.TableManager`.

    ``ai_delay`` paces AI moves so people can follow them (0 in tests and benchmarks);
    ``autoplay_after`` auto-moves in a row hand a seat to the AI until its owner acts again;
    ``lobby_timeout`` cancels a lobby nobody starts; ``snapshot_every`` saves the engine state
    after that many actions (0: only at the end of each deal) so a restore replays a short tail.
    ``latency_sink`` (benchmarks) receives the seconds each action took, lock to notification.
    """

    one_table_per_chat: bool = True
    lobby_timeout: float = 600.0
    ai_delay: float = 1.0
    autoplay_after: int = 2
    default_turn_seconds: int = 60
    auto_begin_when_full: bool = True
    snapshot_every: int = 0
    seed_source: Callable[[], int] | None = None
    latency_sink: Callable[[float], None] | None = None
