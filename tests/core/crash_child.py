"""The process that the crash test kills: AI tables against a SQLite file, no pacing.

``python tests/core/crash_child.py <db> [tables]`` restores whatever is live in ``<db>``, opens the
tables that do not exist yet (chat ``cli:crash<i>`` holds table ``i + 1``), starts them and lets
the person who opened each one leave, so that AI players finish every match. It prints
``ACK <table> <seq> <seat> <action>`` for each action once it is committed (subscribers hear of
an action only after ``append_action`` returned), and ``ALLDONE`` when no table is live.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ai import LegalPlayer
from bot.core.manager import TableManager
from bot.core.model import Person, TableUpdate
from bot.core.settings import ManagerSettings
from storage.sqlite import SQLiteRepository

PLAYER = LegalPlayer()


async def main(db: str, tables: int) -> None:
    repo = SQLiteRepository(db)
    await repo.open()
    manager = TableManager(repo, settings=ManagerSettings(ai_delay=0.0, seed_source=None),
                           ai=lambda level: PLAYER)
    out = sys.stdout

    async def ack(update: TableUpdate) -> None:
        a = update.action
        if a is not None:
            out.write(f"ACK {a.table_id} {a.seq} {a.seat} {a.action.replace(' ', '_')}\n")
        if any(e["type"] == "match_recorded" for e in update.events):
            out.write(f"DONE {update.snapshot.table_id}\n")
        out.flush()

    manager.subscribe(ack)
    await manager.start()
    for i in range(tables):
        chat, person = f"cli:crash{i}", Person(f"cli:p{i}", f"P{i}")
        snap = manager.table_in_chat(chat)
        if snap is None:
            if await repo.get_table(i + 1) is not None:
                continue  # finished in an earlier life
            snap = await manager.create(chat, person, "trix")
            assert snap.table_id == i + 1, snap.table_id
        if snap.table.status == "lobby":
            snap = await manager.begin(chat, person)
        if snap.seat_of(person.player_id) is not None:
            await manager.leave(chat, person)
    while any(manager.table_in_chat(f"cli:crash{i}") is not None for i in range(tables)):
        await asyncio.sleep(0.02)
    await manager.close()
    await repo.close()
    out.write("ALLDONE\n")
    out.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 4))
