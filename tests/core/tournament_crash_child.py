"""The process that the tournament crash test kills: it holds a tournament whose final is in review.

``python tests/core/tournament_crash_child.py <db> <now> [<round>]`` starts a table manager on ``<db>``
with its clock at ``<now>`` (a fake clock: the start's tick is the only one), so the pending steps due
by then run as after any restart. It prints ``STARTED`` once the manager is up, then ``FINAL`` and
exits when the stored tournament is finished (or, with ``<round>``, when that round is open), or holds
it (waiting) while its review window or its round is still open.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.core.clock import FakeClock
from bot.core.manager import TableManager
from bot.core.settings import ManagerSettings
from storage.sqlite import SQLiteRepository
from storage.tournaments import TourneyStatus

CHAT = "cli:tournament"


async def main(db: str, now: float, until_round: int | None) -> None:
    repo = SQLiteRepository(db)
    await repo.open()
    manager = TableManager(repo, clock=FakeClock(now), settings=ManagerSettings(ai_delay=0.0, seed_source=None))
    await manager.start()  # its tick runs the steps due by now (the tick of a restart)
    print("STARTED", flush=True)
    while True:
        t = await repo.chat_tournament(CHAT)
        if t is not None and (t.status == TourneyStatus.FINISHED if until_round is None
                              else any(r.number == until_round for r in t.rounds)):
            break
        await asyncio.sleep(0.02)
    await manager.close()
    await repo.close()
    print("FINAL", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else None))
