"""A Trix game's state as a JSON-able dict and back (``TrixGame.to_json`` / ``from_json``), and its copy.

``tests/engine/test_fast_path_differential.py`` checks that every slot survives the round trip
and :func:`copy`, and that a copy shares nothing mutable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.base import Dealer, resolve_options
from engine.trix.contracts import OPTIONS
from engine.trix.rules import TrixRules

if TYPE_CHECKING:
    from engine.trix.game import TrixGame


def dump(g: TrixGame) -> dict[str, Any]:
    """Every field of ``g``, the dealer's generator state included."""
    return {
        "game": "trix",
        "options": {k: (list(v) if isinstance(v, list) else v) for k, v in g.options.items()},
        "dealer": g._dealer.to_json(),
        "phase": g.phase,
        "to_act": g.to_act,
        "winner": None if g.winner is None else list(g.winner),
        "scores": list(g.score_list),
        "owner": g.owner,
        "used": g.used,
        "deal_index": g.deal_index,
        "deal_no": g.deal_no,
        "dealer_seat": g.dealer_seat,
        "contract": g.contract,
        "hands": list(g.hands),
        "queue": list(g.queue),
        "doubles": [[c, s] for c, s in g.doubles],
        "trick": list(g.trick),
        "leader": g.leader,
        "captured": list(g.captured),
        "tricks": list(g.tricks),
        "rows": [[lo, hi] for lo, hi in g.rows],
        "open_mask": g.open_mask,
        "finished": list(g.finished),
        "deal_scores": list(g.deal_scores),
        "last_trick": None if g.last_trick is None else [g.last_trick[0], g.last_trick[1], list(g.last_trick[2])],
        "past_tricks": [[w, ld, list(cs)] for w, ld, cs in g.past_tricks],
        "layout_log": list(g.layout_log),
        "exposed": g.exposed,
    }


def restore(g: TrixGame, d: Mapping[str, Any]) -> None:
    """Set every field of a bare ``g`` (``TrixGame.__new__``) from :func:`dump`'s dict."""
    g.options = resolve_options(OPTIONS, d["options"])
    g._rules = TrixRules.from_options(g.options)
    g._dealer = Dealer.from_json(d["dealer"])
    g.phase = str(d["phase"])
    g.to_act = None if d["to_act"] is None else int(d["to_act"])
    g.winner = None if d["winner"] is None else [int(x) for x in d["winner"]]
    g.score_list = [int(x) for x in d["scores"]]
    g.owner = int(d["owner"])
    g.used = int(d["used"])
    g.deal_index = int(d["deal_index"])
    g.deal_no = int(d["deal_no"])
    g.dealer_seat = int(d["dealer_seat"])
    g.contract = int(d["contract"])
    g.hands = [int(x) for x in d["hands"]]
    g.queue = tuple(int(x) for x in d["queue"])
    g.doubles = tuple((int(c), int(s)) for c, s in d["doubles"])
    g.trick = [int(x) for x in d["trick"]]
    g.leader = int(d["leader"])
    g.captured = [int(x) for x in d["captured"]]
    g.tricks = [int(x) for x in d["tricks"]]
    g.rows = [(int(lo), int(hi)) for lo, hi in d["rows"]]
    g.open_mask = int(d["open_mask"])
    g.finished = [int(x) for x in d["finished"]]
    g.deal_scores = [int(x) for x in d["deal_scores"]]
    lt = d["last_trick"]
    g.last_trick = None if lt is None else (int(lt[0]), int(lt[1]), tuple(int(x) for x in lt[2]))
    g.past_tricks = tuple((int(w), int(ld), tuple(int(x) for x in cs)) for w, ld, cs in d.get("past_tricks", ()))
    g.layout_log = tuple(int(x) for x in d.get("layout_log", ()))
    g.exposed = bool(d["exposed"])


def copy(src: TrixGame) -> TrixGame:
    """A cheap independent copy for search (``TrixGame.clone``): the dealer's generator is shared until used."""
    g = type(src).__new__(type(src))
    g.options = src.options
    g._rules = src._rules
    g._dealer = src._dealer.clone()
    g.phase = src.phase
    g.to_act = src.to_act
    g.winner = src.winner
    g.score_list = src.score_list[:]
    g.owner = src.owner
    g.used = src.used
    g.deal_index = src.deal_index
    g.deal_no = src.deal_no
    g.dealer_seat = src.dealer_seat
    g.contract = src.contract
    g.hands = src.hands[:]
    g.queue = src.queue
    g.doubles = src.doubles
    g.trick = src.trick[:]
    g.leader = src.leader
    g.captured = src.captured[:]
    g.tricks = src.tricks[:]
    g.rows = src.rows[:]
    g.open_mask = src.open_mask
    g.finished = src.finished[:]
    g.deal_scores = src.deal_scores[:]
    g.last_trick = src.last_trick
    g.past_tricks = src.past_tricks
    g.layout_log = src.layout_log
    g.exposed = src.exposed
    return g
