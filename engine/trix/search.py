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
from math import floor
from typing import TYPE_CHECKING

from engine import cards as C
from engine.trix import layout as L
from engine.trix.actions import PASS
from engine.trix.contracts import (
    DIAMONDS,
    DOUBLABLE,
    KING,
    PENALTY_CARDS,
    QUEENS,
    SCORING,
    TRICKS,
    TRIX,
    trick_points,
)

if TYPE_CHECKING:
    from engine.trix.game import TrixGame

_SUIT_IDS = C.SUIT_IDS
_SUIT_MASK = C.SUIT_MASK
_card_ids = C.card_ids
_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
_DIAMOND_MASK = C.SUIT_MASK[C.DIAMONDS]
#: ``_NEXT3[s]``: the three seats after ``s`` in play order.
_NEXT3: tuple[tuple[int, int, int], ...] = tuple(((s + 1) & 3, (s + 2) & 3, (s + 3) & 3) for s in range(4))
#: ``_GROW[card]``: the cards a legal layout play of ``card`` opens (X-L2): the next rank outward
#: on its row (both neighbours for a jack, none past a two or an ace).
_GROW: tuple[int, ...] = tuple(
    (1 << (c - 1) if 2 < c % 13 + 2 <= L.JACK else 0) | (1 << (c + 1) if L.JACK <= c % 13 + 2 < 14 else 0)
    for c in range(52)
)


def step(g: TrixGame, aid: int) -> None:
    """Apply the legal action id ``aid`` for ``g.to_act`` without building events."""
    g._apply(aid, None)


def playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """Play uniformly random legal actions until this deal ends (or the match does).

    ``rnd`` returns floats in ``[0, 1)``. The same stream gives the same actions as
    ``step(ids[int(rnd() * len(ids))])`` with ``ids = legal_ids()``, repeated (``floor`` here: the
    same index for a non-negative float, a cheaper call than ``int``).
    """
    deal_no = g.deal_no
    while g.to_act is not None and g.deal_no == deal_no:
        phase = g.phase
        if phase == "contract":  # TrixGame._apply of a contract id, the ids of legal_ids()
            left = g._rules.left[g.used]
            g._begin_contract(left[floor(rnd() * len(left))], False, None)
        elif phase == "double":
            _doubling_playout(g, rnd)
        elif g.contract == TRIX:
            if g.hands[g.to_act] & g.open_mask:
                _layout_playout(g, rnd)
            else:  # a pass by hand (``auto_pass_in_layout`` off): the only legal action, drawn for
                rnd()
                g._apply(PASS, None)
        elif g._rules.king_rules:
            ids = g.legal_ids()
            g._apply(ids[floor(rnd() * len(ids))], None)
        else:
            _tricks_playout(g, rnd)


def _doubling_playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """The doubling window to its end: each seat asked doubles random cards until it draws ``done``.

    ``TrixGame._apply`` of double / done ids inlined; a seat's choices are its doublable cards in
    ascending order, then ``done`` (as ``legal_ids``).
    """
    can = DOUBLABLE[g.contract]
    hands = g.hands
    doubles = g.doubles
    queue = g.queue
    while queue:
        seat = queue[0]
        m = hands[seat] & can
        for c, _ in doubles:
            m &= ~(1 << c)
        while True:
            opts = _card_ids(m)
            k = floor(rnd() * (len(opts) + 1))
            if k == len(opts):  # done
                break
            card = opts[k]
            doubles = (*doubles, (card, seat))
            m &= ~(1 << card)
        queue = queue[1:]
    g.doubles = doubles
    g.queue = queue
    g._begin_play(None)


