"""Strong Trix decisions: sampled deals and heuristic rollouts, with an exact small endgame.

Every decision samples the hidden hands consistently with the seat's view, then plays each
candidate out many times with the quick policy of :mod:`bot.ai.strong.trix_sim` (flat Monte Carlo
over determinizations, the information-set approach without a tree), and picks the candidate with
the best mean points for this seat. When at most two cards are left in every hand of a trick
contract, each sample is searched exactly instead (max-n: every seat maximizes its own points).
"""

from __future__ import annotations

import random
import time
from typing import Any

from bot.ai.strong import trix_sim as S
from bot.ai.strong.knowledge import Knowledge, from_view, sample_deal
from engine import cards as C

#: The mean points of each contract for a seat holding a random hand (−75/4, −100/4, ... +500/4).
BASELINE = {"king": -18.75, "queens": -25.0, "diamonds": -32.5, "tricks": -48.75, "trix": 125.0}
TRIX_SCORES = (200, 150, 100, 50)


def _rows(view: dict[str, Any]) -> list[tuple[int, int] | None]:
    rows: list[tuple[int, int] | None] = [None, None, None, None]
    for suit, ends in (view.get("layout") or {}).items():
        if ends:
            lo, hi = (C.RANKS.index(str(x)) + 2 for x in ends)
            rows[C.parse_suit(suit)] = (lo, hi)
    return rows


def _doubled(view: dict[str, Any]) -> dict[int, int]:
    out = {C.parse(str(d["card"])): int(d["seat"]) for d in view.get("doubled") or []}
    for d in view.get("my_doubles") or []:
        code = d["card"] if isinstance(d, dict) else d
        out[C.parse(str(code))] = int(view["seat"])
    return out


