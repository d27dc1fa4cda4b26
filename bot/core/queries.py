"""What the layers above read of the tables: the seam between the core and its readers.

The presenter (``bot/present/presenter.py``) and the web table (``bot/adapters/web/``) do not need
the whole :class:`~bot.core.manager.TableManager`: they read snapshots and views, the clock, the
storage and the preferences, and subscribe to the updates. :class:`TableQueries` names exactly
that, so mypy checks every read; the manager satisfies it, and so does the web's
``ManagerSet`` (several platforms' managers seen as one). :class:`TableNotes` adds the two writes the
presenter makes about delivery (message ids, what a message shows at a clean stop, and whether a
person's private chat is open).
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.core.clock import Clock
from bot.core.model import TableSnapshot
from bot.core.prefs import Prefs
from bot.core.tables.publish import Listener
from bot.core.views import View
from storage.records import ChatRecord, PlayerRecord
from storage.repository import Repository

__all__ = ["TableNotes", "TableQueries"]


class TableQueries(Protocol):
    """The tables as a reader sees them (the presenter, the web hub and server)."""

    @property
    def clock(self) -> Clock:
        """The manager's clock."""

    @property
    def repo(self) -> Repository:
        """The database (finished tables, their action logs, players)."""

    @property
    def prefs(self) -> Prefs:
        """The one preference cache (languages, digits, a person's DM state)."""

    def subscribe(self, listener: Listener) -> None:
        """Receive every table update, in order per table."""

    def get(self, table_id: int) -> TableSnapshot | None:
        """The table's snapshot, if the manager has it."""

    def view(self, table_id: int, seat: int | None) -> View:
        """The engine's view for ``seat`` (None: public); raises ``TableError``."""

    async def chat_settings(self, chat_id: str) -> ChatRecord:
        """The chat's settings (defaults when it has none stored)."""


class TableNotes(TableQueries, Protocol):
    """:class:`TableQueries` plus what the presenter writes back about delivery."""

    async def set_message_id(self, table_id: int, key: str, message_id: str | None) -> None:
        """Remember (or forget, with None) a platform message id of the table."""

    async def set_shown(self, table_id: int, key: str, shown: str | None) -> None:
        """Remember (or forget, with None) what the message of ``key`` shows: ``"<version>:<fingerprint>"``."""

    async def update_player(self, player_id: str, **changes: Any) -> PlayerRecord:
        """Change and store a player's record (the presenter sets ``dm_ok``)."""
