"""The SQLite repository: one file, WAL, ``synchronous=FULL``, numbered migrations, group commit.

All statements run on aiosqlite's single connection thread. Each public method hands that thread
one function (``_call``), so a method's statements never interleave with another's. Writes go
through a group-commit queue: the writes that arrive while a commit is in flight are run in the
next transaction (``BEGIN IMMEDIATE`` … ``COMMIT``), each in its own savepoint so that one
refused write (a :class:`VersionConflict`, say) leaves the others intact. A caller returns only
after the commit that holds its write is durable, so an acknowledged move survives ``kill -9``
and power loss alike.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from functools import lru_cache, partial
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.ratings import GLOBAL, Rating, is_ai, rate_match, rated_players, unique_results
from storage.records import (
    LIVE_STATUSES,
    ActionRecord,
    ChatRecord,
    LeaderRow,
    MatchResult,
    PlayerRecord,
    PlayerResult,
    PlayerStats,
    Seat,
    TableRecord,
)
from storage.repository import VersionConflict

T = TypeVar("T")
Row = tuple[Any, ...]
Snapshot = tuple[int, dict[str, Any]]

MIGRATIONS = Path(__file__).with_name("migrations")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
_LIVE = "('" + "', '".join(LIVE_STATUSES) + "')"


# --- rows: how records are written and read (shared with the memory repository) -------------


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps(value: Any) -> str:
    """Compact JSON text; refuses NaN and anything JSON cannot hold."""
    return _ENCODER.encode(value)


def chat_row(c: ChatRecord) -> Row:
    return (c.chat_id, c.lang, c.turn_seconds, c.digits, dumps(c.default_options), c.ai_level)


def chat_from(row: Row) -> ChatRecord:
    chat_id, lang, turn_seconds, digits, options, ai_level = row
    return ChatRecord(chat_id, lang, turn_seconds, digits, json.loads(options), ai_level)


def player_row(p: PlayerRecord) -> Row:
    return (p.player_id, p.name, p.lang, None if p.dm_ok is None else int(p.dm_ok))


def player_from(row: Row) -> PlayerRecord:
    player_id, name, lang, dm_ok = row
    return PlayerRecord(player_id, name, lang, None if dm_ok is None else bool(dm_ok))


TABLE_COLUMNS = (
    "table_id, chat_id, game, options, seed, dealer, creator, status, seats, version, deadline, "
    "warned, lobby_deadline, message_ids, lang, ai_level, created_at"
)


def table_row(t: TableRecord) -> Row:
    """The row of ``t``, in ``TABLE_COLUMNS`` order."""
    if len(t.seats) != 4:
        raise ValueError(f"a table has 4 seats, not {len(t.seats)}")
    return (
        t.table_id, t.chat_id, t.game, dumps(t.options), t.seed, t.dealer, t.creator, t.status,
        seats_json(tuple(t.seats)), t.version, t.deadline, int(t.warned), t.lobby_deadline,
        dumps(t.message_ids), t.lang, t.ai_level, t.created_at,
    )


_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


@lru_cache(maxsize=8192)
def seats_json(seats: tuple[Seat, ...]) -> str:
    """The seats as a JSON list of objects (cached: seats rarely change from one action to the next)."""
    return dumps([{name: getattr(s, name) for name in _SEAT_FIELDS} for s in seats])


def table_from(row: Row) -> TableRecord:
    (table_id, chat_id, game, options, seed, dealer, creator, status, seats, version, deadline,
     warned, lobby_deadline, message_ids, lang, ai_level, created_at) = row
    s0, s1, s2, s3 = (Seat(**s) for s in json.loads(seats))
    return TableRecord(
        table_id=table_id, chat_id=chat_id, game=game, options=json.loads(options), seed=seed,
        dealer=dealer, creator=creator, status=status, seats=(s0, s1, s2, s3), version=version,
        created_at=created_at, deadline=deadline, warned=bool(warned), lobby_deadline=lobby_deadline,
        message_ids=json.loads(message_ids), lang=lang, ai_level=ai_level,
    )


def action_row(a: ActionRecord) -> Row:
    return (a.table_id, a.seq, a.seat, a.action, a.actor, a.at)


def action_from(row: Row) -> ActionRecord:
    return ActionRecord(*row)


def check_append(action: ActionRecord, table: TableRecord) -> None:
    """The arguments of ``append_action`` must agree: same table, and its version is the seq."""
    if action.table_id != table.table_id:
        raise ValueError(f"action of table {action.table_id} with table {table.table_id}")
    if table.version != action.seq:
        raise ValueError(f"table version {table.version} is not the action's seq {action.seq}")


def leader_order(row: LeaderRow) -> tuple[float, int, int, str]:
    """Best first: rating, then wins, then fewer matches, then the id for a stable order."""
    return (-row.rating, -row.wins, row.matches, row.player_id)


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
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                 "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)")
    current = 0
    for number, sql in scripts:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
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
    if not scripts:
        current = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
    return int(current)


# --- the repository --------------------------------------------------------------------------


class _Write:
    __slots__ = ("fn", "future")

    def __init__(self, fn: Callable[[sqlite3.Connection], Any], future: asyncio.Future[Any]) -> None:
        self.fn = fn
        self.future = future


class SQLiteRepository:
    """The :class:`storage.repository.Repository` in one SQLite file."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL", group_commit: bool = True) -> None:
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = synchronous.upper()
        self.group_commit = group_commit
        self._db: aiosqlite.Connection | None = None
        self._queue: list[_Write] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed by the writer (a benchmark figure)
        self.schema_version = 0

    # connection

    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        scripts = migrations()

        def setup(conn: sqlite3.Connection) -> int:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={self.synchronous}")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=5000")
            return migrate(conn, scripts)

        try:
            self.schema_version = await self._call(setup)
        except BaseException:
            await self._db.close()
            self._db = None
            raise

    async def close(self) -> None:
        if self._db is None:
            return
        while self._flusher is not None and not self._flusher.done():
            await asyncio.wait({self._flusher})  # the writes in flight finish (or fail) first
        db, self._db = self._db, None
        await db.close()

    async def __aenter__(self) -> SQLiteRepository:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` on the connection's thread, alone."""
        db = self._db
        if db is None:
            raise RuntimeError("the repository is not open")
        # aiosqlite has no public "run this function on your thread"; _execute is that queue.
        result: T = await db._execute(fn, db._conn)  # type: ignore[no-untyped-call]
        return result

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` inside a transaction; return once that transaction is committed."""
        if self._db is None:
            raise RuntimeError("the repository is not open")
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
            except Exception as exc:  # the commit itself failed: nobody's write is durable
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
                    write.future.set_exception(value)

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

    async def create_table(self, table: TableRecord) -> int:
        row = table_row(table)[1:]

        def insert(c: sqlite3.Connection) -> int:
            cur = c.execute(f"INSERT INTO tables ({TABLE_COLUMNS.split(', ', 1)[1]}) "
                            f"VALUES ({', '.join('?' * len(row))})", row)
            assert cur.lastrowid is not None
            return cur.lastrowid

        return await self._write(insert)

    async def save_table(self, table: TableRecord) -> None:
        row = table_row(table)

        def update(c: sqlite3.Connection) -> None:
            _update_table(c, row)

        await self._write(update)

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._call(lambda c: c.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE table_id = ?", (table_id,)).fetchone())
        return None if row is None else table_from(row)

    async def live_tables(self) -> list[TableRecord]:
        rows = await self._call(lambda c: c.execute(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {_LIVE} ORDER BY table_id").fetchall())
        return [table_from(r) for r in rows]

    async def live_tables_with_logs(self) -> list[tuple[TableRecord, Snapshot | None, list[ActionRecord]]]:
        """Every live table with its latest snapshot and the actions after it, oldest first."""

        def read(c: sqlite3.Connection) -> tuple[list[Row], list[Row], list[Row]]:
            c.execute("BEGIN")  # one consistent read
            try:
                tables = c.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {_LIVE} "
                                   "ORDER BY table_id").fetchall()
                snaps = c.execute(f"SELECT s.table_id, s.seq, s.state FROM snapshots s JOIN tables t "
                                  f"USING (table_id) WHERE t.status IN {_LIVE}").fetchall()
                actions = c.execute(  # CROSS JOIN keeps this order: live tables, then each one's tail
                    "SELECT a.table_id, a.seq, a.seat, a.action, a.actor, a.at FROM tables t "
                    "CROSS JOIN actions a ON a.table_id = t.table_id "
                    f"WHERE t.status IN {_LIVE} AND a.seq > "
                    "COALESCE((SELECT s.seq FROM snapshots s WHERE s.table_id = t.table_id), 0) "
                    "ORDER BY t.table_id, a.seq").fetchall()
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

    async def append_action(self, action: ActionRecord, table: TableRecord) -> None:
        check_append(action, table)
        arow, trow = action_row(action), table_row(table)

        def append(c: sqlite3.Connection) -> None:
            last = c.execute("SELECT MAX(seq) FROM actions WHERE table_id = ?", (action.table_id,)).fetchone()[0]
            if last is None and c.execute("SELECT 1 FROM tables WHERE table_id = ?",
                                          (action.table_id,)).fetchone() is None:
                raise KeyError(action.table_id)
            if action.seq != (last or 0) + 1:
                raise VersionConflict(f"table {action.table_id}: seq {action.seq}, log has {last or 0}")
            c.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", arow)
            _update_table(c, trow)

        await self._write(append)

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

    async def record_match(self, result: MatchResult, table: TableRecord) -> None:
        """Idempotent: a table whose match is already recorded is left as it is."""
        if result.table_id != table.table_id:
            raise ValueError(f"result of table {result.table_id} with table {table.table_id}")
        trow = table_row(table)
        scores = dumps(result.scores)
        counted = {id(r) for r in unique_results(result.results) if not is_ai(r.player_id)}
        result_rows = [
            (result.table_id, i, r.player_id, r.seat, r.score, int(r.won), int(r.left), int(id(r) in counted))
            for i, r in enumerate(result.results)
        ]
        people = rated_players(result.results)

        def record(c: sqlite3.Connection) -> None:
            if c.execute("SELECT 1 FROM matches WHERE table_id = ?", (result.table_id,)).fetchone():
                return
            _update_table(c, trow)
            c.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?)",
                      (result.table_id, result.chat_id, result.game, result.finished_at, scores))
            c.executemany("INSERT INTO match_results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", result_rows)
            for scope in (result.chat_id, GLOBAL):
                current = _ratings(c, scope, result.game, people)
                new = rate_match(result.game, result.results, current)
                c.executemany(
                    "INSERT INTO ratings VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, game, player_id) "
                    "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                    [(scope, result.game, pid, r.mu, r.sigma) for pid, r in new.items()])

        await self._write(record)

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


def _update_table(c: sqlite3.Connection, row: Row) -> None:
    cols = TABLE_COLUMNS.split(", ")[1:]
    cur = c.execute(f"UPDATE tables SET {', '.join(f'{col} = ?' for col in cols)} WHERE table_id = ?",
                    (*row[1:], row[0]))
    if cur.rowcount == 0:
        raise KeyError(row[0])


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
