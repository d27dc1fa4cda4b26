"""A learned value of each layout card for the strong Trix player (issue 33), numpy inference.

:func:`values` scores every legal card of the seat to move by a small multilayer perceptron
(two hidden layers of rectified units) on what the seat can see after playing it
(:func:`encode`): its hand, the cards on the layout, the cards open to the others, the cards
each other seat cannot hold (its passes, :mod:`ai.strong.knowledge`), the hand sizes, who has
finished, and the card's hand-made features of :mod:`ai.strong.trix_layout_policy`. The scores
are centred per position: only the differences between a position's cards mean something (the
seat's points from here, in the layout's points).

The weights (:data:`PATH`, ``trix_layout_value.json``) come from ``bench/trix_layout_value_train.py``
(seeded; the same seed writes the same file): positions of self-play deals, each legal card
valued from the TRUE hands (the deal played out by the rule player's policy, the seat's own
moves searched exactly from a few cards), regressed on observable features; so the model
learns a card's expected value given what the seat sees.

:class:`LayoutValuePlayer` is the rule player with its layout cards chosen by the model (a
standalone check of the model, ``bench/ai.py --level layout-value``); the strong player blends
the model's value with its rollouts' means when ``TrixBrain.layout_value`` is above 0.
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from ai.heuristics_trix import trix_scores
from ai.rules import RulePlayer
from ai.strong import trix_layout_policy as LP
from ai.strong import trix_sim as S
from ai.strong.knowledge import from_view
from engine import cards as C
from engine.trix import layout as L

PATH = Path(__file__).with_name("trix_layout_value.json")
#: the inputs of one candidate card (see :func:`encode`)
N_IN = 4 * 52 + 3 * 52 + 4 + 3 + 3 + 1 + LP.NF

_BITS = np.arange(52, dtype=np.uint64)


def bits(mask: int) -> np.ndarray:
    """The 52 cards of a set as 0/1 floats (card index order)."""
    return ((np.uint64(mask) >> _BITS) & np.uint64(1)).astype(np.float64)


def on_table(rows: S.Rows) -> int:
    """The cards on the layout."""
    return LP._on_table(rows)


def encode(hand: int, legal: int, rows: S.Rows, me: int, sizes: list[int], finished: list[int],
           excluded: list[int], scores: tuple[int, ...]) -> tuple[list[int], np.ndarray]:
    """The legal cards of ``hand`` (card order) and one row of :data:`N_IN` inputs for each.

    ``sizes`` and ``excluded`` are per seat (absolute); every other seat is seen relative to
    ``me`` (the next to play first). Inputs per card, after it is played: my hand, the layout, the
    open cards I hold, the open cards I do not (the others may play them), per other seat the
    unseen cards it cannot hold; the hand sizes (mine first, / 13), which others have finished,
    how many places are taken (one-hot), the best place's points / 200, the card's
    :mod:`trix_layout_policy` features.
    """
    table = on_table(rows)
    unseen = C.FULL_DECK & ~hand & ~table
    common = np.zeros(3 * 52 + 4 + 3 + 3 + 1)
    for r in range(1, 4):
        s = (me + r) % 4
        common[(r - 1) * 52:r * 52] = bits(excluded[s] & unseen)
        common[156 + r] = sizes[s] / 13.0
        common[160 + r - 1] = float(s in finished)
    common[163 + min(len(finished), 2)] = 1.0
    common[166] = scores[len(finished)] / 200.0 if len(finished) < len(scores) else 0.0
    cands = LP.candidates(hand, legal, rows)
    x = np.zeros((len(cands), N_IN))
    for i, (c, f) in enumerate(cands):
        h = hand & ~(1 << c)
        nr = list(rows)
        S.place(nr, c)
        t = table | 1 << c
        op = L.open_cards(nr)
        x[i, 0:52] = bits(h)
        x[i, 52:104] = bits(t)
        x[i, 104:156] = bits(op & h)
        x[i, 156:208] = bits(op & ~h & ~t)
        x[i, 208:375] = common
        x[i, 364] = h.bit_count() / 13.0  # (common's slot 156 + 0: my own size)
        x[i, 375:] = f
    return [c for c, _ in cands], x


class Model:
    """The perceptron's weights and the inputs' scaling, from the weights file."""

    def __init__(self, data: dict[str, Any]) -> None:
        def arr(name: str) -> np.ndarray:
            d = data["arrays"][name]
            a = np.frombuffer(base64.b64decode(d["b64"]), dtype="<f4").astype(np.float64)
            return a.reshape(d["shape"])

        if int(data["n_in"]) != N_IN:
            raise ValueError(f"{PATH.name}: {data['n_in']} inputs, this module makes {N_IN}")
        self.mean, self.scale = arr("mean"), arr("scale")
        self.layers = [(arr(f"w{i}"), arr(f"b{i}")) for i in range(int(data["layers"]))]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        h = (x - self.mean) / self.scale
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return np.asarray(h[:, 0])


_model: Model | None = None


def model() -> Model:
    """The shipped model (read once, on first use)."""
    global _model
    if _model is None:
        _model = Model(json.loads(PATH.read_text()))
    return _model


def values(hand: int, legal: int, rows: S.Rows, me: int, sizes: list[int], finished: list[int],
           excluded: list[int], scores: tuple[int, ...], m: Model | None = None) -> dict[int, float]:
    """Each legal card's value (points, centred over the legal cards) by the model."""
    cards, x = encode(hand, legal, rows, me, sizes, finished, excluded, scores)
    v = (m or model())(x)
    v = v - v.mean()
    return {c: float(y) for c, y in zip(cards, v, strict=True)}


def choose(hand: int, legal: int, rows: S.Rows, me: int, sizes: list[int], finished: list[int],
           excluded: list[int], scores: tuple[int, ...], m: Model | None = None) -> int:
    """The legal card the model values most (ties: the lower card)."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    v = values(hand, legal, rows, me, sizes, finished, excluded, scores, m)
    return max(v, key=lambda c: (v[c], -c))


def view_values(view: dict[str, Any], m: Model | None = None) -> dict[int, float]:
    """:func:`values` from a seat's view in the layout."""
    k = from_view(view)
    rows = list(S.EMPTY_ROWS)
    for suit, ends in (view.get("layout") or {}).items():
        if ends:
            lo, hi = (C.RANKS.index(str(x)) + 2 for x in ends)
            rows[C.parse_suit(suit)] = (lo, hi)
    legal = S.layout_legal(k.hand, rows)
    finished = [int(s) for s in view.get("finished") or []]
    return values(k.hand, legal, rows, k.seat, k.sizes, finished, k.excluded, trix_scores(view), m)


class LayoutValuePlayer(RulePlayer):
    """The rule player, its layout cards chosen by the model (``bench/ai.py --level layout-value``)."""

    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        legal = [str(a) for a in view.get("legal") or []]
        plays = [a for a in legal if a.startswith("play ")]
        if game == "trix" and view.get("contract") == "trix" and len(plays) > 1:
            v = view_values(view)
            best = max(v, key=lambda c: (v[c], -c))
            action = f"play {C.code(best)}"
            if action in legal:
                return action
        return super().decide(view, game, rng)
