"""Duplicate challenges in storage (migrations sqlite 0012, 0014 / postgres 0009, 0011): on memory,
SQLite and PostgreSQL, one open challenge a chat, each board started and finished once, a challenge
closed exactly once, counted in the season once, and carried by export and import."""

from __future__ import annotations

import asyncio
import dataclasses
import io
from pathlib import Path

import pytest

from bot.core.table import EMPTY
from storage.challenges import OpenChallengeExists
from storage.memory import MemoryRepository
from storage.records import STOPPED, BoardRecord, ChallengeRecord, Seat, TableRecord
from storage.season_store import ChallengeEntry
from storage.sqlite import SQLiteRepository
from storage.transfer import export_database, import_database, read_export
from tests.storage.conftest import Repo


def _challenge(chat: str = "tg:-5", ends_at: float = 100.0) -> ChallengeRecord:
    return ChallengeRecord(0, chat, "tarneeb41", 8, 1234567890123, "tg:1", 10.0, ends_at, lang="ar")


async def test_a_chat_has_one_open_challenge_and_a_new_one_after_it_closed(repo: Repo) -> None:
    first = await repo.create_challenge(_challenge())
    assert first.challenge_id > 0 and first.closed_at is None
    assert await repo.get_challenge(first.challenge_id) == first
    with pytest.raises(OpenChallengeExists):
        await repo.create_challenge(_challenge())
    other = await repo.create_challenge(_challenge("tg:-6"))
    assert other.challenge_id != first.challenge_id
    assert await repo.close_challenge(first.challenge_id, 50.0)
    second = await repo.create_challenge(_challenge())
    assert await repo.chat_challenge("tg:-5") == second
    closed = await repo.get_challenge(first.challenge_id)
    assert closed is not None and closed.closed_at == 50.0


async def test_a_challenge_closes_exactly_once_even_when_asked_at_once(repo: Repo) -> None:
    c = await repo.create_challenge(_challenge(ends_at=100.0))
    assert await repo.due_challenges(99.0) == []
    assert [d.challenge_id for d in await repo.due_challenges(100.0)] == [c.challenge_id]
    answers = await asyncio.gather(*(repo.close_challenge(c.challenge_id, 101.0) for _ in range(5)))
    assert sorted(answers) == [False, False, False, False, True]
    assert await repo.due_challenges(200.0) == []


async def test_a_board_is_started_once_and_finished_once(repo: Repo) -> None:
    c = await repo.create_challenge(_challenge())
    board = BoardRecord(c.challenge_id, "tg:7", "سارة", 0, 41)
    assert await repo.start_board(board)
    assert not await repo.start_board(BoardRecord(c.challenge_id, "tg:7", "سارة", 0, 42))
    assert await repo.board_of_table(41) == board
    assert await repo.board_of_table(42) is None
    done = BoardRecord(c.challenge_id, "tg:7", "سارة", 0, 41, score=-3, tricks=2, bid=3, done_at=70.0)
    assert not await repo.finish_board(BoardRecord(c.challenge_id, "tg:8", "Omar", 0, 43, score=1, done_at=1.0))
    assert await repo.finish_board(done)
    assert not await repo.finish_board(BoardRecord(c.challenge_id, "tg:7", "سارة", 0, 41, score=9, done_at=80.0))
    await repo.start_board(BoardRecord(c.challenge_id, "tg:8", "Omar", 0, 44))
    thrown = BoardRecord(c.challenge_id, "tg:8", "Omar", 0, 44, score=0, done_at=75.0)
    assert await repo.finish_board(thrown)
    assert await repo.challenge_boards(c.challenge_id) == [done, thrown]


async def test_challenges_and_their_boards_move_through_an_export(tmp_path: Path) -> None:
    source = SQLiteRepository(tmp_path / "a.db")
    await source.open()
    c = await source.create_challenge(dataclasses.replace(_challenge(), season=True))
    await source.start_board(BoardRecord(c.challenge_id, "tg:7", "سارة", 0, 41))
    await source.finish_board(BoardRecord(c.challenge_id, "tg:7", "سارة", 0, 41, 4, 5, 4, 70.0))
    out = io.StringIO()
    counts = await export_database(source, out)
    await source.close()
    assert counts["challenges"] == 1 and counts["challenge_boards"] == 1
    target = SQLiteRepository(tmp_path / "b.db")
    await target.open()
    try:
        await import_database(target, read_export(out.getvalue().splitlines()))
        assert await target.get_challenge(c.challenge_id) == c
        assert await target.challenge_boards(c.challenge_id) == [
            BoardRecord(c.challenge_id, "tg:7", "سارة", 0, 41, 4, 5, 4, 70.0)]
        with pytest.raises(OpenChallengeExists):
            await target.create_challenge(_challenge())
        assert await target.close_challenge(c.challenge_id, 80.0)
        assert (await target.create_challenge(_challenge())).challenge_id == c.challenge_id + 1
    finally:
        await target.close()


async def test_a_closed_challenge_counts_once_in_the_season_as_a_match_each_and_a_free_for_all(repo: Repo) -> None:
    c = await repo.create_challenge(dataclasses.replace(_challenge(), season=True))
    assert c.season and (await repo.get_challenge(c.challenge_id)) == c
    seats = (Seat(player_id="tg:7", name="سارة"), EMPTY, EMPTY, EMPTY)
    tables = [await repo.create_table(TableRecord(0, f"dm:tg:{p}", "tarneeb41", {}, 5, 3, f"tg:{p}", STOPPED, seats,
                                                  created_at=10.0)) for p in (7, 8, 9)]
    entries = [ChallengeEntry("tg:7", tables[0], 75, True, 1), ChallengeEntry("tg:8", tables[1], 50, False, 2),
               ChallengeEntry("tg:9", tables[2], 25, False, 3)]
    recorded = await repo.record_challenge("tg:-5", "tarneeb41", 10.0, 120.0, entries)
    if isinstance(repo, MemoryRepository):  # the terminal's backend keeps no challenge seasons
        assert not recorded
        return
    assert recorded
    assert not await repo.record_challenge("tg:-5", "tarneeb41", 10.0, 130.0, entries)  # once
    season = await repo.season_at("tg:-5", 10.0)
    board = await repo.season_board("tg:-5", season.number, "tarneeb41")
    assert [(r.player_id, r.matches, r.wins) for r in board] == [("tg:7", 1, 1), ("tg:8", 1, 0), ("tg:9", 1, 0)]
    assert board[0].rating > board[1].rating > board[2].rating  # the free-for-all, best first
    assert [r.player_id for r in await repo.season_board("tg:-5", None, "tarneeb41")] == ["tg:7", "tg:8", "tg:9"]
    assert await repo.season_board("tg:-5", season.number, "trix") == []
    # the chat's leaderboard counts the same matches, with ratings moved the same way
    leaders = await repo.leaderboard("tg:-5", "tarneeb41")
    assert [(r.player_id, r.matches, r.wins) for r in leaders] == [("tg:7", 1, 1), ("tg:8", 1, 0), ("tg:9", 1, 0)]
    assert leaders[0].rating > leaders[2].rating
