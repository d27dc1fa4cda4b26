"""Two real processes on one real PostgreSQL cross a season boundary: every league's season rolls
over exactly once (one summary in all, its champions written once), and both see the same next season."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage.postgres import PostgresRepository
from storage.records import FINISHED, ActionRecord, LeagueRecord
from tests.storage.test_storage_contract import new_table, result

pytestmark = pytest.mark.slow  # two processes and a PostgreSQL server

CHILD = Path(__file__).with_name("season_child.py")
JAN_10, FEB_1 = datetime(2027, 1, 10, tzinfo=UTC).timestamp(), datetime(2027, 2, 1, tzinfo=UTC).timestamp()
LEAGUES = [f"tg:-{1000 + i}" for i in range(12)]


async def _fill(repo: PostgresRepository) -> None:
    """Each league plays two January matches (ranked from one)."""
    for league in LEAGUES:
        await repo.save_league(LeagueRecord(league, min_matches=1))
        for k in range(2):
            table = await new_table(repo, chat=league)
            table = await repo.append_action(ActionRecord(table.table_id, 1, 0, "bid 7", "tg:1", JAN_10 + k),
                                             replace(table, version=1))
            res = replace(result(table, {0, 2}), finished_at=JAN_10 + k + 60)
            await repo.append_final_action(ActionRecord(table.table_id, 2, 0, "play QS", "tg:1", JAN_10 + k + 60),
                                           replace(table, version=2, status=FINISHED, deadline=None), res)


def _run_both(url: str, tmp: Path) -> list[str]:
    go = tmp / "go"
    outs = [tmp / "a.out", tmp / "b.out"]
    procs = []
    for name, out in zip("ab", outs, strict=True):
        with out.open("wb") as f:
            procs.append(subprocess.Popen([sys.executable, str(CHILD), url, name, str(FEB_1 + 30), str(go),
                                           ",".join(LEAGUES)],
                                          stdout=f, stderr=subprocess.STDOUT, cwd=CHILD.parents[2]))
    try:
        deadline = time.monotonic() + 60
        while not all("READY" in o.read_text() for o in outs):
            assert time.monotonic() < deadline, [o.read_text() for o in outs]
            time.sleep(0.02)
        go.touch()  # both at the boundary at once
        for p in procs:
            assert p.wait(timeout=120) == 0, [o.read_text() for o in outs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return [line for o in outs for line in o.read_text().splitlines()]


async def test_two_processes_at_the_boundary_roll_each_season_over_once(tmp_path: Path, pg_url: str) -> None:
    repo = PostgresRepository(pg_url, pool_size=2)
    await repo.open()
    try:
        await _fill(repo)
        lines = await asyncio.to_thread(_run_both, pg_url, tmp_path)
        closed = sorted(tuple(line.split()[1:]) for line in lines if line.startswith("CLOSED"))
        assert closed == sorted((league, "1") for league in LEAGUES)  # each once, by one process or the other
        seen = {tuple(line.split()[1:]) for line in lines if line.startswith("SEASON")}
        assert seen == {(league, "2") for league in LEAGUES}  # both find the one next season
        for league in LEAGUES:
            seasons = await repo.seasons(league)
            assert [(s.number, s.closed_at is not None) for s in seasons] == [(1, True), (2, False)]
            assert seasons[1].starts_at == FEB_1
            assert [(c.number, c.game) for c in await repo.champions(league)] == [(1, "tarneeb")]
        assert await repo.due_seasons(FEB_1 + 30) == []
    finally:
        await repo.close()
