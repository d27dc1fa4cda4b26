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
from engine.trix.contracts import (
    DIAMONDS,
    DOUBLABLE,
    PENALTY_CARDS,
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
#: ``_POP13[m]``: how many cards the 13-bit rank mask ``m`` holds (``len(SUIT_IDS[s][m])``).
_POP13: tuple[int, ...] = tuple(m.bit_count() for m in range(8192))
_DIAMOND_MASK = C.SUIT_MASK[C.DIAMONDS]
#: The layout's open cards from the set of cards on the table (see :func:`_layout_playout`).
_JACKS = sum(1 << C.card(L.JACK, suit) for suit in range(4))
_NOT_TWOS = C.FULL_DECK & ~sum(1 << C.card(2, suit) for suit in range(4))
_NOT_ACES = C.FULL_DECK & ~sum(1 << C.card(14, suit) for suit in range(4))


def step(g: TrixGame, aid: int) -> None:
    """Apply the legal action id ``aid`` for ``g.to_act`` without building events."""
    g._apply(aid, None)


def playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """Play uniformly random legal actions until this deal ends (or the match does).

    ``rnd`` returns floats in ``[0, 1)``. The same stream gives the same actions as
    ``step(ids[int(rnd() * len(ids))])`` with ``ids = legal_ids()``, repeated.
    """
    deal_no = g.deal_no
    while g.to_act is not None and g.deal_no == deal_no:
        phase = g.phase
        if phase == "contract":  # TrixGame._apply of a contract id, the ids of legal_ids()
            left = g.contracts_left()
            g._begin_contract(left[int(rnd() * len(left))], False, None)
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
            g._apply(ids[int(rnd() * len(ids))], None)
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
            opts = C.cards_of(m)
            k = int(rnd() * (len(opts) + 1))
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

    ``TrixGame._trick_play`` and ``_close_trick`` inlined: a trick in progress is finished card by
    card, then each trick is four plays unrolled in local variables; the winner is the highest
    card of the suit led (no trumps in Trix), read from the bits of the four cards.
    """
    hands = g.hands
    captured = g.captured
    tricks = g.tricks
    ds = g.deal_scores
    contract = g.contract
    r = g._rules
    pen = PENALTY_CARDS[contract] if r.early_end else 0
    scoring = SCORING[contract]
    p_diamond = r.penalties[2]
    p_trick = r.penalties[3]
    table = _SUIT_IDS
    t0, t1, t2, t3 = table
    pop = _POP13
    card_ids = _card_ids
    bit = _BIT
    suit_mask = _SUIT_MASK
    s: int = g.to_act  # type: ignore[assignment]
    leader = g.leader
    n = tricks[0] + tricks[1] + tricks[2] + tricks[3]
    taken = captured[0] | captured[1] | captured[2] | captured[3]
    past = list(g.past_tricks)
    trick = g.trick
    g.exposed = True
    while True:
        if trick:  # the trick in progress, card by card
            led = trick[0] // 13
            while len(trick) < 4:
                hand = hands[s]
                follow = hand >> (13 * led) & 8191
                opts = table[led][follow] if follow else card_ids(hand)
                c = opts[int(rnd() * len(opts))]
                hands[s] = hand ^ bit[c]
                trick.append(c)
                s = (s + 1) & 3
            c0, c1, c2, c3 = trick
            trick = []
        else:
            hand = hands[s]
            opts = [*t0[hand & 8191], *t1[hand >> 13 & 8191], *t2[hand >> 26 & 8191], *t3[hand >> 39]]
            c0 = opts[int(rnd() * len(opts))]
            hands[s] = hand ^ bit[c0]
            led = c0 // 13
            sh = 13 * led
            suit_ids = table[led]
            s = (s + 1) & 3
            hand = hands[s]
            follow = hand >> sh & 8191
            if follow:
                c1 = suit_ids[follow][int(rnd() * pop[follow])]
            else:
                opts = [*t0[hand & 8191], *t1[hand >> 13 & 8191], *t2[hand >> 26 & 8191], *t3[hand >> 39]]
                c1 = opts[int(rnd() * len(opts))]
            hands[s] = hand ^ bit[c1]
            s = (s + 1) & 3
            hand = hands[s]
            follow = hand >> sh & 8191
            if follow:
                c2 = suit_ids[follow][int(rnd() * pop[follow])]
            else:
                opts = [*t0[hand & 8191], *t1[hand >> 13 & 8191], *t2[hand >> 26 & 8191], *t3[hand >> 39]]
                c2 = opts[int(rnd() * len(opts))]
            hands[s] = hand ^ bit[c2]
            s = (s + 1) & 3
            hand = hands[s]
            follow = hand >> sh & 8191
            if follow:
                c3 = suit_ids[follow][int(rnd() * pop[follow])]
            else:
                opts = [*t0[hand & 8191], *t1[hand >> 13 & 8191], *t2[hand >> 26 & 8191], *t3[hand >> 39]]
                c3 = opts[int(rnd() * len(opts))]
            hands[s] = hand ^ bit[c3]
        m = bit[c0] | bit[c1] | bit[c2] | bit[c3]
        top = (m & suit_mask[led]).bit_length() - 1
        w = (leader + (0 if top == c0 else 1 if top == c1 else 2 if top == c2 else 3)) & 3
        captured[w] |= m
        tricks[w] += 1
        n += 1
        taken |= m
        if contract == TRICKS:
            ds[w] -= p_trick
        elif contract == DIAMONDS:
            ds[w] -= p_diamond * (m & _DIAMOND_MASK).bit_count()
        elif m & scoring:
            pts = trick_points(
                contract, m, winner=w, leader=leader, doubles=g.doubles, penalties=r.penalties,
                self_capture=r.self_capture,
            )
            for x in range(4):
                ds[x] += pts[x]
        past.append((w, leader, (c0, c1, c2, c3)))
        leader = s = w
        if n == 13 or (pen and taken & pen == pen):
            break
    g.trick = []
    g.leader = leader
    g.to_act = leader
    g.last_trick = past[-1]
    g.past_tricks = tuple(past)
    g._end_deal(None)


def _layout_playout(g: TrixGame, rnd: Callable[[], float]) -> None:
    """The layout (the Trix contract) played on: ``TrixGame._layout_play`` inlined, the same actions.

    The rows are kept as one set of the cards on the table: each row is a run of ranks around its
    jack, so the cards that may be played are the neighbours of the runs plus the jacks not yet
    down (``layout.open_cards``, computed with two shifts). The rows are written back at the end.
    Runs until the deal ends or a seat must pass by hand (``auto_pass_in_layout`` off), which
    goes back to :func:`playout`.
    """
    hands = g.hands
    bit = _BIT
    t0, t1, t2, t3 = _SUIT_IDS
    not_twos = _NOT_TWOS
    not_aces = _NOT_ACES
    jacks = _JACKS
    auto = g._rules.auto_pass
    finished = g.finished
    log = list(g.layout_log)
    played = 0
    for suit, (low, high) in enumerate(g.rows):
        if low:
            played |= ((1 << (high - low + 1)) - 1) << (13 * suit + low - 2)
    open_mask = g.open_mask
    s: int = g.to_act  # type: ignore[assignment]
    g.exposed = True
    while True:
        hand = hands[s]
        m = hand & open_mask
        if not m:  # a pass by hand: playout() applies it
            g.to_act = s
            break
        opts = [*t0[m & 8191], *t1[m >> 13 & 8191], *t2[m >> 26 & 8191], *t3[m >> 39]]
        card = opts[int(rnd() * len(opts))]
        b = bit[card]
        hand ^= b
        hands[s] = hand
        log.append(s * 64 + card)
        played |= b
        open_mask = ((played << 1 & not_twos) | (played >> 1 & not_aces) | jacks) & ~played
        if not hand:
            g._player_out(s, None)
            if len(finished) == 3:
                g._player_out(next(x for x in range(4) if x not in finished), None)
                g.to_act = s
                _write_layout(g, played, open_mask, log)
                g._end_deal(None)
                return
        # the next seat that holds cards and can play; automatic passes on the way (X-L3, X-L4)
        for _ in range(8):
            s = (s + 1) & 3
            nxt = hands[s]
            if nxt:
                if nxt & open_mask or not auto:
                    break
                log.append(s * 64 + 63)
        else:
            raise AssertionError("the layout cannot lock up (X-L6)")
    _write_layout(g, played, open_mask, log)


def _write_layout(g: TrixGame, played: int, open_mask: int, log: list[int]) -> None:
    """Store the layout kept in locals by :func:`_layout_playout` in the game's own form."""
    rows = g.rows
    for suit in range(4):
        run = played >> (13 * suit) & 8191
        rows[suit] = (0, 0) if not run else ((run & -run).bit_length() + 1, run.bit_length() + 1)
    g.open_mask = open_mask
    g.layout_log = tuple(log)
