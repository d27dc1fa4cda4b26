"""The search fast path equals the checked rules path, on thousands of random states (issue 12.4).

``engine/search.py`` and ``engine/trix/search.py`` hold hand-inlined copies of the card play for
speed (``step`` / ``playout``), and the games' ``clone``, ``to_json`` and ``from_json`` (in
``engine/trick.py`` and ``engine/trix/game.py``) the hand-written copy and JSON plumbing. These
tests pin the copies to the rules: from random seeded states of every game and variant (walked
with the checked path, ``legal`` / ``act``), the fast path on a ``clone()`` and the checked path
(``check`` / ``act`` on a state rebuilt from real JSON text) must give the same state, scores and
legal moves, and the original must not move.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine import trick
from engine.trix import actions as trix_actions

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "tarneeb": [
        {},
        {"pass_is_final": False, "no_trump_allowed": True},
        {"all_pass": "dealer_forced_min", "first_lead_must_be_trump": True},
        {"all_pass": "redeal_next_dealer", "trump_mode": "exposed_sister_suit", "first_lead_must_be_trump": True},
        {"bid13_wins_match": True, "lose_at_negative_target": True, "both_cross_tie": "declarer_team_wins"},
        {"made_score": "bid", "defenders_score_when_made": True, "fail_defender_award": "bid", "target": 41},
        {"no_trump_allowed": True, "target": 61},  # the inlined auction's trump choice with no trump
    ],
    "tarneeb41": [
        {},
        {"trump_mode": "hearts_fixed", "first_lead": "highest_bidder"},
        {"rising_minimums": True, "value_table": "levant400", "low_total_redeal": "same_dealer"},
        {"min_bid": 1, "min_total": 4, "target": 11, "bid13_wins_match": True, "value_table": "tiered_multiplier"},
        {"both_qualify": "higher_individual_then_team", "partner_rule": "non_negative", "target": 15,
         "value_table": "double_from_7"},
    ],
    "trix": [
        {},
        {"mode": "complex"},
        {"doubling": "off", "early_end": False},
        {"doubling_procedure": "sequential_public", "self_capture": "leader_gains"},
        {"self_capture": "double_no_bonus", "penalties": [50, 30, 5, 20], "trix_scores": [250, 150, 50, 0]},
        {"no_heart_lead_in_king": True, "king_must_be_discarded_when_void": True, "king_on_ace_of_hearts": True},
        {"auto_pass_in_layout": False},
        {"partnership": True, "partnership_expose_twos": True},
        {"swap_diamond_latoosh_values": True, "first_owner_rule": "random", "first_deal_is_played": False},
        {"first_owner_rule": "fixed_seat", "owner_sees_cards_before_choice": False, "mode": "complex",
         "king_on_ace_of_hearts": True},
    ],
}
CASES = [pytest.param(game, i, id=f"{game}-{i}") for game, vs in VARIANTS.items() for i in range(len(vs))]

#: Every action id a game knows: cards, bids, pass, trumps (Tarneeb games) / contracts, doubles, done, pass (Trix).
CANDIDATES: dict[str, list[int]] = {
    "tarneeb": [*range(52), *range(trick.BID, trick.BID + 16), trick.PASS, *range(trick.TRUMP, trick.NO_TRUMP + 1)],
    "trix": [
        *range(52),
        *range(trix_actions.CONTRACT, trix_actions.CONTRACT + 6),
        *range(trix_actions.DOUBLE, trix_actions.DOUBLE + 52),
        trix_actions.DONE,
        trix_actions.PASS,
    ],
}
CANDIDATES["tarneeb41"] = CANDIDATES["tarneeb"]
#: How many states each variant samples: thousands per game over its variants (Trix has more variants).
STATES = {"tarneeb": 500, "tarneeb41": 500, "trix": 400}


def code_of(game: str, aid: int) -> str:
    return trix_actions.action_code(aid) if game == "trix" else trick.action_code(aid)


def reload(g: Any) -> Any:
    """The checked path's copy: ``engine.load`` of the state sent through real JSON text."""
    return engine.load(json.loads(json.dumps(g.to_json())))


def near_the_end(g: Any, r: random.Random) -> Any:
    """``g`` with random match totals around the target (random play seldom ends a Tarneeb match)."""
    d = g.to_json()
    target = g.options["target"]
    if d["game"] == "tarneeb":
        d["team_scores"] = [r.randrange(-target + 1, target) for _ in range(2)]
    else:
        d["player_scores"] = [r.randrange(max(1, target - 4), target + 8) for _ in range(4)]
    return engine.load(d)


