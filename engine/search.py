"""The search fast path of the two Tarneeb games: ``step`` and ``playout`` without events or checks.

The rules live in :mod:`engine.trick` (``check`` / ``act`` / ``_play``); this module holds the
hand-inlined copies of the card play that search rollouts run millions of times. They must do
exactly what the rules do: ``tests/engine/test_fast_path_differential.py`` drives both on thousands
of random states of every variant and compares the resulting states, scores and legal moves.

``TrickGame.step`` and ``TrickGame.playout`` call these functions; search code calls the methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import cards as C

if TYPE_CHECKING:
    from engine.trick import TrickGame

_SUIT_IDS = C.SUIT_IDS
_card_ids = C.card_ids


def step(g: TrickGame, aid: int) -> None:
    """Apply the legal action id ``aid`` for ``g.to_act``: :meth:`TrickGame._play` without events."""
    if aid >= 52:
        g._apply_other(aid, None)
        return
    s: int = g.to_act  # type: ignore[assignment]
    g.hands[s] ^= 1 << aid
    if aid == g.exposed:
        g.exposed = None
    trick = g.trick
    trick.append(aid)
    if len(trick) < 4:
        g.to_act = (s + 1) & 3
        return
    leader = g.leader
    w = (leader + C.trick_winner(trick, g.trump)) & 3
    g.tricks[w] += 1
    g.trick_no += 1
    g.last_trick = (w, leader, tuple(trick))
    g.past_tricks += (g.last_trick,)
    g.trick = []
    g.leader = g.to_act = w
    if g.trick_no == 13:
        g._score_deal(None)


def playout(g: TrickGame, rnd: Callable[[], float]) -> None:
    """Play uniformly random legal actions until this deal ends (scored or thrown in).

    ``rnd`` returns floats in ``[0, 1)``. The same stream gives the same actions as
    ``step(ids[int(rnd() * len(ids))])`` with ``ids = legal_ids()``, repeated.
    """
    deal_no = g.deal_no
    while g.to_act is not None and g.deal_no == deal_no:
        if g.phase != "play":
            ids = g._bid_ids()
            g._apply_other(ids[int(rnd() * len(ids))], None)
            continue
        _play_out(g, rnd)


def _play_out(g: TrickGame, rnd: Callable[[], float]) -> None:
    """The card play of :func:`playout` from the current state to the deal's 13th trick, scored."""
    hands = g.hands
    tricks = g.tricks
    trump = g.trump
    exposed = g.exposed
    winner_of = C.trick_winner
    table = _SUIT_IDS
    card_ids = _card_ids
    s: int = g.to_act  # type: ignore[assignment]
    leader = g.leader
    trick = g.trick
    trick_no = g.trick_no
    last = g.last_trick
    past = list(g.past_tricks)
    while True:
        hand = hands[s]
        if trick:
            led = trick[0] // 13
            follow = hand >> (13 * led) & 8191
            opts = table[led][follow] if follow else card_ids(hand)
        else:
            opts = card_ids(g._lead_mask(hand) if trick_no == 0 else hand)
        c = opts[int(rnd() * len(opts))]
        hands[s] ^= 1 << c
        if c == exposed:
            exposed = None
        trick.append(c)
        if len(trick) < 4:
            s = (s + 1) & 3
            continue
        w = (leader + winner_of(trick, trump)) & 3
        tricks[w] += 1
        trick_no += 1
        last = (w, leader, tuple(trick))
        past.append(last)
        trick = []
        leader = s = w
        if trick_no == 13:
            break
    g.exposed = exposed
    g.trick = trick
    g.leader = leader
    g.to_act = s
    g.trick_no = trick_no
    g.last_trick = last
    g.past_tricks = tuple(past)
    g._score_deal(None)
