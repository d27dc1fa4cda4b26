"""Fixtures for the storage contract suite: every test runs on memory and on a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from storage.memory import MemoryRepository
from storage.sqlite import SQLiteRepository

Repo = MemoryRepository | SQLiteRepository


@pytest.fixture(params=["memory", "sqlite"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "majlis.db"


@pytest.fixture
async def repo(kind: str, db_path: Path) -> AsyncIterator[Repo]:
    r: Repo = MemoryRepository() if kind == "memory" else SQLiteRepository(db_path)
    await r.open()
    yield r
    await r.close()


@pytest.fixture
async def reopen(db_path: Path) -> AsyncIterator[Callable[[Repo], Awaitable[Repo]]]:
    """Close a repository and open what it kept again (a new SQLite connection on the same file)."""
    opened: list[Repo] = []

    async def again(r: Repo) -> Repo:
        await r.close()
        fresh: Repo = r if isinstance(r, MemoryRepository) else SQLiteRepository(db_path)
        await fresh.open()
        opened.append(fresh)
        return fresh

    yield again
    for r in opened:
        await r.close()
