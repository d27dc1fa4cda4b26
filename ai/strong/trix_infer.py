"""Reading the other seats' cards from how they played: likelihood weights for sampled Trix deals.

A deal sampled by :func:`ai.strong.knowledge.sample_deal` respects the hard facts (voids, cards
seen, layout passes) but treats every consistent deal alike. People, however, play sensibly: a
seat that led a low spade in Queens probably holds no queen of spades; a seat that threw a small
club when void in hearts probably held no K♥. This module replays the deal so far on a sampled
deal and asks, for every move of another seat, whether a sensible player (the rule player's
heuristics, the same policy the rollouts use) holding those cards would have made it. A seat is
modelled as a mixture of players who make the model's move except, a share ``eps`` of the time, a
random one (:data:`MODEL`, :func:`likelihood`): a move that disagrees costs a lot under the sharp
component, little under the loose ones, and each seat's own evidence decides which components
explain it (people are not rule players: a wrong model must only blur the picture, not break
it; a disagreeing move is a soft penalty, never a veto). The doubles revealed
after the window are checked the same way, and so is the kingdom owner's choice of this deal's
contract when another seat made it among several after seeing its cards (the rule player's
:func:`ai.heuristics_trix.choose_contract`, on the owner's 13 cards).

The weight is a product over the other seats of a factor that depends on that seat's cards only,
so :func:`posterior` can draw deals in proportion to it with a Metropolis chain that changes two
seats at a time; the strong player spends its rollouts on those deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ai import heuristics_trix as X
from ai.heuristics import by_suit
from ai.strong import trix_sim as S
from ai.strong.knowledge import Knowledge, sample_deal
from engine import cards as C
from engine.trix import contracts as TC

#: The weight factor of one move the model would not have made, in the flat model used before
#: :data:`MODEL` (``posterior(..., miss=MISS)``; the bench/trix_infer.py diagnostic compares them).
MISS = 0.2
#: How model-like another seat plays: (prior share, ``eps``) per component, a player who makes
#: the model's move except a share ``eps`` of the time (then any legal move at random). The sharp
#: component reads a rule-like seat almost as the model's exact posterior would; the loose ones
#: keep a seat that often disagrees from being read as if it never did.
Model = tuple[tuple[float, float], ...]
MODEL: Model = ((0.7, 0.01), (0.2, 0.2), (0.1, 0.6))
#: The weight factor of an owner's hand with which the rule player would have chosen another
#: contract, under :data:`MODEL`: the order of a kingdom's contracts is a player's strategy far
#: more than its card play is, so this one choice stays a soft hint (it was 0.2 before too).
CHOICE_MISS = 0.2
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
    pen: tuple[int, int, int, int] = TC.DEFAULT_PENALTIES
    trix: tuple[int, ...] = TC.DEFAULT_TRIX_SCORES
    #: whether the owner would have chosen this contract, by the owner's 13 cards (a cache)
    chose: dict[int, bool] = field(default_factory=dict)
    #: :func:`seat_weight` by (seat, hand now) under ``model``, the last model asked
    memo: dict[tuple[int, int], float] = field(default_factory=dict)
    model: float | Model | None = None

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
    (:func:`ai.heuristics_trix.choose_contract`, on a card set)."""
    hand = [(c // 13, c % 13 + 2) for c in C.card_ids(held)]
    suits = by_suit(hand)
    return max(story.options,
               key=lambda a: X.estimate(a, hand, story.pen, story.trix, suits) - X.baseline(a, story.pen, story.trix))


def seat_weight(story: Story, seat: int, hand: int, miss: float | Model = MODEL) -> float:
    """How likely a sensible player holding ``hand`` now at ``seat`` made that seat's moves so far.

    The likelihood of a whole deal is the product over the other seats: each factor depends on
    that seat's own cards only, which is what lets :func:`posterior` change two seats at a time.
    ``miss`` is the model (:data:`MODEL`: a mixture over how model-like the seat plays), or a flat
    factor for each move the model would not have made (then ``miss ** misses``). Remembered by
    (seat, hand) for the last model asked: a chain proposes the same hands again and again.
    """
    if miss is not story.model and miss != story.model:
        story.memo.clear()
        story.model = miss
    key = (seat, hand)
    w = story.memo.get(key)
    if w is None:
        if len(story.memo) > 50000:
            story.memo.clear()
        agree, missed = evidence(story, seat, hand)
        w = likelihood(miss, agree, missed)
        if seat == story.owner and not chose_so(story, hand | story.played[seat]):
            w *= miss if isinstance(miss, float | int) else CHOICE_MISS
        story.memo[key] = w
    return w


def misses(story: Story, seat: int, hand: int) -> int:
    """How many of ``seat``'s choices so far (its doubles and its choice of contract included) the
    model would not have made with ``hand`` now."""
    chose = seat != story.owner or chose_so(story, hand | story.played[seat])
    return len(evidence(story, seat, hand)[1]) + (not chose)


def chose_so(story: Story, held: int) -> bool:
    """Whether the owner, dealt ``held``, would have chosen this deal's contract (remembered)."""
    chose = story.chose.get(held)
    if chose is None:
        if len(story.chose) > 20000:
            story.chose.clear()
        chose = story.chose[held] = predicted_contract(story, held) == story.contract
    return chose


def likelihood(miss: float | Model, agree: list[int], missed: list[int]) -> float:
    """A seat's weight from its choices: the number of options of those the model would have made
    (``agree``) and of those it would not (``missed``).

    Under a mixture each component is a player who plays the model's move, except a share ``eps``
    of the time a move at random: a choice among ``n`` options is the model's with chance
    ``1 - eps + eps / n``, another given one with ``eps / n``; the components are summed by their
    prior shares. A seat whose choices all agree with the model so makes the sharp component
    likelier, one that disagrees often the loose ones: how model-like the seat is, is read from
    the deal's evidence, hand by hand.
    """
    if isinstance(miss, float | int):
        return float(miss) ** len(missed)
    total = 0.0
    for share, eps in miss:
        w = share
        for n in agree:
            w *= 1.0 - eps + eps / n
        for n in missed:
            w *= eps / n
        total += w
    return total


def evidence(story: Story, seat: int, hand: int) -> tuple[list[int], list[int]]:
    """The number of options of each card ``seat`` played with more than one legal (and of its
    doubling, as one choice of two), split by whether the model holding ``hand`` now makes it so.
    The owner's choice of contract is weighed apart (:data:`CHOICE_MISS`)."""
    held = hand | story.played[seat]  # the seat's hand when the deal began
    agree: list[int] = []
    missed: list[int] = []
    if story.doubled is not None:
        (agree if predicted_doubles(story.contract, held) == story.doubled[seat] else missed).append(2)
    if story.contract == "trix":
        for c, rows in story.moves[seat]:
            legal = S.layout_legal(held, rows)
            n = legal.bit_count()
            if n > 1:
                (agree if S.choose_layout_card(held, legal, rows, QUIET_RNG, eps=0.0) == c else missed).append(n)
            held &= ~(1 << c)
        return agree, missed
    for c, before in story.moves[seat]:
        led = C.suit_of(before[0][1]) if before else None
        n = C.legal_mask(held, led).bit_count()
        if n > 1:
            (agree if S.choose_trick_card(story.contract, held, before, QUIET_RNG, eps=0.0) == c
             else missed).append(n)
        held &= ~(1 << c)
    return agree, missed


def weight(story: Story, hands: list[int], miss: float | Model = MODEL) -> float:
    """How likely sensible players holding ``hands`` (now) made the moves of ``story``, up to a constant."""
    w = 1.0
    for s in range(4):
        if s != story.me:
            w *= seat_weight(story, s, hands[s], miss)
    return w


def posterior(k: Knowledge, story: Story, rng: random.Random, *, going: Callable[[], bool], min_steps: int = 40,
              max_steps: int = 4000, miss: float | Model = MODEL, keep: float = KEEP,
              stats: dict[str, int] | None = None) -> list[list[int]]:
    """Deals drawn (approximately) in proportion to :func:`weight`, by a Metropolis chain.

    The chain starts from the likeliest of a few consistent deals and moves by swapping one
    unknown card between two other seats (only where both may hold it, so every state stays
    consistent with the voids and passes); a swap is kept with the usual Metropolis–Hastings
    probability. Each step re-weighs the two seats it changed (a seat's weight is remembered by
    its hand: the chain proposes the same swaps again and again). The last ``keep`` of the states
    are returned, never the first ``min_steps // 2`` (the burn-in from a start that is not a draw
    from the posterior); consecutive states are correlated, the caller draws from them at random.
    ``stats`` (if given) counts the steps, the swaps proposed and those accepted.
    """
    others = [s for s in range(4) if s != k.seat]
    may = [k.allowed(s) for s in range(4)]
    cur = max((sample_deal(k, rng) for _ in range(8)), key=lambda h: weight(story, h, miss))
    w = [seat_weight(story, s, cur[s], miss) if s != k.seat else 1.0 for s in range(4)]
    chain: list[list[int]] = []
    steps = proposed = accepted = 0
    while steps < min_steps or (steps < max_steps and going()):
        steps += 1
        a, b = rng.sample(others, 2)
        xs = cur[a] & ~k.known[a] & may[b]
        ys = cur[b] & ~k.known[b] & may[a]
        if xs and ys:
            proposed += 1
            x = rng.choice(C.cards_of(xs))
            y = rng.choice(C.cards_of(ys))
            na = cur[a] ^ (1 << x) ^ (1 << y)
            nb = cur[b] ^ (1 << x) ^ (1 << y)
            wa, wb = seat_weight(story, a, na, miss), seat_weight(story, b, nb, miss)
            # Hastings: the reverse swap is chosen among the new states' movable cards
            back = (na & ~k.known[a] & may[b]).bit_count() * (nb & ~k.known[b] & may[a]).bit_count()
            ratio = (wa * wb) / (w[a] * w[b]) * (xs.bit_count() * ys.bit_count()) / back if back else 0.0
            if ratio >= 1.0 or rng.random() < ratio:
                accepted += 1
                cur = list(cur)
                cur[a], cur[b], w[a], w[b] = na, nb, wa, wb
        chain.append(cur)
    if stats is not None:
        stats.update(steps=steps, proposed=proposed, accepted=accepted)
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
