"""A small, fast Trix simulator on card sets for the strong player's rollouts.

It is not the rules engine: it knows only what a rollout needs (the four trick contracts'
scoring with doubles, and the layout contract) and plays with a quick randomized heuristic.
"""

from __future__ import annotations

import random

from engine import cards as C

KH = C.card(13, C.HEARTS)
QUEENS = tuple(C.card(12, s) for s in range(4))
QUEEN_MASK = sum(1 << q for q in QUEENS)
DIAMOND_MASK = C.SUIT_MASK[C.DIAMONDS]
PENALTY = {"king": 1 << KH, "queens": QUEEN_MASK, "diamonds": DIAMOND_MASK, "tricks": 0}
BASE = {"king": 75, "queens": 25, "diamonds": 10, "tricks": 15}


def card_value(contract: str, c: int) -> int:
    """The penalty (positive) of taking card ``c`` under ``contract``, doubles aside."""
    if contract == "king":
        return 75 if c == KH else 0
    if contract == "queens":
        return 25 if c % 13 == 10 else 0
    if contract == "diamonds":
        return 10 if c // 13 == C.DIAMONDS else 0
    return 0


def score_trick(contract: str, winner: int, cards: list[int], doubled: dict[int, int], out: list[int]) -> None:
    """Add the trick's points to ``out`` (per seat) under ``contract`` and ``doubled`` {card: doubler}."""
    if contract == "tricks":
        out[winner] -= 15
        return
    for c in cards:
        v = card_value(contract, c)
        if not v:
            continue
        d = doubled.get(c)
        if d is None or d == winner:
            out[winner] -= v
        else:
            out[winner] -= 2 * v
            out[d] += v


def _danger(contract: str, c: int) -> int:
    """How much a card hurts its taker, for the discard heuristic (higher: shed first)."""
    v = card_value(contract, c) * 4
    r = C.rank_of(c)
    if contract == "king" and c // 13 == C.HEARTS:
        v += r  # high hearts may have to take the king
    if contract == "queens" and r > 12:
        v += 8  # kings and aces may have to take a queen
    return v + r


def choose_trick_card(contract: str, hand: int, trick: list[tuple[int, int]], rng: random.Random,
                      eps: float = 0.1) -> int:
    """A quick heuristic card: duck under the winning card, shed danger when void, lead low."""
    led = C.suit_of(trick[0][1]) if trick else None
    legal = C.legal_mask(hand, led)
    options = C.cards_of(legal)
    if len(options) == 1:
        return options[0]
    if rng.random() < eps:
        return rng.choice(options)
    if led is None:
        # lead the lowest card of the suit where we are lowest; avoid leading danger
        return min(options, key=lambda c: (_danger(contract, c) if card_value(contract, c) else 0,
                                           C.rank_of(c), rng.random()))
    follow = legal & C.SUIT_MASK[led]
    if follow:
        top = max(c for _, c in trick if C.suit_of(c) == led)
        under = [c for c in options if c < top]
        if under:
            return max(under)  # highest card that still ducks
        if len(trick) == 3:
            pen = sum(card_value(contract, c) for _, c in trick)
            if pen == 0 and contract != "tricks":
                # we win anyway: win with the highest, but never with a penalty card
                safe = [c for c in options if not card_value(contract, c)]
                return max(safe or options)
        safe = [c for c in options if not card_value(contract, c)]
        return min(safe or options)
    return max(options, key=lambda c: (_danger(contract, c), rng.random()))


def rollout_tricks(contract: str, hands: list[int], trick: list[tuple[int, int]], leader: int,
                   doubled: dict[int, int], rng: random.Random) -> list[int]:
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
            score_trick(contract, w, cards, doubled, out)
            for x in cards:
                pen_left &= ~(1 << x)
            trick = []
            seat = w
            if contract != "tricks" and not pen_left:
                break
        if not hands[seat]:
            break
        c = choose_trick_card(contract, hands[seat], trick, rng)
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


def choose_layout_card(hand: int, legal: int, rng: random.Random, eps: float = 0.1) -> int:
    """Prefer cards that lead on to more of our own cards; avoid opening rows for others."""
    options = C.cards_of(legal)
    if len(options) == 1 or rng.random() < eps:
        return rng.choice(options)

    def gain(c: int) -> tuple[int, float]:
        s, r = C.suit_of(c), C.rank_of(c)
        mine = 0
        if r == 11:
            mine = sum(1 for x in C.cards_of(hand & C.SUIT_MASK[s]) if x != c)
        elif r < 11:
            mine = sum(1 for x in C.cards_of(hand & C.SUIT_MASK[s]) if C.rank_of(x) < r)
        else:
            mine = sum(1 for x in C.cards_of(hand & C.SUIT_MASK[s]) if C.rank_of(x) > r)
        return (mine, rng.random())

    return max(options, key=gain)


def rollout_layout(hands: list[int], rows: list[tuple[int, int] | None], seat: int, finished: list[int],
                   scores: tuple[int, ...], rng: random.Random) -> list[int]:
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
                c = choose_layout_card(hands[seat], legal, rng)
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
