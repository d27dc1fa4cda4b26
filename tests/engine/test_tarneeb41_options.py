"""Syrian Tarneeb 41 variant options (rules.md §2.6): each option switched on and tested on its own."""

from __future__ import annotations

import pytest
from refusals import reason

import engine
from engine.base import resolve_options
from engine.tarneeb41.rules import OPTIONS
from engine.tarneeb41.scoring import bid_value, deal_deltas, match_winner

DEFAULTS = resolve_options(OPTIONS, None)
SEATS = [0, 1, 2, 3]


def new(dealer: int = 0, seed: int = 1, **kw: object) -> engine.Game:
    return engine.new_game("tarneeb41", seed=seed, dealer=dealer, **kw)  # type: ignore[arg-type]


def test_defaults_exact() -> None:
    assert new().options == {
        "trump_mode": "exposed_sister_suit",
        "exposed_card": "dealer_13th",
        "min_bid": 2,
        "max_bid": 13,
        "min_total": 11,
        "low_total_redeal": "next_dealer",
        "value_table": "face",
        "rising_minimums": False,
        "first_lead": "dealer_right",
        "target": 41,
        "partner_rule": "positive",
        "both_qualify": "higher_team_total_then_extra_deal",
        "bid13_wins_match": False,
        "first_dealer": "random",
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"unknown": True},
        {"min_bid": 3},
        {"max_bid": 12},
        {"min_total": 3},
        {"min_total": 11.0},
        {"value_table": "400"},
        {"exposed_card": "first"},
        {"target": 0},
        {"partner_rule": "any"},
        {"trump_mode": "spades_fixed"},
    ],
)
def test_unknown_or_out_of_range_options_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(engine.InvalidOptions):
        new(options=bad)


def test_option_trump_mode_hearts_fixed(tk) -> None:
    g = new(dealer=0, deals=[tk.deal(last={0: "KH"})], options={"trump_mode": "hearts_fixed"})
    v = g.view(None)
    assert v["trump"] == "H" and v["exposed"] is None
    ev = tk.run(g, ["bid 3"] * 4)
    assert g.phase == "play"
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    started = tk.of_type(ev, "deal_started")[0]
    assert started["exposed"] is None and started["trump"] == "H"


def test_option_exposed_card_dealer_13th_only() -> None:
    assert new(options={"exposed_card": "dealer_13th"}).options["exposed_card"] == "dealer_13th"


def test_option_min_bid_1(tk) -> None:
    g = new(dealer=0, options={"min_bid": 1})
    assert g.legal()[0] == "bid 1"
    assert g.auto() == "bid 2"
    g.act(1, "bid 1")
    assert reason(g, 2, "bid 0") == "bid_out_of_range"


def test_option_max_bid_13_only() -> None:
    assert new(options={"max_bid": 13}).legal()[-1] == "bid 13"


def test_option_min_total(tk) -> None:
    g = new(dealer=0, options={"min_total": 12})
    ev = tk.run(g, ["bid 3", "bid 3", "bid 3", "bid 2"])
    assert tk.of_type(ev, "deal_thrown_in")[0]["total"] == 11
    g = new(dealer=0, options={"min_total": 8})
    tk.run(g, ["bid 2", "bid 2", "bid 2", "bid 2"])
    assert g.phase == "play"


def test_option_low_total_redeal_same_dealer(tk) -> None:
    g = new(dealer=1, options={"low_total_redeal": "same_dealer"})
    ev = tk.run(g, ["bid 2"] * 4)
    assert tk.of_type(ev, "deal_thrown_in")[0]["next_dealer"] == 1
    assert g.dealer == 1 and g.to_act == 2 and g.deal_no == 2


def test_option_value_table_double_from_7() -> None:
    assert [bid_value(b, "double_from_7") for b in range(2, 14)] == [2, 3, 4, 5, 6, 14, 16, 18, 20, 22, 24, 26]
    assert deal_deltas([7, 2], [6, 2], [0, 0], "double_from_7") == [-14, 2]


