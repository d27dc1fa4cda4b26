"""Classic Tarneeb (rules.md §1): one test per rule id and per edge case of §1.6, default options."""

from __future__ import annotations

import random

import pytest
from refusals import reason

import engine
from engine import cards as C
from engine.base import resolve_options
from engine.tarneeb.rules import OPTIONS
from engine.tarneeb.scoring import score_hand

DEFAULTS = resolve_options(OPTIONS, None)
TEAMS = [0, 1, 0, 1]


def new(dealer: int = 0, seed: int = 1, **kw: object) -> engine.Game:
    return engine.new_game("tarneeb", seed=seed, dealer=dealer, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------- deal


def test_T_D1_first_dealer_drawn_from_seed_or_fixed() -> None:
    dealers = {engine.new_game("tarneeb", seed=s).dealer for s in range(40)}  # type: ignore[attr-defined]
    assert dealers == {0, 1, 2, 3}
    assert engine.new_game("tarneeb", seed=5).dealer == engine.new_game("tarneeb", seed=5).dealer  # type: ignore[attr-defined]
    assert new(dealer=2).dealer == 2  # type: ignore[attr-defined]


def test_T_D2_deal_order_from_dealers_right() -> None:
    g = new(dealer=1, seed=9)
    deck = list(range(52))
    random.Random(9).shuffle(deck)
    for i, c in enumerate(deck):
        assert C.code(c) in g.hand((1 + 1 + i) % 4)
    assert all(len(g.hand(s)) == 13 for s in range(4))


def test_T_D3_deal_passes_right_after_scored_hand(tk) -> None:
    g = new(dealer=3)
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S"])
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert tk.of_type(ev, "deal_scored")
    assert g.dealer == 0 and g.to_act == 1 and g.phase == "bid"


# ---------------------------------------------------------------- auction


def test_T_A1_dealers_right_speaks_first() -> None:
    for d in range(4):
        assert new(dealer=d).to_act == (d + 1) % 4


def test_T_A2_bids_7_to_13_strictly_higher(tk) -> None:
    g = new(dealer=0)
    assert g.legal() == [f"bid {v}" for v in range(7, 14)] + ["pass"]
    tk.run(g, ["bid 9"])
    assert g.legal() == ["bid 10", "bid 11", "bid 12", "bid 13", "pass"]
    assert reason(g, 2, "bid 9") == "bid_too_low"
    assert reason(g, 2, "bid 6") == "bid_out_of_range"


def test_T_A3_partner_may_overbid(tk) -> None:
    g = new(dealer=0)
    ev = tk.run(g, ["bid 7", "pass", "bid 8"])
    assert ev[-1] == {"type": "bid_made", "seat": 3, "bid": 8}
    assert g.view(None)["high_bid"] == {"seat": 3, "bid": 8}


def test_T_A4_pass_is_final(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["pass", "bid 7", "bid 8", "pass"])
    assert g.to_act == 2  # seat 1 is skipped
    assert reason(g, 1, "bid 9") == "not_your_turn"
    assert g.view(None)["passed"] == [True, True, False, False]


def test_T_A5_auction_ends_when_one_remains_or_on_13(tk) -> None:
    g = new(dealer=0)
    ev = tk.run(g, ["bid 7", "pass", "pass", "pass"])
    assert tk.of_type(ev, "auction_won") == [{"type": "auction_won", "seat": 1, "bid": 7}]
    assert g.phase == "trump" and g.to_act == 1
    g = new(dealer=0)
    ev = tk.run(g, ["pass", "bid 13"])
    assert tk.of_type(ev, "auction_won")[0]["seat"] == 2
    assert g.phase == "trump" and g.to_act == 2


def test_T_A6_turn_moves_to_next_not_passed(tk) -> None:
    g = new(dealer=1)
    tk.run(g, ["bid 7", "pass", "bid 8"])  # seats 2, 3, 0
    assert g.to_act == 1
    tk.run(g, ["bid 9"])
    assert g.to_act == 2


def test_T_A7_all_pass_same_dealer_redeals(tk) -> None:
    g = new(dealer=2, seed=4)
    hand_before = g.hand(3)
    ev = tk.run(g, ["pass"] * 4)
    assert tk.of_type(ev, "deal_thrown_in") == [{"type": "deal_thrown_in", "reason": "all_passed", "next_dealer": 2}]
    started = tk.of_type(ev, "deal_started")[0]
    assert started["deal_no"] == 2 and started["dealer"] == 2 and started["first"] == 3
    assert g.dealer == 2 and g.hand_no == 0 and g.deal_no == 2
    assert g.scores() == {"teams": [0, 0]}
    assert g.hand(3) != hand_before


# ---------------------------------------------------------------- trump and lead


def test_T_T1_declarer_names_any_suit_no_no_trump(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 7", "pass", "pass", "pass"])
    assert sorted(g.legal()) == ["trump C", "trump D", "trump H", "trump S"]
    assert reason(g, 1, "trump N") == "no_trump_not_allowed"
    ev = g.act(1, "trump h")
    assert ev[0] == {"type": "trump_chosen", "seat": 1, "suit": "H"}
    assert g.view(None)["trump"] == "H"


def test_T_T2_declarer_leads_first_trick_trump_allowed(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["pass", "bid 7", "pass", "pass", "trump S"])
    assert g.phase == "play" and g.to_act == 2
    assert sorted(g.legal()) == sorted("play " + c for c in g.hand(2))


# ---------------------------------------------------------------- play


def test_T_P1_follow_suit_else_anything(tk) -> None:
    deal = tk.deal({1: "5H AS 2C", 2: "2S 9D 3D", 3: "3S KS 2H"})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S"])
    leader_hearts = [c for c in g.hand(1) if c[1] == "H"]
    assert leader_hearts == ["5H"]
    tk.run(g, ["play 2C"])  # seat 1 leads a club
    assert g.to_act == 2
    # seat 2 holds no clubs (they went to seat 0 in the fill) → any card, trump or not
    assert "C" not in {c[1] for c in g.hand(2)}
    assert sorted(g.legal()) == sorted("play " + c for c in g.hand(2))


def test_T_P2_all_13_tricks_played(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S"])
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert [e["trick_no"] for e in tk.of_type(ev, "trick_taken")] == list(range(1, 14))


def test_T_P3_tricks_count_per_team(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S"])
    ev = tk.autoplay(g, until=lambda x: x.hand_no == 1)
    per_seat = [0, 0, 0, 0]
    for e in tk.of_type(ev, "trick_taken"):
        per_seat[e["seat"]] += 1
    summary = tk.of_type(ev, "deal_scored")[0]["summary"]
    assert summary["tricks"] == [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]


# ---------------------------------------------------------------- scoring


@pytest.mark.parametrize(("bid", "taken", "want"), [(8, 10, (10, 0)), (7, 7, (7, 0)), (12, 12, (12, 0))])
def test_T_S1_made_scores_tricks_taken(bid: int, taken: int, want: tuple[int, int]) -> None:
    assert score_hand(bid, taken, DEFAULTS) == want


def test_T_S2_unbid_kaboot_16() -> None:
    assert score_hand(7, 13, DEFAULTS) == (16, 0)
    assert score_hand(12, 13, DEFAULTS) == (16, 0)


def test_T_S3_failed_minus_bid_defenders_their_tricks() -> None:
    assert score_hand(9, 7, DEFAULTS) == (-9, 6)


def test_T_S4_bid_13_made_26() -> None:
    assert score_hand(13, 13, DEFAULTS) == (26, 0)


def test_T_S5_bid_13_failed_minus_16() -> None:
    assert score_hand(13, 12, DEFAULTS) == (-16, 1)
    assert score_hand(13, 5, DEFAULTS) == (-16, 8)


def test_T_S6_defenders_take_all_13_score_16() -> None:
    assert score_hand(7, 0, DEFAULTS) == (-7, 16)
    assert score_hand(13, 0, DEFAULTS) == (-16, 16)


def test_T_S_end_to_end_deal_scored_event(tk) -> None:
    g, ev = tk.scenario("tarneeb", ["bid 8", "pass", "pass", "pass", "trump S"], TEAMS, [10, 3])
    scored = tk.of_type(ev, "deal_scored")[0]
    assert scored["deltas"] == {"teams": [10, 0]}
    assert scored["scores"] == {"teams": [10, 0]} == g.scores()
    assert scored["summary"] == {"declarer": 0, "bid": 8, "trump": "S", "tricks": [10, 3]}


# ---------------------------------------------------------------- match end


def test_T_M1_target_default_31() -> None:
    assert new().options["target"] == 31
    assert new().view(None)["target"] == 31


def test_T_M2_totals_may_go_negative(tk) -> None:
    g, _ev = tk.scenario("tarneeb", ["bid 10", "pass", "pass", "pass", "trump S"], TEAMS, [9, 4])
    assert g.scores() == {"teams": [-10, 4]}
    assert g.winner is None and g.phase == "bid"


def test_T_M3_match_checked_after_scored_hand(tk) -> None:
    g, ev = tk.scenario(
        "tarneeb", ["bid 8", "pass", "pass", "pass", "trump S"], TEAMS, [8, 5], state={"team_scores": [25, 0]}
    )
    assert g.scores() == {"teams": [33, 0]}
    assert g.phase == "over" and g.to_act is None and g.winner == [0, 2]
    over = tk.of_type(ev, "match_over")
    assert over == [{"type": "match_over", "winner": [0, 2], "scores": {"teams": [33, 0]}}]
    assert ev[-1]["type"] == "match_over"


def test_T_M4_both_cannot_cross_under_default_scoring() -> None:
    for bid in range(7, 14):
        for taken in range(14):
            a, b = score_hand(bid, taken, DEFAULTS)
            assert not (a > 0 and b > 0)


def test_T_M5_bid_13_made_does_not_win_by_itself(tk) -> None:
    g = new(dealer=3, deals=[tk.deal({0: " ".join(f"{r}S" for r in "23456789TJQKA")})])
    tk.run(g, ["bid 13", "trump S"])
    tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert g.scores() == {"teams": [26, 0]}
    assert g.winner is None and g.phase == "bid"


# ---------------------------------------------------------------- §1.6 edge cases


def test_edge_1_6_01_seat_convention(tk) -> None:
    g = new(dealer=2, seed=11)
    deck = list(range(52))
    random.Random(11).shuffle(deck)
    assert C.code(deck[0]) in g.hand(3)
    assert g.to_act == 3
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump C"])
    tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert g.dealer == 3
    assert new(dealer=3).to_act == 0


def test_edge_1_6_02_auction_with_skipping(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 7", "pass", "bid 8", "pass", "bid 9"])
    assert g.to_act == 3
    ev = tk.run(g, ["pass"])
    assert tk.of_type(ev, "auction_won") == [{"type": "auction_won", "seat": 1, "bid": 9}]
    assert g.view(None)["declarer"] == 1 and g.view(None)["contract"] == 9


def test_edge_1_6_03_passed_players_never_bid_again(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 7", "pass", "bid 8", "pass", "bid 9"])
    assert reason(g, 2, "bid 10") == "not_your_turn"
    assert reason(g, 0, "bid 10") == "not_your_turn"


def test_edge_1_6_04_bid_validity(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 9"])
    assert reason(g, 2, "bid 9") == "bid_too_low"
    assert reason(g, 2, "bid 6") == "bid_out_of_range"
    assert reason(g, 2, "bid 14") == "bid_out_of_range"
    assert g.act(2, "bid 10") == [{"type": "bid_made", "seat": 2, "bid": 10}]


def test_edge_1_6_05_13_closes_the_auction(tk) -> None:
    g = new(dealer=0)
    ev = g.act(1, "bid 13")
    assert [e["type"] for e in ev] == ["bid_made", "auction_won"]
    assert g.phase == "trump" and g.to_act == 1
    assert g.view(None)["passed"] == [False, False, False, False]


def test_edge_1_6_06_all_four_pass_default(tk) -> None:
    g = new(dealer=1)
    tk.run(g, ["pass"] * 4)
    assert g.dealer == 1 and g.to_act == 2 and g.deal_no == 2 and g.hand_no == 0


def test_edge_1_6_07_partner_overbid(tk) -> None:
    g = new(dealer=0)
    tk.run(g, ["bid 7", "pass", "bid 8"])
    assert g.view(None)["high_bid"] == {"seat": 3, "bid": 8}


def test_edge_1_6_08_declarer_leads_may_lead_trump(tk) -> None:
    g = new(dealer=0, deals=[tk.deal({3: "AS 2C"})])
    ev = tk.run(g, ["pass", "pass", "bid 7", "pass", "trump S"])
    assert g.phase == "play" and g.to_act == 3 and g.view(None)["leader"] == 3
    assert "play AS" in g.legal()
    assert g.act(3, "play AS") == [{"type": "card_played", "seat": 3, "card": "AS"}]
    assert tk.of_type(ev, "trump_chosen") == [{"type": "trump_chosen", "seat": 3, "suit": "S"}]


def test_edge_1_6_09_follow_suit(tk) -> None:
    deal = tk.deal({1: "KH", 2: "5H AS"})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump C", "play KH"])
    assert reason(g, 2, "play AS") == "must_follow_suit"
    g.act(2, "play 5H")


def test_edge_1_6_10_no_obligation_to_trump(tk) -> None:
    deal = tk.deal({1: "AC", 2: "2S 9D " + " ".join(f"{r}H" for r in "23456789TJQ")})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S", "play AC"])
    legal = g.legal()
    assert "play 2S" in legal and "play 9D" in legal and len(legal) == 13


def test_edge_1_6_11_no_obligation_to_overtrump(tk) -> None:
    clubs_to_3 = "2C 3C 4C 6C 7C 8C 9C TC JC QC KC"
    deal = tk.deal(
        {
            3: clubs_to_3 + " 4S 4H",
            0: "5S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            1: "3S KS 2H 5H 6H 7H 8H 9H TH JH QH KH AH",
        }
    )
    g = new(dealer=2, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S", "play 2C", "play 5S"])
    assert g.to_act == 1
    assert sorted(g.legal()) == sorted("play " + c for c in g.hand(1))


def test_edge_1_6_12_trick_winner() -> None:
    p = C.parse
    assert C.trick_winner([p("KC"), p("AC"), p("2D"), p("3C")], C.DIAMONDS) == 2
    assert C.trick_winner([p("7H"), p("AD"), p("9H"), p("8H")], C.SPADES) == 2


def test_edge_1_6_13_made_with_over_tricks() -> None:
    assert score_hand(8, 10, DEFAULTS) == (10, 0)


def test_edge_1_6_14_failed() -> None:
    assert score_hand(9, 7, DEFAULTS) == (-9, 6)


def test_edge_1_6_15_kaboot_without_bidding_it() -> None:
    assert score_hand(7, 13, DEFAULTS) == (16, 0)
    assert score_hand(12, 13, DEFAULTS) == (16, 0)


def test_edge_1_6_16_bid_13_made() -> None:
    assert score_hand(13, 13, DEFAULTS) == (26, 0)


def test_edge_1_6_17_bid_13_failed() -> None:
    assert score_hand(13, 12, DEFAULTS) == (-16, 1)
    assert score_hand(13, 12, {**DEFAULTS, "kaboot_fail_defenders": "double"}) == (-16, 2)


def test_edge_1_6_18_defenders_take_all_13() -> None:
    assert score_hand(7, 0, DEFAULTS) == (-7, 16)
    assert score_hand(7, 0, {**DEFAULTS, "defender_kaboot_bonus": False}) == (-7, 13)


def test_edge_1_6_19_reaching_the_target(tk) -> None:
    g, _ev = tk.scenario(
        "tarneeb", ["bid 8", "pass", "pass", "pass", "trump S"], TEAMS, [8, 5], state={"team_scores": [25, 0]}
    )
    assert g.winner == [0, 2] and g.scores()["teams"][0] == 33


def test_edge_1_6_20_negative_totals(tk) -> None:
    # Team B (seats 1, 3) is at 3, bids 10 and takes 9 → −7; Team A gets +4.
    g, _ev = tk.scenario(
        "tarneeb",
        ["bid 10", "pass", "pass", "pass", "trump S"],
        TEAMS,
        [4, 9],
        dealer=0,
        state={"team_scores": [0, 3]},
    )
    assert g.scores() == {"teams": [4, -7]}
    assert g.winner is None


def test_edge_1_6_21_both_cross_variant(tk) -> None:
    opts = {"defenders_score_when_made": True}
    g, _ = tk.scenario(
        "tarneeb",
        ["bid 7", "pass", "pass", "pass", "trump S"],
        TEAMS,
        [8, 5],
        options=opts,
        state={"team_scores": [28, 29]},
    )
    assert g.scores() == {"teams": [36, 34]} and g.winner == [0, 2]
    g, _ = tk.scenario(
        "tarneeb",
        ["bid 7", "pass", "pass", "pass", "trump S"],
        TEAMS,
        [8, 5],
        options=opts,
        state={"team_scores": [25, 28]},
    )
    assert g.scores() == {"teams": [33, 33]} and g.winner is None and g.phase == "bid"


def test_edge_1_6_22_auto_moves(tk) -> None:
    g = new(dealer=0)
    assert g.auto() == "pass"
    deal = tk.deal({1: "AS KS 3S 2S QH JH TH 9H 4D 5D 6D 2C 3C"})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass"])
    assert g.auto() == "trump H"
    # play: trump ♠, ♥ led
    deal = tk.deal({1: "2H", 2: "QH 4H 2S", 3: "3H"})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S", "play 2H"])
    assert g.auto() == "play 4H"
    deal = tk.deal({1: "2H", 2: "2S 9D 9C " + " ".join(f"{r}S" for r in "3456789TJA")})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S", "play 2H"])
    assert g.auto() == "play 9C"
    deal = tk.deal({1: "2H", 2: "JS 3S " + " ".join(f"{r}D" for r in "23456789TJA")})
    g = new(dealer=0, deals=[deal])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S", "play 2H"])
    assert g.auto() == "play 2D"  # void in ♥: the lowest non-trump
    only_trumps = tk.deal(
        {1: "2H " + " ".join(f"{r}H" for r in "3456789TJQKA"), 2: " ".join(f"{r}S" for r in "23456789TJQKA")}
    )
    g = new(dealer=0, deals=[only_trumps])
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump S", "play 2H"])
    assert g.auto() == "play 2S"


def test_edge_1_6_23_dealer_rotation(tk) -> None:
    g = new(dealer=3)
    tk.run(g, ["bid 7", "pass", "pass", "pass", "trump D"])
    tk.autoplay(g, until=lambda x: x.hand_no == 1)
    assert g.dealer == 0
