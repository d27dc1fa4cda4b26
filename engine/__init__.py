"""Majlis rules engine: classic Tarneeb, Syrian Tarneeb 41 and Trix as pure state machines.

The public face is described in docs/engine-contract.md::

    import engine
    g = engine.new_game("tarneeb41", seed=7)
    g.act(g.to_act, g.auto())
    g2 = engine.load(g.to_json())
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import Event, Game
from engine.errors import IllegalAction, InvalidOptions

GAME_IDS: tuple[str, ...] = ("tarneeb41", "tarneeb", "trix")

__all__ = ["GAME_IDS", "Event", "Game", "IllegalAction", "InvalidOptions", "game_class", "load", "new_game"]


def game_class(game_id: str) -> type[Game]:
    """The class that implements ``game_id``."""
    if game_id == "tarneeb41":
        from engine.tarneeb41.game import Tarneeb41Game

        return Tarneeb41Game
    if game_id == "tarneeb":
        from engine.tarneeb.game import TarneebGame

        return TarneebGame
    if game_id == "trix":
        from engine.trix.game import TrixGame

        return TrixGame
    raise InvalidOptions(f"unknown game {game_id!r}; known: {list(GAME_IDS)}")


def new_game(
    game_id: str,
    seed: int = 0,
    dealer: int | None = None,
    deals: Sequence[Sequence[Sequence[str]]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """Start a match of ``game_id`` (``"tarneeb41"``, ``"tarneeb"`` or ``"trix"``)."""
    cls = game_class(game_id)
    return cls(seed=seed, dealer=dealer, deals=deals, options=options)  # type: ignore[call-arg]


def load(d: Mapping[str, Any]) -> Game:
    """Rebuild a game from ``Game.to_json()``."""
    cls = game_class(str(d["game"]))
    return cls.from_json(d)
