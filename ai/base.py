"""The one small interface behind which every AI player sits."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol


class Player(Protocol):
    """Decides one action from a seat's view (``engine`` ``view(seat)``) and nothing else.

    ``heavy`` players (search) are run in a worker thread so the event loop stays responsive.
    A player whose ``narrow_view`` is true (optional, default false) reads only the keys of
    ``Game.decision_view(seat)`` and is given that view, which is cheaper to make.
    """

    heavy: bool

    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        """A legal action code for the viewing seat, which is to act."""
        ...


#: Gives the player for an AI level (``"easy"``, ``"normal"``, ``"strong"``).
AIProvider = Callable[[str], Player]


class LegalPlayer:
    """The fallback: a random legal move from ``view["legal"]``; cheap, never wrong."""

    heavy = False

    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        """One of the view's legal codes, chosen with ``rng``."""
        legal = view.get("legal") or []
        if not legal:
            raise ValueError("the seat has no legal action in its view")
        return str(rng.choice(legal))
