"""Doubling of K♥ and the queens (rules.md X-B1–X-B4 and the contract's settled details).

Seats are asked in play order from the owner; a seat without a doublable card is skipped.
Doubles are kept as a tuple of ``(card, seat)`` pairs in the order they were made.
"""

from __future__ import annotations

from engine import cards as C
from engine.trix.contracts import DOUBLABLE

#: ``_FROM[owner]``: the four seats in play order from ``owner``.
_FROM: tuple[tuple[int, ...], ...] = tuple(tuple((owner + i) % 4 for i in range(4)) for owner in range(4))


def doubling_queue(contract: int, owner: int, hands: list[int]) -> tuple[int, ...]:
    """The seats to ask, in play order from the owner (empty: no doubling phase)."""
    can = DOUBLABLE[contract]
    if not can:
        return ()
    return tuple([s for s in _FROM[owner] if hands[s] & can])


def doublable_now(contract: int, hand: int, doubles: tuple[tuple[int, int], ...]) -> int:
    """The cards of ``hand`` that may still be doubled."""
    m = hand & DOUBLABLE[contract]
    for c, _ in doubles:
        m &= ~(1 << c)
    return m


def doubles_json(doubles: tuple[tuple[int, int], ...]) -> list[dict[str, object]]:
    """Doubles for views and events: ``[{"card": "KH", "seat": 1}]``."""
    return [{"card": C.code(c), "seat": s} for c, s in doubles]
