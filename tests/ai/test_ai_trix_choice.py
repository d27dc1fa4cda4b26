"""The Trix owner's contract choice counts what the contracts left are worth (ai/strong/trix_choice.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ai.heuristics_trix import baseline
from ai.strong import trix_choice as T
from ai.strong import trix_sim as S

SCORES = (200, 150, 100, 50)


def _table(w: dict[str, float]) -> dict[str, object]:
    return {"values": list(S.DEFAULT_SCORING.values), "trix_scores": list(SCORES),
            "self_capture": S.DEFAULT_SCORING.self_capture, "W": w}


def test_a_set_of_one_contract_is_worth_its_mean_and_a_choice_picks_by_one_half_counts_the_other() -> None:
    choose = [{"king": 10.0, "trix": 0.0}, {"king": 0.0, "trix": 100.0}]
    value = [{"king": -20.0, "trix": 30.0}, {"king": -40.0, "trix": 70.0}]
    w = T.build_table([{**c, **dict.fromkeys(("queens", "diamonds", "tricks"), 0.0)} for c in choose],
                      [{**v, **dict.fromkeys(("queens", "diamonds", "tricks"), 0.0)} for v in value])
    assert w["king"] == pytest.approx(-30.0)
    assert w["trix"] == pytest.approx(50.0)
    # two hands to come for {king, trix}: hand 1 picks king (10 + W(trix) 50 = 60 against
    # 0 + W(king) -30), counted -20 + 50; hand 2 picks trix (100 - 30 = 70 against 0 + 50), counted 70 - 30
    assert w["king,trix"] == pytest.approx(((-20.0 + 50.0) + (70.0 - 30.0)) / 2)


def test_with_two_contracts_left_the_choice_is_the_old_rule_of_value_minus_mean() -> None:
    rng = random.Random(5)
    for _ in range(200):
        w = {"": 0.0, "king": rng.uniform(-40, 0), "trix": rng.uniform(50, 150)}
        means = {"king": rng.uniform(-75, 0), "trix": rng.uniform(0, 200)}
        old = max(means, key=lambda c: means[c] - w[c])
        assert T.pick(means, S.DEFAULT_SCORING, SCORES, _table(w)) == old


def test_a_contract_worth_much_more_to_a_good_hand_is_kept_for_one() -> None:
    # the layout's worth with two hands to come is far above its mean on one random hand: with
    # three contracts left and this hand middling in each, the layout is kept for later
    w = {"": 0.0, "king": -18.0, "queens": -25.0, "trix": 125.0, "king,queens": -40.0,
         "king,trix": 115.0, "queens,trix": 125.0}
    means = {"king": -25.0, "queens": -30.0, "trix": 130.0}
    old = max(means, key=lambda c: means[c] - {"king": -18.0, "queens": -25.0, "trix": 125.0}[c])
    assert old == "trix"
    assert T.pick(means, S.DEFAULT_SCORING, SCORES, _table(w)) == "king"  # -25 + 125 beats 130 - 40 and -30 + 115


def test_under_other_scoring_or_other_contracts_the_table_does_not_apply() -> None:
    table = T.shipped()
    assert table is not None, "the shipped table trix_choice.json loads"
    means = {"king": -10.0, "trix": 120.0}
    assert T.pick(means, S.DEFAULT_SCORING, SCORES) in means
    assert T.pick(means, replace(S.DEFAULT_SCORING, values=(75, 25, 15, 10)), SCORES) is None
    assert T.pick(means, replace(S.DEFAULT_SCORING, self_capture="leader_gains"), SCORES) is None
    assert T.pick(means, S.DEFAULT_SCORING, (250, 150, 100, 0)) is None
    assert T.pick({"king": -10.0, "complex": -50.0}, S.DEFAULT_SCORING, SCORES) is None


def test_the_shipped_table_covers_every_set_and_choosing_beats_a_random_order() -> None:
    table = T.shipped()
    assert table is not None
    w = table["W"]
    assert len(w) == 32
    singles = {c: w[c] for c in T.CONTRACTS}
    for c in T.CONTRACTS:  # one contract on one random hand: about its mean
        assert abs(singles[c] - baseline(c, S.DEFAULT_SCORING.values, SCORES)) < 6.0
    # the whole kingdom chosen hand by hand is worth more than the contracts in any fixed order
    assert w[T.key(T.CONTRACTS)] > sum(singles.values()) + 10.0


def test_the_table_is_reproducible_from_its_seed() -> None:
    rng_a, rng_b = random.Random(3), random.Random(3)
    hand = sum(1 << c for c in range(0, 52, 4))
    assert T.hand_values(hand, 0, rng_a, 4) == T.hand_values(hand, 0, rng_b, 4)


def test_the_brain_chooses_by_the_table_only_when_asked() -> None:
    from ai.strong.trix import TrixBrain

    assert TrixBrain().choice_table is False  # measured no better than the old rule: off by default
    assert TrixBrain(choice_table=True).choice_table is True
