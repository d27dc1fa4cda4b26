"""Trix tournaments in pools of four (bot/core/pools.py through bot/core/tournaments.py): each person
alone, seated in pools by a seeded draw then by the standings without repeating a table of four where
possible, 4/3/2/1 points by rank at the table with ties sharing, the Trix score as the first tie-break,
AI seats that fill the last pool and never rank, sit-outs with an average table's bye when there is no
AI, the forfeit rule per person, and the champion at the top after the last round."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core import pools
from bot.core.clock import FakeClock
from bot.core.commands import Actor, NewTournament, TournamentAction
from bot.core.errors import Refusal, TableError
from bot.core.model import Person
from bot.core.service import Service
from bot.core.tournaments import (
    MINUTE,
    champion,
    check_in,
    deadline,
    decide,
    flag,
    new,
    people_of,
    ready,
    register,
    start,
    table_ended,
)
from storage.sqlite import SQLiteRepository
from storage.tournaments import How, MatchStatus, TMatch, Tournament, TourneyStatus
from tests.core.test_manager_helpers import CHAT, Harness, make_manager, person_to_act, turn
from tests.core.test_tournaments import ORGANISER, admin, refused

TWELVE = [Person(f"tg:{i}", name) for i, name in enumerate(
    ["Sara", "Omar", "Lina", "Hadi", "Maya", "Karim", "Rana", "Ziad", "Nour", "Tariq", "Dana", "Fadi"], start=11)]


def trix(n: int, *, ai: bool = False, rounds: int | None = 3, review: int = 0) -> Tournament:
    """A Trix tournament in registration with ``n`` people registered (``review``: its window's minutes)."""
    t = new("tg:-100", ORGANISER, "trix", pairing="draw", now=0.0, start_minutes=10, checkin_minutes=5,
            round_minutes=5, ai=ai, options={}, lang="en", rounds=rounds, review_minutes=review)
    t = replace(t, tournament_id=7)
    for i, p in enumerate(TWELVE[:n]):
        t = register(t, p, float(i))
    return t


def current(t: Tournament) -> list[TMatch]:
    return [m for m in t.matches if m.round == t.rounds[-1].number]


def play(t: Tournament, m: TMatch, scores: list[int], table_id: int) -> Tournament:
    """Pool ``m``'s table is played to these Trix scores, in seat order."""
    t = replace(t, matches=tuple(replace(x, status=MatchStatus.PLAYING, table_id=table_id)
                                 if (x.round, x.slot) == (m.round, m.slot) else x for x in t.matches))
    m = t.match(m.round, m.slot)  # type: ignore[assignment]
    assert m is not None
    return table_ended(t, m, set(), 100.0 + table_id, dict(enumerate(scores)))


def halves(t: Tournament) -> dict[int, int]:
    return {s.entry: s.halves for s in pools.table(t)}


def test_points_are_four_three_two_one_by_rank_and_tied_people_share_their_ranks_points() -> None:
    assert pools.halves_by_rank([300, -100, 50, -250]) == (8, 4, 6, 2)
    assert pools.halves_by_rank([100, 100, 0, -200]) == (7, 7, 4, 2)  # 3½ each
    assert pools.halves_by_rank([0, 0, 0, 0]) == (5, 5, 5, 5)
    assert pools.halves_by_rank([10, 10, 10, -30]) == (6, 6, 6, 2)
    assert pools.halves_by_rank([-5, 20, 20, 20]) == (2, 6, 6, 6)
    assert all(sum(pools.halves_by_rank(s)) == 20 for s in ([1, 2, 3, 4], [1, 1, 2, 2], [7, 7, 7, 1]))


def test_a_trix_tournament_takes_people_alone_and_its_rounds_from_the_organiser() -> None:
    t = trix(0, rounds=None, review=10)
    assert (t.format, t.pairing, t.review_minutes) == ("pools", "draw", 10)  # a review window, as pair matches
    assert trix(0, rounds=5).format == "pools:5"
    for bad in ({"pairing": "fixed"}, {"fmt": "swiss"}, {"rounds": 0}, {"rounds": 16}):
        with pytest.raises(TableError):
            new("tg:-100", ORGANISER, "trix", **{"pairing": "draw", "now": 0.0, "start_minutes": 10,  # type: ignore[arg-type]
                                                  "checkin_minutes": 5, "round_minutes": 5, "ai": False,
                                                  "options": {}, "lang": None, **bad})


def test_twelve_people_with_a_no_show_a_forfeit_and_an_ai_seat_play_three_rounds_to_a_champion() -> None:
    t = trix(12, ai=True)
    t = deadline(t, 5 * MINUTE)  # check-in opens; Fadi never checks in
    for p in TWELVE[:11]:
        t = check_in(t, p.player_id)
    t = deadline(t, 10 * MINUTE)
    assert t.status == TourneyStatus.RUNNING
    people = [e for e in t.entries if not e.ai]
    assert len(people) == 11 and [e.number for e in t.entries if e.ai] == [12]  # one AI seat fills the last pool
    assert TWELVE[11].player_id not in {p for e in people for p in e.players}
    assert len(t.matches) == 9 and {m.round for m in t.matches} == {1, 2, 3}
    r1 = current(t)
    assert [m.pool for m in r1] == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]  # the seeded draw's order
    assert all(m.status == MatchStatus.CALLED for m in r1) and all(m.a is None for m in r1)
    assert people_of(t, r1[2])[0] == tuple(e.players[0] for e in people[8:11])  # the AI seat has nobody
    # round 1: every pool played; the AI wins the third table and takes rank 1's points from nobody
    t = play(t, r1[0], [200, 100, -100, -200], 1)
    t = play(t, r1[1], [50, 50, -50, -50], 2)
    t = play(t, r1[2], [-300, 0, 100, 200], 3)
    assert halves(t) == {1: 8, 2: 6, 3: 4, 4: 2, 5: 7, 6: 7, 7: 3, 8: 3, 9: 2, 10: 4, 11: 6}
    assert 12 not in halves(t)
    assert len(t.rounds) == 2
    # round 2 is seated by the standings: the top four together, the next four, the rest with the AI seat
    r2 = current(t)
    ranked = [s.entry for s in pools.table(t)]
    assert ranked[:4] == [1, 5, 6, 2] and ranked[-1] == 9
    assert [set(m.pool) for m in r2] == [set(ranked[:4]), set(ranked[4:8]), {*ranked[8:], 12}]
    assert r2[-1].pool[-1] == 12
    # round 2: two pools played, the third forfeited: two of its people pressed Ready
    t = play(t, r2[0], [10, 20, 30, -60], 4)
    t = play(t, r2[2], [0, 0, 0, 0], 5)
    late = r2[1]
    came = people_of(t, late)[0][:2]
    for pid in came:
        t = ready(t, pid)
    t = deadline(t, t.rounds[-1].deadline)
    done = t.match(2, late.slot)
    assert done is not None and done.how == How.FORFEIT and done.points == (7, 7, 0, 0)
    assert done.scores == (0, 0, 0, 0)
    # round 3: everyone plays; the champion tops the standings, the AI never in them
    assert len(t.rounds) == 3
    for i, m in enumerate(current(t)):
        t = play(t, m, [40 * i, -10, 5, -30 - 40 * i], 6 + i)
    assert t.status == TourneyStatus.FINISHED and t.next_at is None
    table = pools.table(t)
    assert len(table) == 11 and all(s.entry != 12 for s in table)
    won = champion(t)
    assert won is not None and won.number == table[0].entry and not won.ai
    keys = [s.key() for s in table]
    assert keys == sorted(keys)  # points, then the Trix score, then the seed
    tables = [frozenset(m.pool) for m in t.matches if len(m.pool) == 4 and 12 not in m.pool]
    assert len(tables) == len(set(tables))  # no table of four people repeated
    assert any(a.action == "champion" and a.detail == str(won.number) for a in t.audit)
    with pytest.raises(TableError) as e:  # a finished tournament's pools are not changed
        decide(t, ORGANISER.player_id, 999.0, 1, 0, "replay")
    assert e.value.params["reason"] == "over"


