"""Moving a whole database between backends: SQLite → PostgreSQL (or back), through a JSON-lines file.

``export_database(repo, out)`` writes one header line, then one line per row: ``["tables", [...]]``,
table by table in an order that keeps foreign keys satisfied. ``import_database(repo, lines)``
loads such a file into an EMPTY database in one transaction (ids kept; PostgreSQL's id sequence is
moved past them), so a failed import leaves nothing behind. The columns are the same on every
backend (``storage/migrations``), and values are the stored ones (JSON columns stay JSON text).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

import aiosqlite

from storage.errors import StorageError
from storage.postgres import PostgresRepository
from storage.rows import TABLE_COLUMNS, Row, dumps, split_legacy_ids
from storage.sqlite import SQLiteRepository

FORMAT = "majlis-export"
VERSION = 1
#: Every table with its columns, parents before children.
TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "chats": ("chat_id", "lang", "turn_seconds", "digits", "default_options", "ai_level", "hands", "notify"),
    "players": ("player_id", "name", "lang", "dm_ok", "turn_ping"),
    "subscriptions": ("chat_id", "player_id", "since"),
    "tables": (*TABLE_COLUMNS.split(", "), "owner", "lease_until"),
    "actions": ("table_id", "seq", "seat", "action", "actor", "at"),
    "snapshots": ("table_id", "seq", "state"),
    "matches": ("table_id", "chat_id", "game", "finished_at", "scores"),
    "match_results": ("table_id", "idx", "player_id", "seat", "score", "won", "left_", "counted"),
    "ratings": ("scope", "game", "player_id", "mu", "sigma"),
    "leagues": ("league", "length_days", "min_matches", "ai_counts"),
    "seasons": ("league", "number", "starts_at", "ends_at", "closed_at"),
    "season_matches": ("table_id", "league", "number", "counts"),
    "rating_changes": ("table_id", "player_id", "rating_before", "rating_after", "matches"),
    "champions": ("league", "number", "game", "player_id", "rating", "matches", "wins"),
    "tournaments": ("tournament_id", "chat_id", "game", "format", "pairing", "organiser", "organiser_name", "status",
                    "created_at", "checkin_at", "start_at", "round_minutes", "ai_allowed", "options", "lang",
                    "message_id", "next_at", "rev", "review_minutes"),
    "tournament_players": ("tournament_id", "player_id", "name", "registered_at", "checked_in", "entry"),
    "tournament_entries": ("tournament_id", "number", "players", "ai", "disqualified"),
    "tournament_rounds": ("tournament_id", "number", "opened_at", "deadline", "closed_at"),
    "tournament_matches": ("tournament_id", "round", "slot", "entry_a", "entry_b", "status", "table_id", "ready",
                           "winner", "how", "decided_at", "review_until", "flagged_by", "flag_reason", "pool",
                           "pool_scores", "pool_points"),
    "tournament_audit": ("tournament_id", "seq", "at", "actor", "action", "detail"),
    "challenges": ("challenge_id", "chat_id", "game", "boards", "seed", "creator", "created_at", "ends_at",
                   "closed_at", "lang"),
    "challenge_boards": ("challenge_id", "player_id", "name", "board", "table_id", "score", "tricks", "bid",
                         "done_at"),
}
#: A ``tables`` row of an export written before a table's own state left ``message_ids`` (schema
#: 6 on SQLite, 3 on PostgreSQL) lacks the three columns of that state; it is read and converted.
_LEGACY_TABLE_WIDTH = len(TABLES["tables"]) - 3
_MESSAGE_IDS = TABLES["tables"].index("message_ids")
#: A ``chats`` row of an export written before a chat chose where its hands go (schema 7 on SQLite,
#: 4 on PostgreSQL) lacks ``hands`` and ``notify``; one written before notifications (schema 9 on
#: SQLite, 6 on PostgreSQL) lacks ``notify``; a ``players`` row of then lacks ``turn_ping``. They get
#: the defaults, as the migrations give them (and such an export has no ``subscriptions``).
_LEGACY_CHAT_DEFAULTS: dict[int, list[Any]] = {len(TABLES["chats"]) - 2: ["both", 0], len(TABLES["chats"]) - 1: [0]}
_LEGACY_PLAYER_WIDTH = len(TABLES["players"]) - 1
_PARKED = TABLES["tables"].index("parked")
#: Tournament rows of an export written before the review window (schema 12 on SQLite, 9 on PostgreSQL)
#: lack its columns; they get the migration's defaults (no window, nobody disqualified, nothing flagged).
#: Match rows written before Trix pools (schema 13 on SQLite, 10 on PostgreSQL) lack the pool's three
#: columns (a pair's match: empty lists); older ones lack both sets. A row gets the tail it lacks.
_LEGACY_TOURNAMENT_DEFAULTS: dict[str, list[Any]] = {"tournaments": [0], "tournament_entries": [0],
                                                     "tournament_matches": [None, None, "", "[]", "[]", "[]"]}
_LEGACY_TOURNAMENT_GAPS: dict[str, tuple[int, ...]] = {"tournaments": (1,), "tournament_entries": (1,),
                                                       "tournament_matches": (3, 6)}
_KEYS = {"meta": "key", "chats": "chat_id", "players": "player_id", "tables": "table_id",
         "actions": "table_id, seq", "snapshots": "table_id", "matches": "table_id",
         "match_results": "table_id, idx", "ratings": "scope, game, player_id", "leagues": "league",
         "seasons": "league, number", "season_matches": "table_id", "rating_changes": "table_id, player_id",
         "champions": "league, number, game", "subscriptions": "chat_id, player_id",
         "tournaments": "tournament_id", "tournament_players": "tournament_id, player_id",
         "tournament_entries": "tournament_id, number", "tournament_rounds": "tournament_id, number",
         "tournament_matches": "tournament_id, round, slot", "tournament_audit": "tournament_id, seq",
         "challenges": "challenge_id", "challenge_boards": "challenge_id, player_id, board"}

Repo = SQLiteRepository | PostgresRepository


class NotEmpty(StorageError):
    """An import was aimed at a database that already holds tables, chats or players."""


class BadExport(StorageError):
    """The file is not a Majlis export (or not one this version reads)."""


async def _rows(repo: Repo, name: str) -> list[Row]:
    sql = f"SELECT {', '.join(TABLES[name])} FROM {name} ORDER BY {_KEYS[name]}"
    if isinstance(repo, SQLiteRepository):
        return [tuple(r) for r in await repo._call(lambda c: c.execute_fetchall(sql))]
    return [tuple(r) for r in await repo._read(lambda c: c.fetch(sql))]


async def export_database(repo: Repo, out: TextIO) -> dict[str, int]:
    """Write every row of ``repo`` to ``out``; the number of rows per table."""
    out.write(json.dumps({"format": FORMAT, "version": VERSION, "schema": repo.schema_version}) + "\n")
    counts = {}
    for name in TABLES:
        rows = await _rows(repo, name)
        for row in rows:
            out.write(json.dumps([name, list(row)], ensure_ascii=False, allow_nan=False) + "\n")
        counts[name] = len(rows)
    return counts


def read_export(lines: Iterable[str]) -> Iterator[tuple[str, Row]]:
    """The rows of an export file, checked line by line."""
    it = iter(lines)
    try:
        header = json.loads(next(it))
    except (StopIteration, json.JSONDecodeError):
        raise BadExport("not a Majlis export: the first line is not its header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("version") != VERSION:
        raise BadExport(f"not a Majlis export of version {VERSION}: {str(header)[:80]}")
    for number, line in enumerate(it, start=2):
        if not line.strip():
            continue
        try:
            name, row = json.loads(line)
        except (json.JSONDecodeError, ValueError, TypeError):
            raise BadExport(f"line {number}: not a row") from None
        if name == "tables" and isinstance(row, list) and len(row) == _LEGACY_TABLE_WIDTH:
            row = _upgrade_table_row(row, number)
        if name == "chats" and isinstance(row, list) and len(row) in _LEGACY_CHAT_DEFAULTS:
            row = [*row, *_LEGACY_CHAT_DEFAULTS[len(row)]]
        if name == "players" and isinstance(row, list) and len(row) == _LEGACY_PLAYER_WIDTH:
            row = [*row, None]
        added = _LEGACY_TOURNAMENT_DEFAULTS.get(name)
        if added is not None and isinstance(row, list) \
                and len(TABLES[name]) - len(row) in _LEGACY_TOURNAMENT_GAPS[name]:
            row = [*row, *added[len(row) - len(TABLES[name]):]]
        if name not in TABLES or not isinstance(row, list) or len(row) != len(TABLES[name]):
            raise BadExport(f"line {number}: not a row of a known table")
        yield name, tuple(row)


def _upgrade_table_row(row: list[Any], number: int) -> list[Any]:
    """A ``tables`` row of an older export with its ``message_ids`` split as the migrations split them."""
    try:
        ids, parked, left, shown = split_legacy_ids(json.loads(row[_MESSAGE_IDS]))
    except (TypeError, ValueError, AttributeError):
        raise BadExport(f"line {number}: a table's message_ids are not what an export holds") from None
    return [*row[:_MESSAGE_IDS], dumps(ids), *row[_MESSAGE_IDS + 1:_PARKED], parked, dumps(left), dumps(shown),
            *row[_PARKED:]]


async def import_database(repo: Repo, rows: Iterable[tuple[str, Row]]) -> dict[str, int]:
    """Load exported rows into ``repo``, which must hold no table, chat or player; rows per table."""
    by_table: dict[str, list[Row]] = {name: [] for name in TABLES}
    for name, row in rows:
        by_table[name].append(row)
    if isinstance(repo, SQLiteRepository):
        await repo._write(lambda c: _load_sqlite(c, by_table))
    else:
        async def load(c: Any) -> None:
            await _refuse_if_not_empty_pg(c)
            for name, cols in TABLES.items():
                if by_table[name]:
                    marks = ", ".join(f"${i + 1}" for i in range(len(cols)))
                    conflict = " ON CONFLICT (key) DO UPDATE SET value = excluded.value" if name == "meta" else ""
                    await c.executemany(f"INSERT INTO {name} ({', '.join(cols)}) VALUES ({marks}){conflict}",
                                        by_table[name])
            await c.execute("SELECT setval(pg_get_serial_sequence('tables', 'table_id'), "
                            "COALESCE((SELECT MAX(table_id) FROM tables), 0) + 1, false)")
            await c.execute("SELECT setval(pg_get_serial_sequence('tournaments', 'tournament_id'), "
                            "COALESCE((SELECT MAX(tournament_id) FROM tournaments), 0) + 1, false)")
            await c.execute("SELECT setval(pg_get_serial_sequence('challenges', 'challenge_id'), "
                            "COALESCE((SELECT MAX(challenge_id) FROM challenges), 0) + 1, false)")

        await repo._write(load)
    return {name: len(r) for name, r in by_table.items()}


_FILLED = ("SELECT (SELECT COUNT(*) FROM tables) + (SELECT COUNT(*) FROM chats) + (SELECT COUNT(*) FROM players)")


async def _load_sqlite(c: aiosqlite.Connection, by_table: dict[str, list[Row]]) -> None:
    if next(iter(await c.execute_fetchall(_FILLED)))[0]:
        raise NotEmpty("the target database is not empty: import only into a new one")
    for name, cols in TABLES.items():
        verb = "INSERT OR REPLACE" if name == "meta" else "INSERT"
        await c.executemany(f"{verb} INTO {name} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                            by_table[name])


async def _refuse_if_not_empty_pg(c: Any) -> None:
    if await c.fetchval(_FILLED):
        raise NotEmpty("the target database is not empty: import only into a new one")
