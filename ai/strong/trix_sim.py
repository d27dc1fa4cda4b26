"""A small, fast Trix simulator on card sets for the strong player's rollouts.

It is not the rules engine's game: it plays a deal out on card sets with a quick randomized
heuristic, but every rule it needs comes from the engine: the trick scoring with doubles and the
table's penalty values (``engine.trix.contracts.trick_points``, ``PENALTY_CARDS``) and the layout
(``engine.trix.layout``: rows are ``(low, high)``, ``(0, 0)`` before the jack).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import cards as C
from engine.trix import contracts as TC
from engine.trix import layout as L

KH = TC.KH
#: Per trick contract, the cards whose capture costs points (the engine's, by name).
PENALTY = {name: TC.PENALTY_CARDS[TC.CONTRACT_NAMES.index(name)] for name in ("king", "queens", "diamonds", "tricks")}
_ID = {name: TC.CONTRACT_NAMES.index(name) for name in PENALTY}
#: The layout's rows: four ``(low, high)`` pairs, ``(0, 0)`` before a row's jack (engine.trix.layout).
Rows = list[tuple[int, int]]
EMPTY_ROWS: tuple[tuple[int, int], ...] = ((0, 0),) * 4
#: a policy for one seat's trick moves: (contract, hand, cards out, trick, rng, eps) -> card
OwnPolicy = Callable[[str, int, int, list[tuple[int, int]], random.Random, float], int]


@dataclass(frozen=True, slots=True)
class Scoring:
    """The table's scoring options that rollouts need (rules.md §3.4 and X-B5)."""

    #: what taking K♥, a queen, a diamond and a trick costs (``swap_diamond_latoosh_values`` applied)
    values: tuple[int, int, int, int] = TC.DEFAULT_PENALTIES
    #: a doubler taking its own card: ``original_penalty``, ``leader_gains`` or ``double_no_bonus``
    self_capture: str = "original_penalty"

    def base(self, contract: str) -> int:
        """The value of one penalty unit of ``contract``."""
        return self.values[("king", "queens", "diamonds", "tricks").index(contract)]


DEFAULT_SCORING = Scoring()
#: the layout's points by finishing place, the engine's default ``trix_scores``
DEFAULT_SCORES: tuple[int, ...] = TC.DEFAULT_TRIX_SCORES


def card_value(contract: str, c: int) -> int:
    """1 if taking card ``c`` costs points under ``contract`` (doubles aside), else 0: the policy
    only ever compares penalty cards with free ones (one contract has one penalty value)."""
    return PENALTY[contract] >> c & 1


