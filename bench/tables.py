"""N concurrent AI tables in one process on durable SQLite storage, no pacing.

    python bench/tables.py --tables 1000 --seconds 10

Prints actions/s, the p50/p99 latency of one action (table lock → engine → commit → notification),
memory per live table, and the time to restore N live tables from the file.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai import LegalPlayer, ai_player
from bot.ai.base import Player
from bot.manager import TableManager
from bot.settings import ManagerSettings
from bot.types import Person, TableUpdate
from storage.sqlite import SQLiteRepository


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def open_repo(path: Path, synchronous: str) -> SQLiteRepository:
    repo = SQLiteRepository(path, synchronous=synchronous)
    await repo.open()
    return repo


async def run(args: argparse.Namespace) -> None:
    tmp = tempfile.TemporaryDirectory(prefix="majlis-bench-")
    db = Path(args.db) if args.db else Path(tmp.name) / "bench.db"
    player: Player = LegalPlayer() if args.ai == "legal" else ai_player(args.ai)
    latencies: list[float] = []
    measuring = False

    def sink(seconds: float) -> None:
        if measuring:
            latencies.append(seconds)

    settings = ManagerSettings(ai_delay=0.0, latency_sink=sink)
    repo = await open_repo(db, args.synchronous)
    manager = TableManager(repo, settings=settings, ai=lambda level: player)
    notified = 0

    async def listener(update: TableUpdate) -> None:
        nonlocal notified
        notified += 1

    manager.subscribe(listener)
    await manager.start()

    t0 = time.perf_counter()
    people = [Person(f"bench:p{i}", f"P{i}") for i in range(args.tables)]
    chats = [f"bench:{i}" for i in range(args.tables)]
    await asyncio.gather(*(manager.create(c, p, args.game) for c, p in zip(chats, people, strict=True)))
    await asyncio.gather(*(manager.begin(c, p) for c, p in zip(chats, people, strict=True)))
    await asyncio.gather(*(manager.leave(c, p) for c, p in zip(chats, people, strict=True)))
    setup = time.perf_counter() - t0
    print(f"setup: {args.tables} tables created, started and handed to AI in {setup:.2f} s")

    commits0 = repo.commits
    measuring = True
    start = time.perf_counter()
    await asyncio.sleep(args.seconds)
    measuring = False
    elapsed = time.perf_counter() - start
    count = len(latencies)
    commits = repo.commits - commits0
    await manager.close()
    live = len(await repo.live_tables())
    await repo.close()

    print(f"actions: {count} in {elapsed:.1f} s = {count / elapsed:,.0f} actions/s "
          f"({commits} commits, {count / max(commits, 1):.1f} actions per commit; synchronous={args.synchronous})")
    print(f"latency of one action (lock -> engine -> commit -> notification): "
          f"p50 {percentile(latencies, 0.5) * 1e3:.2f} ms, p99 {percentile(latencies, 0.99) * 1e3:.2f} ms, "
          f"mean {statistics.fmean(latencies) * 1e3 if latencies else float('nan'):.2f} ms")

    # restore: time a cold start on the file with every table live
    repo2 = await open_repo(db, args.synchronous)
    restored = TableManager(repo2, settings=ManagerSettings(ai_delay=0.0), ai=lambda level: player)
    t1 = time.perf_counter()
    await restored.start()
    restore_s = time.perf_counter() - t1
    await restored._sched.close()  # stop the AI before it changes anything (bench only)
    await repo2.close()
    print(f"restore: {live} live tables in {restore_s:.2f} s")

    # memory per live table, measured on another restore
    gc.collect()
    repo3 = await open_repo(db, args.synchronous)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    again = TableManager(repo3, settings=ManagerSettings(ai_delay=0.0), ai=lambda level: player)
    await again.start()
    await again._sched.close()
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    await repo3.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: {used / max(live, 1) / 1024:.1f} KiB per live table (Python heap), peak RSS {rss:.0f} MiB")
    tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the measured window")
    parser.add_argument("--game", default="trix", choices=["trix", "tarneeb41", "tarneeb"])
    parser.add_argument("--ai", default="legal", help="legal (random legal moves), easy, normal, strong")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL", "OFF"])
    parser.add_argument("--db", default="", help="SQLite file (default: a temporary one)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
