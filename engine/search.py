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
_SUIT_MASK = C.SUIT_MASK
_card_ids = C.card_ids
_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
#: ``_POP13[m]``: how many cards the 13-bit rank mask ``m`` holds (``len(SUIT_IDS[s][m])``).
_POP13: tuple[int, ...] = tuple(m.bit_count() for m in range(8192))


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
    """The card play of :func:`playout` from the current state to the deal's 13th trick, scored.

    A trick in progress is finished card by card; then each trick is four plays unrolled in
    local variables, its winner read from the bits of the four cards (the highest trump, else the
    highest card of the suit led), the same winner as ``cards.trick_winner``.
    """
    hands = g.hands
    tricks = g.tricks
    trump = g.trump
    trump_mask = 0 if trump is None else _SUIT_MASK[trump]
    table = _SUIT_IDS
    t0, t1, t2, t3 = table
    pop = _POP13
    card_ids = _card_ids
    bit = _BIT
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
            opts = table[led][follow] if follow else card_ids(hand)
            c = opts[int(rnd() * len(opts))]
            hands[s] = hand ^ bit[c]
            trick.append(c)
            s = (s + 1) & 3
        c0, c1, c2, c3 = trick
        m = bit[c0] | bit[c1] | bit[c2] | bit[c3]
        top = (m & trump_mask or m & _SUIT_MASK[led]).bit_length() - 1
        w = (leader + (0 if top == c0 else 1 if top == c1 else 2 if top == c2 else 3)) & 3
        tricks[w] += 1
        trick_no += 1
        past.append((w, leader, (c0, c1, c2, c3)))
        leader = s = w
    while trick_no < 13:
        hand = hands[s]
        lead = g._lead_mask(hand) if trick_no == 0 else hand
        opts = [*t0[lead & 8191], *t1[lead >> 13 & 8191], *t2[lead >> 26 & 8191], *t3[lead >> 39]]
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
        top = (m & trump_mask or m & _SUIT_MASK[led]).bit_length() - 1
        w = (leader + (0 if top == c0 else 1 if top == c1 else 2 if top == c2 else 3)) & 3
        tricks[w] += 1
        trick_no += 1
        past.append((w, leader, (c0, c1, c2, c3)))
        leader = s = w
    g.exposed = None  # every card has been played, the exposed one too
    g.trick = []
    g.leader = leader
    g.to_act = s
    g.trick_no = trick_no
    g.last_trick = past[-1]
    g.past_tricks = tuple(past)
    g._score_deal(None)
