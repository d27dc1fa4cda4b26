"""Swiss and round-robin pairings on the standard cases (bot/core/pairings.py): no repeat pairings,
byes to the lowest and never twice, sides (seats 1+3 against 2+4) balanced, the leaders meeting,
round robins of 4, 5 and 6 entries, and the tie-breaks of the standings."""

from __future__ import annotations

import random

from bot.core.pairings import (
    Game,
    max_rounds,
    round_robin,
    standings,
    swiss_round,
    swiss_rounds,
)


def play_swiss(n: int, rounds: int, seed: int) -> list[list[Game]]:
    """A Swiss of ``n`` entries whose games are won at random (a bye scores)."""
    rng = random.Random(seed)
    entries = list(range(1, n + 1))
    games: list[Game] = []
    played = []
    for _ in range(rounds):
        boards = swiss_round(entries, games)
        assert sorted(x for a, b in boards for x in (a, b) if x is not None) == entries  # everyone, once
        this = [Game(a, b, a if b is None else rng.choice((a, b))) for a, b in boards]
        games += this
        played.append(this)
    return played


def meetings(games: list[Game]) -> list[frozenset[int]]:
    return [frozenset((g.a, g.b)) for g in games if g.b is not None]


def test_a_swiss_never_pairs_two_entries_twice_within_half_the_field_in_rounds() -> None:
    for n in range(4, 17):
        for seed in range(6):
            games = [g for r in play_swiss(n, n // 2, seed) for g in r]
            met = meetings(games)
            assert len(met) == len(set(met)), (n, seed)


def test_the_bye_goes_to_the_lowest_ranked_entry_without_one_and_never_twice() -> None:
    for n in (5, 7, 9, 11):
        for seed in range(10):
            rng = random.Random(seed)
            entries = list(range(1, n + 1))
            games: list[Game] = []
            had: list[int] = []
            for _ in range(n // 2):
                table = standings(entries, games)
                boards = swiss_round(entries, games)
                bye = [a for a, b in boards if b is None]
                assert len(bye) == 1 and boards[-1] == (bye[0], None)
                # the lowest-ranked that had no bye yet (or the next one up, should it leave a repeat)
                lowest = [s.entry for s in reversed(table) if s.entry not in had]
                assert bye[0] == lowest[0], (n, seed, bye, lowest)
                had.append(bye[0])
                games += [Game(a, b, a if b is None else rng.choice((a, b))) for a, b in boards]
            assert len(had) == len(set(had))


def test_sides_stay_within_two_and_mostly_within_one_and_never_three_in_a_row() -> None:
    off = {0: 0, 1: 0, 2: 0}
    for n in range(4, 17):
        for seed in range(6):
            rounds = play_swiss(n, min(swiss_rounds(n) + 1, n // 2), seed)
            for s in standings(list(range(1, n + 1)), [g for r in rounds for g in r]):
                off[abs(s.sides)] += 1  # a KeyError would be an entry three off
                assert s.streak <= 2
    assert off[2] * 20 < off[0] + off[1]  # measured: about 1 in 37 ends two games off, when scores force it


def test_a_swiss_alternates_sides_where_the_scores_allow_it() -> None:
    # everyone's first game at side A or B; in round 2 an entry gets the other side whenever its
    # score group has a partner that wants the opposite side
    entries = list(range(1, 9))
    r1 = swiss_round(entries, [])
    assert r1 == [(1, 5), (6, 2), (3, 7), (8, 4)]  # the top half against the bottom half, sides alternating
    games = [Game(a, b, a if b is None else min(a, b)) for a, b in r1]  # the better seed wins every game
    r2 = swiss_round(entries, games)
    first_side = {a: "A" for a, _ in r1} | {b: "B" for _, b in r1 if b is not None}
    for a, b in r2:
        assert b is not None and (first_side[a], first_side[b]) == ("B", "A")


def test_the_leaders_meet_each_other_in_the_last_round() -> None:
    entries = list(range(1, 9))
    games: list[Game] = []
    for _ in range(2):  # the better seed wins every game
        games += [Game(a, b, a if b is None else min(a, b)) for a, b in swiss_round(entries, games)]
    table = standings(entries, games)
    leaders = {s.entry for s in table if s.points == 2}
    assert leaders == {1, 2}
    assert any({a, b} == leaders for a, b in swiss_round(entries, games))


def test_past_half_the_field_a_swiss_takes_the_fewest_repeats_rather_than_leave_a_pair_out() -> None:
    # 4 entries, a fourth round: every pair has met once already, so one repeat per board is forced
    entries = [1, 2, 3, 4]
    games = [Game(a, b, a) for rnd in round_robin(entries) for a, b in rnd if b is not None]
    boards = swiss_round(entries, games)
    assert sorted(x for a, b in boards for x in (a, b) if x is not None) == entries
    assert len(boards) == 2


def check_round_robin(n: int) -> None:
    entries = list(range(1, n + 1))
    rounds = round_robin(entries)
    assert len(rounds) == max_rounds(n)
    met = []
    byes = dict.fromkeys(entries, 0)
    side = dict.fromkeys(entries, 0)
    for boards in rounds:
        assert sorted(x for a, b in boards for x in (a, b) if x is not None) == entries
        for a, b in boards:
            if b is None:
                byes[a] += 1
            else:
                met.append(frozenset((a, b)))
                side[a] += 1
                side[b] -= 1
    assert sorted(met, key=sorted) == sorted({frozenset((x, y)) for x in entries for y in entries if x < y},
                                             key=sorted)  # everyone meets everyone exactly once
    assert set(byes.values()) == ({1} if n % 2 else {0})
    assert all(abs(v) <= 1 for v in side.values()), side


def test_a_round_robin_of_five_entries_meets_everyone_once_with_one_bye_each() -> None:
    check_round_robin(5)
    rounds = round_robin([1, 2, 3, 4, 5])
    assert [b[-1] for b in rounds] == [(1, None), (4, None), (2, None), (5, None), (3, None)]


def test_round_robins_of_four_and_six_entries_and_every_size_to_twelve() -> None:
    for n in range(2, 13):
        check_round_robin(n)


def test_standings_rank_by_points_then_buchholz_then_sonneborn_berger_then_seed() -> None:
    # round 1: 1 beat 2, 4 beat 3; round 2: 1 beat 4, 2 beat 3
    games = [Game(1, 2, 1), Game(3, 4, 4), Game(4, 1, 1), Game(2, 3, 2)]
    table = standings([1, 2, 3, 4], games)
    assert [(s.entry, s.points) for s in table] == [(1, 2), (2, 1), (4, 1), (3, 0)]
    # 2 and 4 tie on 1 point: 2 met 1 (2) and 3 (0) -> Buchholz 2; 4 met 3 (0) and 1 (2) -> 2;
    # Sonneborn-Berger: 2 beat 3 (0), 4 beat 3 (0): equal; the seed decides (2 before 4)
    two, four = table[1], table[2]
    assert (two.buchholz, two.sonneborn, four.buchholz, four.sonneborn) == (2, 0, 2, 0)
    # a forfeit nobody came to scores nothing; a bye scores a win and counts nothing to Buchholz
    games = [Game(1, 2, None), Game(3, None, 3), Game(1, 3, 3), Game(2, None, 2)]
    table = standings([1, 2, 3], games)
    assert [(s.entry, s.points, s.buchholz, s.byes) for s in table] == [(3, 2, 0, 1), (2, 1, 0, 1), (1, 0, 3, 0)]


def test_the_buchholz_splits_a_tie_on_points() -> None:
    # 1 and 2 both won once: 1 beat 3 (who then won), 2 beat 4 (who then lost)
    games = [Game(1, 3, 1), Game(2, 4, 2), Game(3, 4, 3), Game(1, 2, None)]
    table = standings([1, 2, 3, 4], games)
    assert [s.entry for s in table][:2] == [1, 2] and table[0].buchholz > table[1].buchholz
    table = standings([2, 1, 3, 4], games)  # whatever the seeds
    assert [s.entry for s in table][:2] == [1, 2]
