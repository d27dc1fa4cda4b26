"""Per-seat views of a Trix game (docs/architecture.md §1): nothing a seat may not see.

During the doubling window the public view and the other seats see neither who is asked nor
what was doubled; the seat being asked sees its own doubles under ``my_doubles``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import cards as C
from engine.trick import trick_json
from engine.trix import layout as L
from engine.trix.contracts import CONTRACT_NAMES, TRIX, scoring_cards
from engine.trix.doubling import doubles_json

if TYPE_CHECKING:
    from engine.trix.game import TrixGame

TWOS = sum(1 << C.card(2, s) for s in range(4))


def build_view(g: TrixGame, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: public)."""
    window = g.phase == "double"
    to_act = g.to_act
    if window and (seat is None or seat != to_act):
        to_act = None
    legal = g.legal() if seat is not None and seat == g.to_act else []
    trick = _trick(g)
    last = None
    if g.last_trick is not None:
        w, lead, cards = g.last_trick
        played = [{"seat": (lead + i) % 4, "card": C.code(c)} for i, c in enumerate(cards)]
        last = {"seat": w, "cards": played}
    if window and not g.rules.public_doubles:
        doubled: list[dict[str, object]] = []
    else:
        doubled = doubles_json(g.doubles)
    contract = CONTRACT_NAMES[g.contract] if g.contract >= 0 else None
    v: dict[str, Any] = {
        "game": "trix",
        "phase": g.phase,
        "seat": seat,
        "to_act": to_act,
        "dealer": g.dealer_seat,
        "deal_no": g.deal_no,
        "hand_sizes": [h.bit_count() for h in g.hands],
        "trick": trick,
        "leader": g.leader if g.phase == "play" else None,
        "last_trick": last,
        "history": [trick_json(w, ld, t) for w, ld, t in g.past_tricks],
        "tricks": list(g.tricks),
        "trick_no": sum(g.tricks),
        "scores": g.scores(),
        "winner": None if g.winner is None else list(g.winner),
        "legal": legal,
        "options": _options(g),
        "kingdom": g.kingdom,
        "owner": g.owner,
        "deal_index": g.deal_index,
        "contract": contract,
        "contracts_left": [CONTRACT_NAMES[c] for c in g.contracts_left() if c != g.contract],
        "doubled": doubled,
        "layout": _layout(g),
        "layout_history": [_layout_move(x) for x in g.layout_log],
        "finished": list(g.finished),
        "taken": [C.codes_of(scoring_cards(g.contract, m)) if g.contract >= 0 else [] for m in g.captured],
        "deal_scores": list(g.deal_scores),
    }
    if seat is not None:
        _own(g, seat, window, v)
    if g.rules.expose_twos:
        v["exposed_twos"] = {str(s): C.codes_of(g.hands[s] & TWOS) for s in range(4)} if g.exposed else {}
    return v


#: The keys of :func:`build_decision_view`: what a seat's move is decided from (the rule AI reads
#: nothing else), plus ``hand`` and, in the doubling window, ``my_doubles``.
DECISION_KEYS = ("game", "phase", "seat", "to_act", "trick", "legal", "options", "contract", "layout")


def build_decision_view(g: TrixGame, seat: int) -> dict[str, Any]:
    """The part of ``build_view(g, seat)`` a decision reads (:data:`DECISION_KEYS`): each of its
    keys has the value ``build_view`` gives it, without the history, scores and the rest."""
    window = g.phase == "double"
    to_act = g.to_act
    if window and seat != to_act:
        to_act = None
    v: dict[str, Any] = {
        "game": "trix",
        "phase": g.phase,
        "seat": seat,
        "to_act": to_act,
        "trick": _trick(g),
        "legal": g.legal() if seat == g.to_act else [],
        "options": _options(g),
        "contract": CONTRACT_NAMES[g.contract] if g.contract >= 0 else None,
        "layout": _layout(g),
    }
    _own(g, seat, window, v)
    return v


def _trick(g: TrixGame) -> list[dict[str, Any]]:
    return [{"seat": (g.leader + i) % 4, "card": C.code(c)} for i, c in enumerate(g.trick)]


def _options(g: TrixGame) -> dict[str, Any]:
    out = g.options.copy()  # the lists copied too (what a reader does to its view stays in its view)
    for k, x in out.items():
        if isinstance(x, list):
            out[k] = list(x)
    return out


def _layout(g: TrixGame) -> dict[str, list[str] | None] | None:
    return {C.SUIT_CODES[s]: L.row_codes(g.rows[s]) for s in range(4)} if g.contract == TRIX else None


def _own(g: TrixGame, seat: int, window: bool, v: dict[str, Any]) -> None:
    """The seat's own cards (``hand``) and, in the doubling window, its doubles (``my_doubles``)."""
    hidden = g.phase == "contract" and not g.rules.owner_sees_cards
    v["hand"] = [] if hidden else C.codes_of(g.hands[seat])
    if window:
        v["my_doubles"] = [C.code(c) for c, s in g.doubles if s == seat]


def _layout_move(x: int) -> dict[str, Any]:
    """One entry of ``layout_history``: ``{"seat", "card"}``, or ``{"seat", "pass": True}``."""
    seat, card = divmod(x, 64)
    return {"seat": seat, "pass": True} if card == 63 else {"seat": seat, "card": C.code(card)}
