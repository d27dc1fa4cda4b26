"""The rule-based AI player: always legal on real views, sensible in set positions, better than random."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from ai.base import LegalPlayer
from ai.rules import RulePlayer


def codes(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("tarneeb", None),
        ("tarneeb41", None),
        ("trix", None),
        ("trix", {"mode": "complex"}),
        ("trix", {"auto_pass_in_layout": False, "doubling_procedure": "sequential_public"}),
        ("trix", {"no_heart_lead_in_king": True, "king_must_be_discarded_when_void": True}),
    ],
)
def test_always_legal_on_random_views(game: str, options: dict[str, Any] | None) -> None:
    player = RulePlayer()
    views = 0
    for seed in range(40):
        g = engine.new_game(game, seed=seed, options=options)
        rng = random.Random(seed)
        for _ in range(120):
            if g.to_act is None:
                break
            seat = g.to_act
            view = g.view(seat)
            action = player.decide(view, game, rng)
            assert action in g.legal()
            views += 1
            g.act(seat, action if rng.random() < 0.5 else rng.choice(g.legal()))
    assert views >= 3000
    assert player.fallbacks == 0


def test_full_matches_with_four_rule_players() -> None:
    player = RulePlayer()
    for game in ("tarneeb", "tarneeb41", "trix"):
        g = engine.new_game(game, seed=11)
        rng = random.Random(11)
        steps = 0
        while g.to_act is not None and steps < 5000:
            g.act(g.to_act, player.decide(g.view(g.to_act), game, rng))
            steps += 1
        assert g.to_act is None and g.winner
    assert player.fallbacks == 0


def trick_view(
    game: str, seat: int, hand: str, trick: list[tuple[int, str]], legal: list[str], trump: str | None, **extra: Any
) -> dict[str, Any]:
    v = {
        "game": game,
        "phase": "play",
        "seat": seat,
        "to_act": seat,
        "hand": codes(hand),
        "trick": [{"seat": s, "card": c} for s, c in trick],
        "legal": legal,
        "trump": trump,
    }
    v.update(extra)
    return v


def test_does_not_overtake_partner() -> None:
    v = trick_view("tarneeb41", 0, "AC 3C 9D", [(2, "KC"), (3, "5C")], ["play 3C", "play AC"], "S")
    v["trick"] = [{"seat": 1, "card": "4C"}, {"seat": 2, "card": "KC"}, {"seat": 3, "card": "5C"}]
    assert RulePlayer().decide(v, "tarneeb41", random.Random(0)) == "play 3C"


def test_wins_cheaply_when_last() -> None:
    v = trick_view("tarneeb41", 0, "TC KC 2D", [(1, "9C"), (2, "3C"), (3, "8C")], ["play TC", "play KC"], "S")
    assert RulePlayer().decide(v, "tarneeb41", random.Random(0)) == "play TC"


def test_ducks_when_it_cannot_win() -> None:
    v = trick_view("tarneeb", 0, "TC 4C JC 2D", [(3, "AC")], ["play 4C", "play TC", "play JC"], "S")
    assert RulePlayer().decide(v, "tarneeb", random.Random(0)) == "play 4C"


def test_ruffs_cheaply_and_keeps_trumps_when_partner_wins() -> None:
    legal = ["play 4D", "play 9D", "play 3S", "play QS"]
    v = trick_view("tarneeb41", 0, "4D 9D 3S QS", [(1, "AC")], legal, "S")
    assert RulePlayer().decide(v, "tarneeb41", random.Random(0)) == "play 3S"
    v = trick_view("tarneeb41", 0, "4D 9D 3S QS", [(1, "5C"), (2, "AC"), (3, "7C")], legal, "S")
    assert RulePlayer().decide(v, "tarneeb41", random.Random(0)) == "play 4D"


def test_leads_an_ace() -> None:
    hand = "AH 4H 5C 6C 7C 2D"
    v = trick_view("tarneeb41", 0, hand, [], ["play " + c for c in codes(hand)], "S")
    assert RulePlayer().decide(v, "tarneeb41", random.Random(0)) == "play AH"


def bid_view(game: str, hand: str, legal: list[str], **extra: Any) -> dict[str, Any]:
    v = {
        "game": game,
        "phase": "bid",
        "seat": 0,
        "to_act": 0,
        "hand": codes(hand),
        "legal": legal,
        "trick": [],
        "high_bid": None,
        "trump": None,
    }
    v.update(extra)
    return v


CLASSIC_BIDS = [f"bid {n}" for n in range(7, 14)] + ["pass"]


def test_classic_bids_from_hand_strength() -> None:
    strong = "AS KS QS JS TS 9S AH KH AD KD AC 2C 3C"
    weak = "2S 3S 4H 5H 6H 2D 3D 7D 8D 2C 4C 6C 9C"
    p = RulePlayer()
    assert p.decide(bid_view("tarneeb", strong, CLASSIC_BIDS), "tarneeb", random.Random(0)).startswith("bid ")
    assert p.decide(bid_view("tarneeb", weak, CLASSIC_BIDS), "tarneeb", random.Random(0)) == "pass"
    trump_view = bid_view("tarneeb", strong, ["trump S", "trump H", "trump D", "trump C"], phase="trump")
    assert p.decide(trump_view, "tarneeb", random.Random(0)) == "trump S"


def test_41_bids_personal_tricks_minimum_two() -> None:
    legal = [f"bid {n}" for n in range(2, 14)]
    strong = "AS KS QS JS TS AH KH AD KD 2C 3C 4C 5C"
    weak = "2S 3H 4H 5H 6H 2D 3D 7D 8D 2C 4C 6C 9C"
    p = RulePlayer()
    high = int(p.decide(bid_view("tarneeb41", strong, legal, trump="S"), "tarneeb41", random.Random(0)).split()[1])
    assert high >= 6
    assert p.decide(bid_view("tarneeb41", weak, legal, trump="S"), "tarneeb41", random.Random(0)) == "bid 2"


def trix_view(contract: str, hand: str, trick: list[tuple[int, str]], legal: list[str], **extra: Any) -> dict[str, Any]:
    v = {
        "game": "trix",
        "phase": "play",
        "seat": 0,
        "to_act": 0,
        "hand": codes(hand),
        "contract": contract,
        "trick": [{"seat": s, "card": c} for s, c in trick],
        "legal": legal,
        "options": {},
    }
    v.update(extra)
    return v


def test_trix_dumps_king_of_hearts_when_void() -> None:
    hand = "KH 2S AS 9D"
    v = trix_view("king", hand, [(1, "5C")], ["play " + c for c in codes(hand)])
    assert RulePlayer().decide(v, "trix", random.Random(0)) == "play KH"


def test_trix_partnership_spares_the_partner() -> None:
    hand = "KH 2S AS 9D"
    v = trix_view(
        "king", hand, [(1, "5C"), (2, "AC")], ["play " + c for c in codes(hand)], options={"partnership": True}
    )
    assert RulePlayer().decide(v, "trix", random.Random(0)) == "play AS"


def test_trix_plays_queen_under_a_higher_card() -> None:
    v = trix_view("queens", "QS 3S 4H", [(1, "KS")], ["play 3S", "play QS"])
    assert RulePlayer().decide(v, "trix", random.Random(0)) == "play QS"


def test_trix_ducks_with_highest_safe_card() -> None:
    v = trix_view("tricks", "2C 8C KC 5H", [(1, "9C")], ["play 2C", "play 8C", "play KC"])
    assert RulePlayer().decide(v, "trix", random.Random(0)) == "play 8C"


def test_trix_doubles_only_safe_cards() -> None:
    p = RulePlayer()
    long_hearts = trix_view("king", "KH 2H 3H 5H 8H 9H 2C 3C 4C 5D 6D 7S 8S", [], ["double KH", "done"], phase="double")
    assert p.decide(long_hearts, "trix", random.Random(0)) == "double KH"
    bare = trix_view("king", "KH 2C 3C 4C 5D 6D 7S 8S AS KS QS JS TS", [], ["double KH", "done"], phase="double")
    assert p.decide(bare, "trix", random.Random(0)) == "done"


def test_trix_contract_choice_by_hand() -> None:
    p = RulePlayer()
    all_five = ["contract king", "contract queens", "contract diamonds", "contract tricks", "contract trix"]
    low = "2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S"
    choice = p.decide(trix_view("", low, [], all_five, phase="contract"), "trix", random.Random(0))
    assert choice in ("contract tricks", "contract diamonds")
    bare_king = "KH AS KS QS JS AC KC QC AD KD QD JD TD"
    choice = p.decide(trix_view("", bare_king, [], all_five, phase="contract"), "trix", random.Random(0))
    assert choice not in ("contract king", "contract tricks", "contract queens")
    queens_low = "QC 2C 3C 4C QD 2D 3D 5D QS 2S 3S 4S KH"
    left = ["contract king", "contract queens", "contract trix"]
    assert p.decide(trix_view("", queens_low, [], left, phase="contract"), "trix", random.Random(0)) == (
        "contract queens"
    )


def test_trix_layout_unblocks_own_run() -> None:
    layout = {"C": None, "D": None, "H": ["J", "J"], "S": None}
    v = trix_view("trix", "JC TC 9C QH 4D", [], ["play JC", "play QH"], layout=layout)
    assert RulePlayer().decide(v, "trix", random.Random(0)) == "play JC"
    v = trix_view("trix", "JC 5D QH KH AH", [], ["play JC", "play QH"], layout=layout)
    assert RulePlayer().decide(v, "trix", random.Random(0)) == "play QH"


def duplicate_classic_tricks(deals: int) -> float:
    """Mean tricks per deal of a rule team against a random team (same cards, seats swapped)."""
    rule, rnd = RulePlayer(), LegalPlayer()
    total = 0
    for i in range(deals):
        deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
        random.Random(i).shuffle(deck)
        deal = [deck[k::4] for k in range(4)]
        for team in (0, 1):
            g = engine.new_game("tarneeb", seed=i, dealer=0, deals=[deal] * 10)
            rng = random.Random(i)
            while True:
                seat = g.to_act
                assert seat is not None
                who = rule if g.phase != "play" or seat % 2 == team else rnd
                events = g.act(seat, who.decide(g.view(seat), "tarneeb", rng))
                scored = [e for e in events if e["type"] == "deal_scored"]
                if scored:
                    total += scored[0]["summary"]["tricks"][team]
                    break
    return total / (2 * deals)


def test_beats_random_card_play_in_classic_tarneeb() -> None:
    assert duplicate_classic_tricks(30) > 7.0


def test_beats_random_in_trix_matches() -> None:
    rule, rnd = RulePlayer(), LegalPlayer()
    points = 0
    for i in range(4):
        g = engine.new_game("trix", seed=100 + i)
        rng = random.Random(i)
        while g.to_act is not None:
            seat = g.to_act
            g.act(seat, (rule if seat == i else rnd).decide(g.view(seat), "trix", rng))
        points += g.scores()["players"][i]
    assert points > 0


def test_decisions_depend_on_the_view_only() -> None:
    """Same view, any generator: the same action (replays and restarts stay reproducible)."""
    player = RulePlayer()
    for game in ("tarneeb", "tarneeb41", "trix"):
        g = engine.new_game(game, seed=21)
        for step in range(200):
            if g.to_act is None:
                break
            view = g.view(g.to_act)
            a = player.decide(view, game, random.Random(step))
            assert a == player.decide(view, game, random.Random(step + 1000))
            g.act(g.to_act, a)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("trix", None),
        ("trix", {"mode": "complex", "partnership": True, "partnership_expose_twos": True}),
        ("trix", {"doubling_procedure": "sequential_public", "swap_diamond_latoosh_values": True}),
        ("tarneeb", None),
        ("tarneeb41", None),
    ],
)
def test_decides_the_same_from_the_decision_view(game: str, options: dict[str, Any] | None) -> None:
    """The tables give the rule player ``decision_view`` (bot.core.tables.ai_runner.view_for): every
    decision is the one it makes from the whole view."""
    from bot.core.tables.ai_runner import view_for

    player = RulePlayer()
    assert player.narrow_view
    decisions = 0
    for seed in range(6):
        g = engine.new_game(game, seed=seed, options=options)
        rng = random.Random(seed)
        while g.to_act is not None and decisions < 6000:
            seat = g.to_act
            narrow = view_for(player, g, seat)
            assert narrow == g.decision_view(seat)
            action = player.decide(narrow, game, random.Random(decisions))
            assert action == player.decide(g.view(seat), game, random.Random(decisions))
            decisions += 1
            g.act(seat, action if rng.random() < 0.7 else rng.choice(g.legal()))
    assert player.fallbacks == 0
    assert view_for(LegalPlayer(), g, 0) == g.view(0)  # a player that does not say so: the whole view


def test_card_of_reads_every_spelling() -> None:
    from ai.heuristics import card_of

    assert card_of("QS") == (3, 12) and card_of("qs") == (3, 12) and card_of("10H") == (2, 10)
    assert card_of("TH") == (2, 10) and card_of(" 2c ") == (0, 2)
    for bad in ("ZZ", "", "QX"):
        with pytest.raises(ValueError):
            card_of(bad)
