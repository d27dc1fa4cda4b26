"""The SQLite repository: one file, WAL, numbered migrations, group commit on its own thread.

Every statement runs on one thread that the repository owns (holding a plain ``sqlite3``
connection; no aiosqlite). Each public method hands that thread one function, so a method's
statements never interleave with another's. Writes go through a group-commit queue: the writes
that arrive while a commit is in flight are run in the next transaction (``BEGIN IMMEDIATE`` …
``COMMIT``), each in its own savepoint so that one refused write (a :class:`VersionConflict`,
say) leaves the others intact. A caller returns only after the commit that holds its write is
done. Durability (:data:`DURABILITY`): ``"crash"`` (the default) is WAL with
``synchronous=NORMAL``, which keeps every acknowledged write through a crash or ``kill -9`` of
the process; ``"power"`` is ``synchronous=FULL``, which also waits for the disk on each commit
and so keeps them through a power cut or an operating-system crash.

SQLite's own errors that a person can act on become the typed ones of :mod:`storage.errors`
(not a database, read-only, locked, cannot open); the others pass through unchanged.
"""

from __future__ import annotations

import asyncio
import json
import queue
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

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
from storage.ratings import GLOBAL, Rating, rate_match, rated_players
from storage.records import (
    LIVE_STATUSES,
    ActionRecord,
    ChatRecord,
    LeaderRow,
    MatchResult,
    PlayerRecord,
    PlayerResult,
    PlayerStats,
    TableRecord,
)
from storage.rows import (
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


class _Thread:
    """One thread running the functions it is given, in order; results come back as asyncio futures.

    The repository's connection lives and is used only here. This is what aiosqlite does, with
    public parts only: a queue in, ``call_soon_threadsafe`` out (no ``concurrent.futures`` layer,
    which measured slower per round trip than aiosqlite's own queue).
    """

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.AbstractEventLoop,
                                            asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, loop, future = job
            try:
                result = fn()
            except BaseException as exc:
                loop.call_soon_threadsafe(_settle, future, False, exc)
            else:
                loop.call_soon_threadsafe(_settle, future, True, result)

    def run(self, fn: Callable[[], T]) -> asyncio.Future[T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((fn, loop, future))
        return future

    def stop(self) -> None:
        """The thread ends after the functions queued before this."""
        self._jobs.put(None)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class _Write:
    __slots__ = ("fn", "future")

    def __init__(self, fn: Callable[[sqlite3.Connection], Any], future: asyncio.Future[Any]) -> None:
        self.fn = fn
        self.future = future


class SQLiteRepository:
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
        self._conn: sqlite3.Connection | None = None
        self._thread: _Thread | None = None
        self._queue: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed by the writer (a benchmark figure)
        self.schema_version = 0

    # connection

    async def open(self) -> None:
        if self._conn is not None:
            return
        thread = _Thread("majlis-sqlite")
        scripts = migrations()
        try:
            conn = await thread.run(partial(self._connect, scripts))
        except BaseException:
            thread.stop()
            raise
        self._thread, self._conn = thread, conn

    def _connect(self, scripts: Sequence[tuple[int, str]]) -> sqlite3.Connection:
        """On the repository's thread: connect, set the pragmas, migrate (or check the schema)."""
        if self.read_only and self.path != ":memory:" and not Path(self.path).is_file():
            raise DatabaseUnavailable(f"{self.path}: no such database file")
        if not self.read_only and self.path != ":memory:":
            try:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise DatabaseUnavailable(f"{self.path}: cannot create its folder ({e.strerror})") from None
        try:
            if self.read_only:
                return self._connect_read_only(len(scripts))
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=self.busy_timeout)
        except sqlite3.Error as e:
            raise storage_error(e, self.path) from None
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={self.synchronous}")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            version = _schema_version(conn, self.path)
            if version > len(scripts):
                raise SchemaMismatch(f"{self.path} has schema {version}, newer than this Majlis "
                                     f"({len(scripts)}): upgrade Majlis")
            self.schema_version = migrate(conn, scripts)
        except BaseException as e:
            conn.close()
            raise storage_error(e, self.path) from None
        return conn

    def _connect_read_only(self, latest: int) -> sqlite3.Connection:
        uri = "file:" + quote(str(Path(self.path).resolve()))
        try:
            conn = sqlite3.connect(uri + "?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
            try:
                version = _schema_version(conn, self.path)
            except sqlite3.OperationalError as e:  # a WAL file whose -shm cannot be created here
                if getattr(e, "sqlite_errorcode", 0) & 0xFF not in (_CANTOPEN, _READONLY):
                    raise
                conn.close()
                conn = sqlite3.connect(uri + "?immutable=1", uri=True, isolation_level=None,
                                       check_same_thread=False)
                version = _schema_version(conn, self.path)
        except sqlite3.Error as e:
            raise storage_error(e, self.path) from None
        if version == 0:
            conn.close()
            raise NotADatabase(f"{self.path} is empty: not a Majlis database")
        if version != latest:
            conn.close()
            raise SchemaMismatch(
                f"{self.path} has schema {version}, this Majlis reads {latest}: "
                + ("run `majlis db migrate` first" if version < latest else "upgrade Majlis"))
        conn.execute("PRAGMA query_only=ON")
        self.schema_version = version
        return conn

    async def close(self) -> None:
        if self._conn is None:
            return
        while self._flusher is not None and not self._flusher.done():
            await asyncio.wait({self._flusher})  # the writes in flight finish (or fail) first
        conn, thread = self._conn, self._thread
        self._conn = self._thread = None
        assert thread is not None
        try:
            await thread.run(conn.close)
        finally:
            thread.stop()

    async def __aenter__(self) -> SQLiteRepository:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` on the repository's thread, alone."""
        conn, thread = self._conn, self._thread
        if conn is None or thread is None:
            raise RuntimeError("the repository is not open")
        try:
            return await thread.run(partial(fn, conn))
        except sqlite3.Error as e:
            raise storage_error(e, self.path) from None

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` inside a transaction; return once that transaction is committed."""
        if self._conn is None:
            raise RuntimeError("the repository is not open")
        if self.read_only:
            raise ReadOnlyDatabase(f"{self.path} was opened read-only")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Write(fn, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._queue:
            if self.group_commit:
                batch, self._queue = self._queue, []
            else:
                batch, self._queue = self._queue[:1], self._queue[1:]
            try:
                outcomes = await self._call(partial(_run_batch, batch=batch))
            except Exception as exc:  # the commit itself failed: nobody's write is done
                for write in batch:
                    if not write.future.done():
                        write.future.set_exception(exc)
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
        row = await self._call(lambda c: c.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone())
        return None if row is None else str(row[0])

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        def put(c: sqlite3.Connection) -> str:
            c.execute("INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, value))
            return str(c.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()[0])

        return await self._write(put)

    # chats and players

    async def get_chat(self, chat_id: str) -> ChatRecord | None:
        row = await self._call(lambda c: c.execute(
            "SELECT chat_id, lang, turn_seconds, digits, default_options, ai_level FROM chats "
            "WHERE chat_id = ?", (chat_id,)).fetchone())
        return None if row is None else chat_from(row)

    async def save_chat(self, chat: ChatRecord) -> None:
        row = chat_row(chat)
        await self._write(lambda c: _run(c, "INSERT OR REPLACE INTO chats VALUES (?, ?, ?, ?, ?, ?)", row))

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        row = await self._call(lambda c: c.execute(
            "SELECT player_id, name, lang, dm_ok FROM players WHERE player_id = ?", (player_id,)).fetchone())
        return None if row is None else player_from(row)

    async def save_player(self, player: PlayerRecord) -> None:
        row = player_row(player)
        await self._write(lambda c: _run(c, "INSERT OR REPLACE INTO players VALUES (?, ?, ?, ?)", row))

    # tables and their logs

    async def create_table(self, table: TableRecord, *, owner: str | None = None,
                           lease_until: float | None = None) -> int:
        """Insert a table (its ``table_id`` ignored, ``rev`` 0), held by ``owner``; the new id."""
        row = (*table_row(table)[1:-1], owner, lease_until)

        def insert(c: sqlite3.Connection) -> int:
            cur = c.execute(f"INSERT INTO tables ({', '.join(_COLS[1:-1])}, owner, lease_until) "
                            f"VALUES ({', '.join('?' * len(row))})", row)
            assert cur.lastrowid is not None
            return cur.lastrowid

        return await self._write(insert)

    async def save_table(self, table: TableRecord) -> TableRecord:
        row = table_row(table)
        return replace(table, rev=await self._write(lambda c: _update_table(c, row)))

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._call(lambda c: c.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE table_id = ?", (table_id,)).fetchone())
        return None if row is None else table_from(row)

    async def live_tables(self) -> list[TableRecord]:
        rows = await self._call(lambda c: c.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {_LIVE} ORDER BY table_id").fetchall())
        return [table_from(r) for r in rows]

    async def live_tables_with_logs(self, table_ids: Iterable[int] | None = None,
                                    ) -> list[tuple[TableRecord, Snapshot | None, list[ActionRecord]]]:
        """Every live table (of ``table_ids``, if given) with its latest snapshot and the actions after it."""
        ids = None if table_ids is None else dumps(sorted(set(table_ids)))
        only = f"t.status IN {_LIVE} AND (?1 IS NULL OR t.table_id IN (SELECT value FROM json_each(?1)))"

        def read(c: sqlite3.Connection) -> tuple[list[Row], list[Row], list[Row]]:
            c.execute("BEGIN")  # one consistent read
            try:
                tables = c.execute(f"SELECT {_T_COLUMNS} FROM tables t WHERE {only} ORDER BY t.table_id",
                                   (ids,)).fetchall()
                snaps = c.execute(f"SELECT s.table_id, s.seq, s.state FROM snapshots s JOIN tables t "
                                  f"USING (table_id) WHERE {only}", (ids,)).fetchall()
                actions = c.execute(  # CROSS JOIN keeps this order: live tables, then each one's tail
                    "SELECT a.table_id, a.seq, a.seat, a.action, a.actor, a.at FROM tables t "
                    f"CROSS JOIN actions a ON a.table_id = t.table_id WHERE {only} AND a.seq > "
                    "COALESCE((SELECT s.seq FROM snapshots s WHERE s.table_id = t.table_id), 0) "
                    "ORDER BY t.table_id, a.seq", (ids,)).fetchall()
            finally:
                c.execute("COMMIT")
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

        def claim(c: sqlite3.Connection) -> list[int]:
            ids = [r[0] for r in c.execute(
                f"SELECT table_id FROM tables WHERE status IN {_LIVE} AND (owner IS NULL OR lease_until < ?1) "
                "AND (?3 IS NULL OR EXISTS (SELECT 1 FROM json_each(?3) p "
                "WHERE substr(chat_id, 1, length(p.value)) = p.value)) "
                "ORDER BY table_id LIMIT ?2", (now, -1 if limit is None else limit, prefixes))]
            c.executemany("UPDATE tables SET owner = ?, lease_until = ? WHERE table_id = ?",
                          [(owner, now + lease_seconds, i) for i in ids])
            return ids

        return await self._write(claim)

    async def renew_leases(self, owner: str, now: float, lease_seconds: float) -> list[int]:
        """Extend ``owner``'s leases of its live tables; the ids it still holds."""
        return await self._write(lambda c: sorted(r[0] for r in c.execute(
            f"UPDATE tables SET lease_until = ? WHERE owner = ? AND status IN {_LIVE} RETURNING table_id",
            (now + lease_seconds, owner)).fetchall()))

    async def release_tables(self, owner: str, table_ids: Iterable[int] | None = None) -> int:
        """Give up ``owner``'s tables (all, or ``table_ids``): another process may take them at once."""
        ids = None if table_ids is None else dumps(sorted(set(table_ids)))
        return await self._write(lambda c: c.execute(
            "UPDATE tables SET owner = NULL, lease_until = NULL WHERE owner = ?1 AND "
            "(?2 IS NULL OR table_id IN (SELECT value FROM json_each(?2)))", (owner, ids)).rowcount)

    async def table_lease(self, table_id: int) -> tuple[str | None, float | None] | None:
        """Who holds the table and until when (None: no such table)."""
        row = await self._call(lambda c: c.execute(
            "SELECT owner, lease_until FROM tables WHERE table_id = ?", (table_id,)).fetchone())
        return None if row is None else (row[0], row[1])

    async def append_action(self, action: ActionRecord, table: TableRecord) -> TableRecord:
        check_append(action, table)
        arow, trow = action_row(action), table_row(table)

        def append(c: sqlite3.Connection) -> int:
            _append(c, action, arow)
            return _update_table(c, trow)

        return replace(table, rev=await self._write(append))

    async def actions(self, table_id: int, after_seq: int = 0) -> list[ActionRecord]:
        rows = await self._call(lambda c: c.execute(
            "SELECT table_id, seq, seat, action, actor, at FROM actions WHERE table_id = ? AND seq > ? "
            "ORDER BY seq", (table_id, after_seq)).fetchall())
        return [action_from(r) for r in rows]

    async def save_snapshot(self, table_id: int, seq: int, state: dict[str, Any]) -> None:
        text = dumps(state)

        def save(c: sqlite3.Connection) -> None:
            if c.execute("SELECT 1 FROM tables WHERE table_id = ?", (table_id,)).fetchone() is None:
                raise KeyError(table_id)
            last = c.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = ?",
                             (table_id,)).fetchone()[0]
            if not 0 <= seq <= last:
                raise ValueError(f"table {table_id}: snapshot at seq {seq}, log has {last}")
            c.execute("INSERT INTO snapshots VALUES (?, ?, ?) ON CONFLICT (table_id) DO UPDATE "
                      "SET seq = excluded.seq, state = excluded.state WHERE excluded.seq >= snapshots.seq",
                      (table_id, seq, text))

        await self._write(save)

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        row = await self._call(lambda c: c.execute(
            "SELECT seq, state FROM snapshots WHERE table_id = ?", (table_id,)).fetchone())
        return None if row is None else (row[0], json.loads(row[1]))

    # results and ratings

    async def record_match(self, result: MatchResult, table: TableRecord) -> TableRecord:
        """Idempotent: a table whose match is already recorded is left as it is (and returned as stored)."""
        check_result(result, table)
        trow = table_row(table)
        record = _match_writer(result)

        def write(c: sqlite3.Connection) -> Row | int:
            if c.execute("SELECT 1 FROM matches WHERE table_id = ?", (result.table_id,)).fetchone():
                row: Row = c.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE table_id = ?",
                                     (result.table_id,)).fetchone()
                return row
            rev = _update_table(c, trow)
            record(c)
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

        def write(c: sqlite3.Connection) -> int:
            _append(c, action, arow)
            if c.execute("SELECT 1 FROM matches WHERE table_id = ?", (result.table_id,)).fetchone():
                raise VersionConflict(f"table {action.table_id}: its match is recorded already")
            rev = _update_table(c, trow)
            record(c)
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

        def move(c: sqlite3.Connection) -> int:
            c.execute("UPDATE OR IGNORE chats SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            c.execute("DELETE FROM chats WHERE chat_id = ?", (old_chat_id,))
            live = c.execute(f"UPDATE tables SET chat_id = ?, rev = rev + 1 WHERE chat_id = ? "
                             f"AND status IN {_LIVE}", (new_chat_id, old_chat_id)).rowcount
            c.execute("UPDATE tables SET chat_id = ?, rev = rev + 1 WHERE chat_id = ?", (new_chat_id, old_chat_id))
            c.execute("UPDATE matches SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id))
            c.execute("UPDATE OR IGNORE ratings SET scope = ? WHERE scope = ?", (new_chat_id, old_chat_id))
            c.execute("DELETE FROM ratings WHERE scope = ?", (old_chat_id,))
            return int(live)

        return await self._write(move)

    async def leaderboard(self, chat_id: str, game: str, limit: int = 10) -> list[LeaderRow]:
        """A chat's board for one game; ``chat_id`` ``"*"`` (``ratings.GLOBAL``) spans every chat."""
        rows = await self._call(lambda c: c.execute(
            "SELECT r.player_id, COALESCE(p.name, r.player_id), COUNT(*), "
            "SUM(r.won AND NOT r.left_), g.mu, g.sigma "
            "FROM match_results r JOIN matches m ON m.table_id = r.table_id "
            "LEFT JOIN players p ON p.player_id = r.player_id "
            "LEFT JOIN ratings g ON g.scope = ?1 AND g.game = m.game AND g.player_id = r.player_id "
            "WHERE (?1 = '*' OR m.chat_id = ?1) AND m.game = ?2 AND r.counted "
            "GROUP BY r.player_id", (chat_id, game)).fetchall())
        out = [LeaderRow(pid, name, matches, wins, _rating(mu, sigma).display)
               for pid, name, matches, wins, mu, sigma in rows]
        out.sort(key=leader_order)
        return out[:limit]

    async def player_stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]:
        scope = GLOBAL if chat_id is None else chat_id
        rows = await self._call(lambda c: c.execute(
            "SELECT m.game, COUNT(*), SUM(r.won AND NOT r.left_), SUM(r.left_), SUM(r.score), g.mu, g.sigma "
            "FROM match_results r JOIN matches m ON m.table_id = r.table_id "
            "LEFT JOIN ratings g ON g.scope = ? AND g.game = m.game AND g.player_id = r.player_id "
            "WHERE r.player_id = ? AND r.counted AND (? IS NULL OR m.chat_id = ?) "
            "GROUP BY m.game ORDER BY m.game", (scope, player_id, chat_id, chat_id)).fetchall())
        return [PlayerStats(game, matches, wins, left, _rating(mu, sigma).display, score)
                for game, matches, wins, left, score, mu, sigma in rows]

    async def table_results(self, table_id: int) -> MatchResult | None:
        def read(c: sqlite3.Connection) -> tuple[Row | None, list[Row]]:
            match = c.execute("SELECT table_id, chat_id, game, finished_at, scores FROM matches "
                              "WHERE table_id = ?", (table_id,)).fetchone()
            rows = c.execute("SELECT player_id, seat, score, won, left_ FROM match_results "
                             "WHERE table_id = ? ORDER BY idx", (table_id,)).fetchall()
            return match, rows

        match, rows = await self._call(read)
        if match is None:
            return None
        results = tuple(PlayerResult(pid, seat, score, bool(won), bool(left))
                        for pid, seat, score, won, left in rows)
        return MatchResult(match[0], match[1], match[2], match[3], results, json.loads(match[4]))


def _run(c: sqlite3.Connection, sql: str, params: Row) -> None:
    c.execute(sql, params)


def _schema_version(conn: sqlite3.Connection, where: str) -> int:
    """The file's schema version: 0 for an empty file; refuses an SQLite file of something else."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not names:
        return 0
    if "schema_version" not in names:
        raise NotADatabase(f"{where} is an SQLite database of something else, not Majlis's")
    return int(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])


def _append(c: sqlite3.Connection, action: ActionRecord, arow: Row) -> None:
    """Insert the action if its seq is the log's next one (else :class:`VersionConflict`)."""
    last = c.execute("SELECT MAX(seq) FROM actions WHERE table_id = ?", (action.table_id,)).fetchone()[0]
    if last is None and c.execute("SELECT 1 FROM tables WHERE table_id = ?",
                                  (action.table_id,)).fetchone() is None:
        raise KeyError(action.table_id)
    if action.seq != (last or 0) + 1:
        raise VersionConflict(f"table {action.table_id}: seq {action.seq}, log has {last or 0}")
    c.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", arow)


def _match_writer(result: MatchResult) -> Callable[[sqlite3.Connection], None]:
    """A function that writes the match, its result rows and its players' new ratings."""
    scores = dumps(result.scores)
    rows = result_rows(result)
    people = rated_players(result.results)

    def write(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?)",
                  (result.table_id, result.chat_id, result.game, result.finished_at, scores))
        c.executemany("INSERT INTO match_results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        for scope in (result.chat_id, GLOBAL):
            current = _ratings(c, scope, result.game, people)
            new = rate_match(result.game, result.results, current)
            c.executemany(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, game, player_id) "
                "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                [(scope, result.game, pid, r.mu, r.sigma) for pid, r in new.items()])

    return write


_UPDATE_TABLE = (f"UPDATE tables SET {', '.join(f'{col} = ?' for col in _COLS[1:-1])}, rev = rev + 1 "
                 "WHERE table_id = ? AND rev = ?")


def _update_table(c: sqlite3.Connection, row: Row) -> int:
    """Write the table row if the stored rev is the row's; the new rev (else :class:`TableConflict`)."""
    table_id, rev = row[0], row[-1]
    if c.execute(_UPDATE_TABLE, (*row[1:-1], table_id, rev)).rowcount == 0:
        stored = c.execute("SELECT rev FROM tables WHERE table_id = ?", (table_id,)).fetchone()
        if stored is None:
            raise KeyError(table_id)
        raise TableConflict(table_id, rev, stored[0])
    return int(rev) + 1


def _ratings(c: sqlite3.Connection, scope: str, game: str, people: Iterable[str]) -> dict[str, Rating]:
    out = {}
    for pid in people:
        row = c.execute("SELECT mu, sigma FROM ratings WHERE scope = ? AND game = ? AND player_id = ?",
                        (scope, game, pid)).fetchone()
        out[pid] = Rating() if row is None else Rating(row[0], row[1])
    return out


def _rating(mu: float | None, sigma: float | None) -> Rating:
    return Rating() if mu is None or sigma is None else Rating(mu, sigma)


def _run_batch(conn: sqlite3.Connection, batch: Sequence[_Write]) -> list[tuple[bool, Any]]:
    """One transaction holding every write of ``batch``, each in its own savepoint."""
    outcomes: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for write in batch:
            conn.execute("SAVEPOINT w")
            try:
                value = write.fn(conn)
            except Exception as exc:
                conn.execute("ROLLBACK TO w")
                conn.execute("RELEASE w")
                outcomes.append((False, exc))
            else:
                conn.execute("RELEASE w")
                outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes
