"""N concurrent AI tables in one process on durable SQLite, with the real presenter and renderer.

    python bench/tables.py --tables 1000 --seconds 8
    python bench/tables.py --tables 1000 --synchronous FULL   # durability "power"

Every table sits in a Telegram-shaped group (``tg:-100…``) whose messages go through the real
:class:`~bot.present.presenter.Presenter`, renderer and outbox, at Telegram's real budgets on real time,
to a transport that only counts what it is asked to send. The rule AI (``--ai easy``) chooses
every move.

1. one table alone: the cost of one action end to end in process, p50/p99, with nothing else
   running: four people at one table, each move chosen by the rule AI (not timed) and applied
   through ``manager.act`` (button payload decoded → table lock → engine → commit → the update
   delivered to the presenter, which queues its builders); then the same table played by the AI.
2. throughput: every table's AI moves with no pacing at all (closed loop): actions/s, the latency
   of one action, and how many messages were rendered (with lazy rendering: only those sent).
   With no pacing every table always waits for its next commit, so this latency is mostly
   queueing (Little's law).
3. restore: the time for a fresh manager (and presenter) to restore the N live tables.
4. latency under a set load: the restored tables, paced so that together they offer ``--rate``
   actions/s (each AI waits tables/rate seconds, ±50 %): p50/p99 of one action.
5. memory per live table (Python heap, tracemalloc) on one more restore, presenter attached.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

# bench/telegram.py would be found as `telegram` (python-telegram-bot), and bot.adapters.telegram.transport's
# budgets would not import: keep this folder off the path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import LegalPlayer, ai_player  # noqa: E402
from ai.base import Player  # noqa: E402
from bench._stats import percentile  # noqa: E402
from bot.core.manager import TableManager  # noqa: E402
from bot.core.model import Person, TableUpdate  # noqa: E402
from bot.core.settings import ManagerSettings, tune_gc  # noqa: E402
from bot.present import codec  # noqa: E402
from bot.present.outbox import Budget  # noqa: E402
from bot.present.presenter import Presenter  # noqa: E402
from bot.present.render.message import OutMessage  # noqa: E402
from storage.sqlite import SQLiteRepository  # noqa: E402

GROUP_BUDGET = Budget(20, 60.0)
DM_BUDGET = Budget(1, 1.0)


class CountingTransport:
    """Accepts every send and edit at once and counts them; Telegram's budgets (the real ones when
    ``bot.adapters.telegram.transport`` is importable, else 20/60 s per group and 1/s per DM)."""

    def __init__(self) -> None:
        self.sends = 0
        self.edits = 0
        self._ids = itertools.count(1)
        try:
            from bot.adapters.telegram.transport import DM_BUDGET as dm
            from bot.adapters.telegram.transport import GROUP_BUDGET as group
        except ImportError:  # pragma: no cover
            group, dm = GROUP_BUDGET, DM_BUDGET
        self.group_budget, self.dm_budget = group, dm
        self.real_budgets = group is not GROUP_BUDGET

    def budget(self, dest: str) -> Budget:
        return self.dm_budget if dest.startswith("dm:") else self.group_budget

    async def send(self, dest: str, msg: OutMessage) -> str:
        self.sends += 1
        return str(next(self._ids))

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        self.edits += 1

    async def delete(self, dest: str, message_id: str) -> None:
        return None


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


class Rendered:
    """Counts the messages the presenter actually rendered (wraps the renderers it calls)."""

    def __init__(self) -> None:
        self.count = 0

    def install(self) -> None:
        import bot.present.presenter as p

        for name in ("render_table", "render_lobby", "render_hand"):
            original = getattr(p, name)

            def counted(*a: Any, _f: Any = original, **k: Any) -> Any:
                self.count += 1
                return _f(*a, **k)

            setattr(p, name, counted)


async def open_repo(path: Path, synchronous: str) -> SQLiteRepository:
    repo = SQLiteRepository(path, synchronous=synchronous)
    await repo.open()
    return repo


def manager_for(repo: SQLiteRepository, player: Player, probe: Probe, transport: CountingTransport,
                **settings: float | bool) -> tuple[TableManager, Presenter]:
    manager = TableManager(repo, settings=ManagerSettings(latency_sink=probe.sink, **settings),  # type: ignore[arg-type]
                           ai=lambda level: player)
    presenter = Presenter(manager, {"tg": transport})
    manager.subscribe(probe.listener)
    return manager, presenter


async def start_tables(manager: TableManager, n: int, game: str, first: int = 0) -> None:
    people = [Person(f"tg:{900_000 + i}", f"P{i}") for i in range(first, first + n)]
    chats = [f"tg:-100{7_000_000 + i}" for i in range(first, first + n)]
    await asyncio.gather(*(manager.create(c, p, game) for c, p in zip(chats, people, strict=True)))
    await asyncio.gather(*(manager.begin(c, p) for c, p in zip(chats, people, strict=True)))
    await asyncio.gather(*(manager.leave(c, p) for c, p in zip(chats, people, strict=True)))


async def shut(manager: TableManager, presenter: Presenter, repo: SQLiteRepository) -> None:
    await manager.close()
    await presenter.close()
    await repo.close()


async def run(args: argparse.Namespace) -> None:
    tmp = tempfile.TemporaryDirectory(prefix="majlis-bench-")
    db = Path(args.db) if args.db else Path(tmp.name) / "bench.db"
    player: Player = LegalPlayer() if args.ai == "legal" else ai_player(args.ai)
    rendered = Rendered()
    rendered.install()
    budgets = CountingTransport()
    print(f"{args.tables} {args.game} tables, AI {args.ai}, SQLite synchronous={args.synchronous}, "
          f"gc {args.gc}, presenter + renderer + outbox attached, real time, {db}")
    print(f"  budgets: group {budgets.group_budget}, DM {budgets.dm_budget}"
          + ("" if budgets.real_budgets else " (bot.adapters.telegram.transport did not import: stand-ins)"))

    # 1. one table alone: people acting through manager.act
    probe, transport = Probe(), CountingTransport()
    one_db = db.with_name("one.db")
    repo = await open_repo(one_db, args.synchronous)
    manager, presenter = manager_for(repo, player, probe, transport, ai_delay=0.0, default_turn_seconds=3600)
    await manager.start()
    people = [Person(f"tg:{800_000 + i}", f"H{i}") for i in range(4)]
    chat = "tg:-1008000000"
    await manager.create(chat, people[0], args.game)
    for p in people[1:]:
        await manager.join(chat, p)
    snap = manager.table_in_chat(chat)
    assert snap is not None
    rng, times, r0 = random.Random(1), [], rendered.count
    cpu0, until = time.process_time(), time.perf_counter() + min(args.seconds, 4.0)
    while time.perf_counter() < until and snap.table.status == "playing":
        seat = snap.to_act  # the engine's seat to act (the one asked, in Trix's doubling window)
        assert seat is not None
        move = player.decide(manager.view(snap.table_id, seat), snap.table.game, rng)
        payload = codec.encode("a", snap.table_id, snap.table.version, move)
        started = time.perf_counter()
        press = codec.decode(payload)
        snap = await manager.act(press.table_id, people[seat], press.version or 0, press.arg)
        times.append(time.perf_counter() - started)
        if snap.table.status != "playing":
            await manager.create(chat, people[0], args.game)
            for p in people[1:]:
                await manager.join(chat, p)
            snap = manager.table_in_chat(chat) or snap
    cpu = time.process_time() - cpu0
    print(f"one table, four people (manager.act, presenter attached): {len(times)} actions; end to end "
          f"p50 {percentile(times, 0.5) * 1e3:.2f} ms, p99 {percentile(times, 0.99) * 1e3:.2f} ms; "
          f"CPU {cpu / max(len(times), 1) * 1e6:.0f} us per action (AI choices included)")
    print(f"  rendered {rendered.count - r0} messages for {len(times)} actions; "
          f"sent {transport.sends + transport.edits}")
    await shut(manager, presenter, repo)

    # 1b. one table alone, played by the AI
    probe, transport = Probe(), CountingTransport()
    repo = await open_repo(one_db.with_name("one-ai.db"), args.synchronous)
    manager, presenter = manager_for(repo, player, probe, transport, ai_delay=0.0)
    await manager.start()
    await start_tables(manager, 1, args.game)
    r0 = rendered.count
    elapsed = await probe.window(min(args.seconds, 4.0))
    probe.report("one AI table alone (lock to notification)", elapsed)
    print(f"  rendered {rendered.count - r0} messages for {len(probe.latencies)} actions; "
          f"sent {transport.sends + transport.edits}")
    await shut(manager, presenter, repo)

    # 2. throughput, no pacing
    probe, transport = Probe(), CountingTransport()
    repo = await open_repo(db, args.synchronous)
    manager, presenter = manager_for(repo, player, probe, transport, ai_delay=0.0)
    await manager.start()
    t0 = time.perf_counter()
    await start_tables(manager, args.tables, args.game)
    print(f"setup: created, started and handed to the AI in {time.perf_counter() - t0:.2f} s")
    if args.gc == "tuned":
        tune_gc()
    commits0, r0, s0 = repo.commits, rendered.count, transport.sends + transport.edits
    elapsed = await probe.window(args.seconds)
    commits = repo.commits - commits0
    count = len(probe.latencies)
    probe.report("throughput (no pacing)", elapsed)
    print(f"  {commits} commits, {count / max(commits, 1):.1f} actions per commit (group commit)")
    print(f"  rendered {rendered.count - r0} messages ({(rendered.count - r0) / max(count, 1):.2f} per action), "
          f"sent {transport.sends + transport.edits - s0}")
    await shut(manager, presenter, repo)

    # 3. restore, 4. latency at a set load
    probe, transport = Probe(), CountingTransport()
    repo = await open_repo(db, args.synchronous)
    live = len(await repo.live_tables())
    delay = args.tables / args.rate
    manager, presenter = manager_for(repo, player, probe, transport, ai_delay=delay, ai_jitter=0.5,
                                     fast_forward_unwatched=False)
    t1 = time.perf_counter()
    await manager.start()
    print(f"restore: {live} live tables in {time.perf_counter() - t1:.2f} s")
    if args.gc == "tuned":
        tune_gc()
    await asyncio.sleep(delay * 1.5)  # let the paced moves spread out
    r0 = rendered.count
    elapsed = await probe.window(args.seconds)
    probe.report(f"paced at {args.rate:,.0f} actions/s offered (AI delay {delay:.2f} s ±50 %)", elapsed)
    print(f"  rendered {rendered.count - r0} messages for {len(probe.latencies)} actions")
    await shut(manager, presenter, repo)

    # 5. memory per live table
    gc.collect()
    repo = await open_repo(db, args.synchronous)
    live = len(await repo.live_tables())
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    manager, presenter = manager_for(repo, player, Probe(), CountingTransport(), ai_delay=3600.0,
                                     fast_forward_unwatched=False)
    await manager.start()
    await asyncio.sleep(0.5)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    await shut(manager, presenter, repo)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: {used / max(live, 1) / 1024:.1f} KiB per live table (Python heap, {live} tables, "
          f"presenter attached), peak RSS of the process {rss:.0f} MiB")
    tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each measured window")
    parser.add_argument("--rate", type=float, default=2000.0, help="offered load of the paced phase")
    parser.add_argument("--game", default="trix", choices=["trix", "tarneeb41", "tarneeb"])
    parser.add_argument("--ai", default="easy", help="easy (the rule AI), legal (random legal moves), normal, strong")
    parser.add_argument("--synchronous", default="NORMAL", choices=["FULL", "NORMAL", "OFF"],
                        help="NORMAL: the default durability (crash); FULL: durability power")
    parser.add_argument("--db", default="", help="SQLite file (default: a temporary one)")
    parser.add_argument("--gc", default="tuned", choices=["tuned", "default"],
                        help="tuned: bot.core.settings.tune_gc() after setup and after the restore")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
