"""Storage figures: appends/s (one caller, many concurrent callers) and restore time of live tables.

    python bench/storage.py [--seconds 3] [--callers 200] [--tables 1000] [--actions 120] [--dir DIR]

Every append is committed when it returns; with group commit, appends that arrive while a commit
is in flight share the next one. Both durability settings are measured: "crash" (the default, WAL
with synchronous=NORMAL: survives kill -9) and "power" (synchronous=FULL: survives a power cut).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage.records import PLAYING, ActionRecord, Seat, TableRecord
from storage.rows import TABLE_COLUMNS, action_row, table_row
from storage.sqlite import DURABILITY, SQLiteRepository

SEATS = (Seat("tg:1", "A"), Seat("tg:2", "B"), Seat("ai:easy:2", "AI", is_ai=True), Seat("tg:4", "D"))


def table(chat: str) -> TableRecord:
    return TableRecord(0, chat, "tarneeb", {"target": 31}, 42, 0, "tg:1", PLAYING, SEATS,
                       message_ids={"table": "12345"}, created_at=time.time())


async def new_tables(repo: SQLiteRepository, n: int) -> list[TableRecord]:
    ids = await asyncio.gather(*(repo.create_table(table(f"tg:-{i}")) for i in range(n)))
    out = []
    for table_id in ids:
        t = await repo.get_table(table_id)
        assert t is not None
        out.append(t)
    return out


async def drive(repo: SQLiteRepository, t: TableRecord, until: float, latencies: list[float]) -> int:
    done = 0
    while time.perf_counter() < until:
        seq = t.version + 1
        moved = replace(t, version=seq, deadline=time.time() + 60)
        start = time.perf_counter()
        t = await repo.append_action(ActionRecord(t.table_id, seq, seq % 4, "play QS", "tg:1", time.time()), moved)
        latencies.append(time.perf_counter() - start)
        done += 1
    return done


async def appends(path: Path, callers: int, seconds: float, group_commit: bool, durability: str = "crash") -> None:
    async with SQLiteRepository(path, group_commit=group_commit, durability=durability) as repo:
        tables = await new_tables(repo, callers)
        commits = repo.commits
        latencies: list[float] = []
        start = time.perf_counter()
        counts = await asyncio.gather(*(drive(repo, t, start + seconds, latencies) for t in tables))
        elapsed = time.perf_counter() - start
        total = sum(counts)
        latencies.sort()
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
        mode = "group commit" if group_commit else "one commit per append"
        mode = f"{durability} ({DURABILITY[durability]}), {mode}"
        print(f"  {callers:4d} caller(s), {mode:40s}: {total / elapsed:8.0f} appends/s, "
              f"{total / max(repo.commits - commits, 1):5.1f} appends/commit, "
              f"latency p50 {p50:.2f} ms, p99 {p99:.2f} ms")


def populate(path: Path, tables: int, actions: int) -> None:
    """Fill a file quickly (no fsync) with live tables and their logs, through the real schema."""
    async def create() -> None:
        async with SQLiteRepository(path, synchronous="OFF"):
            pass

    asyncio.run(create())
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    for i in range(tables):
        row = table_row(replace(table(f"tg:-{i}"), version=actions))
        cur = conn.execute(f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES ({', '.join('?' * len(row))})",
                           (None, *row[1:]))  # the columns named: the lease columns keep their defaults
        tid = cur.lastrowid
        assert tid is not None
        conn.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)",
                         [action_row(ActionRecord(tid, s, s % 4, "play 10H", "tg:1", 1.7e9 + s))
                          for s in range(1, actions + 1)])
    conn.execute("COMMIT")
    conn.close()


async def restore(path: Path, tables: int, actions: int) -> None:
    start = time.perf_counter()
    async with SQLiteRepository(path) as repo:
        opened = time.perf_counter()
        live = await repo.live_tables_with_logs()
        bulk = time.perf_counter()
    assert len(live) == tables and all(len(log) == actions for _, _, log in live)
    async with SQLiteRepository(path) as repo:
        one = time.perf_counter()
        each = await repo.live_tables()
        logs = [await repo.actions(t.table_id) for t in each]
        one_done = time.perf_counter()
    assert sum(len(log) for log in logs) == tables * actions
    print(f"  restore {tables} live tables x {actions} actions: open {1000 * (opened - start):.0f} ms, "
          f"live_tables_with_logs {1000 * (bulk - opened):.0f} ms; "
          f"live_tables + actions() per table {1000 * (one_done - one):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--callers", type=int, default=200)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=120)
    parser.add_argument("--dir", type=Path, default=None, help="where the files go (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"SQLite {sqlite3.sqlite_version}, WAL, files in {folder}")
        for durability in DURABILITY:
            asyncio.run(appends(folder / f"single-{durability}.db", 1, args.seconds, True, durability))
            asyncio.run(appends(folder / f"many-{durability}.db", args.callers, args.seconds, True, durability))
            asyncio.run(appends(folder / f"plain-{durability}.db", args.callers, args.seconds, False, durability))
        populate(folder / "restore.db", args.tables, args.actions)
        asyncio.run(restore(folder / "restore.db", args.tables, args.actions))


if __name__ == "__main__":
    main()
