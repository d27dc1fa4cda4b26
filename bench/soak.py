"""Soak: many thousands of tables through the manager, presenter and outbox on a fake clock.

    python bench/soak.py --tables 5000 --concurrent 200

Each table sits in one of ``--chats`` Telegram-shaped groups (reused round-robin) with a new
person at seat 0 who never acts: their turn times out twice, the AI takes the seat over while
they are "away" (so their hand keeps going to their private chat), and the AI plays the match out.
Everything the presenter queues goes through the real outboxes at Telegram's budgets on the fake
clock, to a transport that accepts everything. Storage is a real SQLite file (on disk, so that
the process's memory shows only what the bot keeps). Prints the resident memory (RSS) and the
sizes of the bot's maps at intervals, then start / middle / end: it must level off, not climb.
``--trace FRAMES`` also runs ``tracemalloc`` (from ``--trace-after`` finished tables on) and prints,
at the end, the lines whose allocations grew most between the first traced checkpoint and the last
one (what to bound if memory climbs).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import ai_player
from bench.tables import CountingTransport
from bot.core.clock import FakeClock
from bot.core.manager import TableManager
from bot.core.model import Person, TableUpdate
from bot.core.settings import ManagerSettings
from bot.present.presenter import Presenter
from storage.sqlite import SQLiteRepository


def rss_mib() -> float:
    """The process's resident memory now (Linux ``/proc``; peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # pragma: no cover
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sizes(manager: TableManager, presenter: Presenter) -> dict[str, int]:
    """How much the long-lived maps hold (the ones that used to grow without bound)."""
    hub = presenter.hubs["tg"]
    m: Any = manager
    sched: Any = m.turns.sched
    return {
        "tables": len(m.registry.tables),
        "chats": len(m.registry.chat_tables),
        "locks": len(m.registry._chat_locks),
        "queues": len(m.publisher._queues),
        "timers": len(sched._heap),
        "outboxes": len(hub.outboxes),
        "ids": sum(len(b.message_ids) for b in hub.outboxes.values()),
        "hub_tables": len(hub._tables),
        "players": len(presenter._players),
        "seen": len(presenter._seen),
    }


async def run(args: argparse.Namespace) -> None:
    tmp = tempfile.TemporaryDirectory(prefix="majlis-soak-")
    repo = SQLiteRepository(Path(tmp.name) / "soak.db", synchronous="OFF")
    await repo.open()
    clock = FakeClock()
    player = ai_player(args.ai)
    manager = TableManager(repo, clock=clock, ai=lambda level: player, settings=ManagerSettings(
        ai_delay=0.0, default_turn_seconds=args.turn, lobby_timeout=1e9))
    transport = CountingTransport()
    presenter = Presenter(manager, {"tg": transport}, clock=clock)
    finished = 0
    live: set[str] = set()

    async def on_update(update: TableUpdate) -> None:
        nonlocal finished
        if update.reason == "ended":
            finished += 1
            live.discard(update.snapshot.table.chat_id)

    manager.subscribe(on_update)
    await manager.start()
    chats = [f"tg:-100{5_000_000 + i}" for i in range(args.chats)]
    next_chat, opened = 0, 0
    samples: list[tuple[int, float, dict[str, int]]] = []
    report_every = max(1, args.tables // args.reports)
    next_report = 0
    wall0 = time.perf_counter()
    traces: list[tracemalloc.Snapshot] = []
    print(f"soak: {args.tables} {args.game} tables, {args.concurrent} at a time in {args.chats} groups, "
          f"rule AI, turn timer {args.turn} s (fake clock), Telegram budgets, SQLite on disk")
    while finished < args.tables and time.perf_counter() - wall0 < args.seconds:
        while len(live) < args.concurrent and opened < args.tables:
            chat = chats[next_chat % len(chats)]
            next_chat += 1
            if chat in live or manager.table_in_chat(chat) is not None:
                continue
            person = Person(f"tg:{10_000_000 + opened}", f"P{opened}")
            opened += 1
            await manager.create(chat, person, args.game, {"target": 1} if args.game == "tarneeb41" else None)
            await manager.begin(chat, person)
            live.add(chat)
        clock.advance(args.step)
        for _ in range(3):
            await asyncio.sleep(0)
        await asyncio.sleep(0.001)  # the SQLite thread's commits
        if args.trace and not tracemalloc.is_tracing() and finished >= args.trace_after:
            tracemalloc.start(args.trace)  # after the warm-up: what grows once the caches are full
        if finished >= next_report:
            while next_report <= finished:
                next_report += report_every
            gc.collect()
            sample = (finished, rss_mib(), {**sizes(manager, presenter), "objects": len(gc.get_objects()),
                                               "blocks": sys.getallocatedblocks()})
            samples.append(sample)
            extra = " ".join(f"{k}={v}" for k, v in sample[2].items())
            traced = ""
            if tracemalloc.is_tracing():
                traces.append(tracemalloc.take_snapshot())
                traced = f"  traced {tracemalloc.get_traced_memory()[0] / 2**20:6.1f} MiB"
            print(f"  finished {finished:6d}  fake time {(clock.now() - 1.8e9) / 3600:6.2f} h  "
                  f"RSS {sample[1]:7.1f} MiB{traced}  {extra}", flush=True)
    await manager.close()
    await presenter.close()
    await repo.close()
    tmp.cleanup()
    if len(traces) >= 2:
        print("allocations that grew most between the first traced checkpoint and the last:")
        for stat in traces[-1].compare_to(traces[0], "lineno")[:args.top]:
            print(f"  {stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+8d} blocks  {stat.traceback[0]}")
    if len(samples) >= 3:
        start, middle, end = samples[1], samples[len(samples) // 2], samples[-1]  # [0] is before any table
        print(f"RSS start {start[1]:.1f} MiB (after {start[0]} tables), middle {middle[1]:.1f} MiB "
              f"(after {middle[0]}), end {end[1]:.1f} MiB (after {end[0]}); "
              f"growth middle→end {end[1] - middle[1]:+.1f} MiB; sent {transport.sends + transport.edits} "
              f"messages; wall {time.perf_counter() - wall0:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--concurrent", type=int, default=200)
    parser.add_argument("--chats", type=int, default=1000, help="groups, reused round-robin")
    parser.add_argument("--game", default="tarneeb41", choices=["tarneeb41", "tarneeb", "trix"])
    parser.add_argument("--ai", default="easy")
    parser.add_argument("--turn", type=int, default=2, help="turn timer of the person who never acts (fake s)")
    parser.add_argument("--step", type=float, default=0.5, help="fake seconds per loop")
    parser.add_argument("--reports", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=900.0, help="stop after this much real time")
    parser.add_argument("--trace", type=int, default=0, metavar="FRAMES",
                        help="run tracemalloc with this many frames and print what grew (slower)")
    parser.add_argument("--trace-after", type=int, default=0, metavar="TABLES",
                        help="start tracing once this many tables finished (after the warm-up)")
    parser.add_argument("--top", type=int, default=12, help="lines of --trace output")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