def test_without_ai_the_lowest_ranked_sit_out_in_turn_with_an_average_tables_bye() -> None:
    t = start(trix(6), 10 * MINUTE, ORGANISER.player_id)
    r1 = current(t)
    assert [m.pool for m in r1] == [(1, 2, 3, 4), (5, 6)]
    bye = r1[1]
    assert (bye.status, bye.how, bye.points, bye.scores) == (MatchStatus.DONE, How.BYE, (5, 5), (0, 0))
    t = play(t, r1[0], [100, 30, -50, -80], 1)
    # round 2: the two lowest who have not sat out (3 and 4) sit out; 5 and 6 play
    r2 = current(t)
    assert r2[1].pool == (3, 4) and set(r2[0].pool) == {1, 2, 5, 6}
    t = play(t, r2[0], [0, 0, 0, 0], 2)
    r3 = current(t)
    assert set(r3[1].pool).isdisjoint({3, 4, 5, 6})  # 1 and 2 sit out last: everyone once
    assert {s.entry: s.byes for s in pools.table(t)} == dict.fromkeys(range(1, 7), 1)


def test_fewer_than_four_people_without_ai_or_two_with_it_cancel_the_tournament() -> None:
    assert start(trix(3), 600.0).status == TourneyStatus.CANCELLED
    assert start(trix(2, ai=True), 600.0).status == TourneyStatus.RUNNING
    assert start(trix(1, ai=True), 600.0).status == TourneyStatus.CANCELLED


