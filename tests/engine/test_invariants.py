"""Random-play invariants for all three games (OpenSpiel ``random_sim_test`` in spirit).

Two layers: thousands of seeded (truncated) matches through the integer fast path
(``legal_ids`` / ``step`` / ``check`` / ``auto_id``), and fewer whole matches through the public
string API with every check: events, views, privacy, JSON round trips, refusals, clones.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import cards as C
from engine.tarneeb.scoring import score_hand
from engine.tarneeb41.scoring import deal_deltas

GAMES = [
    "tarneeb",
    "tarneeb41",
    "trix",
]
TRIX_TOTALS = {"king": -75, "queens": -100, "diamonds": -130, "tricks": -195, "trix": 500}
JUNK = [
    "",
    " ",
    "play",
    "play AS KS",
    "bid 7 8",
    "bid",
    "bid -1",
    "bid x",
    "play 1S",
    "play ZZ",
    "trump",
    "trump X",
    "contract",
    "contract chess",
    "double",
    "double 2C",
    "dance",
    "pass pass",
    "PLAY",
    "play  AS",
    "x" * 40,
    "bid ٧",
    None,
    7,
    ["play", "AS"],
]


def pick(g: Any, legal: list[Any], r: random.Random, codes: bool) -> Any:
    """A random legal action, biased so that random matches end: low bids, frequent passes."""
    if g.phase == "bid":
        passes = [a for a in legal if a in ("pass", 200)]
        if passes and r.random() < 0.7:
            return passes[0]
        bids = [a for a in legal if a not in passes]
        return r.choice(bids[:3] if passes else bids[-12:][:3])
    return r.choice(legal)


def cards_in_play(g: Any) -> int:
    return sum(h.bit_count() for h in g.hands) + len(g.trick)


# ----------------------------------------------------------------- fast path, many matches


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_fast_path_thousands_of_matches(game: str) -> None:
    r = random.Random(2024)
    matches = 1500 if game != "trix" else 400
    for seed in range(matches):
        opts: dict[str, Any] = {"target": 11} if game == "tarneeb41" and seed % 2 else {}
        g: Any = engine.new_game(game, seed=seed, options=opts)
        deals_left = 4
        deal_no = g.deal_no
        while g.to_act is not None and deals_left:
            ids = g.legal_ids()
            assert ids, (game, seed)
            a = g.auto_id()
            assert a in ids
            choice = pick(g, ids, r, codes=False)
            g.check(g.to_act, choice)
            g.step(choice)
            if game != "trix":
                played = 4 * g.trick_no
                assert cards_in_play(g) + played == 52 or g.deal_no != deal_no
                hands = g.hands
                assert (
                    hands[0] & hands[1] == 0
                    and hands[2] & hands[3] == 0
                    and (hands[0] | hands[1]) & (hands[2] | hands[3]) == 0
                )
            if g.deal_no != deal_no:
                deal_no = g.deal_no
                deals_left -= 1


# ----------------------------------------------------------------- public API, whole matches


def check_views(g: Any, game: str) -> None:
    hands = [g.hand(s) for s in range(4)]
    pub = g.view(None)
    json.dumps(pub)
    assert "hand" not in pub
    exposed = pub.get("exposed")
    public_cards = {exposed} if exposed else set()
    for d in pub.get("doubled") or []:
        public_cards.add(d["card"])
    text = json.dumps(pub)
    for h in hands:
        for c in h:
            if c not in public_cards:
                assert f'"{c}"' not in text, (game, c)
    for s in range(4):
        v = g.view(s)
        assert v["hand"] == hands[s]
        vt = json.dumps(v)
        for o in range(4):
            if o == s:
                continue
            for c in hands[o]:
                if c not in public_cards:
                    assert f'"{c}"' not in vt, (game, s, o, c)
        if g.to_act == s:
            assert v["legal"] == g.legal()


def check_deal_scored(e: dict[str, Any], game: str, prev: dict[str, list[int]], g: Any) -> None:
    deltas, scores = e["deltas"], e["scores"]
    assert set(deltas) == set(prev) == set(scores)
    for k in deltas:
        assert [a + b for a, b in zip(prev[k], deltas[k], strict=True)] == scores[k]
    s = e["summary"]
    if game == "tarneeb":
        assert sum(s["tricks"]) == 13
        team = s["declarer"] % 2
        mine, theirs = score_hand(s["bid"], s["tricks"][team], g.options)
        want = [0, 0]
        want[team], want[1 - team] = mine, theirs
        assert deltas["teams"] == want
    elif game == "tarneeb41":
        assert sum(s["tricks"]) == 13
        want = deal_deltas(s["bids"], s["tricks"], prev["players"], g.options["value_table"])
        assert deltas["players"] == want
        assert deltas["teams"] == [want[0] + want[2], want[1] + want[3]]
    else:
        assert sum(deltas["players"]) == TRIX_TOTALS[s["contract"]]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_public_api_whole_matches(game: str) -> None:
    run_matches(game, {"target": 21} if game == "tarneeb41" else {}, 40 if game != "trix" else 15)


VARIANTS = [
    (
        "tarneeb",
        {
            "pass_is_final": False,
            "all_pass": "dealer_forced_min",
            "trump_mode": "exposed_sister_suit",
            "first_lead_must_be_trump": True,
            "made_score": "bid",
            "defenders_score_when_made": True,
            "fail_defender_award": "bid",
            "kaboot_fail_defenders": "double",
            "both_cross_tie": "declarer_team_wins",
            "lose_at_negative_target": True,
            "bid13_wins_match": True,
        },
    ),
    ("tarneeb", {"no_trump_allowed": True, "all_pass": "redeal_next_dealer", "target": 41, "bid_display": "levels"}),
    (
        "tarneeb41",
        {
            "trump_mode": "hearts_fixed",
            "min_bid": 1,
            "min_total": 12,
            "low_total_redeal": "same_dealer",
            "value_table": "levant400",
            "rising_minimums": True,
            "first_lead": "highest_bidder",
            "target": 31,
            "partner_rule": "non_negative",
            "both_qualify": "higher_individual_then_team",
            "bid13_wins_match": True,
        },
    ),
    ("tarneeb41", {"value_table": "tiered_multiplier", "target": 25}),
    ("tarneeb41", {"value_table": "double_from_7", "target": 25}),
]


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_public_api_variants(game: str, options: dict[str, Any]) -> None:
    run_matches(game, options, 12, need_finished=False)


def run_matches(game: str, opts: dict[str, Any], matches: int, need_finished: bool = True) -> None:
    """Whole random matches through the public API with every invariant checked."""
    r = random.Random(7)
    finished = 0
    for seed in range(matches):
        g: Any = engine.new_game(game, seed=seed, options=opts)
        prev = g.scores()
        tricks_this_deal = 0
        steps = 0
        saw_over = 0
        while g.to_act is not None and g.deal_no < 60:
            steps += 1
            legal = g.legal()
            assert legal and g.auto() in legal
            if steps % 37 == 0:
                check_views(g, game)
            if steps % 53 == 0:
                before = g.to_json()
                for junk in r.sample(JUNK, 3):
                    with pytest.raises(engine.IllegalAction):
                        g.act(g.to_act, junk)  # type: ignore[arg-type]
                other = (g.to_act + 1 + r.randrange(3)) % 4
                if game != "trix" or g.phase != "double":
                    with pytest.raises(engine.IllegalAction) as e:
                        g.act(other, legal[0])
                    assert e.value.reason == "not_your_turn"
                for bad in (-1, 4, "0", None):
                    with pytest.raises(engine.IllegalAction):
                        g.act(bad, legal[0])  # type: ignore[arg-type]
                assert g.to_json() == before
            if steps % 97 == 0:
                twin = engine.load(json.loads(json.dumps(g.to_json())))
                assert twin.to_json() == g.to_json()
                clone = g.clone()
                for _ in range(30):
                    if g.to_act is None:
                        break
                    a = pick(g, g.legal(), r, codes=True)
                    ev1 = g.act(g.to_act, a)
                    assert twin.act(twin.to_act, a) == ev1  # type: ignore[arg-type]
                    for e in ev1:
                        if e["type"] == "deal_scored":
                            check_deal_scored(e, game, prev, g)
                            prev = e["scores"]
                            tricks_this_deal = 0
                        elif e["type"] == "trick_taken":
                            tricks_this_deal += 1
                        elif e["type"] == "match_over":
                            saw_over += 1
                assert twin.to_json() == g.to_json()
                assert clone.to_json() != g.to_json() or g.to_act is None
                continue
            events = g.act(g.to_act, pick(g, legal, r, codes=True))
            for e in events:
                assert isinstance(e, dict) and "type" in e
                if e["type"] == "deal_scored":
                    if game != "trix":
                        assert tricks_this_deal == 13
                    check_deal_scored(e, game, prev, g)
                    prev = e["scores"]
                    tricks_this_deal = 0
                elif e["type"] == "trick_taken":
                    tricks_this_deal += 1
                    assert e["trick_no"] == tricks_this_deal
                elif e["type"] in ("deal_thrown_in", "deal_started"):
                    if e["type"] == "deal_thrown_in":
                        tricks_this_deal = 0
                elif e["type"] == "match_over":
                    saw_over += 1
        if g.to_act is None:
            finished += 1
            assert saw_over == 1
            assert g.phase == "over" and g.legal() == [] and g.winner == sorted(g.winner)
            with pytest.raises(engine.IllegalAction):
                g.act(0, "pass")
            check_views(g, game)
    if need_finished:
        assert finished >= matches // 2, (game, finished)


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game(game: str) -> None:
    def play(seed: int) -> list[Any]:
        r = random.Random(seed)
        g: Any = engine.new_game(game, seed=seed)
        out = []
        for _ in range(400):
            if g.to_act is None:
                break
            out.append(g.act(g.to_act, pick(g, g.legal(), r, codes=True)))
        return [*out, g.to_json()]

    assert play(5) == play(5)
    assert play(5) != play(6)


@pytest.mark.parametrize("game", GAMES)
def test_clone_is_independent(game: str) -> None:
    g: Any = engine.new_game(game, seed=3)
    for _ in range(30):
        g.act(g.to_act, g.auto())
    snap = g.to_json()
    c = g.clone()
    for _ in range(200):
        if c.to_act is None:
            break
        c.act(c.to_act, c.auto())
    assert g.to_json() == snap
    assert type(c) is type(g)


def test_no_card_code_is_an_action_of_another_shape() -> None:
    assert len({C.code(i) for i in range(52)}) == 52


@pytest.mark.parametrize("game", GAMES)
def test_clone_continues_like_the_original(game: str) -> None:
    r = random.Random(11)
    g: Any = engine.new_game(game, seed=12)
    for _ in range(150):
        g.act(g.to_act, pick(g, g.legal(), r, codes=True))
    c = g.clone()
    for _ in range(400):
        if g.to_act is None:
            break
        a = pick(g, g.legal(), r, codes=True)
        assert c.act(c.to_act, a) == g.act(g.to_act, a)
    assert c.to_json() == g.to_json()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=300, deadline=None)
@given(junk=st.text(max_size=24) | st.from_regex(r"(play|bid|pass|trump|contract|double|done) ?[0-9A-Za-z ]{0,6}"))
def test_random_strings_refused_or_legal(game: str, junk: str) -> None:
    g: Any = engine.new_game(game, seed=1)
    for _ in range(3):
        g.act(g.to_act, g.auto() if game != "tarneeb" else g.legal()[0])
    before = g.to_json()
    legal = g.legal()
    seat = g.to_act
    try:
        events = g.act(seat, junk)
    except engine.IllegalAction as e:
        assert e.reason
        assert g.to_json() == before
    else:
        same = []
        for a in legal:
            twin = engine.load(before)
            if twin.act(seat, a) == events and twin.to_json() == g.to_json():
                same.append(a)
        assert same, f"{junk!r} was accepted but is none of {legal}"


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41"])
@pytest.mark.parametrize("options", [{}, {"first_lead_must_be_trump": True, "trump_mode": "exposed_sister_suit"}])
def test_playout_equals_stepping_with_the_same_stream(game: str, options: dict[str, Any]) -> None:
    if game == "tarneeb41" and options:
        options = {"trump_mode": "hearts_fixed", "first_lead": "highest_bidder"}
    r = random.Random(5)
    for seed in range(150):
        g: Any = engine.new_game(game, seed=seed, options=options)
        for _ in range(r.randrange(80)):
            if g.to_act is None:
                break
            g.act(g.to_act, pick(g, g.legal(), r, codes=True))
        a, b = g.clone(), g.clone()
        a.playout(random.Random(seed).random)
        rnd = random.Random(seed).random
        deal_no = b.deal_no
        while b.to_act is not None and b.deal_no == deal_no:
            ids = b.legal_ids()
            b.step(ids[int(rnd() * len(ids))])
        assert a.to_json() == b.to_json()
        assert a.deal_no != g.deal_no or a.to_act is None


def test_dealer_shuffle_is_random_shuffle() -> None:
    from engine.base import Dealer

    for seed in range(500):
        dealer = seed % 4
        ref = random.Random(seed)
        deck = list(range(52))
        ref.shuffle(deck)
        d = Dealer(seed, None)
        masks, order = d.deal(dealer)
        assert order == [[deck[i] for i in range(52) if (dealer + 1 + i) % 4 == s] for s in range(4)]
        assert masks == [sum(1 << c for c in order[s]) for s in range(4)]
        assert d._rng.getstate() == ref.getstate()
