"""Two processes on one database (two managers, each with its own repository connection): each runs
only what it holds by lease; when one dies, the other takes its tables over, timers included,
within the lease time; nothing is lost or applied twice. On memory, a shared SQLite file and a
real PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.errors import TableError
from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.repository import Repository
from storage.sqlite import SQLiteRepository
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, Harness, make_manager, replayed, turn
from tests.pg import POSTGRES

LEASE = 30.0


@pytest.fixture(params=["memory", "sqlite", POSTGRES])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The one database the processes share (a PostgreSQL schema made for the test)."""
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return ":memory:" if request.param == "memory" else str(tmp_path / "shared.db")


@pytest.fixture
async def repos(database: str) -> AsyncIterator[Callable[[], Repository]]:
    """A maker of repositories (one per process) that all reach that database."""
    opened: list[Repository] = []
    shared = MemoryRepository()

    def make() -> Repository:
        repo: Repository
        if database == ":memory:":
            repo = shared
        elif database.startswith("postgresql://"):
            repo = PostgresRepository(database, pool_size=3)
        else:
            repo = SQLiteRepository(database)
        opened.append(repo)
        return repo

    yield make
    for repo in opened:
        await repo.close()


async def process(make: Callable[[], Repository], clock: FakeClock, name: str) -> Harness:
    repo = make()
    await repo.open()
    h = make_manager(repo, clock, owner=name, lease_seconds=LEASE, heartbeat_seconds=10.0, background=False)
    await h.manager.start()
    return h


async def test_a_dead_processs_tables_and_timers_are_taken_over(repos: Callable[[], Repository]) -> None:
    clock = FakeClock()
    a = await process(repos, clock, "a")
    b = await process(repos, clock, "b")
    await a.manager.create(CHAT, ALICE, "trix")
    await a.manager.join(CHAT, BOB)
    snap = a.manager.table_in_chat(CHAT)
    assert snap is not None
    await a.manager.begin(CHAT, ALICE)
    await a.manager.run_due()
    table_id = snap.table_id
    assert await a.repo.table_lease(table_id) == ("a", pytest.approx(clock.now() + LEASE, abs=1))
    await b.manager.heartbeat()
    assert b.manager.get(table_id) is None  # a holds it and renews: b leaves it alone
    clock.advance(20)
    await a.manager.heartbeat()
    clock.advance(20)
    await b.manager.heartbeat()
    assert b.manager.get(table_id) is None

    # a dies here (no more heartbeats, nothing released); its lease runs out
    stored_before = [x.seq for x in await b.repo.actions(table_id)]
    clock.advance(LEASE + 1)
    await b.manager.heartbeat()
    assert b.manager.leases is not None and b.manager.leases.taken_over == [table_id]
    assert (await b.repo.table_lease(table_id) or ("",))[0] == "b"
    taken = b.manager.get(table_id)
    assert taken is not None and taken.table.version == len(stored_before)

    # b runs the table: a person's turn times out on b's timer, AI seats move on b
    for _ in range(400):
        snap_b = b.manager.get(table_id)
        assert snap_b is not None
        if snap_b.table.status != "playing":
            break
        clock.advance(61)
        await b.manager.run_due()
    finished = b.manager.get(table_id)
    assert finished is not None and finished.table.status == "finished"
    log = await b.repo.actions(table_id)
    assert [x.seq for x in log] == list(range(1, len(log) + 1))  # nothing lost, nothing doubled
    assert log[: len(stored_before)] == (await b.repo.actions(table_id))[: len(stored_before)]
    assert any(x.actor == "timer" for x in log[len(stored_before):])  # b's timers fired
    assert (await replayed(b.repo, table_id)).to_json() == b.manager._tables[table_id].game.to_json()  # type: ignore[union-attr]
    assert await b.repo.table_results(table_id) is not None
    await b.manager.close()


async def test_a_stalled_process_that_comes_back_is_refused_and_lets_go(repos: Callable[[], Repository]) -> None:
    clock = FakeClock()
    a = await process(repos, clock, "a")
    b = await process(repos, clock, "b")
    await a.manager.create(CHAT, ALICE, "trix")
    await a.manager.begin(CHAT, ALICE)
    await a.manager.run_due()
    snap = a.manager.table_in_chat(CHAT)
    assert snap is not None
    clock.advance(LEASE + 1)  # a stalls past its lease; b takes the table and plays on
    await b.manager.heartbeat()
    assert b.manager.get(snap.table_id) is not None
    clock.advance(61)  # a turn times out on b's timer (and the AI seats after it move)
    await b.manager.run_due()
    await b.manager.heartbeat()  # b keeps its lease
    moved_on = len(await b.repo.actions(snap.table_id))
    assert moved_on > snap.table.version

    stale = a.manager.get(snap.table_id)
    assert stale is not None
    assert turn(a, stale) == 0  # a still believes it is Alice's turn at its old version: refused
    legal = a.manager.view(snap.table_id, 0)["legal"]
    with pytest.raises(TableError):
        await a.manager.act(snap.table_id, ALICE, stale.table.version, legal[0])
    await a.manager.heartbeat()  # a learns it no longer holds the table and drops it
    assert a.manager.get(snap.table_id) is None
    log = await b.repo.actions(snap.table_id)
    assert [x.seq for x in log] == list(range(1, len(log) + 1)) and len(log) >= moved_on
    await a.manager.close()
    await b.manager.close()


async def test_a_clean_stop_releases_so_another_process_takes_over_at_once(repos: Callable[[], Repository]) -> None:
    clock = FakeClock()
    a = await process(repos, clock, "a")
    await a.manager.create(CHAT, ALICE, "trix")
    snap = a.manager.table_in_chat(CHAT)
    assert snap is not None
    await a.manager.close()
    b = await process(repos, clock, "b")  # no waiting for a lease to run out
    assert b.manager.get(snap.table_id) is not None
    assert (await b.repo.table_lease(snap.table_id) or ("",))[0] == "b"
    await b.manager.close()
