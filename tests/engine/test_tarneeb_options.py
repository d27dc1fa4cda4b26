"""Classic Tarneeb variant options (rules.md §1.5): each option switched on and tested on its own."""

from __future__ import annotations

import pytest
from refusals import reason

import engine
from engine.base import resolve_options
from engine.tarneeb.rules import OPTIONS
from engine.tarneeb.scoring import score_hand

DEFAULTS = resolve_options(OPTIONS, None)
TEAMS = [0, 1, 0, 1]
ALL_SPADES = " ".join(f"{r}S" for r in "23456789TJQKA")


def new(dealer: int = 0, seed: int = 1, **kw: object) -> engine.Game:
    return engine.new_game("tarneeb", seed=seed, dealer=dealer, **kw)  # type: ignore[arg-type]


def sc(**over: object) -> dict[str, object]:
    return {**DEFAULTS, **over}


def test_defaults_exact() -> None:
    assert new().options == {
        "target": 31,
        "first_dealer": "random",
        "bid_display": "tricks",
        "pass_is_final": True,
        "all_pass": "redeal_same_dealer",
        "trump_mode": "bidder_chooses",
        "no_trump_allowed": False,
        "first_lead_must_be_trump": False,
        "made_score": "tricks_taken",
        "defenders_score_when_made": False,
        "fail_defender_award": "their_tricks",
        "kaboot_unbid_score": 16,
        "kaboot_bid_made_score": 26,
        "kaboot_bid_fail_penalty": 16,
        "kaboot_fail_defenders": "single",
        "defender_kaboot_bonus": True,
        "both_cross_tie": "play_on",
        "lose_at_negative_target": False,
        "bid13_wins_match": False,
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"nope": 1},
        {"target": 30},
        {"target": "31"},
        {"target": True},
        {"pass_is_final": 1},
        {"all_pass": "whatever"},
        {"kaboot_unbid_score": -1},
        {"kaboot_bid_made_score": 1000},
        {"first_dealer": 4},
        {"bid_display": "roman"},
    ],
)
def test_unknown_or_out_of_range_options_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(engine.InvalidOptions):
        new(options=bad)


def test_option_target(tk) -> None:
    for t in (41, 61):
        assert new(options={"target": t}).view(None)["target"] == t
    g, _ = tk.scenario(
        "tarneeb",
        ["bid 8", "pass", "pass", "pass", "trump S"],
        TEAMS,
        [8, 5],
        options={"target": 41},
        state={"team_scores": [25, 0]},
    )
    assert g.scores() == {"teams": [33, 0]} and g.winner is None


def test_option_first_dealer() -> None:
    g = engine.new_game("tarneeb", seed=3, options={"first_dealer": 2})
    assert g.dealer == 2 and g.to_act == 3  # type: ignore[attr-defined]
    assert engine.new_game("tarneeb", seed=3, dealer=1, options={"first_dealer": 2}).dealer == 1  # type: ignore[attr-defined]


def test_option_bid_display_is_display_only(tk) -> None:
    g = new(options={"bid_display": "levels"})
    assert g.view(None)["bid_display"] == "levels"
    assert g.legal()[0] == "bid 7"


def test_option_pass_is_final_false_open_auction(tk) -> None:
    g = new(dealer=0, options={"pass_is_final": False})
    tk.run(g, ["pass", "bid 7", "pass"])  # seats 1, 2, 3
    assert g.to_act == 0
    tk.run(g, ["bid 8"])
    assert g.to_act == 1  # seat 1 passed before and may come back
    tk.run(g, ["bid 9", "pass", "pass"])
    assert g.phase == "bid" and g.to_act == 0
    ev = tk.run(g, ["pass"])  # three passes in a row after seat 1's bid
    assert tk.of_type(ev, "auction_won") == [{"type": "auction_won", "seat": 1, "bid": 9}]
    g = new(dealer=0, options={"pass_is_final": False})
    ev = tk.run(g, ["pass"] * 4)
    assert tk.of_type(ev, "deal_thrown_in")


def test_option_all_pass_redeal_next_dealer(tk) -> None:
    g = new(dealer=1, options={"all_pass": "redeal_next_dealer"})
    ev = tk.run(g, ["pass"] * 4)
    assert tk.of_type(ev, "deal_thrown_in")[0]["next_dealer"] == 2
    assert g.dealer == 2 and g.to_act == 3 and g.hand_no == 0


def test_option_all_pass_dealer_forced_min(tk) -> None:
    g = new(dealer=1, options={"all_pass": "dealer_forced_min"})
    tk.run(g, ["pass"] * 3)
    assert g.to_act == 1
    assert "pass" not in g.legal()
    assert reason(g, 1, "pass") == "pass_not_allowed"
    assert g.auto() == "bid 7"
    ev = g.act(1, "bid 7")
    assert ev[-1] == {"type": "auction_won", "seat": 1, "bid": 7}


