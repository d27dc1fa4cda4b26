"""Syrian Tarneeb 41 (rules.md §2): one test per rule id and per edge case of §2.7, default options."""

from __future__ import annotations

import random

import pytest
from refusals import reason

import engine
from engine import cards as C
from engine.base import resolve_options
from engine.tarneeb41.rules import OPTIONS
from engine.tarneeb41.scoring import deal_deltas, match_winner, qualifies

DEFAULTS = resolve_options(OPTIONS, None)
SEATS = [0, 1, 2, 3]


def new(dealer: int = 0, seed: int = 1, **kw: object) -> engine.Game:
    return engine.new_game("tarneeb41", seed=seed, dealer=dealer, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- deal and trump


def test_S_D1_first_dealer_random_from_seed() -> None:
    assert {engine.new_game("tarneeb41", seed=s).dealer for s in range(40)} == {0, 1, 2, 3}  # type: ignore[attr-defined]


def test_S_D2_deal_one_at_a_time_from_dealers_right() -> None:
    g = new(dealer=1, seed=21)
    deck = list(range(52))
    random.Random(21).shuffle(deck)
    for i, c in enumerate(deck):
        assert C.code(c) in g.hand((2 + i) % 4)


def test_S_D3_dealers_13th_card_exposed_to_all() -> None:
    g = new(dealer=1, seed=21)
    deck = list(range(52))
    random.Random(21).shuffle(deck)
    assert g.view(None)["exposed"] == C.code(deck[51])
    assert C.code(deck[51]) in g.hand(1)
    for s in (None, 0, 2, 3):
        assert g.view(s)["exposed"] == C.code(deck[51])


def test_S_D4_trump_is_sister_suit_of_exposed(tk) -> None:
    for exposed, trump in (("KH", "D"), ("2D", "H"), ("7C", "S"), ("AS", "C")):
        g = new(dealer=0, deals=[tk.deal(last={0: exposed})])
        assert g.view(None)["exposed"] == exposed and g.view(None)["trump"] == trump


def test_S_D5_exposed_card_stays_in_hand_and_is_played_normally(tk) -> None:
    deal = tk.deal({0: "2H", 3: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"}, last={3: "7C"})
    g = new(dealer=3, deals=[deal])
    assert "7C" in g.hand(3) and "7C" in g.view(3)["hand"]
    tk.run(g, ["bid 3", "bid 3", "bid 3", "bid 2", "play 2H"])
    tk.run(g, [g.auto()])
    tk.run(g, [g.auto()])
    assert g.to_act == 3 and g.view(None)["exposed"] == "7C"
    ev = g.act(3, "play 7C")
    assert ev[0] == {"type": "card_played", "seat": 3, "card": "7C"}
    assert all(g.view(s)["exposed"] is None for s in (None, 0, 1, 2, 3))


# ---------------------------------------------------------------- bidding


def test_S_B1_bid_order_dealer_last(tk) -> None:
    g = new(dealer=1)
    order = []
    for _ in range(4):
        order.append(g.to_act)
        g.act(g.to_act, "bid 3")
    assert order == [2, 3, 0, 1]


def test_S_B2_each_bids_once_2_to_13_public(tk) -> None:
    g = new(dealer=1)
    assert g.legal() == [f"bid {v}" for v in range(2, 14)]
    ev = g.act(2, "bid 5")
    assert ev == [{"type": "bid_made", "seat": 2, "bid": 5}]
    assert g.view(None)["bids"] == [None, None, 5, None]
    assert reason(g, 2, "bid 6") == "not_your_turn"


def test_S_B3_no_pass_no_0_1_or_14(tk) -> None:
    g = new(dealer=1)
    assert reason(g, 2, "pass") == "pass_not_allowed"
    for v in (0, 1, 14):
        assert reason(g, 2, f"bid {v}") == "bid_out_of_range"


def test_S_B4_bids_need_not_rise(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 9", "bid 2", "bid 9", "bid 9"])
    assert g.phase == "play" and g.view(None)["bids"] == [9, 9, 2, 9]


def test_S_B5_total_below_11_throws_in(tk) -> None:
    g = new(dealer=1)
    ev = tk.run(g, ["bid 2", "bid 3", "bid 2", "bid 3"])
    assert tk.of_type(ev, "deal_thrown_in") == [
        {"type": "deal_thrown_in", "reason": "low_total", "total": 10, "next_dealer": 2}
    ]
    assert g.dealer == 2 and g.to_act == 3 and g.phase == "bid"
    assert g.scores() == {"players": [0, 0, 0, 0], "teams": [0, 0]}
    assert g.hand_no == 0 and g.deal_no == 2


# ---------------------------------------------------------------- play


def test_S_P1_first_bidder_leads(tk) -> None:
    g = new(dealer=1)
    tk.run(g, ["bid 2", "bid 2", "bid 6", "bid 2"])
    assert g.phase == "play" and g.to_act == 2


def test_S_P2_follow_suit_trumping_optional(tk) -> None:
    # exposed KH → trump ♦; seat 1 leads ♠A; seat 2 has no spades
    deal = tk.deal({1: "AS", 2: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD 2C 3C"}, last={0: "KH"})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 3", "bid 3", "bid 3", "bid 3", "play AS"])
    assert g.view(None)["trump"] == "D"
    assert sorted(g.legal()) == sorted("play " + c for c in g.hand(2))


def test_S_P3_tricks_count_per_player(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 3", "bid 3", "bid 3", "bid 3"])
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    per_seat = [0, 0, 0, 0]
    for e in tk.of_type(ev, "trick_taken"):
        per_seat[e["seat"]] += 1
    assert tk.of_type(ev, "deal_scored")[0]["summary"] == {"bids": [3, 3, 3, 3], "tricks": per_seat}


def test_S_P4_all_13_tricks(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 3", "bid 3", "bid 3", "bid 3"])
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert len(tk.of_type(ev, "trick_taken")) == 13


# ---------------------------------------------------------------- scoring


def test_S_S1_made_scores_plus_bid_only() -> None:
    assert deal_deltas([5, 2, 2, 2], [7, 2, 2, 2], [0] * 4, "face")[0] == 5


def test_S_S2_failed_scores_minus_bid() -> None:
    assert deal_deltas([4, 2, 2, 2], [3, 2, 2, 6], [0] * 4, "face")[0] == -4


def test_S_S3_scores_carry_and_team_is_partner_sum(tk) -> None:
    g, ev = tk.scenario(
        "tarneeb41", ["bid 4", "bid 2", "bid 3", "bid 2"], SEATS, [2, 3, 6, 2], state={"player_scores": [-3, 5, 1, 0]}
    )
    scored = tk.of_type(ev, "deal_scored")[0]
    assert scored["deltas"] == {"players": [-4, 2, 3, 2], "teams": [-1, 4]}
    assert g.scores() == {"players": [-7, 7, 4, 2], "teams": [-3, 9]} == scored["scores"]


# ---------------------------------------------------------------- winning


def test_S_W1_qualify_one_at_41_partner_positive() -> None:
    assert qualifies(43, 1, 41, "positive")
    assert qualifies(41, 44, 41, "positive")
    assert not qualifies(40, 40, 41, "positive")


@pytest.mark.slow
def test_S_W2_exactly_one_team_qualifies_wins(tk) -> None:
    g, ev = tk.scenario(
        "tarneeb41", ["bid 2", "bid 3", "bid 2", "bid 4"], SEATS, [2, 3, 2, 6], state={"player_scores": [40, 0, 1, 0]}
    )
    assert g.scores()["players"] == [42, 3, 3, 4]
    assert g.winner == [0, 2] and g.phase == "over" and g.to_act is None and g.legal() == []
    assert ev[-1] == {"type": "match_over", "winner": [0, 2], "scores": g.scores()}
    assert reason(g, 0, "bid 2") == "match_over"


def test_S_W3_no_team_qualifies_new_deal() -> None:
    assert match_winner([40, 30, 40, 30], DEFAULTS) is None


def test_S_W4_both_qualify_higher_total_then_extra_deal() -> None:
    assert match_winner([45, 41, 2, 8], DEFAULTS) == 1
    assert match_winner([45, 41, 2, 6], DEFAULTS) is None


def test_S_W5_partner_not_positive_blocks() -> None:
    assert match_winner([45, 0, 0, 0], DEFAULTS) is None
    assert match_winner([45, 0, -3, 0], DEFAULTS) is None


def test_S_W6_deal_passes_right_after_scored_deal(tk) -> None:
    g = new(dealer=2)
    tk.run(g, ["bid 3"] * 4)
    tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert g.dealer == 3 and g.to_act == 0


# ---------------------------------------------------------------- §2.7 edge cases


def test_edge_2_7_01_deal_and_exposure() -> None:
    seed = next(x for x in range(2000) if _deck(x)[51] == C.parse("7C"))
    deck = _deck(seed)
    g = new(dealer=1, seed=seed)
    for i, c in enumerate(deck):
        assert C.code(c) in g.hand((2 + i) % 4)
    assert g.hand(1) == sorted((C.code(c) for c in deck[3::4]), key=C.parse)
    v = g.view(None)
    assert v["exposed"] == "7C" and v["trump"] == "S" and "7C" in g.hand(1)


def _deck(seed: int) -> list[int]:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return deck


def test_edge_2_7_02_sister_suit_map(tk) -> None:
    for c in C.CODES:
        g = new(dealer=2, deals=[tk.deal(last={2: c})])
        v = g.view(None)
        assert v["trump"] == {"H": "D", "D": "H", "C": "S", "S": "C"}[c[1]]
        assert v["trump"] != c[1]


def test_edge_2_7_03_bid_order_and_once_only(tk) -> None:
    g = new(dealer=1)
    assert reason(g, 3, "bid 3") == "not_your_turn"
    tk.run(g, ["bid 3"])
    assert reason(g, 2, "bid 3") == "not_your_turn"
    tk.run(g, ["bid 3", "bid 3", "bid 3"])
    assert g.phase == "play"
    assert reason(g, 1, "bid 3") in {"not_your_turn", "wrong_phase"}


def test_edge_2_7_04_bid_range_no_pass(tk) -> None:
    g = new(dealer=1)
    for a in ("bid 1", "bid 0", "bid 14"):
        assert reason(g, 2, a) == "bid_out_of_range"
    assert reason(g, 2, "pass") == "pass_not_allowed"
    tk.run(g, ["bid 2", "bid 13"])


def test_edge_2_7_05_throw_in(tk) -> None:
    d2 = tk.deal(last={2: "QD"})
    g = new(dealer=1, deals=[tk.deal(), d2])
    ev = tk.run(g, ["bid 2", "bid 3", "bid 2", "bid 3"])
    assert g.dealer == 2
    assert g.view(None)["exposed"] == "QD" and g.view(None)["trump"] == "H"
    assert tk.of_type(ev, "deal_started")[0]["exposed"] == "QD"


def test_edge_2_7_06_total_exactly_11(tk) -> None:
    g = new(dealer=1)
    tk.run(g, ["bid 3", "bid 3", "bid 3", "bid 2"])
    assert g.phase == "play"


def test_edge_2_7_07_total_above_13(tk) -> None:
    g = new(dealer=1)
    tk.run(g, ["bid 5", "bid 5", "bid 4", "bid 4"])
    assert g.phase == "play" and g.to_act == 2


def test_edge_2_7_08_first_lead_not_highest_bidder(tk) -> None:
    g = new(dealer=1)
    tk.run(g, ["bid 2", "bid 2", "bid 8", "bid 2"])  # seat 0 bids 8
    assert g.to_act == 2


def test_edge_2_7_09_per_player_scoring() -> None:
    assert deal_deltas([5, 4, 2, 13], [7, 3, 0, 13], [0] * 4, "face") == [5, -4, -2, 13]
    assert deal_deltas([13], [13], [0], "double_from_7") == [26]
    assert deal_deltas([13], [13], [0], "levant400") == [40]


def test_edge_2_7_10_partner_tricks_do_not_help(tk) -> None:
    _g, ev = tk.scenario("tarneeb41", ["bid 4", "bid 2", "bid 3", "bid 2"], SEATS, [2, 3, 6, 2])
    d = tk.of_type(ev, "deal_scored")[0]["deltas"]
    assert d["players"][0] == -4 and d["players"][2] == 3 and d["teams"][0] == -1


def test_edge_2_7_11_qualifying() -> None:
    assert match_winner([43, 10, 1, 10], DEFAULTS) == 0


def test_edge_2_7_12_partner_at_zero_or_below() -> None:
    assert match_winner([45, 0, 0, 0], DEFAULTS) is None
    assert match_winner([45, 0, -3, 0], DEFAULTS) is None


def test_edge_2_7_13_both_qualify_higher_total() -> None:
    assert match_winner([45, 41, 2, 8], DEFAULTS) == 1


def test_edge_2_7_14_exact_tie_one_more_deal(tk) -> None:
    assert match_winner([45, 41, 2, 6], DEFAULTS) is None
    # in the extra deal A's 45 fails a bid of 6 → (39, 2): B still qualifies and wins
    g, _ = tk.scenario(
        "tarneeb41", ["bid 6", "bid 2", "bid 2", "bid 2"], SEATS, [4, 2, 2, 5], state={"player_scores": [45, 41, 2, 6]}
    )
    assert g.scores()["players"] == [39, 43, 4, 8]
    assert g.winner == [1, 3]


def test_edge_2_7_15_dropping_out() -> None:
    assert match_winner([39, 0, 5, 0], DEFAULTS) is None


def test_edge_2_7_16_both_players_at_41_or_more() -> None:
    assert match_winner([41, 0, 44, 0], DEFAULTS) == 0


def test_edge_2_7_17_auto_moves(tk) -> None:
    g = new(dealer=0)
    assert g.auto() == "bid 2"
    deal = tk.deal({1: "AS", 2: "2D TC TH " + " ".join(f"{r}D" for r in "3456789TJQ")}, last={0: "KH"})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 3"] * 4 + ["play AS"])
    assert g.auto() == "play TC"


def test_edge_2_7_18_dealer_rotation(tk) -> None:
    g = new(dealer=3)
    tk.run(g, ["bid 2"] * 4)
    assert g.dealer == 0
    tk.run(g, ["bid 3"] * 4)
    tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert g.dealer == 1


def test_edge_2_7_19_dealer_plays_the_exposed_card(tk) -> None:
    # dealer 3 leads nothing at first; make the dealer the leader with first_lead = highest_bidder
    deal = tk.deal({3: "AS"}, last={3: "7C"})
    g = new(dealer=3, deals=[deal], options={"first_lead": "highest_bidder"})
    tk.run(g, ["bid 2", "bid 2", "bid 2", "bid 9"])
    assert g.to_act == 3 and "play 7C" in g.legal()
    ev = g.act(3, "play 7C")
    assert ev[0] == {"type": "card_played", "seat": 3, "card": "7C"}
    assert g.view(None)["exposed"] is None
    # discarding it when void in the suit led
    deal = tk.deal({0: "2H", 3: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"}, last={3: "7C"})
    g = new(dealer=3, deals=[deal])
    tk.run(g, ["bid 3"] * 4 + ["play 2H"])
    while g.to_act != 3:
        tk.run(g, [g.auto()])
    assert "play 7C" in g.legal()
