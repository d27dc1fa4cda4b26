"""The strong Trix search's shortcuts find what the plain search finds: cut exact searches, the
layout policy on bits, remembered inference weights, the chain's burn-in left out."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from ai import heuristics_trix as X
from ai.rules import RulePlayer
from ai.strong import trix_exact as E
from ai.strong import trix_infer as I
from ai.strong import trix_sim as S
from ai.strong.knowledge import from_view
from ai.strong.trix import TrixBrain
from ai.strong.trix_exact import best_layout as _best_layout
from engine import cards as C


def _hands(rng: random.Random, n: int) -> list[int]:
    deck = rng.sample(range(52), 4 * n)
    return [sum(1 << c for c in deck[i * n:(i + 1) * n]) for i in range(4)]


def test_exact_trick_search_bounded_and_remembered_finds_the_full_searchs_value() -> None:
    """The branch and bound (a line given up once it has lost what the best line found loses, a
    choice reaching the most a seat can still score ends the others, positions looked up) gives
    the value of the search of every line: with live doubles of any seat and under ``leader_gains``
    too, and in Latoosh."""
    rng = random.Random(5)
    at_ceiling = 0
    for i in range(160):
        contract = ("king", "queens", "diamonds", "tricks")[i % 4]
        hands = _hands(rng, rng.choice((3, 4, 5)))
        me = rng.randrange(4)
        doubled: dict[int, int] = {}
        if contract in ("king", "queens") and i % 2:  # a double by a random seat on a live penalty card
            live = (hands[0] | hands[1] | hands[2] | hands[3]) & S.PENALTY[contract]
            if live:
                doubled[rng.choice(C.cards_of(live))] = rng.randrange(4)
        for sc in (S.DEFAULT_SCORING, S.Scoring(self_capture="leader_gains")):
            full = E.best_reply(contract, hands, [], me, doubled, sc, me, cut=False)
            assert E.best_reply(contract, hands, [], me, doubled, sc, me) == full
            ceiling = E.ceiling(contract, hands, [], doubled, sc)
            assert full <= ceiling
            at_ceiling += full == ceiling
    assert at_ceiling > 50


def test_exact_trick_search_from_mid_trick_and_deep_hands_finds_the_full_searchs_value() -> None:
    """Started inside a trick (the others to play before and after me) and with six cards a hand,
    where the bounds and the table of positions cut the most."""
    rng = random.Random(11)
    for i in range(24):
        contract = ("tricks", "king", "queens", "diamonds")[i % 4]
        hands = _hands(rng, 6)
        me = rng.randrange(4)
        leader = (me - rng.randrange(4)) % 4
        trick: list[tuple[int, int]] = []
        seat = leader
        while seat != me:  # the others before me in this trick play their policy
            c = S.choose_trick_card(contract, hands[seat], trick, I.QUIET_RNG, eps=0.0)
            hands[seat] &= ~(1 << c)
            trick.append((seat, c))
            seat = (seat + 1) % 4
        full = E.best_reply(contract, hands, trick, me, {}, S.DEFAULT_SCORING, me, cut=False)
        assert E.best_reply(contract, hands, trick, me, {}, S.DEFAULT_SCORING, me) == full


def test_exact_layout_search_cut_at_the_best_place_or_on_a_budget_finds_the_uncut_value() -> None:
    """The layout search stops trying my cards once one goes out at the best place still open; with
    a budget of moves it gives the same value, or gives up (TooDeep) when the budget runs out."""
    rule, rng = RulePlayer(), random.Random(7)
    scores = (200, 150, 100, 50)
    checked = 0
    for seed in range(40):
        g = engine.new_game("trix", seed=seed)
        g.act(g.to_act, "contract trix")
        while g.to_act is not None and g.phase == "play" and (
                g.view(g.to_act)["hand_sizes"][g.to_act] > 5 or len(g.legal()) < 2):
            g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
        if g.to_act is None or g.phase != "play" or g.view(None)["contract"] != "trix":
            continue
        me = g.to_act
        view = g.view(me)
        hands = [C.mask_of(g.view(s)["hand"]) for s in range(4)]
        rows = list(S.EMPTY_ROWS)
        for suit, ends in (view.get("layout") or {}).items():
            if ends:
                rows[C.parse_suit(suit)] = tuple(C.RANKS.index(str(x)) + 2 for x in ends)  # type: ignore[assignment]
        finished = [int(s) for s in view["finished"]]
        full = _best_layout(hands, rows, me, finished, scores, me, cut=False)
        assert _best_layout(hands, rows, me, finished, scores, me) == full
        budget = E.Budget(10**6)  # a budget that lasts changes nothing; one that does not gives up
        assert _best_layout(hands, rows, me, finished, scores, me, budget=budget) == full
        with pytest.raises(E.TooDeep):
            _best_layout(hands, rows, me, finished, scores, me, budget=E.Budget(2))
        checked += 1
    assert checked >= 10


def test_layout_policy_on_bits_scores_cards_as_the_rule_player() -> None:
    """The rollouts' layout score (on card sets) is the rule player's ``layout_score`` for every
    legal card of random layouts."""
    rng = random.Random(9)
    compared = 0
    for _ in range(200):
        hands = _hands(rng, 13)
        rows = list(S.EMPTY_ROWS)
        seat = 0
        for _ in range(rng.randrange(0, 40)):
            legal = S.layout_legal(hands[seat], rows)
            if legal:
                c = rng.choice(C.cards_of(legal))
                hands[seat] &= ~(1 << c)
                S.place(rows, c)
            seat = (seat + 1) % 4
        played = {(s, r) for s, (lo, hi) in enumerate(rows) if lo for r in range(lo, hi + 1)}
        mine = {(C.suit_of(c), C.rank_of(c)) for c in C.cards_of(hands[seat])}
        for c in C.cards_of(S.layout_legal(hands[seat], rows)):
            assert S._layout_score(c, hands[seat], rows) == X.layout_score((C.suit_of(c), C.rank_of(c)), mine, played)
            compared += 1
    assert compared > 300


def _story(contract: str, seed: int, moves: int) -> tuple[engine.Game, I.Story]:
    rule, rng = RulePlayer(), random.Random(seed)
    g = engine.new_game("trix", seed=seed)
    g.act(g.to_act, f"contract {contract}")
    for _ in range(moves):
        if g.to_act is None or g.phase != "play":
            break
        g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
    story = I.story_of(g.view(g.to_act))
    story.owner = None  # the contract was imposed here, not chosen
    return g, story


def test_remembered_seat_weights_are_the_weights_computed_afresh() -> None:
    g, story = _story("queens", 3, 18)
    k = from_view(g.view(g.to_act))
    rng = random.Random(1)
    chain = I.posterior(k, story, rng, going=lambda: True, max_steps=300)
    assert story.memo and story.model == I.MODEL  # the chain asked again for weights it had
    for (seat, hand), w in list(story.memo.items())[:200]:
        assert I.likelihood(I.MODEL, *I.evidence(story, seat, hand)) == w
    I.seat_weight(story, 0, 0, I.MISS)  # another model: the weights of the first are forgotten
    assert story.model == I.MISS and len(story.memo) == 1
    assert chain


def test_the_inference_chain_leaves_out_its_burn_in() -> None:
    """The first ``min_steps // 2`` states, and with ``keep`` < 1 all but the last ``keep`` of them,
    are not played out: they still remember where the chain began (the likeliest of a few uniform
    deals, not a draw from the posterior)."""
    g, story = _story("diamonds", 2, 24)
    k = from_view(g.view(g.to_act))
    full = I.posterior(k, story, random.Random(2), going=lambda: True, min_steps=400, max_steps=400)
    kept = I.posterior(k, story, random.Random(2), going=lambda: True, min_steps=400, max_steps=400, keep=0.25)
    assert len(full) == 200 and kept == full[100:]  # of 400 states: 200 burn-in; keep=0.25: the last 100
    assert full[0] not in kept  # the chain has left its start


def test_exact_trick_search_past_its_budget_gives_up_and_within_it_finds_the_same_value() -> None:
    """A search given too few positions raises TooDeep (the caller then plays the deal's rollouts);
    one given enough gives the value of the search without a budget."""
    rng = random.Random(3)
    hands = _hands(rng, 7)
    with pytest.raises(E.TooDeep):
        E.best_reply("tricks", hands, [], 0, {}, S.DEFAULT_SCORING, 0, budget=E.Budget(20))
    budget = E.Budget(10**6)
    value = E.best_reply("tricks", hands, [], 0, {}, S.DEFAULT_SCORING, 0, budget=budget)
    assert 20 < 10**6 - budget.left < 10**6
    assert value == E.best_reply("tricks", hands, [], 0, {}, S.DEFAULT_SCORING, 0, cut=False)


def test_a_trix_card_decision_whose_exact_searches_outgrow_the_budget_plays_its_rollouts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Exact searches asked for from the first card with a budget of a single position: every deal
    gives way to rollouts, and the decision is still a legal card."""
    rule, rng = RulePlayer(), random.Random(1)
    g = engine.new_game("trix", seed=4)
    g.act(g.to_act, "contract tricks")
    while len(g.legal()) < 2:
        g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
    calls = {"exact": 0, "gave up": 0, "rollout": 0}

    def exact(*args: Any, **kw: Any) -> float:
        calls["exact"] += 1
        try:
            return real_exact(*args, **kw)
        except E.TooDeep:
            calls["gave up"] += 1
            raise

    def rollout(*args: Any, **kw: Any) -> list[int]:
        calls["rollout"] += 1
        return real_rollout(*args, **kw)

    real_exact, real_rollout = E.best_reply, S.rollout_tricks
    monkeypatch.setattr(E, "best_reply", exact)
    monkeypatch.setattr(S, "rollout_tricks", rollout)
    brain = TrixBrain(card_seconds=0.0, exact_cards=13, exact_nodes=1, infer_share=0.0)
    assert brain.play(g.view(g.to_act), random.Random(2)) in g.legal()
    assert calls["exact"] == calls["gave up"] >= 1
    assert calls["rollout"] >= 2  # every candidate of the deal played out