@functools.cache
def corpus(game: str, variant: int) -> tuple[Any, ...]:
    """``STATES[game]`` random states of seeded matches of one variant, walked with ``legal`` / ``act``.

    The three tests share them (as clones; each test clones again before touching one). A Trix
    match is sampled all along, its last deal more densely; half the Tarneeb matches start near
    their target (random play seldom ends a Tarneeb match), so the match's end is covered too.
    """
    options = VARIANTS[game][variant]
    out: list[Any] = []
    seed = 1000 * variant
    while len(out) < STATES[game]:
        r = random.Random(seed)
        g: Any = engine.new_game(game, seed=seed, options=options)
        if game != "trix" and r.random() < 0.5:
            g = near_the_end(g, r)
        taken = 0
        while g.to_act is not None and taken < 40 and len(out) < STATES[game]:
            last = game == "trix" and g.deal_index == g.rules.deals_total - 1
            if r.random() < (0.12 if last or game != "trix" else 0.03):
                out.append(g.clone())
                taken += 1
            legal = g.legal()
            g.act(g.to_act, legal[int(r.random() * len(legal))])
        seed += 1
    return tuple(out)


def states(game: str, variant: int, every: int = 1) -> Iterator[tuple[Any, random.Random]]:
    """Every ``every``-th state of :func:`corpus` (a fresh clone) with a generator seeded by its number."""
    for n, g in enumerate(corpus(game, variant)[::every]):
        yield g.clone(), random.Random(n)


def assert_same(a: Any, b: Any, game: str, views: bool = False) -> None:
    """State, scores and legal moves of the fast path's ``a`` and the checked path's ``b`` agree."""
    assert a.to_json() == b.to_json()
    assert a.scores() == b.scores()
    assert (a.phase, a.to_act, a.winner) == (b.phase, b.to_act, b.winner)
    assert a.legal_ids() == b.legal_ids()
    assert [code_of(game, x) for x in a.legal_ids()] == b.legal()
    if b.to_act is not None:
        assert a.auto_id() == b.auto_id()
        assert a.auto() == b.auto()
    for seat in (None, 0, 1, 2, 3) if views else ():
        assert a.view(seat) == b.view(seat)


def assert_checks_match_legal(g: Any, game: str) -> None:
    """``check`` accepts exactly the ids of ``legal_ids`` (every other id raises, changing nothing)."""
    seat = g.to_act
    ids = g.legal_ids()
    before = g.to_json()
    accepted = []
    for aid in CANDIDATES[game]:
        try:
            g.check(seat, aid)
        except engine.IllegalAction as e:
            assert e.reason
        else:
            accepted.append(aid)
    assert sorted(accepted) == sorted(ids)
    assert g.legal() == [code_of(game, x) for x in ids]
    assert g.auto_id() in ids
    with pytest.raises(engine.IllegalAction):
        g.check((seat + 1) & 3, ids[0])
    assert g.to_json() == before


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_step_on_a_clone_equals_check_and_act_after_a_json_round_trip(game: str, variant: int) -> None:
    for n, (g, r) in enumerate(states(game, variant)):
        if n % 2 == 0:
            assert_checks_match_legal(g, game)
        ids = g.legal_ids()
        aid = ids[int(r.random() * len(ids))]
        before = g.to_json()
        fast = g.clone()
        fast.step(aid)
        checked = reload(g)
        seat = checked.to_act
        checked.check(seat, aid)
        checked.act(seat, code_of(game, aid))
        assert_same(fast, checked, game)
        assert g.to_json() == before, "stepping a clone changed the original"


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_playout_on_a_clone_equals_random_act_with_the_same_stream(game: str, variant: int) -> None:
    for g, r in states(game, variant, every=4):
        before = g.to_json()
        fast = g.clone()
        seed = r.random()
        ra, rb = random.Random(seed), random.Random(seed)
        fast.playout(ra.random)
        checked = reload(g)
        deal_no = checked.deal_no
        while checked.to_act is not None and checked.deal_no == deal_no:
            legal = checked.legal()
            checked.act(checked.to_act, legal[int(rb.random() * len(legal))])
        assert_same(fast, checked, game, views=True)
        assert ra.random() == rb.random(), "the fast path drew a different number of random values"
        assert fast.deal_no != g.deal_no or fast.to_act is None
        assert g.to_json() == before, "a playout on a clone changed the original"


