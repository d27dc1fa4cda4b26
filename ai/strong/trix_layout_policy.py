"""A learned layout policy for the strong player's own moves in its layout rollouts.

The strong Trix player values a layout card by playing the deal out (:func:`trix_sim.rollout_layout`)
with every seat on the rule player's quick policy. The others really are that policy; my own later
moves need not be: :func:`choose` scores each legal card by a linear function ``w . phi`` of
observable features (:func:`features`: my hand, the rows, the cards still out) and plays the best.

The weights (:data:`PATH`, ``trix_layout_policy.json``) come from ``bench/trix_layout_policy_train.py``
(seeded): on positions of rule-player deals, each legal card is valued by playing the deal out from the
true hands, and a ridge regression fits the cards' values minus the position's mean on the features
minus their position mean (so only differences between a position's cards count: an argmax needs no
more). Training on true hands with observable features averages over the hands the view allows.
"""

from __future__ import annotations

import json
from pathlib import Path

from ai.strong import trix_infer as I
from ai.strong import trix_sim as S
from engine import cards as C

PATH = Path(__file__).with_name("trix_layout_policy.json")
#: The features of a candidate card, in :func:`features` order (the weights file names them).
NAMES = (
    "own_beyond",      # my cards beyond it, in the direction(s) it opens
    "other_beyond",    # the others' cards beyond it (it blocks them while I hold it)
    "next_mine",       # the card it opens next is mine (one more legal card for me)
    "gives",           # the card it opens next is someone else's (a move for them)
    "end",             # an ace or a two: it opens nothing
    "run",             # my unbroken run of cards from the next one on
    "behind",          # my cards beyond it that others' cards still block
    "jack",            # it is a jack (it opens both ways)
    "far",             # its distance from the jack, in ranks
    "pure_block",      # nothing of mine beyond it, something of the others'
    "spare1",          # after it exactly one legal card left to me
    "rule",            # the rule player's own choice
    "suit_mine",       # my other cards in its suit
    "suit_out",        # the others' cards in its suit
    "own_x_phase",     # own_beyond x my hand's share of 13
    "other_x_phase",   # other_beyond x my hand's share of 13
    "gives_x_phase",   # gives x my hand's share of 13
    "other_x_spare",   # other_beyond x my other legal cards (can I afford to hold it?)
    "gives_x_out",     # gives x the share of the 39 others' cards still out
    "gap1_mine",       # the card it opens is not mine but the one after is
)
#: hand sizes (the candidate included) where a new weight vector starts: 13..10, 9..7, 6..1
BUCKETS = (10, 7)
NF = len(NAMES)

_weights: list[list[float]] | None = None


def _on_table(rows: S.Rows) -> int:
    """The cards on the layout."""
    m = 0
    for s in range(4):
        lo, hi = rows[s]
        if lo:
            m |= ((1 << (hi - lo + 1)) - 1) << (13 * s + lo - 2)
    return m


def features(c: int, hand: int, legal: int, rows: S.Rows) -> list[float]:
    """The features of playing ``c`` (a legal card of ``hand``) on ``rows``, in :data:`NAMES` order."""
    return dict(candidates(hand, legal, rows))[c]


def candidates(hand: int, legal: int, rows: S.Rows) -> list[tuple[int, list[float]]]:
    """Every legal card with its features (:data:`NAMES` order), in card order.

    The ``rule`` feature marks the rule player's own choice (:func:`trix_sim.choose_layout_card`
    without noise).
    """
    out = C.FULL_DECK & ~hand & ~_on_table(rows)
    n_hand = hand.bit_count()
    n_legal = legal.bit_count()
    phase = n_hand / 13.0
    out_share = out.bit_count() / 39.0
    rule = S.choose_layout_card(hand, legal, rows, I.QUIET_RNG, eps=0.0)
    result = []
    for c in C.card_ids(legal):
        base = c - c % 13
        r = c % 13 + 2
        own = other = nm = gives = end = run = gap1 = 0
        for step in ((1, -1) if r == 11 else ((1,) if r > 11 else (-1,))):
            nxt = r + step
            if not 2 <= nxt <= 14:
                end += 1
                continue
            if step > 0:
                span = (1 << (15 - nxt)) - 1
                bits = hand >> (base + nxt - 2) & span
                o = bits.bit_count()
                od = span.bit_count() - o
                run += (bits ^ (bits + 1)).bit_length() - 1
                gap1 += (bits & 3) == 2
            else:
                span = (1 << (nxt - 1)) - 1
                bits = hand >> base & span
                o = bits.bit_count()
                od = nxt - 1 - o
                x = ~bits & span
                run += (nxt - 1) if not x else (nxt - 2) - (x.bit_length() - 1)
                gap1 += nxt > 2 and (bits >> (nxt - 3) & 3) == 1
            own += o
            other += od
            if hand >> (base + nxt - 2) & 1:
                nm += 1
            else:
                gives += 1
        suit = C.SUIT_MASK[c // 13]
        result.append((c, [
            float(own), float(other), float(nm), float(gives), float(end), float(run), float(own - run),
            float(r == 11), float(abs(r - 11)), float(own == 0 and other > 0), float(n_legal + nm == 2),
            float(c == rule), float((hand & suit).bit_count() - 1), float((out & suit).bit_count()),
            own * phase, other * phase, gives * phase, float(other * (n_legal - 1)),
            gives * out_share, float(gap1),
        ]))
    return result


def bucket(n_hand: int) -> int:
    """The weights' bucket of a hand of ``n_hand`` cards (the candidate included)."""
    return sum(1 for b in BUCKETS if n_hand < b)


def weights() -> list[list[float]]:
    """The shipped weights, one vector a bucket (read once, on first use)."""
    global _weights
    if _weights is None:
        data = json.loads(PATH.read_text())
        if list(data["features"]) != list(NAMES) or list(data["buckets"]) != list(BUCKETS):
            raise ValueError(f"{PATH.name}: features or buckets are not this module's")
        _weights = [[float(x) for x in v] for v in data["weights"]]
    return _weights


def choose(hand: int, legal: int, rows: S.Rows, w: list[list[float]] | None = None) -> int:
    """The legal card with the best score ``w . phi`` (the shipped weights by default, the vector of
    my hand size's bucket); ties go to the lower card."""
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if w is None:
        w = _weights if _weights is not None else weights()
    wb = w[bucket(hand.bit_count())]
    best = -1
    top = -1e18
    for c, f in candidates(hand, legal, rows):
        v = 0.0
        for a, b in zip(wb, f, strict=True):
            v += a * b
        if v > top:
            top = v
            best = c
    return best