def test_seating_swaps_the_nearest_person_to_avoid_a_table_of_four_played_before() -> None:
    seen = {frozenset((1, 2, 3, 4))}
    pools_, out = pools.seat_round([1, 2, 3, 4, 5, 6, 7, 8], [], {}, seen)
    assert out == () and pools_ == [(1, 2, 3, 5), (4, 6, 7, 8)]
    # both tables seen: the swap must keep the other table new as well
    seen |= {frozenset((4, 6, 7, 8)), frozenset((5, 6, 7, 8))}
    pools_, _ = pools.seat_round([1, 2, 3, 4, 5, 6, 7, 8], [], {}, seen)
    assert all(frozenset(p) not in seen for p in pools_)
    # four people only: no other table exists, so the repeat stands
    assert pools.seat_round([1, 2, 3, 4], [], {}, {frozenset((1, 2, 3, 4))})[0] == [(1, 2, 3, 4)]


def test_a_pool_nobody_came_to_scores_nothing_and_one_person_ready_scores_a_win() -> None:
    t = start(trix(8), 600.0)
    a = current(t)[0]
    t = ready(t, people_of(t, a)[0][3])
    t = deadline(t, t.rounds[-1].deadline)
    done = [t.match(1, 0), t.match(1, 1)]
    assert done[0] is not None and done[0].points == (0, 0, 0, 8)
    assert done[1] is not None and done[1].points == (0, 0, 0, 0) and done[1].how == How.FORFEIT
    assert len(t.rounds) == 2


async def play_trix(h: Harness, table_id: int, seed: int) -> None:
    """The people of a Trix table play random legal moves until it ends (the AI seats play themselves)."""
    rng = random.Random(seed)
    for _ in range(5000):
        snap = h.manager.get(table_id)
        assert snap is not None
        if snap.table.status != "playing":
            return
        person = person_to_act(h, snap, TWELVE)
        if person is None:
            await h.manager.run_due()
            await h.manager.drain()
            continue
        legal = h.manager.view(table_id, turn(h, snap))["legal"]
        await h.manager.act(table_id, person, snap.table.version, rng.choice(legal))
        await h.manager.run_due()
    raise AssertionError("the table did not end")


