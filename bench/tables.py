"""N concurrent AI tables in one process on durable SQLite storage.

    python bench/tables.py --tables 1000 --seconds 8

1. throughput: every table's AI moves with no pacing at all (closed loop): actions/s, and the
   latency of one action (table lock → engine → commit → notification). With no pacing every
   table always waits for its next commit, so this latency is mostly queueing (Little's law).
2. restore: the time for a fresh manager to restore the N live tables from the file.
3. latency under a set load: the restored tables, paced so that together they offer ``--rate``
   actions/s (each AI waits tables/rate seconds, ±50 %): p50/p99 of one action.
4. memory per live table (Python heap, tracemalloc) on one more restore.
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

from bench._stats import percentile
from bot.ai import LegalPlayer, ai_player
from bot.ai.base import Player
from bot.manager import TableManager
from bot.settings import ManagerSettings, tune_gc
from bot.types import Person, TableUpdate
from storage.sqlite import SQLiteRepository


class Probe:
    """Collects action latencies while switched on, and counts notifications."""

    def __init__(self) -> None:
        self.on = False
        self.latencies: list[float] = []
        self.notified = 0
        self.cpu = 0.0

    def sink(self, seconds: float) -> None:
        if self.on:
            self.latencies.append(seconds)

    async def listener(self, update: TableUpdate) -> None:
        self.notified += 1

    async def window(self, seconds: float) -> float:
        self.latencies.clear()
        self.on = True
        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.sleep(seconds)
        self.on = False
        self.cpu = time.process_time() - cpu
        return time.perf_counter() - start

    def report(self, label: str, elapsed: float) -> None:
        lat = self.latencies
        mean = statistics.fmean(lat) * 1e3 if lat else float("nan")
        print(f"{label}: {len(lat)} actions in {elapsed:.1f} s = {len(lat) / elapsed:,.0f} actions/s; "
              f"latency p50 {percentile(lat, 0.5) * 1e3:.2f} ms, p99 {percentile(lat, 0.99) * 1e3:.2f} ms, "
              f"mean {mean:.2f} ms")
        if lat:
            per = self.cpu / len(lat)
            print(f"  CPU (all threads) per action: {per * 1e6:.0f} us, i.e. at most {1 / per:,.0f} actions/s "
                  f"per core; the process got {self.cpu / elapsed:.0%} of a core in this window")


async def open_repo(path: Path, synchronous: str) -> SQLiteRepository:
    repo = SQLiteRepository(path, synchronous=synchronous)
    await repo.open()
    return repo


def manager_for(repo: SQLiteRepository, player: Player, probe: Probe, **settings: float | bool) -> TableManager:
    manager = TableManager(repo, settings=ManagerSettings(latency_sink=probe.sink, **settings),  # type: ignore[arg-type]
                           ai=lambda level: player)
    manager.subscribe(probe.listener)
    return manager


async def run(args: argparse.Namespace) -> None:
    tmp = tempfile.TemporaryDirectory(prefix="majlis-bench-")
    db = Path(args.db) if args.db else Path(tmp.name) / "bench.db"
    player: Player = LegalPlayer() if args.ai == "legal" else ai_player(args.ai)
    print(f"{args.tables} {args.game} tables, AI {args.ai}, SQLite synchronous={args.synchronous}, "
          f"gc {args.gc}, {db}")

    # 1. throughput, no pacing
    probe = Probe()
    repo = await open_repo(db, args.synchronous)
    manager = manager_for(repo, player, probe, ai_delay=0.0)
    await manager.start()
    t0 = time.perf_counter()
    people = [Person(f"bench:p{i}", f"P{i}") for i in range(args.tables)]
    chats = [f"bench:{i}" for i in range(args.tables)]
    await asyncio.gather(*(manager.create(c, p, args.game) for c, p in zip(chats, people, strict=True)))
    await asyncio.gather(*(manager.begin(c, p) for c, p in zip(chats, people, strict=True)))
    await asyncio.gather(*(manager.leave(c, p) for c, p in zip(chats, people, strict=True)))
    print(f"setup: created, started and handed to the AI in {time.perf_counter() - t0:.2f} s")
    if args.gc == "tuned":
        tune_gc()
    commits0 = repo.commits
    elapsed = await probe.window(args.seconds)
    commits = repo.commits - commits0
    count = len(probe.latencies)
    probe.report("throughput (no pacing)", elapsed)
    print(f"  {commits} commits, {count / max(commits, 1):.1f} actions per commit (group commit)")
    await manager.close()
    await repo.close()

    # 2. restore, 3. latency at a set load
    probe = Probe()
    repo = await open_repo(db, args.synchronous)
    live = len(await repo.live_tables())
    delay = args.tables / args.rate
    manager = manager_for(repo, player, probe, ai_delay=delay, ai_jitter=0.5, fast_forward_unwatched=False)
    t1 = time.perf_counter()
    await manager.start()
    print(f"restore: {live} live tables in {time.perf_counter() - t1:.2f} s")
    if args.gc == "tuned":
        tune_gc()
    await asyncio.sleep(delay * 1.5)  # let the paced moves spread out
    elapsed = await probe.window(args.seconds)
    probe.report(f"paced at {args.rate:,.0f} actions/s offered (AI delay {delay:.2f} s ±50 %)", elapsed)
    await manager.close()
    await repo.close()

    # 4. memory per live table
    gc.collect()
    repo = await open_repo(db, args.synchronous)
    live = len(await repo.live_tables())
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    manager = manager_for(repo, player, Probe(), ai_delay=3600.0, fast_forward_unwatched=False)
    await manager.start()
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    await manager.close()
    await repo.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: {used / max(live, 1) / 1024:.1f} KiB per live table (Python heap, {live} tables), "
          f"peak RSS of the process {rss:.0f} MiB")
    tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each measured window")
    parser.add_argument("--rate", type=float, default=2000.0, help="offered load of the paced phase")
    parser.add_argument("--game", default="trix", choices=["trix", "tarneeb41", "tarneeb"])
    parser.add_argument("--ai", default="legal", help="legal (random legal moves), easy, normal, strong")
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL", "OFF"])
    parser.add_argument("--db", default="", help="SQLite file (default: a temporary one)")
    parser.add_argument("--gc", default="tuned", choices=["tuned", "default"],
                        help="tuned: bot.settings.tune_gc() after setup and after the restore")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
