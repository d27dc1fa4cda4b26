"""Trix: invariants over many seeded random-play matches (rules.md X-M3 and the contract)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine import cards as C
from engine.trix.game import TrixGame

TOTALS = {"king": -75, "queens": -100, "diamonds": -130, "tricks": -195, "trix": 500}
OWN_KEYS = ("hand", "legal", "my_doubles")


def codes_in(x: Any) -> set[str]:
    """Every card code found in a JSON-able value."""
    out: set[str] = set()
    if isinstance(x, str):
        for word in x.split():
            if len(word) == 2 and word[0] in C.RANKS and word[1] in C.SUITS:
                out.add(word)
    elif isinstance(x, dict):
        for v in x.values():
            out |= codes_in(v)
    elif isinstance(x, list):
        for v in x:
            out |= codes_in(v)
    return out


def check_views(g: TrixGame) -> None:
    """No view shows a card still hidden in another seat's hand (doubles once revealed aside)."""
    revealed = {C.code(c) for c, _ in g.doubles} if g.phase != "double" or g.rules.public_doubles else set()
    if g.rules.expose_twos and g.exposed:
        revealed |= {c for c in C.CODES if c[0] == "2"}
    for seat in (None, 0, 1, 2, 3):
        v = g.view(seat)
        json.dumps(v)
        public = codes_in({k: x for k, x in v.items() if k not in (*OWN_KEYS, "options")})
        own = set(g.hand(seat)) if seat is not None else set()
        hidden = {C.code(c) for s in range(4) if s != seat for c in C.cards_of(g.hands[s])}
        assert not (public & hidden) - revealed, (seat, (public & hidden) - revealed)
        if seat is not None:
            assert v["hand"] == g.hand(seat) or (v["phase"] == "contract" and v["hand"] == [])
            assert codes_in(v["legal"]) <= own
            assert not codes_in(v.get("my_doubles", [])) - own
        if g.phase == "double" and seat != g.to_act:
            assert v["to_act"] is None and (v["doubled"] == [] or g.rules.public_doubles)


def check_conservation(g: TrixGame) -> None:
    held = g.hands[0] | g.hands[1] | g.hands[2] | g.hands[3]
    assert sum(h.bit_count() for h in g.hands) == held.bit_count()
    if g.contract == 4:
        on_table = sum(((hi - lo + 1) if lo else 0) for lo, hi in g.rows)
        assert held.bit_count() + on_table + 0 <= 52
    elif g.contract >= 0 and g.phase == "play":
        taken = g.captured[0] | g.captured[1] | g.captured[2] | g.captured[3]
        trick = sum(1 << c for c in g.trick)
        assert held | taken | trick == C.FULL_DECK
        assert held.bit_count() + taken.bit_count() + len(g.trick) == 52


def play_match(seed: int, options: dict[str, Any] | None = None, deep: bool = False) -> TrixGame:
    rng = random.Random(seed)
    g = engine.new_game("trix", seed=seed, options=options)
    assert isinstance(g, TrixGame)
    kingdom = [0, 0, 0, 0]
    per_kingdom = len(g.rules.contracts)
    scored = 0
    while g.to_act is not None:
        legal = g.legal()
        assert g.auto() in legal
        if deep and rng.random() < 0.3:
            check_views(g)
            check_conservation(g)
        if rng.random() < 0.01:
            h = engine.load(json.loads(json.dumps(g.to_json())))
            assert h.to_json() == g.to_json()
            assert h.legal() == legal and h.view(g.to_act) == g.view(g.to_act)
        action = rng.choice(legal) if rng.random() < 0.9 else g.auto()
        for e in g.act(g.to_act, action):
            if e["type"] == "deal_scored":
                total = sum(e["deltas"]["players"])
                contract = e["summary"]["contract"]
                if contract in TOTALS:
                    assert total == TOTALS[contract] or g.options["self_capture"] == "double_no_bonus"
                kingdom[scored // per_kingdom] += total
                scored += 1
                if contract not in ("trix",):
                    n = sum(e["summary"]["tricks"])
                    assert n == 13 or (contract in ("king", "queens", "diamonds") and n < 13)
    assert scored == g.rules.deals_total
    assert g.phase == "over" and g.legal() == [] and g.winner
    if g.options["self_capture"] != "double_no_bonus":
        assert kingdom == [0, 0, 0, 0]
        assert sum(g.scores()["players"]) == 0
    return g


@pytest.mark.slow
def test_random_matches_default_invariants() -> None:
    """250 matches: 5,000 deals."""
    for seed in range(250):
        play_match(seed)


@pytest.mark.slow
def test_random_matches_views_never_leak_and_cards_conserved() -> None:
    for seed in range(6):
        play_match(1000 + seed, deep=True)


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "complex"},
        {"auto_pass_in_layout": False},
        {"doubling_procedure": "sequential_public"},
        {"self_capture": "leader_gains"},
        {"self_capture": "double_no_bonus"},
        {"no_heart_lead_in_king": True, "king_must_be_discarded_when_void": True, "king_on_ace_of_hearts": True},
        {"early_end": False, "doubling": "off"},
        {"partnership": True, "partnership_expose_twos": True},
        {"first_owner_rule": "random", "first_deal_is_played": False, "owner_sees_cards_before_choice": False},
    ],
)
def test_random_matches_under_options(options: dict[str, Any]) -> None:
    for seed in range(10):
        play_match(2000 + seed, options, deep=seed < 1)


