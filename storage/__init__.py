"""Durable state: the repository interface, its records, and the SQLite and in-memory implementations.

``open_repository(url_or_path)`` picks one: ``":memory:"`` or ``"memory://"`` gives the in-memory
repository; a path or ``"sqlite:///path"`` gives the SQLite one. The result is opened already.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from storage.repository import Repository, VersionConflict

if TYPE_CHECKING:
    from storage.memory import MemoryRepository
    from storage.sqlite import SQLiteRepository

__all__ = ["Repository", "VersionConflict", "make_repository", "open_repository"]


def make_repository(url_or_path: str | Path) -> MemoryRepository | SQLiteRepository:
    """The repository named by ``url_or_path``, not yet opened."""
    text = str(url_or_path)
    if text in (":memory:", "memory://", "memory:"):
        from storage.memory import MemoryRepository

        return MemoryRepository()
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif text.startswith("sqlite://"):
        raise ValueError(f"use sqlite:///path, not {text!r}")
    elif "://" in text:
        raise ValueError(f"unknown storage url {text!r}")
    from storage.sqlite import SQLiteRepository

    return SQLiteRepository(text)


async def open_repository(url_or_path: str | Path) -> MemoryRepository | SQLiteRepository:
    """The repository named by ``url_or_path``, opened (migrations applied)."""
    repo = make_repository(url_or_path)
    await repo.open()
    return repo
