"""SIGKILL real processes holding a tournament whose final is in review, then restart them: the review
window closes exactly once (one process advances the round), whenever the kills came. The same for a
round's deadline: its forfeits are decided and the next round opened exactly once.

The final was played and its result is in review until ``T0 + 600``. A process started during the
window holds it and is killed; processes started after the window's end are killed at random moments
(before, during or after their start's tick writes the window's end); two are finally started at once
and both see the tournament finished. The log holds the window's closing and the champion once each.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.model import Person
from bot.core.tournaments import MINUTE, champion, new, register, start, table_ended
from storage.sqlite import SQLiteRepository
from storage.tournaments import How, MatchStatus, Tournament, TourneyStatus

CHILD = Path(__file__).with_name("tournament_crash_child.py")
CHAT = "cli:tournament"
T0 = 1_800_000_000.0
KILLS = 8


async def setup(db: Path) -> int:
    """The tournament: two pairs, the final played at ``T0``, in review for ten minutes."""
    repo = SQLiteRepository(db)
    await repo.open()
    try:
        t = new(CHAT, Person("cli:org", "Org"), "tarneeb41", pairing="fixed", now=T0 - 100, start_minutes=1,
                checkin_minutes=1, round_minutes=5, ai=False, options={}, lang="en")
        for i in range(4):
            t = register(t, Person(f"cli:p{i}", f"P{i}"), T0 - 90 + i, None if i % 2 == 0 else 1 + i // 2)
        t = start(t, T0 - 50)
        m = t.match(1, 0)
        assert m is not None and m.status == MatchStatus.CALLED
        m = replace(m, status=MatchStatus.PLAYING, table_id=1)
        t = replace(t, matches=tuple(m if (x.round, x.slot) == (1, 0) else x for x in t.matches))
        t = table_ended(t, m, {0, 2}, T0)
        assert t.next_at == T0 + 10 * MINUTE
        stored = await repo.create_tournament(t)
        return stored.tournament_id
    finally:
        await repo.close()


def child(db: Path, now: float, out: Path, until_round: int | None = None) -> subprocess.Popen[bytes]:
    extra = [] if until_round is None else [str(until_round)]
    with out.open("wb") as f:
        return subprocess.Popen([sys.executable, str(CHILD), str(db), str(now), *extra], stdout=f,
                                stderr=subprocess.DEVNULL, cwd=CHILD.parents[2])


def wait_for(out: Path, word: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while word not in out.read_text():
        assert proc.poll() is None or word in out.read_text(), f"the child ended without {word}"
        assert time.monotonic() < end, f"no {word} in time"
        time.sleep(0.02)


@pytest.mark.slow  # real processes, killed and started again: about 10 s
def test_a_review_window_closes_exactly_once_across_kills_and_restarts(tmp_path: Path) -> None:
    db = tmp_path / "tournament.db"
    tid = asyncio.run(setup(db))
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))

    # during the window: the process holds it and is killed; nothing was decided
    out = tmp_path / "hold.out"
    proc = child(db, T0 + 100, out)
    wait_for(out, "STARTED", proc)
    time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    held = asyncio.run(read(db, tid))
    assert held.status == TourneyStatus.RUNNING and held.match(1, 0).status == MatchStatus.REVIEW  # type: ignore[union-attr]

    # after the window's end: restarted and killed at random moments, maybe while closing it
    for run in range(KILLS):
        out = tmp_path / f"run{run}.out"
        proc = child(db, T0 + 700, out)
        time.sleep(rng.uniform(0.0, 1.5))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()

    # two processes at once: both find it finished, one of them (or an earlier life) advanced it
    outs = [tmp_path / f"last{i}.out" for i in range(2)]
    procs = [child(db, T0 + 700, o) for o in outs]
    for p in procs:
        assert p.wait(timeout=60) == 0
    assert all("FINAL" in o.read_text() for o in outs)
    t = asyncio.run(read(db, tid))
    actions = [a.action for a in t.audit]
    assert t.status == TourneyStatus.FINISHED and t.next_at is None and champion(t) == t.entry(1)
    assert actions.count("result") == 1 and actions.count("played") == 1 and actions.count("champion") == 1
    final = t.match(1, 0)
    assert final is not None and final.status == MatchStatus.DONE and final.decided_at == T0 + 700


async def read(db: Path, tid: int) -> Tournament:
    repo = SQLiteRepository(db)
    await repo.open()
    try:
        t = await repo.get_tournament(tid)
        assert t is not None
        return t
    finally:
        await repo.close()



async def setup_deadline(db: Path) -> int:
    """Four pairs, round 1 called at ``T0`` with a deadline at ``T0 + 300``: in one match one pair
    pressed Ready, in the other nobody did."""
    repo = SQLiteRepository(db)
    await repo.open()
    try:
        t = new(CHAT, Person("cli:org", "Org"), "tarneeb41", pairing="fixed", now=T0 - 100, start_minutes=1,
                checkin_minutes=1, round_minutes=5, ai=False, options={}, lang="en")
        for i in range(8):
            t = register(t, Person(f"cli:p{i}", f"P{i}"), T0 - 90 + i, None if i % 2 == 0 else 1 + i // 2)
        t = start(t, T0)
        m = t.match(1, 0)
        assert m is not None and m.status == MatchStatus.CALLED and t.next_at == T0 + 5 * MINUTE
        ea = t.entry(m.a)
        assert ea is not None
        m = replace(m, ready=ea.players)
        t = replace(t, matches=tuple(m if (x.round, x.slot) == (1, 0) else x for x in t.matches))
        stored = await repo.create_tournament(t)
        return stored.tournament_id
    finally:
        await repo.close()


@pytest.mark.slow  # real processes, killed and started again: about 10 s
def test_a_round_deadline_is_applied_exactly_once_across_kills_and_restarts(tmp_path: Path) -> None:
    db = tmp_path / "tournament.db"
    tid = asyncio.run(setup_deadline(db))
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))

    # before the deadline: the process holds the round and is killed; nothing was decided
    out = tmp_path / "hold.out"
    proc = child(db, T0 + 100, out, until_round=2)
    wait_for(out, "STARTED", proc)
    time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    held = asyncio.run(read(db, tid))
    assert [m.status for m in held.matches if m.round == 1] == [MatchStatus.CALLED] * 2

    # after the deadline: restarted and killed at random moments, maybe while applying it
    for run in range(KILLS):
        out = tmp_path / f"run{run}.out"
        proc = child(db, T0 + 400, out, until_round=2)
        time.sleep(rng.uniform(0.0, 1.5))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait()

    outs = [tmp_path / f"last{i}.out" for i in range(2)]
    procs = [child(db, T0 + 400, o, until_round=2) for o in outs]
    for p in procs:
        assert p.wait(timeout=60) == 0
    assert all("FINAL" in o.read_text() for o in outs)
    t = asyncio.run(read(db, tid))
    first, second = t.match(1, 0), t.match(1, 1)
    assert first is not None and (first.how, first.winner) == (How.FORFEIT, first.a)  # the ready pair goes on
    assert second is not None and (second.how, second.winner) == (How.FORFEIT, None)  # nobody came
    assert [a.action for a in t.audit].count("forfeit") == 2 and [r.number for r in t.rounds] == [1, 2]
    final = t.match(2, 0)
    # round 2 opened once: nobody came through the second slot, so the final was a bye for the first
    assert final is not None and final.status == MatchStatus.DONE and final.how == How.BYE
    assert t.status == TourneyStatus.FINISHED and champion(t) == t.entry(first.a)
