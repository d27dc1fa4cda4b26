"""Two real bot processes on one real PostgreSQL; one is killed with SIGKILL mid-match.

The survivor takes the dead one's tables over within the lease time (its timers and AI moves
included), every match finishes with a result, every action the dead process acknowledged is in
the log exactly once at its seq, and every log replays to its table's recorded state.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.core.tables.restore import replay
from storage.postgres import PostgresRepository

CHILD = Path(__file__).with_name("lease_child.py")


def start(url: str, name: str, tables: int, out: Path) -> subprocess.Popen[bytes]:
    with out.open("wb") as f:
        return subprocess.Popen([sys.executable, str(CHILD), url, name, str(tables)], stdout=f,
                                stderr=subprocess.DEVNULL, cwd=CHILD.parents[2])


def lines(path: Path) -> list[str]:
    return path.read_text().split("\n")[:-1]  # a line cut by the kill does not count


def wait_for(path: Path, what: str, proc: subprocess.Popen[bytes], timeout: float) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = lines(path)
        if any(line.startswith(what) for line in got):
            return got
        if proc.poll() is not None:
            raise AssertionError(f"the process ended (exit {proc.returncode}) before {what!r}: {got[-5:]}")
        time.sleep(0.05)
    raise AssertionError(f"no {what!r} within {timeout} s")


def run_and_kill(pg_url: str, a_out: Path, b_out: Path) -> None:
    """a opens two tables and plays; b opens one; a is killed after 40 acknowledged actions."""
    a = start(pg_url, "a", 2, a_out)
    b = None
    try:
        wait_for(a_out, "STARTED", a, 120)
        b = start(pg_url, "b", 1, b_out)
        wait_for(b_out, "STARTED", b, 120)
        deadline = time.monotonic() + 60
        while sum(line.startswith("ACK") for line in lines(a_out)) < 40 and time.monotonic() < deadline:
            time.sleep(0.02)
        a.send_signal(signal.SIGKILL)  # mid-match: nothing released, the leases run out
        a.wait(timeout=30)
        wait_for(b_out, "ALLDONE", b, 240)
        assert b.wait(timeout=60) == 0
    finally:
        for proc in (a, b):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.mark.slow
async def test_a_killed_process_s_matches_are_finished_by_the_other(tmp_path: Path, pg_url: str) -> None:
    a_out, b_out = tmp_path / "a.out", tmp_path / "b.out"
    await asyncio.to_thread(run_and_kill, pg_url, a_out, b_out)
    acked_by_a = [tuple(line.split(" ")[1:]) for line in lines(a_out) if line.startswith("ACK")]
    taken = {int(line.split()[1]) for line in lines(b_out) if line.startswith("TAKEN")}
    assert acked_by_a and taken  # a had played, b took tables over

    repo = PostgresRepository(pg_url, pool_size=2)
    await repo.open()
    try:
        assert await repo.live_tables() == []
        a_tables = {int(t) for t, *_ in acked_by_a}
        assert taken <= a_tables
        for table_id in sorted(a_tables | taken):
            record = await repo.get_table(table_id)
            assert record is not None and record.status == "finished"
            assert await repo.table_results(table_id) is not None
            log = await repo.actions(table_id)
            assert [x.seq for x in log] == list(range(1, len(log) + 1)) and record.version == len(log)
            assert replay(record, log).to_act is None  # the log plays the match to its end
            stored = {(x.seq, x.seat, x.action) for x in log}
            for t, seq, seat, action in acked_by_a:
                if int(t) == table_id:  # nothing a acknowledged is lost, nor stored at another seq
                    assert (int(seq), int(seat), action.replace("_", " ")) in stored
    finally:
        await repo.close()
