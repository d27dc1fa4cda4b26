"""Swiss and round-robin tournaments (bot/core/leagues.py through bot/core/tournaments.py): rounds drawn
as the previous one closes, byes scored as wins, played byes against the AI pair scoring only when the
people win, forfeits scoring a loss for the side that did not come (nothing for either when neither
came), the champion at the top of the final standings, and the AI pair never in them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core import leagues
from bot.core.clock import FakeClock
from bot.core.commands import Actor, NewTournament, TournamentAction
from bot.core.errors import TableError
from bot.core.model import Person
from bot.core.service import Service
from bot.core.tournaments import MINUTE, champion, deadline, new, people_of, ready, register, start, table_ended
from bot.present.i18n import translator
from bot.present.render.tournaments import render_tournament
from storage.memory import MemoryRepository
from storage.sqlite import SQLiteRepository
from storage.tournaments import How, MatchStatus, TMatch, Tournament, TourneyStatus
from tests.core.test_manager_helpers import CHAT, make_manager
from tests.core.test_tournaments import ORGANISER, PEOPLE, SHORT, a_tournament, admin, play_short

#: Twelve people: the ten of the knockout's tests and two more.
TWELVE = [*PEOPLE, Person("tg:21", "Dana"), Person("tg:22", "Fadi")]


def league(n: int, fmt: str, **changes: object) -> Tournament:
    """``n`` fixed pairs registered in a Swiss or round robin (Sara and Omar are pair 1 ...); a played
    result is final at once (no review window: tests/core/test_tournaments.py has those)."""
    t = a_tournament(format=fmt, **{"review_minutes": 0, **changes})
    for i, p in enumerate(TWELVE[:2 * n]):
        t = register(t, p, float(i), None if i % 2 == 0 else i // 2 + 1)
    assert len(t.entries) == n
    return t


def current(t: Tournament) -> list[TMatch]:
    number = t.rounds[-1].number
    return [m for m in t.matches if m.round == number]


def play(t: Tournament, m: TMatch, a_wins: bool, table_id: int) -> Tournament:
    """Match ``m``'s table is played and won by side A (seats 1 and 3) or side B."""
    t = replace(t, matches=tuple(replace(x, status=MatchStatus.PLAYING, table_id=table_id)
                                 if (x.round, x.slot) == (m.round, m.slot) else x for x in t.matches))
    m = t.match(m.round, m.slot)  # type: ignore[assignment]
    return table_ended(t, m, {0, 2} if a_wins else {1, 3}, 100.0 + table_id)


def points(t: Tournament) -> dict[int, int]:
    return {s.entry: s.points for s in leagues.table(t)}


def test_a_six_pair_swiss_of_three_rounds_with_forfeits_scores_and_crowns_the_top_of_the_standings() -> None:
    t = start(league(6, "swiss:3"), 10.0)
    assert t.status == TourneyStatus.RUNNING and len(t.rounds) == 1
    assert len(t.matches) == 9 and {m.round for m in t.matches} == {1, 2, 3}  # three rounds of three boards
    assert [(m.a, m.b, m.status) for m in current(t)] == [(1, 4, MatchStatus.CALLED), (5, 2, MatchStatus.CALLED),
                                                         (3, 6, MatchStatus.CALLED)]
    assert all(m.a is None for m in t.matches if m.round > 1)  # round 2 is drawn when round 1 closes
    t = play(t, current(t)[0], True, 1)  # 1 beats 4
    t = play(t, current(t)[1], False, 2)  # 2 (side B) beats 5
    # board 3: one of pair 3 comes, nobody of pair 6: pair 3 wins by forfeit at the deadline
    t = ready(t, people_of(t, current(t)[2])[0][0])
    t = deadline(t, 10.0 + 5 * MINUTE)
    r1 = [m for m in t.matches if m.round == 1]
    assert (r1[2].winner, r1[2].how) == (3, How.FORFEIT)
    assert points(t) == {1: 1, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0} and len(t.rounds) == 2
    r2 = current(t)
    assert all(m.status == MatchStatus.CALLED for m in r2)
    # three winners: two meet each other, the third floats down to a loser's board, the other losers meet
    scored = {e for e, p in points(t).items() if p}
    assert sorted(len({m.a, m.b} & scored) for m in r2) == [0, 1, 2]
    # round 2: two boards played, the third nobody comes to: neither side scores
    t = play(t, r2[0], True, 3)
    t = play(t, r2[1], True, 4)
    t = deadline(t, t.rounds[-1].deadline)
    nobody = t.match(2, 2)
    assert nobody is not None and (nobody.winner, nobody.how) == (None, How.FORFEIT)
    assert len(t.rounds) == 3
    for i, m in enumerate(current(t)):
        t = play(t, m, i % 2 == 0, 5 + i)
    assert t.status == TourneyStatus.FINISHED and t.next_at is None
    met = [frozenset((m.a, m.b)) for m in t.matches]
    assert len(met) == len(set(met)) == 9  # no repeat pairing
    table = leagues.table(t)
    won = champion(t)
    assert won is not None and won.number == table[0].entry and table[0].points >= table[1].points
    assert t.audit[-1].action == "champion" and t.audit[-1].detail == str(won.number)
    assert sum(s.points for s in table) == 8  # nine matches, one with no winner
    # the message: the final standings, ranked, with points and Buchholz, in both languages
    for lang, words, buchholz in (("en", "Final standings:", "Buchholz"), ("ar", "الترتيب النهائي:", "بوخهولز")):
        text = render_tournament(t, translator(lang), 200.0).text
        assert words in text and buchholz in text


