"""Strong play for classic Tarneeb and Syrian Tarneeb 41: sampled deals scored double-dummy.

Card play is perfect-information Monte Carlo: draw deals consistent with the seat's view, let DDS
score every legal card in each, and play the card with the best mean outcome (anytime, until a
budget, with a minimum number of samples). Bids and the trump choice are simulated with the
rule player's card play instead (:mod:`ai.strong.bidsim`).

Budgets are CPU seconds (:class:`ai.think.Think`) under the one-second wall-clock cap: a solve
is begun only when the slowest solve of this decision so far still fits before the cap (so the
minimum number of samples never overrides it), and with no solve at all the caller falls back to
the rule player.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from ai.strong import bidsim, dds
from ai.strong.knowledge import Knowledge, from_view, sample_deal
from ai.think import Think
from engine import cards as C


def _solve(think: Think, fn: Callable[[], Any]) -> Any:
    """One double-dummy solve, timed for the budget."""
    t = time.monotonic()
    out = fn()
    think.measured(t)
    return out


def _suit(view_trump: Any) -> int | None:
    return C.parse_suit(str(view_trump)) if view_trump else None


def classic_score(bid: int, tricks: int, opts: dict[str, Any] | None = None) -> int:
    """Our team's score minus theirs for a classic contract ``bid`` that took ``tricks`` (defaults)."""
    o = opts or {}
    unbid = int(o.get("kaboot_unbid_score", 16))
    made13 = int(o.get("kaboot_bid_made_score", 26))
    fail13 = int(o.get("kaboot_bid_fail_penalty", 16))
    d = 13 - tricks
    if bid == 13:
        return made13 if tricks == 13 else -fail13 - d
    if tricks == 13:
        return unbid
    if tricks >= bid:
        return tricks
    return -bid - (16 if d == 13 else d)


class TarneebBrain:
    """Decisions for both Tarneeb games from a seat's view."""

    def __init__(self, *, card_seconds: float = 0.25, bid_seconds: float = 1.0,
                 min_samples: int = 6, max_samples: int = 40, bid_samples: int = 300,
                 classic_bid_seconds: float | None = None) -> None:
        self.card_seconds = card_seconds
        self.bid_samples = bid_samples
        self.bid_seconds = bid_seconds
        #: classic bids and the trump choice (several rollouts a sample): by default ``bid_seconds``
        self.classic_bid_seconds = bid_seconds if classic_bid_seconds is None else classic_bid_seconds
        self.min_samples = min_samples
        self.max_samples = max_samples
        #: Makes each decision's budget (:mod:`ai.advice` counts samples instead of CPU time)
        self.new_think: Callable[[float, float | None], Think] = Think
        #: When a dict: each candidate's utility on every sampled deal of the last decision (advice):
        #: a card's, or a bid's or trump suit's score in the bid simulation
        self.trace: dict[str, list[float]] | None = None
        #: What the seat knows, from its view (:mod:`ai.strong.cheater` adds the true hands)
        self.knowledge: Callable[[dict[str, Any]], Knowledge] = from_view

    # ------------------------------------------------------------------ card play
    def play(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """The card with the best mean double-dummy outcome over sampled deals (None: no time)."""
        think = self.new_think(self.card_seconds, deadline)
        legal: list[str] = [str(a) for a in view["legal"] if a.startswith("play ")]
        if len(legal) == 1:
            return legal[0]
        k = self.knowledge(view)
        trump = _suit(view.get("trump"))
        cards = {C.parse(a[5:]): a for a in legal}
        trick = [c for _, c in k.trick]
        leader = k.trick[0][0] if k.trick else k.seat
        side = (k.seat % 2)
        tricks = view.get("tricks") or [0, 0, 0, 0]
        ours = int(tricks[k.seat]) + int(tricks[(k.seat + 2) % 4])
        utility = self._play_utility(view, side)
        totals = dict.fromkeys(cards, 0.0)
        n = 0
        while n < self.max_samples and think.more(n, self.min_samples):
            hands = sample_deal(k, rng)
            scored = _solve(think, partial(dds.score_cards, hands, trump, leader, trick))
            for c, code in cards.items():
                u = utility(ours + scored.get(c, 0))
                totals[c] += u
                if self.trace is not None:
                    self.trace.setdefault(code, []).append(u)
            n += 1
        if not n:
            return None
        best = max(totals.values())
        near = [c for c in cards if totals[c] >= best - 1e-9]
        return cards[self._tie_break(near, k, trump, view)]

    def _play_utility(self, view: dict[str, Any], side: int) -> Any:
        if view.get("game") == "tarneeb" and view.get("declarer") is not None and view.get("contract"):
            declaring = int(view["declarer"]) % 2 == side
            bid = int(view["contract"])
            opts = view.get("options") or {}
            if declaring:
                return lambda t: classic_score(bid, t, opts)
            return lambda t: -classic_score(bid, 13 - t, opts)
        return float

    @staticmethod
    def _tie_break(near: list[int], k: Knowledge, trump: int | None, view: dict[str, Any]) -> int:
        if len(near) == 1:
            return near[0]
        # Syrian 41: personal tricks count; take the trick myself when I still need tricks.
        bids = view.get("bids")
        if view.get("game") == "tarneeb41" and isinstance(bids, list) and bids[k.seat] is not None:
            need = int(bids[k.seat]) - int((view.get("tricks") or [0] * 4)[k.seat])
            if need > 0 and k.trick:
                winners = [c for c in near if _wins(k, c, trump)]
                if winners:
                    return min(winners, key=lambda c: (C.rank_of(c), C.suit_of(c)))
        return min(near, key=lambda c: (c // 13 == trump, C.rank_of(c), C.suit_of(c)))

    # ------------------------------------------------------------------ bids (by simulation)
    def bid_classic(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """Pass or bid: the best mean team score over sampled deals (:mod:`ai.strong.bidsim`)."""
        return bidsim.bid_classic(view, rng, self.new_think(self.classic_bid_seconds, deadline), self.bid_samples,
                                   self.trace)

    def trump(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """The suit with the best mean score for the contract won (:mod:`ai.strong.bidsim`)."""
        return bidsim.trump(view, rng, self.new_think(self.classic_bid_seconds, deadline), self.bid_samples,
                                   self.trace)

    def bid41(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """The personal bid with the best mean score of the seat and its partner (:mod:`ai.strong.bidsim`)."""
        return bidsim.bid41(view, rng, self.new_think(self.bid_seconds, deadline), self.bid_samples, self.trace)


def _wins(k: Knowledge, card: int, trump: int | None) -> bool:
    cards = [c for _, c in k.trick] + [card]
    return C.trick_winner(cards, trump) == len(cards) - 1
