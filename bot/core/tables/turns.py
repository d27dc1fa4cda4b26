"""Turn planning: deadlines, warnings, timeouts, AI due times, and the table's one wake-up timer.

The scheduler names only a table; when it fires, ``on_due(table_id)`` (the pipeline's callback,
given at construction) looks at :meth:`Turns.due` and does what is due. Nothing here changes a
table's log: a timeout is described (:meth:`Turns.timeout_move`) and applied by the pipeline.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Awaitable, Callable

from bot.core.clock import Clock
from bot.core.identity import ai_seat_id, is_human_id
from bot.core.settings import ManagerSettings
from bot.core.table import Table
from bot.core.timers import Scheduler
from bot.core.views import Event, public_view
from engine import Game
from storage.records import LOBBY, Seat

#: What :meth:`Turns.due` finds: the lobby expired, the AI seat moves, a timeout, a warning, or nothing.
LOBBY_EXPIRED, AI_MOVE, TIMEOUT, WARNING = "lobby_expired", "ai", "timeout", "warning"


class Turns:
    """Plans each turn of each table and keeps its wake-up time on the scheduler."""

    def __init__(self, clock: Clock, settings: ManagerSettings, *, on_due: Callable[[int], Awaitable[None]],
                 turn_seconds: Callable[[str], float]) -> None:
        self.clock = clock
        self.settings = settings
        self.sched = Scheduler(clock, on_due)
        self._turn_seconds = turn_seconds
        self._jitter = random.Random()

    def turn_seconds(self, chat_id: str) -> float:
        """The chat's turn timer in seconds (0: none)."""
        return self._turn_seconds(chat_id)

    def plan(self, chat_id: str, seats: tuple[Seat, ...], game: Game, now: float,
             table: Table) -> tuple[float | None, float | None, float | None]:
        """(deadline, ai_at, warn_at) for the seat that is to act in ``game``."""
        seat = game.to_act
        if seat is None:
            return None, None, None
        if seats[seat].is_ai:
            return None, now + self.ai_delay(table, seats), None
        secs = self.turn_seconds(chat_id)
        if secs <= 0:
            return None, None, None
        return now + secs, None, now + secs / 2

    def ai_delay(self, table: Table, seats: tuple[Seat, ...] | None = None) -> float:
        """Seconds the AI seat to act waits (0 at a table no person watches, with fast-forward)."""
        seats = seats or table.record.seats
        delay = self.settings.ai_delay
        if delay <= 0:
            return 0.0
        if self.settings.fast_forward_unwatched and not any(
                (s.away and s.owner) or (not s.is_ai and is_human_id(s.player_id)) for s in seats):
            return 0.0
        jitter = self.settings.ai_jitter
        return delay * self._jitter.uniform(1 - jitter, 1 + jitter) if jitter else delay

    def reschedule(self, table: Table) -> None:
        """Set the table's wake-up to the next thing due on it."""
        record = table.record
        when: float | None = None
        if record.status == LOBBY:
            when = record.lobby_deadline
        elif table.playing and not table.parked:
            if table.ai_at is not None:
                when = table.ai_at
            elif record.deadline is not None:
                when = record.deadline if record.warned or table.warn_at is None else table.warn_at
        self.sched.set(table.table_id, when)

    def forget(self, table_id: int) -> None:
        """The table ended: no more wake-ups."""
        self.sched.forget(table_id)

    def retry_soon(self, table_id: int, delay: float = 1.0) -> None:
        """Wake the table again in ``delay`` seconds (after an internal error)."""
        self.sched.set(table_id, self.clock.now() + delay)

    def due(self, table: Table, now: float) -> str | None:
        """What is due on ``table`` now (None: nothing; reschedule)."""
        record = table.record
        if record.status == LOBBY:
            if record.lobby_deadline is not None and now >= record.lobby_deadline:
                return LOBBY_EXPIRED
            return None
        if not table.playing:
            return None
        if table.ai_at is not None and now >= table.ai_at:
            return AI_MOVE
        if table.ai_at is None and record.deadline is not None and now >= record.deadline:
            return TIMEOUT
        if table.ai_at is None and record.deadline is not None and not record.warned \
                and table.warn_at is not None and now >= table.warn_at:
            return WARNING
        return None

    def timeout_move(self, table: Table) -> tuple[int, str, Seat, list[Event], list[Event]]:
        """The automatic move of a timed-out seat: (seat, action, the seat after, events before, after)."""
        assert table.game is not None
        seat = table.to_act
        assert seat is not None
        current = table.record.seats[seat]
        action = table.game.auto()
        streak = current.auto_streak + 1
        hidden = public_view(table.game).get("to_act") is None
        before: list[Event] = [{"type": "auto_played", "seat": seat, "action": action, "hidden": hidden}]
        after: list[Event] = []
        if streak >= self.settings.autoplay_after and current.player_id:
            new_seat = Seat(player_id=ai_seat_id(table.record.ai_level, seat), name=current.name, is_ai=True,
                            owner=current.player_id, away=True, auto_streak=streak)
            after.append({"type": "seat_to_ai", "seat": seat, "reason": "timeouts"})
        else:
            new_seat = dataclasses.replace(current, auto_streak=streak)
        return seat, action, new_seat, before, after

    def warning_event(self, table: Table, now: float) -> Event:
        """The ``turn_warning`` event of the seat to act."""
        assert table.game is not None and table.record.deadline is not None
        seat = table.to_act
        assert seat is not None
        hidden = public_view(table.game).get("to_act") is None
        return {"type": "turn_warning", "seat": seat,
                "seconds_left": max(0, round(table.record.deadline - now)), "hidden": hidden}

    def replan(self, table: Table, now: float) -> None:
        """Plan the current turn again into the table (a seat changed hands)."""
        assert table.game is not None
        deadline, table.ai_at, table.warn_at = self.plan(
            table.record.chat_id, table.record.seats, table.game, now, table)
        table.update(deadline=deadline, warned=False)

    def resume(self, table: Table, now: float) -> bool:
        """After a restart: the due times of the turn in progress; True if the record must be saved."""
        assert table.game is not None
        record = table.record
        seat = table.game.to_act
        assert seat is not None
        if record.seats[seat].is_ai:
            table.ai_at = now + self.ai_delay(table)
        elif record.deadline is not None:
            table.warn_at = record.deadline - self.turn_seconds(record.chat_id) / 2
        else:
            deadline, table.ai_at, table.warn_at = self.plan(record.chat_id, record.seats, table.game, now, table)
            if deadline is not None:
                table.update(deadline=deadline, warned=False)
                return True
        return False
