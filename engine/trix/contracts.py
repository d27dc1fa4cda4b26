"""The Trix contracts, the variant options and the penalty scoring of one trick (rules.md §3.2).

Contract ids are small ints; their action words are ``CONTRACT_NAMES``.

The merged contract of ``mode="complex"`` (word ``complex``) scores every penalty of the four
trick contracts in one deal: the taker of K♥ scores −K, each queen −Q, each diamond −D and each
trick −L (defaults −75, −25, −10, −15; Q♦ is both a queen and a diamond, so −35). The total of a
merged deal is therefore −(K + 4Q + 13D + 13L) = −500 by default, and with the +500 of the Trix
deal every kingdom still sums to 0. Because every trick costs points, a merged deal always plays
all 13 tricks (no early end). K♥ and the queens may be doubled in it, scored as in X-B5, and the
King-of-hearts restriction options apply to it as to the K♥ contract.

>>> trick_points(KING, 1 << KH, winner=1, leader=0, doubles=((KH, 3),), penalties=(75, 25, 10, 15),
...              self_capture="original_penalty")
[0, -150, 0, 75]
"""

from __future__ import annotations

from engine import cards as C
from engine.base import Option

KING, QUEENS, DIAMONDS, TRICKS, TRIX, COMPLEX = 0, 1, 2, 3, 4, 5
CONTRACT_NAMES: tuple[str, ...] = ("king", "queens", "diamonds", "tricks", "trix", "complex")
#: The contracts of one kingdom in the seed's order (X-A1 picks the first unplayed one).
KINGDOM_CONTRACTS: dict[str, tuple[int, ...]] = {
    "kingdoms": (KING, QUEENS, DIAMONDS, TRICKS, TRIX),
    "complex": (COMPLEX, TRIX),
}

KH = C.card(13, C.HEARTS)
AH = C.card(14, C.HEARTS)
QUEEN_MASK = sum(1 << C.card(12, s) for s in range(4))
DIAMOND_MASK = C.SUIT_MASK[C.DIAMONDS]
KH_BIT = 1 << KH

#: Cards that may be doubled in each contract (X-B1); 0 means no doubling phase.
DOUBLABLE: tuple[int, ...] = (KH_BIT, QUEEN_MASK, 0, 0, 0, KH_BIT | QUEEN_MASK)
#: Cards whose capture costs points (the early-end test of X-T4).
PENALTY_CARDS: tuple[int, ...] = (KH_BIT, QUEEN_MASK, DIAMOND_MASK, 0, 0, 0)
#: Per contract, the cards whose capture may change a score beyond the trick itself.
SCORING: tuple[int, ...] = (KH_BIT, QUEEN_MASK, 0, 0, 0, C.FULL_DECK)

#: what taking K♥, a queen, a diamond and a trick costs, and the layout's points by finishing place,
#: unless the table's options say otherwise
DEFAULT_PENALTIES: tuple[int, int, int, int] = (75, 25, 10, 15)
DEFAULT_TRIX_SCORES: tuple[int, int, int, int] = (200, 150, 100, 50)
OPTIONS: tuple[Option, ...] = (
    Option("mode", "kingdoms", ("kingdoms", "complex")),
    Option("first_owner_rule", "seven_of_hearts", ("seven_of_hearts", "fixed_seat", "random")),
    Option("first_deal_is_played", True, (True, False)),
    Option("owner_sees_cards_before_choice", True, (True, False)),
    Option("kingdom_direction", "right", ("right",)),
    Option("doubling", "on", ("on", "off", True, False)),
    Option("doubling_procedure", "sequential_private", ("sequential_private", "sequential_public")),
    Option("self_capture", "original_penalty", ("original_penalty", "leader_gains", "double_no_bonus")),
    Option("no_heart_lead_in_king", False, (True, False)),
    Option("king_must_be_discarded_when_void", False, (True, False)),
    Option("king_on_ace_of_hearts", False, (True, False)),
    Option("early_end", True, (True, False)),
    Option("penalties", list(DEFAULT_PENALTIES)),
    Option("trix_scores", list(DEFAULT_TRIX_SCORES)),
    Option("auto_pass_in_layout", True, (True, False)),
    Option("partnership", False, (True, False)),
    Option("partnership_expose_twos", False, (True, False)),
    Option("swap_diamond_latoosh_values", False, (True, False)),
    #: ``any``: the kingdom's contracts; one contract's name: every deal is that contract, chosen
    #: automatically (a duplicate challenge's Trix board, bot/core/challenges.py); 4 deals in all
    Option("only_contract", "any", ("any", *CONTRACT_NAMES)),
)


def deal_total(contract: int, penalties: tuple[int, int, int, int], trix_scores: tuple[int, ...]) -> int:
    """The sum of one deal's deltas without doubling bonuses (X-T5, X-L7).

    >>> [deal_total(c, (75, 25, 10, 15), (200, 150, 100, 50)) for c in range(6)]
    [-75, -100, -130, -195, 500, -500]
    """
    k, q, d, t = penalties
    if contract == TRIX:
        return sum(trix_scores)
    return -(
        (k if contract in (KING, COMPLEX) else 0)
        + (4 * q if contract in (QUEENS, COMPLEX) else 0)
        + (13 * d if contract in (DIAMONDS, COMPLEX) else 0)
        + (13 * t if contract in (TRICKS, COMPLEX) else 0)
    )


def scoring_cards(contract: int, mask: int) -> int:
    """The cards of ``mask`` that score in ``contract`` (shown as ``taken`` in views)."""
    if contract == KING:
        return mask & KH_BIT
    if contract == QUEENS:
        return mask & QUEEN_MASK
    if contract == DIAMONDS:
        return mask & DIAMOND_MASK
    if contract == COMPLEX:
        return mask & (KH_BIT | QUEEN_MASK | DIAMOND_MASK)
    return 0


def trick_points(
    contract: int,
    mask: int,
    *,
    winner: int,
    leader: int,
    doubles: tuple[tuple[int, int], ...],
    penalties: tuple[int, int, int, int],
    self_capture: str,
) -> list[int]:
    """The per-seat points of one trick ``mask`` taken by ``winner`` (X-T3, X-B5, complex).

    ``doubles`` holds ``(card, doubler)`` pairs; ``leader`` led the trick (for ``leader_gains``).
    """
    k, q, d, t = penalties
    out = [0, 0, 0, 0]
    if contract in (TRICKS, COMPLEX):
        out[winner] -= t
    if contract in (DIAMONDS, COMPLEX):
        out[winner] -= d * (mask & DIAMOND_MASK).bit_count()
    if contract in (KING, COMPLEX) and mask & KH_BIT:
        _penalty_card(out, KH, k, winner=winner, leader=leader, doubles=doubles, self_capture=self_capture)
    if contract in (QUEENS, COMPLEX) and mask & QUEEN_MASK:
        for c in C.cards_of(mask & QUEEN_MASK):
            _penalty_card(out, c, q, winner=winner, leader=leader, doubles=doubles, self_capture=self_capture)
    return out


def _penalty_card(
    out: list[int],
    card: int,
    value: int,
    *,
    winner: int,
    leader: int,
    doubles: tuple[tuple[int, int], ...],
    self_capture: str,
) -> None:
    doubler = -1
    for c, s in doubles:
        if c == card:
            doubler = s
    if doubler < 0:
        out[winner] -= value
    elif doubler != winner:
        out[winner] -= 2 * value
        out[doubler] += value
    elif self_capture == "original_penalty":
        out[winner] -= value
    elif self_capture == "leader_gains":
        out[winner] -= 2 * value
        out[leader] += value
    else:
        out[winner] -= 2 * value