def _tricks_playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """A trick contract without the K♥ options, played to the deal's end and scored.

    ``TrixGame._trick_play`` and ``_close_trick`` inlined. A trick in progress is finished card by
    card on the hands' bit sets. Then each seat's cards are four short lists, one per suit,
    ascending (``legal_ids()``'s order), and each trick is four plays unrolled in local
    variables, the seats from :data:`_NEXT3`: a follow pops the ``k``-th card of the list of the
    suit led; a lead or a discard (a void follower) pops the ``k``-th card of the whole hand,
    found list by list (after a whole trick every hand holds ``13 - n`` cards). No trumps in
    Trix: the winner is the highest card of the suit led, kept while the follows are drawn. The
    hands' bit sets are rebuilt from the lists when the deal ends early.
    """
    hands = g.hands
    captured = g.captured
    tricks = g.tricks
    ds = g.deal_scores
    contract = g.contract
    r = g._rules
    pen = PENALTY_CARDS[contract] if r.early_end else 0
    scoring = SCORING[contract]
    per_trick = r.penalties[3] if contract == TRICKS else 0
    per_diamond = r.penalties[2] if contract == DIAMONDS else 0
    per_card = r.penalties[0] if contract == KING else r.penalties[1] if contract == QUEENS else 0
    #: each doubled card's bit -> its doubler (a card is doubled at most once)
    doubled = {1 << c: seat for c, seat in g.doubles}
    self_capture = r.self_capture
    table = _SUIT_IDS
    t0, t1, t2, t3 = table
    bit = _BIT
    nxt3 = _NEXT3
    fl = floor
    s: int = g.to_act  # type: ignore[assignment]
    leader = g.leader
    n = tricks[0] + tricks[1] + tricks[2] + tricks[3]
    taken = captured[0] | captured[1] | captured[2] | captured[3]
    past = list(g.past_tricks)
    trick = g.trick
    g.exposed = True
    if trick:  # the trick in progress, card by card
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
        top = (m & _SUIT_MASK[led]).bit_length() - 1
        w = (leader + (0 if top == c0 else 1 if top == c1 else 2 if top == c2 else 3)) & 3
        done = _score_trick(g, m, w, leader, n + 1, taken | m, pen)
        past.append((w, leader, (c0, c1, c2, c3)))
        leader = s = w
        n += 1
        taken |= m
    else:
        done = False
    # each seat's cards as four lists, one per suit, ascending (the order of legal_ids)
    h0, h1, h2, h3 = hands
    H = [
        [[*t0[h0 & 8191]], [*t1[h0 >> 13 & 8191]], [*t2[h0 >> 26 & 8191]], [*t3[h0 >> 39]]],
        [[*t0[h1 & 8191]], [*t1[h1 >> 13 & 8191]], [*t2[h1 >> 26 & 8191]], [*t3[h1 >> 39]]],
        [[*t0[h2 & 8191]], [*t1[h2 >> 13 & 8191]], [*t2[h2 >> 26 & 8191]], [*t3[h2 >> 39]]],
        [[*t0[h3 & 8191]], [*t1[h3 >> 13 & 8191]], [*t2[h3 >> 26 & 8191]], [*t3[h3 >> 39]]],
    ]
    while not done:
        left = 13 - n
        s1, s2, s3 = nxt3[s]
        h = H[s]
        k = fl(rnd() * left)
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
        f = H[s1][led]
        if f:
            c1 = f.pop(fl(rnd() * len(f)))
            if c1 > top:
                top = c1
                w = s1
        else:
            h = H[s1]
            k = fl(rnd() * left)
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
        f = H[s2][led]
        if f:
            c2 = f.pop(fl(rnd() * len(f)))
            if c2 > top:
                top = c2
                w = s2
        else:
            h = H[s2]
            k = fl(rnd() * left)
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
        f = H[s3][led]
        if f:
            c3 = f.pop(fl(rnd() * len(f)))
            if c3 > top:
                w = s3
        else:
            h = H[s3]
            k = fl(rnd() * left)
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
        m = bit[c0] | bit[c1] | bit[c2] | bit[c3]
        captured[w] |= m
        tricks[w] += 1
        n += 1
        if per_trick:
            ds[w] -= per_trick
        elif per_diamond:
            ds[w] -= per_diamond * (m & _DIAMOND_MASK).bit_count()
        elif m & scoring:
            if per_card:  # K♥ or queens: contracts.trick_points / _penalty_card inlined
                pm = m & scoring
                while pm:
                    low = pm & -pm
                    pm ^= low
                    doubler = doubled.get(low, -1)
                    if doubler < 0:
                        ds[w] -= per_card
                    elif doubler != w:
                        ds[w] -= 2 * per_card
                        ds[doubler] += per_card
                    elif self_capture == "original_penalty":
                        ds[w] -= per_card
                    elif self_capture == "leader_gains":
                        ds[w] -= 2 * per_card
                        ds[leader] += per_card
                    else:
                        ds[w] -= 2 * per_card
            else:
                pts = trick_points(
                    contract, m, winner=w, leader=leader, doubles=g.doubles, penalties=r.penalties,
                    self_capture=r.self_capture,
                )
                ds[0] += pts[0]
                ds[1] += pts[1]
                ds[2] += pts[2]
                ds[3] += pts[3]
        past.append((w, leader, (c0, c1, c2, c3)))
        leader = s = w
        if n == 13:
            break
        if pen:
            taken |= m
            if taken & pen == pen:
                break
    if n == 13:
        hands[0] = hands[1] = hands[2] = hands[3] = 0
    else:  # an early end (X-T4): the cards still held, back to bit sets
        get = bit.__getitem__
        for x in range(4):
            h = H[x]
            hands[x] = sum(map(get, h[0] + h[1] + h[2] + h[3]))
    g.trick = []
    g.leader = leader
    g.to_act = leader
    g.last_trick = past[-1]
    g.past_tricks = tuple(past)
    g._end_deal(None)


