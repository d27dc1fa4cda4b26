"""The engine's views and events as the bot reads them (docs/engine-contract.md), typed.

The engine hands out plain JSON-able dicts (``Game.view(seat)``, the events of ``Game.act``); it
stays standard-library only and knows nothing of the bot. This module names the shapes the bot
reads of them, so that mypy checks every key the presenter, the renderers and the adapters read.
"""

from __future__ import annotations

from enum import StrEnum, unique


@unique
class Phase(StrEnum):
    """The engine's ``phase`` (a view's ``"phase"``): each game uses the ones it has."""

    BID = "bid"  # Tarneeb and Tarneeb 41: the auction
    TRUMP = "trump"  # Tarneeb: the declarer names trumps
    CONTRACT = "contract"  # Trix: the kingdom's owner chooses a contract
    DOUBLE = "double"  # Trix, King of Hearts and Queens: the holders may double
    PLAY = "play"  # tricks (and the Trix layout)
    OVER = "over"  # the match is over
