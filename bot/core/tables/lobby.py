"""Seat commands: open a lobby, join, begin, leave, claim a seat, stop; and the tables' message ids."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Callable
from typing import Any

import engine
from bot.core.errors import Refusal, TableError
from bot.core.identity import ai_seat_id
from bot.core.model import Person, TableSnapshot
from bot.core.prefs import Prefs, check_options
from bot.core.table import EMPTY, Table
from bot.core.tables.lifecycle import Lifecycle
from bot.core.tables.registry import Registry, require_lobby, require_playing
from bot.core.views import Event
from storage.errors import ChatHasLiveTable, TableConflict
from storage.records import CANCELLED, FINISHED, LOBBY, PLAYING, STOPPED, ChatRecord, Seat, TableRecord

log = logging.getLogger(__name__)
_ID_RETRIES = 5  # message ids of a table no longer held here, written at once: each one reads again


class Lobby:
    """The commands that change who sits where (each checks the table's state, not who may ask)."""

    def __init__(self, registry: Registry, lifecycle: Lifecycle, prefs: Prefs) -> None:
        self.registry = registry
        self.lifecycle = lifecycle
        self.prefs = prefs
        self.repo = lifecycle.repo
        self.clock = lifecycle.clock
        self.settings = lifecycle.settings
        self.turns = lifecycle.turns
        self.publisher = lifecycle.publisher
        self._seeds = random.SystemRandom()
        self._id_locks: dict[int, list[Any]] = {}  # table id -> [lock, users], while any wait

    def register(self, table: Table) -> None:
        """Hold a table in memory (older ended tables of its chat are dropped)."""
        for old in self.registry.register(table):
            self.turns.forget(old)

    async def create(self, chat_id: str, creator: Person, game: str,
                     options: dict[str, Any] | None = None) -> TableSnapshot:
        """Open a lobby in ``chat_id`` with ``creator`` in seat 0.

        A chat has one live table: ``table_exists`` (``table_id``: that table) when it has one here,
        or when storage refuses the new one because another process opened it at the same moment
        (:class:`~storage.errors.ChatHasLiveTable`, nothing held or queued here then).
        """
        if game not in engine.GAME_IDS:
            raise TableError(Refusal.UNKNOWN_GAME, game=str(game))
        if options is not None and not isinstance(options, dict):
            raise TableError(Refusal.BAD_OPTION, detail="options must be a mapping")
        async with self.registry.chat_lock(chat_id):
            live = self.registry.live_in_chat(chat_id)
            if live is not None:
                raise TableError(Refusal.TABLE_EXISTS, table_id=live.table_id)
            # check everything first, then store: a refused /new changes nothing (not even the
            # language a chat adopts from its first table)
            defaults = (await self.prefs.chat(chat_id)).default_options.get(game, {})
            seed = self.settings.seed_source() if self.settings.seed_source else self._seeds.getrandbits(63)
            resolved = check_options(game, seed, {**defaults, **(options or {})})
            chat = await self.prefs.adopt_lang(chat_id, creator.lang_hint)
            await self.prefs.touch_player(creator)
            now = self.clock.now()
            record = _new_record(chat_id, creator, game, resolved, seed, now,
                                 now + self.settings.lobby_timeout, chat)
            owner = self.settings.owner
            lease_until = None if owner is None else now + self.settings.lease_seconds
            try:
                table_id = await self.repo.create_table(record, owner=owner, lease_until=lease_until)
            except ChatHasLiveTable as e:  # another process opened the chat's table at the same moment
                if not await self._release_unrestorable(e):
                    raise TableError(Refusal.TABLE_EXISTS,
                                     **({} if e.table_id is None else {"table_id": e.table_id})) from None
                table_id = await self.repo.create_table(record, owner=owner, lease_until=lease_until)
            table = Table(record=dataclasses.replace(record, table_id=table_id))
            self.register(table)
            events: list[Event] = [{"type": "table_created", "game": game},
                                   {"type": "player_joined", "seat": 0, "player": creator.player_id}]
            async with self.publisher.locked(table):
                self.publisher.post(table, events, "created")
                self.turns.reschedule(table)
            return table.snapshot()

    async def rematch(self, chat_id: str, person: Person, table_id: int, *, swap: bool = False,
                      is_admin: bool = False) -> TableSnapshot:
        """Play again: a new table in ``chat_id`` like the finished ``table_id`` (its game, options and
        language, a fresh seed), its people in their seats (``swap``: the people of seats 1 and 2 trade
        places, so everyone has a new partner), its AI seats left to the AI. Anyone who sat at it as a
        person, its creator or an admin may ask. With ``person`` the only person at it the match begins
        at once; else it is a lobby the others may start or leave. Asked again while that table is still
        the chat's live one (a second press of the same button), it answers that table."""
        old = await self._finished(table_id)
        if old.chat_id != chat_id:
            raise TableError(Refusal.WRONG_TABLE)
        people = _people(old)
        if not is_admin and person.player_id != old.creator and person.player_id not in people.values():
            raise TableError(Refusal.NOT_ALLOWED, what="rematch")
        seats = list(_rematch_seats(old, people))
        if person.player_id not in {s.player_id for s in seats}:  # its creator or an admin: the first free seat
            free = [i for i, s in enumerate(seats) if s.player_id is None]
            if not free:
                raise TableError(Refusal.TABLE_FULL)
            seats[free[0]] = Seat(player_id=person.player_id, name=person.name)
        if swap:
            seats[1], seats[2] = seats[2], seats[1]
        async with self.registry.chat_lock(chat_id):
            live = self.registry.live_in_chat(chat_id)
            if live is not None:
                if live.seat_of(person.player_id) is not None and live.record.game == old.game:
                    return live.snapshot()  # the same press again, or another player's: the table it opened
                raise TableError(Refusal.TABLE_EXISTS, table_id=live.table_id)
            # a fixed seed (--seed, tests) gives the next match its own deals, as fixed: not the same match again
            seed = _next_seed(old.seed) if self.settings.seed_source else self._seeds.getrandbits(63)
            options = check_options(old.game, seed, dict(old.options))
            await self.prefs.touch_player(person)
            now = self.clock.now()
            record = dataclasses.replace(
                _new_record(chat_id, person, old.game, options, seed, now, now + self.settings.lobby_timeout,
                            await self.prefs.chat(chat_id)),
                seats=(seats[0], seats[1], seats[2], seats[3]), lang=old.lang, ai_level=old.ai_level)
            owner = self.settings.owner
            lease_until = None if owner is None else now + self.settings.lease_seconds
            try:
                new_id = await self.repo.create_table(record, owner=owner, lease_until=lease_until)
            except ChatHasLiveTable as e:  # another process opened the chat's table at the same moment
                raise TableError(Refusal.TABLE_EXISTS,
                                 **({} if e.table_id is None else {"table_id": e.table_id})) from None
            table = Table(record=dataclasses.replace(record, table_id=new_id))
            self.register(table)
            events: list[Event] = [{"type": "table_created", "game": old.game, "rematch_of": table_id}]
            events += [{"type": "player_joined", "seat": i, "player": str(s.player_id)}
                       for i, s in enumerate(table.record.seats) if s.player_id is not None]
            async with self.publisher.locked(table):
                self.publisher.post(table, events, "created")
                self.turns.reschedule(table)
        if set(table.humans().values()) == {person.player_id}:  # alone with the AI: no one to wait for
            async with self.publisher.locked(table), table.changing():
                require_lobby(table)
                await self.lifecycle.begin(table, [])
        return table.snapshot()

    async def _finished(self, table_id: int) -> TableRecord:
        """The record of the finished match ``table_id`` (held here, else stored)."""
        held = self.registry.find(table_id)
        record = held.record if held is not None else await self.repo.get_table(table_id)
        if record is None:
            raise TableError(Refusal.NO_TABLE)
        if record.status != FINISHED:
            raise TableError(Refusal.NOT_OVER if record.status in (LOBBY, PLAYING) else Refusal.STALE)
        return record

    async def _release_unrestorable(self, refused: ChatHasLiveTable) -> bool:
        """With one process for the whole database (no leases), a live table of the chat that this
        process does not hold is one restore could not rebuild (logged at start): it would refuse
        every new table of its chat forever. Stop it in storage (its log stays, for ``majlis
        replay``) so the chat can play again; True if it was released."""
        if self.settings.owner is not None or refused.table_id is None or self.registry.find(refused.table_id):
            return False  # several processes: the table's holder answers for it
        lease = await self.repo.chat_lease(refused.chat_id)
        if lease is not None and lease[1] is not None and (lease[2] or 0.0) > self.clock.now():
            return False  # held by a process of its own (a shared database): not this one's to end
        stored = await self.repo.get_table(refused.table_id)
        if stored is not None and stored.status in (LOBBY, PLAYING):  # else it ended meanwhile: try again
            await self.repo.save_table(dataclasses.replace(stored, status=STOPPED, deadline=None,
                                                           lobby_deadline=None))
            log.warning("table %s could not be restored at start; stopped so its chat may open a new one",
                        stored.table_id)
        return True

    async def join(self, chat_id: str, person: Person, seat: int | None = None) -> TableSnapshot:
        """Sit ``person`` in ``seat`` (or the first free seat) of the chat's lobby."""
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise TableError(Refusal.BAD_ACTION)
        table = self.registry.chat_table(chat_id)
        async with self.publisher.locked(table), table.changing():
            require_lobby(table)
            if table.seat_of(person.player_id) is not None:
                raise TableError(Refusal.ALREADY_SEATED)
            free = table.free_seats()
            if seat is None:
                if not free:
                    raise TableError(Refusal.TABLE_FULL)
                seat = free[0]
            elif seat not in free:
                raise TableError(Refusal.SEAT_TAKEN, seat=seat)
            await self.prefs.touch_player(person)
            table.set_seat(seat, Seat(player_id=person.player_id, name=person.name))
            events: list[Event] = [{"type": "player_joined", "seat": seat, "player": person.player_id}]
            if self.settings.auto_begin_when_full and not table.free_seats():
                await self.lifecycle.begin(table, events)
            else:
                table.record = await self.repo.save_table(table.record)
                self.publisher.post(table, events, "lobby")
            return table.snapshot()

    async def begin(self, chat_id: str, person: Person, *, is_admin: bool = False) -> TableSnapshot:
        """Start the match: the creator or anyone seated may; AI players fill the empty seats. On a
        parked match (its timer or AI move kept failing) the creator, anyone seated or an admin sets
        it going again: the stored mark is cleared and its next step is tried now."""
        table = self.registry.chat_table(chat_id)
        async with self.publisher.locked(table), table.changing():
            if table.playing and table.parked:
                if not is_admin and person.player_id != table.record.creator \
                        and table.seat_of(person.player_id) is None:
                    raise TableError(Refusal.NOT_ALLOWED)
                table.update(parked=0)
                self.lifecycle.turns.replan(table, self.lifecycle.clock.now())  # a whole turn from now
                table.record = await self.repo.save_table(table.record)
                self.lifecycle.turns.reschedule(table)
                return table.snapshot()
            require_lobby(table)
            if person.player_id != table.record.creator and table.seat_of(person.player_id) is None:
                raise TableError(Refusal.NOT_ALLOWED)
            if not table.humans():
                raise TableError(Refusal.NOT_SEATED)
            await self.lifecycle.begin(table, [])
            return table.snapshot()

    async def leave(self, chat_id: str, person: Person) -> TableSnapshot:
        """Leave the chat's table: in the lobby the seat frees; mid-match an AI takes it over."""
        table = self.registry.chat_table(chat_id)
        async with self.publisher.locked(table), table.changing():
            seat = table.seat_of(person.player_id)
            if seat is None:
                raise TableError(Refusal.NOT_SEATED)
            events: list[Event] = [{"type": "player_left", "seat": seat, "player": person.player_id}]
            if table.record.status == LOBBY:
                table.set_seat(seat, EMPTY)
                if not table.humans():
                    await self.lifecycle.end(table, CANCELLED,
                                             [*events, {"type": "table_cancelled", "reason": "empty"}])
                    return table.snapshot()
                table.record = await self.repo.save_table(table.record)
                self.publisher.post(table, events, "lobby")
                return table.snapshot()
            require_playing(table)
            level = table.record.ai_level
            table.set_seat(seat, Seat(player_id=ai_seat_id(level, seat), is_ai=True))
            table.update(left_seats={**table.record.left_seats, person.player_id: seat})
            events.append({"type": "seat_to_ai", "seat": seat, "reason": "left"})
            await self.lifecycle.seat_changed(table, seat, events)
            return table.snapshot()

    async def claim(self, chat_id: str, person: Person, seat: int) -> TableSnapshot:
        """Take over an AI-played seat mid-match (one a person left, an AI filler, or one's own away seat)."""
        if type(seat) is not int or not 0 <= seat <= 3:
            raise TableError(Refusal.BAD_ACTION)
        table = self.registry.chat_table(chat_id)
        async with self.publisher.locked(table), table.changing():
            require_playing(table)
            current = table.record.seats[seat]
            back = current.away and current.owner == person.player_id
            if not back and table.seat_of(person.player_id) is not None:
                raise TableError(Refusal.ALREADY_SEATED)
            if not current.is_ai or (current.away and not back):
                raise TableError(Refusal.SEAT_TAKEN, seat=seat)
            await self.prefs.touch_player(person)
            table.set_seat(seat, Seat(player_id=person.player_id, name=person.name))
            left = dict(table.record.left_seats)
            left.pop(person.player_id, None)
            table.update(left_seats=left)
            events: list[Event] = [{"type": "seat_reclaimed", "seat": seat, "player": person.player_id}]
            await self.lifecycle.seat_changed(table, seat, events)
            return table.snapshot()

    async def stop(self, chat_id: str, person: Person, *, is_admin: bool = False) -> TableSnapshot:
        """Stop the chat's table (lobby or match): its creator or a chat admin may."""
        table = self.registry.chat_table(chat_id)
        async with self.publisher.locked(table), table.changing():
            if not table.live:
                raise TableError(Refusal.NO_TABLE)
            if not is_admin and person.player_id != table.record.creator:
                raise TableError(Refusal.NOT_ALLOWED)
            events: list[Event] = [{"type": "table_cancelled", "reason": "stopped", "by": person.player_id}]
            await self.lifecycle.end(table, STOPPED, events)
            return table.snapshot()

    async def set_message_id(self, table_id: int, key: str, message_id: str | None) -> None:
        """Remember (or forget, with None) a platform message id of the table, durably."""
        await self._note(table_id, lambda r: {"message_ids": _with_id(r.message_ids, key, message_id)})

    async def set_shown(self, table_id: int, key: str, shown: str | None) -> None:
        """Remember (or forget, with None) what the message of ``key`` shows, durably."""
        await self._note(table_id, lambda r: {"shown": _with_id(r.shown, key, shown)})

    async def _note(self, table_id: int, change: Callable[[TableRecord], dict[str, Any]]) -> None:
        """Store the ``change`` of fields of the table's record (a note about its messages, not a move)."""
        table = self.registry.find(table_id)
        if table is None:  # a table this process no longer holds (ended, or shutting down)
            await self._note_stored(table_id, change)
            return
        async with table.lock, table.changing():
            table.update(**change(table.record))
            table.record = await self.repo.save_table(table.record)

    async def _note_stored(self, table_id: int, change: Callable[[TableRecord], dict[str, Any]]) -> None:
        """Read, change, write a stored table: one at a time per table here (the outbox sends a
        table's messages concurrently), read again if another process wrote meanwhile."""
        entry = self._id_locks.setdefault(table_id, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                for attempt in range(_ID_RETRIES):
                    record = await self.repo.get_table(table_id)
                    if record is None:
                        raise TableError(Refusal.NO_TABLE)
                    try:
                        await self.repo.save_table(dataclasses.replace(record, **change(record)))
                        return
                    except TableConflict:
                        if attempt == _ID_RETRIES - 1:
                            raise
        finally:
            entry[1] -= 1
            if not entry[1]:
                del self._id_locks[table_id]


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


def _people(record: TableRecord) -> dict[int, str]:
    """Seat -> the person who sat there at the end (or owned it while an AI played it)."""
    return Table(record=record).humans()


def _rematch_seats(record: TableRecord, people: dict[int, str]) -> tuple[Seat, ...]:
    """The finished match's people in their seats (an away seat back to its owner), every other seat free."""
    out = []
    for i, s in enumerate(record.seats):
        pid = people.get(i)
        out.append(Seat(player_id=pid, name=s.name) if pid is not None else EMPTY)
    return tuple(out)


def _next_seed(seed: int) -> int:
    """The seed of the match played again after one of ``seed`` (a step of a 64-bit LCG, kept in 63 bits)."""
    return (seed * 6364136223846793005 + 1442695040888963407) % (1 << 63)
