"""The strong AI: legal, deterministic from the view alone, consistent sampling, bounded thinking."""

from __future__ import annotations

import copy
import itertools
import random

import pytest

import engine
from bot.ai.strong import StrongPlayer, dds
from bot.ai.strong import tarneeb as strong_tarneeb
from bot.ai.strong import trix_sim as S
from bot.ai.strong.knowledge import from_view, sample_deal
from bot.ai.strong.trix import TrixBrain, _maxn_turn
from engine import cards as C

pytestmark = pytest.mark.skipif(not dds.available(), reason="endplay (DDS) not installed")


def quick_player() -> StrongPlayer:
    """A strong player with tiny budgets, so tests run fast; the logic is the same."""
    p = StrongPlayer("normal")
    p.tarneeb.card_seconds = p.tarneeb.bid_seconds = 0.0
    p.tarneeb.min_samples = 2
    p.trix.card_seconds = p.trix.choice_seconds = 0.0
    return p


def _deck(seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    deck = [r + s for s in C.SUITS for r in C.RANKS]
    rng.shuffle(deck)
    return [deck[i::4] for i in range(4)]


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41", "trix"])
def test_strong_player_always_legal(game: str) -> None:
    p = quick_player()
    for seed in range(2):
        g = engine.new_game(game, seed=seed)
        rng = random.Random(seed)
        deals = 0
        while g.to_act is not None and deals < 2:
            seat = g.to_act
            view = g.view(seat)
            before = copy.deepcopy(view)
            action = p.decide(view, game, rng)
            assert view == before, "the player must not change the view it is given"
            assert action in g.legal()
            deals += sum(1 for e in g.act(seat, action) if e["type"] in ("deal_scored", "deal_thrown_in"))


def _swap_hidden(cards: list[list[str]], viewer: int) -> list[list[str]]:
    """The same deal with two other seats' hands exchanged (unseen by ``viewer``)."""
    a, b = [s for s in range(4) if s not in (viewer, 0)][:2]  # seat 0 deals: its 13th card is public
    out = [list(h) for h in cards]
    out[a], out[b] = out[b], out[a]
    return out


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41", "trix"])
def test_strong_player_decides_from_the_seat_view_only(game: str) -> None:
    """Two deals that differ only in cards the seat cannot see give the same decision."""
    checked = 0
    for seed in range(12):
        cards = _deck(seed)
        g1 = engine.new_game(game, seed=seed, dealer=0, deals=[cards])
        seat = g1.to_act
        assert seat is not None
        g2 = engine.new_game(game, seed=seed, dealer=0, deals=[_swap_hidden(cards, seat)])
        if g2.to_act != seat or g1.view(seat) != g2.view(seat):
            continue  # the swap moved something public (the exposed card, the 7H owner)
        p1, p2 = quick_player(), quick_player()
        a1 = p1.decide(g1.view(seat), game, random.Random(7))
        a2 = p2.decide(g2.view(seat), game, random.Random(7))
        assert a1 == a2
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("game", ["tarneeb41", "trix"])
def test_sampled_deals_are_consistent_with_the_view(game: str) -> None:
    rng = random.Random(3)
    g = engine.new_game(game, seed=11)
    for _ in range(60):  # into the play phase
        seat = g.to_act
        assert seat is not None
        g.act(seat, g.auto())
    for _step in range(30):
        seat = g.to_act
        if seat is None:
            break
        view = g.view(seat)
        k = from_view(view)
        for _ in range(20):
            hands = sample_deal(k, rng)
            assert hands[seat] == C.mask_of(view["hand"])
            assert [h.bit_count() for h in hands] == view["hand_sizes"]
            for x, y in itertools.combinations(hands, 2):
                assert x & y == 0
            for s in range(4):
                assert hands[s] & k.known[s] == k.known[s]
                for suit in range(4):
                    if k.voids[s] >> suit & 1:
                        assert hands[s] & C.SUIT_MASK[suit] == 0
        g.act(seat, g.auto())


def test_thinking_stops_at_the_hard_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a clock that jumps 0.1 s per reading, card play stops at the hard limit."""
    ticks = itertools.count()
    monkeypatch.setattr(strong_tarneeb.time, "perf_counter", lambda: next(ticks) * 0.1)
    calls = 0
    real = dds.score_cards

    def counting(*args: object) -> dict[int, int]:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(dds, "score_cards", counting)
    brain = strong_tarneeb.TarneebBrain(card_seconds=0.2, min_samples=50, max_samples=500)
    g = engine.new_game("tarneeb41", seed=4)
    while g.phase != "play":
        g.act(g.to_act, "bid 3")  # type: ignore[arg-type]  # auto bids of 2 would always throw in
    while len(g.legal()) < 2:
        g.act(g.to_act, g.auto())  # type: ignore[arg-type]
    action = brain.play(g.view(g.to_act), random.Random(1))
    assert action in g.legal()
    # one clock reading per loop test: never more samples than the hard limit allows
    assert 1 <= calls <= int(strong_tarneeb.HARD_CARD_SECONDS / 0.1) + 1


def test_exact_endgame_avoids_the_king() -> None:
    """Two cards each, king contract: seat 0 leads; it must not lead into taking the K♥."""
    p = C.parse
    hands = [
        (1 << p("2C")) | (1 << p("AH")),
        (1 << p("KH")) | (1 << p("3C")),
        (1 << p("4C")) | (1 << p("5D")),
        (1 << p("6C")) | (1 << p("7D")),
    ]
    value = _maxn_turn("king", hands, [], 0, {})
    # seat 0 leads 2C (6C wins), then seat 3 leads 7D... seat 1 discards KH; leading AH would force
    # seat 1 to play KH under it and take it itself: best for seat 0 is to avoid the king.
    assert value[0] == 0
    assert sum(value) == -75


def test_rollouts_keep_the_deal_totals() -> None:
    rng = random.Random(5)
    for contract, total in (("king", -75), ("queens", -100), ("diamonds", -130), ("tricks", -195)):
        for _ in range(20):
            hands = [C.mask_of(h) for h in _deck(rng.randrange(10**6))]
            assert sum(S.rollout_tricks(contract, hands, [], rng.randrange(4), {}, rng)) == total
    for _ in range(20):
        hands = [C.mask_of(h) for h in _deck(rng.randrange(10**6))]
        assert sum(S.rollout_layout(hands, [None] * 4, 0, [], (200, 150, 100, 50), rng)) == 500


def test_trix_contract_choice_is_legal_and_uses_rollouts() -> None:
    g = engine.new_game("trix", seed=2)
    assert g.phase == "contract"
    brain = TrixBrain(card_seconds=0.0, choice_seconds=0.0)
    assert brain.contract(g.view(g.to_act), random.Random(1)) in g.legal()
