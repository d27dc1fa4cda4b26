"""A small, fast Trix simulator on card sets for the strong player's rollouts.

It is not the rules engine: it knows only what a rollout needs (the four trick contracts'
scoring with doubles, and the layout contract) and plays with a quick randomized heuristic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import cards as C

KH = C.card(13, C.HEARTS)
QUEENS = tuple(C.card(12, s) for s in range(4))
QUEEN_MASK = sum(1 << q for q in QUEENS)
DIAMOND_MASK = C.SUIT_MASK[C.DIAMONDS]
PENALTY = {"king": 1 << KH, "queens": QUEEN_MASK, "diamonds": DIAMOND_MASK, "tricks": 0}


@dataclass(frozen=True, slots=True)
class Scoring:
    """The table's scoring options that rollouts need (rules.md §3.4 and X-B5)."""

    #: what taking K♥, a queen, a diamond and a trick costs (``swap_diamond_latoosh_values`` applied)
    values: tuple[int, int, int, int] = (75, 25, 10, 15)
    #: a doubler taking its own card: ``original_penalty``, ``leader_gains`` or ``double_no_bonus``
    self_capture: str = "original_penalty"

    def base(self, contract: str) -> int:
        """The value of one penalty unit of ``contract``."""
        return self.values[("king", "queens", "diamonds", "tricks").index(contract)]


DEFAULT_SCORING = Scoring()


def card_value(contract: str, c: int) -> int:
    """The penalty (positive) of taking card ``c`` under ``contract``, doubles aside."""
    if contract == "king":
        return 75 if c == KH else 0
    if contract == "queens":
        return 25 if c % 13 == 10 else 0
    if contract == "diamonds":
        return 10 if c // 13 == C.DIAMONDS else 0
    return 0


def score_trick(contract: str, winner: int, cards: list[int], doubled: dict[int, int], out: list[int],
                leader: int = 0, scoring: Scoring = DEFAULT_SCORING) -> None:
    """Add the trick's points to ``out`` (per seat) under ``contract`` and ``doubled`` {card: doubler}.

    ``leader`` led the trick (it gains under ``self_capture = leader_gains``).
    """
    unit = scoring.base(contract)
    if contract == "tricks":
        out[winner] -= unit
        return
    self_capture = scoring.self_capture
    for c in cards:
        if not card_value(contract, c):
            continue
        v = unit
        d = doubled.get(c)
        if d is None or (d == winner and self_capture == "original_penalty"):
            out[winner] -= v
        elif d != winner:
            out[winner] -= 2 * v
            out[d] += v
        else:
            out[winner] -= 2 * v
            if self_capture == "leader_gains":
                out[leader] += v


