"""Tarneeb bids by simulation: sampled deals, the rest of the auction and the rule player's card play.

A bid is worth what it scores, and what it scores depends on the cards the seat cannot see, on
what the other seats will bid and on how the deal is then played. For each decision this module
draws deals consistent with the seat's hand and with the bids made so far (read as evidence: a
deal in which the rule player would have bid as the others did is kept, one that disagrees is
kept only now and then) and, for every candidate action of the seat, plays the rest of the
auction with the rule player's bids and the deal with the rule player's card play (a fast copy
of :func:`ai.heuristics.play_card` on per-suit rank lists: :mod:`ai.strong.bidmodel`,
which also holds the rule player's bids and the sampling of hidden hands). Every candidate
is scored on the same sampled deals (common random numbers), and :func:`choose` keeps the rule
player's own action unless another beats it by :data:`Z` standard errors of the paired
difference: the maximum of noisy means would otherwise favour risky bids (the winner's curse).
Under its model this is a one-step improvement of the rule player's policy; the model is exact
where the others bid and play as the rule player (``bench/ai.py --game bids``).

The score is ours minus theirs, as the duplicate benchmark counts it. Tarneeb 41: every legal
bid; the bids after the seat's are the rule player's; our two scores minus the opponents' two,
nothing when the total is below the minimum (the deal is thrown in): the dealer throws in a
deal the opponents bid strongly for, and bids a good hand up so that a deal is played.
Classic Tarneeb: pass and the three lowest bids; the seat's later bids and every other seat's
follow the rule player; the team score difference under the table's scoring, nothing when all
four pass; the trump choice by the same samples. The levels that bid this way:
:data:`ai.strong.Level.bid_games` (``strong``).

Anytime: samples are drawn while :class:`ai.think.Think` allows (CPU budget, hard cap, a
rollout begun only when the slowest so far still fits); with fewer than :data:`MIN_KEPT` kept
samples the caller falls back to the rule player.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from ai import heuristics as H
from ai.strong.bidmodel import (
    Card,
    HiddenHands,
    best_trump,
    rollout,
    rule_bid_41,
    rule_bid_classic,
)
from ai.think import Think
from engine import cards as C
from engine.tarneeb.scoring import score_hand
from engine.tarneeb41.scoring import bid_value, rising_tier

#: Weight of a sampled deal per seat whose recorded bid the rule player would not have made there
#: (by how far it is off: 0, 1, 2 or more tricks in 41; a bid for a pass or back in classic).
MISMATCH_41 = (1.0, 0.2, 0.03, 0.005)
MISMATCH_CLASSIC = 0.1
#: Fewer kept samples than this: no answer (the rule player bids).
MIN_KEPT = 8
#: A candidate replaces the rule player's bid only when it beats it by this many standard errors
#: on the sampled deals (a guard against the winner's curse of a maximum over noisy means).
Z = 1.0


def _within(think: Think) -> bool:
    """Below the minimum of kept samples (deals the bids so far make unlikely), thinking goes on
    past the CPU budget, but not past three times it (then the rule player answers)."""
    return think.cpu_used() < 3 * think.cpu + 0.05


# ---------------------------------------------------------------------------------- Tarneeb 41
def bid41(view: dict[str, Any], rng: random.Random, think: Think, max_samples: int = 400,
          trace: dict[str, list[float]] | None = None) -> str | None:
    """The legal bid with the best mean score of the seat and its partner over sampled deals
    (``trace``: filled with every candidate's values, sample by sample, by its action code)."""
    opts = view.get("options") or {}
    if opts.get("first_lead", "dealer_right") != "dealer_right" or view.get("trump") is None:
        return None
    legal = [str(a) for a in view["legal"]]
    options = sorted(int(a[4:]) for a in legal if a.startswith("bid "))
    if not options:
        return None
    me = int(view["seat"])
    partner = (me + 2) % 4
    dealer = int(view.get("dealer") or 0)
    trump = C.parse_suit(str(view["trump"]))
    first = (dealer + 1) % 4
    order = [(first + i) % 4 for i in range(4)]
    bids = list(view.get("bids") or [None] * 4)
    before = [s for s in order if bids[s] is not None and s != me]
    after = [s for s in order if bids[s] is None and s != me]
    table = str(opts.get("value_table", "face"))
    scores = [int(x) for x in ((view.get("scores") or {}).get("players") or [0, 0, 0, 0])]
    rising = bool(opts.get("rising_minimums"))
    min_bid = int(opts.get("min_bid", 2))
    min_total = int(opts.get("min_total", 11)) + (rising_tier(max(scores)) if rising else 0)

    def lowest(s: int) -> int:
        return max(min_bid, (0, 3, 4, 5)[rising_tier(scores[s])]) if rising else min_bid

    known: dict[int, list[Card]] = {}
    exposed = view.get("exposed")
    if exposed and dealer != me:
        known[dealer] = [H.card_of(str(exposed))]
    deals = HiddenHands(me, list(view.get("hand") or []), known)
    known_sum = sum(int(bids[s]) for s in before)
    # per kept sample: my tricks, partner's tricks, partner's bid, the others' bids' total, the
    # opponents' score (when the deal is played)
    kept: list[tuple[int, int, int, int, int]] = []
    while len(kept) < max_samples and think.more(len(kept), MIN_KEPT) and _within(think):
        hands = deals.draw(rng)
        w = 1.0
        for s in before:
            rb = rule_bid_41(H.estimate_tricks(hands[s], trump), lowest(s))
            w *= MISMATCH_41[min(3, abs(rb - int(bids[s])))]
        if w < 1.0 and rng.random() >= w:
            continue
        t0 = time.monotonic()
        tricks = rollout(hands, trump, first, None)
        think.measured(t0)
        later = {s: rule_bid_41(H.estimate_tricks(hands[s], trump), lowest(s)) for s in after}
        pb = int(bids[partner]) if bids[partner] is not None else later[partner]
        theirs = 0
        for s in ((me + 1) % 4, (me + 3) % 4):
            ob = int(bids[s]) if bids[s] is not None else later[s]
            v = bid_value(ob, table, scores[s])
            theirs += v if tricks[s] >= ob else -v
        kept.append((tricks[me], tricks[partner], pb, known_sum + sum(later.values()), theirs))
    if len(kept) < MIN_KEPT:
        return None

    def values(b: int) -> list[float]:
        """Our two scores minus the opponents' two, sample by sample, if I bid ``b``."""
        vb = bid_value(b, table, scores[me])
        out = []
        for t_me, t_pa, pb, others, theirs in kept:
            if others + b < min_total:
                out.append(0.0)  # thrown in: nobody scores
                continue
            vp = bid_value(pb, table, scores[partner])
            out.append((vb if t_me >= b else -vb) + (vp if t_pa >= pb else -vp) - theirs)
        return out

    rule = rule_bid_41(H.estimate_tricks(deals.mine, trump), lowest(me))
    every = {b: values(b) for b in options}
    if trace is not None:
        trace.update({f"bid {b}": xs for b, xs in every.items()})
    best = choose(every, rule if rule in options else options[0])
    return f"bid {best}"


def choose(values: Mapping[Any, list[float]], rule: Any, z: float | None = None) -> Any:
    """The candidate with the best mean among those that beat the rule player's choice ``rule`` by
    ``z`` standard errors of the paired difference (sample by sample); else ``rule``."""
    z = Z if z is None else z
    base = values[rule]
    n = len(base)
    best, best_mean = rule, sum(base) / n
    for cand, xs in values.items():
        if cand == rule:
            continue
        d = [x - y for x, y in zip(xs, base, strict=True)]
        m = sum(d) / n
        if m <= 0:
            continue
        var = sum((x - m) ** 2 for x in d) / max(1, n - 1)
        if m > z * (var / n) ** 0.5 and sum(xs) / n > best_mean:
            best, best_mean = cand, sum(xs) / n
    return best


# ---------------------------------------------------------------------------------- classic Tarneeb
class _Auction:
    """A classic auction (passes final) from a state, every seat bidding by ``policy``."""

    __slots__ = ("high", "passed", "turn")

    def __init__(self, high: tuple[int, int] | None, passed: list[bool], turn: int) -> None:
        self.high = high
        self.passed = passed
        self.turn = turn

    def act(self, bid: int | None) -> bool:
        """Apply the action of the seat to act (None: pass); True when the auction is over."""
        seat = self.turn
        if bid is None:
            self.passed = self.passed.copy()
            self.passed[seat] = True
        else:
            self.high = (seat, bid)
            if bid == 13:
                return True
        active = self.passed.count(False)
        if self.high is not None and active == 1:
            return True
        if self.high is None and active == 0:
            return True
        nxt = (seat + 1) & 3
        while self.passed[nxt]:
            nxt = (nxt + 1) & 3
        self.turn = nxt
        return False

    def finish(self, policy: Callable[[int, tuple[int, int] | None], int | None]) -> tuple[int, int] | None:
        """Play the auction to its end; the contract ``(declarer, bid)`` or None (all passed)."""
        for _ in range(60):
            if self.act(policy(self.turn, self.high)):
                break
        return self.high


def _classic_ok(opts: Mapping[str, Any]) -> bool:
    """The auctions this module models: passes final, no forced dealer, a declarer's trump."""
    return (bool(opts.get("pass_is_final", True)) and opts.get("all_pass", "redeal_same_dealer") != "dealer_forced_min"
            and opts.get("trump_mode", "bidder_chooses") == "bidder_chooses"
            and not opts.get("no_trump_allowed") and not opts.get("first_lead_must_be_trump"))


def _scoring(opts: Mapping[str, Any]) -> dict[str, Any]:
    from engine.base import resolve_options
    from engine.tarneeb.rules import OPTIONS

    known = {o.name for o in OPTIONS}
    return dict(resolve_options(OPTIONS, {k: v for k, v in opts.items() if k in known}))


class _Sample:
    """One sampled deal of a classic auction: the hands, their estimates and rollouts, on demand."""

    __slots__ = ("_best", "_tricks", "hands")

    def __init__(self, hands: list[list[Card]], seat: int, best: tuple[int, float]) -> None:
        self.hands = hands
        self._best: list[tuple[int, float] | None] = [None] * 4
        self._best[seat] = best
        self._tricks: dict[tuple[int, int], int] = {}

    def best(self, seat: int) -> tuple[int, float]:
        """The seat's trump and estimate (:func:`best_trump`)."""
        b = self._best[seat]
        if b is None:
            b = self._best[seat] = best_trump(self.hands[seat])
        return b

    def team_tricks(self, declarer: int, trump: int, think: Think) -> int:
        key = (declarer, trump)
        if key not in self._tricks:
            t0 = time.monotonic()
            t = rollout(self.hands, trump, declarer, declarer)
            think.measured(t0)
            self._tricks[key] = t[declarer] + t[(declarer + 2) % 4]
        return self._tricks[key]

    def policy(self, seat: int, high: tuple[int, int] | None) -> int | None:
        return rule_bid_classic(self.best(seat)[1], seat, high)


def _history(view: dict[str, Any]) -> list[tuple[int, tuple[int, int] | None, bool]]:
    """The other seats' recorded actions: (seat, the standing bid it answered, whether it bid)."""
    me = int(view["seat"])
    dealer = int(view.get("dealer") or 0)
    a = _Auction(None, [False] * 4, (dealer + 1) % 4)
    out = []
    for entry in view.get("bids") or []:
        seat, bid = int(entry["seat"]), entry.get("bid")
        if seat != me:
            out.append((seat, a.high, bid is not None))
        a.turn = seat
        a.act(None if bid is None else int(bid))
    return out


def _classic_samples(view: dict[str, Any], rng: random.Random, think: Think, max_samples: int,
                     evaluate: Callable[[_Sample], None]) -> int:
    """Draw deals weighted by the auction so far (:data:`MISMATCH_CLASSIC` for each recorded action
    of another seat that the rule player would not have taken with that hand); ``evaluate`` each
    kept one; the number kept."""
    me = int(view["seat"])
    deals = HiddenHands(me, list(view.get("hand") or []))
    mine = best_trump(deals.mine)
    history = _history(view)
    kept = 0
    while kept < max_samples and think.more(kept, MIN_KEPT) and _within(think):
        sample = _Sample(deals.draw(rng), me, mine)
        u = rng.random()
        weight = 1.0
        for seat, high, did_bid in history:
            if (sample.policy(seat, high) is not None) != did_bid:
                weight *= MISMATCH_CLASSIC
                if weight <= u:
                    break
        if weight <= u:
            continue
        evaluate(sample)
        kept += 1
    return kept


def bid_classic(view: dict[str, Any], rng: random.Random, think: Think, max_samples: int = 300,
                trace: dict[str, list[float]] | None = None) -> str | None:
    """Pass or one of the three lowest bids: the best mean team score over sampled deals
    (``trace``: filled with every candidate's values, sample by sample, by its action code)."""
    opts = view.get("options") or {}
    if not _classic_ok(opts):
        return None
    legal = [str(a) for a in view["legal"]]
    bids = sorted(int(a[4:]) for a in legal if a.startswith("bid "))
    if not bids:
        return None
    me = int(view["seat"])
    scoring = _scoring(opts)
    hb = view.get("high_bid")
    high = (int(hb["seat"]), int(hb["bid"])) if hb else None
    passed = [bool(x) for x in view.get("passed") or [False] * 4]
    candidates: list[int | None] = [None] if "pass" in legal else []
    candidates += bids[:3]
    totals: dict[int | None, list[float]] = {c: [] for c in candidates}

    def evaluate(sample: _Sample) -> None:
        for cand in candidates:
            a = _Auction(high, passed, me)
            over = a.act(cand)
            contract = a.high if over else a.finish(sample.policy)
            if contract is None:
                totals[cand].append(0.0)  # all passed: thrown in
                continue
            d, b = contract
            ours, theirs = score_hand(b, sample.team_tricks(d, sample.best(d)[0], think), scoring)
            totals[cand].append((ours - theirs) if d % 2 == me % 2 else (theirs - ours))

    if _classic_samples(view, rng, think, max_samples, evaluate) < MIN_KEPT:
        return None
    rule = rule_bid_classic(H.best_trump([H.card_of(c) for c in view.get("hand") or []])[1], me, high,
                            "pass" in legal)
    if trace is not None:
        trace.update({"pass" if c is None else f"bid {c}": xs for c, xs in totals.items()})
    best = choose(totals, rule if rule in candidates else candidates[0])
    return "pass" if best is None else f"bid {best}"


def trump(view: dict[str, Any], rng: random.Random, think: Think, max_samples: int = 300,
          trace: dict[str, list[float]] | None = None) -> str | None:
    """The suit with the best mean score for the contract won, over deals weighted by the auction
    (``trace``: filled with every suit's values, sample by sample, by its action code)."""
    opts = view.get("options") or {}
    if not _classic_ok(opts):
        return None
    legal = [str(a) for a in view["legal"] if a.startswith("trump ")]
    me = int(view["seat"])
    bid = int(view.get("contract") or (view.get("high_bid") or {}).get("bid") or 7)
    scoring = _scoring(opts)
    suits = {a: C.parse_suit(a[6:]) for a in legal}
    totals: dict[str, list[float]] = {a: [] for a in legal}

    def evaluate(sample: _Sample) -> None:
        for a, s in suits.items():
            ours, theirs = score_hand(bid, sample.team_tricks(me, s, think), scoring)
            totals[a].append(ours - theirs)

    if _classic_samples(view, rng, think, max_samples, evaluate) < MIN_KEPT:
        return None
    rule_suit = H.best_trump([H.card_of(c) for c in view.get("hand") or []])[0]
    rule = next((a for a in legal if suits[a] == rule_suit), legal[0])
    if trace is not None:
        trace.update(totals)
    return str(choose(totals, rule))
