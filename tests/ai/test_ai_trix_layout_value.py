"""The learned layout value of the strong Trix player (ai/strong/trix_layout_value.py) and its
training script (bench/trix_layout_value_train.py)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import engine
from ai.strong import trix_layout_value as V
from ai.strong import trix_sim as S
from ai.strong.trix import TrixBrain
from engine import cards as C

ROOT = Path(__file__).resolve().parents[2]


def _positions(n_deals: int) -> list[tuple[list[int], S.Rows, int, list[int], list[int]]]:
    """Positions with a choice from rule-player layout deals (20 % noise), with the passes seen so far."""
    import bench.trix_layout_value_train as T

    return [pos for seed in range(n_deals) for pos in T.positions(seed, 0.2)]


def test_the_model_values_exactly_the_legal_cards_and_chooses_one_of_them() -> None:
    seen = 0
    for hands, rows, seat, finished, excluded in _positions(15):
        legal = S.layout_legal(hands[seat], rows)
        sizes = [h.bit_count() for h in hands]
        v = V.values(hands[seat], legal, rows, seat, sizes, finished, excluded, S.DEFAULT_SCORES)
        assert set(v) == set(C.card_ids(legal))
        assert abs(sum(v.values())) < 1e-6  # centred over the legal cards
        c = V.choose(hands[seat], legal, rows, seat, sizes, finished, excluded, S.DEFAULT_SCORES)
        assert legal >> c & 1 and v[c] == max(v.values())
        seen += 1
    assert seen > 100


def test_the_inputs_see_only_the_seats_own_cards_and_public_facts() -> None:
    hands, rows, seat, finished, excluded = _positions(3)[20]
    legal = S.layout_legal(hands[seat], rows)
    sizes = [h.bit_count() for h in hands]
    _, x = V.encode(hands[seat], legal, rows, seat, sizes, finished, excluded, S.DEFAULT_SCORES)
    other = list(hands)
    others = [s for s in range(4) if s != seat]
    pool = sum(hands[s] for s in others)  # the others' cards dealt again among them, same sizes
    cards = C.card_ids(pool)
    random.Random(1).shuffle(cards)
    for s in others:
        other[s] = sum(1 << c for c in cards[:sizes[s]])
        cards = cards[sizes[s]:]
    _, y = V.encode(other[seat], legal, rows, seat, [h.bit_count() for h in other], finished, excluded,
                    S.DEFAULT_SCORES)
    assert x.shape == (legal.bit_count(), V.N_IN) and np.array_equal(x, y)


@pytest.mark.slow
def test_the_shipped_model_chooses_better_than_a_random_card_on_true_hand_values() -> None:
    """On positions of deals it was not trained on, the card it values most is worth more (from
    the true hands, the rest played by the rule policy) than a random legal card, on average."""
    import bench.trix_layout_value_train as T

    chosen = rand = 0.0
    n = 0
    for seed in range(9_000_000, 9_000_040):
        for pos in T.positions(seed, 0.1)[::3]:
            hands, rows, seat, finished, excluded = pos
            legal = S.layout_legal(hands[seat], rows)
            vals = {c: T.label(pos, c, 0, 1) for c in C.card_ids(legal)}
            c = V.choose(hands[seat], legal, rows, seat, [h.bit_count() for h in hands], finished, excluded,
                         S.DEFAULT_SCORES)
            chosen += vals[c]
            rand += sum(vals.values()) / len(vals)
            n += 1
    assert n > 200 and chosen / n > rand / n + 1.0


@pytest.mark.slow
def test_the_training_script_writes_the_same_weights_file_from_the_same_seed(tmp_path: Path) -> None:
    outs = []
    for name in ("a.json", "b.json", "c.json"):
        seed = "11" if name != "c.json" else "12"
        subprocess.run([sys.executable, str(ROOT / "bench" / "trix_layout_value_train.py"), "--deals", "12",
                        "--seed", seed, "--epochs", "2", "--hidden", "8,4", "--eval", "3",
                        "--out", str(tmp_path / name)], check=True, cwd=ROOT, capture_output=True)
        outs.append((tmp_path / name).read_bytes())
    assert outs[0] == outs[1]
    assert outs[0] != outs[2]
    m = V.Model(__import__("json").loads(outs[0]))
    assert [w.shape for w, _ in m.layers] == [(V.N_IN, 8), (8, 4), (4, 1)]


def _layout_game(seed: int) -> engine.Game:
    g = engine.new_game("trix", seed=seed)
    assert g.to_act is not None
    g.act(g.to_act, "contract trix")
    return g


def test_the_standalone_player_plays_legal_cards_the_same_way_every_time() -> None:
    runs = []
    for _ in range(2):
        g = _layout_game(5)
        p = V.LayoutValuePlayer()
        actions: list[str] = []
        for _ in range(60):
            seat = g.to_act
            if seat is None or g.phase != "play":
                break
            view = g.view(seat)
            a = p.decide(view, "trix", random.Random(len(actions)))
            assert a in view["legal"]
            actions.append(a)
            if any(ev["type"] == "deal_scored" for ev in g.act(seat, a)):
                break
        runs.append(actions)
    assert runs[0] == runs[1] and len(runs[0]) > 20


def test_the_brain_with_the_learned_value_plays_legal_layout_cards() -> None:
    assert TrixBrain().layout_value == 0.0  # off by default unless measured better
    g = _layout_game(7)
    rng = random.Random(1)
    for w in (0.5, 1.0):
        brain = TrixBrain(card_seconds=0.02, layout_value=w)
        for _ in range(6):
            seat = g.to_act
            assert seat is not None
            view = g.view(seat)
            a = brain.play(view, rng)
            assert a in view["legal"]
            g.act(seat, a)
