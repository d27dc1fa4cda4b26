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


# ------------------------------------------------------------------ partner measures (--game partner)
def _trump(view: dict[str, Any]) -> int | None:
    t = view.get("trump")
    return C.parse_suit(str(t)) if t and str(t) != "N" else None


def ruff_over_partner(view: dict[str, Any], action: str) -> tuple[bool, bool] | None:
    """Whether ``action`` ruffs a trick the seat's partner is winning, where a discard was legal.

    None when the position is no such chance: not a Tarneeb card play, nothing led yet, no trump,
    trumps led, the partner's card not the winning one so far, or the seat's legal cards not both a
    trump and a card of another suit (it must follow, or cannot ruff, or must). Otherwise
    ``(ruffed, sure)``: ``ruffed`` when the card played is a trump; ``sure`` when the seat plays
    last to the trick, so the partner's card would have won it for certain."""
    if view.get("phase") != "play" or not str(action).startswith("play "):
        return None
    trick = view.get("trick") or []
    trump = _trump(view)
    if not trick or trump is None:
        return None
    seat = int(view["seat"])
    cards = [C.parse(str(e["card"])) for e in trick]
    if C.suit_of(cards[0]) == trump or int(trick[C.trick_winner(cards, trump)]["seat"]) != (seat + 2) % 4:
        return None
    legal = [C.parse(str(a)[5:]) for a in view.get("legal") or [] if str(a).startswith("play ")]
    if any(C.suit_of(c) == C.suit_of(cards[0]) for c in legal):
        return None  # it follows suit: no ruff to choose
    if not any(C.suit_of(c) == trump for c in legal) or all(C.suit_of(c) == trump for c in legal):
        return None
    return C.suit_of(C.parse(str(action)[5:])) == trump, len(trick) == 3


def overbids_partner(view: dict[str, Any], action: str) -> bool | None:
    """Classic Tarneeb: whether ``action`` bids over the seat's partner when the partner's bid has
    already won the auction (the partner holds the high bid and both opponents have passed, so
    passing ends the auction with the partner's contract). None: no such position."""
    if view.get("game") != "tarneeb" or view.get("phase") != "bid":
        return None
    seat = int(view["seat"])
    high = view.get("high_bid")
    if not high or int(high["seat"]) != (seat + 2) % 4:
        return None
    passed = view.get("passed") or [False] * 4
    if not (passed[(seat + 1) % 4] and passed[(seat + 3) % 4]):
        return None
    legal = [str(a) for a in view.get("legal") or []]
    if "pass" not in legal or not any(a.startswith("bid ") for a in legal):
        return None
    return str(action) != "pass"


def jumps_near_target(view: dict[str, Any], action: str) -> bool | None:
    """Classic Tarneeb, the match score near the target: whether a bid of the seat's is higher than
    the lowest legal bid when making the lowest would already win the match (a made contract scores
    at least its bid, so a jump only adds the risk of failing). None: a pass, no bid to make, or
    the seat's side not that near the target."""
    if view.get("game") != "tarneeb" or view.get("phase") != "bid" or not str(action).startswith("bid "):
        return None
    bids = sorted(int(str(a)[4:]) for a in view.get("legal") or [] if str(a).startswith("bid "))
    if not bids:
        return None
    seat = int(view["seat"])
    ours = int(((view.get("scores") or {}).get("teams") or [0, 0])[seat % 2])
    if ours + bids[0] < int(view.get("target") or 31) or bids[0] == 13:
        return None
    return int(str(action)[4:]) > bids[0]


def rate(units: list[tuple[int, int]]) -> tuple[float, float, int, int]:
    """Pooled rate of ``(hits, chances)`` per deal: hits / chances, its standard error as a ratio
    estimator over deals (chances in the same deal are not independent), the hits and the chances."""
    hits = sum(h for h, _ in units)
    chances = sum(c for _, c in units)
    if not chances:
        return float("nan"), float("nan"), 0, 0
    r = hits / chances
    n = len(units)
    if n < 2:
        return r, float("nan"), hits, chances
    resid = sum((h - r * c) ** 2 for h, c in units)
    return r, (resid * n / (n - 1)) ** 0.5 / chances, hits, chances