def test_a_five_pair_round_robin_has_everyone_meet_once_and_a_bye_each_scored_as_a_win() -> None:
    t = start(league(5, "roundrobin"), 10.0)
    assert {m.round for m in t.matches} == {1, 2, 3, 4, 5} and len(t.entries) == 5  # no AI pair
    table_id = 0
    while t.status == TourneyStatus.RUNNING:
        byes = [m for m in current(t) if m.how == How.BYE]
        assert len(byes) == 1 and byes[0].winner == byes[0].a and byes[0].b is None  # decided as it opened
        for m in current(t):
            if m.status == MatchStatus.CALLED:
                table_id += 1
                t = play(t, m, m.a is not None and m.b is not None and m.a < m.b, table_id)  # the better seed wins
    assert table_id == 10
    met = [frozenset((m.a, m.b)) for m in t.matches if m.b is not None]
    assert len(met) == len(set(met)) == 10
    assert sorted(m.a for m in t.matches if m.how == How.BYE) == [1, 2, 3, 4, 5]
    # the better seed won every game: 1 has 4 wins and a bye, 5 only its bye
    assert [(s.entry, s.points) for s in leagues.table(t)] == [(1, 5), (2, 4), (3, 3), (4, 2), (5, 1)]
    won = champion(t)
    assert won is not None and won.number == 1


def test_with_ai_allowed_a_bye_is_played_against_the_ai_pair_which_never_scores_or_ranks() -> None:
    t = start(league(3, "roundrobin", ai_allowed=True), 10.0)
    ai = [e for e in t.entries if e.ai]
    assert len(ai) == 1 and ai[0].number == 4
    first = current(t)
    bye = next(m for m in first if m.b == 4)
    assert bye.status == MatchStatus.CALLED and people_of(t, bye)[1] == ()
    other = next(m for m in first if m is not bye)
    t = play(t, bye, False, 1)  # the AI pair wins: nobody scores
    t = play(t, other, True, 2)
    done = t.match(1, bye.slot)
    assert done is not None and (done.winner, done.how) == (None, How.AI_BYE)
    assert sum(points(t).values()) == 1 and 4 not in points(t)
    table_id = 2
    while t.status == TourneyStatus.RUNNING:
        for m in current(t):
            if m.status == MatchStatus.CALLED:
                table_id += 1
                t = play(t, m, True, table_id)  # side A wins: the people of a played bye beat the AI
    assert 4 not in {s.entry for s in leagues.table(t)}
    won = champion(t)
    assert won is not None and not won.ai
    assert [m.how for m in t.matches].count(How.AI_BYE) == 3  # each pair played the AI once


