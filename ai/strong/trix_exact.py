"""The strong Trix player's exact endgames: my choices searched, the others playing the policy.

In a trick contract (:func:`best_reply`) and in the layout (:func:`best_layout`) the others' cards
come from the same model the rollouts and the inference use (:mod:`ai.strong.trix_sim`, no
noise), so only my choices branch: a one-player search. The trick search is a branch and bound:
a line is given up once what it has lost so far is no better than the best line found (a penalty
never gains, so the rest of the deal cannot make up for it; only a live doubled card can, and
:func:`ceiling` counts those), and positions at the start of a trick reached by my cards in a
different order are looked up (a transposition table). ``cut=False`` searches every line: the
tests check both give the same value.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ai.strong import trix_infer as I
from ai.strong import trix_sim as S
from engine import cards as C

Trick = list[tuple[int, int]]
#: The trick search's table: hands and leader at a trick's start -> (value, whether it is exact)
Memo = dict[tuple[int, int, int, int, int], tuple[float, bool]]


def ceiling(contract: str, hands: list[int], trick: Trick, doubled: dict[int, int], sc: S.Scoring) -> float:
    """The most a seat can score from here in a trick contract: a penalty never gains, only a
    doubled card still in play can (its doubler's bonus, or the leader's under ``leader_gains``)."""
    if not doubled:
        return 0.0
    live = hands[0] | hands[1] | hands[2] | hands[3]
    for _, c in trick:
        live |= 1 << c
    return float(sc.base(contract) * sum(1 for c in doubled if live >> c & 1))


def penalty_left(contract: str, hands: list[int]) -> bool:
    return bool((hands[0] | hands[1] | hands[2] | hands[3]) & S.PENALTY[contract])


class TooDeep(Exception):
    """The bounded search visited more positions than it was given (:class:`Budget`)."""


class Budget:
    """Positions a bounded trick search may still visit (shared by the searches of one deal)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


def best_reply(contract: str, hands: list[int], trick: Trick, seat: int, doubled: dict[int, int],
               sc: S.Scoring, me: int, cut: bool = True, budget: Budget | None = None) -> float:
    """My points from here when I choose my cards best and the others play the sensible policy.

    ``trick`` is the trick so far (possibly complete) and ``seat`` the next to play in it. With
    ``cut`` (the default) the search is bounded and remembers positions; the value is the same.
    With a ``budget`` it raises :class:`TooDeep` once that many positions were visited.
    """
    if not cut:
        return _full(contract, list(hands), list(trick), seat, doubled, sc, me)
    memo: Memo = {}
    return _bounded(contract, list(hands), list(trick), seat, doubled, sc, me, -1e9, memo,
                    budget or Budget(1 << 62))


def _trick_points(contract: str, trick: Trick, doubled: dict[int, int], sc: S.Scoring) -> tuple[int, list[int]]:
    cards = [c for _, c in trick]
    w = trick[C.trick_winner(cards, None)][0]
    pts = [0, 0, 0, 0]
    S.score_trick(contract, w, cards, doubled, pts, trick[0][0], sc)
    return w, pts


def _over(contract: str, hands: list[int], w: int) -> bool:
    return not hands[w] or (contract != "tricks" and not penalty_left(contract, hands))


def _others(contract: str, hands: list[int], trick: Trick, seat: int, me: int) -> tuple[list[int], Trick, int]:
    """The others' policy moves until the trick is complete or it is my turn."""
    hands = list(hands)
    trick = list(trick)
    while len(trick) < 4 and seat != me:
        c = S.choose_trick_card(contract, hands[seat], trick, I.QUIET_RNG, eps=0.0)
        hands[seat] &= ~(1 << c)
        trick.append((seat, c))
        seat = (seat + 1) % 4
    return hands, trick, seat


def _full(contract: str, hands: list[int], trick: Trick, seat: int, doubled: dict[int, int],
          sc: S.Scoring, me: int) -> float:
    """Every line of my choices (the reference the bounded search must agree with)."""
    hands, trick, seat = _others(contract, hands, trick, seat, me)
    if len(trick) == 4:
        w, pts = _trick_points(contract, trick, doubled, sc)
        if _over(contract, hands, w):
            return pts[me]
        return pts[me] + _full(contract, hands, [], w, doubled, sc, me)
    led = C.suit_of(trick[0][1]) if trick else None
    best = -1e9
    for c in C.cards_of(C.legal_mask(hands[me], led)):
        nh = list(hands)
        nh[me] &= ~(1 << c)
        best = max(best, _full(contract, nh, [*trick, (me, c)], (me + 1) % 4, doubled, sc, me))
    return best


