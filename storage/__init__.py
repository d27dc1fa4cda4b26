"""Durable state: the repository interface, its records, and the SQLite and in-memory implementations.

``open_repository(url_or_path)`` picks one: ``":memory:"`` or ``"memory://"`` gives the in-memory
repository; a path or ``"sqlite:///path"`` gives the SQLite one; ``"postgresql://..."`` (or
``"postgres://..."``) the PostgreSQL one (asyncpg). The result is opened already.
``durability`` (``"crash"``, the default, or ``"power"``) and ``read_only`` are passed on (see
:mod:`storage.sqlite` and :mod:`storage.postgres`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from storage.errors import (
    DatabaseLocked,
    DatabaseUnavailable,
    NotADatabase,
    ReadOnlyDatabase,
    SchemaMismatch,
    StorageError,
    TableConflict,
    VersionConflict,
)
from storage.repository import Repository

if TYPE_CHECKING:
    from storage.memory import MemoryRepository
    from storage.postgres import PostgresRepository
    from storage.sqlite import SQLiteRepository

    AnyRepository = MemoryRepository | SQLiteRepository | PostgresRepository

__all__ = [
    "DURABILITY_LEVELS",
    "DatabaseLocked",
    "DatabaseUnavailable",
    "NotADatabase",
    "ReadOnlyDatabase",
    "Repository",
    "SchemaMismatch",
    "StorageError",
    "TableConflict",
    "VersionConflict",
    "make_repository",
    "open_repository",
]

#: ``durability`` values: ``"crash"`` keeps acknowledged writes through a process crash or
#: ``kill -9``; ``"power"`` also through a power cut (SQLite ``synchronous=FULL``).
DURABILITY_LEVELS = ("crash", "power")


def make_repository(url_or_path: str | Path, *, durability: str = "crash",
                    read_only: bool = False) -> AnyRepository:
    """The repository named by ``url_or_path``, not yet opened."""
    text = str(url_or_path)
    if durability not in DURABILITY_LEVELS:
        raise ValueError(f"durability must be one of {', '.join(DURABILITY_LEVELS)}, not {durability!r}")
    if text in (":memory:", "memory://", "memory:"):
        from storage.memory import MemoryRepository

        return MemoryRepository()
    if text.startswith(("postgresql://", "postgres://")):
        from storage.postgres import PostgresRepository

        return PostgresRepository(text, durability=durability, read_only=read_only)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif text.startswith("sqlite://"):
        raise ValueError(f"use sqlite:///path, not {text!r}")
    elif "://" in text:
        raise ValueError(f"unknown storage url {text!r}")
    from storage.sqlite import SQLiteRepository

    return SQLiteRepository(text, durability=durability, read_only=read_only)


async def open_repository(url_or_path: str | Path, *, durability: str = "crash",
                          read_only: bool = False) -> AnyRepository:
    """The repository named by ``url_or_path``, opened (migrations applied, unless ``read_only``)."""
    repo = make_repository(url_or_path, durability=durability, read_only=read_only)
    await repo.open()
    return repo
