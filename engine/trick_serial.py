"""The state both Tarneeb games share as a JSON-able dict and back, and its cheap copy for search.

``TrickGame`` subclasses build on these: ``to_json`` is :func:`dump` plus the game's own fields,
``from_json`` is :func:`restore` plus them, ``clone`` is :func:`copy` plus them (the mirror of
:mod:`engine.trix.serial`). ``tests/engine/test_fast_path_differential.py`` checks that every slot
of every game survives the round trip and the copy, and that a copy shares nothing mutable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.base import Dealer, resolve_options

if TYPE_CHECKING:
    from engine.trick import TrickGame


def dump(g: TrickGame) -> dict[str, Any]:
    """The shared fields of ``g``, the dealer's generator state included."""
    lt = g.last_trick
    return {
        "game": g.game_id,
        "options": dict(g.options),
        "dealer_rng": g._dealer.to_json(),
        "phase": g.phase,
        "to_act": g.to_act,
        "winner": g.winner,
        "dealer": g.dealer,
        "deal_no": g.deal_no,
        "hand_no": g.hand_no,
        "hands": list(g.hands),
        "trump": g.trump,
        "exposed": g.exposed,
        "leader": g.leader,
        "trick": list(g.trick),
        "tricks": list(g.tricks),
        "trick_no": g.trick_no,
        "last_trick": None if lt is None else [lt[0], lt[1], list(lt[2])],
        "past_tricks": [[w, ld, list(cs)] for w, ld, cs in g.past_tricks],
    }


def restore(g: TrickGame, d: Mapping[str, Any]) -> None:
    """Set the shared fields of a bare ``g`` (``cls.__new__(cls)``) from :func:`dump`'s dict."""
    g.options = resolve_options(g.OPTIONS, d["options"])
    g._setup()
    g._dealer = Dealer.from_json(d["dealer_rng"])
    g._dshared = False
    g.phase = str(d["phase"])
    g.to_act = d["to_act"]
    g.winner = None if d["winner"] is None else [int(x) for x in d["winner"]]
    g.dealer = int(d["dealer"])
    g.deal_no = int(d["deal_no"])
    g.hand_no = int(d["hand_no"])
    g.hands = [int(x) for x in d["hands"]]
    g.trump = d["trump"]
    g.exposed = d["exposed"]
    g.leader = int(d["leader"])
    g.trick = [int(x) for x in d["trick"]]
    g.tricks = [int(x) for x in d["tricks"]]
    g.trick_no = int(d["trick_no"])
    lt = d["last_trick"]
    g.last_trick = None if lt is None else (int(lt[0]), int(lt[1]), tuple(int(x) for x in lt[2]))
    g.past_tricks = tuple((int(w), int(ld), tuple(int(x) for x in cs)) for w, ld, cs in d.get("past_tricks", ()))


def copy(src: TrickGame, g: TrickGame) -> None:
    """Copy the shared fields of ``src`` into a bare ``g``; the dealer's generator is shared lazily."""
    g.options = src.options
    g._dealer = src._dealer
    g._dshared = src._dshared = True
    g.phase = src.phase
    g.to_act = src.to_act
    g.winner = src.winner
    g.dealer = src.dealer
    g.deal_no = src.deal_no
    g.hand_no = src.hand_no
    g.hands = src.hands[:]
    g.trump = src.trump
    g.exposed = src.exposed
    g.leader = src.leader
    g.trick = src.trick[:]
    g.tricks = src.tricks[:]
    g.trick_no = src.trick_no
    g.last_trick = src.last_trick
    g.past_tricks = src.past_tricks