def test_option_value_table_levant400() -> None:
    assert [bid_value(b, "levant400") for b in range(2, 14)] == [2, 3, 4, 10, 12, 14, 16, 27, 40, 40, 40, 40]
    assert bid_value(6, "levant400", 30) == 6 and bid_value(6, "levant400", 29) == 12


def test_option_value_table_tiered_multiplier() -> None:
    assert [bid_value(b, "tiered_multiplier") for b in range(2, 14)] == [2, 3, 4, 10, 12, 14, 16, 27, 30, 44, 48, 52]


def test_option_value_table_end_to_end(tk) -> None:
    g = new(dealer=3, options={"value_table": "double_from_7"})
    tk.run(g, ["bid 7", "bid 2", "bid 2", "bid 2"])
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    scored = tk.of_type(ev, "deal_scored")[0]
    tricks = scored["summary"]["tricks"]
    assert scored["deltas"]["players"] == deal_deltas([7, 2, 2, 2], tricks, [0] * 4, "double_from_7")
    assert abs(scored["deltas"]["players"][0]) == 14


def test_option_rising_minimums(tk) -> None:
    g = new(dealer=3, options={"rising_minimums": True})
    g = tk.with_state(g, player_scores=[35, 45, 0, 55])
    assert g.legal()[0] == "bid 3" and g.auto() == "bid 3"
    assert reason(g, 0, "bid 2") == "bid_too_low"
    tk.run(g, ["bid 3"])
    assert g.legal()[0] == "bid 4"
    tk.run(g, ["bid 4", "bid 2"])
    assert g.legal()[0] == "bid 5"
    ev = tk.run(g, ["bid 5"])  # total 14 = 11 + 3 (the highest score is 55)
    assert g.phase == "play" and not tk.of_type(ev, "deal_thrown_in")
    g = tk.with_state(new(dealer=3, options={"rising_minimums": True}), player_scores=[35, 0, 0, 55])
    ev = tk.run(g, ["bid 3", "bid 3", "bid 2", "bid 5"])  # total 13 < 14
    assert tk.of_type(ev, "deal_thrown_in")[0]["total"] == 13
    assert g.view(None)["min_total"] == 14


def test_option_first_lead_highest_bidder_ties_earliest(tk) -> None:
    g = new(dealer=1, options={"first_lead": "highest_bidder"})
    tk.run(g, ["bid 2", "bid 5", "bid 3", "bid 5"])  # seats 2, 3, 0, 1
    assert g.to_act == 3


def test_option_target() -> None:
    assert match_winner([31, 0, 1, 0], {**DEFAULTS, "target": 31}) == 0
    assert match_winner([31, 0, 1, 0], DEFAULTS) is None
    assert new(options={"target": 31}).view(None)["target"] == 31


def test_option_partner_rule_non_negative() -> None:
    assert match_winner([45, 0, 0, 0], {**DEFAULTS, "partner_rule": "non_negative"}) == 0
    assert match_winner([45, 0, -1, 0], {**DEFAULTS, "partner_rule": "non_negative"}) is None


def test_option_both_qualify_higher_individual_then_team() -> None:
    o = {**DEFAULTS, "both_qualify": "higher_individual_then_team"}
    assert match_winner([45, 41, 2, 8], o) == 0
    assert match_winner([45, 45, 2, 8], o) == 1
    assert match_winner([45, 45, 2, 2], o) is None


def test_option_bid13_wins_match(tk) -> None:
    diamonds = " ".join(f"{r}D" for r in "23456789TJQKA")
    deal = tk.deal({0: diamonds}, last={3: "2H"})
    for on, want in ((True, [0, 2]), (False, None)):
        g = new(dealer=3, deals=[deal], options={"bid13_wins_match": on})
        tk.run(g, ["bid 13", "bid 2", "bid 2", "bid 2"])
        tk.autoplay(g, until=lambda x: x.hand_no == 1)
        assert g.scores()["players"][0] == 13
        assert g.winner == want
