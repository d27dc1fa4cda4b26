"""Many Telegram groups at once through the real PTB Application and the fake Bot API.

Every group has four simulated people who open a table, join through the deep link and press the
move buttons of their private hands as soon as they show some (a new table when a match ends).
Prints the updates the bot handled per second and the latency from a button press to the bot's
``answerCallbackQuery`` (p50/p99), plus the manager's own time per action.

    python bench/telegram.py --groups 20 --seconds 20

The outboxes run on a clock ``--speed`` times faster than real time, so Telegram's budgets (20
per minute per group, 1 per second per private chat) are enforced but do not make the people wait
minutes; ``--speed 1`` gives real pacing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# This file is called telegram.py: keep its folder off the path, or `import telegram` finds it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PTB_TIMEDELTA", "1")

from bot.clock import FakeClock  # noqa: E402
from bot.manager import TableManager  # noqa: E402
from bot.settings import ManagerSettings  # noqa: E402
from bot.telegram.app import build_application, start_polling, stop_polling  # noqa: E402
from storage import open_repository  # noqa: E402
from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram  # noqa: E402
from tests.adapters.telegram.harness import ScaledClock, choose, join_url_payload  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``xs``."""
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Group:
    """One group and its four people."""

    def __init__(self, tg: FakeTelegram, manager: TableManager, n: int, game: str, options: str) -> None:
        self.tg, self.manager, self.game, self.options = tg, manager, game, options
        self.chat = -1_002_000_000 - n
        self.people = [tg.add_user(10_000 + 10 * n + i, f"P{n}.{i}", "en") for i in range(4)]
        tg.add_group(self.chat, admins=[self.people[0].user_id])
        self.rng = random.Random(n)
        self.latencies: list[float] = []
        self.refused = 0
        self.matches = 0

    async def open_table(self) -> int:
        tg, chat_id = self.tg, f"tg:{self.chat}"
        await tg.say(self.people[0], self.chat, f"/new {self.game} {self.options}")
        snap = await tg.wait_for(lambda: self.manager.table_in_chat(chat_id), timeout=60)
        tid = snap.table_id
        lobby = await tg.wait_for(lambda: self._table_message(tid), timeout=60)
        payload = join_url_payload(lobby)
        for p in self.people[1:]:
            await tg.start_bot(p, payload)
        await tg.wait_for(lambda: self._status(tid) == "playing", timeout=60)
        return tid

    def _table_message(self, tid: int) -> object:
        snap = self.manager.get(tid)
        mid = snap.table.message_ids.get(f"table:{tid}") if snap else None
        return self.tg.messages[self.chat].get(int(mid)) if mid else None

    def _status(self, tid: int) -> str | None:
        snap = self.manager.get(tid)
        return snap.table.status if snap else None

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            tid = await self.open_table()
            await self.play(tid, until)
            if self._status(tid) != "playing":
                self.matches += 1

    async def play(self, tid: int, until: float) -> None:
        prefix = f"mj1:a:{tid}:"
        pressed: set[tuple[int, int, int]] = set()
        while time.monotonic() < until and self._status(tid) == "playing":
            acted = False
            for p in self.people:
                m = self.tg.last_bot_message(
                    p.user_id, lambda m: any(str(b.get("callback_data", "")).startswith(prefix) for b in m.buttons))
                if m is None or (p.user_id, m.message_id, len(m.history)) in pressed:
                    continue
                moves = [b["callback_data"] for b in m.buttons if str(b.get("callback_data", "")).startswith(prefix)]
                pressed.add((p.user_id, m.message_id, len(m.history)))
                started = time.perf_counter()
                answer = await self.tg.press(p, m, choose(self.game, moves, self.rng), timeout=60)
                self.latencies.append(time.perf_counter() - started)
                self.refused += answer.show_alert
                acted = True
            if not acted:
                before = self.tg.requests
                await self.tg.wait_for(lambda b=before: self.tg.requests > b or self._status(tid) != "playing",
                                       timeout=60)


async def main(args: argparse.Namespace) -> None:
    manager_times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        outbox_clock = ScaledClock(args.speed)
        tg = FakeTelegram(clock=outbox_clock.now)
        await tg.start()
        repo = await open_repository(str(Path(tmp) / "bench.sqlite3"))
        manager = TableManager(repo, clock=FakeClock(), settings=ManagerSettings(
            ai_delay=0.0, lobby_timeout=1e6, default_turn_seconds=3600, latency_sink=manager_times.append))
        app = build_application(TOKEN, manager, base_url=tg.base_url, outbox_clock=outbox_clock,
                                concurrent_updates=args.concurrency, connection_pool_size=args.pool)
        await start_polling(app)
        groups = [Group(tg, manager, n, args.game, args.options) for n in range(args.groups)]
        started = time.monotonic()
        requests_before = tg.requests
        until = started + args.seconds
        try:
            await asyncio.gather(*(g.run(until) for g in groups))
        finally:
            elapsed = time.monotonic() - started
            await stop_polling(app)
            await repo.close()
            await tg.stop()
    lat = [x for g in groups for x in g.latencies]
    updates = len(lat) + sum(5 + g.matches for g in groups)  # presses + /new and 3 joins per table
    print(f"groups={args.groups} game={args.game} seconds={elapsed:.1f} speed={args.speed} "
          f"concurrency={args.concurrency} pool={args.pool}")
    print(f"presses={len(lat)} refused={sum(g.refused for g in groups)} "
          f"matches_finished={sum(g.matches for g in groups)}")
    print(f"updates/s={updates / elapsed:.1f} presses/s={len(lat) / elapsed:.1f} "
          f"bot_api_requests/s={(tg.requests - requests_before) / elapsed:.1f}")
    print(f"press->answer ms: p50={pct(lat, 0.5) * 1e3:.1f} p99={pct(lat, 0.99) * 1e3:.1f} "
          f"max={max(lat, default=float('nan')) * 1e3:.1f} mean={statistics.fmean(lat) * 1e3 if lat else 0:.1f}")
    print(f"manager per action ms: p50={pct(manager_times, 0.5) * 1e3:.2f} "
          f"p99={pct(manager_times, 0.99) * 1e3:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="tarneeb41", choices=["tarneeb41", "tarneeb", "trix"])
    parser.add_argument("--options", default=None, help="table options (default: a short match)")
    parser.add_argument("--speed", type=float, default=100.0)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--pool", type=int, default=32, help="HTTP connection pool size of the bot")
    ns = parser.parse_args()
    if ns.options is None:
        ns.options = {"tarneeb41": "target=1", "tarneeb": "target=31", "trix": "mode=complex"}[ns.game]
    asyncio.run(main(ns))
