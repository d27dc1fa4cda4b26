"""Trix: every variant option of rules.md §3.4, switched on through ``options=``."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.base import Event
from engine.trix.game import TrixGame
from tests.engine.trix_scenario import build_deal, close_doubling, play_cards

SELF_DEAL = [
    ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "7H"],
    ["AC", "KH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"],
    ["KD", "AD", "2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH", "AH"],
    ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
]


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def new(deals: list[list[list[str]]] | None = None, seed: int = 5, **options: Any) -> TrixGame:
    g = engine.new_game("trix", seed=seed, deals=deals, options=options)
    assert isinstance(g, TrixGame)
    return g


def run(g: TrixGame, rng: random.Random | None = None) -> list[Event]:
    events: list[Event] = []
    while g.to_act is not None:
        events += g.act(g.to_act, rng.choice(g.legal()) if rng else g.auto())
    return events


def one_deal(g: TrixGame, rng: random.Random) -> list[Event]:
    deal = g.deal_index
    events = close_doubling(g)
    while g.to_act is not None and g.deal_index == deal:
        events += g.act(g.to_act, rng.choice(g.legal()))
    return events


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"mode": "simple"},
        {"doubling": "maybe"},
        {"early_end": 1},
        {"penalties": [75, 25, 10]},
        {"penalties": [75, 25, -10, 15]},
        {"penalties": [75, 25, 10, 2000]},
        {"trix_scores": [200, 150, 100, "50"]},
        {"trix_scores": [200, 150, 100, -50]},
        {"partnership_expose_twos": True},
        {"kingdom_direction": "left"},
        {"first_owner_rule": "dealer"},
        {"self_capture": "nobody"},
        {"only_contract": "complex"},
        {"mode": "complex", "only_contract": "queens"},
        {"only_contract": "hearts"},
    ],
)
def test_unknown_or_out_of_range_options_refused(options: dict[str, Any]) -> None:
    with pytest.raises(engine.InvalidOptions):
        engine.new_game("trix", seed=1, options=options)


def test_equal_options_share_their_rules_and_bad_ones_are_refused_every_time() -> None:
    a = engine.new_game("trix", seed=1, options={"penalties": [80, 20, 10, 15]})
    b = engine.load(engine.new_game("trix", seed=2, options={"penalties": [80, 20, 10, 15]}).to_json())
    assert isinstance(a, TrixGame) and isinstance(b, TrixGame)
    assert a.rules is b.rules and a.rules.penalties == (80, 20, 10, 15)
    on = engine.new_game("trix", seed=1, options={"doubling": True})
    assert isinstance(on, TrixGame) and on.rules is not new().rules and on.rules.doubling
    for _ in range(2):
        with pytest.raises(engine.InvalidOptions):
            engine.new_game("trix", seed=1, options={"penalties": [75, 25, 10, 2000]})


def test_defaults_resolved_in_options_and_view() -> None:
    g = new()
    assert g.options["mode"] == "kingdoms" and g.options["penalties"] == [75, 25, 10, 15]
    assert g.view(None)["options"] == g.options


def test_mode_complex_eight_deals_merged_contract() -> None:
    for seed in range(6):
        g = new(seed=seed, mode="complex")
        assert g.legal() == ["contract complex", "contract trix"]
        with pytest.raises(engine.IllegalAction) as e:
            g.act(g.owner, "contract king")
        assert e.value.reason == "unknown_action"
        rng = random.Random(seed)
        events = run(g, rng)
        scored = of(events, "deal_scored")
        assert len(scored) == 8 and g.deal_no == 8
        for k in range(4):
            assert sum(sum(e["deltas"]["players"]) for e in scored[2 * k : 2 * k + 2]) == 0
        assert sum(g.scores()["players"]) == 0
        assert {e["summary"]["contract"] for e in scored} == {"complex", "trix"}


def test_mode_complex_merged_contract_scores_every_penalty() -> None:
    g = new(seed=2, mode="complex")
    g.act(g.owner, "contract complex")
    assert g.phase == "double"
    events = one_deal(g, random.Random(2))
    tricks = of(events, "trick_taken")
    assert len(tricks) == 13
    expected = [0, 0, 0, 0]
    for t in tricks:
        cards = [x["card"] for x in t["cards"]]
        expected[t["seat"]] -= 15 + 10 * sum(c[1] == "D" for c in cards) + 25 * sum(c[0] == "Q" for c in cards)
        expected[t["seat"]] -= 75 * ("KH" in cards)
    assert of(events, "deal_scored")[0]["deltas"]["players"] == expected
    assert sum(expected) == -500


def test_first_owner_rule_fixed_seat_and_random() -> None:
    assert new(first_owner_rule="fixed_seat").owner == 0
    owners = {new(seed=s, first_owner_rule="random").owner for s in range(30)}
    assert owners == {0, 1, 2, 3}
    assert new(seed=3, first_owner_rule="random").owner == new(seed=3, first_owner_rule="random").owner


def test_first_deal_is_played_false_uses_a_separate_ownership_deal() -> None:
    first = build_deal({3: ["7H"]}, seed=1)
    second = build_deal({0: ["7H"]}, seed=2)
    g = new([first, second], first_deal_is_played=False)
    assert g.owner == 3 and g.to_act == 3 and g.deal_no == 2
    assert sorted(g.hand(0)) == sorted(second[0])


def test_owner_sees_cards_before_choice_false_hides_the_hand() -> None:
    g = new(owner_sees_cards_before_choice=False)
    assert g.view(g.owner)["hand"] == []
    g.act(g.owner, "contract tricks")
    assert len(g.view(g.owner)["hand"]) == 13


@pytest.mark.parametrize("value", ["off", False])
def test_doubling_off(value: Any) -> None:
    g = new(doubling=value)
    events = g.act(g.owner, "contract king")
    assert g.phase == "play" and not of(events, "doubling_opened")


def test_doubling_procedure_sequential_public() -> None:
    g = new([SELF_DEAL], doubling_procedure="sequential_public")
    g.act(0, "contract king")
    assert g.act(1, "double KH") == [{"type": "card_doubled", "seat": 1, "card": "KH"}]
    assert g.view(None)["doubled"] == [{"card": "KH", "seat": 1}]


@pytest.mark.parametrize(
    ("self_capture", "deltas"),
    [("original_penalty", [0, -75, 0, 0]), ("leader_gains", [75, -150, 0, 0]), ("double_no_bonus", [0, -150, 0, 0])],
)
def test_self_capture(self_capture: str, deltas: list[int]) -> None:
    g = new([SELF_DEAL], self_capture=self_capture)
    g.act(0, "contract king")
    g.act(1, "double KH")
    g.act(1, "done")
    events = play_cards(g, "7H KH 2H 2S")
    assert of(events, "deal_scored")[0]["deltas"]["players"] == deltas


def test_no_heart_lead_in_king() -> None:
    g = new([SELF_DEAL], no_heart_lead_in_king=True)
    g.act(0, "contract king")
    close_doubling(g)
    assert "play 7H" not in g.legal()
    with pytest.raises(engine.IllegalAction) as e:
        g.act(0, "play 7H")
    assert e.value.reason == "no_heart_lead"
    g2 = new([SELF_DEAL], no_heart_lead_in_king=True)
    g2.act(0, "contract queens")
    close_doubling(g2)
    assert "play 7H" in g2.legal()


VOID_DEAL = build_deal(
    {0: ["7H", "2S", "AH"], 1: ["KH", "2H", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "AD", "KD", "QD", "JD"]},
    seed=3,
)


@pytest.mark.parametrize("on", [True, False])
def test_king_must_be_discarded_when_void(on: bool) -> None:
    g = new([VOID_DEAL], king_must_be_discarded_when_void=on)
    g.act(0, "contract king")
    close_doubling(g)
    g.act(0, "play 2S")
    if on:
        assert g.legal() == ["play KH"]
        with pytest.raises(engine.IllegalAction) as e:
            g.act(1, "play AC")
        assert e.value.reason == "must_play_king"
    else:
        assert len(g.legal()) == 13


@pytest.mark.parametrize("on", [True, False])
def test_king_on_ace_of_hearts(on: bool) -> None:
    g = new([VOID_DEAL], king_on_ace_of_hearts=on)
    g.act(0, "contract king")
    close_doubling(g)
    g.act(0, "play AH")
    if on:
        assert g.legal() == ["play KH"]
        with pytest.raises(engine.IllegalAction) as e:
            g.act(1, "play 2H")
        assert e.value.reason == "must_play_king"
    else:
        assert g.legal() == ["play 2H", "play KH"]


def test_early_end_off_plays_thirteen_tricks_same_scores() -> None:
    for seed in range(10):
        on = new(seed=seed)
        off = new(seed=seed, early_end=False)
        for g in (on, off):
            g.act(g.owner, "contract queens")
        e_on = one_deal(on, random.Random(0))
        e_off = one_deal(off, random.Random(0))
        assert len(of(e_off, "trick_taken")) == 13
        assert len(of(e_on, "trick_taken")) <= 13
        assert sum(of(e_off, "deal_scored")[0]["deltas"]["players"]) == -100


def test_penalties_and_trix_scores() -> None:
    totals = {"king": -100, "queens": -120, "diamonds": -65, "tricks": -260, "trix": 100}
    for name, total in totals.items():
        g = new(seed=1, penalties=[100, 30, 5, 20], trix_scores=[40, 30, 20, 10])
        g.act(g.owner, "contract " + name)
        events = one_deal(g, random.Random(1))
        assert sum(of(events, "deal_scored")[0]["deltas"]["players"]) == total


def test_swap_diamond_latoosh_values() -> None:
    for name, total in (("diamonds", -195), ("tricks", -130)):
        g = new(seed=1, swap_diamond_latoosh_values=True)
        g.act(g.owner, "contract " + name)
        events = one_deal(g, random.Random(1))
        assert sum(of(events, "deal_scored")[0]["deltas"]["players"]) == total


def test_auto_pass_in_layout_false_random_play() -> None:
    for seed in range(5):
        g = new(seed=seed, auto_pass_in_layout=False)
        events = run(g, random.Random(seed))
        assert not any(e["automatic"] for e in of(events, "layout_passed"))
        assert sum(g.scores()["players"]) == 0


def test_partnership_scores_teams_and_winner() -> None:
    g = new(seed=2, partnership=True)
    assert g.scores() == {"players": [0, 0, 0, 0], "teams": [0, 0]}
    events = run(g, random.Random(2))
    sc = g.scores()
    assert sc["teams"] == [sc["players"][0] + sc["players"][2], sc["players"][1] + sc["players"][3]]
    a, b = sc["teams"]
    assert g.winner == ([0, 1, 2, 3] if a == b else [0, 2] if a > b else [1, 3])
    assert "teams" in of(events, "deal_scored")[0]["deltas"]


def test_partnership_expose_twos() -> None:
    g = new(seed=2, partnership=True, partnership_expose_twos=True)
    assert g.view(None)["exposed_twos"] == {}
    g.act(g.owner, "contract tricks")
    g.act(g.owner, g.auto())
    twos = g.view(None)["exposed_twos"]
    for seat in range(4):
        assert twos[str(seat)] == [c for c in g.hand(seat) if c[0] == "2"]


@pytest.mark.parametrize("contract", ["king", "queens", "diamonds", "tricks", "trix"])
def test_only_contract_deals_four_deals_of_one_contract_chosen_automatically(contract: str) -> None:
    g = new(seed=11, only_contract=contract)
    first = g.owner
    events: list[Event] = []
    while g.to_act is not None:
        events += g.act(g.to_act, g.auto())
    chosen = of(events, "contract_chosen")
    scored = len(of(events, "deal_scored"))
    owners = [int(e["seat"]) for e in chosen]
    # the first deal's contract was set before any action (no event); the three after, each automatic
    assert scored == 4 and all(e["contract"] == contract and e["automatic"] for e in chosen)
    assert owners == [(first + i) % 4 for i in range(1, 4)]  # each owner plays it once
    assert sum(g.scores()["players"]) == sum(
        int(e["deltas"]["players"][0]) + int(e["deltas"]["players"][1]) + int(e["deltas"]["players"][2])
        + int(e["deltas"]["players"][3]) for e in of(events, "deal_scored"))


def test_only_contract_sets_the_first_deal_with_no_choice_for_the_owner_of_the_seven_of_hearts() -> None:
    g = new(seed=11, only_contract="diamonds")
    assert g.phase == "play" and g.contract == 2 and "7H" in g.hand(g.owner) and g.to_act == g.owner
    assert not any(a.startswith("contract") for a in g.legal())
