"""What only PostgreSQL shows: several processes (here: several pools) on one database, migrations
applied once, typed errors, read-only. Runs against the real server of ``tests/pg.py``."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import asyncpg
import pytest

from storage import make_repository
from storage.errors import (
    ChatHasLiveTable,
    DatabaseUnavailable,
    ReadOnlyDatabase,
    SchemaMismatch,
    TableConflict,
    VersionConflict,
)
from storage.postgres import PostgresRepository, migrate, migrations, redact
from storage.ratings import DEFAULT, rate_match
from storage.records import FINISHED, PLAYING, ActionRecord, ChatRecord, MatchResult, PlayerResult, Seat, TableRecord
from tests.pg import free_port

SEATS = (Seat("tg:1"), Seat("tg:2"), Seat("tg:3"), Seat("tg:4"))


def table_record(players: tuple[str, str, str, str] | None = None, status: str = PLAYING) -> TableRecord:
    seats = SEATS if players is None else tuple(Seat(p) for p in players)
    return TableRecord(0, "tg:-1", "tarneeb", {}, 5, 0, "tg:1", status, seats)  # type: ignore[arg-type]


@pytest.mark.slow  # PostgreSQL
async def test_processes_racing_on_one_table_store_each_seq_once(pg_url: str) -> None:
    a, b = PostgresRepository(pg_url, pool_size=4), PostgresRepository(pg_url, pool_size=4)
    await asyncio.gather(a.open(), b.open())
    try:
        table_id = await a.create_table(table_record())
        start = await a.get_table(table_id)
        assert start is not None

        async def run(repo: PostgresRepository, name: str) -> int:
            stored = 0
            for _ in range(40):
                current = await repo.get_table(table_id)
                assert current is not None
                seq = current.version + 1
                try:
                    await repo.append_action(ActionRecord(table_id, seq, 0, f"{name} {seq}", name, 1.0),
                                             replace(current, version=seq))
                    stored += 1
                except VersionConflict:  # the other one wrote it first (seq or rev): re-read, go on
                    pass
            return stored

        counts = await asyncio.gather(run(a, "a"), run(a, "a2"), run(b, "b"), run(b, "b2"))
        log = await b.actions(table_id)
        assert [x.seq for x in log] == list(range(1, len(log) + 1))
        assert len(log) == sum(counts) and len({x.actor for x in log}) > 1
        final = await a.get_table(table_id)
        assert final is not None and final.version == len(log) and final.rev == len(log)
    finally:
        await asyncio.gather(a.close(), b.close())


@pytest.mark.slow  # PostgreSQL
async def test_a_write_from_another_process_makes_mine_stale(pg_url: str) -> None:
    async with PostgresRepository(pg_url) as a, PostgresRepository(pg_url) as b:
        table_id = await a.create_table(table_record())
        mine = await a.get_table(table_id)
        theirs = await b.get_table(table_id)
        assert mine is not None and theirs is not None
        await b.save_table(replace(theirs, message_ids={"table": "1"}))
        with pytest.raises(TableConflict):
            await a.save_table(replace(mine, message_ids={"table": "2"}))
        stored = await a.get_table(table_id)
        assert stored is not None and stored.message_ids == {"table": "1"}


@pytest.mark.slow  # PostgreSQL
async def test_two_pools_finishing_matches_with_a_shared_player_lose_no_update(pg_url: str) -> None:
    a, b = PostgresRepository(pg_url), PostgresRepository(pg_url)
    await asyncio.gather(a.open(), b.open())
    try:
        tables = []
        for i in range(8):
            tid = await a.create_table(table_record(("tg:star", f"tg:x{i}", f"tg:y{i}", f"tg:z{i}"), FINISHED))
            t = await a.get_table(tid)
            assert t is not None
            tables.append(replace(t, status=FINISHED))

        def res(t: TableRecord) -> MatchResult:
            ids = [s.player_id or "" for s in t.seats]
            return MatchResult(t.table_id, t.chat_id, t.game, 1.0,
                               tuple(PlayerResult(ids[i], i, 10 * (i % 2 == 0), i % 2 == 0) for i in range(4)),
                               {"teams": [1, 0]})

        await asyncio.gather(*((a if i % 2 else b).record_match(res(t), t) for i, t in enumerate(tables)))
        expected = DEFAULT
        for t in tables:
            expected = rate_match("tarneeb", res(t).results, {"tg:star": expected})["tg:star"]
        (stats,) = await a.player_stats("tg:star")
        assert (stats.matches, stats.rating) == (8, expected.display)
    finally:
        await asyncio.gather(a.close(), b.close())


@pytest.mark.slow  # PostgreSQL
async def test_processes_starting_together_apply_each_migration_once(pg_url: str) -> None:
    repos = [PostgresRepository(pg_url, pool_size=1) for _ in range(4)]
    await asyncio.gather(*(r.open() for r in repos))
    try:
        assert {r.schema_version for r in repos} == {len(migrations())}
        conn = await asyncpg.connect(pg_url)
        try:
            versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_version ORDER BY version")]
        finally:
            await conn.close()
        assert versions == list(range(1, len(migrations()) + 1))
    finally:
        await asyncio.gather(*(r.close() for r in repos))


@pytest.mark.slow  # PostgreSQL
async def test_read_only_reads_and_refuses_writes(pg_url: str) -> None:
    with pytest.raises(SchemaMismatch, match="majlis db migrate"):  # an empty database
        await PostgresRepository(pg_url, read_only=True).open()
    async with PostgresRepository(pg_url) as writer:
        await writer.save_chat(ChatRecord("tg:-1", lang="ar"))
    async with PostgresRepository(pg_url, read_only=True) as reader:
        assert await reader.get_chat("tg:-1") == ChatRecord("tg:-1", lang="ar")
        with pytest.raises(ReadOnlyDatabase):
            await reader.save_chat(ChatRecord("tg:-2"))
        with pytest.raises(ReadOnlyDatabase):  # the server refuses it too, not only this code
            await reader._read(lambda c: c.execute("DELETE FROM chats"))
    async with PostgresRepository(pg_url) as writer:
        assert await writer.get_chat("tg:-1") is not None


async def test_an_unreachable_server_is_a_typed_error_without_the_password() -> None:
    url = f"postgresql://majlis:s3cret@127.0.0.1:{free_port()}/majlis"
    with pytest.raises(DatabaseUnavailable) as refused:
        await PostgresRepository(url, connect_timeout=5).open()
    assert "s3cret" not in str(refused.value) and "127.0.0.1" in str(refused.value)
    assert redact(url) == url.replace("s3cret", "***")


def test_a_postgresql_url_picks_the_postgresql_repository() -> None:
    for url in ("postgresql://u@h/db", "postgres://u@h/db"):
        repo = make_repository(url, durability="power")
        assert isinstance(repo, PostgresRepository) and repo.durability == "power"


@pytest.mark.slow  # PostgreSQL
async def test_upgrading_moves_a_tables_own_state_out_of_its_message_ids(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        assert await migrate(conn, migrations()[:3]) == 3  # before 0004: parked, left and shown were message ids
        old = '{"table:1": "5", "hand:1:tg:1": "6", "parked": "3", "left:tg:9": "2", "shown:table:1": "4:ab"}'
        for table_id, ids in [(1, old), (2, '{"table:2": "7"}')]:
            await conn.execute("INSERT INTO tables (table_id, chat_id, game, seed, creator, status, seats, "
                               "message_ids, rev) VALUES ($1, $2, 'trix', 1, 'tg:1', 'finished', "
                               "'[{},{},{},{}]', $3, 3)", table_id, f"tg:-{table_id}", ids)
        await conn.execute("SELECT setval(pg_get_serial_sequence('tables', 'table_id'), 2)")
    finally:
        await conn.close()
    repo = PostgresRepository(pg_url)
    await repo.open()
    try:
        moved, untouched = await repo.get_table(1), await repo.get_table(2)
        assert moved is not None and untouched is not None
        assert moved.message_ids == {"table:1": "5", "hand:1:tg:1": "6"}
        assert (moved.parked, moved.left_seats, moved.shown, moved.rev) == (3, {"tg:9": 2}, {"table:1": "4:ab"}, 4)
        assert untouched.message_ids == {"table:2": "7"}
        assert (untouched.parked, untouched.left_seats, untouched.shown, untouched.rev) == (0, {}, {}, 3)
    finally:
        await repo.close()


@pytest.mark.slow  # PostgreSQL
async def test_upgrading_a_database_with_two_live_tables_in_a_chat_keeps_one_and_ends_the_others(
        pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        assert await migrate(conn, migrations()[:2]) == 2  # before 0003: nothing stopped a second live table
        for table_id, chat, status in [(1, "tg:-1", "lobby"), (2, "tg:-1", "lobby"), (3, "tg:-2", "playing"),
                                       (4, "tg:-2", "lobby"), (5, "tg:-3", "playing"), (6, "tg:-3", "playing"),
                                       (7, "tg:-3", "finished")]:
            await conn.execute("INSERT INTO tables (table_id, chat_id, game, seed, creator, status, seats, "
                               "deadline, rev) VALUES ($1, $2, 'trix', 1, 'tg:1', $3, '[{},{},{},{}]', 50.0, 3)",
                               table_id, chat, status)
        await conn.execute("SELECT setval(pg_get_serial_sequence('tables', 'table_id'), 7)")
    finally:
        await conn.close()
    repo = PostgresRepository(pg_url)
    await repo.open()
    try:
        assert repo.schema_version == len(migrations())
        assert [t.table_id for t in await repo.live_tables()] == [2, 3, 6]
        assert [(await repo.table_route(i) or ("", ""))[1] for i in (1, 4, 5, 7)] == [
            "cancelled", "cancelled", "stopped", "finished"]
        with pytest.raises(ChatHasLiveTable) as refused:
            await repo.create_table(table_record())
        assert refused.value.table_id == 2
    finally:
        await repo.close()
