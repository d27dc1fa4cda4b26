"""Restore from a real SQLite file: rebuilt == live, timers and message ids come back, matches are recorded."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import FakeClock
from storage.sqlite import SQLiteRepository
from tests.core.test_manager_helpers import (
    ALICE,
    BOB,
    CHAT,
    Harness,
    live_game,
    make_manager,
    play_one,
    play_to_end,
    replayed,
    started_table,
    turn,
)

_OPEN: list[Any] = []  # repositories and managers to close even when a test fails


@pytest.fixture(autouse=True)
async def close_everything() -> AsyncIterator[None]:
    yield
    while _OPEN:
        await _OPEN.pop().close()


async def open_sqlite(path: Path) -> SQLiteRepository:
    repo = SQLiteRepository(path)
    await repo.open()
    _OPEN.append(repo)
    return repo


def manager(repo: SQLiteRepository, clock: FakeClock | None = None, **settings: Any) -> Harness:
    h = make_manager(repo, clock, **settings)
    _OPEN.append(h.manager)
    return h


async def played_a_while(h: Harness, game: str, moves: int, *people: object) -> int:
    snap = await started_table(h, ALICE, BOB, game=game)
    rng = random.Random(11)
    for _ in range(moves):
        seat = turn(h, snap)
        assert seat is not None
        person = ALICE if snap.table.seats[seat].player_id == ALICE.player_id else BOB
        snap = await play_one(h, snap, person, rng)
    return snap.table_id


@pytest.mark.parametrize("game", ["trix", "tarneeb41", "tarneeb"])
@pytest.mark.parametrize("snapshot_every", [0, 7])
async def test_a_restored_table_equals_the_live_one(tmp_path: Path, game: str, snapshot_every: int) -> None:
    db = tmp_path / "majlis.db"
    clock = FakeClock()
    repo = await open_sqlite(db)
    h = manager(repo, clock, snapshot_every=snapshot_every)
    await h.manager.start()
    table_id = await played_a_while(h, game, 40)
    await h.manager.set_message_id(table_id, "table", "m-1")
    live = live_game(h, table_id).to_json()
    before = h.manager.get(table_id)
    await h.manager.close()
    await repo.close()

    repo2 = await open_sqlite(db)
    h2 = manager(repo2, clock, snapshot_every=snapshot_every)
    await h2.manager.start()
    try:
        after = h2.manager.get(table_id)
        assert after is not None and before is not None
        assert live_game(h2, table_id).to_json() == live
        assert after.table == before.table
        assert after.public == before.public
        assert after.table.message_ids == {"table": "m-1"}
        assert [u.reason for u in h2.updates] == ["restored"]
        assert set(h2.updates[0].private) == {0, 1}
        assert (await replayed(repo2, table_id)).to_json() == live
        if snapshot_every:
            snap = await repo2.latest_snapshot(table_id)
            assert snap is not None and snap[0] > 0
        # it plays on from where it was
        snap = await play_one(h2, after, ALICE if turn(h2, after) == 0 else BOB, random.Random(5))
        assert snap.table.version > after.table.version
    finally:
        await h2.manager.close()
        await repo2.close()


async def test_an_expired_deadline_fires_at_once_on_restore(tmp_path: Path) -> None:
    db = tmp_path / "majlis.db"
    clock = FakeClock()
    repo = await open_sqlite(db)
    h = manager(repo, clock)
    await h.manager.start()
    snap = await started_table(h, ALICE)
    deadline = snap.table.deadline
    assert deadline is not None and turn(h, snap) == 0
    expected = live_game(h, snap.table_id).auto()
    await h.manager.close()
    await repo.close()

    clock.advance(3600)  # the bot was down for an hour
    repo2 = await open_sqlite(db)
    h2 = manager(repo2, clock)
    try:
        await h2.manager.start()
        await h2.manager.run_due()
        autos = h2.events("auto_played")
        assert autos and (autos[0]["seat"], autos[0]["action"]) == (0, expected)
        log = await repo2.actions(snap.table_id)
        assert log[snap.table.version].actor == "timer"
        assert log[snap.table.version].at == clock.now()
    finally:
        await h2.manager.close()
        await repo2.close()


async def test_a_deadline_still_running_keeps_its_time_and_warning(tmp_path: Path) -> None:
    db = tmp_path / "majlis.db"
    clock = FakeClock()
    repo = await open_sqlite(db)
    h = manager(repo, clock)
    await h.manager.start()
    snap = await started_table(h, ALICE)
    await h.manager.close()
    await repo.close()

    clock.advance(40)  # past the warning, before the deadline
    repo2 = await open_sqlite(db)
    h2 = manager(repo2, clock)
    try:
        await h2.manager.start()
        await h2.manager.run_due()
        assert h2.events("turn_warning")[0]["seconds_left"] == 20
        assert h2.events("auto_played") == []
        clock.advance(20)
        await h2.manager.run_due()
        assert h2.events("auto_played")
        assert h2.manager.get(snap.table_id).table.version > snap.table.version  # type: ignore[union-attr]
    finally:
        await h2.manager.close()
        await repo2.close()


async def test_a_lobby_comes_back_and_times_out(tmp_path: Path) -> None:
    db = tmp_path / "majlis.db"
    clock = FakeClock()
    repo = await open_sqlite(db)
    h = manager(repo, clock)
    await h.manager.start()
    snap = await h.manager.create(CHAT, ALICE, "trix")
    await h.manager.join(CHAT, BOB, seat=2)
    await h.manager.close()
    await repo.close()

    repo2 = await open_sqlite(db)
    h2 = manager(repo2, clock)
    try:
        await h2.manager.start()
        back = h2.manager.table_in_chat(CHAT)
        assert back is not None and back.table.seats[2].player_id == BOB.player_id
        clock.advance(600)
        await h2.manager.run_due()
        assert h2.manager.table_in_chat(CHAT) is None
        assert (await repo2.get_table(snap.table_id)).status == "cancelled"  # type: ignore[union-attr]
    finally:
        await h2.manager.close()
        await repo2.close()


async def test_an_ai_turn_resumes_after_restore(tmp_path: Path) -> None:
    db = tmp_path / "majlis.db"
    clock = FakeClock()
    repo = await open_sqlite(db)
    h = manager(repo, clock, ai_delay=2.0)
    await h.manager.start()
    snap = await started_table(h, ALICE)
    rng = random.Random(2)
    for _ in range(30):  # get to a point where an AI seat is to act
        if turn(h, snap) != 0:
            break
        legal = h.manager.view(snap.table_id, 0)["legal"]
        snap = await h.manager.act(snap.table_id, ALICE, snap.table.version, rng.choice(legal))
    assert turn(h, snap) != 0
    await h.manager.close()
    await repo.close()

    repo2 = await open_sqlite(db)
    h2 = manager(repo2, clock, ai_delay=2.0)
    try:
        await h2.manager.start()
        clock.advance(2)
        await h2.manager.run_due()
        assert h2.manager.get(snap.table_id).table.version > snap.table.version  # type: ignore[union-attr]
    finally:
        await h2.manager.close()
        await repo2.close()


async def test_a_finished_match_is_recorded_with_its_winners(tmp_path: Path) -> None:
    repo = await open_sqlite(tmp_path / "majlis.db")
    h = manager(repo)
    await h.manager.start()
    try:
        snap = await started_table(h, ALICE, BOB)
        end = await play_to_end(h, snap.table_id, [ALICE, BOB])
        assert end.table.status == "finished" and end.to_act is None
        assert h.manager.table_in_chat(CHAT) is None
        assert h.updates[-1].reason == "ended"
        assert [e["type"] for e in h.updates[-1].events][-2:] == ["match_over", "match_recorded"]
        result = await repo.table_results(snap.table_id)
        assert result is not None
        game = await replayed(repo, snap.table_id)
        assert game.winner == sorted(r.seat for r in result.results if r.won)
        assert result.scores == game.scores()
        assert (await repo.get_table(snap.table_id)).status == "finished"  # type: ignore[union-attr]
        board = await h.manager.leaderboard(CHAT, "trix")
        assert {row.player_id for row in board} == {ALICE.player_id, BOB.player_id}
        assert all(row.matches == 1 for row in board)
        stats = await h.manager.stats(ALICE.player_id, CHAT)
        assert [s.matches for s in stats if s.game == "trix"] == [1]
        assert await repo.live_tables() == []
        # a new table may now open in the chat
        await h.manager.create(CHAT, BOB, "trix")
    finally:
        await h.manager.close()
        await repo.close()


@pytest.mark.parametrize("game", ["tarneeb41", "tarneeb"])
async def test_a_team_match_played_out_by_the_rule_ai_is_recorded(tmp_path: Path, game: str) -> None:
    from ai import ai_player

    repo = await open_sqlite(tmp_path / "majlis.db")
    h = manager(repo, ai=lambda level: ai_player("easy"), ai_delay=3.0)
    await h.manager.start()
    try:
        snap = await started_table(h, ALICE, game=game)
        await h.manager.leave(CHAT, ALICE)  # nobody left watching: the AI plays out without pacing
        await h.manager.run_due()
        end = h.manager.get(snap.table_id)
        assert end is not None and end.table.status == "finished"
        result = await repo.table_results(snap.table_id)
        assert result is not None
        game_state = await replayed(repo, snap.table_id)
        winners = sorted(r.seat for r in result.results if r.won)
        assert winners == game_state.winner and winners in ([0, 2], [1, 3])
        assert result.scores == game_state.scores()
        [alice] = [r for r in result.results if r.player_id == ALICE.player_id]
        assert alice.left and not alice.won and alice.seat == 0
    finally:
        await h.manager.close()
        await repo.close()


async def test_a_table_restore_cannot_rebuild_does_not_keep_its_chat_from_a_new_table(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import dataclasses

    from storage.records import ActionRecord

    repo = await open_sqlite(tmp_path / "t.sqlite3")
    h = manager(repo)
    await h.manager.start()
    table_id = await played_a_while(h, "tarneeb41", 3)
    await h.manager.close()
    _OPEN.remove(h.manager)
    # A log that no longer replays (say, a rule changed under it): restore skips the table at start.
    record = await repo.get_table(table_id)
    assert record is not None and record.status == "playing"
    bad = ActionRecord(table_id, record.version + 1, 0, "play ZZ", ALICE.player_id, 0.0)
    await repo.append_action(bad, dataclasses.replace(record, version=record.version + 1))
    h2 = manager(repo)
    await h2.manager.start()
    assert h2.manager.table_in_chat(CHAT) is None
    snap = await h2.manager.create(CHAT, BOB, "trix")  # the chat may play again
    assert snap.table_id != table_id and snap.table.status == "lobby"
    old = await repo.get_table(table_id)
    assert old is not None and old.status == "stopped"
    assert len(await repo.actions(table_id)) == record.version + 1  # its log is kept, for majlis replay
    assert [t.table_id for t in await repo.live_tables()] == [snap.table_id]
    assert any("could not be restored" in r.getMessage() for r in caplog.records)


async def test_message_ids_of_a_table_no_longer_held_written_at_once_are_all_kept(tmp_path: Path) -> None:
    import asyncio

    from storage.records import Seat, TableRecord

    repo = await open_sqlite(tmp_path / "ids.sqlite3")
    h = manager(repo)
    await h.manager.start()
    # a table this manager does not hold (ended here, or held before a restart), in storage only
    table_id = await repo.create_table(TableRecord(
        table_id=0, chat_id="tg:-300", game="trix", options={}, seed=1, dealer=None, creator=ALICE.player_id,
        status="finished", seats=(Seat(ALICE.player_id, ALICE.name), Seat(), Seat(), Seat())))
    keys = [f"hand:{table_id}:tg:{n}" for n in range(6)]
    await asyncio.gather(*(h.manager.set_message_id(table_id, k, str(100 + n)) for n, k in enumerate(keys)))
    stored = await repo.get_table(table_id)
    assert stored is not None
    assert {k: stored.message_ids.get(k) for k in keys} == {k: str(100 + n) for n, k in enumerate(keys)}
