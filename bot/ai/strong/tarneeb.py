"""Strong play for classic Tarneeb and Syrian Tarneeb 41: sampled deals scored double-dummy.

Card play is perfect-information Monte Carlo: draw deals consistent with the seat's view, let DDS
score every legal card in each, and play the card with the best mean outcome (anytime, until a
budget, with a minimum number of samples). Bids and the trump choice use the same sampled
double-dummy trick counts: the bid with the best expected score under the game's scoring.

Budgets are CPU seconds (:class:`bot.ai.think.Think`) under the one-second wall-clock cap: a solve
is begun only when the slowest solve of this decision so far still fits before the cap (so the
minimum number of samples never overrides it), and with no solve at all the caller falls back to
the rule player.
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.ai.strong import dds
from bot.ai.strong.knowledge import Knowledge, from_view, sample_deal
from bot.ai.think import Think
from engine import cards as C

_HCP = {14: 4, 13: 3, 12: 2, 11: 1}


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
                 min_samples: int = 6, max_samples: int = 40) -> None:
        self.card_seconds = card_seconds
        self.bid_seconds = bid_seconds
        self.min_samples = min_samples
        self.max_samples = max_samples
        self._cache: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._cache_lock = threading.Lock()  # one player serves many tables from worker threads

    # ------------------------------------------------------------------ card play
    def play(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """The card with the best mean double-dummy outcome over sampled deals (None: no time)."""
        think = Think(self.card_seconds, deadline)
        legal: list[str] = [str(a) for a in view["legal"] if a.startswith("play ")]
        if len(legal) == 1:
            return legal[0]
        k = from_view(view)
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
            for c in cards:
                totals[c] += utility(ours + scored.get(c, 0))
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

    # ------------------------------------------------------------------ sampling helpers
    def _samples(self, k: Knowledge, rng: random.Random, fn: Any, think: Think) -> list[Any]:
        out: list[Any] = []
        while len(out) < self.max_samples and think.more(len(out), self.min_samples):
            value = fn(sample_deal(k, rng), think)  # None: the cap came in the middle of the sample
            if value is None:
                break
            out.append(value)
        return out

    def _cached(self, key: tuple[Any, ...], make: Any) -> Any:
        with self._cache_lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
        value = make()
        if not value:
            return value  # cut short before a single sample: think again next time
        with self._cache_lock:
            self._cache[key] = value
            while len(self._cache) > 256:
                self._cache.popitem(last=False)
        return value

    # ------------------------------------------------------------------ classic auction
    def _suit_tricks(self, view: dict[str, Any], rng: random.Random, think: Think) -> list[list[int]]:
        """Per trump suit, sampled double-dummy tricks of my side when I declare and lead."""
        k = from_view(view)

        def per_sample(hands: list[int], think: Think) -> list[int] | None:
            out = []
            for s in range(4):  # one solve per trump suit, each begun only if it fits
                if s and not think.fits():
                    return None
                out.append(_solve(think, partial(dds.max_tricks, hands, s, k.seat)))
            return out

        samples = self._cached(("classic", k.hand, k.seat),
                               lambda: self._samples(k, rng, per_sample, think))
        return [[s[t] for s in samples] for t in range(4)]

    def bid_classic(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """Bid the lowest legal value while some bid keeps a positive expected score."""
        think = Think(self.bid_seconds, deadline)
        legal = view["legal"]
        bids = sorted(int(a[4:]) for a in legal if a.startswith("bid "))
        if not bids:
            return "pass" if "pass" in legal else str(legal[0])
        per_suit = self._suit_tricks(view, rng, think)
        if not per_suit[0]:
            return None
        opts = view.get("options") or {}
        best_value, best_bid = float("-inf"), None
        for b in range(7, 14):
            for ts in per_suit:
                v = sum(classic_score(b, t, opts) for t in ts) / len(ts)
                if v > best_value:
                    best_value, best_bid = v, b
        high = view.get("high_bid")
        partner_high = isinstance(high, dict) and int(high["seat"]) == (int(view["seat"]) + 2) % 4
        limit = best_bid or 0
        if partner_high:
            limit -= 2  # partner's bid already shows strength my sampling does not assume
        if best_value > 0 and bids[0] <= limit:
            return f"bid {bids[0]}"
        if "pass" in legal:
            return "pass"
        return f"bid {bids[0]}"

    def trump(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """Name the suit with the best expected score for the contract won."""
        think = Think(self.bid_seconds, deadline)
        legal: list[str] = [str(a) for a in view["legal"] if a.startswith("trump ")]
        per_suit = self._suit_tricks(view, rng, think)
        if not per_suit[0]:
            return None
        bid = int(view.get("contract") or (view.get("high_bid") or {}).get("bid") or 7)
        opts = view.get("options") or {}
        values = {}
        for a in legal:
            s = C.parse_suit(a[6:])
            ts = per_suit[s]
            values[a] = sum(classic_score(bid, t, opts) for t in ts) / len(ts)
        return max(legal, key=lambda a: (values[a], -C.parse_suit(a[6:])))

    # ------------------------------------------------------------------ Syrian 41 bids
    def bid41(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str | None:
        """The personal bid with the best expected score (and the throw-in as the dealer)."""
        think = Think(self.bid_seconds, deadline)
        legal = view["legal"]
        options = sorted(int(a[4:]) for a in legal if a.startswith("bid "))
        k = from_view(view)
        trump = _suit(view.get("trump"))
        dealer = int(view.get("dealer") or 0)
        first = (dealer + 1) % 4
        partner = (k.seat + 2) % 4

        def personal(hands: list[int], think: Think) -> float:
            t: int = _solve(think, partial(dds.max_tricks, hands, trump, first))
            if first % 2 != k.seat % 2:
                t = 13 - t
            me, pa = _strength(hands[k.seat], trump), _strength(hands[partner], trump)
            return 0.92 * t * (me + 0.5) / (me + pa + 1.0)

        xs = self._cached(("41", k.hand, k.seat, trump, first),
                          lambda: self._samples(k, rng, personal, think))
        if not xs:
            return None
        bids = view.get("bids") or [None] * 4
        made = [int(b) for b in bids if b is not None]
        opts = view.get("options") or {}
        min_total = int(opts.get("min_total", 11))
        last = len(made) == 3

        def value(b: int) -> float:
            if last and sum(made) + b < min_total:
                return 0.0
            p = sum(1 for x in xs if x + 0.5 >= b) / len(xs)
            return b * (2 * p - 1)

        best = max(options, key=lambda b: (value(b), -b))
        return f"bid {best}"


def _strength(hand: int, trump: int | None) -> float:
    s = 0.0
    for c in C.cards_of(hand):
        r = C.rank_of(c)
        s += _HCP.get(r, 0)
        if trump is not None and C.suit_of(c) == trump:
            s += 1.0
    return s


def _wins(k: Knowledge, card: int, trump: int | None) -> bool:
    cards = [c for _, c in k.trick] + [card]
    return C.trick_winner(cards, trump) == len(cards) - 1
