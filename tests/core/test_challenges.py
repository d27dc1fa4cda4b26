"""The duplicate challenge (bot/core/challenges.py) through the one dispatch: matchpoints by hand,
six people playing the same eight deals at different times against AI players that answer the same
plays the same way (also after a restart), who may start and play it from where, and its close at
the deadline, exactly once of two processes."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import engine
from ai import ai_player
from bot.core.challenges import (
    TRIX_CONTRACTS,
    against_field,
    board_contract,
    board_options,
    board_result,
    board_seed,
    matchpoints,
    rank,
    season_entries,
)
from bot.core.clock import FakeClock
from bot.core.commands import Act, Actor, PlayChallenge, ShowChallenge, StartChallenge
from bot.core.errors import Refusal, TableError
from bot.core.identity import dm_dest
from bot.core.model import Person
from bot.core.service import Service
from bot.core.table import EMPTY
from storage.records import BoardRecord, ChallengeRecord, TableRecord
from storage.sqlite import SQLiteRepository
from tests.core.test_manager_helpers import CHAT, Harness, make_manager

DAY = 86400.0
ADMIN = Person("tg:1", "Alice")
PEOPLE = [Person(f"tg:{i}", name) for i, name in
          enumerate(["Alice", "سارة", "Omar", "Lina", "رامي", "Hadi"], start=1)]


async def yes() -> bool:
    return True


def test_matchpoints_of_one_deal_computed_by_hand() -> None:
    # six scores on one board: 4, 4 and 4 tie at the top; 2; -3; -5; and one who did not finish it
    scores: dict[str, int | None] = {"a": 4, "b": 4, "c": -3, "d": 2, "e": 4, "f": -5}
    # a: beats c, d, f (3 x 2) and ties b, e (2 x 1) = 8 of 10 -> 80%
    # d: beats c, f = 4 of 10 -> 40%; c: beats f = 2 -> 20%; f: 0
    assert matchpoints(scores) == {"a": 80.0, "b": 80.0, "c": 20.0, "d": 40.0, "e": 80.0, "f": 0.0}
    assert matchpoints({"a": 3, "b": None}) == {"a": 100.0, "b": 0.0}
    assert matchpoints({"a": -9}) == {"a": 50.0}


def test_the_ranking_is_the_mean_over_every_deal_and_the_field_is_shown_only_after_playing() -> None:
    ch = ChallengeRecord(1, CHAT, "tarneeb41", 2, 5, "tg:1", 0.0, DAY)
    rows = [BoardRecord(1, "tg:1", "A", 0, 10, 3, 4, 3, 1.0), BoardRecord(1, "tg:2", "B", 0, 11, -2, 1, 2, 2.0),
            BoardRecord(1, "tg:3", "C", 0, 12, 3, 3, 3, 3.0), BoardRecord(1, "tg:1", "A", 1, 13, 0, None, None, 4.0),
            BoardRecord(1, "tg:2", "B", 1, 14, 5, 5, 4, 5.0)]
    view = rank(ch, rows, "tg:1")
    # board 0: A and C tie at 3 over B: 75%, 75%, 0%; board 1: B over A: 100%, 0%; C did not play it: 0%
    assert [(line.player_id, line.percent, line.played) for line in view.ranking] == [
        ("tg:2", 50.0, 2), ("tg:1", 37.5, 2), ("tg:3", 37.5, 1)]
    assert view.mine is not None and [(c.board, c.score, c.field, c.field_score, c.field_tricks, c.percent)
                                      for c in view.mine] == [(0, 3, 2, 0.5, 2.0, 75.0), (1, 0, 1, 5.0, 5.0, 0.0)]
    assert rank(ch, rows, "tg:3").mine is None  # C has not played every deal: no peeking at the field


def _first(legal: list[str], rng: random.Random) -> str:
    return legal[0]


def _last(legal: list[str], rng: random.Random) -> str:
    return legal[-1]


def _random(legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


async def _play_all(h: Harness, person: Person, choose: Callable[[list[str], random.Random], str],
                    rng: random.Random, *, stop_after: int | None = None) -> int:
    """The person plays their boards (their moves by ``choose``), the AI moving on the fake clock;
    returns the moves made (stops early after ``stop_after`` of them)."""
    service = Service(h.manager)
    dm = dm_dest(person.player_id)
    moves = 0
    for _ in range(5000):
        await h.manager.run_due()
        snap = h.manager.table_in_chat(dm)
        if snap is None:
            return moves
        if snap.to_act == 0:
            legal = h.manager.view(snap.table_id, 0)["legal"]
            await service.dispatch(Act(snap.table_id, snap.table.version, choose(list(legal), rng)), Actor(person, dm))
            moves += 1
            if stop_after is not None and moves >= stop_after:
                return moves
        else:
            h.clock.advance(1.0)
    raise AssertionError("the boards did not end")


async def _serving(repo: SQLiteRepository, clock: FakeClock) -> tuple[Harness, Service]:
    """A manager on ``repo`` (AI moves at once, no pause between deals), started, and its service."""
    h = make_manager(repo, clock, ai=ai_player, deal_pause=0.0)
    await h.manager.start()
    return h, Service(h.manager)


async def _logs(repo: SQLiteRepository, challenge_id: int, player: str) -> list[list[tuple[int, str]]]:
    boards = [b for b in await repo.challenge_boards(challenge_id) if b.player_id == player]
    return [[(a.seat, a.action) for a in await repo.actions(b.table_id)] for b in sorted(boards, key=lambda b: b.board)]


@pytest.mark.slow
async def test_six_people_play_the_same_eight_deals_at_different_times_against_the_same_ai(tmp_path: Path) -> None:
    clock = FakeClock(1_000_000.0)
    repo = SQLiteRepository(tmp_path / "majlis.db")
    await repo.open()
    h, service = await _serving(repo, clock)
    with pytest.raises(TableError) as e:
        await service.dispatch(StartChallenge("tarneeb41", 8, 3), Actor(PEOPLE[1], CHAT))
    assert e.value.code == Refusal.ADMINS_ONLY
    with pytest.raises(TableError) as e:
        await service.dispatch(StartChallenge("tarneeb41", 8, 3), Actor(ADMIN, dm_dest(ADMIN.player_id), yes))
    assert e.value.code == Refusal.GROUP_ONLY
    challenge = await service.dispatch(StartChallenge("tarneeb41", 8, 3), Actor(ADMIN, CHAT, yes))
    with pytest.raises(TableError) as e:
        await service.dispatch(StartChallenge("tarneeb", 4, 1), Actor(ADMIN, CHAT, yes))
    assert e.value.code == Refusal.CHALLENGE_EXISTS
    with pytest.raises(TableError) as e:  # a stranger cannot reach it from a private chat by its number
        await service.dispatch(PlayChallenge(challenge.challenge_id), Actor(PEOPLE[2], dm_dest(PEOPLE[2].player_id)))
    assert e.value.code == Refusal.NO_CHALLENGE

    policies = [_first, _last, _random, _first, _random, _last]  # Alice and Lina play alike
    for i, person in enumerate(PEOPLE):
        clock.advance(3600.0 * (i + 1))  # each at their own time
        snap = await service.dispatch(PlayChallenge(), Actor(person, CHAT))
        assert snap.table.chat_id == dm_dest(person.player_id) and snap.table.seats[0].player_id == person.player_id
        view = await service.dispatch(ShowChallenge(), Actor(person, CHAT))
        assert view.mine is None  # nothing of the field before playing
        if person == PEOPLE[3]:  # Lina: the process stops in the middle of a deal, then goes on
            await _play_all(h, person, policies[i], random.Random(i), stop_after=20)
            await h.manager.close()
            h, service = await _serving(repo, clock)
        await _play_all(h, person, policies[i], random.Random(i))
        view = await service.dispatch(ShowChallenge(), Actor(person, CHAT))
        assert view.played == 8 and view.mine is not None and len(view.mine) == 8
        with pytest.raises(TableError) as e:
            await service.dispatch(PlayChallenge(), Actor(person, CHAT))
        assert e.value.code == Refusal.CHALLENGE_PLAYED

    boards = await repo.challenge_boards(challenge.challenge_id)
    assert len(boards) == 48 and all(b.done_at is not None for b in boards)
    for k in range(8):  # everyone was dealt the same cards in the same seats, by the same dealer
        tables = [await repo.get_table(b.table_id) for b in boards if b.board == k]
        assert {(t.seed, t.dealer, t.ai_level) for t in tables if t is not None} == {
            (board_seed(challenge.seed, k), 3, "easy")}
    alice = await _logs(repo, challenge.challenge_id, PEOPLE[0].player_id)
    lina = await _logs(repo, challenge.challenge_id, PEOPLE[3].player_id)
    assert alice == lina  # the same plays met the same AI answers, deal by deal, across the restart
    omar = await _logs(repo, challenge.challenge_id, PEOPLE[2].player_id)
    assert omar != alice
    view = await service.dispatch(ShowChallenge(), Actor(PEOPLE[0], CHAT))
    assert len(view.finished) == 6
    board0 = {b.player_id: b.score for b in boards if b.board == 0}
    assert view.mine is not None and view.mine[0].percent == matchpoints(board0)[PEOPLE[0].player_id]

    # the deadline: two processes on the file tick; one closes it and hears of it
    other = make_manager(SQLiteRepository(tmp_path / "majlis.db"), clock, ai=ai_player)
    await other.repo.open()
    clock.advance(3 * DAY)
    closed = [await h.manager.challenges.tick(), await other.manager.challenges.tick(),
              await h.manager.challenges.tick()]
    assert [len(c) for c in closed] == [1, 0, 0]
    with pytest.raises(TableError) as e:
        await service.dispatch(PlayChallenge(), Actor(PEOPLE[0], CHAT))
    assert e.value.code == Refusal.NO_CHALLENGE
    await other.repo.close()
    await h.manager.close()
    await repo.close()


async def test_the_deal_of_a_board_is_what_its_seed_deals() -> None:
    a = engine.new_game("tarneeb41", seed=board_seed(99, 2), dealer=3)
    b = engine.new_game("tarneeb41", seed=board_seed(99, 2), dealer=3)
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)] and a.to_act == 0
    assert board_seed(99, 2) != board_seed(99, 3)


def test_points_against_the_field_of_one_deal_computed_by_hand() -> None:
    # four scores on one Trix board: -25, -50, 0, and one who did not finish it
    scores: dict[str, int | None] = {"a": -25, "b": -50, "c": 0, "d": None}
    # a: -25 - mean(-50, 0) = 0; b: -50 - mean(-25, 0) = -37.5; c: 0 - mean(-25, -50) = +37.5
    # d: the lowest score made (-50) minus the mean of all made (-25) = -25
    assert against_field(scores) == {"a": 0.0, "b": -37.5, "c": 37.5, "d": -25.0}
    assert against_field({"a": 10}) == {"a": 0.0}
    assert against_field({"a": None}) == {"a": 0.0}


def test_a_trix_ranking_is_by_points_against_the_field_over_every_deal() -> None:
    ch = ChallengeRecord(1, CHAT, "trix", 2, 5, "tg:1", 0.0, DAY)
    rows = [BoardRecord(1, "tg:1", "A", 0, 10, 0, 0, None, 1.0), BoardRecord(1, "tg:2", "B", 0, 11, -75, 1, None, 2.0),
            BoardRecord(1, "tg:3", "C", 0, 12, 0, 0, None, 3.0), BoardRecord(1, "tg:1", "A", 1, 13, -50, 2, None, 4.0),
            BoardRecord(1, "tg:2", "B", 1, 14, 0, 0, None, 5.0)]
    view = rank(ch, rows, "tg:1")
    # board 0 (King of Hearts): A 0 - mean(-75, 0) = +37.5, B -75 - 0 = -75, C +37.5
    # board 1 (queens): A -50 - 0 = -50, B 0 + 50 = +50, C did not play it: -50 - mean(-50, 0) = -25
    # over the two deals: A -6.25, B -12.5, C +6.25
    assert [(line.player_id, line.against, line.played) for line in view.ranking] == [
        ("tg:3", 6.25, 1), ("tg:1", -6.25, 2), ("tg:2", -12.5, 2)]
    assert view.mine is not None and [(c.board, c.contract, c.score, c.tricks, c.field, c.field_score,
                                       c.field_tricks, c.against) for c in view.mine] == [
        (0, "king", 0, 0, 2, -37.5, 0.5, 37.5), (1, "queens", -50, 2, 1, 0.0, 0.0, -50.0)]


def test_a_trix_board_is_one_deal_of_its_contract_and_its_result_is_counted_in_the_contracts_unit() -> None:
    assert [board_contract(k) for k in range(7)] == ["king", "queens", "diamonds", "tricks", "trix", "king", "queens"]
    for k in range(5):
        seed = board_seed(7, k)
        options = board_options("trix", k)
        game = engine.new_game("trix", seed=seed, dealer=3, options=options)
        owner = next(s for s in range(4) if "7H" in game.hand(s))
        assert game.phase in ("double", "play") and game.owner == owner  # nobody chooses: the contract is set
        record = TableRecord(table_id=1, chat_id="dm:tg:1", game="trix", options=dict(game.options), seed=seed,
                             dealer=3, creator="tg:1", status="playing", seats=(EMPTY,) * 4, created_at=0.0)
        actions: list[tuple[int, str]] = []
        scored: dict[str, object] = {}
        while not scored:
            seat = game.to_act
            assert seat is not None
            action = game.auto()
            actions.append((seat, action))
            scored = next((e for e in game.act(seat, action) if e["type"] == "deal_scored"), {})
        summary = scored["summary"]
        assert isinstance(summary, dict) and summary["contract"] == board_contract(k)
        result = board_result(record, actions)
        assert result is not None and result[0] == scored["deltas"]["players"][0]  # type: ignore[index]
        units = result[1]
        taken = summary["taken"]["0"]
        assert units == {"king": int("KH" in taken), "queens": sum(c[0] == "Q" for c in taken),
                         "diamonds": sum(c[1] == "D" for c in taken), "tricks": summary["tricks"][0],
                         "trix": summary["places"].index(0) + 1 if 0 in summary["places"] else 4}[board_contract(k)]


@pytest.mark.slow
async def test_three_people_play_the_same_five_trix_deals_and_the_same_plays_meet_the_same_ai(
        tmp_path: Path) -> None:
    clock = FakeClock(1_000_000.0)
    repo = SQLiteRepository(tmp_path / "majlis.db")
    await repo.open()
    h, service = await _serving(repo, clock)
    challenge = await service.dispatch(StartChallenge("trix", 5, 2), Actor(ADMIN, CHAT, yes))
    assert challenge.game == "trix"
    for i, (person, policy) in enumerate(zip(PEOPLE[:3], [_first, _random, _first], strict=True)):
        clock.advance(3600.0 * (i + 1))
        await service.dispatch(PlayChallenge(), Actor(person, CHAT))
        await _play_all(h, person, policy, random.Random(i))
    boards = await repo.challenge_boards(challenge.challenge_id)
    assert len(boards) == 15 and all(b.done_at is not None and b.score is not None for b in boards)
    for k in range(5):
        tables = [await repo.get_table(b.table_id) for b in boards if b.board == k]
        assert {(t.seed, (t.options or {}).get("only_contract")) for t in tables if t is not None} == {
            (board_seed(challenge.seed, k), board_contract(k))}
    first = await _logs(repo, challenge.challenge_id, PEOPLE[0].player_id)
    third = await _logs(repo, challenge.challenge_id, PEOPLE[2].player_id)
    assert first == third  # the same plays met the same AI answers
    view = await service.dispatch(ShowChallenge(), Actor(PEOPLE[0], CHAT))
    assert view.mine is not None and [c.contract for c in view.mine] == list(TRIX_CONTRACTS)
    scores = {b.player_id: b.score for b in boards if b.board == 1}
    assert view.mine[1].against == pytest.approx(against_field(scores)[PEOPLE[0].player_id])
    mine = next(line for line in view.ranking if line.player_id == PEOPLE[0].player_id)
    per_board = [against_field({b.player_id: b.score for b in boards if b.board == k})[PEOPLE[0].player_id]
                 for k in range(5)]
    assert mine.against == pytest.approx(sum(per_board) / 5)
    await h.manager.close()
    await repo.close()


@pytest.mark.slow
async def test_a_challenge_started_with_season_on_counts_in_the_season_once_it_closes(tmp_path: Path) -> None:
    clock = FakeClock(1_000_000.0)
    repo = SQLiteRepository(tmp_path / "majlis.db")
    await repo.open()
    h, service = await _serving(repo, clock)
    with pytest.raises(TableError) as e:  # not a yes or no
        await service.dispatch(StartChallenge("tarneeb41", 2, 1, "on"), Actor(ADMIN, CHAT, yes))  # type: ignore[arg-type]
    assert e.value.code == Refusal.BAD_ACTION
    challenge = await service.dispatch(StartChallenge("tarneeb41", 2, 1, True), Actor(ADMIN, CHAT, yes))
    assert challenge.season
    for i, (person, policy) in enumerate(zip(PEOPLE[:3], [_first, _last, _random], strict=True)):
        await service.dispatch(PlayChallenge(), Actor(person, CHAT))
        await _play_all(h, person, policy, random.Random(i))
    season = await repo.season_at(CHAT, clock.now())
    assert await repo.season_board(CHAT, season.number, "tarneeb41") == []  # nothing before it closes
    clock.advance(DAY)
    assert len(await h.manager.challenges.tick()) == 1
    view = await service.dispatch(ShowChallenge(), Actor(PEOPLE[0], CHAT))
    entries = season_entries(view, await repo.challenge_boards(challenge.challenge_id))
    board = await repo.season_board(CHAT, season.number, "tarneeb41")
    assert sorted((r.player_id, r.matches, r.wins) for r in board) == sorted(
        (e.player_id, 1, int(e.won)) for e in entries)
    assert sum(e.won for e in entries) == 1 or len({e.rank for e in entries}) < 3  # the top half of three: one
    best = min(entries, key=lambda e: e.rank)
    assert board[0].player_id == best.player_id or board[0].rating == board[1].rating
    assert await h.manager.challenges.tick() == []  # closed and counted once

    # the next one, season off (the default): it closes without touching the season
    plain = await service.dispatch(StartChallenge("tarneeb41", 1, 1), Actor(ADMIN, CHAT, yes))
    assert not plain.season
    await service.dispatch(PlayChallenge(), Actor(PEOPLE[0], CHAT))
    await _play_all(h, PEOPLE[0], _first, random.Random(9))
    clock.advance(DAY)
    assert len(await h.manager.challenges.tick()) == 1
    after = await repo.season_board(CHAT, (await repo.season_at(CHAT, challenge.created_at)).number, "tarneeb41")
    assert after == board
    await h.manager.close()
    await repo.close()


def test_a_challenge_counts_as_a_match_each_won_by_the_top_half() -> None:
    ch = ChallengeRecord(1, CHAT, "trix", 1, 5, "tg:1", 0.0, DAY, closed_at=DAY, season=True)
    rows = [BoardRecord(1, f"tg:{i}", n, 0, 10 + i, s, 0, None, 1.0)
            for i, (n, s) in enumerate([("A", 0), ("B", -75), ("C", 0), ("D", -25)], start=1)]
    rows.append(BoardRecord(1, "tg:9", "E", 0, 30, None, None, None, None))  # started, never finished
    entries = season_entries(rank(ch, rows), rows)
    # against the field: A and C 0 - mean(-75, 0, -25) = +33.3; D -25 + 25 = 0; B -75 - (-8.3) = -66.7
    # E did not finish: no deal played, so no match; A and C share the top (the top half of four: two)
    assert [(e.player_id, e.table_id, e.score, e.won, e.rank) for e in entries] == [
        ("tg:1", 11, 33, True, 1), ("tg:3", 13, 33, True, 1), ("tg:4", 14, 0, False, 3), ("tg:2", 12, -67, False, 4)]
