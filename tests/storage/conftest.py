"""Fixtures for the storage contract suite: every test runs on memory, a real SQLite file and a real
PostgreSQL server (``tests/pg.py``: ``MAJLIS_TEST_PG``, else one started for the run; where there is
none, the PostgreSQL cases skip and the run says why in one line)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.sqlite import SQLiteRepository
from tests.pg import POSTGRES

Repo = MemoryRepository | SQLiteRepository | PostgresRepository


@pytest.fixture(params=["memory", "sqlite", POSTGRES])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "majlis.db"


@pytest.fixture
def make(kind: str, db_path: Path, request: pytest.FixtureRequest) -> Callable[[], Repo]:
    """A new, unopened repository of this test's kind on this test's database."""
    if kind == "memory":
        return MemoryRepository
    if kind == "sqlite":
        return lambda: SQLiteRepository(db_path)
    url = request.getfixturevalue("pg_url")
    return lambda: PostgresRepository(url)


@pytest.fixture
async def repo(make: Callable[[], Repo]) -> AsyncIterator[Repo]:
    r = make()
    await r.open()
    yield r
    await r.close()


@pytest.fixture
async def reopen(make: Callable[[], Repo]) -> AsyncIterator[Callable[[Repo], Awaitable[Repo]]]:
    """Close a repository and open what it kept again (a new connection on the same database)."""
    opened: list[Repo] = []

    async def again(r: Repo) -> Repo:
        await r.close()
        fresh = r if isinstance(r, MemoryRepository) else make()
        await fresh.open()
        opened.append(fresh)
        return fresh

    yield again
    for r in opened:
        await r.close()