@pytest.mark.slow  # two whole Trix games on a real SQLite file: about 1 s
async def test_five_people_with_an_ai_seat_play_a_round_of_real_trix_tables_through_the_dispatch(
        tmp_path: Path) -> None:
    repo = SQLiteRepository(tmp_path / "t.db")
    await repo.open()
    h = make_manager(repo, FakeClock(1_800_000_000.0))
    service, tours = Service(h.manager), h.manager.tournaments
    try:
        t = await service.dispatch(NewTournament("trix", rounds=1, ai=True, start_minutes=10, checkin_minutes=5,
                                                 round_minutes=5, review_minutes=0), admin(ORGANISER))
        assert t.format == "pools:1" and t.review_minutes == 0
        for p in TWELVE[:5]:
            await service.dispatch(TournamentAction("register"), Actor(p, CHAT))
        with pytest.raises(TableError) as e:  # one registration each: no pairs in Trix
            await service.dispatch(TournamentAction("register", pair=1), Actor(TWELVE[5], CHAT))
        assert e.value.code == Refusal.BAD_ACTION
        t = await service.dispatch(TournamentAction("start"), Actor(ORGANISER, CHAT))
        assert [len(m.pool) for m in t.matches] == [4, 4] and t.entries[-1].ai
        for seed, m in enumerate(t.matches, start=1):
            for pid in people_of(t, m)[0]:
                await service.dispatch(TournamentAction("ready"), Actor(next(p for p in TWELVE
                                                                             if p.player_id == pid), CHAT))
            got = await tours.in_chat(CHAT)
            assert got is not None
            playing = got.match(1, m.slot)
            assert playing is not None and playing.status == MatchStatus.PLAYING and playing.table_id is not None
            snap = h.manager.get(playing.table_id)
            assert snap is not None and snap.table.game == "trix"
            seated = [s.player_id for s in snap.table.seats if not s.is_ai]
            assert seated == list(people_of(got, m)[0])  # the pool's people in its seat order
            await play_trix(h, playing.table_id, seed)
            await h.manager.drain()
            await tours.settle()
        t = await tours.in_chat(CHAT)  # type: ignore[assignment]
        assert t is not None and t.status == TourneyStatus.FINISHED
        for m in t.matches:  # each seat's points come from its Trix score at the table
            result = await repo.table_results(m.table_id or 0)
            assert result is not None and m.how == How.PLAYED
            by_seat = {r.seat: r.score for r in result.results if not r.left}
            assert m.scores == tuple(by_seat[s] for s in range(4))
            assert m.points == pools.halves_by_rank(m.scores)
        won = champion(t)
        assert won is not None and not won.ai and won.number == pools.table(t)[0].entry
        assert len(pools.table(t)) == 5
    finally:
        await h.manager.close()
        await repo.close()


# ---------------------------------------------------------------------- the review window of a pool

def played_at(t: Tournament, m: TMatch, scores: list[int], table_id: int, now: float) -> Tournament:
    """Pool ``m``'s table ended at ``now`` with these Trix scores, in seat order."""
    t = replace(t, matches=tuple(replace(x, status=MatchStatus.PLAYING, table_id=table_id)
                                 if (x.round, x.slot) == (m.round, m.slot) else x for x in t.matches))
    x = t.match(m.round, m.slot)
    assert x is not None
    return table_ended(t, x, set(), now, dict(enumerate(scores)))


def test_a_played_pools_points_stay_in_review_and_become_final_once_when_its_window_ends() -> None:
    t = start(trix(8, review=10), 600.0)
    first, second = current(t)
    t = played_at(t, first, [200, 100, -100, -200], 1, 700.0)
    m = t.match(1, 0)
    assert m is not None and (m.status, m.points, m.scores, m.review_until) == (
        MatchStatus.REVIEW, (8, 6, 4, 2), (200, 100, -100, -200), 1300.0)
    assert set(halves(t).values()) == {0}  # provisional: not in the standings yet
    assert t.next_at == 900.0  # the round's deadline comes first, then the window's end
    assert [a.action for a in t.audit].count("result") == 1
    t = deadline(t, 900.0)  # the other pool is forfeited; the round waits for the window
    assert len(t.rounds) == 1 and t.next_at == 1300.0
    assert deadline(t, 1299.0) is t
    final = deadline(t, 1300.0)
    m = final.match(1, 0)
    assert m is not None and (m.status, m.review_until, m.points) == (MatchStatus.DONE, None, (8, 6, 4, 2))
    assert deadline(final, 1301.0).audit == final.audit  # the window closes once
    assert [a.action for a in final.audit].count("played") == 1
    assert len(final.rounds) == 2 and halves(final)[first.pool[0]] == 8  # final: counted, round 2 opened
    assert second.pool[0] in halves(final)


