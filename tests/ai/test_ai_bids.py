"""Tarneeb bids by simulation (ai.strong.bidsim): its models are the rule player's, and it bids
where the points are (set positions from seeded deals, decided with a fixed number of samples)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import engine
from ai import heuristics as H
from ai.rules import RulePlayer
from ai.strong import StrongPlayer
from ai.strong import bidsim as B
from ai.think import Think


def _unbounded() -> Think:
    """A budget that never ends before ``max_samples``: the same answer on any machine."""
    return Think(1000.0, time.monotonic() + 1000.0)


def _play_out(game: str, seed: int) -> tuple[list[list[H.Card]], str | None, int, int | None, Any]:
    """A seeded deal bid by fixed bids, then played by the rule player: the hands, the trump, the
    first leader, the declarer and the scored event."""
    rule = RulePlayer()
    rng = random.Random(seed)
    g = engine.new_game(game, seed=seed, dealer=0)
    hands = [[H.card_of(c) for c in g.view(s)["hand"]] for s in range(4)]
    while g.phase in ("bid", "trump"):
        seat = g.to_act
        assert seat is not None
        if game == "tarneeb41":
            action = "bid 3"
        elif g.phase == "bid":
            action = "bid 8" if g.view(seat)["high_bid"] is None else "pass"
        else:
            action = rule.decide(g.view(seat), game, rng)
        g.act(seat, action)
    view = g.view(g.to_act)  # type: ignore[arg-type]
    first, declarer, trump = int(g.to_act), view.get("declarer"), view["trump"]  # type: ignore[arg-type]
    while True:
        seat = g.to_act
        assert seat is not None
        for ev in g.act(seat, rule.decide(g.view(seat), game, rng)):
            if ev["type"] == "deal_scored":
                return hands, trump, first, declarer, ev


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41"])
def test_the_fast_rollout_is_the_rule_players_card_play(game: str) -> None:
    """The simulation's card play takes, seat by seat, the tricks the rule player takes in the engine."""
    for seed in range(25):
        hands, trump, first, declarer, ev = _play_out(game, seed)
        tricks = B.rollout(hands, H.suit_index(trump), first, declarer)
        if game == "tarneeb41":
            assert tricks == ev["summary"]["tricks"], seed
        else:
            ours = tricks[declarer] + tricks[(declarer + 2) % 4]  # type: ignore[index,operator]
            team = [ours, 13 - ours] if declarer % 2 == 0 else [13 - ours, ours]  # type: ignore[operator]
            assert team == ev["summary"]["tricks"], seed


def test_the_bid_models_are_the_rule_players_bids() -> None:
    """The others' bids in the simulation are the rule player's, on real views of both games."""
    rule = RulePlayer()
    checked = {"tarneeb": 0, "tarneeb41": 0}
    for seed in range(40):
        for game in checked:
            g = engine.new_game(game, seed=seed, dealer=seed % 4)
            rng = random.Random(seed)
            while g.phase == "bid":
                seat = g.to_act
                assert seat is not None
                view = g.view(seat)
                action = rule.decide(view, game, rng)
                hand = [H.card_of(c) for c in view["hand"]]
                if game == "tarneeb41":
                    lowest = min(int(a[4:]) for a in view["legal"])
                    model = B.rule_bid_41(H.estimate_tricks(hand, H.suit_index(view["trump"])), lowest)
                    assert action == f"bid {model}"
                else:
                    hb = view["high_bid"]
                    high = (int(hb["seat"]), int(hb["bid"])) if hb else None
                    bid = B.rule_bid_classic(H.best_trump(hand)[1], seat, high, "pass" in view["legal"])
                    assert action == ("pass" if bid is None else f"bid {bid}")
                checked[game] += 1
                if any(e["type"] == "deal_thrown_in" for e in g.act(seat, action)):
                    break
    assert min(checked.values()) > 100


def _dealer_41(seed: int) -> dict[str, Any]:
    """The dealer's bid in a seeded Tarneeb 41 deal, the three others having bid as the rule player."""
    rule = RulePlayer()
    g = engine.new_game("tarneeb41", seed=seed, dealer=0)
    for _ in range(3):
        seat = g.to_act
        assert seat is not None
        g.act(seat, rule.decide(g.view(seat), "tarneeb41", random.Random(0)))
    return g.view(0)


def _total_with(view: dict[str, Any], action: str) -> int:
    return sum(b for b in view["bids"] if b is not None) + int(action[4:])


def test_41_dealer_throws_in_a_deal_the_opponents_bid_strongly_for() -> None:
    """Seed 108: the opponents bid 2 and 4, the partner 2. The rule player bids its 4 tricks and the
    deal is played; the simulation bids 2 and throws the deal in (a total below 11)."""
    view = _dealer_41(108)
    assert view["bids"] == [None, 2, 2, 4]
    rule = RulePlayer().decide(view, "tarneeb41", random.Random(0))
    sim = B.bid41(view, random.Random(1), _unbounded(), max_samples=300)
    assert _total_with(view, rule) >= 11
    assert sim == "bid 2" and _total_with(view, sim) < 11


def test_41_dealer_with_a_strong_hand_bids_the_deal_into_play() -> None:
    """Seed 64: everyone else bid 2. The rule player's 4 would throw the deal in (a total of 10);
    the simulation bids 5 and the deal is played."""
    view = _dealer_41(64)
    assert view["bids"] == [None, 2, 2, 2]
    rule = RulePlayer().decide(view, "tarneeb41", random.Random(0))
    sim = B.bid41(view, random.Random(1), _unbounded(), max_samples=300)
    assert _total_with(view, rule) < 11
    assert sim is not None and _total_with(view, sim) >= 11