def slots(g: Any) -> list[str]:
    return [name for cls in type(g).__mro__ for name in getattr(cls, "__slots__", ())]


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_clone_and_json_keep_every_slot_and_share_nothing_mutable(game: str, variant: int) -> None:
    for g, _r in states(game, variant, every=10):
        c = g.clone()
        j = reload(g)
        names = slots(g)
        assert len(names) == len(set(names)) and len(names) > 15
        for name in names:
            if name == "_dshared":  # whether the dealer's generator is shared: a copy-on-write flag
                continue
            mine = getattr(g, name)
            if name == "_dealer":
                assert c._dealer.to_json() == mine.to_json() == j._dealer.to_json()
                continue
            assert getattr(c, name) == mine, f"clone() lost {name}"
            assert getattr(j, name) == mine, f"the JSON round trip lost {name}"
            if isinstance(mine, list | dict | set) and name != "options":  # options: read-only, shared
                assert getattr(c, name) is not mine, f"clone() shares the mutable {name}"


def playout_both_ways(g: Any, seed: int) -> int:
    """``playout`` on a clone of ``g`` against random ``legal`` / ``act`` on a JSON copy, one stream each.

    Asserts the same state and the same number of draws; returns how many actions the deal took.
    """
    fast = g.clone()
    ra = random.Random(seed)
    fast.playout(ra.random)
    checked = reload(g)
    rb = random.Random(seed)
    deal_no = checked.deal_no
    n = 0
    while checked.to_act is not None and checked.deal_no == deal_no:
        legal = checked.legal()
        checked.act(checked.to_act, legal[int(rb.random() * len(legal))])
        n += 1
    assert_same(fast, checked, g.game_id)
    assert ra.random() == rb.random(), "the fast path drew a different number of random values"
    return n


def entry_points(game: str, options: dict[str, Any], want: int) -> Iterator[Any]:
    """States of seeded random matches at every point the fast path enters differently.

    The auction (Tarneeb games) or the contract choice, the doubling and the layout (Trix), and a
    state at each position of a trick (no card down, one, two, three) on the first trick and on a
    later one, until ``want`` of each were seen.
    """
    phases = {"tarneeb": ["bid", "trump"], "tarneeb41": ["bid"], "trix": ["contract", "double", "layout"]}[game]
    keys = [(p,) for p in phases] + [("play", n, first) for n in range(4) for first in (True, False)]
    seen: dict[tuple[object, ...], int] = dict.fromkeys(keys, 0)
    seed = 0
    while min(seen.values()) < want:
        r = random.Random(seed)
        g: Any = engine.new_game(game, seed=seed, options=options)
        while g.to_act is not None and g.deal_no < 6:
            if g.phase == "play" and not (game == "trix" and g.contract == TRIX):
                first = sum(g.tricks) == 0 if game == "trix" else g.trick_no == 0
                key: tuple[object, ...] = ("play", len(g.trick), first)
            else:
                key = ("layout",) if g.phase == "play" else (g.phase,)
            if seen[key] < want:
                seen[key] += 1
                yield g.clone()
            legal = g.legal()
            g.act(g.to_act, legal[int(r.random() * len(legal))])
        seed += 1
        assert seed < 500, f"entry points not all reached: {seen}"


TRIX = 4  # engine.trix.contracts.TRIX


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("tarneeb", {}),
        ("tarneeb", {"first_lead_must_be_trump": True, "no_trump_allowed": True}),
        ("tarneeb41", {}),
        ("trix", {}),
    ],
)
def test_playout_from_every_position_of_a_trick_equals_random_act(game: str, options: dict[str, Any]) -> None:
    for n, g in enumerate(entry_points(game, options, want=6)):
        playout_both_ways(g, n)


def test_a_trix_deal_ended_early_by_the_trick_in_progress_equals_random_act() -> None:
    """X-T4 through the fast path's trick-in-progress branch: completing that trick takes the last penalty card."""
    from engine.trix.contracts import PENALTY_CARDS

    found = 0
    seed = 0
    while found < 25:
        r = random.Random(seed)
        g: Any = engine.new_game("trix", seed=seed)
        while g.to_act is not None and g.deal_no < 8:
            pen = PENALTY_CARDS[g.contract] if g.phase == "play" and g.contract >= 0 else 0
            held = g.captured[0] | g.captured[1] | g.captured[2] | g.captured[3]
            if pen and g.trick:
                # the penalty cards left are in the trick or the hands of the seats still to play to it
                rest = pen & ~held
                to_play = [(g.to_act + i) & 3 for i in range(4 - len(g.trick))]
                in_reach = sum(1 << c for c in g.trick) | sum(g.hands[s] for s in to_play)
                if rest & ~in_reach == 0:
                    steps = playout_both_ways(g, seed)
                    found += steps == 4 - len(g.trick)  # the deal ended with that trick
            legal = g.legal()
            g.act(g.to_act, legal[int(r.random() * len(legal))])
        seed += 1
        assert seed < 400, f"only {found} deals ended by the trick in progress"
