"""Many Telegram groups at once through the real PTB Application and the fake Bot API.

Every group has four simulated people who open a table, join through the deep link and press the
move buttons of their private hands as soon as they show some (a new table when a match ends).
They see only what the fake Telegram shows them. Prints the updates the bot handled per second and
the latency from a button press to the bot's ``answerCallbackQuery`` (p50/p99), and what each
group saw of its table, counted by the fake's arrival times: the most calls (sends + edits) in any
rolling 60 s, the longest gap between two updates of the table message while the match went on,
and the delay of the match's final state after its last move.

    python bench/telegram.py --groups 20 --seconds 90              # bot in this process, real time
    python bench/telegram.py --groups 20 --seconds 90 --speed 10   # a 10x clock, figures converted back
    python bench/telegram.py --groups 100 --seconds 90 --process   # `majlis run --telegram`

In-process the outboxes run on real time by default (``--speed 1``): Telegram's budgets (20 per
minute per group, 1 per second per private chat) are the real ones, as the people see them. With
``--speed N`` they run N times faster and the fake server timestamps with the same clock, so every
figure is in the platform's seconds (converted back) while the run takes 1/N of the time; request
latency is stretched N times too, a harsher jitter. With ``--process`` the bot is the real command
in its own process, on real time, and this process holds only the fake server and the people.
Every match that starts is played to its end (up to ``--finish`` more seconds after ``--seconds``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# This file is called telegram.py: keep its folder off the path, or `import telegram` finds it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PTB_TIMEDELTA", "1")

from bench._stats import percentile  # noqa: E402
from tests.adapters.telegram.fake_server import COUNTED_KINDS, TOKEN, FakeMessage, FakeTelegram  # noqa: E402
from tests.adapters.telegram.harness import ScaledClock, choose, join_url_payload  # noqa: E402


class Group:
    """One group and its four people, who see only the fake Telegram."""

    def __init__(self, tg: FakeTelegram, n: int, game: str, options: str) -> None:
        self.tg, self.game, self.options = tg, game, options
        self.chat = -1_002_000_000 - n
        self.people = [tg.add_user(10_000 + 10 * n + i, f"P{n}.{i}", "en") for i in range(4)]
        tg.add_group(self.chat, admins=[self.people[0].user_id])
        self.rng = random.Random(n)
        self.latencies: list[float] = []
        self.refused = 0
        self.matches = 0
        self.commands = 0
        # (table message id, first move, last move) of each finished match, on the fake's clock
        self.finished: list[tuple[int, float, float]] = []
        self.moves: list[float] = []  # when each accepted move was answered, on the fake's clock

    async def open_table(self) -> tuple[int, FakeMessage]:
        """/new, then the three others join through the lobby's deep link."""
        tg = self.tg
        known = {m.message_id for m in tg.bot_messages(self.chat)}
        await tg.say(self.people[0], self.chat, f"/new {self.game} {self.options}")
        lobby = await tg.wait_for(lambda: tg.last_bot_message(
            self.chat, lambda m: m.message_id not in known and any("?start=" in str(b.get("url", ""))
                                                                   for b in m.buttons)), timeout=120)
        payload = join_url_payload(lobby)
        for p in self.people[1:]:
            await tg.start_bot(p, payload)
        self.commands += 4
        return int(payload[1:].split("_", 1)[0]), lobby  # j<table>_<signature>

    @staticmethod
    def over(table: FakeMessage) -> bool:
        """The table message lost its buttons: the match is over (or the table was stopped)."""
        return len(table.history) > 1 and not table.buttons

    async def run(self, until: float, finish: float) -> None:
        while time.monotonic() < until:
            tid, table = await self.open_table()
            first, last = await self.play(tid, table, until + finish)
            if self.over(table):
                self.matches += 1
                self.finished.append((table.message_id, first, last))

    async def play(self, tid: int, table: FakeMessage, until: float) -> tuple[float, float]:
        """Press until the match is over (or ``until``); the fake's time of the first and last move."""
        prefix = f"mj1:a:{tid}:"
        pressed: set[tuple[int, int, int]] = set()
        first = last = float("nan")
        while time.monotonic() < until and not (pressed and self.over(table)):
            acted = False
            for p in self.people:
                m = self.tg.last_bot_message(
                    p.user_id, lambda m: any(str(b.get("callback_data", "")).startswith(prefix) for b in m.buttons))
                if m is None or (p.user_id, m.message_id, len(m.history)) in pressed:
                    continue
                moves = [b["callback_data"] for b in m.buttons if str(b.get("callback_data", "")).startswith(prefix)]
                pressed.add((p.user_id, m.message_id, len(m.history)))
                started = time.perf_counter()
                answer = await self.tg.press(p, m, choose(self.game, moves, self.rng), timeout=120)
                self.latencies.append(time.perf_counter() - started)
                self.refused += answer.show_alert
                if not answer.show_alert:
                    last = answer.at
                    self.moves.append(last)
                    first = last if math.isnan(first) else first
                acted = True
            if not acted:
                before = self.tg.requests
                await self.tg.wait_for(lambda b=before: self.tg.requests > b  # type: ignore[misc]
                                       or bool(pressed and self.over(table)), timeout=120)
        return first, last

    def seen(self) -> dict[str, float]:
        """What the group saw, on the fake's clock: calls in any 60 s, and for its finished matches
        the longest gap between two updates of the table message and the final state's delay."""
        ops = [op for op in self.tg.ops[self.chat] if op.kind in COUNTED_KINDS]
        gap = final = wait = 0.0
        for mid, first, last in self.finished:
            times = sorted(op.at for op in ops if op.message_id == mid)
            during = [first] + [t for t in times if first <= t <= last] + [last]
            moves = [m for m in self.moves if first <= m <= last]
            # the longest stretch without a table update in which moves were made
            gap = max([gap] + [b - a for a, b in itertools.pairwise(during)
                               if any(a < m < b for m in moves)])
            # the longest a move waited to be shown (the next update of the table message)
            for m in moves:
                later = [t for t in times if t >= m]
                if later:
                    wait = max(wait, later[0] - m)
            final = max(final, times[-1] - last if times else float("nan"))
        return {"calls_60s": float(self.tg.max_ops_in_window(self.chat, 60.0)), "gap": gap, "final": final,
                "wait": wait, "calls": float(len(ops))}


