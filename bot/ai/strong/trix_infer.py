"""Reading the other seats' cards from how they played: likelihood weights for sampled Trix deals.

A deal sampled by :func:`bot.ai.strong.knowledge.sample_deal` respects the hard facts (voids, cards
seen, layout passes) but treats every consistent deal alike. People, however, play sensibly: a
seat that led a low spade in Queens probably holds no queen of spades; a seat that threw a small
club when void in hearts probably held no K♥. This module replays the deal so far on a sampled
deal and asks, for every move of another seat, whether a sensible player (the rule player's
heuristics, the same policy the rollouts use) holding those cards would have made it. Each move
that disagrees multiplies the deal's weight by ``miss`` (a soft penalty, not a veto: people are not
rule players, and a wrong model must only blur the picture, not break it). The doubles revealed
after the window are checked the same way, and so is the kingdom owner's choice of this deal's
contract when another seat made it among several after seeing its cards (the rule player's
:func:`bot.ai.heuristics_trix.choose_contract`, on the owner's 13 cards).

The weight is a product over the other seats of a factor that depends on that seat's cards only,
so :func:`posterior` can draw deals in proportion to it with a Metropolis chain that changes two
seats at a time; the strong player spends its rollouts on those deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ai import heuristics_trix as X
from bot.ai.heuristics import by_suit
from bot.ai.strong import trix_sim as S
from bot.ai.strong.knowledge import Knowledge, sample_deal
from engine import cards as C

#: The weight factor of one move the model would not have made.
MISS = 0.2
#: The share of the chain's states kept, the first ``min_steps // 2`` (burn-in) left out anyway.
#: Keeping only the last half lost 2.1 ± 2.1 points a Queens deal (30 tune deals x 4 seats):
#: within the noise, so the chain keeps what it kept before.
KEEP = 1.0

QUIET_RNG = random.Random(0)  # without noise, no draw from it ever changes a decision


@dataclass(slots=True)
class Story:
    """The public moves of the deal so far, per seat, with what was on the table at each one."""

    me: int
    contract: str
    #: per seat: (card, context) for each of its moves in order; the context is the trick so far
    #: (a list of (seat, card)) in trick contracts, the layout's rows in the Trix contract
    moves: list[list[tuple[int, Any]]]
    #: per seat: every card it has played this deal
    played: list[int]
    #: revealed doubles per seat (card set), or None when nothing can be read from doubling
    doubled: list[int] | None
    #: the kingdom's owner when it is another seat that chose this deal's contract among several
    #: (after seeing its cards), else None
    owner: int | None = None
    #: the contracts the owner could choose from, in the engine's order
    options: tuple[str, ...] = ()
    #: the table's (K♥, queen, diamond, trick) values and layout scores, for the owner's choice
    pen: tuple[int, int, int, int] = (75, 25, 10, 15)
    trix: tuple[int, ...] = (200, 150, 100, 50)
    #: whether the owner would have chosen this contract, by the owner's 13 cards (a cache)
    chose: dict[int, bool] = field(default_factory=dict)
    #: :func:`seat_weight` by (seat, hand now, miss): a chain proposes the same swaps again and again
    memo: dict[tuple[int, int, float], float] = field(default_factory=dict)

    def informative(self) -> bool:
        """Whether another seat has done anything to learn from."""
        return (self.doubled is not None or self.owner is not None
                or any(self.moves[s] for s in range(4) if s != self.me))


def story_of(view: dict[str, Any]) -> Story:
    """The moves of the deal so far from ``view(seat)``."""
    me = int(view["seat"])
    contract = str(view.get("contract"))
    moves: list[list[tuple[int, Any]]] = [[], [], [], []]
    played = [0, 0, 0, 0]
    if contract == "trix":
        rows = list(S.EMPTY_ROWS)
        for m in view.get("layout_history") or []:
            if m.get("pass"):
                continue
            s, c = int(m["seat"]), C.parse(str(m["card"]))
            moves[s].append((c, list(rows)))
            played[s] |= 1 << c
            S.place(rows, c)
    else:
        tricks = [[(int(e["seat"]), C.parse(str(e["card"]))) for e in t.get("cards", [])]
                  for t in view.get("history") or []]
        tricks.append([(int(e["seat"]), C.parse(str(e["card"]))) for e in view.get("trick") or []])
        for t in tricks:
            for i, (s, c) in enumerate(t):
                moves[s].append((c, t[:i]))
                played[s] |= 1 << c
    doubled: list[int] | None = None
    opts = view.get("options") or {}
    if opts.get("doubling", "on") != "off" and contract in ("king", "queens") and view.get("phase") == "play":
        doubled = [0, 0, 0, 0]
        for d in view.get("doubled") or []:
            doubled[int(d["seat"])] |= 1 << C.parse(str(d["card"]))
    story = Story(me=me, contract=contract, moves=moves, played=played, doubled=doubled)
    owner = view.get("owner")
    left = [str(c) for c in view.get("contracts_left") or []]
    if (owner is not None and int(owner) != me and left and opts.get("owner_sees_cards_before_choice", True)
            and contract in CONTRACT_ORDER and opts.get("mode", "kingdoms") == "kingdoms"):
        story.owner = int(owner)
        story.options = tuple(c for c in CONTRACT_ORDER if c in {*left, contract})
        story.pen = X.penalties(view)
        story.trix = X.trix_scores(view)
    return story


#: The engine's order of the Trix contracts (the order of the choice's legal actions).
CONTRACT_ORDER = ("king", "queens", "diamonds", "tricks", "trix")


def predicted_contract(story: Story, held: int) -> str:
    """The contract the rule player would choose with the 13 cards ``held`` among ``story.options``
    (:func:`bot.ai.heuristics_trix.choose_contract`, on a card set)."""
    hand = [(c // 13, c % 13 + 2) for c in C.card_ids(held)]
    suits = by_suit(hand)
    return max(story.options,
               key=lambda a: X.estimate(a, hand, story.pen, story.trix, suits) - X.baseline(a, story.pen, story.trix))


def seat_weight(story: Story, seat: int, hand: int, miss: float = MISS) -> float:
    """How likely a sensible player holding ``hand`` now at ``seat`` made that seat's moves so far.

    The likelihood of a whole deal is the product over the other seats: each factor depends on
    that seat's own cards only, which is what lets :func:`posterior` change two seats at a time.
    """
    key = (seat, hand, miss)
    w = story.memo.get(key)
    if w is None:
        if len(story.memo) > 50000:
            story.memo.clear()
        w = story.memo[key] = _seat_weight(story, seat, hand, miss)
    return w


def _seat_weight(story: Story, seat: int, hand: int, miss: float) -> float:
    held = hand | story.played[seat]  # the seat's hand when the deal began
    w = 1.0
    if seat == story.owner:
        chose = story.chose.get(held)
        if chose is None:
            if len(story.chose) > 20000:
                story.chose.clear()
            chose = story.chose[held] = predicted_contract(story, held) == story.contract
        if not chose:
            w *= miss
    if story.doubled is not None and predicted_doubles(story.contract, held) != story.doubled[seat]:
        w *= miss
    if story.contract == "trix":
        for c, rows in story.moves[seat]:
            legal = S.layout_legal(held, rows)
            if legal.bit_count() > 1 and S.choose_layout_card(held, legal, rows, QUIET_RNG, eps=0.0) != c:
                w *= miss
            held &= ~(1 << c)
        return w
    for c, before in story.moves[seat]:
        led = C.suit_of(before[0][1]) if before else None
        if (C.legal_mask(held, led).bit_count() > 1
                and S.choose_trick_card(story.contract, held, before, QUIET_RNG, eps=0.0) != c):
            w *= miss
        held &= ~(1 << c)
    return w


def weight(story: Story, hands: list[int], miss: float = MISS) -> float:
    """How likely sensible players holding ``hands`` (now) made the moves of ``story``, up to a constant."""
    w = 1.0
    for s in range(4):
        if s != story.me:
            w *= seat_weight(story, s, hands[s], miss)
    return w


def posterior(k: Knowledge, story: Story, rng: random.Random, *, going: Callable[[], bool], min_steps: int = 40,
              max_steps: int = 4000, miss: float = MISS, keep: float = KEEP) -> list[list[int]]:
    """Deals drawn (approximately) in proportion to :func:`weight`, by a Metropolis chain.

    The chain starts from the likeliest of a few consistent deals and moves by swapping one
    unknown card between two other seats (only where both may hold it, so every state stays
    consistent with the voids and passes); a swap is kept with the usual Metropolis–Hastings
    probability. Each step re-weighs the two seats it changed (a seat's weight is remembered by
    its hand: the chain proposes the same swaps again and again). The last ``keep`` of the states
    are returned, never the first ``min_steps // 2`` (the burn-in from a start that is not a draw
    from the posterior); consecutive states are correlated, the caller draws from them at random.
    """
    others = [s for s in range(4) if s != k.seat]
    may = [k.allowed(s) for s in range(4)]
    cur = max((sample_deal(k, rng) for _ in range(8)), key=lambda h: weight(story, h, miss))
    w = [seat_weight(story, s, cur[s], miss) if s != k.seat else 1.0 for s in range(4)]
    chain: list[list[int]] = []
    steps = 0
    while steps < min_steps or (steps < max_steps and going()):
        steps += 1
        a, b = rng.sample(others, 2)
        xs = cur[a] & ~k.known[a] & may[b]
        ys = cur[b] & ~k.known[b] & may[a]
        if xs and ys:
            x = rng.choice(C.cards_of(xs))
            y = rng.choice(C.cards_of(ys))
            na = cur[a] ^ (1 << x) ^ (1 << y)
            nb = cur[b] ^ (1 << x) ^ (1 << y)
            wa, wb = seat_weight(story, a, na, miss), seat_weight(story, b, nb, miss)
            # Hastings: the reverse swap is chosen among the new states' movable cards
            back = (na & ~k.known[a] & may[b]).bit_count() * (nb & ~k.known[b] & may[a]).bit_count()
            ratio = (wa * wb) / (w[a] * w[b]) * (xs.bit_count() * ys.bit_count()) / back if back else 0.0
            if ratio >= 1.0 or rng.random() < ratio:
                cur = list(cur)
                cur[a], cur[b], w[a], w[b] = na, nb, wa, wb
        chain.append(cur)
    return chain[min(len(chain) - 1, max(min_steps // 2, int(len(chain) * (1.0 - keep)))):]


def predicted_doubles(contract: str, hand: int) -> int:
    """The cards a sensible player doubles with ``hand`` (the rule player's test, on card sets)."""
    out = 0
    lens = [(hand & C.SUIT_MASK[s]).bit_count() for s in range(4)]
    for c in C.cards_of(hand & S.PENALTY[contract]) if contract in ("king", "queens") else []:
        s, r = C.suit_of(c), C.rank_of(c)
        suit = hand & C.SUIT_MASK[s]
        n = lens[s]
        lows = sum(1 for x in C.cards_of(suit) if C.rank_of(x) <= 7)
        short = any(lens[o] <= 1 for o in range(4) if o != s)
        if r == 13 and (n >= 5 or (n >= 4 and lows >= 2 and short)):
            out |= 1 << c
        if r == 12 and n >= 4 and lows >= 2 and not suit >> C.card(14, s) & 1 and not suit >> C.card(13, s) & 1:
            out |= 1 << c
    return out
