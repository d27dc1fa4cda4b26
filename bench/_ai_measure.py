"""What ``bench/ai.py``'s honest measures share (issue 33): the noisy rule player, the share of a
gain with its standard error, and the double-dummy value of a Tarneeb card (a leading underscore:
``majlis bench`` does not run it)."""

from __future__ import annotations

import random
import statistics
from typing import Any

from ai.rules import RulePlayer
from ai.strong import dds
from engine import cards as C


class NoisyRulePlayer:
    """The rule player, with a random legal move instead for a share ``eps`` of its decisions that
    have a choice (a person-like population: it errs the way people do, now and then)."""

    heavy = False

    def __init__(self, eps: float = 0.3) -> None:
        self.eps = eps
        self.rule = RulePlayer()

    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        """The rule player's move, or a random legal one. The dice are the position's own (its seat,
        hand and the play so far), so that two runs of a deal that differ in one measured chair
        meet the same noise wherever they reach the same position (common random numbers)."""
        legal = [str(a) for a in view.get("legal") or []]
        if len(legal) > 1:
            dice = random.Random("|".join(str(view.get(k)) for k in _POSITION))
            if dice.random() < self.eps:
                return dice.choice(legal)
        return str(self.rule.decide(view, game, rng))


#: The view's keys that tell one position from another (for :class:`NoisyRulePlayer`'s dice).
_POSITION = ("game", "seat", "phase", "hand", "history", "trick", "bids", "layout", "layout_history", "doubled",
             "contract", "deal_index")


def share(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """mean(xs) / mean(ys) on paired units (the same deal and seat) and its standard error by the
    delta method: the SE of the mean of ``x - r * y``, over ``|mean(ys)|`` (nan when ys average 0)."""
    if len(xs) != len(ys) or not xs:
        raise ValueError("share: paired, non-empty values")
    my = statistics.fmean(ys)
    if my == 0:
        return float("nan"), float("nan")
    r = statistics.fmean(xs) / my
    if len(xs) < 2:
        return r, float("nan")
    resid = [x - r * y for x, y in zip(xs, ys, strict=True)]
    return r, statistics.stdev(resid) / len(xs) ** 0.5 / abs(my)


def dd_cards(view: dict[str, Any], hands: list[list[str]]) -> dict[str, int]:
    """Each legal card of the viewing seat (by its action code ``play XX``), scored double-dummy on
    the true ``hands`` (the cards still held): the tricks its side takes from this trick on."""
    seat = int(view["seat"])
    trick = [(int(e["seat"]), C.parse(str(e["card"]))) for e in view.get("trick") or []]
    leader = trick[0][0] if trick else seat
    trump = C.parse_suit(str(view["trump"])) if view.get("trump") else None
    scored = dds.score_cards([C.mask_of(h) for h in hands], trump, leader, [c for _, c in trick])
    ours = sum(int((view.get("tricks") or [0] * 4)[s]) for s in (seat, (seat + 2) % 4))
    out: dict[str, int] = {}
    for a in view["legal"]:
        if str(a).startswith("play "):
            out[str(a)] = ours + scored[C.parse(str(a)[5:])]
    return out
