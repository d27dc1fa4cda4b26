"""A table's transitions: the match begins, a seat changes hands, the table ends or the match finishes.

Callers hold the table's lock. Each transition stores the record, posts the update to the
:class:`~bot.core.tables.publish.Publisher` (delivered once the lock is released) and sets the table's
next wake-up through :class:`~bot.core.tables.turns.Turns`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

import engine
from bot.core.advice import engine_options
from bot.core.clock import Clock
from bot.core.identity import ai_seat_id
from bot.core.settings import ManagerSettings
from bot.core.table import Table
from bot.core.tables.publish import Publisher
from bot.core.tables.turns import Turns
from bot.core.views import Event
from storage.records import FINISHED, PLAYING, MatchResult, Seat, TableStatus
from storage.repository import Repository

log = logging.getLogger(__name__)



class Lifecycle:
    """The transitions of a table other than an engine action."""

    def __init__(self, repo: Repository, clock: Clock, settings: ManagerSettings, turns: Turns,
                 publisher: Publisher, *, on_ended: Callable[[Table], None] | None = None) -> None:
        self.repo = repo
        self.clock = clock
        self.settings = settings
        self.turns = turns
        self.publisher = publisher
        self.on_ended = on_ended  # the registry's clock for dropping ended tables from memory

    async def begin(self, table: Table, events: list[Event]) -> None:
        """Deal the match: AI players fill the empty seats."""
        record = table.record
        level = record.ai_level
        seats = tuple(s if s.player_id is not None else Seat(player_id=ai_seat_id(level, i), is_ai=True)
                      for i, s in enumerate(record.seats))
        game = engine.new_game(record.game, seed=record.seed, dealer=record.dealer,
                               options=engine_options(record.options))
        now = self.clock.now()
        table.game = game
        table.update(seats=seats, status=PLAYING, lobby_deadline=None, version=0, warned=False)
        deadline, table.ai_at, table.warn_at = self.turns.plan(record.chat_id, seats, game, now, table)
        table.update(deadline=deadline)
        table.record = await self.repo.save_table(table.record)
        self.publisher.post(table, [*events, {"type": "table_started"}], "started")
        self.turns.reschedule(table)

    async def seat_changed(self, table: Table, seat: int, events: list[Event]) -> None:
        """After a seat changed hands mid-match: re-plan the turn if it is that seat's, save, tell."""
        to_act = table.to_act
        if table.game is not None and to_act is not None and (
                to_act == seat or table.record.seats[to_act].is_ai):
            self.turns.replan(table, self.clock.now())
        table.record = await self.repo.save_table(table.record)
        self.publisher.post(table, events, "seat")
        self.turns.reschedule(table)

    async def end(self, table: Table, status: TableStatus, events: list[Event]) -> None:
        """Cancel or stop a table."""
        async with table.changing():
            table.update(status=status, deadline=None, lobby_deadline=None, warned=False)
            table.ai_at = table.warn_at = None
            table.record = await self.repo.save_table(table.record)
        self.turns.forget(table.table_id)
        self.publisher.post(table, events, "ended")
        if self.on_ended is not None:
            self.on_ended(table)

    def finished(self, table: Table, result: MatchResult) -> list[Event]:
        """After the match's last action, result and ratings were committed together: no timers, the event."""
        table.ai_at = table.warn_at = None
        self.turns.forget(table.table_id)
        if self.on_ended is not None:
            self.on_ended(table)
        return [{"type": "match_recorded", "results": [dataclasses.asdict(r) for r in result.results]}]

    async def add_ratings(self, table: Table, events: list[Event]) -> None:
        """Put what the finished match did to its people's season ratings into its ``match_recorded``
        event (the result message shows it); a failed read leaves them out, with one log line."""
        try:
            changes = await self.repo.rating_changes(table.table_id)
        except Exception:
            log.warning("table %s: reading its rating changes failed", table.table_id, exc_info=True)
            return
        if not changes:
            return
        for ev in events:
            if ev["type"] == "match_recorded":
                ev["ratings"] = [{"player_id": c.player_id, "before": c.before, "after": c.after,
                                  "matches": c.matches, "provisional": c.provisional} for c in changes]

    async def finish(self, table: Table) -> list[Event]:
        """Record a match whose last action is logged but whose result is not (a table from before
        ``append_final_action``, restored): the result and the finished table in one transaction.

        If that fails the table stays as it was (one log line) and the error is raised; the next
        start tries again.
        """
        result = table.match_result(self.clock.now())
        async with table.changing():
            table.update(status=FINISHED, deadline=None, warned=False)
            try:
                table.record = await self.repo.record_match(result, table.record)
            except Exception as e:
                log.error("table %s: recording the finished match failed (%s: %s); it is tried again at the "
                          "next start", table.table_id, type(e).__name__, e)
                raise
        events = self.finished(table, result)
        await self.add_ratings(table, events)
        return events

    def snapshot_due(self, table: Table, events: list[Event]) -> bool:
        """Whether to save the engine state now (every ``snapshot_every`` actions, each deal's end)."""
        every = self.settings.snapshot_every
        if every > 0 and table.since_snapshot >= every:
            return True
        return any(e.get("type") == "deal_scored" for e in events)

    async def save_snapshot(self, table: Table) -> None:
        """Save the engine state (a failure only costs a longer replay)."""
        assert table.game is not None
        try:
            await self.repo.save_snapshot(table.table_id, table.record.version, table.game.to_json())
            table.since_snapshot = 0
        except Exception:
            log.exception("table %s: saving a snapshot failed (the log still has everything)", table.table_id)