def test_a_person_of_the_pool_flags_it_and_the_organiser_upholds_replays_or_disqualifies() -> None:
    t = start(trix(8, review=10), 600.0)
    pool, other = current(t)
    t = played_at(t, pool, [200, 100, -100, -200], 1, 700.0)
    mine, theirs = people_of(t, pool)[0], people_of(t, other)[0]
    refused("no_review", flag, t, theirs[0], 710.0)  # not of that pool
    refused("pool_winner", decide, t, ORGANISER.player_id, 710.0, 1, 0, "winner", pool.pool[0])
    refused("not_decidable", decide, t, ORGANISER.player_id, 710.0, 1, 1, "replay")  # called, not played
    t = flag(t, mine[3], 720.0, "  a card   was played twice ")
    m = t.match(1, 0)
    assert m is not None and (m.flagged_by, m.flag_reason) == (mine[3], "a card was played twice")
    refused("flagged", flag, t, mine[2], 730.0)
    assert t.next_at == 900.0  # flagged: no time of its own, only the round's deadline
    t = deadline(t, 2000.0)  # the deadline forfeits the other pool; the flagged one waits
    m = t.match(1, 0)
    assert m is not None and m.status == MatchStatus.REVIEW and len(t.rounds) == 1 and t.next_at is None
    refused("bad_person", decide, t, ORGANISER.player_id, 2010.0, 1, 0, "disqualify", other.pool[0])
    refused("not_in_review", decide, t, ORGANISER.player_id, 2010.0, 1, 1, "uphold")  # the forfeit is final
    # uphold: the recorded points stand and round 2 opens
    upheld = decide(t, ORGANISER.player_id, 2010.0, 1, 0, "uphold")
    assert upheld.match(1, 0).points == (8, 6, 4, 2) and len(upheld.rounds) == 2  # type: ignore[union-attr]
    assert any(a.action == "uphold" and a.actor == ORGANISER.player_id for a in upheld.audit)
    refused("too_late", decide, upheld, ORGANISER.player_id, 2020.0, 1, 0, "replay")
    # replay: the pool is called again with a whole round's time, its points undone
    again = decide(t, ORGANISER.player_id, 2010.0, 1, 0, "replay")
    m = again.match(1, 0)
    assert m is not None and (m.status, m.points, m.table_id, m.flagged_by, m.ready) == (
        MatchStatus.CALLED, (), None, None, ())
    assert again.rounds[-1].deadline == 2010.0 + 5 * MINUTE and again.next_at == again.rounds[-1].deadline
    # disqualify the pool's best: 0 for the round, the others keep their ranks' points, seated no more
    out = decide(t, ORGANISER.player_id, 2010.0, 1, 0, "disqualify", pool.pool[0])
    m = out.match(1, 0)
    assert m is not None and m.status == MatchStatus.DONE and m.points == (0, 6, 4, 2)
    assert out.entry(pool.pool[0]).disqualified and len(out.rounds) == 2  # type: ignore[union-attr]
    assert pool.pool[0] not in {n for x in current(out) for n in x.pool}
    assert [len(x.pool) for x in current(out)] == [4, 3]  # without AI: three people sit out
    assert any(a.action == "disqualify" and a.detail.endswith(f":{pool.pool[0]}") for a in out.audit)


def test_a_disqualified_person_never_wins_and_an_ai_seat_fills_the_place_they_leave() -> None:
    t = start(trix(8, ai=True, rounds=2, review=10), 600.0)
    pool, other = current(t)
    t = played_at(t, pool, [300, 100, -100, -300], 1, 700.0)
    t = played_at(t, other, [0, 0, 0, -10], 2, 710.0)
    best = pool.pool[0]
    t = decide(t, ORGANISER.player_id, 720.0, 1, 0, "disqualify", best)
    t = decide(t, ORGANISER.player_id, 720.0, 1, 1, "uphold")
    assert len(t.rounds) == 2
    r2 = current(t)
    ai = [e.number for e in t.entries if e.ai]
    assert len(ai) == 1 and r2[1].pool[-1] == ai[0]  # seven people: one AI seat made for the last pool
    assert best not in {n for m in r2 for n in m.pool}
    for i, m in enumerate(r2):
        t = played_at(t, m, [0, 0, 0, 0] if i else [40, 30, 20, 10], 3 + i, 800.0)
        t = decide(t, ORGANISER.player_id, 810.0, 2, i, "uphold")
    assert t.status == TourneyStatus.FINISHED
    won = champion(t)
    assert won is not None and won.number != best and not won.ai