async def bot_in_process(tg: FakeTelegram, tmp: str, args: argparse.Namespace) -> tuple[Any, Any, list[float]]:
    from bot.adapters.telegram.app import build_application, start_polling
    from bot.core.clock import FakeClock
    from bot.core.manager import TableManager
    from bot.core.settings import ManagerSettings
    from storage import open_repository

    times: list[float] = []
    repo = await open_repository(str(Path(tmp) / "bench.sqlite3"))
    manager = TableManager(repo, clock=FakeClock(), settings=ManagerSettings(
        ai_delay=0.0, lobby_timeout=1e6, default_turn_seconds=3600, latency_sink=times.append))
    app = build_application(TOKEN, manager, base_url=tg.base_url, outbox_clock=ScaledClock(args.speed),
                            concurrent_updates=args.concurrency, outbox_pool_size=args.pool)
    await start_polling(app)
    return app, repo, times


async def bot_process(tg: FakeTelegram, tmp: str) -> asyncio.subprocess.Process:
    env = {**os.environ, "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url,
           "MAJLIS_DATA_DIR": tmp, "MAJLIS_DB": str(Path(tmp) / "bench.sqlite3"), "MAJLIS_AI_DELAY": "0",
           "MAJLIS_LOG_LEVEL": "WARNING"}
    for var in ("MAJLIS_CONFIG", "MAJLIS_DISCORD_TOKEN"):
        env.pop(var, None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", "--telegram",
                                                cwd=str(ROOT), env=env)
    await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=120)
    return proc


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = ScaledClock(1.0 if args.process else args.speed)
        tg = FakeTelegram(clock=clock.now)
        await tg.start()
        proc = app = repo = None
        manager_times: list[float] = []
        if args.process:
            proc = await bot_process(tg, tmp)
        else:
            app, repo, manager_times = await bot_in_process(tg, tmp, args)
        groups = [Group(tg, n, args.game, args.options) for n in range(args.groups)]
        started = time.monotonic()
        cpu_before = time.process_time()
        requests_before = tg.requests
        until = started + args.seconds
        try:
            await asyncio.gather(*(g.run(until, args.finish) for g in groups))
        finally:
            elapsed = time.monotonic() - started
            cpu_here = time.process_time() - cpu_before
            # Let the final states arrive (what the people would see next), then read what they saw.
            if app is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(app.bot_data["majlis"].presenter.drain(), 30)
            else:
                await asyncio.sleep(15)
            if proc is not None:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), 60)
            if app is not None:
                from bot.adapters.telegram.app import stop_polling

                await stop_polling(app)
                await repo.close()
            await tg.stop()
    lat = [x for g in groups for x in g.latencies]
    updates = len(lat) + sum(g.commands for g in groups)
    mode = "process (real time, real budgets)" if args.process else f"in-process (outbox speed x{args.speed})"
    knobs = "" if args.process else f" concurrency={args.concurrency} pool={args.pool}"
    print(f"groups={args.groups} game={args.game} seconds={elapsed:.1f} mode={mode}{knobs}")
    print(f"presses={len(lat)} refused={sum(g.refused for g in groups)} "
          f"matches_finished={sum(g.matches for g in groups)}")
    print(f"updates/s={updates / elapsed:.1f} presses/s={len(lat) / elapsed:.1f} "
          f"bot_api_requests/s={(tg.requests - requests_before) / elapsed:.1f}")
    print(f"press->answer ms: p50={percentile(lat, 0.5) * 1e3:.1f} p99={percentile(lat, 0.99) * 1e3:.1f} "
          f"max={max(lat, default=float('nan')) * 1e3:.1f} mean={statistics.fmean(lat) * 1e3 if lat else 0:.1f}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    bot_cpu = f"bot process cpu={usage.ru_utime + usage.ru_stime:.1f}s (whole run), " if proc is not None else ""
    print(f"{bot_cpu}this process cpu={cpu_here:.1f}s over {elapsed:.1f}s")
    if manager_times:
        print(f"manager per action ms: p50={percentile(manager_times, 0.5) * 1e3:.2f} "
              f"p99={percentile(manager_times, 0.99) * 1e3:.2f}")
    seen = [g.seen() for g in groups if g.finished]
    if seen:
        busy = max(seen, key=lambda x: x["calls"])
        unit = "s" if args.process or args.speed == 1 else f"s (Telegram's seconds, run at x{args.speed})"
        print(f"what the groups saw ({len(seen)} with a finished match), by arrival at the fake, in {unit}:")
        print(f"  busiest group: {busy['calls']:.0f} calls, most in any 60 s {busy['calls_60s']:.0f} (limit 20), "
              f"longest gap between table updates while moves were made {busy['gap']:.1f} s, longest a move "
              f"waited to be shown {busy['wait']:.1f} s, final state {busy['final']:.1f} s after the last move")
        print(f"  all groups: most calls in any 60 s {max(x['calls_60s'] for x in seen):.0f}; longest gap "
              f"p50 {percentile([x['gap'] for x in seen], 0.5):.1f} s, max {max(x['gap'] for x in seen):.1f} s; "
              f"longest wait to be shown max {max(x['wait'] for x in seen):.1f} s; "
              f"final-state delay p50 {percentile([x['final'] for x in seen], 0.5):.1f} s, "
              f"max {max(x['final'] for x in seen):.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="tarneeb41", choices=["tarneeb41", "tarneeb", "trix"])
    parser.add_argument("--options", default=None, help="table options (default: a short match)")
    parser.add_argument("--speed", type=float, default=1.0, help="outbox clock speed (in-process; 1 = real time)")
    parser.add_argument("--finish", type=float, default=240.0,
                        help="seconds after --seconds in which the matches still going are played to the end")
    parser.add_argument("--concurrency", type=int, default=4, help="PTB concurrent updates (in-process)")
    parser.add_argument("--pool", type=int, default=32, help="HTTP connection pool of the outboxes (in-process)")
    parser.add_argument("--process", action="store_true", help="run `majlis run --telegram` in its own process")
    ns = parser.parse_args()
    if ns.options is None:
        ns.options = {"tarneeb41": "target=1", "tarneeb": "target=31", "trix": "mode=complex"}[ns.game]
    asyncio.run(main(ns))
