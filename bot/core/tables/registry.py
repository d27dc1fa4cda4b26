"""The live tables in memory: by id, by chat (oldest first), and the per-chat creation locks."""

from __future__ import annotations

import asyncio

from bot.core.errors import Refusal, TableError
from bot.core.table import Table
from storage.records import LOBBY, PLAYING


class Registry:
    """Every table held in memory; a chat keeps only its newest finished tables until a new one opens,
    and an ended table is dropped ``grace`` seconds after it ended (None: kept until then)."""

    def __init__(self, grace: float | None = None) -> None:
        self.tables: dict[int, Table] = {}
        self.chat_tables: dict[str, list[int]] = {}  # every table of the chat held in memory, oldest first
        self._chat_locks: dict[str, asyncio.Lock] = {}
        self.grace = grace
        self._ended: dict[int, float] = {}  # ended table -> when, oldest first

    def ended(self, table_id: int, now: float) -> list[int]:
        """Note that a table ended at ``now``; returns the ids of the ended tables dropped now."""
        self._ended.pop(table_id, None)
        self._ended[table_id] = now
        return self.sweep(now)

    def sweep(self, now: float) -> list[int]:
        """Drop the tables that ended more than ``grace`` seconds ago (and chats left with none)."""
        if self.grace is None:
            return []
        dropped: list[int] = []
        for table_id, when in list(self._ended.items()):
            if when + self.grace > now:
                break
            del self._ended[table_id]
            table = self.tables.get(table_id)
            if table is None or table.live:
                continue
            self._drop(table_id, table.record.chat_id)
            dropped.append(table_id)
        return dropped

    def _drop(self, table_id: int, chat_id: str) -> None:
        self.tables.pop(table_id, None)
        self._ended.pop(table_id, None)
        ids = self.chat_tables.get(chat_id)
        if ids is not None:
            if table_id in ids:
                ids.remove(table_id)
            if not ids:
                del self.chat_tables[chat_id]
                lock = self._chat_locks.get(chat_id)
                if lock is not None and not lock.locked():
                    del self._chat_locks[chat_id]

    def register(self, table: Table) -> list[int]:
        """Hold ``table``; returns the ids of the chat's ended tables dropped to make room."""
        self.tables[table.table_id] = table
        ids = self.chat_tables.setdefault(table.record.chat_id, [])
        dropped = [i for i in ids if not self.tables[i].live]
        for old in dropped:
            ids.remove(old)
            del self.tables[old]
            self._ended.pop(old, None)
        ids.append(table.table_id)
        return dropped

    def drop(self, table_id: int) -> None:
        """Stop holding a table (another process runs it now)."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            ids = self.chat_tables.get(table.record.chat_id, [])
            if table_id in ids:
                ids.remove(table_id)

    def move_chat(self, old_chat_id: str, new_chat_id: str) -> list[Table]:
        """The chat's tables held in memory now belong to ``new_chat_id`` (their records too)."""
        ids = self.chat_tables.pop(old_chat_id, [])
        if not ids:
            return []
        merged = sorted({*self.chat_tables.get(new_chat_id, []), *ids})
        self.chat_tables[new_chat_id] = merged
        tables = [self.tables[i] for i in ids]
        for table in tables:
            table.update(chat_id=new_chat_id, rev=table.record.rev + 1)  # storage bumped every row of the chat
        return tables

    def chat_lock(self, chat_id: str) -> asyncio.Lock:
        """The lock that serializes opening tables in one chat."""
        lock = self._chat_locks.get(chat_id)
        if lock is None:
            lock = self._chat_locks[chat_id] = asyncio.Lock()
        return lock

    def live_in_chat(self, chat_id: str) -> Table | None:
        """The chat's newest live table, if any."""
        for table_id in reversed(self.chat_tables.get(chat_id, [])):
            table = self.tables[table_id]
            if table.live:
                return table
        return None

    def chat_table(self, chat_id: str) -> Table:
        """The chat's live table, else ``TableError(Refusal.NO_TABLE)``."""
        table = self.live_in_chat(chat_id)
        if table is None:
            raise TableError(Refusal.NO_TABLE)
        return table

    def find(self, table_id: object) -> Table | None:
        """The table of that id held in memory (None for anything else)."""
        return self.tables.get(table_id) if type(table_id) is int else None

    def table(self, table_id: object) -> Table:
        """The table of that id, else ``TableError(Refusal.NO_TABLE)``."""
        table = self.find(table_id)
        if table is None:
            raise TableError(Refusal.NO_TABLE)
        return table


def require_lobby(table: Table) -> None:
    """Refuse unless the table is a lobby."""
    status = table.record.status
    if status == PLAYING:
        raise TableError(Refusal.ALREADY_STARTED)
    if status != LOBBY:
        raise TableError(Refusal.NO_TABLE)


def require_playing(table: Table) -> None:
    """Refuse unless a match is running at the table."""
    status = table.record.status
    if status == LOBBY:
        raise TableError(Refusal.NOT_STARTED)
    if status != PLAYING or table.game is None:
        raise TableError(Refusal.FINISHED)
