"""What only the SQLite file shows: pragmas, migrations, group commit, and rollback mid-transaction."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace
from pathlib import Path

import aiosqlite
import pytest

from storage import make_repository, open_repository
from storage.errors import (
    ChatHasLiveTable,
    DatabaseLocked,
    DatabaseUnavailable,
    NotADatabase,
    ReadOnlyDatabase,
    SchemaMismatch,
    TableConflict,
)
from storage.memory import MemoryRepository
from storage.records import (
    FINISHED,
    PLAYING,
    ActionRecord,
    ChatRecord,
    MatchResult,
    PlayerResult,
    Seat,
    TableRecord,
)
from storage.rows import record_json
from storage.sqlite import SQLiteRepository, migrate, migrations, statements

SEATS = (Seat("tg:1"), Seat("tg:2"), Seat("tg:3"), Seat("tg:4"))


def table_record(chat: str = "tg:-1") -> TableRecord:
    return TableRecord(0, chat, "tarneeb", {}, 5, 0, "tg:1", PLAYING, SEATS)


def rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def pragmas(repo: SQLiteRepository) -> tuple[object, ...]:
    async def read(c: aiosqlite.Connection) -> tuple[object, ...]:
        return tuple([(await c.execute_fetchall(f"PRAGMA {name}"))[0][0]  # type: ignore[index]
                      for name in ("journal_mode", "synchronous", "foreign_keys")])

    return await repo._call(read)


async def test_the_file_is_wal_with_normal_sync_and_foreign_keys_by_default(tmp_path: Path) -> None:
    async with SQLiteRepository(tmp_path / "a.db") as repo:
        assert await pragmas(repo) == ("wal", 1, 1)  # synchronous 1 = NORMAL: survives kill -9


async def test_durability_power_waits_for_the_disk(tmp_path: Path) -> None:
    async with SQLiteRepository(tmp_path / "p.db", durability="power") as repo:
        assert await pragmas(repo) == ("wal", 2, 1)  # synchronous 2 = FULL: survives a power cut
    async with await open_repository(tmp_path / "p.db", durability="power") as repo:
        assert isinstance(repo, SQLiteRepository) and await pragmas(repo) == ("wal", 2, 1)
    with pytest.raises(ValueError, match="durability"):
        make_repository(tmp_path / "p.db", durability="paranoid")


async def test_fresh_file_gets_every_migration_once(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "m.db"
    numbers = [n for n, _ in migrations()]
    async with SQLiteRepository(path) as repo:
        assert repo.schema_version == numbers[-1]
        await repo.create_table(table_record())
    assert [r[0] for r in rows(path, "SELECT version FROM schema_version ORDER BY version")] == numbers
    tables = {r[0] for r in rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"chats", "players", "tables", "actions", "snapshots", "matches", "match_results", "ratings",
            "schema_version"} <= tables
    async with SQLiteRepository(path) as again:  # reopening applies nothing again and keeps the data
        assert again.schema_version == numbers[-1]
        assert len(await again.live_tables()) == 1
    assert len(rows(path, "SELECT version FROM schema_version")) == len(numbers)


def test_migrate_applies_only_newer_scripts_each_in_one_transaction(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    try:
        assert migrate(conn, [(1, "CREATE TABLE a (x INTEGER);")]) == 1
        conn.execute("INSERT INTO a VALUES (1)")
        assert migrate(conn, [(1, "CREATE TABLE a (x INTEGER);"), (2, "ALTER TABLE a ADD COLUMN y TEXT;")]) == 2
        assert conn.execute("SELECT x, y FROM a").fetchall() == [(1, None)]
        broken = [(1, ""), (2, ""), (3, "CREATE TABLE b (x INTEGER); CREATE TABLE a (x INTEGER);")]
        with pytest.raises(sqlite3.OperationalError):
            migrate(conn, broken)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "b" not in names  # the failed script left nothing behind
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (2,)
        assert not conn.in_transaction
    finally:
        conn.close()


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_init.sql").write_text("CREATE TABLE a (x);")
    (tmp_path / "0003_late.sql").write_text("CREATE TABLE c (x);")
    (tmp_path / "notes.txt").write_text("ignored")
    with pytest.raises(RuntimeError, match="numbered"):
        migrations(tmp_path)
    (tmp_path / "0002_mid.sql").write_text("CREATE TABLE b (x);")
    assert [n for n, _ in migrations(tmp_path)] == [1, 2, 3]


async def test_a_failing_statement_mid_append_rolls_back_the_action(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with SQLiteRepository(path) as repo:
        table_id = await repo.create_table(table_record())
    conn = sqlite3.connect(path)
    conn.execute("CREATE TRIGGER boom BEFORE UPDATE ON tables WHEN NEW.status = 'boom' "
                 "BEGIN SELECT RAISE(ABORT, 'boom'); END")
    conn.commit()
    conn.close()
    async with SQLiteRepository(path) as repo:
        table = await repo.get_table(table_id)
        assert table is not None
        with pytest.raises(sqlite3.IntegrityError):
            await repo.append_action(ActionRecord(table_id, 1, 0, "bid 7", "tg:1", 1.0),
                                     replace(table, version=1, status="boom"))
        assert await repo.actions(table_id) == []
        assert await repo.get_table(table_id) == table


async def test_a_failing_statement_in_a_batch_of_appends_spoils_only_its_own_write(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    async with SQLiteRepository(path) as repo:
        ids = [await repo.create_table(table_record(f"tg:-{i}")) for i in range(3)]
    conn = sqlite3.connect(path)
    conn.execute("CREATE TRIGGER boom BEFORE UPDATE ON tables WHEN NEW.status = 'boom' "
                 "BEGIN SELECT RAISE(ABORT, 'boom'); END")
    conn.commit()
    conn.close()
    async with SQLiteRepository(path) as repo:
        tables = [await repo.get_table(i) for i in ids]
        assert all(tables)
        before = repo.commits
        outcomes = await asyncio.gather(*(
            repo.append_action(ActionRecord(t.table_id, 1, 0, "bid 7", "tg:1", 1.0),
                               replace(t, version=1, status="boom" if k == 1 else PLAYING))
            for k, t in enumerate(tables) if t is not None), return_exceptions=True)
        assert repo.commits == before + 1 and repo.reruns == 1  # one transaction, rolled back once, run again
        assert isinstance(outcomes[0], TableRecord) and isinstance(outcomes[2], TableRecord)
        assert isinstance(outcomes[1], sqlite3.IntegrityError)
        assert [len(await repo.actions(i)) for i in ids] == [1, 0, 1]
        assert await repo.get_table(ids[1]) == tables[1]


async def test_a_failing_statement_mid_record_match_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "r.db"
    async with SQLiteRepository(path) as repo:
        table_id = await repo.create_table(table_record())
    conn = sqlite3.connect(path)
    conn.execute("CREATE TRIGGER boom BEFORE INSERT ON ratings WHEN NEW.scope = '*' "
                 "BEGIN SELECT RAISE(ABORT, 'boom'); END")
    conn.commit()
    conn.close()
    result = MatchResult(table_id, "tg:-1", "tarneeb", 9.0,
                         tuple(PlayerResult(f"tg:{i + 1}", i, 0, i % 2 == 0) for i in range(4)), {"teams": [31, 0]})
    async with SQLiteRepository(path) as repo:
        table = await repo.get_table(table_id)
        assert table is not None
        with pytest.raises(sqlite3.IntegrityError):
            await repo.record_match(result, replace(table, status=FINISHED))
        assert await repo.get_table(table_id) == table
        assert await repo.table_results(table_id) is None
        assert await repo.leaderboard("tg:-1", "tarneeb") == []
    for name in ("matches", "match_results", "ratings"):
        assert rows(path, f"SELECT COUNT(*) FROM {name}") == [(0,)]


async def test_concurrent_appends_share_commits(tmp_path: Path) -> None:
    async with SQLiteRepository(tmp_path / "g.db") as repo:
        tables = []
        for i in range(50):
            table_id = await repo.create_table(table_record(f"tg:-{i}"))
            t = await repo.get_table(table_id)
            assert t is not None
            tables.append(t)
        before = repo.commits
        moved = [replace(t, version=1, deadline=5.5 + i, warned=True, message_ids={"table": str(i)}, lang="ar",
                         status=FINISHED if i == 3 else PLAYING) for i, t in enumerate(tables)]
        await asyncio.gather(*(repo.append_action(ActionRecord(t.table_id, 1, 0, "bid 7", "tg:1", 1.0), t)
                               for t in moved))
        assert repo.commits - before < len(tables)
        assert repo.reruns == 0  # every batch went in as one statement per run of appends, then COMMIT
        assert [len(await repo.actions(t.table_id)) for t in tables] == [1] * len(tables)
        assert [await repo.get_table(t.table_id) for t in tables] == [replace(t, rev=t.rev + 1) for t in moved]
    # the appending view and trigger live in the connection only: the file's schema is unchanged
    assert rows(tmp_path / "g.db", "SELECT name FROM sqlite_master WHERE name LIKE 'majlis%'") == []


async def test_without_group_commit_each_write_is_its_own_transaction(tmp_path: Path) -> None:
    async with SQLiteRepository(tmp_path / "n.db", group_commit=False) as repo:
        ids = await asyncio.gather(*(repo.create_table(table_record(f"tg:-{i}")) for i in range(10)))
        assert sorted(ids) == list(range(1, 11))
        assert repo.commits == 10


async def test_a_closed_repository_refuses_calls(tmp_path: Path) -> None:
    repo = SQLiteRepository(tmp_path / "c.db")
    with pytest.raises(RuntimeError):
        await repo.get_chat("tg:1")
    await repo.open()
    await repo.close()
    with pytest.raises(RuntimeError):
        await repo.create_table(table_record())


@pytest.mark.parametrize("url", [":memory:", "memory://"])
async def test_open_repository_memory(url: str) -> None:
    repo = await open_repository(url)
    assert isinstance(repo, MemoryRepository)
    await repo.close()


async def test_open_repository_sqlite_by_path_or_url(tmp_path: Path) -> None:
    by_path = await open_repository(tmp_path / "p.db")
    assert isinstance(by_path, SQLiteRepository)
    table_id = await by_path.create_table(table_record())
    await by_path.close()
    by_url = await open_repository(f"sqlite:///{tmp_path / 'p.db'}")
    assert isinstance(by_url, SQLiteRepository)
    assert await by_url.get_table(table_id) is not None
    await by_url.close()
    with pytest.raises(ValueError):
        make_repository("mysql://localhost/majlis")


async def test_an_existing_file_is_upgraded_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, migrations()[:1]) == 1  # a file written by the first release
    conn.execute("INSERT INTO chats (chat_id, lang) VALUES ('tg:-1', 'ar')")
    conn.close()
    async with SQLiteRepository(path) as repo:
        assert repo.schema_version == len(migrations()) > 1
        chat = await repo.get_chat("tg:-1")
        assert chat is not None and chat.lang == "ar"
        table_id = await repo.create_table(table_record())
        assert [t.table_id for t in await repo.live_tables()] == [table_id]
    indexes = {r[0] for r in rows(path, "SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "tables_live_by_id" in indexes and "tables_live" not in indexes


async def test_upgrading_a_file_with_two_live_tables_in_a_chat_keeps_one_and_ends_the_others(
        tmp_path: Path) -> None:
    path = tmp_path / "dup.db"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, migrations()[:5]) == 5  # before 0006: nothing stopped a second live table
    seats = record_json([{"player_id": "tg:1"}, {}, {}, {}])
    rows_in = [(1, "tg:-1", "lobby"), (2, "tg:-1", "lobby"),  # the race of two processes' first /new
               (3, "tg:-2", "playing"), (4, "tg:-2", "lobby"),  # a match in progress beats a newer lobby
               (5, "tg:-3", "playing"), (6, "tg:-3", "playing"), (7, "tg:-3", "finished"),
               (8, "tg:-4", "lobby")]
    for table_id, chat, status in rows_in:
        conn.execute("INSERT INTO tables (table_id, chat_id, game, seed, creator, status, seats, deadline, "
                     "lobby_deadline, rev) VALUES (?, ?, 'trix', 1, 'tg:1', ?, ?, 50.0, 60.0, 3)",
                     (table_id, chat, status, seats))
    conn.close()
    async with SQLiteRepository(path) as repo:
        assert repo.schema_version == len(migrations())
        assert [t.table_id for t in await repo.live_tables()] == [2, 3, 6, 8]
        ended = {i: await repo.get_table(i) for i in (1, 4, 5)}
        assert {i: t.status for i, t in ended.items() if t} == {1: "cancelled", 4: "cancelled", 5: "stopped"}
        assert all(t and (t.deadline, t.lobby_deadline, t.rev) == (None, None, 4) for t in ended.values())
        untouched = await repo.get_table(7)
        assert untouched is not None and (untouched.status, untouched.deadline, untouched.rev) == ("finished", 50.0, 3)
        with pytest.raises(ChatHasLiveTable) as refused:
            await repo.create_table(table_record("tg:-1"))
        assert refused.value.table_id == 2
    indexes = {r[0] for r in rows(path, "SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "tables_one_live_per_chat" in indexes


async def test_upgrading_moves_a_tables_own_state_out_of_its_message_ids(tmp_path: Path) -> None:
    path = tmp_path / "ids.db"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, migrations()[:6]) == 6  # before 0007: parked, left and shown were message ids
    seats = record_json([{"player_id": "tg:1"}, {}, {}, {}])
    old = {"table:1": "5", "hand:1:tg:1": "6", "parked": "3", "left:tg:9": "2", "shown:table:1": "4:ab"}
    for table_id, ids in [(1, old), (2, {"table:2": "7"})]:
        conn.execute("INSERT INTO tables (table_id, chat_id, game, seed, creator, status, seats, message_ids, rev) "
                     "VALUES (?, ?, 'trix', 1, 'tg:1', 'finished', ?, ?, 3)",
                     (table_id, f"tg:-{table_id}", seats, record_json(ids)))
    conn.close()
    async with SQLiteRepository(path) as repo:
        moved, untouched = await repo.get_table(1), await repo.get_table(2)
        assert moved is not None and untouched is not None
        assert moved.message_ids == {"table:1": "5", "hand:1:tg:1": "6"}
        assert (moved.parked, moved.left_seats, moved.shown, moved.rev) == (3, {"tg:9": 2}, {"table:1": "4:ab"}, 4)
        assert untouched.message_ids == {"table:2": "7"}
        assert (untouched.parked, untouched.left_seats, untouched.shown, untouched.rev) == (0, {}, {}, 3)


def test_statements_split_scripts_but_keep_triggers_and_strings_whole() -> None:
    script = ("-- a comment; with a semicolon\nCREATE TABLE b (x TEXT DEFAULT 'a;b'); CREATE TRIGGER t "
              "AFTER INSERT ON b BEGIN SELECT 1; SELECT 2; END;\n-- the end;\n")
    parts = statements(script)
    assert len(parts) == 2
    assert parts[0].endswith("CREATE TABLE b (x TEXT DEFAULT 'a;b');")
    assert parts[1].startswith("CREATE TRIGGER t") and parts[1].endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        statements("CREATE TRIGGER t AFTER INSERT ON b BEGIN SELECT 1;")


def test_a_second_connection_finds_the_migrations_done(tmp_path: Path) -> None:
    first = sqlite3.connect(tmp_path / "two.db", isolation_level=None)
    second = sqlite3.connect(tmp_path / "two.db", isolation_level=None)
    try:
        assert migrate(first, migrations()) == len(migrations())
        assert migrate(second, migrations()) == len(migrations())
        assert second.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (len(migrations()),)
    finally:
        first.close()
        second.close()


def test_synchronous_must_be_a_known_level(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="synchronous"):
        SQLiteRepository(tmp_path / "s.db", synchronous="FULL; DROP TABLE tables")
    assert SQLiteRepository(tmp_path / "s.db", synchronous="normal").synchronous == "NORMAL"


async def test_a_failing_statement_mid_final_action_writes_not_even_the_action(tmp_path: Path) -> None:
    path = tmp_path / "f.db"
    async with SQLiteRepository(path) as repo:
        table_id = await repo.create_table(table_record())
    conn = sqlite3.connect(path)
    conn.execute("CREATE TRIGGER boom BEFORE INSERT ON ratings WHEN NEW.scope = '*' "
                 "BEGIN SELECT RAISE(ABORT, 'boom'); END")
    conn.commit()
    conn.close()
    result = MatchResult(table_id, "tg:-1", "tarneeb", 9.0,
                         tuple(PlayerResult(f"tg:{i + 1}", i, 0, i % 2 == 0) for i in range(4)), {"teams": [31, 0]})
    async with SQLiteRepository(path) as repo:
        table = await repo.get_table(table_id)
        assert table is not None
        with pytest.raises(sqlite3.IntegrityError):
            await repo.append_final_action(ActionRecord(table_id, 1, 0, "play AS", "tg:1", 1.0),
                                           replace(table, version=1, status=FINISHED), result)
        assert await repo.actions(table_id) == []
        assert await repo.get_table(table_id) == table
    for name in ("matches", "match_results", "ratings", "actions"):
        assert rows(path, f"SELECT COUNT(*) FROM {name}") == [(0,)]


async def test_a_file_that_is_not_a_database_is_a_typed_error(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_bytes(b"these are my notes, not a database\n" * 100)
    for read_only in (False, True):
        with pytest.raises(NotADatabase, match=r"notes\.txt"):
            await SQLiteRepository(junk, read_only=read_only).open()
    assert junk.read_bytes().startswith(b"these are my notes")  # left as it was
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE invoices (n INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(NotADatabase, match="something else"):
        await SQLiteRepository(other).open()
    assert rows(other, "SELECT name FROM sqlite_master") == [("invoices",)]


async def test_read_only_reads_everything_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    async with SQLiteRepository(path) as writer:
        table_id = await writer.create_table(table_record())
        table = await writer.get_table(table_id)
        assert table is not None
        await writer.append_action(ActionRecord(table_id, 1, 0, "bid 7", "tg:1", 1.0), replace(table, version=1))
        async with SQLiteRepository(path, read_only=True) as reader:  # while the writer is open
            assert [a.action for a in await reader.actions(table_id)] == ["bid 7"]
            assert reader.schema_version == len(migrations())
            with pytest.raises(ReadOnlyDatabase, match="read-only"):
                await reader.save_chat(ChatRecord("tg:-1"))
            with pytest.raises(ReadOnlyDatabase):
                await reader._call(lambda c: c.execute("DELETE FROM actions"))
        assert len(await writer.actions(table_id)) == 1
    with pytest.raises(DatabaseUnavailable, match="no such"):
        await SQLiteRepository(tmp_path / "missing.db", read_only=True).open()
    assert not (tmp_path / "missing.db").exists()
    ro = await open_repository(f"sqlite:///{path}", read_only=True)
    assert isinstance(ro, SQLiteRepository) and ro.read_only
    await ro.close()


async def test_read_only_refuses_an_older_schema_and_anyone_refuses_a_newer_one(tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    conn = sqlite3.connect(old, isolation_level=None)
    migrate(conn, migrations()[:1])
    conn.close()
    with pytest.raises(SchemaMismatch, match="majlis db migrate"):
        await SQLiteRepository(old, read_only=True).open()
    assert rows(old, "SELECT MAX(version) FROM schema_version") == [(1,)]
    conn = sqlite3.connect(old, isolation_level=None)
    migrate(conn, migrations())
    conn.execute("INSERT INTO schema_version VALUES (?, 0)", (len(migrations()) + 1,))
    conn.close()
    with pytest.raises(SchemaMismatch, match="newer"):
        await SQLiteRepository(old).open()


async def test_a_lock_held_too_long_is_a_typed_error(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    async with SQLiteRepository(path):
        pass
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        async with SQLiteRepository(path, busy_timeout=0.1) as repo:
            with pytest.raises(DatabaseLocked, match="locked"):
                await repo.save_chat(ChatRecord("tg:-1"))
            assert await repo.get_chat("tg:-1") is None  # reads go on
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_the_repository_talks_through_aiosqlites_public_connection(tmp_path: Path) -> None:
    async with SQLiteRepository(tmp_path / "t.db") as repo:
        db = await repo._call(lambda c: asyncio.sleep(0, c))
        assert isinstance(db, aiosqlite.Connection)
        assert await db.execute_fetchall("PRAGMA journal_mode") == [("wal",)]
        tid = await repo.create_table(table_record())
        t = await repo.get_table(tid)
        assert t is not None
        before, changes = repo.commits, db.total_changes
        revs = await asyncio.gather(*(repo.save_table(replace(t, status=PLAYING)) for _ in range(5)),
                                    return_exceptions=True)
        assert repo.commits == before + 1  # five concurrent writes, one commit
        assert [r.rev for r in revs if isinstance(r, TableRecord)] == [t.rev + 1]  # one won the rev
        assert sum(isinstance(r, TableConflict) for r in revs) == 4  # the others refused, nothing else lost
        assert db.total_changes == changes + 1 and not db.in_transaction


async def test_a_records_dict_changed_in_place_is_written_as_it_is_now(tmp_path: Path) -> None:
    options: dict[str, object] = {"target": 31, "seats": [0, 1]}
    assert record_json(options) == record_json(options) == '{"target":31,"seats":[0,1]}'
    options["seats"].append(2)  # type: ignore[attr-defined]
    options["lang"] = "ar"
    assert record_json(options) == '{"target":31,"seats":[0,1,2],"lang":"ar"}'
    async with SQLiteRepository(tmp_path / "j.db") as repo:
        t = await repo.get_table(await repo.create_table(replace(table_record(), options=options)))
        assert t is not None and t.options == options
        options["target"] = 41
        t = await repo.save_table(replace(t, options=options))
        assert (await repo.get_table(t.table_id)) == t and t.options["target"] == 41


def test_evolve_is_dataclasses_replace() -> None:
    """``storage.records.evolve`` (the action path's copy of a table record) makes what
    ``dataclasses.replace`` makes, shares the unchanged values, and refuses an unknown field."""
    from dataclasses import fields

    from storage.records import Seat, evolve

    base = table_record()
    changes = [{}, {"version": 9, "warned": True, "deadline": 12.5}, {"rev": 3},
               {"seats": (Seat("tg:1", "A"), Seat(), Seat(), Seat()), "message_ids": {"table:1": "5"}},
               {f.name: getattr(base, f.name) for f in fields(TableRecord)}]
    for change in changes:
        made = evolve(base, **change)
        assert made == replace(base, **change) and made is not base
        assert type(made) is TableRecord and made.options is base.options
    with pytest.raises(TypeError, match="colour"):
        evolve(base, colour="red")
    with pytest.raises(AttributeError):
        evolve(base).version = 3  # type: ignore[misc]
