"""The ``cheater`` level: the ``strong`` search given the true hands, a yardstick for ``bench/ai.py``.

How much of what full sight of the cards would gain over ``easy`` the real search gains is the
measure of how well it plays its hidden cards (issue 33: the strong level's gain as a share of the
cheater's). The cheater is the strong player with one change: what the seat knows
(:attr:`TarneebBrain.knowledge`, :attr:`TrixBrain.knowledge`) holds every other hand as it is, so
every deal the search draws is the true one. In the Tarneeb games a single double-dummy solve
then scores every card exactly (more samples would be the same deal again); in Trix the rollouts
of the others' play still vary, so its budgets are strong's, and there is nothing hidden for the
inference of :mod:`ai.strong.trix_infer` to read. Its card play, Trix doubles and Trix contract
choice see the true hands; its Tarneeb bids are strong's (the bid simulation draws its own deals).

The hands come in the view under :data:`TRUE_HANDS`, which only the benchmark adds (an engine
view never holds them): without them the cheater refuses to decide. It is never a table's level
(the chat settings offer ``easy``, ``normal`` and ``strong``).
"""

from __future__ import annotations

import random
from typing import Any

from ai.strong import StrongPlayer
from ai.strong.knowledge import Knowledge, from_view
from engine import cards as C

#: The view key of every seat's cards still in hand (a list of four lists of card codes).
TRUE_HANDS = "true_hands"


def knowing(view: dict[str, Any]) -> Knowledge:
    """The seat's knowledge with every other hand known exactly (from ``view[TRUE_HANDS]``)."""
    k = from_view(view)
    hands = view.get(TRUE_HANDS)
    if not isinstance(hands, list) or len(hands) != 4:
        raise ValueError(f"the cheater needs the four true hands in the view ({TRUE_HANDS!r})")
    masks = [C.mask_of(str(c) for c in h) for h in hands]
    if masks[k.seat] != k.hand:
        raise ValueError("the true hands do not hold the seat's own hand")
    for s in range(4):
        if s != k.seat:
            if masks[s].bit_count() != k.sizes[s] or masks[s] & (k.played | k.hand):
                raise ValueError(f"seat {s}'s true hand does not fit the view")
            k.known[s] = masks[s]
    return k


class CheaterPlayer(StrongPlayer):
    """The strong level's search, every hand known (benchmarks only)."""

    #: The benchmark adds :data:`TRUE_HANDS` to the views of players with this flag.
    needs_true_hands = True

    def __init__(self) -> None:
        super().__init__("strong")
        self.level = self.pool_level = "cheater"
        self.tarneeb.knowledge = knowing
        self.trix.knowledge = knowing
        self.tarneeb.min_samples = self.tarneeb.max_samples = 1  # the one true deal, solved exactly
        self.trix.infer_share = 0.0  # nothing hidden to read from the others' play

    def decide(self, view: dict[str, Any], game: str, rng: random.Random, deadline: float | None = None) -> str:
        """As :meth:`StrongPlayer.decide`; a view without the true hands is refused loudly (the
        strong player would otherwise fall back to the rule player quietly)."""
        if not isinstance(view.get(TRUE_HANDS), list):
            raise ValueError(f"the cheater needs the four true hands in the view ({TRUE_HANDS!r})")
        return super().decide(view, game, rng, deadline)
