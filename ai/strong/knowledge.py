"""What one seat knows about the hidden cards, read from its view, and deals consistent with it.

The strong players never see the engine: they get ``view(seat)`` only. From it they learn their
own hand, every card played this deal (``history`` plus the current ``trick``), which seats showed
a void (did not follow the suit led), the Syrian exposed card (still in the dealer's hand), the
revealed Trix doubles, which cards a seat cannot hold because it passed on the Trix layout while
they were open (``layout_history``), who was dealt the 7♥ in a Trix match's first deal (its
owner), and how many cards each seat holds. :func:`sample_deal` draws
the other three hands uniformly among the deals consistent with all of that (hard constraints);
what the other seats' choices suggest is weighed separately (:mod:`ai.strong.trix_infer`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine import cards as C
from engine.trix import layout as L


@dataclass(slots=True)
class Knowledge:
    """Everything public plus the seat's own hand, as card sets."""

    seat: int
    hand: int
    sizes: list[int]
    played: int = 0
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # per seat: bitmask of suits (1 << s)
    known: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards known to be in a seat's hand
    excluded: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards a seat cannot hold (layout passes)
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) in play order
    leader: int = 0
    tricks_done: int = 0

    def allowed(self, seat: int) -> int:
        """The cards ``seat`` may hold: none of a suit it showed void in, none it passed on."""
        m = C.FULL_DECK & ~self.excluded[seat]
        for suit in range(4):
            if self.voids[seat] >> suit & 1:
                m &= ~C.SUIT_MASK[suit]
        return m

    @property
    def unknown(self) -> int:
        """Cards neither in my hand, nor played, nor known elsewhere."""
        k = self.known[0] | self.known[1] | self.known[2] | self.known[3]
        return C.FULL_DECK & ~self.hand & ~self.played & ~k


def _card(entry: Any) -> tuple[int, int]:
    return int(entry["seat"]), C.parse(str(entry["card"]))


def from_view(view: dict[str, Any]) -> Knowledge:
    """Build the seat's knowledge from ``view(seat)`` (trick games and the Trix layout)."""
    seat = int(view["seat"])
    hand = C.mask_of(view.get("hand") or [])
    sizes = [int(x) for x in view.get("hand_sizes") or [0, 0, 0, 0]]
    k = Knowledge(seat=seat, hand=hand, sizes=sizes)
    tricks: list[list[tuple[int, int]]] = []
    history = view.get("history")
    if history is None and view.get("last_trick"):
        history = [view["last_trick"]]  # an engine without history: the last trick at least
    for t in history or []:
        tricks.append([_card(e) for e in t.get("cards", [])])
    current = [_card(e) for e in view.get("trick") or []]
    for t in [*tricks, current]:
        if not t:
            continue
        led = C.suit_of(t[0][1])
        for s, c in t:
            k.played |= 1 << c
            if C.suit_of(c) != led:
                k.voids[s] |= 1 << led
    k.trick = current
    k.tricks_done = len(tricks)
    leader = view.get("leader")
    k.leader = int(leader) if leader is not None else (current[0][0] if current else seat)
    exposed = view.get("exposed")
    if exposed and view.get("dealer") is not None:
        e = C.parse(str(exposed))
        dealer = int(view["dealer"])
        if dealer != seat and not (k.played >> e) & 1:
            k.known[dealer] |= 1 << e
    for d in view.get("doubled") or []:
        c = C.parse(str(d["card"]))
        s = int(d["seat"])
        if s != seat and not (k.played >> c) & 1:
            k.known[s] |= 1 << c
    for suit, ends in (view.get("layout") or {}).items():
        if ends:
            lo, hi = (C.RANKS.index(str(x)) + 2 for x in ends)
            for r in range(lo, hi + 1):
                k.played |= 1 << C.card(r, C.parse_suit(suit))
    _layout_passes(k, view.get("layout_history") or [])
    _first_owner(k, view)
    return k


def _first_owner(k: Knowledge, view: dict[str, Any]) -> None:
    """In a Trix match's first deal, played as dealt, the owner is the seat dealt the 7♥ (X-K2)."""
    opts = view.get("options") or {}
    owner = view.get("owner")
    if (view.get("game") != "trix" or view.get("deal_index") != 0 or owner is None
            or opts.get("first_owner_rule") != "seven_of_hearts" or not opts.get("first_deal_is_played", True)):
        return
    seven = C.card(7, C.HEARTS)
    if int(owner) != k.seat and not (k.played >> seven) & 1:
        k.known[int(owner)] |= 1 << seven


def _layout_passes(k: Knowledge, moves: list[dict[str, Any]]) -> None:
    """A seat that passed on the layout held none of the cards that were open at that moment (X-L3)."""
    rows = [(0, 0)] * 4
    for m in moves:
        if m.get("pass"):
            k.excluded[int(m["seat"])] |= L.open_cards(rows)
            continue
        c = C.parse(str(m["card"]))
        rows[C.suit_of(c)] = L.place(rows[C.suit_of(c)], C.rank_of(c))


def sample_deal(k: Knowledge, rng: random.Random, tries: int = 200) -> list[int]:
    """Four hands (card sets) consistent with ``k``: mine as it is, the others drawn at random.

    Voids are respected when possible; after ``tries`` failed attempts they are relaxed (a
    view with inconsistent sizes is then still answered with a legal-looking deal).
    """
    others = [s for s in range(4) if s != k.seat]
    allowed = [k.allowed(s) for s in range(4)]
    need = {s: k.sizes[s] - k.known[s].bit_count() for s in others}
    pool = C.cards_of(k.unknown)
    extra = len(pool) - sum(need.values())
    if extra > 0:  # cards played unseen (a view without history): drop some at random
        rng.shuffle(pool)
        pool = pool[extra:]
    for attempt in range(tries + 1):
        strict = attempt < tries
        hands = [0, 0, 0, 0]
        hands[k.seat] = k.hand
        for s in others:
            hands[s] = k.known[s]
        left = dict(need)
        rng.shuffle(pool)
        # most constrained cards first: those that fewer seats may hold
        order = sorted(pool, key=lambda c: sum(1 for s in others if allowed[s] >> c & 1))
        ok = True
        for c in order:
            cands = [s for s in others if left[s] > 0 and (not strict or allowed[s] >> c & 1)]
            if not cands:
                ok = False
                break
            # weight by remaining capacity: uniform over consistent deals for unconstrained cards
            total = sum(left[s] for s in cands)
            r = rng.randrange(total)
            for s in cands:
                r -= left[s]
                if r < 0:
                    break
            hands[s] |= 1 << c
            left[s] -= 1
        if ok:
            return hands
    raise RuntimeError("no consistent deal")

