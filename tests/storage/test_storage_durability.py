"""Kill -9 a real process that appends actions: every acknowledged action is in the file, in order."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a real process killed

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
TABLES = 4
KILLS = 6


def start_child(db: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, str(HERE / "durability_child.py"), str(db), str(TABLES)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def read_file(db: Path) -> tuple[dict[int, list[int]], dict[int, int]]:
    conn = sqlite3.connect(db)
    try:
        logs: dict[int, list[int]] = {}
        for table_id, seq in conn.execute("SELECT table_id, seq FROM actions ORDER BY table_id, seq"):
            logs.setdefault(table_id, []).append(seq)
        versions = dict(conn.execute("SELECT table_id, version FROM tables").fetchall())
    finally:
        conn.close()
    return logs, versions


def test_acknowledged_actions_survive_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    rng = random.Random(20261129)
    acknowledged: set[tuple[int, int]] = set()
    for _ in range(KILLS):
        child = start_child(db)
        try:
            assert child.stdout is not None
            assert child.stdout.readline() == "ready\n", child.stderr.read() if child.stderr else ""
            child.stdout.readline()  # at least one action of this run acknowledged
            time.sleep(rng.uniform(0.0, 0.4))
            child.send_signal(signal.SIGKILL)
            out, _ = child.communicate(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        assert child.returncode == -signal.SIGKILL
        for line in out.splitlines():
            table_id, seq = line.split()
            acknowledged.add((int(table_id), int(seq)))

        logs, versions = read_file(db)
        assert len(logs) == TABLES
        for table_id, seqs in logs.items():
            assert seqs == list(range(1, len(seqs) + 1))  # no gap, no duplicate
            assert versions[table_id] == len(seqs)  # the table row moved with its log
        stored = {(t, s) for t, seqs in logs.items() for s in seqs}
        assert acknowledged <= stored
    assert len(acknowledged) > TABLES * KILLS
