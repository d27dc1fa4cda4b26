"""The table manager: the platform-neutral heart of the bot (docs/architecture.md §2).

Every change of a table goes one way: the table's ``asyncio.Lock`` → seat and version checks →
the engine (on a clone) → ``repo.append_action`` (committed) → swap in the new state → notify the
subscribers → restart the table's timer. Refusals raise :class:`bot.errors.TableError` and change
nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import engine
from bot.ai import AIProvider, Player, ai_player, is_heavy
from bot.clock import Clock, RealClock
from bot.errors import TableError
from bot.restore import rebuild_game
from bot.settings import ManagerSettings
from bot.table import EMPTY, Table, ai_seat_id, is_human_id, left_key
from bot.timers import Scheduler
from bot.types import Person, TableSnapshot, TableUpdate
from engine import Game, IllegalAction, InvalidOptions
from storage.records import (
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    STOPPED,
    ActionRecord,
    ChatRecord,
    LeaderRow,
    MatchResult,
    PlayerRecord,
    PlayerStats,
    Seat,
    TableRecord,
)
from storage.repository import Repository, VersionConflict

log = logging.getLogger(__name__)

Listener = Callable[[TableUpdate], Awaitable[None]]
Event = dict[str, Any]

MAX_ACTION_LEN = 32


class TableManager:
    """Hosts every table of every chat; adapters call it, subscribers receive ``TableUpdate``s."""

    def __init__(self, repo: Repository, *, clock: Clock | None = None,
                 settings: ManagerSettings | None = None, ai: AIProvider | None = None) -> None:
        self.repo = repo
        self.clock: Clock = clock or RealClock()
        self.settings = settings or ManagerSettings()
        self._ai: AIProvider = ai or ai_player
        self._tables: dict[int, Table] = {}
        self._chat_tables: dict[str, list[int]] = {}  # every table of the chat held in memory, oldest first
        self._chat_locks: dict[str, asyncio.Lock] = {}
        self._chats: dict[str, ChatRecord] = {}
        self._listeners: list[Listener] = []
        self._sched = Scheduler(self.clock, self._wake)
        self._seeds = random.SystemRandom()
        self._jitter = random.Random()
        self._started = False

    # ------------------------------------------------------------------ lifecycle

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every :class:`TableUpdate`, in order per table."""
        self._listeners.append(listener)

    async def start(self) -> None:
        """Restore every live table from storage, tell the subscribers, and run the timers."""
        if self._started:
            return
        self._started = True
        for table in await self._restore_all():
            await self._after_restore(table)
        if self.settings.background:
            self._sched.start()

    async def close(self) -> None:
        """Stop the timers and wait for the moves being made; the tables stay in storage."""
        await self._sched.close()
        self._started = False

    async def run_due(self) -> None:
        """Fire every due timer and AI move now (tests drive a ``FakeClock`` with this)."""
        await self._sched.run_due()

    # ------------------------------------------------------------------ queries

    def table_in_chat(self, chat_id: str) -> TableSnapshot | None:
        """The chat's newest live table (lobby or playing), if any."""
        table = self._live_in_chat(chat_id)
        return table.snapshot() if table is not None else None

    def get(self, table_id: int) -> TableSnapshot | None:
        """A snapshot of the table (live, or finished since this process started)."""
        table = self._tables.get(table_id) if isinstance(table_id, int) else None
        return table.snapshot() if table is not None else None

    def view(self, table_id: int, seat: int | None) -> dict[str, Any]:
        """The engine's view for ``seat`` (None: public), for "My hand" buttons."""
        table = self._table(table_id)
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise TableError("bad_action")
        if table.game is None:
            raise TableError("not_started")
        return table.game.view(seat)

    # ------------------------------------------------------------------ lobby

    async def create(self, chat_id: str, creator: Person, game: str,
                     options: dict[str, Any] | None = None) -> TableSnapshot:
        """Open a lobby in ``chat_id`` with ``creator`` in seat 0."""
        if game not in engine.GAME_IDS:
            raise TableError("unknown_game", game=str(game))
        if options is not None and not isinstance(options, dict):
            raise TableError("bad_option", detail="options must be a mapping")
        async with self._chat_lock(chat_id):
            if self.settings.one_table_per_chat and self._live_in_chat(chat_id) is not None:
                raise TableError("table_exists")
            chat = await self.chat_settings(chat_id)
            merged = {**chat.default_options.get(game, {}), **(options or {})}
            seed = self.settings.seed_source() if self.settings.seed_source else self._seeds.getrandbits(63)
            resolved = self._check_options(game, seed, merged)
            await self._touch_player(creator)
            now = self.clock.now()
            record = _new_record(chat_id, creator, game, resolved, seed, now,
                                 now + self.settings.lobby_timeout, chat)
            table_id = await self.repo.create_table(record)
            table = Table(record=dataclasses.replace(record, table_id=table_id))
            self._register(table)
            events: list[Event] = [{"type": "table_created", "game": game},
                                   {"type": "player_joined", "seat": 0, "player": creator.player_id}]
            async with table.lock:
                await self._emit(table, events, "created")
                self._reschedule(table)
            return table.snapshot()

    async def join(self, chat_id: str, person: Person, seat: int | None = None) -> TableSnapshot:
        """Sit ``person`` in ``seat`` (or the first free seat) of the chat's lobby."""
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise TableError("bad_action")
        table = self._chat_table(chat_id)
        async with table.lock, table.changing():
            self._require_lobby(table)
            if table.seat_of(person.player_id) is not None:
                raise TableError("already_seated")
            free = table.free_seats()
            if seat is None:
                if not free:
                    raise TableError("table_full")
                seat = free[0]
            elif seat not in free:
                raise TableError("seat_taken", seat=seat)
            await self._touch_player(person)
            table.set_seat(seat, Seat(player_id=person.player_id, name=person.name))
            events: list[Event] = [{"type": "player_joined", "seat": seat, "player": person.player_id}]
            if self.settings.auto_begin_when_full and not table.free_seats():
                await self._begin_locked(table, events)
            else:
                await self.repo.save_table(table.record)
                await self._emit(table, events, "lobby")
            return table.snapshot()

    async def begin(self, chat_id: str, person: Person) -> TableSnapshot:
        """Start the match: the creator or anyone seated may; AI players fill the empty seats."""
        table = self._chat_table(chat_id)
        async with table.lock, table.changing():
            self._require_lobby(table)
            if person.player_id != table.record.creator and table.seat_of(person.player_id) is None:
                raise TableError("not_allowed")
            if not table.humans():
                raise TableError("not_seated")
            await self._begin_locked(table, [])
            return table.snapshot()

    async def leave(self, chat_id: str, person: Person) -> TableSnapshot:
        """Leave the chat's table: in the lobby the seat frees; mid-match an AI takes it over."""
        table = self._chat_table(chat_id)
        async with table.lock, table.changing():
            seat = table.seat_of(person.player_id)
            if seat is None:
                raise TableError("not_seated")
            events: list[Event] = [{"type": "player_left", "seat": seat, "player": person.player_id}]
            if table.record.status == LOBBY:
                table.set_seat(seat, EMPTY)
                if not table.humans():
                    await self._end(table, CANCELLED, [*events, {"type": "table_cancelled", "reason": "empty"}])
                    return table.snapshot()
                await self.repo.save_table(table.record)
                await self._emit(table, events, "lobby")
                return table.snapshot()
            self._require_playing(table)
            level = table.record.ai_level
            table.set_seat(seat, Seat(player_id=ai_seat_id(level, seat), is_ai=True))
            ids = {**table.record.message_ids, left_key(person.player_id): str(seat)}
            table.update(message_ids=ids)
            events.append({"type": "seat_to_ai", "seat": seat, "reason": "left"})
            await self._seat_changed(table, seat, events)
            return table.snapshot()

    async def claim(self, chat_id: str, person: Person, seat: int) -> TableSnapshot:
        """Take over an AI-played seat mid-match (one a person left, an AI filler, or one's own away seat)."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise TableError("bad_action")
        table = self._chat_table(chat_id)
        async with table.lock, table.changing():
            self._require_playing(table)
            current = table.record.seats[seat]
            back = current.away and current.owner == person.player_id
            if not back and table.seat_of(person.player_id) is not None:
                raise TableError("already_seated")
            if not current.is_ai or (current.away and not back):
                raise TableError("seat_taken", seat=seat)
            await self._touch_player(person)
            table.set_seat(seat, Seat(player_id=person.player_id, name=person.name))
            ids = dict(table.record.message_ids)
            ids.pop(left_key(person.player_id), None)
            table.update(message_ids=ids)
            events: list[Event] = [{"type": "seat_reclaimed", "seat": seat, "player": person.player_id}]
            await self._seat_changed(table, seat, events)
            return table.snapshot()

    async def stop(self, chat_id: str, person: Person, *, is_admin: bool = False) -> TableSnapshot:
        """Stop the chat's table (lobby or match): its creator or a chat admin may."""
        table = self._chat_table(chat_id)
        async with table.lock, table.changing():
            if not table.live:
                raise TableError("no_table")
            if not is_admin and person.player_id != table.record.creator:
                raise TableError("not_allowed")
            events: list[Event] = [{"type": "table_cancelled", "reason": "stopped", "by": person.player_id}]
            await self._end(table, STOPPED, events)
            return table.snapshot()

    # ------------------------------------------------------------------ actions

    async def act(self, table_id: int, person: Person, version: int, action: str) -> TableSnapshot:
        """Apply ``action`` for ``person`` if the table is still at ``version`` (a button press)."""
        if type(version) is not int:
            raise TableError("stale")
        return await self._act(table_id, person, version, action)

    async def act_current(self, table_id: int, person: Person, action: str) -> TableSnapshot:
        """Apply ``action`` for ``person`` at whatever version the table is (typed input)."""
        return await self._act(table_id, person, None, action)

    async def _act(self, table_id: int, person: Person, version: int | None, action: str) -> TableSnapshot:
        table = self._table(table_id)
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION_LEN:
            raise TableError("bad_action")
        async with table.lock:
            started = time.perf_counter()
            self._require_playing(table)
            seat = table.seat_of(person.player_id)
            if seat is None:
                raise TableError("not_seated")
            if version is not None and version != table.record.version:
                raise TableError("stale", version=table.record.version)
            if table.to_act != seat:
                raise TableError("not_your_turn")
            current = table.record.seats[seat]
            before: list[Event] = []
            if current.away and current.owner == person.player_id:
                new_seat = Seat(player_id=person.player_id, name=current.name or person.name)
                before.append({"type": "seat_reclaimed", "seat": seat, "player": person.player_id})
            else:
                new_seat = dataclasses.replace(current, auto_streak=0)
            await self._apply(table, seat, action, person.player_id, "action", started,
                              seat_value=new_seat, before=before)
            return table.snapshot()

    async def _apply(self, table: Table, seat: int, action: str, actor: str, reason: str, started: float, *,
                     seat_value: Seat | None = None, before: list[Event] | None = None,
                     after: list[Event] | None = None) -> None:
        """The one path of an engine action; the caller holds ``table.lock`` and checked the seat."""
        assert table.game is not None
        action = _canonical(table.game, action)
        game = table.game.clone()
        try:
            events = game.act(seat, action)
        except IllegalAction as e:
            raise TableError("illegal", **{**e.details, "reason": e.reason}) from None
        except Exception:
            log.exception("engine failed on table %s: seat %s %r", table.table_id, seat, action)
            raise TableError("illegal", reason="internal") from None
        now = self.clock.now()
        new_seats = table.record.seats
        if seat_value is not None:
            s = list(new_seats)
            s[seat] = seat_value
            new_seats = (s[0], s[1], s[2], s[3])
        seq = table.record.version + 1
        deadline, ai_at, warn_at = self._plan_turn(table.record.chat_id, new_seats, game, now, table)
        record = dataclasses.replace(table.record, seats=new_seats, version=seq, warned=False, deadline=deadline)
        entry = ActionRecord(table_id=table.table_id, seq=seq, seat=seat, action=action, actor=actor, at=now)
        try:
            await self.repo.append_action(entry, record)
        except VersionConflict:
            log.exception("table %s: the log moved under us; reloading it", table.table_id)
            await self._resync(table)
            raise TableError("stale", version=table.record.version) from None
        except Exception:
            log.exception("table %s: storing action %s failed; reloading", table.table_id, seq)
            await self._resync(table)
            raise
        table.game, table.record, table.ai_at, table.warn_at = game, record, ai_at, warn_at
        table.since_snapshot += 1
        table.changed()
        events = [*(before or []), *events, *(after or [])]
        if game.to_act is None:
            events += await self._finish(table)
            reason = "ended"
        await self._emit(table, events, reason, entry)
        if self.settings.latency_sink is not None:
            self.settings.latency_sink(time.perf_counter() - started)
        if table.live and self._snapshot_due(table, events):
            await self._save_snapshot(table)
        self._reschedule(table)

    # ------------------------------------------------------------------ timers and AI

    async def _wake(self, table_id: int) -> None:
        """A table's timer came due: do what is due; after an internal error, try again in a second."""
        try:
            await self._wake_table(table_id)
        except Exception:
            log.exception("table %s: timer or AI move failed; retrying in a second", table_id)
            table = self._tables.get(table_id)
            if table is not None and table.live:
                self._sched.set(table_id, self.clock.now() + 1.0)

    async def _wake_table(self, table_id: int) -> None:
        table = self._tables.get(table_id)
        if table is None or not table.live:
            return
        async with table.lock:
            thinking = await self._fire_due(table, time.perf_counter())
        if thinking is not None:
            await self._heavy_ai_move(table, *thinking)

    async def _fire_due(self, table: Table, started: float) -> tuple[Player, int, int, dict[str, Any]] | None:
        """Do what is due on ``table`` (lock held). A heavy AI's turn is returned to think unlocked."""
        now = self.clock.now()
        record = table.record
        if record.status == LOBBY:
            if record.lobby_deadline is not None and now >= record.lobby_deadline:
                await self._end(table, CANCELLED, [{"type": "table_cancelled", "reason": "lobby_timeout"}])
            else:
                self._reschedule(table)
            return None
        if not table.playing:
            return None
        assert table.game is not None
        if table.ai_at is not None and now >= table.ai_at:
            player = self._ai(record.ai_level)
            if is_heavy(player):
                seat = table.to_act
                assert seat is not None
                return player, seat, record.version, table.game.view(seat)
            await self._ai_move(table, player, None, started)
        elif table.ai_at is None and record.deadline is not None and now >= record.deadline:
            await self._timeout(table, started)
        elif table.ai_at is None and record.deadline is not None and not record.warned \
                and table.warn_at is not None and now >= table.warn_at:
            await self._warn(table, now)
        else:
            self._reschedule(table)
        return None

    async def _heavy_ai_move(self, table: Table, player: Player, seat: int, version: int,
                             view: dict[str, Any]) -> None:
        """A heavy AI thinks in a worker thread, without the lock; its move applies if nothing moved."""
        try:
            decision: str | None = await asyncio.to_thread(player.decide, view, table.record.game,
                                                           _ai_rng(table))
        except Exception:
            log.exception("AI of table %s seat %s failed; playing the automatic move", table.table_id, seat)
            decision = None
        async with table.lock:
            if table.playing and table.record.version == version and table.to_act == seat and table.ai_at:
                await self._ai_move(table, player, decision, time.perf_counter())
            elif table.live:
                self._reschedule(table)

    async def _ai_move(self, table: Table, player: Player, decision: str | None, started: float) -> None:
        """Play the AI seat to act (``decision`` already made by a heavy player, else decide now)."""
        assert table.game is not None
        seat = table.to_act
        assert seat is not None
        record = table.record
        if decision is None and not is_heavy(player):
            try:
                decision = player.decide(table.game.view(seat), record.game, _ai_rng(table))
            except Exception:
                log.exception("AI of table %s seat %s failed; playing the automatic move", table.table_id, seat)
        actor = record.seats[seat].player_id or ai_seat_id(record.ai_level, seat)
        if decision is not None:
            try:
                await self._apply(table, seat, decision, actor, "action", started)
                return
            except TableError as e:
                if e.code != "illegal":
                    raise
                log.warning("AI of table %s chose %r: %s; playing the automatic move",
                            table.table_id, decision, e.params)
        await self._apply(table, seat, table.game.auto(), actor, "action", started)

    async def _timeout(self, table: Table, started: float) -> None:
        assert table.game is not None
        seat = table.to_act
        assert seat is not None
        current = table.record.seats[seat]
        action = table.game.auto()
        streak = current.auto_streak + 1
        hidden = table.game.view(None).get("to_act") is None
        before: list[Event] = [{"type": "auto_played", "seat": seat, "action": action, "hidden": hidden}]
        after: list[Event] = []
        if streak >= self.settings.autoplay_after and current.player_id:
            new_seat = Seat(player_id=ai_seat_id(table.record.ai_level, seat), name=current.name, is_ai=True,
                            owner=current.player_id, away=True, auto_streak=streak)
            after.append({"type": "seat_to_ai", "seat": seat, "reason": "timeouts"})
        else:
            new_seat = dataclasses.replace(current, auto_streak=streak)
        await self._apply(table, seat, action, "timer", "timeout", started,
                          seat_value=new_seat, before=before, after=after)

    async def _warn(self, table: Table, now: float) -> None:
        assert table.game is not None and table.record.deadline is not None
        async with table.changing():
            table.update(warned=True)
            await self.repo.save_table(table.record)
        hidden = table.game.view(None).get("to_act") is None
        event = {"type": "turn_warning", "seat": table.to_act,
                 "seconds_left": max(0, round(table.record.deadline - now)), "hidden": hidden}
        await self._emit(table, [event], "warning")
        self._reschedule(table)

    def _plan_turn(self, chat_id: str, seats: tuple[Seat, ...], game: Game, now: float,
                   table: Table) -> tuple[float | None, float | None, float | None]:
        """(deadline, ai_at, warn_at) for the seat that is to act in ``game``."""
        seat = game.to_act
        if seat is None:
            return None, None, None
        if seats[seat].is_ai:
            return None, now + self._ai_delay(table, seats), None
        secs = self._turn_seconds(chat_id)
        if secs <= 0:
            return None, None, None
        return now + secs, None, now + secs / 2

    def _ai_delay(self, table: Table, seats: tuple[Seat, ...] | None = None) -> float:
        seats = seats or table.record.seats
        delay = self.settings.ai_delay
        if delay <= 0:
            return 0.0
        if self.settings.fast_forward_unwatched and not any(
                (s.away and s.owner) or (not s.is_ai and is_human_id(s.player_id)) for s in seats):
            return 0.0
        jitter = self.settings.ai_jitter
        return delay * self._jitter.uniform(1 - jitter, 1 + jitter) if jitter else delay

    def _turn_seconds(self, chat_id: str) -> float:
        chat = self._chats.get(chat_id)
        return float(chat.turn_seconds) if chat is not None else float(self.settings.default_turn_seconds)

    def _reschedule(self, table: Table) -> None:
        record = table.record
        when: float | None = None
        if record.status == LOBBY:
            when = record.lobby_deadline
        elif table.playing:
            if table.ai_at is not None:
                when = table.ai_at
            elif record.deadline is not None:
                when = record.deadline if record.warned or table.warn_at is None else table.warn_at
        if when is None:
            self._sched.set(table.table_id, None)
        else:
            self._sched.set(table.table_id, when)

    # ------------------------------------------------------------------ state changes

    async def _begin_locked(self, table: Table, events: list[Event]) -> None:
        record = table.record
        level = record.ai_level
        seats = tuple(s if s.player_id is not None else Seat(player_id=ai_seat_id(level, i), is_ai=True)
                      for i, s in enumerate(record.seats))
        game = engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=record.options)
        now = self.clock.now()
        table.game = game
        table.update(seats=seats, status=PLAYING, lobby_deadline=None, version=0, warned=False)
        deadline, table.ai_at, table.warn_at = self._plan_turn(record.chat_id, seats, game, now, table)
        table.update(deadline=deadline)
        await self.repo.save_table(table.record)
        await self._emit(table, [*events, {"type": "table_started"}], "started")
        self._reschedule(table)

    async def _seat_changed(self, table: Table, seat: int, events: list[Event]) -> None:
        """After a seat changed hands mid-match: re-plan the turn if it is that seat's, save, tell."""
        to_act = table.to_act
        if table.game is not None and to_act is not None and (
                to_act == seat or table.record.seats[to_act].is_ai):
            now = self.clock.now()
            deadline, table.ai_at, table.warn_at = self._plan_turn(
                table.record.chat_id, table.record.seats, table.game, now, table)
            table.update(deadline=deadline, warned=False)
        await self.repo.save_table(table.record)
        await self._emit(table, events, "seat")
        self._reschedule(table)

    async def _end(self, table: Table, status: str, events: list[Event]) -> None:
        """Cancel or stop a table."""
        async with table.changing():
            table.update(status=status, deadline=None, lobby_deadline=None, warned=False)
            table.ai_at = table.warn_at = None
            await self.repo.save_table(table.record)
        self._sched.forget(table.table_id)
        await self._emit(table, events, "ended")

    async def _finish(self, table: Table) -> list[Event]:
        """The match is over: record it (winners; leavers lose) and mark the table finished."""
        result = table.match_result(self.clock.now())
        table.update(status=FINISHED, deadline=None, warned=False)
        table.ai_at = table.warn_at = None
        try:
            await self.repo.record_match(result, table.record)
        except Exception:
            log.exception("table %s: recording the match failed; it is recorded again on restore",
                          table.table_id)
        self._sched.forget(table.table_id)
        return [{"type": "match_recorded", "results": [dataclasses.asdict(r) for r in result.results]}]

    def _snapshot_due(self, table: Table, events: list[Event]) -> bool:
        every = self.settings.snapshot_every
        if every > 0 and table.since_snapshot >= every:
            return True
        return any(e.get("type") == "deal_scored" for e in events)

    async def _save_snapshot(self, table: Table) -> None:
        assert table.game is not None
        try:
            await self.repo.save_snapshot(table.table_id, table.record.version, table.game.to_json())
            table.since_snapshot = 0
        except Exception:
            log.exception("table %s: saving a snapshot failed (the log still has everything)", table.table_id)

    async def _resync(self, table: Table) -> None:
        """Reload a table from storage after a write failed, so memory equals the log again."""
        try:
            record = await self.repo.get_table(table.table_id)
            if record is None:
                return
            snapshot = await self.repo.latest_snapshot(table.table_id)
            tail = await self.repo.actions(table.table_id, snapshot[0] if snapshot else 0)
            table.game, table.record = await rebuild_game(self.repo, record, snapshot, tail), record
            table.changed()
        except Exception:
            log.exception("table %s: reloading from storage failed", table.table_id)

    async def _emit(self, table: Table, events: list[Event], reason: str,
                    action: ActionRecord | None = None) -> None:
        private: dict[int, dict[str, Any]] = {}
        if table.game is not None:
            private = {seat: table.game.view(seat) for seat in table.humans()}
        update = TableUpdate(snapshot=table.snapshot(), events=events, private=private, reason=reason,
                             action=action)
        for listener in list(self._listeners):
            try:
                await listener(update)
            except Exception:
                log.exception("a subscriber failed on table %s (%s)", table.table_id, reason)

    # ------------------------------------------------------------------ restore

    async def _restore_all(self) -> list[Table]:
        bulk = getattr(self.repo, "live_tables_with_logs", None)
        if bulk is not None:
            rows = await bulk()
        else:
            rows = []
            for record in await self.repo.live_tables():
                snapshot = await self.repo.latest_snapshot(record.table_id) if record.version else None
                tail = await self.repo.actions(record.table_id, snapshot[0] if snapshot else 0)
                rows.append((record, snapshot, tail))
        prefixes = self.settings.chat_prefixes
        if prefixes is not None:  # another process (another platform's bot) owns the other tables
            rows = [row for row in rows if row[0].chat_id.startswith(prefixes)]
        tables = []
        for record, snapshot, tail in rows:
            try:
                game = await rebuild_game(self.repo, record, snapshot, tail) if record.status == PLAYING else None
            except Exception:
                log.exception("table %s cannot be rebuilt from its log; left as it is", record.table_id)
                continue
            table = Table(record=record, game=game)
            self._register(table)
            tables.append(table)
        for chat_id in {t.record.chat_id for t in tables}:
            await self.chat_settings(chat_id)
        return tables

    async def _after_restore(self, table: Table) -> None:
        now = self.clock.now()
        async with table.lock:
            record = table.record
            if table.playing and table.game is not None:
                if table.game.to_act is None:
                    events = await self._finish(table)
                    await self._emit(table, events, "ended")
                    return
                seat = table.game.to_act
                if record.seats[seat].is_ai:
                    table.ai_at = now + self._ai_delay(table)
                elif record.deadline is not None:
                    table.warn_at = record.deadline - self._turn_seconds(record.chat_id) / 2
                else:
                    deadline, table.ai_at, table.warn_at = self._plan_turn(
                        record.chat_id, record.seats, table.game, now, table)
                    if deadline is not None:
                        table.update(deadline=deadline, warned=False)
                        await self.repo.save_table(table.record)
            await self._emit(table, [], "restored")
            self._reschedule(table)

    # ------------------------------------------------------------------ settings and scoreboards

    async def chat_settings(self, chat_id: str) -> ChatRecord:
        """The chat's settings (defaults when it has none stored yet)."""
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = await self.repo.get_chat(chat_id) or ChatRecord(
                chat_id=chat_id, turn_seconds=self.settings.default_turn_seconds,
                ai_level=self.settings.default_ai_level, digits=self.settings.default_digits)
            self._chats[chat_id] = chat
        return chat

    async def update_chat(self, chat_id: str, **changes: Any) -> ChatRecord:
        """Change and store chat settings (``lang``, ``turn_seconds``, ``default_options`` ...)."""
        chat = await self.chat_settings(chat_id)
        fields = {f.name for f in dataclasses.fields(ChatRecord)} - {"chat_id"}
        unknown = set(changes) - fields
        if unknown:
            raise TableError("bad_option", detail=f"unknown chat settings {sorted(unknown)}")
        if "turn_seconds" in changes and (type(changes["turn_seconds"]) is not int
                                          or changes["turn_seconds"] < 0):
            raise TableError("bad_option", detail="turn_seconds must be a whole number of seconds")
        if changes.get("ai_level", "easy") not in ("easy", "normal", "strong"):
            raise TableError("bad_option", detail="ai_level is easy, normal or strong")
        if changes.get("digits", "western") not in ("western", "arabic"):
            raise TableError("bad_option", detail="digits is western or arabic")
        if "default_options" in changes:
            for game, opts in dict(changes["default_options"]).items():
                if game not in engine.GAME_IDS:
                    raise TableError("unknown_game", game=str(game))
                self._check_options(game, 0, dict(opts))
        chat = dataclasses.replace(chat, **changes)
        await self.repo.save_chat(chat)
        self._chats[chat_id] = chat
        return chat

    async def player(self, person: Person) -> PlayerRecord:
        """The person's record, created on first sight; the stored name follows the platform's."""
        return await self._touch_player(person)

    async def update_player(self, player_id: str, **changes: Any) -> PlayerRecord:
        """Change and store a player's record (``lang``, ``dm_ok`` ...)."""
        record = await self.repo.get_player(player_id) or PlayerRecord(player_id=player_id, name="")
        fields = {f.name for f in dataclasses.fields(PlayerRecord)} - {"player_id"}
        if set(changes) - fields:
            raise TableError("bad_option", detail=f"unknown player settings {sorted(set(changes) - fields)}")
        record = dataclasses.replace(record, **changes)
        await self.repo.save_player(record)
        return record

    async def leaderboard(self, chat_id: str, game: str) -> list[LeaderRow]:
        """The chat's leaderboard for ``game``."""
        if game not in engine.GAME_IDS:
            raise TableError("unknown_game", game=str(game))
        return await self.repo.leaderboard(chat_id, game)

    async def stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]:
        """A player's record per game (in one chat, or everywhere)."""
        return await self.repo.player_stats(player_id, chat_id)

    async def table_results(self, table_id: int) -> MatchResult | None:
        """A finished table's match result."""
        return await self.repo.table_results(table_id)

    async def set_message_id(self, table_id: int, key: str, message_id: str | None) -> None:
        """Remember (or forget, with None) a platform message id of the table, durably."""
        table = self._tables.get(table_id) if isinstance(table_id, int) else None
        if table is None:
            record = await self.repo.get_table(table_id)
            if record is None:
                raise TableError("no_table")
            ids = _with_id(record.message_ids, key, message_id)
            await self.repo.save_table(dataclasses.replace(record, message_ids=ids))
            return
        async with table.lock, table.changing():
            table.update(message_ids=_with_id(table.record.message_ids, key, message_id))
            await self.repo.save_table(table.record)

    # ------------------------------------------------------------------ helpers

    def _check_options(self, game: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        try:
            probe = engine.new_game(game, seed=seed, options=options)
        except InvalidOptions as e:
            raise TableError("bad_option", detail=str(e)) from None
        except ImportError:
            raise TableError("unknown_game", game=game) from None
        except (TypeError, ValueError) as e:
            raise TableError("bad_option", detail=str(e)) from None
        return dict(getattr(probe, "options", options))

    async def _touch_player(self, person: Person) -> PlayerRecord:
        record = await self.repo.get_player(person.player_id)
        if record is None:
            record = PlayerRecord(player_id=person.player_id, name=person.name)
            await self.repo.save_player(record)
        elif record.name != person.name and person.name:
            record = dataclasses.replace(record, name=person.name)
            await self.repo.save_player(record)
        return record

    def _register(self, table: Table) -> None:
        self._tables[table.table_id] = table
        ids = self._chat_tables.setdefault(table.record.chat_id, [])
        for old in [i for i in ids if not self._tables[i].live]:
            ids.remove(old)
            del self._tables[old]
            self._sched.forget(old)
        ids.append(table.table_id)

    def _chat_lock(self, chat_id: str) -> asyncio.Lock:
        lock = self._chat_locks.get(chat_id)
        if lock is None:
            lock = self._chat_locks[chat_id] = asyncio.Lock()
        return lock

    def _live_in_chat(self, chat_id: str) -> Table | None:
        for table_id in reversed(self._chat_tables.get(chat_id, [])):
            table = self._tables[table_id]
            if table.live:
                return table
        return None

    def _chat_table(self, chat_id: str) -> Table:
        table = self._live_in_chat(chat_id)
        if table is None:
            raise TableError("no_table")
        return table

    def _table(self, table_id: int) -> Table:
        table = self._tables.get(table_id) if type(table_id) is int else None
        if table is None:
            raise TableError("no_table")
        return table

    @staticmethod
    def _require_lobby(table: Table) -> None:
        status = table.record.status
        if status == PLAYING:
            raise TableError("already_started")
        if status != LOBBY:
            raise TableError("no_table")

    @staticmethod
    def _require_playing(table: Table) -> None:
        status = table.record.status
        if status == LOBBY:
            raise TableError("not_started")
        if status != PLAYING or table.game is None:
            raise TableError("finished")


def _ai_rng(table: Table) -> random.Random:
    """The table's generator for AI choices (seeded from the table, made once: seeding is slow)."""
    if table.rng is None:
        table.rng = random.Random(table.record.seed)
    return table.rng


def _canonical(game: Game, action: str) -> str:
    """The legal code that ``action`` spells in another case or with spaces around it, else ``action``."""
    key = action.strip().lower()
    for code in game.legal():
        if code.lower() == key:
            return code
    return action


def _with_id(ids: dict[str, str], key: str, message_id: str | None) -> dict[str, str]:
    out = dict(ids)
    if message_id is None:
        out.pop(key, None)
    else:
        out[key] = str(message_id)
    return out


def _new_record(chat_id: str, creator: Person, game: str, options: dict[str, Any], seed: int, now: float,
                lobby_deadline: float, chat: ChatRecord) -> TableRecord:
    seats = (Seat(player_id=creator.player_id, name=creator.name), EMPTY, EMPTY, EMPTY)
    return TableRecord(table_id=0, chat_id=chat_id, game=game, options=options, seed=seed, dealer=None,
                       creator=creator.player_id, status=LOBBY, seats=seats, version=0, created_at=now,
                       lobby_deadline=lobby_deadline, lang=chat.lang, ai_level=chat.ai_level)
