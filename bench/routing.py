"""Forwarding between processes (bot/core/cluster/routing.py) and settings staleness (bot/core/prefs.py) on PostgreSQL.

Two table managers, each with its own connection pool to one PostgreSQL (started here from the
server binaries, or ``MAJLIS_TEST_PG``), as two processes: process a holds a four-person
tarneeb41 table; every press is made once at a (local: the dispatch as in one process) and once
through b (forwarded: inbox, ``NOTIFY``, a's dispatch, the answer, ``NOTIFY``), alternating. Then
a changes a chat's turn timer again and again, and the time until b's cache holds the new value is
measured (LISTEN/NOTIFY; without it the cache's time bound, 300 s for chats, 30 s for players).

    python bench/routing.py [--presses 200] [--changes 50]

Both managers share one event loop here, so the figures are the database's and the protocol's
round trips, not a second machine's network.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.clock import RealClock
from bot.core.commands import Act, Actor, ChangeSettings
from bot.core.identity import dm_dest
from bot.core.manager import TableManager
from bot.core.model import Person
from bot.core.service import Service, routed
from bot.core.settings import ManagerSettings
from storage.postgres import PostgresRepository

PEOPLE = [Person(f"tg:{i}", f"P{i}") for i in range(1, 5)]
CHAT = "tg:-42"


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


async def admin() -> bool:
    return True


async def run(url: str, presses: int, changes: int) -> None:
    managers = []
    for name in ("a", "b"):
        repo = PostgresRepository(url, pool_size=4)
        await repo.open()
        m = TableManager(repo, router=routed, clock=RealClock(), settings=ManagerSettings(
            owner=name, ai_delay=0.0, default_turn_seconds=600, seed_source=lambda: 11))
        await m.start()
        managers.append(m)
    a, b = managers
    local, forwarded = [], []
    try:
        await a.create(CHAT, PEOPLE[0], "tarneeb41")
        for p in PEOPLE[1:]:
            await a.join(CHAT, p)
        snap = a.table_in_chat(CHAT)
        assert snap is not None
        table_id = snap.table_id
        for i in range(presses):
            table = a.registry.table(table_id)
            if table.game is None or table.record.status != "playing":
                break
            seat = table.to_act
            assert seat is not None
            person = next(p for p in PEOPLE if p.player_id == table.record.seats[seat].player_id)
            code = table.game.view(seat)["legal"][0]
            via = a if i % 2 == 0 else b
            started = time.perf_counter()
            actor = Actor(person, dm_dest(person.player_id))
            await Service(via).dispatch(Act(table_id, table.record.version, code), actor)
            (local if via is a else forwarded).append(time.perf_counter() - started)
        await b.chat_settings(CHAT)
        stale = []
        for i in range(changes):
            seconds = 30 + i
            await Service(a).dispatch(ChangeSettings({"turn_seconds": seconds}), Actor(PEOPLE[0], CHAT, is_admin=admin))
            started = time.perf_counter()
            while b.prefs.turn_seconds(CHAT) != float(seconds):
                await asyncio.sleep(0.0005)
                if time.perf_counter() - started > 10:
                    raise SystemExit("b never saw the change")
            stale.append(time.perf_counter() - started)
    finally:
        for m in managers:
            await m.close()
            await m.repo.close()
    print(f"  press applied at its holder:     n={len(local):4d}  p50 {percentile(local, .5) * 1e3:6.2f} ms  "
          f"p99 {percentile(local, .99) * 1e3:6.2f} ms")
    print(f"  press forwarded from the other:  n={len(forwarded):4d}  p50 {percentile(forwarded, .5) * 1e3:6.2f} ms  "
          f"p99 {percentile(forwarded, .99) * 1e3:6.2f} ms")
    print(f"  settings seen by the other:      n={len(stale):4d}  p50 {percentile(stale, .5) * 1e3:6.2f} ms  "
          f"max {max(stale) * 1e3:6.2f} ms  (after the change was stored and announced)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--changes", type=int, default=50)
    args = parser.parse_args()
    from bench.scale import fresh_schema
    from tests import pg

    server = pg.server()
    if server is None:
        print(f"PostgreSQL: not available ({'; '.join(pg.UNAVAILABLE)})")
        return
    try:
        print(f"two managers on one PostgreSQL, {os.cpu_count()} CPUs")
        asyncio.run(run(fresh_schema(server.url, "routing"), args.presses, args.changes))
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
