"""The search fast path of the two Tarneeb games: ``step`` and ``playout`` without events or checks.

The rules live in :mod:`engine.trick` (``check`` / ``act`` / ``_play``); this module holds the
hand-inlined copies of the card play that search rollouts run millions of times. They must do
exactly what the rules do: ``tests/engine/test_fast_path_differential.py`` drives both on thousands
of random states of every variant and compares the resulting states, scores and legal moves.

``TrickGame.step`` and ``TrickGame.playout`` call these functions; search code calls the methods.
"""

from __future__ import annotations

from collections.abc import Callable
from math import floor
from typing import TYPE_CHECKING

from engine import cards as C

if TYPE_CHECKING:
    from engine.trick import TrickGame

_SUIT_IDS = C.SUIT_IDS
_SUIT_MASK = C.SUIT_MASK
_card_ids = C.card_ids
_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
#: ``_NEXT3[s]``: the three seats after ``s`` in play order.
_NEXT3: tuple[tuple[int, int, int], ...] = tuple(((s + 1) & 3, (s + 2) & 3, (s + 3) & 3) for s in range(4))


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
    ``step(ids[int(rnd() * len(ids))])`` with ``ids = legal_ids()``, repeated (``floor`` here: the
    same index for a non-negative float, a cheaper call than ``int``).
    """
    deal_no = g.deal_no
    while g.to_act is not None and g.deal_no == deal_no:
        if g.phase != "play":
            g._bid_playout(rnd)
            continue
        _play_out(g, rnd)


def bid_playout(g: TrickGame, rnd: Callable[[], float]) -> None:
    """Random legal non-card actions (auction, trump) until the play starts or the deal ends.

    The generic driver of :meth:`TrickGame._bid_playout`: ``_bid_ids`` and ``_apply_other``, one
    draw per action; the games override it with inlined auctions where that pays.
    """
    deal_no = g.deal_no
    while g.phase != "play" and g.to_act is not None and g.deal_no == deal_no:
        ids = g._bid_ids()
        g._apply_other(ids[floor(rnd() * len(ids))], None)


def _play_out(g: TrickGame, rnd: Callable[[], float]) -> None:
    """The card play of :func:`playout` from the current state to the deal's 13th trick, scored.

    A trick in progress is finished card by card on the hands' bit sets. Then each seat's cards
    are four short lists, one per suit, ascending (``legal_ids()``'s order), and each trick is
    four plays unrolled in local variables, the seats from :data:`_NEXT3`: a follow pops the
    ``k``-th card of the list of the suit led; a lead or a discard (a void follower) pops the
    ``k``-th card of the whole hand, found list by list (after a whole trick every hand holds
    ``13 - trick_no`` cards). The winner is kept while the cards are drawn (the highest trump,
    else the highest card of the suit led), the same as ``cards.trick_winner``.
    """
    hands = g.hands
    tricks = g.tricks
    trump = g.trump
    trump_mask = 0 if trump is None else _SUIT_MASK[trump]
    suit_mask = _SUIT_MASK
    table = _SUIT_IDS
    t0, t1, t2, t3 = table
    bit = _BIT
    fl = floor
    nxt3 = _NEXT3
    s: int = g.to_act  # type: ignore[assignment]
    leader = g.leader
    trick_no = g.trick_no
    past = list(g.past_tricks)
    trick = g.trick
    if trick:  # finish the trick in progress
        led = trick[0] // 13
        while len(trick) < 4:
            hand = hands[s]
            follow = hand >> (13 * led) & 8191
            opts = table[led][follow] if follow else _card_ids(hand)
            c = opts[fl(rnd() * len(opts))]
            hands[s] = hand ^ bit[c]
            trick.append(c)
            s = (s + 1) & 3
        c0, c1, c2, c3 = trick
        m = bit[c0] | bit[c1] | bit[c2] | bit[c3]
        top = (m & trump_mask or m & suit_mask[led]).bit_length() - 1
        w = (leader + (0 if top == c0 else 1 if top == c1 else 2 if top == c2 else 3)) & 3
        tricks[w] += 1
        trick_no += 1
        past.append((w, leader, (c0, c1, c2, c3)))
        leader = s = w
    # each seat's cards as four lists, one per suit, ascending (the order of legal_ids)
    h0, h1, h2, h3 = hands
    H = [
        [[*t0[h0 & 8191]], [*t1[h0 >> 13 & 8191]], [*t2[h0 >> 26 & 8191]], [*t3[h0 >> 39]]],
        [[*t0[h1 & 8191]], [*t1[h1 >> 13 & 8191]], [*t2[h1 >> 26 & 8191]], [*t3[h1 >> 39]]],
        [[*t0[h2 & 8191]], [*t1[h2 >> 13 & 8191]], [*t2[h2 >> 26 & 8191]], [*t3[h2 >> 39]]],
        [[*t0[h3 & 8191]], [*t1[h3 >> 13 & 8191]], [*t2[h3 >> 26 & 8191]], [*t3[h3 >> 39]]],
    ]
    while trick_no < 13:
        n = 13 - trick_no
        s1, s2, s3 = nxt3[s]
        h = H[s]
        if trick_no == 0 and (lead := g._lead_mask(hands[s])) != hands[s]:
            opts = _card_ids(lead)
            c0 = opts[fl(rnd() * len(opts))]
            led = c0 // 13
            h[led].remove(c0)
        else:
            k = fl(rnd() * n)
            a = h[0]
            p = len(a)
            if k < p:
                c0 = a.pop(k)
                led = 0
            else:
                k -= p
                a = h[1]
                p = len(a)
                if k < p:
                    c0 = a.pop(k)
                    led = 1
                else:
                    k -= p
                    a = h[2]
                    p = len(a)
                    if k < p:
                        c0 = a.pop(k)
                        led = 2
                    else:
                        c0 = h[3].pop(k - p)
                        led = 3
        top = c0
        w = s
        ruffed = False  # a trump on a lead of another suit wins over the suit led
        f = H[s1][led]
        if f:
            c1 = f.pop(fl(rnd() * len(f)))
            if c1 > top and not ruffed:
                top = c1
                w = s1
        else:
            h = H[s1]
            k = fl(rnd() * n)
            a = h[0]
            p = len(a)
            if k < p:
                c1 = a.pop(k)
            else:
                k -= p
                a = h[1]
                p = len(a)
                if k < p:
                    c1 = a.pop(k)
                else:
                    k -= p
                    a = h[2]
                    p = len(a)
                    c1 = a.pop(k) if k < p else h[3].pop(k - p)
            if c1 // 13 == trump and (c1 > top or not ruffed):  # a ruff, or an overruff
                top = c1
                w = s1
                ruffed = True
        f = H[s2][led]
        if f:
            c2 = f.pop(fl(rnd() * len(f)))
            if c2 > top and not ruffed:
                top = c2
                w = s2
        else:
            h = H[s2]
            k = fl(rnd() * n)
            a = h[0]
            p = len(a)
            if k < p:
                c2 = a.pop(k)
            else:
                k -= p
                a = h[1]
                p = len(a)
                if k < p:
                    c2 = a.pop(k)
                else:
                    k -= p
                    a = h[2]
                    p = len(a)
                    c2 = a.pop(k) if k < p else h[3].pop(k - p)
            if c2 // 13 == trump and (c2 > top or not ruffed):  # a ruff, or an overruff
                top = c2
                w = s2
                ruffed = True
        f = H[s3][led]
        if f:
            c3 = f.pop(fl(rnd() * len(f)))
            if c3 > top and not ruffed:
                top = c3
                w = s3
        else:
            h = H[s3]
            k = fl(rnd() * n)
            a = h[0]
            p = len(a)
            if k < p:
                c3 = a.pop(k)
            else:
                k -= p
                a = h[1]
                p = len(a)
                if k < p:
                    c3 = a.pop(k)
                else:
                    k -= p
                    a = h[2]
                    p = len(a)
                    c3 = a.pop(k) if k < p else h[3].pop(k - p)
            if c3 // 13 == trump and (c3 > top or not ruffed):  # a ruff, or an overruff
                top = c3
                w = s3
                ruffed = True
        tricks[w] += 1
        trick_no += 1
        past.append((w, leader, (c0, c1, c2, c3)))
        leader = s = w
    hands[0] = hands[1] = hands[2] = hands[3] = 0  # every card has been played
    g.exposed = None
    g.trick = []
    g.leader = leader
    g.to_act = s
    g.trick_no = trick_no
    g.last_trick = past[-1]
    g.past_tricks = tuple(past)
    g._score_deal(None)
