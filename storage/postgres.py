"""The PostgreSQL repository on asyncpg: several processes on one database, nothing lost or doubled.

Chosen by ``MAJLIS_DB=postgresql://user:pass@host:port/db`` (``postgres://`` too). Any query
parameter asyncpg does not know goes to the server as a setting, e.g. ``?search_path=majlis``.
Numbered migrations (``storage/migrations/postgres/NNNN_name.sql``) are applied on open, each in
one transaction under an advisory lock, so processes starting together apply each script once.

Concurrency (READ COMMITTED, the default level):

- An action locks its table's row (``SELECT … FOR UPDATE``) before it reads the log's last seq,
  so two processes appending to one table are serialized and the second gets a
  :class:`VersionConflict`; the ``(table_id, seq)`` primary key refuses a doubled seq anyway.
  ``append_action`` does all of it in one statement (:data:`_APPEND`): one round trip.
- Every write of a table row is a compare-and-set on ``rev`` (:class:`TableConflict`).
- Ratings: a match first inserts the missing rating rows, then locks its players' rows with
  ``SELECT … FOR UPDATE`` in one fixed order (scope, then player id) before it reads, rates and
  writes them: two matches that share a player finish one after the other, no update is lost,
  and no two transactions wait on each other in a circle. A deadlock or serialization failure
  reported anyway is retried.
- Reads that must agree (a restore) run in one REPEATABLE READ transaction.

Both durability settings keep PostgreSQL's ``synchronous_commit`` on: a commit that returned is
on the server's disk, which survives the bot's crash and the server's power cut alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from storage import season_store, tournaments
from storage.challenges import SqlChallenges
from storage.errors import (
    ChatHasLiveTable,
    DatabaseLocked,
    DatabaseUnavailable,
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
Conn = Any  # an asyncpg connection (asyncpg ships no type hints)

MIGRATIONS = Path(__file__).parent / "migrations" / "postgres"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[\w-]+\.sql$")
_MIGRATION_LOCK = 0x6D616A6C6973  # "majlis": the advisory lock that serializes migrators
_RETRIES = 8
_LIVE = "('" + "', '".join(LIVE_STATUSES) + "')"
_COLS = TABLE_COLUMNS.split(", ")
_T_COLUMNS = ", ".join(f"t.{c}" for c in _COLS)
_UPDATE_TABLE = (f"UPDATE tables SET {', '.join(f'{c} = ${i + 2}' for i, c in enumerate(_COLS[1:-1]))}, "
                 f"rev = rev + 1 WHERE table_id = $1 AND rev = ${len(_COLS)} RETURNING rev")


# An append in one statement: lock the table's row (appends to one table queue here, across
# processes; a waiter then sees the row as the one before it left it), read the log's last seq,
# insert the action if the stored rev is the caller's and the seq the next one, and write the table
# row with rev + 1 if the action went in. Returns (stored rev, last seq, new rev): new rev NULL means
# refused (no such table, stale seq or stale rev), with nothing written. Any append that got in
# first moved the rev, so a stale one is refused by the rev even when this statement's snapshot is
# older than the lock it waited for.
_N = len(_COLS)  # $1 … $6 the action, $7 … the table row from chat_id to rev
_APPEND = (
    "WITH t AS (SELECT rev FROM tables WHERE table_id = $1 FOR UPDATE), "
    "last AS (SELECT COALESCE(MAX(seq), 0) AS seq FROM actions WHERE table_id = $1), "
    "ins AS (INSERT INTO actions SELECT $1::bigint, $2::integer, $3::integer, $4::text, $5::text, "
    "$6::double precision FROM t, last "
    f"WHERE t.rev = ${_N + 5} AND last.seq + 1 = $2 RETURNING 1), "
    f"upd AS (UPDATE tables SET {', '.join(f'{c} = ${i + 7}' for i, c in enumerate(_COLS[1:-1]))}, "
    f"rev = rev + 1 WHERE table_id = $1 AND rev = ${_N + 5} AND EXISTS (SELECT 1 FROM ins) RETURNING rev) "
    "SELECT (SELECT rev FROM t), (SELECT seq FROM last), (SELECT rev FROM upd)"
)


# A snapshot in one statement: written if the table exists and the seq is within its log (and not
# older than the stored one); returns what it checked, so a refusal gets its typed error.
_SAVE_SNAPSHOT = (
    "WITH t AS (SELECT EXISTS (SELECT 1 FROM tables WHERE table_id = $1::bigint) AS found, "
    "(SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = $1::bigint) AS last), "
    "ins AS (INSERT INTO snapshots SELECT $1::bigint, $2::integer, $3::text FROM t "
    "WHERE t.found AND $2::integer BETWEEN 0 AND t.last ON CONFLICT (table_id) DO UPDATE "
    "SET seq = excluded.seq, state = excluded.state WHERE excluded.seq >= snapshots.seq RETURNING 1) "
    "SELECT found, last FROM t"
)


def migrations(folder: Path = MIGRATIONS) -> list[tuple[int, str]]:
    """The numbered PostgreSQL scripts, in order (numbered 1, 2, 3 ... without gaps)."""
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


async def migrate(conn: Conn, scripts: Sequence[tuple[int, str]]) -> int:
    """Apply the scripts newer than the database's ``schema_version``, each in one transaction."""
    for number, sql in scripts:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                               "(version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)")
            current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if number > current:
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_version VALUES ($1, extract(epoch FROM now()))", number)
    return int(await _schema_version(conn))


