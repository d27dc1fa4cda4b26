"""Building predetermined Trix deals for tests, golden files and demonstrations.

>>> d = build_deal({0: ["7H", "AS"], 2: ["KH"]}, seed=1)
>>> "7H" in d[0] and "KH" in d[2] and [len(h) for h in d] == [13] * 4
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from engine import cards as C
from engine.base import Event

if TYPE_CHECKING:
    from engine.trix.game import TrixGame


def build_deal(fixed: Mapping[int, Iterable[str]], seed: int = 0) -> list[list[str]]:
    """Four hands of 13 codes: ``fixed`` cards where given, the rest shuffled by ``seed``.

    Raises ``ValueError`` when a card is given twice or a seat gets more than 13.
    """
    hands: list[list[str]] = [[], [], [], []]
    seen = 0
    for seat, codes in fixed.items():
        for code in codes:
            c = C.parse(code)
            if seen >> c & 1:
                raise ValueError(f"{code} is given twice")
            seen |= 1 << c
            hands[seat].append(C.code(c))
    rest = [C.code(c) for c in C.cards_of(C.FULL_DECK & ~seen)]
    random.Random(seed).shuffle(rest)
    for h in hands:
        if len(h) > 13:
            raise ValueError("a hand holds more than 13 cards")
        while len(h) < 13:
            h.append(rest.pop())
    return hands


def rotate(deal: list[list[str]], by: int) -> list[list[str]]:
    """The same deal with every hand moved ``by`` seats on (seat ``s`` → ``s + by``)."""
    return [list(deal[(s - by) % 4]) for s in range(4)]


def play_cards(g: TrixGame, cards: str) -> list[Event]:
    """Play the space-separated ``cards`` in turn, each by the seat to act; return the events."""
    events: list[Event] = []
    for code in cards.split():
        assert g.to_act is not None
        events += g.act(g.to_act, "play " + code)
    return events


def close_doubling(g: TrixGame) -> list[Event]:
    """Every seat still to be asked answers ``done``; return the events."""
    events: list[Event] = []
    while g.phase == "double":
        assert g.to_act is not None
        events += g.act(g.to_act, "done")
    return events


def find_playout(
    g: TrixGame,
    accept: Callable[[TrixGame, list[Event]], bool],
    seed: int = 0,
    tries: int = 20000,
) -> tuple[TrixGame, list[Event]]:
    """Random legal play from a copy of ``g`` until the deal is scored, retried until ``accept``.

    Returns the accepted copy (just after the deal was scored) and the events of that deal.
    Raises ``LookupError`` when no playout within ``tries`` is accepted.
    """
    rng = random.Random(seed)
    deal = g.deal_index
    for _ in range(tries):
        h = g.clone()
        events: list[Event] = []
        while h.deal_index == deal and h.to_act is not None:
            events += h.act(h.to_act, rng.choice(h.legal()))
        if accept(h, events):
            return h, events
    raise LookupError("no accepted playout")
