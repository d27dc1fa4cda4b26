"""The search fast path of Trix: ``step`` and ``playout`` without events or checks.

The rules live in :mod:`engine.trix.game` (``check`` / ``act`` / ``_apply``); this module holds
the hand-inlined copies of trick and layout play that search rollouts run millions of times.
They must do exactly what the rules do: ``tests/engine/test_fast_path_differential.py`` drives
both on thousands of random states of every variant and compares the resulting states, scores and
legal moves.

``TrixGame.step`` and ``TrixGame.playout`` call these functions; search code calls the methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import cards as C
from engine.trix import layout as L
from engine.trix.actions import PASS
from engine.trix.contracts import TRIX

if TYPE_CHECKING:
    from engine.trix.game import TrixGame

_SUIT_IDS = C.SUIT_IDS
_card_ids = C.card_ids


def step(g: TrixGame, aid: int) -> None:
    """Apply the legal action id ``aid`` for ``g.to_act`` without building events."""
    g._apply(aid, None)


def playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """Play uniformly random legal actions until this deal ends (or the match does).

    ``rnd`` returns floats in ``[0, 1)``. The same stream gives the same actions as
    ``step(ids[int(rnd() * len(ids))])`` with ``ids = legal_ids()``, repeated.
    """
    deal_no = g.deal_no
    table = _SUIT_IDS
    card_ids = _card_ids
    while g.to_act is not None and g.deal_no == deal_no:
        contract = g.contract
        if g.phase != "play" or (g._rules.king_rules and contract != TRIX):
            ids = g.legal_ids()
            g._apply(ids[int(rnd() * len(ids))], None)
            continue
        s: int = g.to_act
        if contract == TRIX:
            if not g.hands[s] & g.open_mask:
                rnd()
                g._apply(PASS, None)
                continue
            _layout_playout(g, rnd)
            continue
        hands = g.hands
        trick = g.trick
        while True:
            hand = hands[s]
            if trick:
                led = trick[0] // 13
                follow = hand >> (13 * led) & 8191
                opts = list(table[led][follow]) if follow else card_ids(hand)
            else:
                opts = card_ids(hand)
            c = opts[int(rnd() * len(opts))]
            hands[s] = hand ^ (1 << c)
            trick.append(c)
            if len(trick) == 4:
                break
            s = (s + 1) & 3
        g.exposed = True
        g.to_act = s
        g._close_trick(None)


def _layout_playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """The layout part of :func:`playout`: ``TrixGame._layout_play`` inlined, the same actions.

    Runs until the deal ends or a seat must pass by hand (``auto_pass_in_layout`` off), which
    goes back to the general loop.
    """
    hands = g.hands
    rows = g.rows
    suit_mask = C.SUIT_MASK
    auto = g._rules.auto_pass
    s = g.to_act
    assert s is not None
    while True:
        hand = hands[s]
        m = hand & g.open_mask
        if not m:
            return  # a pass by hand: the general loop applies it
        opts = _card_ids(m)
        card = opts[int(rnd() * len(opts))]
        hand ^= 1 << card
        hands[s] = hand
        g.exposed = True
        g.layout_log += (s * 64 + card,)
        suit = card // 13
        rank = card % 13 + 2
        low, high = rows[suit]
        if low == 0:
            low = high = rank
        elif rank < low:
            low = rank
        elif rank > high:
            high = rank
        rows[suit] = (low, high)
        g.open_mask = (g.open_mask & ~suit_mask[suit]) | L.row_open(suit, low, high)
        if not hand:
            g._player_out(s, [])
            if len(g.finished) == 3:
                last = next(x for x in range(4) if x not in g.finished)
                g._player_out(last, [])
                g._end_deal(None)
                return
        # the next seat that holds cards and can play; automatic passes on the way (X-L3, X-L4)
        for _ in range(8):
            s = (s + 1) & 3
            nxt = hands[s]
            if nxt:
                if nxt & g.open_mask or not auto:
                    break
                g.layout_log += (s * 64 + 63,)
        else:
            raise AssertionError("the layout cannot lock up (X-L6)")
        g.to_act = s
