"""SIGKILL a real process playing AI tables on a SQLite file, again and again, then check the log.

Every match completes with a valid result, every acknowledged action is in the log exactly once
(at the seq it was acknowledged with), and each table's log replays to its recorded result.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.core.tables.restore import replay
from storage.sqlite import SQLiteRepository

CHILD = Path(__file__).with_name("crash_child.py")
TABLES = 4
KILLS = 20


def acks_in(path: Path) -> list[tuple[int, int, int, str]]:
    """The complete ACK lines of one run's output (a line cut by the kill does not count)."""
    text = path.read_text()
    lines = text.split("\n")[:-1]  # the last element is empty or a cut line
    out = []
    for line in lines:
        if line.startswith("ACK "):
            _, table, seq, seat, action = line.split(" ")
            out.append((int(table), int(seq), int(seat), action.replace("_", " ")))
    return out


def start(db: Path, out: Path, tables: int) -> subprocess.Popen[bytes]:
    with out.open("wb") as f:
        return subprocess.Popen([sys.executable, str(CHILD), str(db), str(tables)], stdout=f,
                                stderr=subprocess.DEVNULL, cwd=CHILD.parents[2])


@pytest.mark.slow
def test_killed_again_and_again_no_acknowledged_move_is_lost_or_doubled(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    acknowledged: list[tuple[int, int, int, str]] = []
    kills = 0
    run = 0
    finished = False
    tables = TABLES
    while not finished:
        out = tmp_path / f"run{run}.out"
        proc = start(db, out, tables)
        if kills < KILLS:
            if rng.random() < 0.25:
                time.sleep(rng.uniform(0.0, 0.6))  # maybe while importing or restoring
            else:
                limit = time.monotonic() + 10
                while proc.poll() is None and "ACK" not in out.read_text() and time.monotonic() < limit:
                    time.sleep(0.01)
                time.sleep(rng.uniform(0.0, 0.25))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.wait()
        else:
            assert proc.wait(timeout=60) == 0
        acknowledged += acks_in(out)
        finished = "ALLDONE" in out.read_text()
        if finished and kills < KILLS:  # all done before enough kills: open more tables
            tables += 2
            finished = False
        run += 1
    assert kills >= KILLS
    asyncio.run(check(db, acknowledged, tables))


async def check(db: Path, acknowledged: list[tuple[int, int, int, str]], tables: int) -> None:
    """Every match finished validly; every acknowledged action is in the log at its seq."""
    repo = SQLiteRepository(db)
    await repo.open()
    try:
        assert await repo.live_tables() == []
        logs = {}
        for table_id in range(1, tables + 1):
            record = await repo.get_table(table_id)
            assert record is not None and record.status == "finished"
            log = await repo.actions(table_id)
            assert [a.seq for a in log] == list(range(1, len(log) + 1)) and len(log) == record.version
            logs[table_id] = log
            game = replay(record, log)
            assert game.to_act is None and game.winner
            result = await repo.table_results(table_id)
            assert result is not None
            assert sorted(r.seat for r in result.results if r.won and not r.left) == game.winner
            assert result.scores == game.scores()
            assert [r.player_id for r in result.results if r.left] == [f"cli:p{table_id - 1}"]
        seen = set()
        for table_id, seq, seat, action in acknowledged:
            assert (table_id, seq) not in seen, "an action was acknowledged twice"
            seen.add((table_id, seq))
            logged = logs[table_id][seq - 1]
            assert (logged.seat, logged.action) == (seat, action), "an acknowledged action is not in the log"
        assert len(seen) > 0
    finally:
        await repo.close()
