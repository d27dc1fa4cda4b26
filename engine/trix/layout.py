"""The Trix contract's layout (rules.md X-L1, X-L2): one row per suit, grown from its jack.

A row is kept as ``(low, high)`` rank values, ``(0, 0)`` before its jack is played. The cards
that may be played next, over all four rows, form one card set (:func:`open_cards`).

>>> rows = [(0, 0), (0, 0), (11, 12), (0, 0)]
>>> C.codes_of(open_cards(rows))
['JC', 'JD', 'TH', 'KH', 'JS']
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import cards as C

JACK = 11


def row_open(suit: int, low: int, high: int) -> int:
    """The cards that may be played on one row."""
    if low == 0:
        return 1 << C.card(JACK, suit)
    m = 0
    if low > 2:
        m |= 1 << C.card(low - 1, suit)
    if high < 14:
        m |= 1 << C.card(high + 1, suit)
    return m


def open_cards(rows: Sequence[tuple[int, int]]) -> int:
    """Every card that may be played now, as a set."""
    m = 0
    for s in range(4):
        low, high = rows[s]
        m |= row_open(s, low, high)
    return m


def place(row: tuple[int, int], rank: int) -> tuple[int, int]:
    """The row after a legal card of ``rank`` is played on it."""
    low, high = row
    if low == 0:
        return (rank, rank)
    return (min(low, rank), max(high, rank))


def row_codes(row: tuple[int, int]) -> list[str] | None:
    """A row for views: ``[low, high]`` as rank codes, or ``None`` before its jack."""
    if row[0] == 0:
        return None
    return [C.RANKS[row[0] - 2], C.RANKS[row[1] - 2]]