def test_same_seed_same_game() -> None:
    a = play_match(77)
    b = play_match(77)
    assert a.to_json() == b.to_json()


def test_clone_is_independent() -> None:
    g = engine.new_game("trix", seed=3)
    assert isinstance(g, TrixGame)
    rng = random.Random(3)
    for _ in range(120):
        assert g.to_act is not None
        g.act(g.to_act, rng.choice(g.legal()))
    before = g.to_json()
    h = g.clone()
    while h.to_act is not None:
        h.act(h.to_act, h.auto())
    assert g.to_json() == before
    g2 = g.clone()
    assert g2.to_json() == before


def test_fuzzed_actions_either_apply_or_leave_the_game_unchanged() -> None:
    """Any seat and any string: a refusal is an ``IllegalAction`` and changes nothing."""
    words = ["play", "double", "contract", "done", "pass", "bid", "trump", "PLAY", "Play"]
    args = [*C.CODES, "10h", "1S", "kh", "king", "queens", "trix", "tricks", "complex", "7", "", "S"]
    rng = random.Random(5)
    for seed in range(6):
        g = engine.new_game("trix", seed=seed)
        accepted = 0
        for _ in range(3000):
            if g.to_act is None:
                break
            seat: Any = rng.choice([0, 1, 2, 3, g.to_act, g.to_act, 4, -1, "0", None])
            action: Any = " ".join(x for x in (rng.choice(words), rng.choice(args)) if x)
            if rng.random() < 0.05:
                action = rng.choice([None, 5, "", " ", "play  QS", "play QS QS", "x" * 30, "play QS\n"])
            before = g.to_json()
            legal_before = g.legal()
            try:
                g.act(seat, action)
            except engine.IllegalAction as e:
                assert e.reason
                assert g.to_json() == before
                continue
            accepted += 1
            assert seat == json.loads(json.dumps(before))["to_act"]
            assert " ".join(str(action).lower().split()).replace("10", "t") in [x.lower() for x in legal_before]
            if rng.random() < 0.5 and g.to_act is not None:
                g.act(g.to_act, g.auto())
        assert accepted > 0


@pytest.mark.parametrize(
    "options",
    [None, {"auto_pass_in_layout": False}, {"king_on_ace_of_hearts": True}, {"mode": "complex"}],
)
def test_playout_matches_step_with_the_same_stream(options: dict[str, Any] | None) -> None:
    for seed in range(40):
        a = engine.new_game("trix", seed=seed, options=options)
        assert isinstance(a, TrixGame)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 120)):
            if a.to_act is None:
                break
            ids = a.legal_ids()
            a.step(ids[rng.randrange(len(ids))])
        b = a.clone()
        ra, rb = random.Random(seed), random.Random(seed)
        deal = a.deal_no
        while a.to_act is not None and a.deal_no == deal:
            ids = a.legal_ids()
            a.step(ids[int(ra.random() * len(ids))])
        b.playout(rb.random)
        assert a.to_json() == b.to_json()
        assert ra.random() == rb.random()
        assert [C.code(c) for c in a.legal_ids() if c < 52] == [x[5:] for x in a.legal() if x.startswith("play")]


@pytest.mark.parametrize(
    "options",
    [
        None,
        {"mode": "complex", "partnership": True, "partnership_expose_twos": True},
        {"doubling_procedure": "sequential_public", "auto_pass_in_layout": False},
        {"first_owner_rule": "random", "first_deal_is_played": False, "owner_sees_cards_before_choice": False},
    ],
)
def test_decision_view_is_the_view_narrowed(options: dict[str, Any] | None) -> None:
    """``decision_view(seat)``: exactly the keys of ``view(seat)`` a decision reads, same values, for
    every seat in every phase (the doubling window's ``my_doubles`` included)."""
    from engine.trix.view import DECISION_KEYS

    for seed in range(3):
        g = engine.new_game("trix", seed=seed, options=options)
        rng = random.Random(seed)
        phases: set[str] = set()
        while g.to_act is not None:
            phases.add(g.phase)
            for seat in range(4):
                narrow, full = g.decision_view(seat), g.view(seat)
                expected = {*DECISION_KEYS, "hand", *(["my_doubles"] if g.phase == "double" else [])}
                assert set(narrow) == expected
                assert narrow == {k: full[k] for k in narrow}
            g.act(g.to_act, rng.choice(g.legal()))
        assert {"contract", "play"} <= phases


def test_decision_view_refuses_a_bad_seat() -> None:
    g = engine.new_game("trix", seed=1)
    with pytest.raises(engine.IllegalAction):
        g.decision_view(4)