def _bounded(contract: str, hands: list[int], trick: Trick, seat: int, doubled: dict[int, int],
             sc: S.Scoring, me: int, lo: float, memo: Memo, budget: Budget) -> float:
    """Fail-soft branch and bound: the exact value when it is above ``lo``, else a bound on it that
    is at most ``lo`` (so a caller with a line worth ``lo`` already loses nothing by the cut)."""
    budget.left -= 1
    if budget.left < 0:
        raise TooDeep
    key = None
    if not trick:
        key = (hands[0], hands[1], hands[2], hands[3], seat)
        hit = memo.get(key)
        if hit is not None and (hit[1] or hit[0] <= lo):
            return hit[0]
        top = ceiling(contract, hands, [], doubled, sc)
        if top <= lo:
            return top
    hands, trick, seat = _others(contract, hands, trick, seat, me)
    if len(trick) == 4:
        w, pts = _trick_points(contract, trick, doubled, sc)
        if _over(contract, hands, w):
            v = float(pts[me])
        else:
            v = pts[me] + _bounded(contract, hands, [], w, doubled, sc, me, lo - pts[me], memo, budget)
    else:
        top = ceiling(contract, hands, trick, doubled, sc)
        led = C.suit_of(trick[0][1]) if trick else None
        v = -1e9
        for c in C.cards_of(C.legal_mask(hands[me], led)):
            nh = list(hands)
            nh[me] &= ~(1 << c)
            v = max(v, _bounded(contract, nh, [*trick, (me, c)], (me + 1) % 4, doubled, sc, me, max(lo, v),
                                memo, budget))
            if v >= top:
                break
    if key is not None:
        memo[key] = (v, v > lo)
    return v


def best_layout(hands: list[int], rows: S.Rows, seat: int, finished: list[int], scores: tuple[int, ...],
                me: int, cut: bool = True, budget: Budget | None = None) -> float:
    """My layout points from ``seat``'s turn on when I choose my cards best and the others play the
    sensible policy (as :func:`best_reply` does for tricks): the others' moves are followed in a
    loop, my choices are tried one by one (with ``cut``, no more once one reaches the best place
    still open: nothing can score more). With a ``budget`` (of moves followed) it raises
    :class:`TooDeep` when the budget runs out."""
    hands = list(hands)
    rows = list(rows)
    finished = list(finished)
    for _ in range(400):
        if len(finished) >= 3 or me in finished:
            break
        if budget is not None:
            budget.left -= 1
            if budget.left < 0:
                raise TooDeep
        hand = hands[seat]
        legal = S.layout_legal(hand, rows) if hand else 0
        if legal and seat == me and legal & (legal - 1):
            best = -1e9
            for c in C.card_ids(legal):
                nh = list(hands)
                nh[me] &= ~(1 << c)
                nr = list(rows)
                S.place(nr, c)
                got = 0.0
                nf = finished
                if not nh[me]:
                    got = scores[len(finished)]
                    nf = [*finished, me]
                best = max(best, got + best_layout(nh, nr, (me + 1) % 4, nf, scores, me, cut, budget))
                if cut and best >= max(scores[len(finished):]):
                    break
            return best
        if legal:
            c = (legal.bit_length() - 1 if not legal & (legal - 1)
                 else S.choose_layout_card(hand, legal, rows, I.QUIET_RNG, eps=0.0))
            hands[seat] &= ~(1 << c)
            S.place(rows, c)
            if not hands[seat]:
                if seat == me:
                    return float(scores[len(finished)])
                finished.append(seat)
        seat = (seat + 1) % 4
    if me in finished:
        return 0.0
    return float(scores[3]) if len(finished) >= 3 else 0.0


def rollout_then_exact(hands: list[int], rows: S.Rows, seat: int, finished: list[int],
                       scores: tuple[int, ...], me: int, rng: random.Random, eps: float,
                       own: Callable[[int, int, S.Rows], int] | None, at: int, nodes: int) -> float:
    """My layout points from ``seat``'s turn: the deal played out as :func:`trix_sim.rollout_layout`
    does (my choices by ``own`` if given), until it is my turn with at most ``at`` cards: from there
    on my moves are searched exactly (:func:`best_layout`, at most ``nodes`` moves followed; beyond
    that the play-out goes on)."""
    if me in finished:
        return 0.0
    hands = list(hands)
    rows = list(rows)
    finished = list(finished)
    for _ in range(400):
        if len(finished) >= 3:
            break
        hand = hands[seat]
        if hand:
            legal = S.layout_legal(hand, rows)
            if seat == me and legal & (legal - 1) and hand.bit_count() <= at:
                try:
                    return best_layout(hands, rows, seat, finished, scores, me, budget=Budget(nodes))
                except TooDeep:
                    at = 0
            if legal:
                if seat == me and own is not None and legal & (legal - 1):
                    c = own(hand, legal, rows)
                else:
                    c = S.choose_layout_card(hand, legal, rows, rng, eps)
                hands[seat] &= ~(1 << c)
                S.place(rows, c)
                if not hands[seat]:
                    if seat == me:
                        return float(scores[len(finished)])
                    finished.append(seat)
        seat = (seat + 1) % 4
    if me in finished:
        return 0.0
    return float(scores[3]) if len(finished) >= 3 else 0.0
