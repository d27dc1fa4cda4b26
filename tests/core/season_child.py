"""A process that rolls seasons over on a PostgreSQL at a season boundary (test_season_processes.py).

``python season_child.py <url> <name> <now> <go-file> <league,league,...>``: waits for the go file, then looks for ended
seasons a number of times, as every bot process does each minute; prints ``CLOSED <league> <number>``
for each season this process closed (and so would post), ``SEASON <league> <number>`` for the season
it found running, then ``DONE``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from bot.core.clock import FakeClock
from bot.core.prefs import Prefs
from bot.core.seasons import Seasons
from storage.postgres import PostgresRepository


async def main(url: str, name: str, now: float, go: Path, leagues: list[str]) -> None:
    repo = PostgresRepository(url, pool_size=4)
    await repo.open()
    seasons = Seasons(repo, Prefs(repo), FakeClock(now))
    print("READY", name, flush=True)
    while not go.exists():
        time.sleep(0.005)
    for _ in range(5):
        for summary in await seasons.tick():
            print("CLOSED", summary.season.league, summary.season.number, flush=True)
    for league in leagues:
        season = await seasons.current(league)
        print("SEASON", league, season.number, flush=True)
    await repo.close()
    print("DONE", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3]), Path(sys.argv[4]), sys.argv[5].split(",")))
