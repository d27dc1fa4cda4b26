"""The SQLite repository: one file, WAL, numbered migrations, group commit, on aiosqlite.

The repository holds one ``aiosqlite`` connection and talks to it through aiosqlite's public API
only (``execute``, ``execute_fetchall``, ``executemany``, ``commit``, ``rollback``, ``close``,
``in_transaction``). An ``asyncio.Lock`` lets one method at a time use it, so a method's statements
never interleave with another's and a read never runs inside another coroutine's open write
transaction. Writes go through a group-commit queue: the writes that arrive while a commit is in
flight are run in the next transaction (``BEGIN IMMEDIATE`` … ``COMMIT``), so that one refused
write (a :class:`VersionConflict`, say) leaves the others intact. Each statement is one trip
through aiosqlite's thread, so the hot path takes few (:func:`_run_batch`): a batch of appends is
one ``executemany`` into a temporary view whose trigger checks and writes each append (seq,
compare-and-set on ``rev``), then ``COMMIT``, and a lone append is that one statement; other writes
run in a savepoint each, and a refused append sends its batch round again that way. A caller
returns only after the commit that holds its write is done. Durability (:data:`DURABILITY`):
``"crash"`` (the default) is WAL with ``synchronous=NORMAL``, which keeps every acknowledged write
through a crash or ``kill -9`` of the process; ``"power"`` is ``synchronous=FULL``, which also waits
for the disk on each commit and so keeps them through a power cut or an operating-system crash.

SQLite's own errors that a person can act on become the typed ones of :mod:`storage.errors`
(not a database, read-only, locked, cannot open); the others pass through unchanged.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import aiosqlite

from storage import season_store, tournaments
from storage.challenges import SqlChallenges
from storage.errors import (
    ChatHasLiveTable,
    DatabaseLocked,
    DatabaseUnavailable,
    NotADatabase,
    ReadOnlyDatabase,
    SchemaMismatch,
    StorageError,
    TableConflict,
    VersionConflict,
)
from storage.ratings import GLOBAL, Rating, rate_match, rated_players
from storage.records import (
    INBOX_EXPIRED,
    INBOX_PENDING,
    INBOX_TAKEN,
    LIVE_STATUSES,
    ActionRecord,
    ChampionRecord,
    ChatRecord,
    InboxEntry,
    LeaderRow,
    LeagueRecord,
    MatchResult,
    PersonMatch,
    PlayerRecord,
    PlayerResult,
    PlayerStats,
    RatingChange,
    SeasonRecord,
    SeasonSummary,
    TableRecord,
    evolve,
)
from storage.rows import (
    END_LIVE,
    TABLE_COLUMNS,
    Row,
    Snapshot,
    action_from,
    action_row,
    chat_from,
    chat_row,
    check_append,
    check_result,
    dumps,
    leader_order,
    player_from,
    player_row,
    result_rows,
    table_from,
    table_row,
)

T = TypeVar("T")

MIGRATIONS = Path(__file__).parent / "migrations" / "sqlite"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
#: Durability setting -> SQLite ``synchronous`` level (WAL in both).
DURABILITY = {"crash": "NORMAL", "power": "FULL"}
_LIVE = "('" + "', '".join(LIVE_STATUSES) + "')"
_COLS = TABLE_COLUMNS.split(", ")
_T_COLUMNS = ", ".join(f"t.{c}" for c in _COLS)
# sqlite3 primary result codes (``sqlite_errorcode & 0xff``) that get a typed error.
_PERM, _BUSY, _LOCKED, _READONLY, _CORRUPT, _CANTOPEN, _NOTADB = 3, 5, 6, 8, 11, 14, 26


def storage_error(exc: BaseException, where: str) -> BaseException:
    """The typed :mod:`storage.errors` error for an ``sqlite3`` error a person can act on, else ``exc``."""
    if not isinstance(exc, sqlite3.Error) or isinstance(exc, sqlite3.IntegrityError):
        return exc
    code = getattr(exc, "sqlite_errorcode", -1) & 0xFF
    text = str(exc)
    out: StorageError
    if code in (_NOTADB, _CORRUPT):
        out = NotADatabase(f"{where} is not a Majlis database (SQLite says: {text})")
    elif code == _READONLY:
        out = ReadOnlyDatabase(f"{where} is read-only: the file or its folder cannot be written")
    elif code in (_BUSY, _LOCKED):
        out = DatabaseLocked(f"{where} is locked by another process (waited for its lock and gave up)")
    elif code in (_CANTOPEN, _PERM):
        out = DatabaseUnavailable(f"{where} cannot be opened (SQLite says: {text})")
    else:
        return exc
    out.__cause__ = exc
    return out


def migrations(folder: Path = MIGRATIONS) -> list[tuple[int, str]]:
    """The numbered migration scripts, in order: ``[(1, sql), (2, sql), ...]``."""
    found = []
    for path in folder.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3 ... without gaps: {numbers}")
    return found


def statements(sql: str) -> list[str]:
    """Split a script into complete SQL statements (a trigger's ``BEGIN … END`` stays whole)."""
    out, buf = [], ""
    for part in sql.split(";"):
        buf += part + ";"
        if sqlite3.complete_statement(buf):
            if _has_code(buf):
                out.append(buf.strip())
            buf = ""
    if _has_code(buf.removesuffix(";")):
        raise ValueError(f"incomplete SQL statement in a migration: {buf.strip()[:80]!r}")
    return out


def _has_code(sql: str) -> bool:
    """Whether ``sql`` holds more than blanks, semicolons and ``--`` comments."""
    return any(line.split("--", 1)[0].strip(" \t;") for line in sql.splitlines())


def migrate(conn: sqlite3.Connection, scripts: Sequence[tuple[int, str]]) -> int:
    """Apply the scripts newer than the file's ``schema_version``, each in one transaction.

    ``conn`` must be in autocommit mode (``isolation_level=None``). The version is read again
    inside each ``BEGIN IMMEDIATE``, so two processes opening one file never apply a script twice.
    """
    version = "SELECT COALESCE(MAX(version), 0) FROM schema_version"
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" not in names:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                     "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
    current = int(conn.execute(version).fetchone()[0])
    for number, sql in scripts:
        if number <= current:  # applied already: no write lock needed to find that out
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = int(conn.execute(version).fetchone()[0])
            if number > current:
                for statement in statements(sql):
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
                current = number
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return current


# --- the repository --------------------------------------------------------------------------


Conn = aiosqlite.Connection


class _Write:
    """One queued write: ``fn`` runs it on the connection; an append also carries its two rows, so
    that a run of appends can go to SQLite as one ``executemany`` call (see :func:`_run_batch`)."""

    __slots__ = ("append", "fn", "future")

    def __init__(self, fn: Callable[[Conn], Awaitable[Any]], future: asyncio.Future[Any],
                 append: tuple[Row, Row] | None = None) -> None:
        self.fn = fn
        self.future = future
        self.append = append


class SQLiteRepository(SqlChallenges):
    """The :class:`storage.repository.Repository` in one SQLite file.

    ``durability`` is ``"crash"`` or ``"power"`` (see the module); ``synchronous`` overrides the
    level it implies (benchmarks compare them). ``read_only`` opens an existing file without
    migrating or writing it (``majlis replay``): every write raises :class:`ReadOnlyDatabase`.
    """

    def __init__(self, path: str | Path, *, durability: str = "crash", synchronous: str | None = None,
                 group_commit: bool = True, read_only: bool = False, busy_timeout: float = 5.0) -> None:
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {', '.join(DURABILITY)}, not {durability!r}")
        level = (synchronous or DURABILITY[durability]).upper()
        if level not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.path = str(path)
        self.durability = durability
        self.synchronous = level
        self.group_commit = group_commit
        self.read_only = read_only
        self.busy_timeout = busy_timeout
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()  # one method (a read, or a write batch) at a time on the connection
        self._queue: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed by the writer (a benchmark figure)
        self.reruns = 0  # batches run again with a savepoint per write (a refused or failed append)
        self.schema_version = 0

    # connection

    async def open(self) -> None:
        if self._db is not None:
            return
        self._db = await self._connect(migrations())

    def _check_path(self) -> str:
        """The file's ``file:`` URI, once its folder exists (or, read-only, the file does)."""
        if self.read_only and self.path != ":memory:" and not Path(self.path).is_file():
            raise DatabaseUnavailable(f"{self.path}: no such database file")
        if not self.read_only and self.path != ":memory:":
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise DatabaseUnavailable(f"{self.path}: cannot create its folder ({e.strerror})") from None
        return "file:" + quote(str(Path(self.path).resolve())) if self.read_only else self.path

    async def _connect(self, scripts: Sequence[tuple[int, str]]) -> aiosqlite.Connection:
        """Connect, set the pragmas, migrate (or check the schema)."""
        uri = self._check_path()
        if self.read_only:
            return await self._connect_read_only(uri, len(scripts))
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout)
        except sqlite3.Error as e:
            raise storage_error(e, self.path) from None
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute(f"PRAGMA synchronous={self.synchronous}")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            version = await _schema_version(db, self.path)
            if version > len(scripts):
                raise SchemaMismatch(f"{self.path} has schema {version}, newer than this Majlis "
                                     f"({len(scripts)}): upgrade Majlis")
            self.schema_version = await _migrate(db, scripts)
            for statement in _APPEND_OBJECTS:
                await db.execute(statement)
        except BaseException as e:
            await db.close()
            raise storage_error(e, self.path) from None
        return db

    async def _connect_read_only(self, uri: str, latest: int) -> aiosqlite.Connection:
        try:
            db = await aiosqlite.connect(uri + "?mode=ro", uri=True, isolation_level=None)
        except sqlite3.Error as e:
            raise storage_error(e, self.path) from None
        try:
            try:
                version = await _schema_version(db, self.path)
            except sqlite3.OperationalError as e:  # a WAL file whose -shm cannot be created here
                if getattr(e, "sqlite_errorcode", 0) & 0xFF not in (_CANTOPEN, _READONLY):
                    raise
                await db.close()
                db = await aiosqlite.connect(uri + "?immutable=1", uri=True, isolation_level=None)
                version = await _schema_version(db, self.path)
            if version == 0:
                raise NotADatabase(f"{self.path} is empty: not a Majlis database")
            if version != latest:
                raise SchemaMismatch(
                    f"{self.path} has schema {version}, this Majlis reads {latest}: "
                    + ("run `majlis db migrate` first" if version < latest else "upgrade Majlis"))
            await db.execute("PRAGMA query_only=ON")
        except BaseException as e:
            await db.close()
            raise storage_error(e, self.path) from None
        self.schema_version = version
        return db

    async def close(self) -> None:
        if self._db is None:
            return
        while self._flusher is not None and not self._flusher.done():
            await asyncio.wait({self._flusher})  # the writes in flight finish (or fail) first
        db, self._db = self._db, None
        async with self._lock:  # the reads in flight finish first
            await db.close()

    async def __aenter__(self) -> SQLiteRepository:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn(connection)`` alone on the connection (no other method's statements in between)."""
        db = self._db
        if db is None:
            raise RuntimeError("the repository is not open")
        try:
            async with self._lock:
                out = await fn(db)
                if db.in_transaction:  # writes go through _write: a read must not leave one open
                    await db.rollback()
                    raise RuntimeError("a read left a transaction open")
                return out
        except sqlite3.Error as e:
            raise storage_error(e, self.path) from None

    async def _write(self, fn: Callable[[Conn], Awaitable[T]], append: tuple[Row, Row] | None = None) -> T:
        """Run ``fn`` inside a transaction; return once that transaction is committed.

        ``append`` (an action's row and its table's row) marks the write as an append, which may run
        together with the other appends of its batch instead of through ``fn``: same outcome.
        """
        if self._db is None:
            raise RuntimeError("the repository is not open")
        if self.read_only:
            raise ReadOnlyDatabase(f"{self.path} was opened read-only")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Write(fn, future, append))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._queue:
            async with self._lock:  # the writes queued while waiting for the lock join this batch
                if self.group_commit:
                    batch, self._queue = self._queue, []
                else:
                    batch, self._queue = self._queue[:1], self._queue[1:]
                db = self._db
                try:
                    if db is None:
                        raise RuntimeError("the repository is not open")
                    outcomes, rerun = await _run_batch(db, batch)
                    self.reruns += rerun
                except Exception as exc:  # the commit itself failed: nobody's write is done
                    for write in batch:
                        if not write.future.done():
                            write.future.set_exception(storage_error(exc, self.path))
                    continue
                except BaseException:  # cancelled (the loop is closing): nobody is acknowledged
                    for write in [*batch, *self._queue]:
                        write.future.cancel()
                    self._queue = []
                    raise
            self.commits += 1
            for write, (ok, value) in zip(batch, outcomes, strict=True):
                if write.future.done():
                    continue
                if ok:
                    write.future.set_result(value)
                else:
                    write.future.set_exception(storage_error(value, self.path))

    # install-wide settings

    async def get_meta(self, key: str) -> str | None:
        row = await self._call(lambda c: _one(c, "SELECT value FROM meta WHERE key = ?", (key,)))
        return None if row is None else str(row[0])

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        async def put(c: Conn) -> str:
            await c.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, value))
            return str((await _one(c, "SELECT value FROM meta WHERE key = ?", (key,)))[0])

        return await self._write(put)

    async def delete_meta(self, key: str) -> bool:
        return await self._write(lambda c: _rowcount(c, "DELETE FROM meta WHERE key = ?", (key,))) > 0

    # chats and players

    async def get_chat(self, chat_id: str) -> ChatRecord | None:
        row = await self._call(lambda c: _one(
            c, "SELECT chat_id, lang, turn_seconds, digits, default_options, ai_level, hands, notify FROM chats "
            "WHERE chat_id = ?", (chat_id,)))
        return None if row is None else chat_from(row)

    async def save_chat(self, chat: ChatRecord) -> None:
        row = chat_row(chat)
        await self._write(lambda c: _run(
            c, "INSERT OR REPLACE INTO chats (chat_id, lang, turn_seconds, digits, default_options, ai_level, "
            "hands, notify) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row))

    async def delete_chat(self, chat_id: str) -> bool:
        return await self._write(lambda c: _rowcount(c, "DELETE FROM chats WHERE chat_id = ?", (chat_id,))) > 0

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        row = await self._call(lambda c: _one(
            c, "SELECT player_id, name, lang, dm_ok, turn_ping FROM players WHERE player_id = ?", (player_id,)))
        return None if row is None else player_from(row)

    async def save_player(self, player: PlayerRecord) -> None:
        row = player_row(player)
        await self._write(lambda c: _run(
            c, "INSERT OR REPLACE INTO players (player_id, name, lang, dm_ok, turn_ping) VALUES (?, ?, ?, ?, ?)", row))

    async def subscribe(self, chat_id: str, player_id: str, on: bool, at: float) -> bool:
        args: tuple[Any, ...]
        if on:
            sql, args = ("INSERT OR IGNORE INTO subscriptions (chat_id, player_id, since) VALUES (?, ?, ?)",
                         (chat_id, player_id, at))
        else:
            sql, args = "DELETE FROM subscriptions WHERE chat_id = ? AND player_id = ?", (chat_id, player_id)
        return await self._write(lambda c: _rowcount(c, sql, args)) > 0

    async def subscribers(self, chat_id: str, limit: int = 100) -> list[tuple[str, str]]:
        rows = await self._call(lambda c: _all(
            c, "SELECT s.player_id, COALESCE(p.name, '') FROM subscriptions s "
            "LEFT JOIN players p ON p.player_id = s.player_id WHERE s.chat_id = ? "
            "ORDER BY s.since, s.player_id LIMIT ?", (chat_id, limit)))
        return [(str(pid), str(name)) for pid, name in rows]

    # tables and their logs

    async def create_table(self, table: TableRecord, *, owner: str | None = None,
                           lease_until: float | None = None) -> int:
        """Insert a table (its ``table_id`` ignored, ``rev`` 0), held by ``owner``; the new id."""
        row = (*table_row(table)[1:-1], owner, lease_until)

        async def insert(c: Conn) -> int:
            try:
                cur = await c.execute(f"INSERT INTO tables ({', '.join(_COLS[1:-1])}, owner, lease_until) "
                                      f"VALUES ({', '.join('?' * len(row))})", row)
            except sqlite3.IntegrityError:  # tables_one_live_per_chat (0006): the chat has its live table
                live = await _one(c, f"SELECT table_id FROM tables WHERE chat_id = ? AND status IN {_LIVE}",
                                  (table.chat_id,))
                if live is None or table.status not in LIVE_STATUSES:
                    raise
                raise ChatHasLiveTable(table.chat_id, int(live[0])) from None
            rowid = cur.lastrowid
            await cur.close()
            assert rowid is not None
            return rowid

        return await self._write(insert)

    async def save_table(self, table: TableRecord) -> TableRecord:
        row = table_row(table)
        return replace(table, rev=await self._write(lambda c: _update_table(c, row)))

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._call(lambda c: _one(
            c, f"SELECT {TABLE_COLUMNS} FROM tables WHERE table_id = ?", (table_id,)))
        return None if row is None else table_from(row)

    async def list_tables(self, limit: int | None = None) -> list[TableRecord]:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be at least 0, not {limit}")
        rows = await self._call(lambda c: _all(  # LIMIT -1: no limit
            c, f"SELECT {TABLE_COLUMNS} FROM tables ORDER BY table_id DESC LIMIT ?", (-1 if limit is None else limit,)))
        return [table_from(r) for r in rows]

    async def live_tables(self) -> list[TableRecord]:
        rows = await self._call(lambda c: _all(
            c, f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {_LIVE} ORDER BY table_id"))
        return [table_from(r) for r in rows]

    async def live_tables_with_logs(self, table_ids: Iterable[int] | None = None,
                                    ) -> list[tuple[TableRecord, Snapshot | None, list[ActionRecord]]]:
        """Every live table (of ``table_ids``, if given) with its latest snapshot and the actions after it."""
        ids = None if table_ids is None else dumps(sorted(set(table_ids)))
        only = f"t.status IN {_LIVE} AND (?1 IS NULL OR t.table_id IN (SELECT value FROM json_each(?1)))"

        async def read(c: Conn) -> tuple[list[Row], list[Row], list[Row]]:
            await c.execute("BEGIN")  # one consistent read
            try:
                tables = await _all(c, f"SELECT {_T_COLUMNS} FROM tables t WHERE {only} ORDER BY t.table_id",
                                    (ids,))
                snaps = await _all(c, f"SELECT s.table_id, s.seq, s.state FROM snapshots s JOIN tables t "
                                   f"USING (table_id) WHERE {only}", (ids,))
                actions = await _all(  # CROSS JOIN keeps this order: live tables, then each one's tail
                    c, "SELECT a.table_id, a.seq, a.seat, a.action, a.actor, a.at FROM tables t "
                    f"CROSS JOIN actions a ON a.table_id = t.table_id WHERE {only} AND a.seq > "
                    "COALESCE((SELECT s.seq FROM snapshots s WHERE s.table_id = t.table_id), 0) "
                    "ORDER BY t.table_id, a.seq", (ids,))
            finally:
                await c.commit()
            return tables, snaps, actions

        tables, snaps, actions = await self._call(read)
        snapshots = {tid: (seq, json.loads(state)) for tid, seq, state in snaps}
        logs = {table_id: [ActionRecord(*r) for r in rows]
                for table_id, rows in groupby(actions, key=itemgetter(0))}
        out = []
        for row in tables:
            t = table_from(row)
            out.append((t, snapshots.get(t.table_id), logs.get(t.table_id, [])))
        return out

    # leases: which process runs which table

    async def claim_tables(self, owner: str, now: float, lease_seconds: float, limit: int | None = None,
                           chat_prefixes: Sequence[str] | None = None) -> list[int]:
        """Take the live tables that nobody holds (no owner, or a lease ended before ``now``)."""
        prefixes = None if chat_prefixes is None else dumps(list(chat_prefixes))

        async def claim(c: Conn) -> list[int]:
            ids = [r[0] for r in await _all(
                c, f"SELECT table_id FROM tables WHERE status IN {_LIVE} AND (owner IS NULL OR lease_until < ?1) "
                "AND (?3 IS NULL OR EXISTS (SELECT 1 FROM json_each(?3) p "
                "WHERE substr(chat_id, 1, length(p.value)) = p.value)) "
                "ORDER BY table_id LIMIT ?2", (now, -1 if limit is None else limit, prefixes))]
            await c.executemany("UPDATE tables SET owner = ?, lease_until = ? WHERE table_id = ?",
                          [(owner, now + lease_seconds, i) for i in ids])
            return ids

        return await self._write(claim)

    async def renew_leases(self, owner: str, now: float, lease_seconds: float) -> list[int]:
        """Extend ``owner``'s leases of its live tables; the ids it still holds."""
        async def renew(c: Conn) -> list[int]:
            return sorted(r[0] for r in await _all(
                c, f"UPDATE tables SET lease_until = ? WHERE owner = ? AND status IN {_LIVE} RETURNING table_id",
                (now + lease_seconds, owner)))

        return await self._write(renew)

    async def release_tables(self, owner: str, table_ids: Iterable[int] | None = None) -> int:
        """Give up ``owner``'s tables (all, or ``table_ids``): another process may take them at once."""
        ids = None if table_ids is None else dumps(sorted(set(table_ids)))
        return await self._write(lambda c: _rowcount(
            c, "UPDATE tables SET owner = NULL, lease_until = NULL WHERE owner = ?1 AND "
            "(?2 IS NULL OR table_id IN (SELECT value FROM json_each(?2)))", (owner, ids)))

    async def table_lease(self, table_id: int) -> tuple[str | None, float | None] | None:
        """Who holds the table and until when (None: no such table)."""
        row = await self._call(lambda c: _one(
            c, "SELECT owner, lease_until FROM tables WHERE table_id = ?", (table_id,)))
        return None if row is None else (row[0], row[1])

    async def chat_lease(self, chat_id: str) -> tuple[int, str | None, float | None] | None:
        """(table id, owner, lease end) of the chat's newest live table."""
        row = await self._call(lambda c: _one(
            c, f"SELECT table_id, owner, lease_until FROM tables WHERE chat_id = ? AND status IN {_LIVE} "
            "ORDER BY table_id DESC LIMIT 1", (chat_id,)))
        return None if row is None else (int(row[0]), row[1], row[2])

    async def table_route(self, table_id: int) -> tuple[str, str, str | None, float | None] | None:
        """(chat id, status, owner, lease end) of a table."""
        row = await self._call(lambda c: _one(
            c, "SELECT chat_id, status, owner, lease_until FROM tables WHERE table_id = ?", (table_id,)))
        return None if row is None else (row[0], row[1], row[2], row[3])

    # the inbox of forwarded commands (its own rows: the tables' write path is not involved)

    async def inbox_post(self, key: str, table_id: int, sender: str, request: str, now: float) -> int:
        async def post(c: Conn) -> int:
            await c.execute(
                "INSERT INTO inbox (key, table_id, sender, request, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET sender = excluded.sender, request = excluded.request, "
                f"state = '{INBOX_PENDING}', taker = NULL, answer = NULL, created_at = excluded.created_at "
                f"WHERE inbox.state = '{INBOX_EXPIRED}'", (key, table_id, sender, request, now))
            return int((await _one(c, "SELECT entry_id FROM inbox WHERE key = ?", (key,)))[0])

        return await self._write(post)

    async def inbox_take(self, owner: str, now: float) -> list[InboxEntry]:
        async def take(c: Conn) -> list[InboxEntry]:
            rows = await _all(
                c, f"UPDATE inbox SET state = '{INBOX_TAKEN}', taker = ?1 WHERE state = '{INBOX_PENDING}' "
                f"AND table_id IN (SELECT table_id FROM tables WHERE owner = ?1 AND status IN {_LIVE}) "
                "RETURNING entry_id, table_id, sender, request", (owner,))
            return sorted((InboxEntry(int(r[0]), int(r[1]), r[2], r[3]) for r in rows), key=lambda e: e.entry_id)

        return await self._write(take)

    async def inbox_answer(self, entry_id: int, answer: str, now: float) -> None:
        await self._write(lambda c: _rowcount(
            c, f"UPDATE inbox SET state = 'done', answer = ?, done_at = ? WHERE entry_id = ? "
            f"AND state = '{INBOX_TAKEN}'", (answer, now, entry_id)))

    async def inbox_result(self, entry_id: int) -> tuple[str, str | None] | None:
        row = await self._call(lambda c: _one(
            c, "SELECT state, answer FROM inbox WHERE entry_id = ?", (entry_id,)))
        return None if row is None else (row[0], row[1])

    async def inbox_expire(self, entry_id: int) -> bool:
        return bool(await self._write(lambda c: _rowcount(
            c, f"UPDATE inbox SET state = '{INBOX_EXPIRED}' WHERE entry_id = ? AND state = '{INBOX_PENDING}'",
            (entry_id,))))

    async def inbox_purge(self, before: float) -> int:
        return await self._write(lambda c: _rowcount(c, "DELETE FROM inbox WHERE created_at < ?", (before,)))

    async def append_action(self, action: ActionRecord, table: TableRecord) -> TableRecord:
        check_append(action, table)
        arow, trow = action_row(action), table_row(table)

        async def append(c: Conn) -> int:
            await _append(c, action, arow, trow[-1])
            return await _update_table(c, trow)

        return evolve(table, rev=await self._write(append, (arow, trow)))

    async def actions(self, table_id: int, after_seq: int = 0) -> list[ActionRecord]:
        rows = await self._call(lambda c: _all(
            c, "SELECT table_id, seq, seat, action, actor, at FROM actions WHERE table_id = ? AND seq > ? "
            "ORDER BY seq", (table_id, after_seq)))
        return [action_from(r) for r in rows]

    async def save_snapshot(self, table_id: int, seq: int, state: dict[str, Any]) -> None:
        text = dumps(state)

        async def save(c: Conn) -> None:  # one statement; a second one only to say why nothing changed
            if await _rowcount(c, _SAVE_SNAPSHOT, (table_id, seq, text)) == 0:
                stored, last = await _one(c, _LOG_AND_REV, (table_id,))
                if stored is None:
                    raise KeyError(table_id)
                if not 0 <= seq <= last:
                    raise ValueError(f"table {table_id}: snapshot at seq {seq}, log has {last}")
                # else an older snapshot than the stored one: the newer one stays

        await self._write(save)

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        row = await self._call(lambda c: _one(
            c, "SELECT seq, state FROM snapshots WHERE table_id = ?", (table_id,)))
        return None if row is None else (row[0], json.loads(row[1]))

    # results and ratings

    async def record_match(self, result: MatchResult, table: TableRecord) -> TableRecord:
        """Idempotent: a table whose match is already recorded is left as it is (and returned as stored)."""
        check_result(result, table)
        trow = table_row(table)
        record = _match_writer(result)

        async def write(c: Conn) -> Row | int:
            if await _one(c, "SELECT 1 FROM matches WHERE table_id = ?", (result.table_id,)):
                row: Row = await _one(c, f"SELECT {TABLE_COLUMNS} FROM tables WHERE table_id = ?",
                                      (result.table_id,))
                return row
            rev = await _update_table(c, trow)
            await record(c)
            return rev

        out = await self._write(write)
        return replace(table, rev=out) if isinstance(out, int) else table_from(out)

    async def append_final_action(self, action: ActionRecord, table: TableRecord,
                                  result: MatchResult) -> TableRecord:
        """In one transaction: the match's last action, the finished table, its result and the ratings.

        Refused as a whole (:class:`VersionConflict`) when the seq is not the next one or the match
        is recorded already: then nothing of it is written.
        """
        check_append(action, table)
        check_result(result, table)
        arow, trow = action_row(action), table_row(table)
        record = _match_writer(result)

        async def write(c: Conn) -> int:
            await _append(c, action, arow, None)
            if await _one(c, "SELECT 1 FROM matches WHERE table_id = ?", (result.table_id,)):
                raise VersionConflict(f"table {action.table_id}: its match is recorded already")
            rev = await _update_table(c, trow)
            await record(c)
            return rev

        return replace(table, rev=await self._write(write))

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> int:
        """The chat got a new id (a Telegram group became a supergroup): move its settings and tables.

        The settings row moves unless the new id has its own already (then the old one is dropped);
        every table of the chat, its finished matches and its chat ratings move too, so the
        leaderboard carries on. Returns the number of live tables moved.
        """
        if old_chat_id == new_chat_id:
            raise ValueError(f"moving chat {old_chat_id!r} onto itself")

        async def move(c: Conn) -> int:
            await c.execute(f"UPDATE tables SET {END_LIVE}, rev = rev + 1 WHERE chat_id = ? AND status IN {_LIVE} "
                            f"AND EXISTS (SELECT 1 FROM tables WHERE chat_id = ? AND status IN {_LIVE})",
                            (old_chat_id, new_chat_id))
            await c.execute("UPDATE OR IGNORE chats SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            await c.execute("DELETE FROM chats WHERE chat_id = ?", (old_chat_id,))
            live = await _rowcount(c, f"UPDATE tables SET chat_id = ?, rev = rev + 1 WHERE chat_id = ? "
                                   f"AND status IN {_LIVE}", (new_chat_id, old_chat_id))
            await c.execute("UPDATE tables SET chat_id = ?, rev = rev + 1 WHERE chat_id = ?",
                            (new_chat_id, old_chat_id))
            await c.execute("UPDATE matches SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            await c.execute("UPDATE OR IGNORE ratings SET scope = ? WHERE scope = ?", (new_chat_id, old_chat_id))
            await c.execute("DELETE FROM ratings WHERE scope = ?", (old_chat_id,))
            await c.execute("UPDATE OR IGNORE subscriptions SET chat_id = ? WHERE chat_id = ?",
                            (new_chat_id, old_chat_id))
            await c.execute("DELETE FROM subscriptions WHERE chat_id = ?", (old_chat_id,))
            return int(live)

        return await self._write(move)

    async def leaderboard(self, chat_id: str, game: str, limit: int = 10) -> list[LeaderRow]:
        """A chat's board for one game; ``chat_id`` ``"*"`` (``ratings.GLOBAL``) spans every chat."""
        rows = await self._call(lambda c: _all(
            c, "SELECT r.player_id, COALESCE(p.name, r.player_id), COUNT(*), "
            "SUM(r.won AND NOT r.left_), g.mu, g.sigma "
            "FROM match_results r JOIN matches m ON m.table_id = r.table_id "
            "LEFT JOIN players p ON p.player_id = r.player_id "
            "LEFT JOIN ratings g ON g.scope = ?1 AND g.game = m.game AND g.player_id = r.player_id "
            "WHERE (?1 = '*' OR m.chat_id = ?1) AND m.game = ?2 AND r.counted "
            "GROUP BY r.player_id", (chat_id, game)))
        out = [LeaderRow(pid, name, matches, wins, _rating(mu, sigma).display)
               for pid, name, matches, wins, mu, sigma in rows]
        out.sort(key=leader_order)
        return out[:limit]

    async def player_stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]:
        scope = GLOBAL if chat_id is None else chat_id
        rows = await self._call(lambda c: _all(
            c, "SELECT m.game, COUNT(*), SUM(r.won AND NOT r.left_), SUM(r.left_), SUM(r.score), g.mu, g.sigma "
            "FROM match_results r JOIN matches m ON m.table_id = r.table_id "
            "LEFT JOIN ratings g ON g.scope = ? AND g.game = m.game AND g.player_id = r.player_id "
            "WHERE r.player_id = ? AND r.counted AND (? IS NULL OR m.chat_id = ?) "
            "GROUP BY m.game ORDER BY m.game", (scope, player_id, chat_id, chat_id)))
        return [PlayerStats(game, matches, wins, left, _rating(mu, sigma).display, score)
                for game, matches, wins, left, score, mu, sigma in rows]

    # challenges (storage/challenges.py)

    async def _challenge_read(self, fn: Callable[[season_store.Sql], Awaitable[T]]) -> T:
        return await self._call(lambda c: fn(_sql(c)))

    async def _challenge_write(self, fn: Callable[[season_store.Sql], Awaitable[T]]) -> T:
        return await self._write(lambda c: fn(_sql(c)))

    # seasons (storage/seasons.py, storage/season_store.py)

    async def get_league(self, league: str) -> LeagueRecord:
        return await self._call(lambda c: season_store.get_league(_sql(c), league))

    async def save_league(self, league: LeagueRecord) -> None:
        await self._write(lambda c: season_store.save_league(_sql(c), league))

    async def season_at(self, league: str, at: float) -> SeasonRecord:
        return await self._write(lambda c: season_store.season_at(_sql(c), league, at))

    async def seasons(self, league: str) -> list[SeasonRecord]:
        return await self._call(lambda c: season_store.seasons(_sql(c), league))

    async def end_season(self, league: str, number: int, now: float) -> SeasonRecord | None:
        return await self._write(lambda c: season_store.end_season(_sql(c), league, number, now))

    async def due_seasons(self, now: float) -> list[SeasonRecord]:
        return await self._call(lambda c: season_store.due_seasons(_sql(c), now))

    async def close_season(self, league: str, number: int, now: float) -> SeasonSummary | None:
        return await self._write(lambda c: season_store.close_season(_sql(c), league, number, now))

    async def season_board(self, league: str, number: int | None, game: str) -> list[LeaderRow]:
        return await self._call(lambda c: season_store.season_board(_sql(c), league, number, game))

    async def champions(self, league: str) -> list[ChampionRecord]:
        return await self._call(lambda c: season_store.champions(_sql(c), league))

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        return await self._call(lambda c: season_store.rating_changes(_sql(c), table_id))

    async def person_matches(self, player_id: str, league: str | None = None, limit: int = 500,
                             ) -> list[PersonMatch]:
        return await self._call(lambda c: season_store.person_matches(_sql(c), player_id, league, limit))

    async def person_champions(self, player_id: str, league: str | None = None) -> list[ChampionRecord]:
        return await self._call(lambda c: season_store.person_champions(_sql(c), player_id, league))

    async def meta_prefixed(self, prefix: str) -> dict[str, str]:
        return await self._call(lambda c: season_store.meta_prefixed(_sql(c), prefix))

    # tournaments (storage/tournaments.py)

    async def create_tournament(self, t: tournaments.Tournament) -> tournaments.Tournament:
        return await self._write(lambda c: tournaments.create(_sql(c), t))

    async def save_tournament(self, t: tournaments.Tournament) -> tournaments.Tournament:
        return await self._write(lambda c: tournaments.save(_sql(c), t))

    async def get_tournament(self, tournament_id: int) -> tournaments.Tournament | None:
        return await self._call(lambda c: tournaments.get(_sql(c), tournament_id))

    async def chat_tournament(self, chat_id: str) -> tournaments.Tournament | None:
        return await self._call(lambda c: tournaments.in_chat(_sql(c), chat_id))

    async def open_tournaments(self) -> list[int]:
        return await self._call(lambda c: tournaments.open_ids(_sql(c)))

    async def due_tournaments(self, now: float) -> list[int]:
        return await self._call(lambda c: tournaments.due(_sql(c), now))

    async def table_results(self, table_id: int) -> MatchResult | None:
        async def read(c: Conn) -> tuple[Row | None, list[Row]]:
            match = await _one(c, "SELECT table_id, chat_id, game, finished_at, scores FROM matches "
                               "WHERE table_id = ?", (table_id,))
            rows = await _all(c, "SELECT player_id, seat, score, won, left_ FROM match_results "
                              "WHERE table_id = ? ORDER BY idx", (table_id,))
            return match, rows

        match, rows = await self._call(read)
        if match is None:
            return None
        results = tuple(PlayerResult(pid, seat, score, bool(won), bool(left))
                        for pid, seat, score, won, left in rows)
        return MatchResult(match[0], match[1], match[2], match[3], results, json.loads(match[4]))


async def _one(c: Conn, sql: str, params: Sequence[Any] = ()) -> Any:
    """The first row of ``sql`` (None if it has none), in one trip to the connection's thread."""
    rows = await c.execute_fetchall(sql, params)
    return next(iter(rows), None)


async def _all(c: Conn, sql: str, params: Sequence[Any] = ()) -> list[Row]:
    return [tuple(r) for r in await c.execute_fetchall(sql, params)]


async def _rowcount(c: Conn, sql: str, params: Sequence[Any] = ()) -> int:
    """How many rows ``sql`` changed (the cursor is not closed: that would be one more trip, and a
    finished write statement holds nothing)."""
    return int((await c.execute(sql, params)).rowcount)


async def _run(c: Conn, sql: str, params: Row) -> None:
    await c.execute(sql, params)


async def _schema_version(c: Conn, where: str) -> int:
    """The file's schema version: 0 for an empty file; refuses an SQLite file of something else."""
    names = {r[0] for r in await _all(c, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not names:
        return 0
    if "schema_version" not in names:
        raise NotADatabase(f"{where} is an SQLite database of something else, not Majlis's")
    return int((await _one(c, "SELECT COALESCE(MAX(version), 0) FROM schema_version"))[0])


async def _migrate(c: Conn, scripts: Sequence[tuple[int, str]]) -> int:
    """:func:`migrate` on the repository's aiosqlite connection (the same steps, awaited)."""
    version = "SELECT COALESCE(MAX(version), 0) FROM schema_version"
    names = {r[0] for r in await _all(c, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" not in names:
        await c.execute("CREATE TABLE IF NOT EXISTS schema_version "
                        "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
    current = int((await _one(c, version))[0])
    for number, sql in scripts:
        if number <= current:  # applied already: no write lock needed to find that out
            continue
        await c.execute("BEGIN IMMEDIATE")
        try:
            current = int((await _one(c, version))[0])
            if number > current:
                for statement in statements(sql):
                    await c.execute(statement)
                await c.execute("INSERT INTO schema_version VALUES (?, ?)", (number, time.time()))
                current = number
            await c.commit()
        except BaseException:
            if c.in_transaction:
                await c.rollback()
            raise
    return current


_SAVE_SNAPSHOT = ("INSERT INTO snapshots SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM tables WHERE table_id = ?1) "
                  "AND ?2 BETWEEN 0 AND (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = ?1) "
                  "ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, state = excluded.state "
                  "WHERE excluded.seq >= snapshots.seq")
_LOG_AND_REV = ("SELECT (SELECT rev FROM tables WHERE table_id = ?1), "
                "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = ?1)")


async def _append(c: Conn, action: ActionRecord, arow: Row, rev: int | None) -> None:
    """Insert the action if its seq is the log's next one (else :class:`VersionConflict`) and, when
    ``rev`` is given, the stored table's rev is ``rev`` (else :class:`TableConflict`): both checked
    in one select before anything is written."""
    stored, last = (await _one(c, _LOG_AND_REV, (action.table_id,)))
    if stored is None:
        raise KeyError(action.table_id)
    if action.seq != last + 1:
        raise VersionConflict(f"table {action.table_id}: seq {action.seq}, log has {last}")
    if rev is not None and stored != rev:
        raise TableConflict(action.table_id, rev, stored)
    await c.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", arow)


def _match_writer(result: MatchResult) -> Callable[[Conn], Awaitable[None]]:
    """A function that writes the match, its result rows and its players' new ratings."""
    scores = dumps(result.scores)
    rows = result_rows(result)
    people = rated_players(result.results)

    async def write(c: Conn) -> None:
        await c.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?)",
                        (result.table_id, result.chat_id, result.game, result.finished_at, scores))
        await c.executemany("INSERT INTO match_results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        await season_store.record_season(_sql(c), result)
        for scope in (result.chat_id, GLOBAL):
            current = await _ratings(c, scope, result.game, people)
            new = rate_match(result.game, result.results, current)
            await c.executemany(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, game, player_id) "
                "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                [(scope, result.game, pid, r.mu, r.sigma) for pid, r in new.items()])

    return write


_UPDATE_TABLE = (f"UPDATE tables SET {', '.join(f'{col} = ?' for col in _COLS[1:-1])}, rev = rev + 1 "
                 "WHERE table_id = ? AND rev = ?")


async def _update_table(c: Conn, row: Row) -> int:
    """Write the table row if the stored rev is the row's; the new rev (else :class:`TableConflict`)."""
    table_id, rev = row[0], row[-1]
    if await _rowcount(c, _UPDATE_TABLE, (*row[1:-1], table_id, rev)) == 0:
        stored = await _one(c, "SELECT rev FROM tables WHERE table_id = ?", (table_id,))
        if stored is None:
            raise KeyError(table_id)
        raise TableConflict(table_id, rev, stored[0])
    return int(rev) + 1


async def _ratings(c: Conn, scope: str, game: str, people: Iterable[str]) -> dict[str, Rating]:
    out = {}
    for pid in people:
        row = await _one(c, "SELECT mu, sigma FROM ratings WHERE scope = ? AND game = ? AND player_id = ?",
                         (scope, game, pid))
        out[pid] = Rating() if row is None else Rating(row[0], row[1])
    return out


def _rating(mu: float | None, sigma: float | None) -> Rating:
    return Rating() if mu is None or sigma is None else Rating(mu, sigma)


# Appends in one statement each: a row inserted into this view (temporary: it lives in the
# connection, not in the file, so the schema is unchanged) runs the trigger below, which refuses
# the append (RAISE ABORT, which undoes that one statement) unless the stored table's rev is the one
# the caller read and the seq is the log's next, then inserts the action and writes the table row.
_APPEND_COLUMNS = ["table_id", "seq", "seat", "action", "actor", "at", *_COLS[1:]]
_APPEND_OBJECTS = (
    "CREATE TEMP VIEW IF NOT EXISTS majlis_append AS SELECT a.table_id, a.seq, a.seat, a.action, a.actor, "
    f"a.at, {', '.join('t.' + col for col in _COLS[1:])} FROM actions a JOIN tables t USING (table_id) WHERE 0",
    "CREATE TEMP TRIGGER IF NOT EXISTS majlis_append_insert INSTEAD OF INSERT ON majlis_append BEGIN "
    "SELECT RAISE(ABORT, 'majlis: append refused') WHERE NOT EXISTS "
    "(SELECT 1 FROM tables WHERE table_id = NEW.table_id AND rev = NEW.rev) OR NEW.seq IS NOT "
    "(SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE table_id = NEW.table_id); "
    "INSERT INTO actions VALUES (NEW.table_id, NEW.seq, NEW.seat, NEW.action, NEW.actor, NEW.at); "
    f"UPDATE tables SET {', '.join(f'{col} = NEW.{col}' for col in _COLS[1:-1])}, rev = rev + 1 "
    "WHERE table_id = NEW.table_id; END",
)
_APPEND = f"INSERT INTO majlis_append VALUES ({', '.join('?' * len(_APPEND_COLUMNS))})"


async def _run_batch(c: Conn, batch: Sequence[_Write]) -> tuple[list[tuple[bool, Any]], bool]:
    """One transaction holding every write of ``batch``: the outcome of each, in order, and whether
    the batch had to be run again.

    Every trip to aiosqlite's thread waits for the event loop to come round (and, on a busy machine,
    for the operating system to run the thread), so the batch takes few: each run of consecutive
    appends is one ``executemany`` into ``majlis_append``, whatever its length: a batch of appends
    is ``BEGIN IMMEDIATE``, that statement and ``COMMIT``, and an append alone in its batch is ONE
    trip (the connection is in autocommit mode: the statement, trigger and all, is atomic and
    committed before it returns). Any other write runs in its own savepoint (none when alone in
    its batch). When a run is refused (a stale seq or rev, a missing table) or one of its
    statements fails, the transaction is rolled back and the batch run again with a savepoint per
    write, which refuses exactly the writes it must, with their own errors, and keeps the others.
    """
    try:
        if len(batch) > 1 or batch[0].append is None:
            await c.execute("BEGIN IMMEDIATE")
        outcomes = await _run_writes(c, batch, fast=True)  # a lone append: one statement, committed by itself
        rerun = outcomes is None
        if outcomes is None:
            if c.in_transaction:
                await c.rollback()
            await c.execute("BEGIN IMMEDIATE")
            outcomes = await _run_writes(c, batch, fast=False)
            assert outcomes is not None
        if c.in_transaction:
            await c.commit()
    except BaseException:
        if c.in_transaction:
            await c.rollback()
        raise
    return outcomes, rerun


async def _run_writes(c: Conn, batch: Sequence[_Write], *, fast: bool) -> list[tuple[bool, Any]] | None:
    """The writes of ``batch`` in the open transaction (None: a run of appends was refused)."""
    outcomes: list[tuple[bool, Any]] = []
    i = 0
    while i < len(batch):
        if fast and batch[i].append is not None:
            j = i
            while j < len(batch) and batch[j].append is not None:
                j += 1
            rows = [w.append for w in batch[i:j] if w.append is not None]
            try:
                await c.executemany(_APPEND, [(*a, *t[1:]) for a, t in rows])
            except Exception:  # refused, or a statement failed: the careful run finds whose write it was
                return None
            outcomes.extend((True, int(t[-1]) + 1) for _, t in rows)
            i = j
            continue
        write = batch[i]
        i += 1
        if len(batch) == 1:  # alone in its transaction: rolling that back undoes a failed write
            try:
                outcomes.append((True, await write.fn(c)))
            except Exception as exc:
                if c.in_transaction:
                    await c.rollback()
                outcomes.append((False, exc))
            continue
        await c.execute("SAVEPOINT w")
        try:
            value = await write.fn(c)
        except Exception as exc:
            await c.execute("ROLLBACK TO w")
            await c.execute("RELEASE w")
            outcomes.append((False, exc))
        else:
            await c.execute("RELEASE w")
            outcomes.append((True, value))
    return outcomes


def _sql(c: Conn) -> season_store.Sql:
    """``c`` for :mod:`storage.season_store`."""
    async def fetch(sql: str, args: Sequence[Any]) -> list[Row]:
        return [tuple(r) for r in await c.execute_fetchall(sql, args)]

    return season_store.Sql(fetch, c.execute, postgres=False)
