"""Cards as small integers and card sets as 52-bit integers.

A card index is ``suit * 13 + (rank - 2)``, suits in the tie-break order of rules.md §0.2:
clubs 0, diamonds 1, hearts 2, spades 3. A set of cards is an ``int`` with bit ``index`` set.
Card codes (``"TD"``, ``"AS"``) appear only at the edges: parsing, views and events.

>>> code(parse("10d"))
'TD'
>>> [code(c) for c in cards_of(mask_of(["AS", "2C"]))]
['2C', 'AS']
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_CODES: tuple[str, ...] = ("C", "D", "H", "S")
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
FULL_DECK = (1 << 52) - 1
SUIT_MASK: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
#: The other suit of the same colour (rules.md S-D4): hearts <-> diamonds, clubs <-> spades.
SISTER_SUIT: tuple[int, ...] = (SPADES, HEARTS, DIAMONDS, CLUBS)

CODES: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
_INDEX = {c: i for i, c in enumerate(CODES)}


def _suit_table(base: int) -> tuple[tuple[int, ...], ...]:
    t: list[tuple[int, ...]] = [()] * 8192
    for m in range(1, 8192):
        low = m & -m
        t[m] = (base + low.bit_length() - 1, *t[m ^ low])
    return tuple(t)


#: ``SUIT_IDS[s][m]``: the card indexes of the 13-bit rank mask ``m`` in suit ``s``, ascending
#: (the search fast path's lookup table: a legal follow is one index, no loop).
SUIT_IDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_suit_table(13 * s) for s in range(4))


def suit_of(card: int) -> int:
    """The suit index (0..3) of a card index."""
    return card // 13


def rank_of(card: int) -> int:
    """The rank value (2..14, ace high) of a card index."""
    return card % 13 + 2


def card(rank: int, suit: int) -> int:
    """The card index of a rank value (2..14) and a suit index."""
    return suit * 13 + rank - 2


def code(c: int) -> str:
    """The canonical two-character code of a card index."""
    return CODES[c]


def parse(text: str) -> int:
    """A card index from a code; lower case and ``10`` for ``T`` are accepted.

    Raises ``ValueError`` for anything else.
    """
    t = text.strip().upper()
    if t.startswith("10") and len(t) == 3:
        t = "T" + t[2]
    i = _INDEX.get(t)
    if i is None:
        raise ValueError(f"not a card: {text!r}")
    return i


def parse_suit(text: str) -> int:
    """A suit index from ``S``/``H``/``D``/``C`` (any case)."""
    t = text.strip().upper()
    if len(t) != 1 or t not in SUITS:
        raise ValueError(f"not a suit: {text!r}")
    return SUITS.index(t)


def mask_of(codes: Iterable[str]) -> int:
    """The card set of some card codes."""
    m = 0
    for c in codes:
        m |= 1 << parse(c)
    return m


def cards_of(mask: int) -> list[int]:
    """The card indexes of a set, ascending (clubs first, low to high in each suit)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_ids(mask: int) -> list[int]:
    """The card indexes of a set, ascending, via :data:`SUIT_IDS` (the same list as :func:`cards_of`).

    >>> card_ids(mask_of(["AS", "2C", "TD"])) == cards_of(mask_of(["AS", "2C", "TD"]))
    True
    """
    t = SUIT_IDS
    return [*t[0][mask & 8191], *t[1][mask >> 13 & 8191], *t[2][mask >> 26 & 8191], *t[3][mask >> 39]]


def codes_of(mask: int) -> list[str]:
    """The codes of a set, in the canonical sorted order of :func:`cards_of`."""
    return [CODES[c] for c in cards_of(mask)]


def count(mask: int) -> int:
    """How many cards a set holds."""
    return mask.bit_count()


def lowest(mask: int) -> int:
    """The lowest card index in a non-empty set."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest card index in a non-empty set."""
    return mask.bit_length() - 1


def weakest(mask: int, trump: int | None = None) -> int:
    """The weakest card of a non-empty set (rules.md §0.6).

    Key: not trump before trump, then the lowest rank, then the lowest suit index.

    >>> code(weakest(mask_of(["2S", "9D", "9C"]), SPADES))
    '9C'
    """
    pool = mask
    if trump is not None and mask & ~SUIT_MASK[trump]:
        pool = mask & ~SUIT_MASK[trump]
    best = -1
    best_key = (99, 99)
    for s in range(4):
        part = pool & SUIT_MASK[s]
        if part:
            c = lowest(part)
            key = (rank_of(c), s)
            if key < best_key:
                best_key, best = key, c
    return best


def trick_winner(cards: list[int], trump: int | None) -> int:
    """The position (0..3) in ``cards`` (play order, first is the lead) of the winning card.

    >>> trick_winner([parse("KC"), parse("AC"), parse("2D"), parse("3C")], DIAMONDS)
    2
    """
    led = cards[0] // 13
    best = 0
    best_card = cards[0]
    best_trump = trump is not None and led == trump
    for i in range(1, len(cards)):
        c = cards[i]
        s = c // 13
        if trump is not None and s == trump:
            if not best_trump or c > best_card:
                best, best_card, best_trump = i, c, True
        elif s == led and not best_trump and c > best_card:
            best, best_card = i, c
    return best


def legal_mask(hand: int, led_suit: int | None) -> int:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led_suit``."""
    if led_suit is None:
        return hand
    follow = hand & SUIT_MASK[led_suit]
    return follow if follow else hand