def score_trick(contract: str, winner: int, cards: list[int], doubled: dict[int, int], out: list[int],
                leader: int = 0, scoring: Scoring = DEFAULT_SCORING) -> None:
    """Add the trick's points to ``out`` (per seat) under ``contract`` and ``doubled`` {card: doubler}.

    ``leader`` led the trick (it gains under ``self_capture = leader_gains``).
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    if contract == "tricks":
        out[winner] -= scoring.values[3]
        return
    if not mask & PENALTY[contract]:
        return  # most tricks: nothing to score
    pts = TC.trick_points(_ID[contract], mask, winner=winner, leader=leader, doubles=tuple(doubled.items()),
                          penalties=scoring.values, self_capture=scoring.self_capture)
    for s in range(4):
        out[s] += pts[s]


def _suit_len(hand: int, c: int) -> int:
    return (hand & C.SUIT_MASK[c // 13]).bit_count()


def _lead(contract: str, hand: int, options: list[int]) -> int:
    """The rule player's lead (ai/heuristics_trix.py), on card sets."""
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
    if trick:
        led = trick[0][1] // 13
        legal = hand & C.SUIT_MASK[led]
        if legal:  # following suit (the usual case), on bits: one suit, so rank order is card order
            if not legal & (legal - 1):
                return legal.bit_length() - 1
            if eps and rng.random() < eps:  # (no draw at all without noise)
                return rng.choice(C.card_ids(legal))
            top = max(c for _, c in trick if c // 13 == led)
            under = legal & ((1 << top) - 1)
            if under:  # the highest card that still loses
                return under.bit_length() - 1
            free = legal & ~PENALTY[contract]
            if len(trick) == 3:  # every card wins: the highest that costs nothing
                return (free or legal).bit_length() - 1
            low = free or legal  # the lowest, a free one first
            return (low & -low).bit_length() - 1
        legal = hand
    else:
        led = None
        legal = hand
    options = C.card_ids(legal)
    if len(options) == 1:
        return options[0]
    if eps and rng.random() < eps:  # (no draw at all without noise)
        return rng.choice(options)
    if led is None:
        return _lead(contract, hand, options)
    return max(options, key=lambda c: (card_value(contract, c), c % 13, -_suit_len(hand, c)))


def rollout_tricks(contract: str, hands: list[int], trick: list[tuple[int, int]], leader: int,
                   doubled: dict[int, int], rng: random.Random, scoring: Scoring = DEFAULT_SCORING,
                   eps: float = 0.03, own: int = -1, policy: OwnPolicy | None = None) -> list[int]:
    """Play the trick contract out from here; return each seat's points from now on.

    With ``policy``, seat ``own`` plays by it (``policy(contract, hand, out, trick, rng, eps)``,
    ``out`` the cards in the other hands), every other seat by :func:`choose_trick_card`.
    """
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
        if seat == own and policy is not None:
            c = policy(contract, hands[seat], (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat],
                       trick, rng, eps)
        else:
            c = choose_trick_card(contract, hands[seat], trick, rng, eps)
        hands[seat] &= ~(1 << c)
        trick.append((seat, c))
        if len(trick) < 4:
            seat = (seat + 1) % 4
    return out


# ---------------------------------------------------------------------- layout (Trix contract)
def layout_legal(hand: int, rows: Rows) -> int:
    """The layout-legal cards of ``hand`` (rules.md X-L2, ``engine.trix.layout.open_cards``)."""
    return hand & L.open_cards(rows)


def place(rows: Rows, c: int) -> None:
    """Put card ``c`` on the layout (``engine.trix.layout.place``)."""
    s = C.suit_of(c)
    rows[s] = L.place(rows[s], C.rank_of(c))


def _layout_score(c: int, hand: int, rows: Rows) -> float:
    """The rule player's layout score: open the way for our own cards, not the others'.

    On bits: a legal card sits at an end of its row (or is its jack), so every card beyond it in
    the direction it opens is still off the table (``rows`` is not needed to count them).
    """
    base = c - c % 13
    r = c % 13 + 2
    score = 0.0
    for step in ((1, -1) if r == 11 else ((1,) if r > 11 else (-1,))):
        nxt = r + step
        if not 2 <= nxt <= 14:
            score += 1.0
            continue
        beyond = (((1 << (15 - nxt)) - 1) << (base + nxt - 2) if step > 0
                  else ((1 << (nxt - 1)) - 1) << base)
        own = (hand & beyond).bit_count()
        other = beyond.bit_count() - own
        score += 1.5 * own - 0.3 * other
        score += 1.0 if hand >> (base + nxt - 2) & 1 else -1.0
    return score


def choose_layout_card(hand: int, legal: int, rows: Rows, rng: random.Random,
                       eps: float = 0.03) -> int:
    """The rule player's layout choice, on card sets, with a little noise."""
    options = C.cards_of(legal)
    if len(options) == 1 or (eps and rng.random() < eps):
        return rng.choice(options)
    return max(options, key=lambda c: (_layout_score(c, hand, rows), -C.rank_of(c), -C.suit_of(c)))


def rollout_layout(hands: list[int], rows: Rows, seat: int, finished: list[int],
                   scores: tuple[int, ...], rng: random.Random, eps: float = 0.03,
                   own: int = -1, policy: Callable[[int, int, Rows], int] | None = None) -> list[int]:
    """Play the layout out from ``seat``'s turn; return each seat's points from now on.

    With ``policy`` (``(hand, legal, rows) -> card``), seat ``own`` plays by it (without noise)
    when it has a choice; every other move is the rule player's (:func:`choose_layout_card`).
    """
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
                if seat == own and policy is not None and legal & (legal - 1):
                    c = policy(hands[seat], legal, rows)
                else:
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


def rollout_contract(name: str, hands: list[int], leader: int, rng: random.Random,
                     scoring: Scoring = DEFAULT_SCORING,
                     scores: tuple[int, ...] = DEFAULT_SCORES) -> list[int]:
    """Play contract ``name`` out from its first lead by ``leader``; return each seat's points
    (the contract choice's rollouts: the layout by :func:`rollout_layout`, the rest by
    :func:`rollout_tricks`, each with its default noise)."""
    if name == "trix":
        return rollout_layout(hands, list(EMPTY_ROWS), leader, [], scores, rng)
    return rollout_tricks(name, hands, [], leader, {}, rng, scoring)
