"""Scale-out: actions/s and latency with 1, 2 and 4 bot processes on one PostgreSQL, against 1 on SQLite.

    python bench/scale.py [--tables 200] [--seconds 6] [--processes 1,2,4]

Every process is a real ``TableManager`` (engine, storage, AI, notifications; no chat adapter)
in its own interpreter, with its share of ``--tables`` live tables whose seats the quick legal
AI plays with no pacing (a closed loop: each table always has its next move ready, so the
latency of one action, lock → engine → commit → notification, includes the queueing). The
processes share one database: a fresh SQLite file, or a fresh schema on a PostgreSQL server
(``MAJLIS_TEST_PG``, else one started here from /usr/lib/postgresql as for the tests). Each
process owns its tables by lease (``ManagerSettings.owner``). Figures: the actions of all
processes in the measured window, and the p50/p99 of every action's latency, merged.
On this 2-core machine more than two busy processes cannot add CPU; the figures say so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._stats import percentile

ROOT = Path(__file__).resolve().parents[1]


async def worker(db: str, name: str, tables: int, warmup: float, seconds: float) -> None:
    from ai import LegalPlayer
    from bot.core.manager import TableManager
    from bot.core.model import Person
    from bot.core.service import routed
    from bot.core.settings import ManagerSettings, tune_gc
    from storage import open_repository

    latencies: list[float] = []
    measuring = False

    def sink(s: float) -> None:
        if measuring:
            latencies.append(s)

    repo = await open_repository(db)
    player = LegalPlayer()
    settings = ManagerSettings(ai_delay=0.0, latency_sink=sink, owner=name)
    manager = TableManager(repo, router=routed, settings=settings, ai=lambda level: player)
    await manager.start()
    people = [Person(f"{name}:p{i}", f"P{i}") for i in range(tables)]
    chats = [f"{name}:{i}" for i in range(tables)]
    for chat, person in zip(chats, people, strict=True):
        await manager.create(chat, person, "tarneeb41")
        await manager.begin(chat, person)
        await manager.leave(chat, person)
    tune_gc()
    print("ready", flush=True)
    sys.stdin.readline()  # the parent starts every process's window at once
    await asyncio.sleep(warmup)
    measuring = True
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    measuring = False
    elapsed = time.perf_counter() - start
    print(json.dumps({"elapsed": elapsed, "latencies": latencies}), flush=True)
    await manager.close()
    await repo.close()


def run_config(label: str, db: str, processes: int, tables: int, warmup: float, seconds: float) -> str:
    per = max(1, tables // processes)
    children = [subprocess.Popen(
        [sys.executable, __file__, "--worker", db, f"w{i}", str(per), str(warmup), str(seconds)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT) for i in range(processes)]
    try:
        for child in children:
            assert child.stdout is not None
            line = child.stdout.readline()
            if line.strip() != "ready":
                raise RuntimeError(f"a worker did not start: {line!r}")
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        results = []
        for child in children:
            out, _ = child.communicate(timeout=warmup + seconds + 120)
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    lat = [x for r in results for x in r["latencies"]]
    elapsed = max(r["elapsed"] for r in results)
    return (f"  {label:24s} {processes} process{'es' if processes > 1 else '  '}, {per * processes:4d} tables: "
            f"{len(lat) / elapsed:8,.0f} actions/s, latency p50 {percentile(lat, 0.5) * 1e3:6.2f} ms, "
            f"p99 {percentile(lat, 0.99) * 1e3:7.2f} ms")


def fresh_schema(url: str, name: str) -> str:
    import asyncpg

    async def make() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
            await conn.execute(f"CREATE SCHEMA {name}")
        finally:
            await conn.close()

    asyncio.run(make())
    return f"{url}{'&' if '?' in url else '?'}search_path={name}"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        db, name, tables, warmup, seconds = sys.argv[2:7]
        asyncio.run(worker(db, name, int(tables), float(warmup), float(seconds)))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="live tables in all (split among the processes)")
    parser.add_argument("--seconds", type=float, default=6.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=1.5)
    parser.add_argument("--processes", default="1,2,4", help="PostgreSQL process counts to run")
    args = parser.parse_args()
    from tests import pg

    counts = [int(x) for x in args.processes.split(",")]
    print(f"{args.tables} tarneeb41 tables played by the legal AI without pacing, {args.seconds:.0f} s windows, "
          f"{os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="majlis-scale-") as tmp:
        print(run_config("SQLite (WAL, NORMAL)", str(Path(tmp) / "scale.db"), 1, args.tables, args.warmup,
                         args.seconds), flush=True)
    server = pg.server()
    if server is None:
        print(f"  PostgreSQL: not available ({'; '.join(pg.UNAVAILABLE)})")
        return
    try:
        for n in counts:
            url = fresh_schema(server.url, f"scale{n}")
            print(run_config("PostgreSQL", url, n, args.tables, args.warmup, args.seconds), flush=True)
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
