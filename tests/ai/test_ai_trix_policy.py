"""The learned own-seat policy of the Trix trick rollouts (ai/strong/trix_policy.py)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from ai.rules import RulePlayer
from ai.strong import trix_policy as P
from ai.strong import trix_sim as S
from ai.strong.trix import TrixBrain
from engine import cards as C

ROOT = Path(__file__).resolve().parents[2]


def _m(*codes: str) -> int:
    return C.mask_of(list(codes))


def _deal(rng: random.Random) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[i::4]) for i in range(4)]


def test_features_read_the_trick_and_the_cards_still_out() -> None:
    # Queens: the queen of spades is in the trick, I hold K♠ 3♠ and the others still hold A♠ 2♠
    hand = _m("KS", "3S", "5H")
    out = _m("AS", "2S", "4H")
    trick = [(1, C.parse("QS"))]
    rule = S.choose_trick_card("queens", hand, trick, random.Random(0), 0.0)
    assert rule == C.parse("3S")  # the highest card that still loses
    f = dict(zip(P.NAMES, P.features("queens", hand, out, trick, C.parse("KS"), rule), strict=True))
    assert (f["wins"], f["wins_penalty"], f["rule"]) == (1.0, 1.0, 0.0)
    assert f["higher_out"] == 0.25 and f["lower_out"] == 0.25  # A♠ above, 2♠ below
    g = dict(zip(P.NAMES, P.features("queens", hand, out, trick, C.parse("3S"), rule), strict=True))
    assert (g["wins"], g["rule"], g["lowest_out"]) == (0.0, 1.0, 0.0)
    assert P.situation(hand, trick) == "follow" and P.situation(_m("5H"), trick) == "discard"
    assert P.situation(hand, []) == "lead"


def test_the_shipped_weights_cover_every_contract_and_situation_and_choose_legal_cards() -> None:
    data = json.loads(P.PATH.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == P.NAMES
    w = P.weights()
    rng = random.Random(3)
    for contract in ("king", "queens", "diamonds", "tricks"):
        assert set(w[contract]) == set(P.SITUATIONS)
        assert all(len(v) == len(P.NAMES) + 1 for v in w[contract].values())
        for _ in range(200):
            hands = _deal(rng)
            trick: list[tuple[int, int]] = []
            for seat in range(rng.randrange(4)):
                trick.append((seat, S.choose_trick_card(contract, hands[seat], trick, rng)))
                hands[seat] &= ~(1 << trick[-1][1])
            me = len(trick)
            out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[me]
            c = P.choose(contract, hands[me], out, trick, rng, 0.0)
            assert P.legal(hands[me], trick) >> c & 1


def test_a_margin_no_card_can_beat_plays_the_rule_players_card(monkeypatch: pytest.MonkeyPatch) -> None:
    w = {k: {s: [*v[:-1], 1e9] for s, v in d.items()} for k, d in P.weights().items()}
    monkeypatch.setattr(P, "_WEIGHTS", w)
    rng = random.Random(4)
    for _ in range(300):
        hands = _deal(rng)
        contract = rng.choice(("king", "queens", "diamonds", "tricks"))
        trick = [(0, S.choose_trick_card(contract, hands[0], [], rng))] if rng.random() < 0.7 else []
        hands[0] &= ~(1 << trick[0][1]) if trick else ~0
        me = len(trick)
        out = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[me]
        assert P.choose(contract, hands[me], out, trick, rng, 0.0) == S.choose_trick_card(
            contract, hands[me], trick, rng, 0.0)


def test_without_a_policy_the_rollouts_are_the_rule_players_as_before() -> None:
    rng = random.Random(5)
    for _ in range(100):
        hands = _deal(rng)
        contract = rng.choice(("king", "queens", "diamonds", "tricks"))
        seed = rng.getrandbits(32)
        old = S.rollout_tricks(contract, hands, [], 1, {}, random.Random(seed))
        assert S.rollout_tricks(contract, hands, [], 1, {}, random.Random(seed), own=2, policy=None) == old
        new = S.rollout_tricks(contract, hands, [], 1, {}, random.Random(seed), own=2, policy=P.choose)
        assert sum(new) == sum(old)  # every penalty is taken, by someone


def test_the_brain_with_the_policy_plays_legal_cards_and_repeats_itself_from_a_seed() -> None:
    brain = TrixBrain(own_policy=True, card_seconds=0.02)
    rule, rng = RulePlayer(), random.Random(6)
    played = 0
    for seed in range(6):
        g = engine.new_game("trix", seed=seed)
        g.act(g.to_act, "contract " + ("queens", "tricks", "king")[seed % 3])
        for _ in range(9):
            g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
        view = g.view(g.to_act)
        if len(view["legal"]) < 2:
            continue
        a = brain.play(view, random.Random(1), deadline=None)
        assert a in view["legal"]
        played += 1
    assert played >= 3


@pytest.mark.slow  # a real process
def test_the_training_script_reproduces_its_weights_from_its_seed(tmp_path: Path) -> None:
    outs = []
    for name in ("a.json", "b.json"):
        out = tmp_path / name
        subprocess.run([sys.executable, str(ROOT / "bench" / "trix_policy_train.py"), "--positions", "40",
                        "--rollouts", "2", "--rounds", "1", "--test", "20", "--duel", "10", "--seed", "3",
                        "--out", str(out)],
                       check=True, capture_output=True, timeout=120)
        outs.append(json.loads(out.read_text()))
    assert outs[0] == outs[1]
    assert set(outs[0]["weights"]) == {"king", "queens", "diamonds", "tricks"}


def test_the_learned_policy_as_a_player_beats_the_rule_player_where_it_learned_most() -> None:
    """Diamonds and Latoosh: one seat by the shipped policy, three rule players, the same deals
    without noise; the policy's seat scores more than the rule player's in that seat."""
    for contract in ("diamonds", "tricks"):
        rng = random.Random(11)
        diffs = []
        for _ in range(150):
            hands = _deal(rng)
            lead = rng.randrange(4)
            base = S.rollout_tricks(contract, hands, [], lead, {}, rng, eps=0.0)
            for s in range(4):
                new = S.rollout_tricks(contract, hands, [], lead, {}, rng, eps=0.0, own=s, policy=P.choose)
                diffs.append(new[s] - base[s])
        assert sum(diffs) / len(diffs) > 2.0, contract