class TrixBrain:
    """Decisions for Trix from a seat's view."""

    def __init__(self, *, card_seconds: float = 0.12, choice_seconds: float = 0.6) -> None:
        self.card_seconds = card_seconds
        self.choice_seconds = choice_seconds

    # ------------------------------------------------------------------ card play
    def play(self, view: dict[str, Any], rng: random.Random) -> str:
        """Trick or layout play by sampled rollouts."""
        legal: list[str] = list(view["legal"])
        plays = [a for a in legal if a.startswith("play ")]
        if len(legal) == 1:
            return legal[0]
        k = from_view(view)
        contract = str(view.get("contract"))
        cands: dict[int, str] = {C.parse(a[5:]): a for a in plays}
        totals = dict.fromkeys(cands, 0.0)
        counts = dict.fromkeys(cands, 0)
        deadline = time.perf_counter() + self.card_seconds
        rounds = 0
        while rounds < 4 or time.perf_counter() < deadline:
            hands = sample_deal(k, rng)
            seed = rng.getrandbits(32)
            for c in cands:  # common random numbers: every candidate meets the same deal and dice
                totals[c] += self._value_after(view, k, contract, hands, c, random.Random(seed))
                counts[c] += 1
            rounds += 1
            if rounds >= 200:
                break
        best = max(cands, key=lambda c: (totals[c] / counts[c], -C.rank_of(c)))
        return cands[best]

    def _value_after(self, view: dict[str, Any], k: Knowledge, contract: str, hands: list[int], c: int,
                     rng: random.Random) -> float:
        me = k.seat
        hands = list(hands)
        hands[me] &= ~(1 << c)
        if contract == "trix":
            rows = _rows(view)
            S.place(rows, c)
            finished = [int(s) for s in view.get("finished") or []]
            bonus = 0
            if not hands[me]:
                bonus = _trix_scores(view)[len(finished)]
                finished.append(me)
            out = S.rollout_layout(hands, rows, (me + 1) % 4, finished, _trix_scores(view), rng)
            return out[me] + bonus
        trick = [*k.trick, (me, c)]
        leader = trick[0][0]
        doubled = _doubled(view)
        if max(h.bit_count() for h in hands) <= 2:
            if len(trick) == 4:
                return _maxn(contract, hands, trick, doubled)[me]
            return _maxn_turn(contract, hands, trick, (me + 1) % 4, doubled)[me]
        out = S.rollout_tricks(contract, hands, trick, leader, doubled, rng)
        return out[me]

    # ------------------------------------------------------------------ contract choice
    def contract(self, view: dict[str, Any], rng: random.Random) -> str:
        """The contract whose expected points with this hand beat its average by the most."""
        legal: list[str] = [str(a) for a in view["legal"] if a.startswith("contract ")]
        if len(legal) == 1:
            return legal[0]
        k = from_view(view)
        me = k.seat
        totals = dict.fromkeys(legal, 0.0)
        n = 0
        deadline = time.perf_counter() + self.choice_seconds
        while n < 6 or time.perf_counter() < deadline:
            hands = sample_deal(k, rng)
            for a in legal:
                name = a.split()[1]
                if name == "trix":
                    out = S.rollout_layout(hands, [None] * 4, me, [], _trix_scores(view), rng)
                else:
                    out = S.rollout_tricks(name, hands, [], me, {}, rng)
                totals[a] += out[me]
            n += 1
            if n >= 300:
                break
        return max(legal, key=lambda a: totals[a] / n - BASELINE.get(a.split()[1], 0.0))

    # ------------------------------------------------------------------ doubling
    def double(self, view: dict[str, Any], rng: random.Random) -> str:
        """Double a card when rollouts say this seat rarely ends up taking it."""
        legal = view["legal"]
        options = [a for a in legal if a.startswith("double ")]
        if not options:
            return "done" if "done" in legal else legal[0]
        k = from_view(view)
        contract = str(view.get("contract"))
        owner_seat = view.get("owner")
        owner = int(owner_seat) if owner_seat is not None else k.seat
        best, best_p = None, 1.0
        for a in options:
            card = C.parse(a.split()[1])
            taken = n = 0
            deadline = time.perf_counter() + self.card_seconds
            while n < 12 or (time.perf_counter() < deadline and n < 200):
                hands = sample_deal(k, rng)
                out = S.rollout_tricks(contract, hands, [], owner, {card: k.seat}, rng)
                # a negative result of at least the card's value means we took it ourselves
                taken += out[k.seat] <= -S.BASE[contract]
                n += 1
            p = taken / n
            if p < best_p:
                best, best_p = a, p
        return best if best is not None and best_p < 0.3 else ("done" if "done" in legal else legal[0])


def _trix_scores(view: dict[str, Any]) -> tuple[int, ...]:
    opts = view.get("options") or {}
    sc = opts.get("trix_scores")
    return tuple(int(x) for x in sc) if isinstance(sc, list) and len(sc) == 4 else TRIX_SCORES


def _maxn(contract: str, hands: list[int], trick: list[tuple[int, int]], doubled: dict[int, int]) -> list[int]:
    """Exact max-n points per seat from a just-completed ``trick`` on (each seat maximizes its own)."""
    cards = [c for _, c in trick]
    w = trick[C.trick_winner(cards, None)][0]
    pts = [0, 0, 0, 0]
    S.score_trick(contract, w, cards, doubled, pts)
    if hands[w]:
        rest = _maxn_turn(contract, hands, [], w, doubled)
        pts = [a + b for a, b in zip(pts, rest, strict=True)]
    return pts


def _maxn_turn(contract: str, hands: list[int], trick: list[tuple[int, int]], seat: int,
               doubled: dict[int, int]) -> list[int]:
    led = C.suit_of(trick[0][1]) if trick else None
    best: list[int] | None = None
    for c in C.cards_of(C.legal_mask(hands[seat], led)):
        nh = list(hands)
        nh[seat] &= ~(1 << c)
        nt = [*trick, (seat, c)]
        if len(nt) == 4:
            val = _maxn(contract, nh, nt, doubled)
        else:
            val = _maxn_turn(contract, nh, nt, (seat + 1) % 4, doubled)
        if best is None or val[seat] > best[seat]:
            best = val
    return best if best is not None else [0, 0, 0, 0]
