"""Strong Trix decisions: deals read from the others' play, heuristic rollouts, an exact endgame.

Every card decision draws hidden hands consistent with the seat's view (voids, cards seen, layout
passes) and, once the others have moved, in proportion to how likely their moves were with those
cards (:mod:`ai.strong.trix_infer`, a Metropolis chain over card swaps). Each candidate is then
played out on the same deals with the same dice (common random numbers) by the quick policy of
:mod:`ai.strong.trix_sim` (flat Monte Carlo over determinizations: the information-set approach
without a tree), and the candidate with the best mean points for this seat is played. With at
most five cards a hand in a trick contract, or six in my hand in the layout, each deal is searched
exactly instead: my remaining choices are tried, the others play the same policy (in the layout
that search gained about 9 points a deal over playing the policy myself from six cards, at about
2 ms a deal); an exact search stops trying my cards once one reaches the most I can still score
(nothing in a trick contract without a live double of mine, the best place still open in the
layout). The layout's rollouts may play every seat's policy without noise (``layout_eps``: the
strong level does); my own later moves in them may follow a learned policy instead
(``own_layout_policy``, :mod:`ai.strong.trix_layout_policy`) and, from ``own_layout_exact``
cards on, the exact search; in the trick rollouts too (``own_policy``,
:mod:`ai.strong.trix_policy`); a layout card's score may blend the rollouts' mean with a learned
value of the card (``layout_value``, :mod:`ai.strong.trix_layout_value`); all four measured no
better, so off. Doubles are made when rollouts with and without
the double say it gains enough; the contract is chosen by rollouts of every contract left (or, with
``choice_table``, by :mod:`ai.strong.trix_choice`'s worth of the contracts left: not better).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ai.heuristics_trix import baseline, penalties, trix_scores
from ai.strong import trix_choice
from ai.strong import trix_exact as E
from ai.strong import trix_infer as I
from ai.strong import trix_layout_policy as LP
from ai.strong import trix_policy as P
from ai.strong import trix_sim as S
from ai.strong.knowledge import Knowledge, from_view, sample_deal
from ai.think import Think
from engine import cards as C


def _rows(view: dict[str, Any]) -> S.Rows:
    rows = list(S.EMPTY_ROWS)
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

    def __init__(self, *, card_seconds: float = 0.12, choice_seconds: float = 0.6, infer_share: float = 0.4,
                 exact_cards: int = 5, exact_layout: int = 6, exact_nodes: int = 3000,
                 exact_layout_nodes: int = 8000, double_margin: float = 0.25,
                 miss: float | I.Model = I.MODEL, keep: float = I.KEEP, eps: float = 0.03,
                 layout_eps: float = 0.03, choice_table: bool = False, own_policy: bool = False,
                 own_layout_policy: bool = False, own_layout_exact: int = 0, layout_value: float = 0.0,
                 layout_value_above: int = 0) -> None:
        self.card_seconds = card_seconds
        self.choice_seconds = choice_seconds
        self.infer_share = infer_share  # the share of a card's time spent drawing deals by their likelihood
        # at most this many cards a hand: my moves searched exactly (per trick contract)
        self.exact_king = self.exact_queens = self.exact_diamonds = self.exact_tricks = exact_cards
        self.exact_nodes = exact_nodes  # positions an exact trick search of one deal may visit (~10 us each)
        self.exact_layout_nodes = exact_layout_nodes  # moves an exact layout search of one deal may follow (~5 us)
        # the layout: at most this many cards in my hand, my moves searched exactly (2 ms a deal at 6)
        self.exact_layout = exact_layout
        self.double_margin = double_margin  # a double must gain this share of the card's value on average
        self.miss = miss  # the inference's model of the others (trix_infer.MODEL) or a flat miss factor
        self.keep = keep  # the share of the inference chain's states played out (the rest: burn-in)
        self.eps = eps  # the trick rollouts' noise: the share of moves played at random
        self.layout_eps = layout_eps  # the same in the layout's rollouts
        # True: the contract choice counts what the contracts left are worth to the hands to come
        # (trix_choice's table); False, the default (measured no better): a contract's value minus
        # its mean on a random hand
        self.choice_table = choice_table
        # True: my own later moves in the trick rollouts by the learned policy (trix_policy);
        # False, the default (measured no better: +0.6 +- 0.6 points a trick-contract deal, 80
        # tune deals): by the rule player's, as the others'
        self.own_policy = own_policy
        # True: my own later moves in the layout's rollouts by the learned policy
        # (trix_layout_policy); False, the default (measured no better: -1.4 +- 1.0 points a layout
        # deal, 240 tune deals): by the rule player's, as the others'
        self.own_layout_policy = own_layout_policy
        # more than 0: in the layout's rollouts, once my hand is down to this many cards my moves
        # are searched exactly (as the real endgame is played), not played by a policy (0, the
        # default: 6 measured -2.0 +- 1.1 points a layout deal, 240 tune deals)
        self.own_layout_exact = own_layout_exact
        # more than 0: a layout card's score is (1 - w) x its rollouts' mean + w x the learned
        # layout value (trix_layout_value, centred over the legal cards), w this weight; at 1 the
        # model alone decides and no rollout is played. Only with more than ``layout_value_above``
        # cards in my hand (0: always). Measured no better: 0.5 -0.8 +- 2.1, 0.5 above 6 cards
        # -2.7 +- 2.1, 1 above 6 cards -1.5 +- 2.2 points a layout deal (60 tune deals x 4 seats)
        self.layout_value = layout_value
        self.layout_value_above = layout_value_above
        #: Makes each decision's budget (:mod:`ai.advice` counts rounds instead of CPU time)
        self.new_think: Callable[[float, float | None], Think] = Think
        #: When a dict: each card's points on every sampled deal of the last card decision (advice)
        self.trace: dict[str, list[float]] | None = None
        #: What the seat knows, from its view (:mod:`ai.strong.cheater` adds the true hands)
        self.knowledge: Callable[[dict[str, Any]], Knowledge] = from_view

    # ------------------------------------------------------------------ card play
    def play(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str:
        """Trick or layout play by sampled rollouts (at least one round, then within the budget)."""
        legal: list[str] = list(view["legal"])
        plays = [a for a in legal if a.startswith("play ")]
        if len(legal) == 1:
            return legal[0]
        k = self.knowledge(view)
        contract = str(view.get("contract"))
        cands: dict[int, str] = {C.parse(a[5:]): a for a in plays}
        learned: dict[int, float] | None = None
        if contract == "trix" and self.layout_value > 0 and k.hand.bit_count() > self.layout_value_above:
            from ai.strong import trix_layout_value  # (numpy and the weights only when switched on)

            learned = trix_layout_value.view_values(view)
            if self.layout_value >= 1.0:
                return cands[max(cands, key=lambda c: (learned.get(c, -1e9), -c))]
        totals = dict.fromkeys(cands, 0.0)
        counts = dict.fromkeys(cands, 0)
        think = self.new_think(self.card_seconds, deadline)
        chain_cpu = self.card_seconds * self.infer_share
        draw = self._sampler(view, k, rng, lambda: think.more(1, 1, chain_cpu))
        rounds = 0
        while rounds < 200 and (rounds == 0 or think.more(rounds, 4)):
            t = time.monotonic()
            hands = draw()
            seed = rng.getrandbits(32)
            # common random numbers: every candidate meets the same deal and dice; an exact search
            # that outgrows its budget gives way to rollouts for every candidate of that deal
            try:
                budget = E.Budget(self.exact_layout_nodes if contract == "trix" else self.exact_nodes)
                vals = {c: self._value_after(view, k, contract, hands, c, random.Random(seed), budget) for c in cands}
            except E.TooDeep:
                vals = {c: self._value_after(view, k, contract, hands, c, random.Random(seed), None) for c in cands}
            for c, code in cands.items():
                totals[c] += vals[c]
                counts[c] += 1
                if self.trace is not None:
                    self.trace.setdefault(code, []).append(vals[c])
            rounds += 1
            think.measured(t)
        means = {c: totals[c] / counts[c] for c in cands}
        if learned is not None:
            w = self.layout_value
            means = {c: (1 - w) * v + w * learned.get(c, 0.0) for c, v in means.items()}
        best = max(cands, key=lambda c: (means[c], -C.rank_of(c)))
        return cands[best]

    def _sampler(self, view: dict[str, Any], k: Knowledge, rng: random.Random,
                 going: Callable[[], bool]) -> Callable[[], list[int]]:
        """Deals to play out: consistent with the view and, once others have moved, drawn in
        proportion to how likely their moves were with those cards (:func:`trix_infer.posterior`)."""
        story = I.story_of(view)
        if not self.infer_share or not story.informative():
            return lambda: sample_deal(k, rng)
        chain = I.posterior(k, story, rng, going=going, miss=self.miss, keep=self.keep)
        return lambda: chain[rng.randrange(len(chain))]

    def _value_after(self, view: dict[str, Any], k: Knowledge, contract: str, hands: list[int], c: int,
                     rng: random.Random, budget: E.Budget | None) -> float:
        """My points after playing ``c`` on this deal (``budget``: the exact trick search's, None: rollouts)."""
        me = k.seat
        hands = list(hands)
        hands[me] &= ~(1 << c)
        if contract == "trix":
            rows = _rows(view)
            S.place(rows, c)
            finished = [int(s) for s in view.get("finished") or []]
            scores = trix_scores(view)
            bonus = 0
            if not hands[me]:
                bonus = scores[len(finished)]
                finished.append(me)
            if budget is not None and hands[me].bit_count() <= self.exact_layout:
                return bonus + E.best_layout(hands, rows, (me + 1) % 4, finished, scores, me, budget=budget)
            own = LP.choose if self.own_layout_policy else None
            if self.own_layout_exact and budget is not None:  # (None: an exact search gave up)
                return bonus + E.rollout_then_exact(hands, rows, (me + 1) % 4, finished, scores, me, rng,
                                                    self.layout_eps, own, self.own_layout_exact,
                                                    self.exact_layout_nodes)
            out = S.rollout_layout(hands, rows, (me + 1) % 4, finished, scores, rng, self.layout_eps,
                                   own=me, policy=own)
            return out[me] + bonus
        trick = [*k.trick, (me, c)]
        leader = trick[0][0]
        doubled = _doubled(view)
        sc = _scoring(view)
        if budget is not None and max(h.bit_count() for h in hands) <= getattr(self, f"exact_{contract}"):
            return E.best_reply(contract, hands, trick, (me + 1) % 4, doubled, sc, me, budget=budget)
        out = S.rollout_tricks(contract, hands, trick, leader, doubled, rng, sc, self.eps,
                               own=me, policy=P.choose if self.own_policy else None)
        return out[me]

    # ------------------------------------------------------------------ contract choice
    def contract(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str:
        """The contract whose expected points with this hand beat its average by the most."""
        legal: list[str] = [str(a) for a in view["legal"] if a.startswith("contract ")]
        if len(legal) == 1:
            return legal[0]
        k = self.knowledge(view)
        if not k.hand:  # owner_sees_cards_before_choice off: nothing to read, as the rule player does
            return legal[0]
        me = k.seat
        sc = _scoring(view)
        scores = trix_scores(view)
        totals = dict.fromkeys(legal, 0.0)
        n = 0
        think = self.new_think(self.choice_seconds, deadline)
        while n < 300 and (n == 0 or think.more(n, 6)):
            t = time.monotonic()
            hands = sample_deal(k, rng)
            for a in legal:
                got = S.rollout_contract(a.split()[1], hands, me, rng, sc, scores)[me]
                totals[a] += got
                if self.trace is not None:  # what the choice compares: the points over the contract's usual
                    self.trace.setdefault(a, []).append(got - baseline(a.split()[1], sc.values, scores))
            n += 1
            think.measured(t)
        if self.choice_table:
            if self.trace is not None:  # the table's pick is not a comparison of these means
                self.trace.clear()
            best = trix_choice.pick({a.split()[1]: totals[a] / n for a in legal}, sc, scores)
            if best is not None:
                return f"contract {best}"
        return max(legal, key=lambda a: totals[a] / n - baseline(a.split()[1], sc.values, scores))

    # ------------------------------------------------------------------ doubling
    def double(self, view: dict[str, Any], rng: random.Random, deadline: float | None = None) -> str:
        """Double a card when rollouts say it gains enough on average (rules.md X-B5).

        A double is public, and tells the table where the card is; so it must gain more than a
        quarter of the card's value on average, not merely something.
        """
        legal = view["legal"]
        options = [a for a in legal if a.startswith("double ")]
        done = "done" if "done" in legal else legal[0]
        if not options:
            return done
        k = self.knowledge(view)
        me = k.seat
        contract = str(view.get("contract"))
        owner_seat = view.get("owner")
        owner = int(owner_seat) if owner_seat is not None else me
        sc = _scoring(view)
        base = _doubled(view)
        cards = [C.parse(a.split()[1]) for a in options]
        gains = [0.0] * len(cards)
        n = 0
        think = self.new_think(self.card_seconds, deadline)  # one budget for all the options
        while n < 200 and (n == 0 or think.more(n, 12)):
            t = time.monotonic()
            hands = sample_deal(k, rng)
            seed = rng.getrandbits(32)  # the same deal and dice with and without each double
            without = S.rollout_tricks(contract, hands, [], owner, base, random.Random(seed), sc)[me]
            for i, card in enumerate(cards):
                with_d = S.rollout_tricks(contract, hands, [], owner, {**base, card: me}, random.Random(seed), sc)
                gains[i] += with_d[me] - without
                if self.trace is not None:  # what the choice compares: the gain less the margin
                    self.trace.setdefault(options[i], []).append(
                        with_d[me] - without - self.double_margin * sc.base(contract))
            if self.trace is not None and done not in options:
                self.trace.setdefault(done, []).append(0.0)
            n += 1
            think.measured(t)
        i = max(range(len(cards)), key=lambda j: gains[j])
        return options[i] if gains[i] / n > self.double_margin * sc.base(contract) else done


def _scoring(view: dict[str, Any]) -> S.Scoring:
    """The table's penalty values and doubling rule, from the view's options."""
    return S.Scoring(values=penalties(view),
                     self_capture=str((view.get("options") or {}).get("self_capture") or "original_penalty"))