def _score_trick(g: TrixGame, m: int, w: int, leader: int, n: int, taken: int, pen: int) -> bool:
    """Score the trick ``m`` (cards) won by ``w`` as ``TrixGame._close_trick``; True when the deal ends.

    ``n`` counts the tricks with this one, ``taken`` every card taken with these; ``pen``: the
    early end's penalty cards (0 without one).
    """
    g.captured[w] |= m
    g.tricks[w] += 1
    contract = g.contract
    r = g._rules
    ds = g.deal_scores
    if contract == TRICKS:
        ds[w] -= r.penalties[3]
    elif contract == DIAMONDS:
        ds[w] -= r.penalties[2] * (m & _DIAMOND_MASK).bit_count()
    elif m & SCORING[contract]:
        pts = trick_points(
            contract, m, winner=w, leader=leader, doubles=g.doubles, penalties=r.penalties,
            self_capture=r.self_capture,
        )
        for x in range(4):
            ds[x] += pts[x]
    return n == 13 or bool(pen and taken & pen == pen)


def _layout_playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """The layout (the Trix contract) played on: ``TrixGame._layout_play`` inlined, the same actions.

    Only the set of open cards is kept while playing: a card played leaves it and opens its
    outward neighbour on its row (both neighbours for a jack; nothing past a two or an ace),
    :data:`_GROW`, the same set as ``layout.open_cards``. The ``k``-th playable card is the
    lowest bit left after dropping ``k`` (no list; a seat's one playable card still takes its
    draw). The rows are written back at the end from the cards no hand holds (every card of the
    Trix contract is in a hand or on the table). Runs until the deal ends or a seat must pass by
    hand (``auto_pass_in_layout`` off), which goes back to :func:`playout`.
    """
    hands = g.hands
    grow = _GROW
    fl = floor
    auto = g._rules.auto_pass
    finished = g.finished
    log = list(g.layout_log)
    append = log.append
    open_mask = g.open_mask
    s: int = g.to_act  # type: ignore[assignment]
    g.exposed = True
    while True:
        hand = hands[s]
        m = hand & open_mask
        if not m:  # a pass by hand: playout() applies it
            g.to_act = s
            break
        if m & (m - 1):  # the k-th lowest playable card: drop k lowest bits
            k = fl(rnd() * m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            b = m & -m
        else:  # one playable card: the only legal id, drawn for
            rnd()
            b = m
        card = b.bit_length() - 1
        hand ^= b
        hands[s] = hand
        append(s * 64 + card)
        open_mask = open_mask ^ b | grow[card]
        if not hand:
            g._player_out(s, None)
            if len(finished) == 3:
                g._player_out(next(x for x in range(4) if x not in finished), None)
                g.to_act = s
                _write_layout(g, open_mask, log)
                g._end_deal(None)
                return
        # the next seat that holds cards and can play; automatic passes on the way (X-L3, X-L4)
        s = (s + 1) & 3
        if hands[s] & open_mask:  # the common case: the next seat can play
            continue
        s = (s - 1) & 3
        for _ in range(8):
            s = (s + 1) & 3
            nxt = hands[s]
            if nxt:
                if nxt & open_mask or not auto:
                    break
                append(s * 64 + 63)
        else:
            raise AssertionError("the layout cannot lock up (X-L6)")
    _write_layout(g, open_mask, log)


def _write_layout(g: TrixGame, open_mask: int, log: list[int]) -> None:
    """Store the layout kept in locals by :func:`_layout_playout` in the game's own form."""
    h = g.hands
    played = C.FULL_DECK ^ (h[0] | h[1] | h[2] | h[3])
    rows = g.rows
    for suit in range(4):
        run = played >> (13 * suit) & 8191
        rows[suit] = (0, 0) if not run else ((run & -run).bit_length() + 1, run.bit_length() + 1)
    g.open_mask = open_mask
    g.layout_log = tuple(log)