def _suit_len(hand: int, c: int) -> int:
    return (hand & C.SUIT_MASK[c // 13]).bit_count()


def _lead(contract: str, hand: int, options: list[int]) -> int:
    """The rule player's lead (bot/ai/heuristics_trix.py), on card sets."""
    if contract == "king" and not hand >> KH & 1 and not hand >> C.card(14, C.HEARTS) & 1:
        low = [c for c in options if c // 13 == C.HEARTS and C.rank_of(c) <= 10]
        if low:
            return min(low)
    if contract == "king" and hand >> KH & 1:
        side = [c for c in options if c // 13 != C.HEARTS]
        if side:
            return min(side, key=lambda c: (_suit_len(hand, c), c % 13))
    if contract == "queens":
        safe = [c for c in options if not hand >> C.card(12, c // 13) & 1 and C.rank_of(c) < 12]
        if safe:
            return min(safe, key=lambda c: (c % 13, -_suit_len(hand, c)))
    if contract == "diamonds":
        low_d = [c for c in options if c // 13 == C.DIAMONDS and C.rank_of(c) <= 5]
        other = [c for c in options if c // 13 != C.DIAMONDS]
        if other and not low_d:
            return min(other, key=lambda c: (c % 13, -_suit_len(hand, c)))
    return min(options, key=lambda c: (card_value(contract, c) > 0, c % 13, -_suit_len(hand, c)))


def choose_trick_card(contract: str, hand: int, trick: list[tuple[int, int]], rng: random.Random,
                      eps: float = 0.03) -> int:
    """The rule player's trick play, on card sets: duck, shed the costliest card when void, lead low.

    Rollouts model every seat with it (it is also what the "easy" AI plays), with a little noise.
    """
    led = C.suit_of(trick[0][1]) if trick else None
    legal = C.legal_mask(hand, led)
    options = C.cards_of(legal)
    if len(options) == 1:
        return options[0]
    if eps and rng.random() < eps:  # (no draw at all without noise)
        return rng.choice(options)
    if led is None:
        return _lead(contract, hand, options)
    if not legal & C.SUIT_MASK[led]:
        return max(options, key=lambda c: (card_value(contract, c), c % 13, -_suit_len(hand, c)))
    top = max(c for _, c in trick if C.suit_of(c) == led)
    under = [c for c in options if c < top]
    if under:
        return max(under, key=lambda c: (c % 13, card_value(contract, c)))
    if len(trick) == 3:
        return max(options, key=lambda c: (-card_value(contract, c), c % 13))
    return min(options, key=lambda c: (card_value(contract, c), c % 13))


def rollout_tricks(contract: str, hands: list[int], trick: list[tuple[int, int]], leader: int,
                   doubled: dict[int, int], rng: random.Random, scoring: Scoring = DEFAULT_SCORING,
                   eps: float = 0.03) -> list[int]:
    """Play the trick contract out from here; return each seat's points from now on."""
    hands = list(hands)
    out = [0, 0, 0, 0]
    trick = list(trick)
    pen_left = 0
    for h in hands:
        pen_left |= h & PENALTY[contract]
    for _, c in trick:
        pen_left |= (1 << c) & PENALTY[contract]
    seat = (leader + len(trick)) % 4
    while True:
        if len(trick) == 4:
            cards = [x for _, x in trick]
            w = trick[C.trick_winner(cards, None)][0]
            score_trick(contract, w, cards, doubled, out, trick[0][0], scoring)
            for x in cards:
                pen_left &= ~(1 << x)
            trick = []
            seat = w
            if contract != "tricks" and not pen_left:
                break
        if not hands[seat]:
            break
        c = choose_trick_card(contract, hands[seat], trick, rng, eps)
        hands[seat] &= ~(1 << c)
        trick.append((seat, c))
        if len(trick) < 4:
            seat = (seat + 1) % 4
    return out


# ---------------------------------------------------------------------- layout (Trix contract)
def layout_legal(hand: int, rows: list[tuple[int, int] | None]) -> int:
    """The layout-legal cards of ``hand``; ``rows[s]`` is (low rank, high rank) or None."""
    m = 0
    for s in range(4):
        row = rows[s]
        if row is None:
            m |= hand & (1 << C.card(11, s))
        else:
            lo, hi = row
            if lo > 2:
                m |= hand & (1 << C.card(lo - 1, s))
            if hi < 14:
                m |= hand & (1 << C.card(hi + 1, s))
    return m


def place(rows: list[tuple[int, int] | None], c: int) -> None:
    """Put card ``c`` on the layout."""
    s, r = C.suit_of(c), C.rank_of(c)
    row = rows[s]
    if row is None:
        rows[s] = (r, r)
    else:
        rows[s] = (min(row[0], r), max(row[1], r))


def _layout_score(c: int, hand: int, rows: list[tuple[int, int] | None]) -> float:
    """The rule player's layout score: open the way for our own cards, not the others'."""
    s, r = C.suit_of(c), C.rank_of(c)
    row = rows[s]
    lo, hi = row if row is not None else (99, 0)
    score = 0.0
    for step in ((1, -1) if r == 11 else ((1,) if r > 11 else (-1,))):
        nxt = r + step
        if not 2 <= nxt <= 14:
            score += 1.0
            continue
        own = other = 0
        x = nxt
        while 2 <= x <= 14:
            if not lo <= x <= hi:
                if hand >> C.card(x, s) & 1:
                    own += 1
                else:
                    other += 1
            x += step
        score += 1.5 * own - 0.3 * other
        score += 1.0 if hand >> C.card(nxt, s) & 1 else -1.0
    return score


def choose_layout_card(hand: int, legal: int, rows: list[tuple[int, int] | None], rng: random.Random,
                       eps: float = 0.03) -> int:
    """The rule player's layout choice, on card sets, with a little noise."""
    options = C.cards_of(legal)
    if len(options) == 1 or (eps and rng.random() < eps):
        return rng.choice(options)
    return max(options, key=lambda c: (_layout_score(c, hand, rows), -C.rank_of(c), -C.suit_of(c)))


def rollout_layout(hands: list[int], rows: list[tuple[int, int] | None], seat: int, finished: list[int],
                   scores: tuple[int, ...], rng: random.Random, eps: float = 0.03) -> list[int]:
    """Play the layout out from ``seat``'s turn; return each seat's points from now on."""
    hands = list(hands)
    rows = list(rows)
    finished = list(finished)
    out = [0, 0, 0, 0]
    guard = 0
    while len(finished) < 3 and guard < 400:
        guard += 1
        if hands[seat]:
            legal = layout_legal(hands[seat], rows)
            if legal:
                c = choose_layout_card(hands[seat], legal, rows, rng, eps)
                hands[seat] &= ~(1 << c)
                place(rows, c)
                if not hands[seat]:
                    out[seat] += scores[len(finished)]
                    finished.append(seat)
        seat = (seat + 1) % 4
    if len(finished) == 3:
        last = next(s for s in range(4) if s not in finished)
        out[last] += scores[3]
    return out
