"""Many WebSocket viewers on many tables: from an action to every page's update, and memory per viewer.

    python bench/web.py --tables 50 --viewers 20 --actions 400

The web server and a real table manager (SQLite in a temporary folder) run in this process; the
pages are real WebSocket clients in a child process (so the server's memory is measured alone).
Each table has four bench players (no AI, so one action is one update) and ``--viewers`` pages: one
for seat 0 (its own hand), the rest spectators. The driver makes ``--actions`` moves, one table at
a time in turn, ``--rate`` per second. Printed:

- per page: the time from the call to ``act`` to that page's receipt of the new state (p50, p99);
- per action: the time until the LAST page of the table had it (p50, p99), and ``act`` alone
  (the SQLite commit and the notification of every subscriber are inside it);
- the server's resident memory per open page (RSS growth while the pages connect / pages).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._stats import percentile


def rss_kib() -> int:
    """This process's resident memory now (KiB)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# ---------------------------------------------------------------------------------------------- pages


async def pages_main() -> None:
    """The child: read the URLs, open the pages, report receipts when stdin closes."""
    import aiohttp

    spec = json.loads(sys.stdin.readline())
    got: list[tuple[int, int, float]] = []  # (table, version, monotonic receipt)
    ready = 0
    all_ready = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as s:

        async def page(table: int, url: str) -> None:
            nonlocal ready
            async with s.ws_connect(url, max_msg_size=0) as ws:
                first = True
                async for msg in ws:
                    data = json.loads(msg.data)
                    if data["type"] != "state":
                        continue
                    if first:
                        first = False
                        ready += 1
                        if ready == len(spec["pages"]):
                            all_ready.set()
                        continue
                    got.append((table, data["state"]["version"], time.monotonic()))

        tasks = [asyncio.create_task(page(t, u)) for t, u in spec["pages"]]
        await all_ready.wait()
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the parent closes it
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(got), flush=True)


# ---------------------------------------------------------------------------------------------- driver


async def main(args: argparse.Namespace) -> None:
    from bot.adapters.web.server import WebServer, WebSettings
    from bot.core.manager import TableManager
    from bot.core.model import Person
    from bot.core.settings import ManagerSettings, tune_gc
    from storage import open_repository

    folder = tempfile.mkdtemp(prefix="majlis-bench-web-")
    repo = await open_repository(os.path.join(folder, "bench.sqlite3"))
    settings = ManagerSettings(ai_delay=0.0, default_turn_seconds=0, lobby_timeout=3600.0, seed_source=lambda: 7)
    manager = TableManager(repo, settings=settings)
    server = WebServer(manager, b"b" * 32, WebSettings(port=0))
    await manager.start()
    tables: list[tuple[int, list[Person]]] = []
    for i in range(args.tables):
        chat = f"tg:-{1000 + i}"
        await manager.update_chat(chat, lang="en" if i % 2 else "ar")
        people = [Person(f"tg:{i * 10 + s}", f"P{s}") for s in range(4)]
        snap = await manager.create(chat, people[0], args.game)
        for s in range(1, 4):
            await manager.join(chat, people[s], s)  # the fourth starts the match
        tables.append((snap.table_id, people))
    base = await server.start()
    ws_base = base.replace("http://", "ws://")
    now = manager.clock.now()
    pages: list[tuple[int, str]] = []
    for tid, people in tables:
        pages.append((tid, f"{ws_base}/ws?k=" + server.links.token("play", tid, now, seat=0,
                                                                    player_id=people[0].player_id)))
        for _ in range(args.viewers - 1):
            pages.append((tid, f"{ws_base}/ws?k=" + server.links.token("watch", tid, now)))
    tune_gc()
    before = rss_kib()
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--pages", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write((json.dumps({"pages": pages}) + "\n").encode())
    await child.stdin.drain()
    line = await asyncio.wait_for(child.stdout.readline(), 120)
    assert line.strip() == b"ready", line
    await asyncio.sleep(0.5)
    after = rss_kib()
    sent: dict[tuple[int, int], float] = {}
    acts: list[float] = []
    gap = 1.0 / args.rate
    start = time.monotonic()
    for n in range(args.actions):
        tid, people = tables[n % len(tables)]
        snap = manager.get(tid)
        assert snap is not None
        if snap.to_act is None:
            continue
        seat = snap.to_act
        code = manager.view(tid, seat)["legal"][0]
        t0 = time.monotonic()
        done = await manager.act(tid, people[seat], snap.table.version, code)
        acts.append(time.monotonic() - t0)
        sent[(tid, done.table.version)] = t0
        delay = start + (n + 1) * gap - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
    await asyncio.sleep(1.0)
    child.stdin.close()
    out = await asyncio.wait_for(child.stdout.read(), 120)
    await child.wait()
    await server.close()
    await manager.close()
    await repo.close()

    got = json.loads(out.decode().strip().splitlines()[-1])
    per_page: list[float] = []
    last: dict[tuple[int, int], float] = {}
    for table, version, at in got:
        t0 = sent.get((table, version))
        if t0 is None:
            continue
        per_page.append(at - t0)
        last[(table, version)] = max(last.get((table, version), 0.0), at - t0)
    n_pages = len(pages)
    expected = len(sent) * args.viewers
    print(f"web: {args.tables} tables × {args.viewers} pages = {n_pages} WebSocket pages, {len(sent)} actions "
          f"at {args.rate:g}/s ({args.game})")
    print(f"  updates received: {len(per_page)} of {expected}")
    ms = 1000.0
    print(f"  action → a page's update:   p50 {percentile(per_page, 0.5) * ms:7.2f} ms   "
          f"p99 {percentile(per_page, 0.99) * ms:7.2f} ms")
    print(f"  (act() itself, commit and notification included: p50 {percentile(acts, 0.5) * ms:7.2f} ms   "
          f"p99 {percentile(acts, 0.99) * ms:7.2f} ms)")
    alls = list(last.values())
    print(f"  action → every page of the table: p50 {percentile(alls, 0.5) * ms:7.2f} ms   "
          f"p99 {percentile(alls, 0.99) * ms:7.2f} ms")
    print(f"  server memory per page: {(after - before) / max(1, n_pages):.1f} KiB "
          f"(RSS {before / 1024:.1f} → {after / 1024:.1f} MiB)")


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--viewers", type=int, default=20, help="pages per table (one plays seat 0, the rest watch)")
    p.add_argument("--actions", type=int, default=400)
    p.add_argument("--rate", type=float, default=50.0, help="actions per second")
    p.add_argument("--game", default="tarneeb41")
    p.add_argument("--pages", action="store_true", help=argparse.SUPPRESS)
    return p.parse_args()


if __name__ == "__main__":
    a = parse()
    if a.pages:
        asyncio.run(pages_main())
    else:
        asyncio.run(main(a))