def test_option_trump_mode_exposed_sister_suit(tk) -> None:
    g = new(dealer=0, deals=[tk.deal(last={0: "KH"})], options={"trump_mode": "exposed_sister_suit"})
    v = g.view(None)
    assert v["exposed"] == "KH" and v["trump"] == "D"
    ev = tk.run(g, ["bid 7", "pass", "pass", "pass"])
    assert g.phase == "play" and g.to_act == 1
    assert not tk.of_type(ev, "trump_chosen")


def test_option_no_trump_allowed(tk) -> None:
    g = new(dealer=0, options={"no_trump_allowed": True})
    tk.run(g, ["bid 7", "pass", "pass", "pass"])
    assert "trump N" in g.legal()
    ev = g.act(1, "trump N")
    assert ev[0]["suit"] == "N" and g.view(None)["trump"] == "N"
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert tk.of_type(ev, "deal_scored")[0]["summary"]["trump"] == "N"


def test_option_first_lead_must_be_trump(tk) -> None:
    g = new(dealer=0, deals=[tk.deal({1: "2C 3S"})], options={"first_lead_must_be_trump": True})
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S"])
    assert all(a.endswith("S") for a in g.legal())
    assert reason(g, 1, "play 2C") == "must_lead_trump"
    assert g.auto() == "play 3S"
    # without a trump in hand, any lead
    g = new(dealer=0, deals=[tk.deal({1: "2C", 0: ALL_SPADES})], options={"first_lead_must_be_trump": True})
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S"])
    assert len(g.legal()) == 13


def test_option_made_score_bid() -> None:
    assert score_hand(8, 10, sc(made_score="bid")) == (8, 0)
    assert score_hand(8, 13, sc(made_score="bid")) == (16, 0)


def test_option_defenders_score_when_made() -> None:
    assert score_hand(8, 10, sc(defenders_score_when_made=True)) == (10, 3)


def test_option_fail_defender_award() -> None:
    assert score_hand(9, 7, sc(fail_defender_award="bid")) == (-9, 9)
    assert score_hand(9, 7, sc(fail_defender_award="nothing")) == (-9, 0)


def test_option_kaboot_unbid_score() -> None:
    assert score_hand(7, 13, sc(kaboot_unbid_score=20)) == (20, 0)
    assert score_hand(7, 0, sc(kaboot_unbid_score=20)) == (-7, 20)


def test_option_kaboot_bid_made_score() -> None:
    assert score_hand(13, 13, sc(kaboot_bid_made_score=30)) == (30, 0)


def test_option_kaboot_bid_fail_penalty() -> None:
    assert score_hand(13, 12, sc(kaboot_bid_fail_penalty=26)) == (-26, 1)


def test_option_kaboot_fail_defenders_double() -> None:
    assert score_hand(13, 10, sc(kaboot_fail_defenders="double")) == (-16, 6)
    assert score_hand(13, 0, sc(kaboot_fail_defenders="double")) == (-16, 16)


def test_option_defender_kaboot_bonus_false() -> None:
    assert score_hand(9, 0, sc(defender_kaboot_bonus=False)) == (-9, 13)


def test_option_both_cross_tie_declarer_team_wins(tk) -> None:
    g, _ = tk.scenario(
        "tarneeb",
        ["bid 7", "pass", "pass", "pass", "trump S"],
        TEAMS,
        [8, 5],
        options={"defenders_score_when_made": True, "both_cross_tie": "declarer_team_wins"},
        state={"team_scores": [25, 28]},
    )
    assert g.scores() == {"teams": [33, 33]} and g.winner == [0, 2]


def test_option_lose_at_negative_target(tk) -> None:
    g, ev = tk.scenario(
        "tarneeb",
        ["bid 7", "pass", "pass", "pass", "trump S"],
        TEAMS,
        [6, 7],
        options={"lose_at_negative_target": True},
        state={"team_scores": [-25, 0]},
    )
    assert g.scores() == {"teams": [-32, 7]} and g.winner == [1, 3]
    assert ev[-1]["type"] == "match_over"


def test_option_bid13_wins_match(tk) -> None:
    g = new(dealer=3, deals=[tk.deal({0: ALL_SPADES})], options={"bid13_wins_match": True})
    tk.run(g, ["bid 13", "trump S"])
    ev = tk.autoplay(g)
    assert g.scores() == {"teams": [26, 0]} and g.winner == [0, 2]
    assert ev[-1]["type"] == "match_over"
