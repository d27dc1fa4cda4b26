"""The tables the web table serves: one process's table managers, seen as one.

``majlis run`` with both bots runs one manager per platform on one database; the web server of
the process serves them all through :class:`ManagerSet`, which satisfies
:class:`~bot.core.queries.TableQueries` (what the hub and the server read) and finds the manager
that holds a table for a move (:mod:`bot.adapters.web.actions`).
"""

from __future__ import annotations

from bot.core.clock import Clock
from bot.core.manager import TableManager
from bot.core.model import TableSnapshot
from bot.core.prefs import Prefs
from bot.core.tables.publish import Listener
from bot.core.views import View
from storage.records import ChatRecord
from storage.repository import Repository


class ManagerSet:
    """Several table managers (one per platform) seen as one by the web server: each call goes to
    the manager that holds the table."""

    def __init__(self, *managers: TableManager) -> None:
        self.managers: list[TableManager] = []
        self._listeners: list[Listener] = []
        for manager in managers:
            self.add(manager)

    def add(self, manager: TableManager) -> None:
        """Serve this manager's tables too."""
        self.managers.append(manager)
        for listener in self._listeners:
            manager.subscribe(listener)

    def subscribe(self, listener: Listener) -> None:
        """Receive every manager's updates."""
        self._listeners.append(listener)
        for m in self.managers:
            m.subscribe(listener)

    def owner(self, table_id: int) -> TableManager:
        """The manager holding ``table_id`` (the first one if none does)."""
        for m in self.managers:
            if m.get(table_id) is not None:
                return m
        return self.managers[0]

    def owner_of_chat(self, chat_id: str) -> TableManager:
        """The manager whose chats ``chat_id`` belongs to."""
        for m in self.managers:
            prefixes = m.settings.chat_prefixes
            if prefixes is None or chat_id.startswith(prefixes):
                return m
        return self.managers[0]

    @property
    def clock(self) -> Clock:
        """The first manager's clock."""
        return self.managers[0].clock

    @property
    def repo(self) -> Repository:
        """The database (all managers of a process share it)."""
        return self.managers[0].repo

    @property
    def prefs(self) -> Prefs:
        """The preference cache of the first manager (players are the same in every one)."""
        return self.managers[0].prefs

    def get(self, table_id: int) -> TableSnapshot | None:
        """The snapshot of the table, from whichever manager holds it."""
        return self.owner(table_id).get(table_id)

    def table_in_chat(self, chat_id: str) -> TableSnapshot | None:
        """The chat's newest live table held by this process, if any."""
        return self.owner_of_chat(chat_id).table_in_chat(chat_id)

    def view(self, table_id: int, seat: int | None) -> View:
        """The engine view of a seat."""
        return self.owner(table_id).view(table_id, seat)

    async def chat_settings(self, chat_id: str) -> ChatRecord:
        """A chat's settings."""
        return await self.owner_of_chat(chat_id).chat_settings(chat_id)
