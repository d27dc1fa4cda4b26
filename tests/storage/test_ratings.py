"""The rating rules as pure functions: who goes up, who goes down, who is not rated at all."""

from __future__ import annotations

from storage.ratings import DEFAULT, Rating, competition_ranks, is_ai, rate_match, rated_players
from storage.records import PlayerResult


def results(ids: list[str], scores: list[int], winners: set[int], left: set[int] = frozenset()  # type: ignore[assignment]
            ) -> list[PlayerResult]:
    return [PlayerResult(p, i, scores[i], i in winners, i in left) for i, p in enumerate(ids)]


PEOPLE = ["tg:1", "tg:2", "tg:3", "tg:4"]


def test_competition_ranks_share_ties() -> None:
    assert competition_ranks([5.0, 9.0, 5.0, 1.0]) == [2, 1, 2, 4]
    assert competition_ranks([3.0, 3.0, 3.0, 3.0]) == [1, 1, 1, 1]


def test_is_ai_and_rated_players() -> None:
    assert is_ai("ai:easy:2") and not is_ai("tg:ai")
    rs = results(["tg:9", "ai:easy:1", "tg:9", "dc:5"], [0] * 4, set())
    assert rated_players(rs) == ["tg:9", "dc:5"]


def test_team_game_moves_partners_together() -> None:
    new = rate_match("tarneeb41", results(PEOPLE, [41, 10, 5, 12], {0, 2}), {})
    assert new["tg:1"] == new["tg:3"] and new["tg:2"] == new["tg:4"]
    assert new["tg:1"].mu > DEFAULT.mu > new["tg:2"].mu
    assert all(r.sigma < DEFAULT.sigma for r in new.values())


def test_an_upset_moves_more_than_an_expected_win() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    current = {"tg:1": strong, "tg:3": strong, "tg:2": weak, "tg:4": weak}
    expected = rate_match("tarneeb", results(PEOPLE, [0] * 4, {0, 2}), current)
    upset = rate_match("tarneeb", results(PEOPLE, [0] * 4, {1, 3}), current)
    assert upset["tg:2"].mu - weak.mu > expected["tg:1"].mu - strong.mu > 0


def test_a_leaver_on_the_winning_team_is_rated_as_a_loser() -> None:
    new = rate_match("tarneeb", results(PEOPLE, [0] * 4, {0, 2}, left={2}), {})
    assert new["tg:3"].mu < DEFAULT.mu < new["tg:1"].mu
    assert new["tg:3"] == new["tg:2"]


def test_free_for_all_by_score_with_leavers_last() -> None:
    new = rate_match("trix", results(PEOPLE, [500, 200, 200, 900], {3}, left={3}), {})
    assert new["tg:1"].mu > new["tg:2"].mu == new["tg:3"].mu > new["tg:4"].mu


def test_ai_takes_part_but_gets_no_rating() -> None:
    ids = ["tg:1", "ai:strong:1", "ai:strong:2", "ai:strong:3"]
    new = rate_match("trix", results(ids, [100, 0, 0, 0], {0}), {"ai:strong:1": Rating(50.0, 1.0)})
    assert set(new) == {"tg:1"}
    alone = rate_match("trix", results(["tg:1", "tg:2", "tg:3", "tg:4"], [100, 0, 0, 0], {0}), {})
    assert new["tg:1"] == alone["tg:1"]  # the AI's stored rating is ignored: it plays as a default


def test_nothing_to_rate_without_an_opponent() -> None:
    assert rate_match("trix", results(["tg:1"], [5], {0}), {}) == {}
    assert rate_match("tarneeb", [PlayerResult("tg:1", 0, 5, True), PlayerResult("tg:3", 2, 5, True)], {}) == {}
