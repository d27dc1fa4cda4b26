"""Tournaments in storage, on memory, a real SQLite file and a real PostgreSQL alike: a tournament is
written whole and read back the same, a write at a stale rev changes nothing (of two processes one
wins), a chat has one open tournament, due steps are found by time, and an export carries them."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.sqlite import SQLiteRepository
from storage.tournaments import (
    How,
    MatchStatus,
    TAudit,
    TEntry,
    TMatch,
    Tournament,
    TournamentConflict,
    TournamentExists,
    TourneyStatus,
    TPlayer,
    TRound,
)

Repo = MemoryRepository | SQLiteRepository | PostgresRepository


def a_tournament(chat: str = "tg:-100") -> Tournament:
    return Tournament(0, chat, "tarneeb41", "knockout", "draw", "tg:1", "Organiser", TourneyStatus.REGISTRATION,
                      1000.0, 1600.0, 2200.0, 10, ai_allowed=True, options={"target": 31}, lang="ar",
                      next_at=1600.0)


def running(t: Tournament) -> Tournament:
    return replace(
        t, status=TourneyStatus.RUNNING, message_id="55", next_at=2800.0, review_minutes=10,
        players=(TPlayer("tg:1", "سارة", 1001.0, True, 1), TPlayer("tg:2", "Omar", 1002.0, True, 1),
                 TPlayer("tg:3", "Lina", 1003.0, False, None)),
        entries=(TEntry(1, ("tg:1", "tg:2")), TEntry(2, ("ai:normal:1", "ai:normal:2"), ai=True),
                 TEntry(3, ("tg:3", "tg:4"), disqualified=True)),
        rounds=(TRound(1, 2200.0, 2800.0),),
        matches=(TMatch(1, 0, 1, 2, MatchStatus.PLAYING, table_id=7, ready=("tg:1", "tg:2")),
                 TMatch(1, 1, 3, None, MatchStatus.DONE, winner=3, how=How.BYE, decided_at=2200.0),
                 TMatch(1, 2, 4, 5, MatchStatus.REVIEW, table_id=8, winner=5, how=How.PLAYED, decided_at=2500.0,
                        review_until=3100.0, flagged_by="tg:4", flag_reason="رفض الورقة")),
        audit=(TAudit(1, 2200.0, "bot", "bye", "1:1"),))


async def test_a_tournament_is_written_whole_and_read_back_the_same(repo: Repo) -> None:
    t = await repo.create_tournament(a_tournament())
    assert t.tournament_id >= 1 and t.rev == 0
    saved = await repo.save_tournament(running(t))
    assert saved.rev == 1
    assert await repo.get_tournament(t.tournament_id) == saved
    assert await repo.chat_tournament("tg:-100") == saved
    assert await repo.chat_tournament("tg:-999") is None


async def test_a_write_at_a_stale_rev_changes_nothing(repo: Repo) -> None:
    t = await repo.create_tournament(a_tournament())
    first = await repo.save_tournament(running(t))
    with pytest.raises(TournamentConflict):
        await repo.save_tournament(replace(t, status=TourneyStatus.CANCELLED))  # the other process read rev 0
    assert await repo.get_tournament(t.tournament_id) == first


async def test_a_chat_has_one_open_tournament_and_may_open_another_after_it(repo: Repo) -> None:
    t = await repo.create_tournament(a_tournament())
    with pytest.raises(TournamentExists):
        await repo.create_tournament(a_tournament())
    other = await repo.create_tournament(a_tournament("tg:-200"))
    assert other.tournament_id != t.tournament_id
    await repo.save_tournament(replace(t, status=TourneyStatus.FINISHED, next_at=None))
    again = await repo.create_tournament(a_tournament())
    assert (await repo.chat_tournament("tg:-100")) == again
    assert await repo.open_tournaments() == sorted([other.tournament_id, again.tournament_id])


async def test_due_steps_are_found_by_their_time_and_only_while_open(repo: Repo) -> None:
    t = await repo.create_tournament(a_tournament())
    u = await repo.create_tournament(replace(a_tournament("tg:-200"), next_at=1500.0))
    assert await repo.due_tournaments(1400.0) == []
    assert await repo.due_tournaments(1600.0) == [u.tournament_id, t.tournament_id]
    await repo.save_tournament(replace(u, status=TourneyStatus.CANCELLED))
    assert await repo.due_tournaments(1600.0) == [t.tournament_id]


async def test_a_tournament_survives_a_reopen(repo: Repo, reopen: object) -> None:
    t = await repo.create_tournament(a_tournament())
    saved = await repo.save_tournament(running(t))
    fresh = await reopen(repo)  # type: ignore[operator]
    assert await fresh.get_tournament(t.tournament_id) == saved


@pytest.mark.parametrize("kind", ["sqlite"])
async def test_tournaments_survive_an_export_and_import(repo: Repo, tmp_path: Path, kind: str) -> None:
    from storage.transfer import export_database, import_database, read_export

    t = await repo.create_tournament(a_tournament())
    saved = await repo.save_tournament(running(t))
    assert isinstance(repo, SQLiteRepository)
    out = io.StringIO()
    counts = await export_database(repo, out)
    assert counts["tournaments"] == 1 and counts["tournament_matches"] == 3 and counts["tournament_audit"] == 1
    target = SQLiteRepository(tmp_path / "copy.db")
    await target.open()
    try:
        await import_database(target, read_export(out.getvalue().splitlines()))
        assert await target.get_tournament(t.tournament_id) == saved
        assert (await target.create_tournament(a_tournament("tg:-300"))).tournament_id == t.tournament_id + 1
    finally:
        await target.close()


def test_an_export_made_before_the_review_window_reads_its_tournaments_with_no_window() -> None:
    from storage.transfer import FORMAT, TABLES, VERSION, read_export

    old = {"tournaments": TABLES["tournaments"][:-1], "tournament_entries": TABLES["tournament_entries"][:-1],
           "tournament_matches": TABLES["tournament_matches"][:-6]}
    lines = [json.dumps({"format": FORMAT, "version": VERSION, "schema": 12})]
    lines += [json.dumps([name, list(range(len(cols)))]) for name, cols in old.items()]
    rows = dict(read_export(lines))
    assert rows["tournaments"][-1] == 0 and rows["tournament_entries"][-1] == 0
    assert rows["tournament_matches"][-6:] == (None, None, "", "[]", "[]", "[]")


def test_an_export_made_before_trix_pools_reads_its_matches_as_pair_matches() -> None:
    from storage.transfer import FORMAT, TABLES, VERSION, read_export

    cols = TABLES["tournament_matches"][:-3]
    lines = [json.dumps({"format": FORMAT, "version": VERSION, "schema": 13}),
             json.dumps(["tournament_matches", list(range(len(cols)))])]
    row = dict(read_export(lines))["tournament_matches"]
    assert row[:len(cols)] == tuple(range(len(cols))) and row[-3:] == ("[]", "[]", "[]")


def trix_pools(t: Tournament) -> Tournament:
    """A Trix tournament in pools: a played pool, one being played with an AI seat, and a sit-out bye."""
    people = tuple(TPlayer(f"tg:{i}", f"P{i}", 1000.0 + i, True, i) for i in range(1, 8))
    return replace(
        t, game="trix", format="pools:3", status=TourneyStatus.RUNNING, review_minutes=0, next_at=2800.0,
        players=people, entries=(*(TEntry(i, (f"tg:{i}",)) for i in range(1, 8)), TEntry(8, (), ai=True)),
        rounds=(TRound(1, 2200.0, 2800.0),),
        matches=(TMatch(1, 0, None, None, MatchStatus.DONE, table_id=9, pool=(3, 1, 4, 2), how=How.PLAYED,
                        decided_at=2600.0, scores=(120, -40, -40, -40), points=(8, 3, 3, 3)),
                 TMatch(1, 1, None, None, MatchStatus.PLAYING, table_id=10, pool=(5, 6, 7, 8),
                        ready=("tg:5", "tg:6", "tg:7"))))


async def test_a_trix_pool_of_four_entries_is_written_and_read_back_the_same(repo: Repo) -> None:
    t = await repo.create_tournament(a_tournament("tg:-400"))
    saved = await repo.save_tournament(trix_pools(t))
    back = await repo.get_tournament(t.tournament_id)
    assert back == saved
    assert back is not None and back.match(1, 0) is not None
    assert back.matches[0].pool == (3, 1, 4, 2) and back.matches[0].points == (8, 3, 3, 3)
    assert back.matches[1].scores == () and back.matches[1].pool[-1] == 8


async def test_a_trix_pools_tournament_survives_an_export_and_import(tmp_path: Path) -> None:
    from storage.transfer import export_database, import_database, read_export

    source = SQLiteRepository(tmp_path / "pools.db")
    target = SQLiteRepository(tmp_path / "copy.db")
    await source.open()
    await target.open()
    try:
        t = await source.create_tournament(a_tournament())
        saved = await source.save_tournament(trix_pools(t))
        out = io.StringIO()
        await export_database(source, out)
        await import_database(target, read_export(out.getvalue().splitlines()))
        assert await target.get_tournament(t.tournament_id) == saved
    finally:
        await source.close()
        await target.close()