def test_nobody_scoring_in_a_whole_league_crowns_nobody() -> None:
    t = start(league(2, "swiss"), 10.0)
    assert len({m.round for m in t.matches}) == 1  # two pairs: ceil(log2 2) = 1 round
    t = deadline(t, 10.0 + 5 * MINUTE)
    assert t.status == TourneyStatus.FINISHED and champion(t) is None and t.audit[-1].detail == "-"


def test_the_organisers_rounds_are_checked_and_capped_at_a_round_robin() -> None:
    for fmt, rounds in (("swiss", 0), ("swiss", 16), ("knockout", 3), ("roundrobin", 3)):
        with pytest.raises(TableError) as e:
            new(CHAT, ORGANISER, "tarneeb41", pairing="fixed", now=0.0, start_minutes=10, checkin_minutes=5,
                round_minutes=5, ai=False, options={}, lang=None, fmt=fmt, rounds=rounds)
        assert e.value.params["reason"] == "rounds"
    made = new(CHAT, ORGANISER, "tarneeb41", pairing="fixed", now=0.0, start_minutes=10, checkin_minutes=5,
               round_minutes=5, ai=False, options={}, lang=None, fmt="swiss", rounds=9)
    assert made.format == "swiss:9"
    t = start(league(4, made.format), 10.0)
    assert len({m.round for m in t.matches}) == 3  # four pairs cannot play more than three rounds apart


async def test_a_swiss_runs_through_the_dispatch_with_real_tables_to_its_champion(tmp_path: object) -> None:
    from pathlib import Path

    repo = SQLiteRepository(Path(str(tmp_path)) / "t.db")
    await repo.open()
    h = make_manager(repo, FakeClock(1_800_000_000.0))
    service, tours = Service(h.manager), h.manager.tournaments
    try:
        t = await service.dispatch(NewTournament("tarneeb41", pairing="fixed", format="swiss", rounds=2,
                                                 review_minutes=0,
                                                 start_minutes=10, checkin_minutes=5, round_minutes=5,
                                                 options=SHORT), admin(ORGANISER))
        assert t.format == "swiss:2"
        for i, p in enumerate(PEOPLE[:8]):
            await service.dispatch(TournamentAction("register", pair=None if i % 2 == 0 else i // 2 + 1),
                                   Actor(p, CHAT))
        t = await service.dispatch(TournamentAction("start"), Actor(ORGANISER, CHAT))
        assert t.status == TourneyStatus.RUNNING and len(t.entries) == 4
        seed = 0
        while t.status == TourneyStatus.RUNNING:
            for m in current(t):
                a, b = people_of(t, m)
                for pid in (*a, *b):
                    await service.dispatch(TournamentAction("ready"),
                                           Actor(next(p for p in PEOPLE if p.player_id == pid), CHAT))
            for _ in current(t):
                got = await tours.in_chat(CHAT)
                assert got is not None
                playing = next(m for m in got.matches if m.status == MatchStatus.PLAYING)
                seed += 1
                await play_short(h, playing.table_id or 0, seed)
                await h.manager.drain()
                await tours.settle()
            got = await tours.in_chat(CHAT)
            assert got is not None
            t = got
        assert [m.how for m in t.matches] == [How.PLAYED] * 4
        for m in t.matches:  # each match's winner is the pair that won its table
            result = await repo.table_results(m.table_id or 0)
            assert result is not None
            assert m.winner == (m.a if any(r.won for r in result.results if r.seat in (0, 2)) else m.b)
        top = leagues.table(t)[0]
        assert top.points == 2 and champion(t) == t.entry(top.entry)  # the only pair with two wins
        assert t.audit[-1].action == "champion"
    finally:
        await h.manager.close()
        await repo.close()


async def test_rounds_for_a_knockout_are_refused_through_the_dispatch() -> None:
    h = make_manager(MemoryRepository(), FakeClock())
    with pytest.raises(TableError) as e:
        await Service(h.manager).dispatch(NewTournament("tarneeb41", format="knockout", rounds=3), admin(ORGANISER))
    assert e.value.params["reason"] == "rounds"
    assert await h.repo.chat_tournament(CHAT) is None
