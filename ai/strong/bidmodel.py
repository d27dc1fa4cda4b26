"""The rule player's Tarneeb bids and card play, fast copies for :mod:`ai.strong.bidsim`.

:func:`rollout` plays a deal out as :func:`ai.heuristics.play_card` would, on per-suit rank
lists (about 0.2 ms a deal); :func:`best_trump` is :func:`ai.heuristics.best_trump` with the
suits sorted once; :func:`rule_bid_classic` and :func:`rule_bid_41` are
:class:`ai.rules.RulePlayer`'s bids from a hand's estimate; :class:`HiddenHands` draws the
three hands a seat cannot see at bidding time. Each is checked against the original in
``tests/ai/test_ai_bids.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ai import heuristics as H

Card = tuple[int, int]

#: The rule player's estimate of a partner's tricks in classic Tarneeb (ai.rules.PARTNER_TRICKS).
PARTNER_TRICKS = 2.6


# ---------------------------------------------------------------------------------- card play
def _beats(a: Card, b: Card, led: int, trump: int | None) -> bool:
    if a[0] == trump:
        return b[0] != trump or a[1] > b[1]
    if b[0] == trump:
        return False
    return a[0] == led and (b[0] != led or a[1] > b[1])


def _discard(suits: list[list[int]], trump: int | None) -> Card:
    """:func:`ai.heuristics.discard` from the whole hand: the lowest side card, shortest suit first."""
    best: tuple[int, int, int] | None = None
    for s in range(4):
        ranks = suits[s]
        if ranks and s != trump:
            key = (ranks[-1], len(ranks), s)
            if best is None or key < best:
                best = key
    if best is None:  # trumps only
        assert trump is not None
        return (trump, suits[trump][-1])
    return (best[2], best[0])


def _lead(suits: list[list[int]], trump: int | None, ours: bool) -> Card:
    """:func:`ai.heuristics.choose_lead` (the whole hand is legal on a lead)."""
    if trump is not None and ours:
        t = suits[trump]
        if len(t) >= 4 and t[0] >= 13:
            return (trump, t[0])
    ace = None
    for s in range(4):
        if s != trump and suits[s] and suits[s][0] == 14 and (ace is None or len(suits[s]) > len(suits[ace])):
            ace = s
    if ace is not None:
        return (ace, 14)
    side = None
    for s in range(4):
        if s != trump and suits[s] and (
                side is None or (len(suits[s]), suits[s][0]) > (len(suits[side]), suits[side][0])):
            side = s
    if side is not None:
        ranks = suits[side]
        if len(ranks) >= 2 and ranks[0] >= 12 and ranks[0] - ranks[1] == 1:
            return (side, ranks[0])
        return (side, ranks[-1])
    assert trump is not None  # trumps only
    return (trump, suits[trump][-1])


def _follow(suits: list[list[int]], led: int, win: Card, partner_wins: bool, trump: int | None) -> Card:
    """:func:`ai.heuristics.choose_follow`: win cheaply, duck, never overtake the partner."""
    mine = suits[led]
    if partner_wins:
        return (led, mine[-1]) if mine else _discard(suits, trump)
    if mine:
        if win[0] == led or led == trump:  # a higher card of the suit led wins (trumps led: a higher trump)
            for r in reversed(mine):
                if r > win[1]:
                    return (led, r)
        return (led, mine[-1])
    if trump is not None and suits[trump]:
        for r in reversed(suits[trump]):
            if win[0] != trump or r > win[1]:
                return (trump, r)
    return _discard(suits, trump)


def rollout(hands: list[list[Card]], trump: int | None, leader: int, declarer: int | None) -> list[int]:
    """Tricks per seat when the rule player (:func:`ai.heuristics.play_card`) plays all four
    hands from the first lead, on plain per-suit rank lists.

    ``declarer``: the classic declarer (its side leads strong trumps), None in Tarneeb 41.
    """
    held: list[list[list[int]]] = []
    for h in hands:
        suits: list[list[int]] = [[], [], [], []]
        for s, r in h:
            suits[s].append(r)
        for ranks in suits:
            ranks.sort(reverse=True)
        held.append(suits)
    tricks = [0, 0, 0, 0]
    for _ in range(13):
        suits = held[leader]
        card = _lead(suits, trump, declarer is None or (declarer - leader) % 2 == 0)
        suits[card[0]].remove(card[1])
        led = card[0]
        win, win_seat = card, leader
        for k in (1, 2, 3):
            seat = (leader + k) & 3
            suits = held[seat]
            card = _follow(suits, led, win, (win_seat - seat) % 4 == 2, trump)
            suits[card[0]].remove(card[1])
            if _beats(card, win, led, trump):
                win, win_seat = card, seat
        tricks[win_seat] += 1
        leader = win_seat
    return tricks


# ---------------------------------------------------------------------------------- hand estimates
def best_trump(hand: list[Card]) -> tuple[int, float]:
    """:func:`ai.heuristics.best_trump` (the same sums in the same order), the suits sorted once."""
    suits: list[list[int]] = [[], [], [], []]
    for s, r in hand:
        suits[s].append(r)
    for ranks in suits:
        ranks.sort(reverse=True)
    lens = [len(x) for x in suits]
    honours = [sum(H.HONOUR.get(r, 0.0) for r in x) for x in suits]
    best: tuple[int, float] | None = None
    best_key: tuple[float, int, int] | None = None
    for trump in range(4):
        long_trump = lens[trump] >= 3
        total = 0.0
        for s in range(4):
            if s == trump:
                total += honours[s]
                total += max(0, lens[s] - 3) * 0.85
                continue
            total = H.add_side_suit(total, suits[s], long_trump)
        key = (round(total, 6), lens[trump], sum(suits[trump]))
        if best_key is None or key > best_key:
            best, best_key = (trump, total), key
    assert best is not None
    return best


# ---------------------------------------------------------------------------------- sampling
class HiddenHands:
    """Draws the three hidden hands at bidding time (no card played yet; ``known`` cards placed)."""

    def __init__(self, seat: int, hand: list[str], known: Mapping[int, list[Card]] | None = None) -> None:
        self.seat = seat
        self.mine = [H.card_of(c) for c in hand]
        self.known = {s: list(cs) for s, cs in (known or {}).items()}
        taken = set(self.mine) | {c for cs in self.known.values() for c in cs}
        self.pool = [(s, r) for s in range(4) for r in range(2, 15) if (s, r) not in taken]
        self.others = [s for s in range(4) if s != seat]

    def draw(self, rng: random.Random) -> list[list[Card]]:
        pool = self.pool
        rng.shuffle(pool)
        hands: list[list[Card]] = [[], [], [], []]
        hands[self.seat] = self.mine
        i = 0
        for s in self.others:
            k = self.known.get(s, [])
            n = 13 - len(k)
            hands[s] = k + pool[i:i + n]
            i += n
        return hands


# ---------------------------------------------------------------------------------- the rule player's bids
def rule_bid_classic(mine: float, seat: int, high: tuple[int, int] | None, can_pass: bool = True) -> int | None:
    """:meth:`ai.rules.RulePlayer._bid_classic` from the hand's estimate (None: pass)."""
    team = mine + PARTNER_TRICKS
    if high is not None and high[0] == (seat + 2) % 4:
        team = mine + 1.0 + max(0, high[1] - 7) * 0.5
        if team < high[1] + 1.5:
            return None
    target = int(team)
    lo = high[1] + 1 if high is not None else 7
    if lo <= 13 and lo <= target and target >= 7:
        return lo
    if can_pass or lo > 13:
        return None
    return lo


def rule_bid_41(est: float, lowest: int) -> int:
    """:meth:`ai.rules.RulePlayer._bid_41` from the hand's estimate and the lowest legal bid."""
    target = max(2, int(est + 0.2))
    return max(lowest, min(13, target))
