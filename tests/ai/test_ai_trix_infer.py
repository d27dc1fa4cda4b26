"""Reading the other Trix seats' hands: the mixture model of how model-like a seat plays is sharp
on a seat that plays like the model, loose on one that does not, and puts more of the others'
cards in the right seats than the flat model and than uniform deals."""

from __future__ import annotations

import random

import engine
from ai.rules import RulePlayer
from ai.strong import trix_infer as I
from ai.strong.knowledge import Knowledge, from_view, sample_deal
from engine import cards as C


def test_one_more_miss_costs_much_on_a_seat_that_agreed_and_little_on_one_that_often_missed() -> None:
    """How model-like a seat is, is read from its own choices: after ten choices the model made, a
    hand that would have made one of them otherwise is far less likely; once the seat has shown it
    often plays otherwise, one more disagreement costs little (the loose components explain it)."""
    sharp = I.likelihood(I.MODEL, [3] * 9, [3]) / I.likelihood(I.MODEL, [3] * 10, [])
    loose = I.likelihood(I.MODEL, [3] * 5, [3] * 5) / I.likelihood(I.MODEL, [3] * 6, [3] * 4)
    assert sharp < 0.03
    assert loose > 0.15
    # the flat model of before: every miss costs the same factor
    assert I.likelihood(I.MISS, [3] * 9, [3]) == I.MISS and I.likelihood(I.MISS, [3] * 5, [3] * 5) == I.MISS ** 5


def test_a_disagreeing_move_among_more_options_weighs_less() -> None:
    """A player who plays at random picks any one of ``n`` options with chance ``1 / n``: missing
    the model's move among five cards is less likely than among two."""
    assert I.likelihood(I.MODEL, [], [5]) < I.likelihood(I.MODEL, [], [2])
    assert I.likelihood(I.MODEL, [5], []) < I.likelihood(I.MODEL, [2], []) < 1.0


def _rule_view(contract: str, seed: int, played: int, noise: float = 0.0) -> tuple[dict, list[int]] | None:
    """The view of the seat to act (with a choice) once ``played`` cards are down, rule players
    everywhere (playing a share ``noise`` of their cards at random) and the contract imposed, and
    the true hands."""
    rule, rng = RulePlayer(), random.Random(seed)
    g = engine.new_game("trix", seed=seed)
    g.act(g.to_act, f"contract {contract}")
    while g.to_act is not None:
        seat = g.to_act
        view = g.view(seat)
        if view["phase"] == "play" and 52 - sum(view["hand_sizes"]) >= played and len(view["legal"]) > 1:
            return view, [C.mask_of(g.view(s)["hand"]) for s in range(4)]
        action = rule.decide(view, "trix", rng)
        if view["phase"] == "play" and rng.random() < noise:
            action = rng.choice(view["legal"])
        g.act(seat, action)
        if g.view(None)["phase"] not in ("play", "double"):
            return None
    return None


def _overlap(k: Knowledge, truth: list[int], deals: list[list[int]]) -> float:
    """The share of the hidden cards the deals put in their true seats."""
    hidden = sum((truth[s] & ~k.known[s]).bit_count() for s in range(4) if s != k.seat)
    right = sum((h[s] & truth[s] & ~k.known[s]).bit_count() for h in deals for s in range(4) if s != k.seat)
    return right / hidden / len(deals)


def test_the_mixture_puts_more_of_the_others_cards_in_their_seats_than_the_flat_model_and_uniform() -> None:
    """Rule players (the model) at the other seats, Queens, 32 cards down: deals drawn by the
    chain under :data:`MODEL` hold more of the true cards than under the flat ``miss`` of before,
    which holds more than uniform consistent deals (bench/trix_infer.py measures it on more deals)."""
    got = {"model": 0.0, "flat": 0.0, "uniform": 0.0}
    n = 0
    for seed in range(6):
        found = _rule_view("queens", seed, 32)
        if found is None:
            continue
        view, truth = found
        k = from_view(view)
        story = I.story_of(view)
        story.owner = None  # the contract was imposed, not chosen
        for name, miss in (("model", I.MODEL), ("flat", I.MISS)):
            stats: dict[str, int] = {}
            chain = I.posterior(k, story, random.Random(seed), going=lambda: True, min_steps=800, max_steps=800,
                                miss=miss, stats=stats)
            assert stats["steps"] == 800 and 0 < stats["accepted"] <= stats["proposed"] <= 800
            got[name] += _overlap(k, truth, chain)
        rng = random.Random(seed)
        got["uniform"] += _overlap(k, truth, [sample_deal(k, rng) for _ in range(200)])
        n += 1
    assert n >= 4
    assert got["model"] > got["flat"] + 0.03 * n
    assert got["flat"] > got["uniform"] + 0.05 * n


def test_players_who_are_not_the_model_blur_the_reading_without_breaking_it() -> None:
    """Players who play 40% of their cards at random (the model is wrong about them): the deals
    drawn under :data:`MODEL` still hold more of the true cards than uniform consistent deals."""
    model = uniform = 0.0
    n = 0
    for seed in range(6):
        found = _rule_view("queens", seed, 28, noise=0.4)
        if found is None:
            continue
        view, truth = found
        k = from_view(view)
        story = I.story_of(view)
        story.owner = None
        chain = I.posterior(k, story, random.Random(seed), going=lambda: True, min_steps=800, max_steps=800)
        model += _overlap(k, truth, chain)
        rng = random.Random(seed)
        uniform += _overlap(k, truth, [sample_deal(k, rng) for _ in range(200)])
        n += 1
    assert n >= 4
    assert model > uniform + 0.03 * n
