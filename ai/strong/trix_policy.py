"""A learned policy for the strong player's own later moves in the trick contracts' rollouts.

The rollouts of :mod:`ai.strong.trix_sim` play every seat by the rule player's quick policy;
that is right for the others (they are rule players, or close to it) but plays *my* later moves
worse than I would. This module scores each legal card by a linear function of features that
seat can see (its hand, the trick, the cards still out: every card neither mine nor played),
with weights per contract and situation (leading, following suit, discarding) fitted by
``bench/trix_policy_train.py`` (seeded; the weights ship in ``trix_policy.json`` beside this file)
to what each card is worth in rollouts from the true hands: trained on true hands, scored on what
is visible, so the fit averages over where the hidden cards really are.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from ai.strong import trix_sim as S
from engine import cards as C

PATH = Path(__file__).with_name("trix_policy.json")
SITUATIONS = ("lead", "follow", "discard")
#: the features, in order (each is computed for every legal card; only differences between the
#: cards of one position matter)
NAMES = ("rule", "penalty", "rank", "higher_out", "lower_out", "suit_len", "suit_penalty_out",
         "suit_penalty_mine", "wins", "wins_penalty", "wins_last", "suit_out_none", "lowest_out")
#: {contract: {situation: [w per feature..., margin]}}: the last number is how much more than the
#: rule player's card another card must score to be played instead
_WEIGHTS: dict[str, dict[str, list[float]]] | None = None


def weights() -> dict[str, dict[str, list[float]]]:
    """The shipped weights {contract: {situation: [w per feature, margin]}} (read once, on first use)."""
    global _WEIGHTS
    if _WEIGHTS is None:
        data = json.loads(PATH.read_text(encoding="utf-8"))
        assert tuple(data["features"]) == NAMES, "trix_policy.json was fitted on other features"
        _WEIGHTS = {k: {s: [float(x) for x in v] for s, v in d.items()} for k, d in data["weights"].items()}
    return _WEIGHTS


def situation(hand: int, trick: list[tuple[int, int]]) -> str:
    if not trick:
        return "lead"
    return "follow" if hand & C.SUIT_MASK[trick[0][1] // 13] else "discard"


def legal(hand: int, trick: list[tuple[int, int]]) -> int:
    if trick:
        follow = hand & C.SUIT_MASK[trick[0][1] // 13]
        if follow:
            return follow
    return hand


def features(contract: str, hand: int, out: int, trick: list[tuple[int, int]], c: int, rule: int) -> list[float]:
    """The features of playing ``c`` (``out``: the cards still out, ``rule``: the rule player's card)."""
    pen = S.PENALTY[contract]
    suit = c // 13
    sm = C.SUIT_MASK[suit]
    out_s = out & sm
    higher = (out_s >> (c + 1)).bit_count()
    lower = (out_s & ((1 << c) - 1)).bit_count()
    mine = hand & sm
    is_pen = 1.0 if contract == "tricks" else float(pen >> c & 1)
    wins = wins_pen = wins_last = 0.0
    if trick:
        led = trick[0][1] // 13
        if suit == led:
            top = max(x for _, x in trick if x // 13 == led)
            if c > top:
                wins = 1.0
                mask = 0
                for _, x in trick:
                    mask |= 1 << x
                wins_pen = 1.0 if contract == "tricks" else float((mask & pen).bit_count())
                wins_last = 1.0 if len(trick) == 3 else 0.0
    return [1.0 if c == rule else 0.0, is_pen, (c % 13) / 12.0, higher / 4.0, lower / 4.0,
            mine.bit_count() / 4.0, float((out_s & pen).bit_count() > 0) if contract != "tricks" else 0.0,
            float((mine & pen & ~(1 << c)).bit_count() > 0) if contract != "tricks" else 0.0,
            wins, wins_pen, wins_last, 1.0 if not out_s else 0.0, 1.0 if out_s and not lower else 0.0]


def score(w: list[float], f: list[float]) -> float:
    """The linear score of features ``f`` (``w``'s last number, the margin, aside)."""
    return sum(w[i] * f[i] for i in range(len(f)))


def choose(contract: str, hand: int, out: int, trick: list[tuple[int, int]], rng: random.Random,
           eps: float = 0.03) -> int:
    """My card by the learned scores (with ``eps`` of the moves at random, like the rule policy)."""
    cards = legal(hand, trick)
    if not cards & (cards - 1):
        return cards.bit_length() - 1
    options = C.card_ids(cards)
    if eps and rng.random() < eps:
        return rng.choice(options)
    rule = S.choose_trick_card(contract, hand, trick, rng, 0.0)
    w = weights()[contract][situation(hand, trick)]
    best, best_v = rule, score(w, features(contract, hand, out, trick, rule, rule)) + w[-1]
    for c in options:
        if c != rule:
            v = score(w, features(contract, hand, out, trick, c, rule))
            if v > best_v:
                best, best_v = c, v
    return best
