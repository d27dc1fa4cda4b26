"""Trix: one test per rule of rules.md §3.2 and §3.5, named after its id."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine import cards as C
from engine.base import Event
from engine.trix.contracts import CONTRACT_NAMES, trick_points
from engine.trix.game import TrixGame
from tests.engine.trix_scenario import build_deal, close_doubling, play_cards, rotate

KING_DEAL = [
    ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "7H"],
    ["AC", "AH", "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"],
    ["QD", "KD", "2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH", "2S"],
    ["KH", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
]
KING_PLAY = "2C AC 2S 3S AD QD 4S 3C AH 2H KH 7H"
TOTALS = {"king": -75, "queens": -100, "diamonds": -130, "tricks": -195, "trix": 500}


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def new(deals: list[list[list[str]]] | None = None, seed: int = 5, **options: Any) -> TrixGame:
    g = engine.new_game("trix", seed=seed, deals=deals, options=options)
    assert isinstance(g, TrixGame)
    return g


def random_deal(g: TrixGame, rng: random.Random) -> list[Event]:
    deal = g.deal_index
    events: list[Event] = []
    while g.to_act is not None and g.deal_index == deal:
        events += g.act(g.to_act, rng.choice(g.legal()))
    return events


def deals_of(contract: str, n: int, **options: Any) -> list[list[Event]]:
    """``n`` random-play deals of ``contract``, each its events from the choice on."""
    out = []
    for seed in range(n):
        g = new(seed=seed, **options)
        events = g.act(g.owner, "contract " + contract)
        events += close_doubling(g)
        events += random_deal(g, random.Random(seed))
        out.append(events)
    return out


# ---------------------------------------------------------------- kingdoms and contracts


def test_X_K1_twenty_deals_of_thirteen_cards() -> None:
    g = new()
    starts = 0
    sizes_ok = True
    while g.to_act is not None:
        for e in g.act(g.to_act, g.auto()):
            if e["type"] == "deal_started" and g.deal_index == e["deal_index"]:
                starts += 1
                sizes_ok &= g.view(None)["hand_sizes"] == [13, 13, 13, 13]
    assert starts == 19 and sizes_ok
    assert g.deal_no == 20 and g.deal_index == 20


def test_X_K2_first_owner_holds_7H() -> None:
    for seat in range(4):
        deal = build_deal({seat: ["7H"]}, seed=seat)
        g = new([deal])
        assert g.owner == seat == g.to_act and g.phase == "contract"
        assert sorted(g.hand(seat)) == sorted(deal[seat])


def test_X_K3_ownership_passes_right() -> None:
    g = new()
    first = g.owner
    owners = []
    while g.to_act is not None:
        owners.append(g.owner)
        deal = g.deal_index
        while g.to_act is not None and g.deal_index == deal:
            g.act(g.to_act, g.auto())
    assert owners == [(first + k) % 4 for k in range(4) for _ in range(5)]


def test_X_K4_owner_chooses_unplayed_contract_after_seeing_cards() -> None:
    g = new()
    assert g.legal() == [f"contract {n}" for n in ("king", "queens", "diamonds", "tricks", "trix")]
    assert len(g.view(g.owner)["hand"]) == 13
    other = (g.owner + 1) % 4
    with pytest.raises(engine.IllegalAction) as e:
        g.act(other, "contract king")
    assert e.value.reason == "not_your_turn"
    g.act(g.owner, "contract diamonds")
    while g.phase != "contract":
        assert g.to_act is not None
        g.act(g.to_act, g.auto())
    assert "contract diamonds" not in g.legal() and len(g.legal()) == 4
    with pytest.raises(engine.IllegalAction) as e:
        g.act(g.owner, "contract diamonds")
    assert e.value.reason == "contract_already_played"


def test_X_K5_last_contract_is_automatic() -> None:
    g = new()
    contracts = []
    for _ in range(5):
        contracts.append(g.phase)
        deal = g.deal_index
        while g.deal_index == deal:
            assert g.to_act is not None
            g.act(g.to_act, g.auto())
    assert contracts == ["contract"] * 4 + ["play"]


def test_X_K6_owner_receives_the_first_card() -> None:
    g = new()
    while g.to_act is not None:
        for e in g.act(g.to_act, g.auto()):
            if e["type"] == "deal_started":
                assert e["dealer"] == (e["owner"] + 3) % 4 == g.view(None)["dealer"]
                assert e["first"] == e["owner"]


# ---------------------------------------------------------------- trick contracts


def test_X_T1_owner_leads_first_trick() -> None:
    for contract in ("king", "queens", "diamonds", "tricks"):
        g = new(seed=11)
        g.act(g.owner, "contract " + contract)
        close_doubling(g)
        assert g.phase == "play" and g.to_act == g.owner and g.trick == []
        winner = None
        events = []
        while not of(events, "trick_taken"):
            assert g.to_act is not None
            events = g.act(g.to_act, g.auto())
        winner = of(events, "trick_taken")[0]["seat"]
        assert g.to_act == winner or g.deal_index == 1


def test_X_T2_follow_suit_and_highest_of_led_suit_wins() -> None:
    g = new([KING_DEAL])
    g.act(0, "contract queens")
    close_doubling(g)
    g.act(0, "play 2C")
    before = g.to_json()
    with pytest.raises(engine.IllegalAction) as e:
        g.act(1, "play AD")
    assert e.value.reason == "must_follow_suit" and e.value.details["led"] == "C"
    assert g.to_json() == before
    g.act(1, "play AC")
    assert g.legal() == ["play" + " " + c for c in g.hand(2)]
    events = play_cards(g, "KD AS")
    assert of(events, "trick_taken")[0]["seat"] == 1


def test_X_T3_each_contract_scores_only_what_it_names() -> None:
    value = {
        "king": lambda c: 75 if c == "KH" else 0,
        "queens": lambda c: 25 if c[0] == "Q" else 0,
        "diamonds": lambda c: 10 if c[1] == "D" else 0,
    }
    for contract, worth in value.items():
        for events in deals_of(contract, 30):
            expected = [0, 0, 0, 0]
            for t in of(events, "trick_taken"):
                expected[t["seat"]] -= sum(worth(x["card"]) for x in t["cards"])
            assert of(events, "deal_scored")[0]["deltas"]["players"] == expected
    for events in deals_of("tricks", 30):
        expected = [0, 0, 0, 0]
        for t in of(events, "trick_taken"):
            expected[t["seat"]] -= 15
        assert of(events, "deal_scored")[0]["deltas"]["players"] == expected


def test_X_T4_early_end_on_last_penalty_card() -> None:
    penalty = {"king": {"KH"}, "queens": {"QC", "QD", "QH", "QS"}, "diamonds": {r + "D" for r in C.RANKS}}
    for contract, cards in penalty.items():
        for events in deals_of(contract, 40):
            tricks = of(events, "trick_taken")
            seen: set[str] = set()
            end = None
            for i, t in enumerate(tricks):
                seen |= {x["card"] for x in t["cards"]} & cards
                if seen == cards and end is None:
                    end = i + 1
            assert end == len(tricks)
    assert all(len(of(ev, "trick_taken")) == 13 for ev in deals_of("tricks", 20))


def test_X_T5_penalty_totals() -> None:
    for contract, total in TOTALS.items():
        for events in deals_of(contract, 20):
            assert sum(of(events, "deal_scored")[0]["deltas"]["players"]) == total


# ---------------------------------------------------------------- doubling


def test_X_B1_who_may_double() -> None:
    g = new([build_deal({0: ["7H", "QS", "QH"], 2: ["KH", "QC"], 3: ["QD"]}, seed=1)])
    g.act(0, "contract queens")
    assert g.to_act == 0 and g.legal() == ["double QH", "double QS", "done"]
    g.act(0, "double QS")
    assert g.legal() == ["double QH", "done"]
    with pytest.raises(engine.IllegalAction) as e:
        g.act(0, "double QS")
    assert e.value.reason == "cannot_double"
    g.act(0, "done")
    assert g.to_act == 2 and g.legal() == ["double QC", "done"]
    with pytest.raises(engine.IllegalAction) as e:
        g.act(2, "double KH")
    assert e.value.reason == "cannot_double"


def test_X_B2_doubling_closed_before_first_lead() -> None:
    g = new([KING_DEAL])
    g.act(0, "contract king")
    with pytest.raises(engine.IllegalAction) as e:
        g.act(3, "play 3S")
    assert e.value.reason == "wrong_phase"
    g.act(3, "done")
    assert g.phase == "play" and g.to_act == 0
    g.act(0, "play 2C")
    with pytest.raises(engine.IllegalAction):
        g.act(1, "double KH")


def test_X_B3_doubled_cards_revealed_before_play() -> None:
    g = new([KING_DEAL])
    g.act(0, "contract king")
    g.act(3, "double KH")
    assert g.view(None)["doubled"] == [] and g.view(0)["doubled"] == []
    events = g.act(3, "done")
    assert events[0] == {"type": "doubles_revealed", "doubles": [{"card": "KH", "seat": 3}]}
    for seat in (None, 0, 1, 2, 3):
        assert g.view(seat)["doubled"] == [{"card": "KH", "seat": 3}]


def test_X_B4_sequential_private_from_owner_skipping_empty_seats() -> None:
    g = new([build_deal({1: ["7H", "QS"], 3: ["QH", "QC", "QD"]}, seed=2)])
    events = g.act(1, "contract queens")
    assert of(events, "doubling_opened") == [{"type": "doubling_opened", "contract": "queens"}]
    assert g.to_act == 1
    assert g.act(1, "double QS") == []
    assert g.act(1, "done") == []
    assert g.to_act == 3
    assert g.view(None)["to_act"] is None and g.view(1)["to_act"] is None
    assert g.act(3, "done")[0]["type"] == "doubles_revealed"
    assert g.to_act == 1


def test_X_B5_doubled_king_taken_by_other() -> None:
    g = new([rotate(KING_DEAL, 2)])
    g.act(2, "contract king")
    g.act(1, "double KH")
    g.act(1, "done")
    events = play_cards(g, KING_PLAY)
    assert of(events, "deal_scored")[0]["deltas"]["players"] == [0, 75, 0, -150]


def test_X_B5_the_deal_result_names_its_doubles() -> None:
    g = new([rotate(KING_DEAL, 2)])
    g.act(2, "contract king")
    g.act(1, "double KH")
    g.act(1, "done")
    scored = of(play_cards(g, KING_PLAY), "deal_scored")[0]
    assert scored["summary"]["doubles"] == [{"card": "KH", "seat": 1}]
    assert scored["summary"]["taken"]["3"] == ["KH"]


def test_X_B5_doubled_queen_scores() -> None:
    pen = (75, 25, 10, 15)
    qs = C.parse("QS")
    assert trick_points(
        1, 1 << qs, winner=2, leader=1, doubles=((qs, 0),), penalties=pen, self_capture="original_penalty"
    ) == [25, 0, -50, 0]
    assert trick_points(
        1, 1 << qs, winner=0, leader=1, doubles=((qs, 0),), penalties=pen, self_capture="original_penalty"
    ) == [-25, 0, 0, 0]
    assert trick_points(1, 1 << qs, winner=3, leader=1, doubles=(), penalties=pen, self_capture="original_penalty") == [
        0,
        0,
        0,
        -25,
    ]


def test_X_B5_totals_unchanged_by_doubling() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        g = new(seed=seed)
        g.act(g.owner, "contract " + ("king" if seed % 2 else "queens"))
        while g.phase == "double":
            assert g.to_act is not None
            legal = g.legal()
            g.act(g.to_act, legal[0] if rng.random() < 0.7 else "done")
        events = random_deal(g, rng)
        assert sum(of(events, "deal_scored")[0]["deltas"]["players"]) == (-75 if seed % 2 else -100)


# ---------------------------------------------------------------- the layout


def layout(seed: int, **options: Any) -> TrixGame:
    g = new(seed=seed, **options)
    g.act(g.owner, "contract trix")
    return g


def test_X_L1_rows_grow_from_the_jack() -> None:
    rng = random.Random(1)
    g = layout(1)
    while g.contract == 4:
        assert g.to_act is not None
        g.act(g.to_act, rng.choice(g.legal()))
        for s in range(4):
            lo, hi = g.rows[s]
            played = {C.card(r, s) for r in range(2, 15)} - set(
                C.cards_of(g.hands[0] | g.hands[1] | g.hands[2] | g.hands[3])
            )
            assert played == ({C.card(r, s) for r in range(lo, hi + 1)} if lo else set())
            assert lo == 0 or lo <= 11 <= hi


def test_X_L2_legal_layout_cards() -> None:
    g = layout(2)
    assert C.codes_of(g.open_mask) == ["JC", "JD", "JH", "JS"]
    assert g.to_act is not None
    assert set(g.legal()) == {"play " + c for c in g.hand(g.to_act) if c[0] == "J"}


def test_X_L3_owner_first_then_right() -> None:
    g = layout(3, auto_pass_in_layout=False)
    assert g.to_act == g.owner
    seat = g.owner
    g.act(seat, g.auto())
    assert g.to_act == (seat + 1) % 4


def test_X_L4_pass_only_without_legal_card() -> None:
    g = layout(4, auto_pass_in_layout=False)
    rng = random.Random(4)
    while g.contract == 4:
        assert g.to_act is not None
        has_legal = bool(g.hands[g.to_act] & g.open_mask)
        assert (g.legal() == ["pass"]) != has_legal
        if has_legal:
            with pytest.raises(engine.IllegalAction) as e:
                g.act(g.to_act, "pass")
            assert e.value.reason == "must_play_when_able"
        g.act(g.to_act, rng.choice(g.legal()))


@pytest.mark.parametrize("auto", [True, False])
def test_X_L3_X_L4_layout_history_is_the_public_record_of_plays_and_passes(auto: bool) -> None:
    """Every layout card and pass, automatic or not, in order, in every view (and in the JSON)."""
    for seed in range(6):
        rng = random.Random(seed)
        g = new(seed=seed, auto_pass_in_layout=auto)
        events = g.act(g.owner, "contract trix")
        while g.contract == 4 and g.to_act is not None:
            moves = [{"seat": e["seat"], "card": e["card"]} if e["type"] == "card_played" else
                     {"seat": e["seat"], "pass": True} for e in events if e["type"] in ("card_played", "layout_passed")]
            assert g.view(None)["layout_history"] == moves
            assert g.view(g.to_act)["layout_history"] == moves
            assert engine.load(g.to_json()).view(None)["layout_history"] == moves
            assert g.clone().view(None)["layout_history"] == moves
            events += g.act(g.to_act, rng.choice(g.legal()))
        assert g.view(None)["layout_history"] == []  # a new deal starts a new record


def test_X_L5_placings_and_end_at_third_out() -> None:
    for events in deals_of("trix", 20):
        outs = of(events, "player_out")
        assert [(e["place"], e["points"]) for e in outs] == [(1, 200), (2, 150), (3, 100), (4, 50)]
        assert len({e["seat"] for e in outs}) == 4
        assert events.index(outs[3]) == events.index(outs[2]) + 1
        assert events[events.index(outs[3]) + 1]["type"] == "deal_scored"


def test_X_L6_layout_never_locks() -> None:
    for seed in range(40):
        g = layout(seed, auto_pass_in_layout=False)
        rng = random.Random(seed)
        passes_in_row = 0
        while g.contract == 4:
            assert g.to_act is not None
            a = rng.choice(g.legal())
            passes_in_row = passes_in_row + 1 if a == "pass" else 0
            assert passes_in_row < 4
            g.act(g.to_act, a)


def test_X_L7_layout_total_500() -> None:
    assert all(sum(of(ev, "deal_scored")[0]["deltas"]["players"]) == 500 for ev in deals_of("trix", 30))


# ---------------------------------------------------------------- match result


def test_X_M1_scores_add_up_and_may_go_negative() -> None:
    g = new(seed=3)
    total = [0, 0, 0, 0]
    rng = random.Random(3)
    while g.to_act is not None:
        for e in g.act(g.to_act, rng.choice(g.legal())):
            if e["type"] == "deal_scored":
                total = [a + b for a, b in zip(total, e["deltas"]["players"], strict=True)]
                assert e["scores"] == {"players": total} == g.scores()
    assert min(total) < 0


def test_X_M2_highest_total_wins_ties_share() -> None:
    g = new(seed=4)
    while g.to_act is not None:
        g.act(g.to_act, g.auto())
    top = max(g.score_list)
    assert g.winner == [s for s in range(4) if g.score_list[s] == top]


def test_X_M3_match_sums_to_zero() -> None:
    for seed in range(10):
        g = new(seed=seed)
        rng = random.Random(seed)
        while g.to_act is not None:
            g.act(g.to_act, rng.choice(g.legal()))
        assert sum(g.scores()["players"]) == 0


# ---------------------------------------------------------------- automatic moves


def test_X_A1_auto_contract_in_seed_order() -> None:
    g = new()
    for name in CONTRACT_NAMES[:4]:
        assert g.auto() == "contract " + name
        g.act(g.owner, g.auto())
        while g.phase != "contract":
            assert g.to_act is not None
            g.act(g.to_act, g.auto())


def test_X_A2_auto_doubling_is_done() -> None:
    g = new([KING_DEAL])
    g.act(0, "contract king")
    assert g.auto() == "done"
    events = g.act(3, g.auto())
    assert events[0] == {"type": "doubles_revealed", "doubles": []}


def test_X_A3_auto_trick_card_is_weakest() -> None:
    g = new(seed=6)
    g.act(g.owner, "contract tricks")
    while g.contract == 3:
        assert g.to_act is not None
        legal = [C.parse(a.split()[1]) for a in g.legal()]
        assert g.auto() == "play " + C.code(min(legal, key=lambda c: (C.rank_of(c), C.suit_of(c))))
        g.act(g.to_act, g.auto())


def test_X_A4_auto_layout_card() -> None:
    g = layout(7)
    while g.contract == 4:
        assert g.to_act is not None
        legal = [C.parse(a.split()[1]) for a in g.legal()]
        assert g.auto() == "play " + C.code(min(legal, key=lambda c: (C.rank_of(c), C.suit_of(c))))
        g.act(g.to_act, g.auto())


# ---------------------------------------------------------------- refusals and round trip


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (7, "contract king", "bad_seat"),
        (-1, "contract king", "bad_seat"),
        (0, "contract kings", "unknown_action"),
        (0, "contract king queens", "unknown_action"),
        (0, "fold", "unknown_action"),
        (0, "play", "unknown_action"),
        (0, "play 1X", "unknown_action"),
        (0, "", "unknown_action"),
        (1, "contract king", "not_your_turn"),
        (0, "play 2C", "wrong_phase"),
        (0, "done", "wrong_phase"),
        (0, "pass", "wrong_phase"),
        (0, "double KH", "cannot_double"),
    ],
)
def test_refusals_leave_the_game_unchanged(seat: Any, action: str, reason: str) -> None:
    g = new([KING_DEAL])
    before = g.to_json()
    with pytest.raises(engine.IllegalAction) as e:
        g.act(seat, action)
    assert e.value.reason == reason
    assert g.to_json() == before


def test_not_in_hand_and_match_over() -> None:
    g = new([KING_DEAL])
    g.act(0, "contract tricks")
    with pytest.raises(engine.IllegalAction) as e:
        g.act(0, "play AS")
    assert e.value.reason == "not_in_hand"
    assert g.act(0, "PLAY 10c")[0] == {"type": "card_played", "seat": 0, "card": "TC"}
    while g.to_act is not None:
        g.act(g.to_act, g.auto())
    assert g.phase == "over" and g.legal() == []
    for seat in range(4):
        with pytest.raises(engine.IllegalAction) as e:
            g.act(seat, "contract king")
        assert e.value.reason == "match_over"


def test_json_round_trip_continues_identically() -> None:
    g = new(seed=9)
    rng = random.Random(9)
    for _ in range(300):
        assert g.to_act is not None
        g.act(g.to_act, rng.choice(g.legal()))
    h = engine.load(json.loads(json.dumps(g.to_json())))
    assert h.to_json() == g.to_json()
    while g.to_act is not None:
        a = rng.choice(g.legal())
        assert g.act(g.to_act, a) == h.act(g.to_act if h.to_act is None else h.to_act, a)
    assert h.to_json() == g.to_json()


def test_view_contracts_left_excludes_the_contract_in_play() -> None:
    g = new()
    assert len(g.view(None)["contracts_left"]) == 5
    g.act(g.owner, "contract diamonds")
    assert g.view(None)["contracts_left"] == ["king", "queens", "tricks", "trix"]