async def _schema_version(conn: Conn) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


def storage_error(exc: BaseException, where: str) -> BaseException:
    """The typed :mod:`storage.errors` error for an asyncpg or socket error, else ``exc``."""
    out: StorageError
    if isinstance(exc, asyncpg.exceptions.ReadOnlySQLTransactionError):
        out = ReadOnlyDatabase(f"{where} is read-only here ({exc})")
    elif isinstance(exc, asyncpg.exceptions.LockNotAvailableError):
        out = DatabaseLocked(f"{where}: a lock was not available ({exc})")
    elif isinstance(exc, (asyncpg.exceptions.InvalidAuthorizationSpecificationError,
                          asyncpg.exceptions.InvalidPasswordError,
                          asyncpg.exceptions.InvalidCatalogNameError,
                          asyncpg.exceptions.CannotConnectNowError,
                          asyncpg.exceptions.TooManyConnectionsError,
                          OSError, TimeoutError)):
        out = DatabaseUnavailable(f"{where} cannot be reached ({type(exc).__name__}: {exc})")
    else:
        return exc
    out.__cause__ = exc
    return out


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


class PostgresRepository(SqlChallenges):
    """The :class:`storage.repository.Repository` on a PostgreSQL server (a pool of connections)."""

    def __init__(self, url: str, *, durability: str = "crash", read_only: bool = False,
                 pool_size: int = 10, connect_timeout: float = 10.0) -> None:
        if durability not in ("crash", "power"):
            raise ValueError(f"durability must be crash or power, not {durability!r}")
        self.url = url
        self.where = redact(url)
        self.durability = durability
        self.read_only = read_only
        self.pool_size = pool_size
        self.connect_timeout = connect_timeout
        self.schema_version = 0
        self._pool: Any = None
        self._listener: Any = None  # the one connection that LISTENs (opened by the first listen())
        self._callbacks: dict[str, list[Callable[[str], None]]] = {}
        self._relisten: asyncio.Task[None] | None = None

    # connection

    async def open(self) -> None:
        if self._pool is not None:
            return
        settings = {"synchronous_commit": "on", "application_name": "majlis"}
        if self.read_only:
            settings["default_transaction_read_only"] = "on"
        try:
            pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size,
                                             timeout=self.connect_timeout, server_settings=settings)
        except Exception as e:
            raise storage_error(e, self.where) from None
        try:
            async with pool.acquire() as conn:
                scripts = migrations()
                version = await _schema_version(conn)
                if version > len(scripts):
                    raise SchemaMismatch(f"{self.where} has schema {version}, newer than this Majlis "
                                         f"({len(scripts)}): upgrade Majlis")
                if self.read_only:
                    if version != len(scripts):
                        raise SchemaMismatch(f"{self.where} has schema {version}, this Majlis reads "
                                             f"{len(scripts)}: run `majlis db migrate` first")
                    self.schema_version = version
                else:
                    self.schema_version = await migrate(conn, scripts)
        except BaseException as e:
            await pool.close()
            raise storage_error(e, self.where) from None
        self._pool = pool

    async def close(self) -> None:
        task, self._relisten = self._relisten, None
        if task is not None:
            task.cancel()
        conn, self._listener = self._listener, None
        self._callbacks = {}
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def __aenter__(self) -> PostgresRepository:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _pool_or_fail(self) -> Any:
        if self._pool is None:
            raise RuntimeError("the repository is not open")
        return self._pool

    async def _read(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        pool = self._pool_or_fail()
        try:
            async with pool.acquire() as conn:
                return await fn(conn)
        except Exception as e:
            raise storage_error(e, self.where) from None

    async def _write(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn`` in one transaction (retried on a deadlock or serialization failure)."""
        pool = self._pool_or_fail()
        if self.read_only:
            raise ReadOnlyDatabase(f"{self.where} was opened read-only")
        for attempt in range(_RETRIES):
            try:
                async with pool.acquire() as conn, conn.transaction():
                    return await fn(conn)
            except (asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError):
                if attempt == _RETRIES - 1:
                    raise
            except Exception as e:
                raise storage_error(e, self.where) from None
        raise AssertionError("unreachable")

    # LISTEN/NOTIFY: waking the other processes (storage.repository.Notifier)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(payload)`` for each notification on ``channel``; ``"*"`` after a reconnection."""
        self._pool_or_fail()
        first = channel not in self._callbacks
        self._callbacks.setdefault(channel, []).append(callback)
        if self._listener is None:
            await self._connect_listener()
        elif first:
            await self._listener.add_listener(channel, self._on_notify)

    async def notify(self, channel: str, payload: str) -> None:
        await self._read(lambda c: c.execute("SELECT pg_notify($1, $2)", channel, payload))

    def _on_notify(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        for callback in list(self._callbacks.get(channel, ())):
            try:
                callback(payload)
            except Exception:  # a listener's bug must not stop the others
                logging.getLogger(__name__).exception("listener of %s failed", channel)

    async def _connect_listener(self) -> None:
        try:
            conn = await asyncpg.connect(self.url, timeout=self.connect_timeout,
                                         server_settings={"application_name": "majlis-listen"})
        except Exception as e:
            raise storage_error(e, self.where) from None
        for channel in self._callbacks:
            await conn.add_listener(channel, self._on_notify)
        conn.add_termination_listener(self._on_lost)
        self._listener = conn

    def _on_lost(self, conn: Any) -> None:
        if conn is self._listener and self._pool is not None:
            self._listener = None
            self._relisten = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.5
        while self._pool is not None and self._listener is None:
            await asyncio.sleep(delay)
            try:
                await self._connect_listener()
            except Exception:
                delay = min(delay * 2, 10.0)
                continue
            for channel in list(self._callbacks):
                self._on_notify(self._listener, 0, channel, "*")  # whatever came meanwhile was missed

    # install-wide settings

    async def get_meta(self, key: str) -> str | None:
        value = await self._read(lambda c: c.fetchval("SELECT value FROM meta WHERE key = $1", key))
        return None if value is None else str(value)

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        async def put(c: Conn) -> str:
            await c.execute("INSERT INTO meta VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", key, value)
            return str(await c.fetchval("SELECT value FROM meta WHERE key = $1", key))

        return await self._write(put)

    async def delete_meta(self, key: str) -> bool:
        status = await self._write(lambda c: c.execute("DELETE FROM meta WHERE key = $1", key))
        return str(status).rsplit(" ", 1)[-1] != "0"

    # chats and players

    async def get_chat(self, chat_id: str) -> ChatRecord | None:
        row = await self._read(lambda c: c.fetchrow(
            "SELECT chat_id, lang, turn_seconds, digits, default_options, ai_level, hands, notify FROM chats "
            "WHERE chat_id = $1", chat_id))
        return None if row is None else chat_from(tuple(row))

    async def save_chat(self, chat: ChatRecord) -> None:
        row = chat_row(chat)
        await self._write(lambda c: c.execute(
            "INSERT INTO chats (chat_id, lang, turn_seconds, digits, default_options, ai_level, hands, notify) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (chat_id) DO UPDATE SET "
            "lang = excluded.lang, turn_seconds = excluded.turn_seconds, digits = excluded.digits, "
            "default_options = excluded.default_options, ai_level = excluded.ai_level, hands = excluded.hands, "
            "notify = excluded.notify", *row))

    async def delete_chat(self, chat_id: str) -> bool:
        status = await self._write(lambda c: c.execute("DELETE FROM chats WHERE chat_id = $1", chat_id))
        return str(status).rsplit(" ", 1)[-1] != "0"

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        row = await self._read(lambda c: c.fetchrow(
            "SELECT player_id, name, lang, dm_ok, turn_ping FROM players WHERE player_id = $1", player_id))
        return None if row is None else player_from(tuple(row))

    async def save_player(self, player: PlayerRecord) -> None:
        row = player_row(player)
        await self._write(lambda c: c.execute(
            "INSERT INTO players (player_id, name, lang, dm_ok, turn_ping) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, lang = excluded.lang, "
            "dm_ok = excluded.dm_ok, turn_ping = excluded.turn_ping", *row))

    async def subscribe(self, chat_id: str, player_id: str, on: bool, at: float) -> bool:
        if on:
            status = await self._write(lambda c: c.execute(
                "INSERT INTO subscriptions (chat_id, player_id, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                chat_id, player_id, at))
        else:
            status = await self._write(lambda c: c.execute(
                "DELETE FROM subscriptions WHERE chat_id = $1 AND player_id = $2", chat_id, player_id))
        return str(status).rsplit(" ", 1)[-1] != "0"

    async def subscribers(self, chat_id: str, limit: int = 100) -> list[tuple[str, str]]:
        rows = await self._read(lambda c: c.fetch(
            "SELECT s.player_id, COALESCE(p.name, '') FROM subscriptions s "
            "LEFT JOIN players p ON p.player_id = s.player_id WHERE s.chat_id = $1 "
            "ORDER BY s.since, s.player_id LIMIT $2", chat_id, limit))
        return [(str(r[0]), str(r[1])) for r in rows]

    # tables and their logs

    async def create_table(self, table: TableRecord, *, owner: str | None = None,
                           lease_until: float | None = None) -> int:
        row = (*table_row(table)[1:-1], owner, lease_until)  # no id (the database gives it), rev 0
        cols = [*_COLS[1:-1], "owner", "lease_until"]
        # tables_one_live_per_chat (0003): a second live table of the chat is not inserted (a concurrent
        # insert of the chat's first one is waited for); the chat's live table is read in that transaction
        sql = (f"INSERT INTO tables ({', '.join(cols)}) VALUES "
               f"({', '.join(f'${i + 1}' for i in range(len(cols)))}) "
               f"ON CONFLICT (chat_id) WHERE status IN {_LIVE} DO NOTHING RETURNING table_id")

        live_sql = f"SELECT table_id FROM tables WHERE chat_id = $1 AND status IN {_LIVE}"

        async def insert(c: Conn) -> int:
            # looked up first so that a refusal does not use up an id (as on SQLite and in memory); the
            # index decides when two processes insert at the same moment
            live = await c.fetchval(live_sql, table.chat_id) if table.status in LIVE_STATUSES else None
            table_id = None if live is not None else await c.fetchval(sql, *row)
            if table_id is None:
                live = live if live is not None else await c.fetchval(live_sql, table.chat_id)
                raise ChatHasLiveTable(table.chat_id, None if live is None else int(live))
            return int(table_id)

        return await self._write(insert)

    async def save_table(self, table: TableRecord) -> TableRecord:
        row = table_row(table)
        rev = await self._write(lambda c: _update_table(c, row))
        return table_at(table, rev)

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = await self._read(lambda c: c.fetchrow(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE table_id = $1", table_id))
        return None if row is None else table_from(tuple(row))

    async def list_tables(self, limit: int | None = None) -> list[TableRecord]:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be at least 0, not {limit}")
        rows = await self._read(lambda c: c.fetch(  # LIMIT NULL: no limit
            f"SELECT {TABLE_COLUMNS} FROM tables ORDER BY table_id DESC LIMIT $1", limit))
        return [table_from(tuple(r)) for r in rows]

    async def live_tables(self) -> list[TableRecord]:
        rows = await self._read(lambda c: c.fetch(
            f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN {_LIVE} ORDER BY table_id"))
        return [table_from(tuple(r)) for r in rows]

    async def live_tables_with_logs(self, table_ids: Iterable[int] | None = None,
                                    ) -> list[tuple[TableRecord, Snapshot | None, list[ActionRecord]]]:
        """Every live table (of ``table_ids``, if given) with its latest snapshot and its log's tail,
        in one consistent read."""
        ids = None if table_ids is None else sorted(set(table_ids))
        only = f"t.status IN {_LIVE} AND ($1::bigint[] IS NULL OR t.table_id = ANY($1::bigint[]))"

        async def read(c: Conn) -> tuple[list[Any], list[Any], list[Any]]:
            async with c.transaction(isolation="repeatable_read", readonly=True):
                tables = await c.fetch(f"SELECT {_T_COLUMNS} FROM tables t WHERE {only} ORDER BY t.table_id", ids)
                snaps = await c.fetch(f"SELECT s.table_id, s.seq, s.state FROM snapshots s JOIN tables t "
                                      f"USING (table_id) WHERE {only}", ids)
                actions = await c.fetch(
                    "SELECT a.table_id, a.seq, a.seat, a.action, a.actor, a.at FROM tables t "
                    f"JOIN actions a ON a.table_id = t.table_id WHERE {only} AND a.seq > "
                    "COALESCE((SELECT s.seq FROM snapshots s WHERE s.table_id = t.table_id), 0) "
                    "ORDER BY a.table_id, a.seq", ids)
            return tables, snaps, actions

        tables, snaps, actions = await self._read(read)
        snapshots = {tid: (seq, json.loads(state)) for tid, seq, state in snaps}
        logs = {table_id: [ActionRecord(*r) for r in rows]
                for table_id, rows in groupby((tuple(a) for a in actions), key=itemgetter(0))}
        out = []
        for row in tables:
            t = table_from(tuple(row))
            out.append((t, snapshots.get(t.table_id), logs.get(t.table_id, [])))
        return out

    # leases: which process runs which table

    async def claim_tables(self, owner: str, now: float, lease_seconds: float, limit: int | None = None,
                           chat_prefixes: Sequence[str] | None = None) -> list[int]:
        """Take the live tables that nobody holds (no owner, or a lease ended before ``now``).

        Rows another process is claiming at this moment are skipped (``SKIP LOCKED``), not waited for.
        """
        rows = await self._write(lambda c: c.fetch(
            "UPDATE tables SET owner = $1, lease_until = $2::float8 + $3::float8 WHERE table_id IN ("
            f"SELECT table_id FROM tables WHERE status IN {_LIVE} AND (owner IS NULL OR lease_until < $2) "
            "AND ($5::text[] IS NULL OR EXISTS (SELECT 1 FROM unnest($5::text[]) p "
            "WHERE left(chat_id, length(p)) = p)) "
            "ORDER BY table_id LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING table_id",
            owner, now, lease_seconds, limit, None if chat_prefixes is None else list(chat_prefixes)))
        return sorted(int(r[0]) for r in rows)

    async def renew_leases(self, owner: str, now: float, lease_seconds: float) -> list[int]:
        """Extend ``owner``'s leases of its live tables; the ids it still holds."""
        rows = await self._write(lambda c: c.fetch(
            "UPDATE tables SET lease_until = $2::float8 + $3::float8 "
            f"WHERE owner = $1 AND status IN {_LIVE} RETURNING table_id",
            owner, now, lease_seconds))
        return sorted(int(r[0]) for r in rows)

    async def release_tables(self, owner: str, table_ids: Iterable[int] | None = None) -> int:
        """Give up ``owner``'s tables (all, or ``table_ids``): another process may take them at once."""
        ids = None if table_ids is None else sorted(set(table_ids))
        done = await self._write(lambda c: c.execute(
            "UPDATE tables SET owner = NULL, lease_until = NULL WHERE owner = $1 "
            "AND ($2::bigint[] IS NULL OR table_id = ANY($2::bigint[]))", owner, ids))
        return int(done.split()[-1])

    async def table_lease(self, table_id: int) -> tuple[str | None, float | None] | None:
        """Who holds the table and until when (None: no such table)."""
        row = await self._read(lambda c: c.fetchrow(
            "SELECT owner, lease_until FROM tables WHERE table_id = $1", table_id))
        return None if row is None else (row[0], row[1])

    async def chat_lease(self, chat_id: str) -> tuple[int, str | None, float | None] | None:
        """(table id, owner, lease end) of the chat's newest live table."""
        row = await self._read(lambda c: c.fetchrow(
            f"SELECT table_id, owner, lease_until FROM tables WHERE chat_id = $1 AND status IN {_LIVE} "
            "ORDER BY table_id DESC LIMIT 1", chat_id))
        return None if row is None else (int(row[0]), row[1], row[2])

    async def table_route(self, table_id: int) -> tuple[str, str, str | None, float | None] | None:
        """(chat id, status, owner, lease end) of a table."""
        row = await self._read(lambda c: c.fetchrow(
            "SELECT chat_id, status, owner, lease_until FROM tables WHERE table_id = $1", table_id))
        return None if row is None else (row[0], row[1], row[2], row[3])

    # the inbox of forwarded commands: each post and answer NOTIFYs in its own transaction

    async def inbox_post(self, key: str, table_id: int, sender: str, request: str, now: float) -> int:
        async def post(c: Conn) -> int:
            entry_id = await c.fetchval(
                "INSERT INTO inbox (key, table_id, sender, request, created_at) VALUES ($1, $2, $3, $4, $5) "
                "ON CONFLICT (key) DO UPDATE SET sender = excluded.sender, request = excluded.request, "
                f"state = '{INBOX_PENDING}', taker = NULL, answer = NULL, created_at = excluded.created_at "
                f"WHERE inbox.state = '{INBOX_EXPIRED}' RETURNING entry_id", key, table_id, sender, request, now)
            if entry_id is None:  # the same command again, still pending, taken or done: left as it is
                return int(await c.fetchval("SELECT entry_id FROM inbox WHERE key = $1", key))
            await c.execute("SELECT pg_notify('majlis_inbox', $1)", str(table_id))
            return int(entry_id)

        return await self._write(post)

    async def inbox_take(self, owner: str, now: float) -> list[InboxEntry]:
        async def take(c: Conn) -> list[InboxEntry]:
            rows = await c.fetch(
                f"UPDATE inbox SET state = '{INBOX_TAKEN}', taker = $1 WHERE entry_id IN ("
                f"SELECT i.entry_id FROM inbox i JOIN tables t ON t.table_id = i.table_id "
                f"WHERE i.state = '{INBOX_PENDING}' AND t.owner = $1 AND t.status IN {_LIVE} "
                "FOR UPDATE OF i SKIP LOCKED) RETURNING entry_id, table_id, sender, request", owner)
            return sorted((InboxEntry(int(r[0]), int(r[1]), r[2], r[3]) for r in rows), key=lambda e: e.entry_id)

        return await self._write(take)

    async def inbox_answer(self, entry_id: int, answer: str, now: float) -> None:
        async def done(c: Conn) -> None:
            await c.execute(f"UPDATE inbox SET state = 'done', answer = $1, done_at = $2 WHERE entry_id = $3 "
                            f"AND state = '{INBOX_TAKEN}'", answer, now, entry_id)
            await c.execute("SELECT pg_notify('majlis_answer', $1)", str(entry_id))

        await self._write(done)

    async def inbox_result(self, entry_id: int) -> tuple[str, str | None] | None:
        row = await self._read(lambda c: c.fetchrow(
            "SELECT state, answer FROM inbox WHERE entry_id = $1", entry_id))
        return None if row is None else (row[0], row[1])

    async def inbox_expire(self, entry_id: int) -> bool:
        status = await self._write(lambda c: c.execute(
            f"UPDATE inbox SET state = '{INBOX_EXPIRED}' WHERE entry_id = $1 AND state = '{INBOX_PENDING}'",
            entry_id))
        return str(status).endswith(" 1")

    async def inbox_purge(self, before: float) -> int:
        status = await self._write(lambda c: c.execute("DELETE FROM inbox WHERE created_at < $1", before))
        return int(str(status).rsplit(" ", 1)[-1])

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> int:
        """The chat got a new id: its settings (unless the new id has its own), tables, matches, ratings."""
        if old_chat_id == new_chat_id:
            raise ValueError(f"moving chat {old_chat_id!r} onto itself")

        async def move(c: Conn) -> int:
            await c.execute(f"UPDATE tables SET {END_LIVE}, rev = rev + 1 WHERE chat_id = $1 AND status IN {_LIVE} "
                            f"AND EXISTS (SELECT 1 FROM tables WHERE chat_id = $2 AND status IN {_LIVE})",
                            old_chat_id, new_chat_id)
            await c.execute("UPDATE chats SET chat_id = $1 WHERE chat_id = $2 AND NOT EXISTS "
                            "(SELECT 1 FROM chats WHERE chat_id = $1)", new_chat_id, old_chat_id)
            await c.execute("DELETE FROM chats WHERE chat_id = $1", old_chat_id)
            live = await c.fetchval(
                f"WITH moved AS (UPDATE tables SET chat_id = $1, rev = rev + 1 WHERE chat_id = $2 "
                f"RETURNING status) SELECT COUNT(*) FROM moved WHERE status IN {_LIVE}",
                new_chat_id, old_chat_id)
            await c.execute("UPDATE matches SET chat_id = $1 WHERE chat_id = $2", new_chat_id, old_chat_id)
            await c.execute("UPDATE ratings r SET scope = $1 WHERE scope = $2 AND NOT EXISTS (SELECT 1 FROM "
                            "ratings n WHERE n.scope = $1 AND n.game = r.game AND n.player_id = r.player_id)",
                            new_chat_id, old_chat_id)
            await c.execute("DELETE FROM ratings WHERE scope = $1", old_chat_id)
            await c.execute("UPDATE subscriptions s SET chat_id = $1 WHERE chat_id = $2 AND NOT EXISTS (SELECT 1 "
                            "FROM subscriptions n WHERE n.chat_id = $1 AND n.player_id = s.player_id)",
                            new_chat_id, old_chat_id)
            await c.execute("DELETE FROM subscriptions WHERE chat_id = $1", old_chat_id)
            return int(live)

        return await self._write(move)

    async def append_action(self, action: ActionRecord, table: TableRecord) -> TableRecord:
        """One statement, one round trip (its own transaction): see :data:`_APPEND`."""
        check_append(action, table)
        arow, trow = action_row(action), table_row(table)
        pool = self._pool_or_fail()
        if self.read_only:
            raise ReadOnlyDatabase(f"{self.where} was opened read-only")
        for attempt in range(_RETRIES):
            try:
                async with pool.acquire() as conn:
                    stored, last, new = await conn.fetchrow(_APPEND, *arow, *trow[1:])
                break
            except (asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError):
                if attempt == _RETRIES - 1:
                    raise
            except Exception as e:
                raise storage_error(e, self.where) from None
        if new is not None:
            return table_at(table, int(new))
        if stored is None:
            raise KeyError(action.table_id)
        if action.seq != last + 1:
            raise VersionConflict(f"table {action.table_id}: seq {action.seq}, log has {last}")
        raise TableConflict(action.table_id, trow[-1], stored)

    async def actions(self, table_id: int, after_seq: int = 0) -> list[ActionRecord]:
        rows = await self._read(lambda c: c.fetch(
            "SELECT table_id, seq, seat, action, actor, at FROM actions WHERE table_id = $1 AND seq > $2 "
            "ORDER BY seq", table_id, after_seq))
        return [action_from(tuple(r)) for r in rows]

    async def save_snapshot(self, table_id: int, seq: int, state: dict[str, Any]) -> None:
        text = dumps(state)

        pool = self._pool_or_fail()
        if self.read_only:
            raise ReadOnlyDatabase(f"{self.where} was opened read-only")
        try:  # one statement, one round trip; it writes nothing when it refuses
            async with pool.acquire() as conn:
                found, last = await conn.fetchrow(_SAVE_SNAPSHOT, table_id, seq, text)
        except Exception as e:
            raise storage_error(e, self.where) from None
        if not found:
            raise KeyError(table_id)
        if not 0 <= seq <= last:
            raise ValueError(f"table {table_id}: snapshot at seq {seq}, log has {last}")

    async def latest_snapshot(self, table_id: int) -> Snapshot | None:
        row = await self._read(lambda c: c.fetchrow(
            "SELECT seq, state FROM snapshots WHERE table_id = $1", table_id))
        return None if row is None else (row[0], json.loads(row[1]))

    # results and ratings

    async def record_match(self, result: MatchResult, table: TableRecord) -> TableRecord:
        """Idempotent: a table whose match is already recorded is left as it is (and returned as stored)."""
        check_result(result, table)
        trow = table_row(table)
        record = _match_writer(result)

        async def write(c: Conn) -> TableRecord | int:
            await _lock_table(c, result.table_id)
            if await c.fetchval("SELECT 1 FROM matches WHERE table_id = $1", result.table_id):
                row = await c.fetchrow(f"SELECT {TABLE_COLUMNS} FROM tables WHERE table_id = $1", result.table_id)
                return table_from(tuple(row))
            rev = await _update_table(c, trow)
            await record(c)
            return rev

        out = await self._write(write)
        return out if isinstance(out, TableRecord) else table_at(table, out)

    async def append_final_action(self, action: ActionRecord, table: TableRecord,
                                  result: MatchResult) -> TableRecord:
        check_append(action, table)
        check_result(result, table)
        arow, trow = action_row(action), table_row(table)
        record = _match_writer(result)

        async def write(c: Conn) -> int:
            await _append(c, action, arow)
            if await c.fetchval("SELECT 1 FROM matches WHERE table_id = $1", result.table_id):
                raise VersionConflict(f"table {action.table_id}: its match is recorded already")
            rev = await _update_table(c, trow)
            await record(c)
            return rev

        return table_at(table, await self._write(write))

    async def leaderboard(self, chat_id: str, game: str, limit: int = 10) -> list[LeaderRow]:
        """A chat's board for one game; ``chat_id`` ``"*"`` (``ratings.GLOBAL``) spans every chat."""
        rows = await self._read(lambda c: c.fetch(
            "SELECT r.player_id, COALESCE(p.name, r.player_id), COUNT(*), "
            "SUM(CASE WHEN r.won = 1 AND r.left_ = 0 THEN 1 ELSE 0 END), g.mu, g.sigma "
            "FROM match_results r JOIN matches m ON m.table_id = r.table_id "
            "LEFT JOIN players p ON p.player_id = r.player_id "
            "LEFT JOIN ratings g ON g.scope = $1 AND g.game = m.game AND g.player_id = r.player_id "
            "WHERE ($1 = '*' OR m.chat_id = $1) AND m.game = $2 AND r.counted = 1 "
            "GROUP BY r.player_id, p.name, g.mu, g.sigma", chat_id, game))
        out = [LeaderRow(pid, name, int(matches), int(wins), _rating(mu, sigma).display)
               for pid, name, matches, wins, mu, sigma in rows]
        out.sort(key=leader_order)
        return out[:limit]

    async def player_stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]:
        scope = GLOBAL if chat_id is None else chat_id
        rows = await self._read(lambda c: c.fetch(
            "SELECT m.game, COUNT(*), SUM(CASE WHEN r.won = 1 AND r.left_ = 0 THEN 1 ELSE 0 END), "
            "SUM(r.left_), SUM(r.score), g.mu, g.sigma "
            "FROM match_results r JOIN matches m ON m.table_id = r.table_id "
            "LEFT JOIN ratings g ON g.scope = $1 AND g.game = m.game AND g.player_id = r.player_id "
            "WHERE r.player_id = $2 AND r.counted = 1 AND ($3::text IS NULL OR m.chat_id = $3) "
            "GROUP BY m.game, g.mu, g.sigma ORDER BY m.game", scope, player_id, chat_id))
        return [PlayerStats(game, int(matches), int(wins), int(left), _rating(mu, sigma).display, int(score))
                for game, matches, wins, left, score, mu, sigma in rows]

    # seasons (storage/seasons.py, storage/season_store.py)

    # challenges (storage/challenges.py)

    async def _challenge_read(self, fn: Callable[[season_store.Sql], Awaitable[T]]) -> T:
        return await self._read(lambda c: fn(_sql(c)))

    async def _challenge_write(self, fn: Callable[[season_store.Sql], Awaitable[T]]) -> T:
        return await self._write(lambda c: fn(_sql(c)))

    async def get_league(self, league: str) -> LeagueRecord:
        return await self._read(lambda c: season_store.get_league(_sql(c), league))

    async def save_league(self, league: LeagueRecord) -> None:
        await self._write(lambda c: season_store.save_league(_sql(c), league))

    async def season_at(self, league: str, at: float) -> SeasonRecord:
        return await self._write(lambda c: season_store.season_at(_sql(c), league, at))

    async def seasons(self, league: str) -> list[SeasonRecord]:
        return await self._read(lambda c: season_store.seasons(_sql(c), league))

    async def end_season(self, league: str, number: int, now: float) -> SeasonRecord | None:
        return await self._write(lambda c: season_store.end_season(_sql(c), league, number, now))

    async def due_seasons(self, now: float) -> list[SeasonRecord]:
        return await self._read(lambda c: season_store.due_seasons(_sql(c), now))

    async def close_season(self, league: str, number: int, now: float) -> SeasonSummary | None:
        return await self._write(lambda c: season_store.close_season(_sql(c), league, number, now))

    async def season_board(self, league: str, number: int | None, game: str) -> list[LeaderRow]:
        return await self._read(lambda c: season_store.season_board(_sql(c), league, number, game))

    async def champions(self, league: str) -> list[ChampionRecord]:
        return await self._read(lambda c: season_store.champions(_sql(c), league))

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        return await self._read(lambda c: season_store.rating_changes(_sql(c), table_id))

    async def person_matches(self, player_id: str, league: str | None = None, limit: int = 500,
                             ) -> list[PersonMatch]:
        return await self._read(lambda c: season_store.person_matches(_sql(c), player_id, league, limit))

    async def person_champions(self, player_id: str, league: str | None = None) -> list[ChampionRecord]:
        return await self._read(lambda c: season_store.person_champions(_sql(c), player_id, league))

    async def meta_prefixed(self, prefix: str) -> dict[str, str]:
        return await self._read(lambda c: season_store.meta_prefixed(_sql(c), prefix))

    # tournaments (storage/tournaments.py)

    async def create_tournament(self, t: tournaments.Tournament) -> tournaments.Tournament:
        return await self._write(lambda c: tournaments.create(_sql(c), t))

    async def save_tournament(self, t: tournaments.Tournament) -> tournaments.Tournament:
        return await self._write(lambda c: tournaments.save(_sql(c), t))

    async def get_tournament(self, tournament_id: int) -> tournaments.Tournament | None:
        return await self._read(lambda c: tournaments.get(_sql(c), tournament_id))

    async def chat_tournament(self, chat_id: str) -> tournaments.Tournament | None:
        return await self._read(lambda c: tournaments.in_chat(_sql(c), chat_id))

    async def open_tournaments(self) -> list[int]:
        return await self._read(lambda c: tournaments.open_ids(_sql(c)))

    async def due_tournaments(self, now: float) -> list[int]:
        return await self._read(lambda c: tournaments.due(_sql(c), now))

    async def table_results(self, table_id: int) -> MatchResult | None:
        async def read(c: Conn) -> tuple[Any, list[Any]]:
            match = await c.fetchrow("SELECT table_id, chat_id, game, finished_at, scores FROM matches "
                                     "WHERE table_id = $1", table_id)
            rows = await c.fetch("SELECT player_id, seat, score, won, left_ FROM match_results "
                                 "WHERE table_id = $1 ORDER BY idx", table_id)
            return match, rows

        match, rows = await self._read(read)
        if match is None:
            return None
        results = tuple(PlayerResult(pid, seat, score, bool(won), bool(left))
                        for pid, seat, score, won, left in rows)
        return MatchResult(match[0], match[1], match[2], match[3], results, json.loads(match[4]))


def table_at(table: TableRecord, rev: int) -> TableRecord:
    """``table`` as stored at ``rev``."""
    return replace(table, rev=rev)


async def _lock_table(c: Conn, table_id: int) -> int:
    """Lock the table's row for this transaction; its rev (``KeyError`` when there is no such table)."""
    rev = await c.fetchval("SELECT rev FROM tables WHERE table_id = $1 FOR UPDATE", table_id)
    if rev is None:
        raise KeyError(table_id)
    return int(rev)


async def _update_table(c: Conn, row: Row) -> int:
    """Write the table row if its stored rev is the row's; the new rev (else :class:`TableConflict`)."""
    table_id, rev = row[0], row[-1]
    new = await c.fetchval(_UPDATE_TABLE, table_id, *row[1:-1], rev)
    if new is None:
        stored = await c.fetchval("SELECT rev FROM tables WHERE table_id = $1", table_id)
        if stored is None:
            raise KeyError(table_id)
        raise TableConflict(table_id, rev, stored)
    return int(new)


async def _append(c: Conn, action: ActionRecord, arow: Row) -> None:
    """Insert the action if its seq is the log's next one (else :class:`VersionConflict`)."""
    await _lock_table(c, action.table_id)  # appends to one table queue here, across processes
    last = await c.fetchval("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = $1", action.table_id)
    if action.seq != last + 1:
        raise VersionConflict(f"table {action.table_id}: seq {action.seq}, log has {last}")
    await c.execute("INSERT INTO actions VALUES ($1, $2, $3, $4, $5, $6)", *arow)


def _match_writer(result: MatchResult) -> Callable[[Conn], Awaitable[None]]:
    """A function that writes the match, its result rows and its players' new ratings."""
    scores = dumps(result.scores)
    rows = result_rows(result)
    people = sorted(rated_players(result.results))

    async def write(c: Conn) -> None:
        await c.execute("INSERT INTO matches VALUES ($1, $2, $3, $4, $5)",
                        result.table_id, result.chat_id, result.game, result.finished_at, scores)
        await c.executemany("INSERT INTO match_results VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", rows)
        await season_store.record_season(_sql(c), result)  # locks the league before any rating
        for scope in sorted({result.chat_id, GLOBAL}):  # one fixed lock order: scope, then player id
            current = await _lock_ratings(c, scope, result.game, people)
            new = rate_match(result.game, result.results, current)
            await c.executemany("UPDATE ratings SET mu = $4, sigma = $5 WHERE scope = $1 AND game = $2 "
                                "AND player_id = $3",
                                [(scope, result.game, pid, r.mu, r.sigma) for pid, r in sorted(new.items())])

    return write


async def _lock_ratings(c: Conn, scope: str, game: str, people: Iterable[str]) -> dict[str, Rating]:
    """The players' ratings, their rows locked (created at the default first), in player id order."""
    ids = sorted(people)
    default = Rating()
    await c.execute("INSERT INTO ratings (scope, game, player_id, mu, sigma) "
                    "SELECT $1, $2, p, $4, $5 FROM unnest($3::text[]) AS p ORDER BY p "
                    "ON CONFLICT DO NOTHING", scope, game, ids, default.mu, default.sigma)
    rows = await c.fetch("SELECT player_id, mu, sigma FROM ratings WHERE scope = $1 AND game = $2 "
                         "AND player_id = ANY($3::text[]) ORDER BY player_id FOR UPDATE", scope, game, ids)
    return {pid: Rating(mu, sigma) for pid, mu, sigma in rows}


def _rating(mu: float | None, sigma: float | None) -> Rating:
    return Rating() if mu is None or sigma is None else Rating(mu, sigma)


def _sql(c: Conn) -> season_store.Sql:
    """``c`` for :mod:`storage.season_store`."""
    return season_store.Sql(lambda sql, args: c.fetch(sql, *args), lambda sql, args: c.execute(sql, *args),
                            postgres=True)