def test_41_a_hopeless_first_hand_bids_the_minimum_and_a_strong_one_its_tricks() -> None:
    legal = [f"bid {n}" for n in range(2, 14)]
    base: dict[str, Any] = {"game": "tarneeb41", "phase": "bid", "seat": 1, "dealer": 0, "trump": "S",
                            "exposed": "5C", "bids": [None] * 4, "legal": legal,
                            "options": {"min_total": 11}, "scores": {"players": [0, 0, 0, 0]}}
    weak = {**base, "hand": ["2S", "3H", "4H", "5H", "6H", "2D", "3D", "7D", "8D", "2C", "4C", "6C", "9C"]}
    strong = {**base, "hand": ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "AH", "KH", "AD", "KD", "AC", "2C"]}
    assert B.bid41(weak, random.Random(1), _unbounded(), max_samples=200) == "bid 2"
    high = B.bid41(strong, random.Random(1), _unbounded(), max_samples=200)
    assert high is not None and int(high[4:]) >= 9


def _classic_auction(seed: int, upto: int) -> dict[str, Any]:
    """The view of the ``upto``-th action of a seeded classic auction, bid so far by the rule player."""
    rule = RulePlayer()
    g = engine.new_game("tarneeb", seed=seed, dealer=0)
    for _ in range(upto):
        seat = g.to_act
        assert seat is not None
        g.act(seat, rule.decide(g.view(seat), "tarneeb", random.Random(0)))
    return g.view(g.to_act)  # type: ignore[arg-type]


def test_classic_dealer_opens_a_hand_the_rule_player_would_throw_in() -> None:
    """Seed 38: three passes, and the dealer holds A K of diamonds, A Q of clubs, Q J … The rule
    player passes (the deal is dealt again); the simulation bids 7."""
    view = _classic_auction(38, 3)
    assert view["seat"] == 0 and view["high_bid"] is None
    assert RulePlayer().decide(view, "tarneeb", random.Random(0)) == "pass"
    assert B.bid_classic(view, random.Random(1), _unbounded(), max_samples=300) == "bid 7"


def test_classic_eight_spades_overbid_the_partners_seven_to_name_them() -> None:
    """Seed 28: the partner opened 7, the opponent between passed; with eight spades to the king the
    rule player passes, the simulation bids 8 to declare in spades."""
    view = _classic_auction(28, 2)
    assert view["seat"] == 3 and view["high_bid"] == {"seat": 1, "bid": 7}
    assert sum(1 for c in view["hand"] if c.endswith("S")) == 8
    assert RulePlayer().decide(view, "tarneeb", random.Random(0)) == "pass"
    assert B.bid_classic(view, random.Random(1), _unbounded(), max_samples=300) == "bid 8"


def test_classic_a_hopeless_hand_passes_and_the_trump_is_the_long_suit() -> None:
    hopeless = ["2S", "3S", "4H", "5H", "6H", "2D", "3D", "7D", "8D", "2C", "4C", "6C", "9C"]
    weak = _classic_auction(0, 0) | {"hand": hopeless}
    assert B.bid_classic(weak, random.Random(1), _unbounded(), max_samples=100) == "pass"
    strong = ["AS", "KS", "QS", "JS", "TS", "9S", "AH", "KH", "AD", "KD", "AC", "2C", "3C"]
    view = {**weak, "hand": strong, "phase": "trump", "legal": ["trump S", "trump H", "trump D", "trump C"],
            "contract": 10, "declarer": weak["seat"]}
    assert B.trump(view, random.Random(1), _unbounded(), max_samples=100) == "trump S"


def test_choose_keeps_the_rule_players_bid_unless_another_is_clearly_better() -> None:
    """A candidate better on average by less than its standard error does not replace the rule
    player's choice; one better on every sample does."""
    noisy = {2: [0.0] * 40, 3: [5.0, -4.0] * 20}   # +0.5 a sample on average, sd 4.5
    sure = {2: [0.0] * 40, 3: [1.0] * 40}
    assert B.choose(noisy, 2) == 2
    assert B.choose(sure, 2) == 3


def test_the_strong_level_bids_by_simulation_and_normal_by_the_rule_player() -> None:
    """The strong level's bids in both Tarneeb games are simulated (where they measured a gain);
    normal's are the rule player's, so the levels stay apart."""
    assert StrongPlayer("strong").bid_games == {"tarneeb", "tarneeb41"}
    assert not StrongPlayer("normal").bid_games


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41"])
def test_strong_bids_are_legal_and_simulated_on_real_auctions(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole auctions (and the trump choice) by the strong level: every answer legal, and the
    simulation answers nearly all of them (the rule player only where too few sampled deals fit
    the bids so far within the budget, here a tiny one)."""
    chosen: list[Any] = []
    real = B.choose

    def counting(values: Any, rule: Any, z: float | None = None) -> Any:
        chosen.append(rule)
        return real(values, rule, z)

    monkeypatch.setattr(B, "choose", counting)
    p = StrongPlayer("strong")
    p.tarneeb.bid_seconds = p.tarneeb.classic_bid_seconds = 0.01  # a few samples: the same logic, fast
    asked = 0
    for seed in range(3):
        g = engine.new_game(game, seed=seed)
        rng = random.Random(seed)
        while g.phase in ("bid", "trump"):
            seat = g.to_act
            assert seat is not None
            action = p.decide(g.view(seat), game, rng)
            assert action in g.legal()
            asked += len(g.legal()) > 1
            if any(e["type"] == "deal_thrown_in" for e in g.act(seat, action)):
                break
    assert asked >= 10 and len(chosen) >= 0.8 * asked
