"""Child process of the durability test: appends actions forever, printing each acknowledged seq.

``python durability_child.py DB TABLES`` opens (or continues) ``TABLES`` live tables in ``DB`` and
runs one task per table that appends the next action and then prints ``"<table_id> <seq>"``,
only after ``append_action`` has returned (its commit is durable). The parent kills it with
SIGKILL at a random moment.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace

from storage.records import PLAYING, ActionRecord, Seat, TableRecord
from storage.sqlite import SQLiteRepository


async def run_table(repo: SQLiteRepository, table: TableRecord) -> None:
    while True:
        seq = table.version + 1
        table = await repo.append_action(
            ActionRecord(table.table_id, seq, seq % 4, f"play {seq}", "cli:you", 0.0),
            replace(table, version=seq, deadline=float(seq)))
        sys.stdout.write(f"{table.table_id} {seq}\n")
        sys.stdout.flush()


async def main(path: str, count: int) -> None:
    repo = SQLiteRepository(path)
    await repo.open()
    tables = await repo.live_tables()
    seats = (Seat("cli:you"), Seat("ai:easy:1", is_ai=True), Seat("ai:easy:2", is_ai=True),
             Seat("ai:easy:3", is_ai=True))
    while len(tables) < count:
        table_id = await repo.create_table(
            TableRecord(0, f"cli:local{len(tables)}", "trix", {}, 7, 0, "cli:you", PLAYING, seats))
        created = await repo.get_table(table_id)
        assert created is not None
        tables.append(created)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    await asyncio.gather(*(run_table(repo, t) for t in tables))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
