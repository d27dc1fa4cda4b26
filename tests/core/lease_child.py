"""A bot process of the multi-process test: AI tables on a shared PostgreSQL, held by lease.

``python tests/core/lease_child.py <url> <name> <tables>`` runs a ``TableManager`` whose lease owner
is ``<name>`` (2-second leases, a heartbeat every 0.3 s); it opens ``<tables>`` tables of its own
(chat ``cli:<name>-<i>``), lets their creators leave so that AI players play every seat, and
prints ``ACK <table> <seq> <seat> <action>`` for each action once it is committed, ``TAKEN
<table>`` for each table it takes over from a dead process, and ``ALLDONE`` once no table in the
database is live.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ai import LegalPlayer
from bot.core.manager import TableManager
from bot.core.model import Person, TableUpdate
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from storage.postgres import PostgresRepository

PLAYER = LegalPlayer()


async def main(url: str, name: str, tables: int) -> None:
    repo = PostgresRepository(url, pool_size=4)
    await repo.open()
    settings = ManagerSettings(ai_delay=0.0, owner=name, lease_seconds=2.0, heartbeat_seconds=0.3)
    manager = TableManager(repo, router=routed, settings=settings, ai=lambda level: PLAYER)
    out = sys.stdout

    async def ack(update: TableUpdate) -> None:
        a = update.action
        if a is not None:
            out.write(f"ACK {a.table_id} {a.seq} {a.seat} {a.action.replace(' ', '_')}\n")
        out.flush()

    manager.subscribe(ack)
    await manager.start()
    for i in range(tables):
        chat, person = f"cli:{name}-{i}", Person(f"cli:{name}{i}", f"P{i}")
        await manager.create(chat, person, "trix")
        await manager.begin(chat, person)
        await manager.leave(chat, person)
    out.write("STARTED\n")
    out.flush()
    reported: set[int] = set()
    while True:
        leases = manager.leases
        for table_id in leases.taken_over if leases is not None else []:
            if table_id not in reported:
                reported.add(table_id)
                out.write(f"TAKEN {table_id}\n")
                out.flush()
        if not await repo.live_tables():
            break
        await asyncio.sleep(0.1)
    await manager.close()
    await repo.close()
    out.write("ALLDONE\n")
    out.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
