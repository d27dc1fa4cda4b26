"""The typed refusals and failures of every repository (no backend's own exception leaks out).

A caller may catch :class:`StorageError` for "storage cannot do this" and the subclasses for a
precise one-line message. ``KeyError`` (no such table) and ``ValueError`` (arguments that do not
agree) stay the plain built-ins, as before.
"""

from __future__ import annotations


class StorageError(Exception):
    """Storage refused or failed; ``str(error)`` is one line naming the database."""


class VersionConflict(StorageError):
    """``append_action`` was given a seq that is not the table's next one (a double apply)."""


class TableConflict(VersionConflict):
    """A table row was written with a ``rev`` that is not the stored one: someone else wrote it first.

    ``stored`` is the revision in the database (None when the table has gone).
    """

    def __init__(self, table_id: int, expected: int, stored: int | None) -> None:
        super().__init__(f"table {table_id}: written at rev {expected}, the database has rev {stored}")
        self.table_id = table_id
        self.expected = expected
        self.stored = stored


class NotADatabase(StorageError):
    """The file exists but is not a Majlis database (not SQLite at all, or damaged)."""


class ReadOnlyDatabase(StorageError):
    """A write was refused: the repository was opened read-only, or the file or folder is not writable."""


class DatabaseLocked(StorageError):
    """Another process held the database's write lock for longer than the busy timeout."""


class DatabaseUnavailable(StorageError):
    """The database cannot be opened or reached (no such file to read, a refused connection ...)."""


class SchemaMismatch(StorageError):
    """The database's schema is not the one this code reads (newer, or older and opened read-only)."""


class ChatHasLiveTable(StorageError):
    """``create_table`` was refused: the chat has a live (lobby or playing) table already.

    Storage holds at most one live table per chat (a unique index on SQLite and PostgreSQL, the same
    check in memory), so two processes opening a chat's first table at the same moment get one table
    and one refusal. ``table_id`` is the chat's live table (None if it ended meanwhile).
    """

    def __init__(self, chat_id: str, table_id: int | None) -> None:
        super().__init__(f"chat {chat_id} has a live table already (table {table_id})")
        self.chat_id = chat_id
        self.table_id = table_id
