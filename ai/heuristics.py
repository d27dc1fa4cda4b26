"""Card helpers and the trick-play and bidding heuristics of the rule player for both Tarneeb games.

Everything works from a seat's view only: card codes (``"QS"``), the trick in progress and the
trump. Cards are ``(suit, rank)`` pairs here: suit index 0..3 (clubs, diamonds, hearts, spades)
and rank 2..14, the same conventions as ``engine.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine import cards as C

Card = tuple[int, int]


#: Canonical code -> ``(suit, rank)``: a view's codes are canonical, so most cards are one lookup.
_CARDS: dict[str, Card] = {C.code(i): (C.suit_of(i), C.rank_of(i)) for i in range(52)}


def card_of(code: str) -> Card:
    """``"QS"`` → ``(3, 12)`` (also ``"qs"``, ``"10H"``: whatever ``engine.cards.parse`` reads)."""
    try:
        card = _CARDS.get(code)
    except TypeError:  # unhashable: parse says what is wrong with it
        card = None
    if card is not None:
        return card
    i = C.parse(code)
    return (C.suit_of(i), C.rank_of(i))


def code_of(card: Card) -> str:
    """``(3, 12)`` → ``"QS"``."""
    return C.code(C.card(card[1], card[0]))


def legal_cards(view: dict[str, Any]) -> list[Card]:
    """The cards among the view's legal ``play XX`` codes."""
    return [card_of(a.split()[1]) for a in view.get("legal", []) if a.startswith("play ")]


def by_suit(cards: Iterable[Card]) -> dict[int, list[int]]:
    """Ranks per suit, each list sorted high to low."""
    out: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
    for s, r in cards:
        out[s].append(r)
    for ranks in out.values():
        ranks.sort(reverse=True)
    return out


def trick_cards(view: dict[str, Any]) -> list[tuple[int, Card]]:
    """The trick in progress as ``(seat, card)`` in play order."""
    return [(int(x["seat"]), card_of(str(x["card"]))) for x in view.get("trick") or []]


def beats(a: Card, b: Card, led: int, trump: int | None) -> bool:
    """Whether card ``a`` beats card ``b`` in a trick whose led suit is ``led`` (rules.md §0.5)."""
    if trump is not None and a[0] == trump:
        return b[0] != trump or a[1] > b[1]
    if trump is not None and b[0] == trump:
        return False
    if a[0] == led:
        return b[0] != led or a[1] > b[1]
    return False


def current_winner(trick: Sequence[tuple[int, Card]], trump: int | None) -> tuple[int, Card]:
    """The seat and card winning the trick so far."""
    led = trick[0][1][0]
    best = trick[0]
    for seat, c in trick[1:]:
        if beats(c, best[1], led, trump):
            best = (seat, c)
    return best


def suit_index(code: str | None) -> int | None:
    """A suit index from ``"S"``/``"H"``/``"D"``/``"C"``; None for None."""
    return None if code is None else C.parse_suit(code)


# ---------------------------------------------------------------- trick play (Tarneeb games)


def discard(legal: list[Card], trump: int | None, hand: list[Card]) -> Card:
    """A card to throw away: the lowest non-trump, from the shortest side suit on a tie."""
    suits = by_suit(hand)
    side = [c for c in legal if c[0] != trump] or legal
    return min(side, key=lambda c: (c[1], len(suits[c[0]]), c[0]))


def choose_lead(hand: list[Card], legal: list[Card], trump: int | None, strong_trumps: bool) -> Card:
    """Lead: cash side aces, pull trumps when long and strong in them, else the longest side suit.

    From the longest side suit it leads the top of touching honours (KQ, QJ...), else its lowest.
    """
    suits = by_suit(hand)
    legal_set = set(legal)
    if trump is not None and strong_trumps:
        t = suits[trump]
        if t and t[0] >= 13 and (trump, t[0]) in legal_set:
            return (trump, t[0])
    aces = [c for c in legal if c[1] == 14 and c[0] != trump]
    if aces:
        return max(aces, key=lambda c: (len(suits[c[0]]), -c[0]))
    side = [s for s in range(4) if s != trump and any(c[0] == s for c in legal)]
    if side:
        s = max(side, key=lambda x: (len(suits[x]), suits[x][0], -x))
        ranks = suits[s]
        if len(ranks) >= 2 and ranks[0] >= 12 and ranks[0] - ranks[1] == 1:
            return (s, ranks[0])
        return (s, min(r for su, r in legal if su == s))
    return min(legal, key=lambda c: c[1])


def choose_follow(view: dict[str, Any], hand: list[Card], legal: list[Card], trump: int | None, me: int) -> Card:
    """Follow: win cheaply when it can, duck when it cannot, never overtake the partner's winner."""
    trick = trick_cards(view)
    led = trick[0][1][0]
    win_seat, win_card = current_winner(trick, trump)
    partner = (me + 2) % 4
    winners = [c for c in legal if beats(c, win_card, led, trump)]
    following = legal[0][0] == led
    if win_seat == partner:
        return min(legal, key=lambda c: (c[1], c[0])) if following else discard(legal, trump, hand)
    if winners:
        return min(winners, key=lambda c: (c[0] == trump, c[1]))
    if following:
        return min(legal, key=lambda c: c[1])
    return discard(legal, trump, hand)


def play_card(view: dict[str, Any]) -> str:
    """A card for the Tarneeb games' play phase."""
    hand = [card_of(c) for c in view.get("hand", [])]
    legal = legal_cards(view)
    trump = suit_index(view.get("trump"))
    me = int(view["seat"])
    if not view.get("trick"):
        t = [c for c in hand if c[0] == trump]
        strong = len(t) >= 4 and any(r >= 13 for _, r in t) and our_contract(view, me)
        return "play " + code_of(choose_lead(hand, legal, trump, strong))
    return "play " + code_of(choose_follow(view, hand, legal, trump, me))


def our_contract(view: dict[str, Any], me: int) -> bool:
    """Whether the seat's team holds the contract (classic: the declarer's team; 41: always)."""
    declarer = view.get("declarer")
    if declarer is None:
        return True
    return int(declarer) % 2 == me % 2


# ---------------------------------------------------------------- hand evaluation


#: A trump honour's share of a trick.
HONOUR = {14: 1.0, 13: 0.85, 12: 0.55, 11: 0.3}
#: A short side suit's tricks by ruffing, with at least three trumps (void, singleton, doubleton).
SHORT = {0: 0.9, 1: 0.55, 2: 0.2}


def add_side_suit(total: float, ranks: list[int], long_trump: bool) -> float:
    """``total`` plus a side suit's likely tricks (aces, guarded kings and queens, ruffs when short
    with ``long_trump``), added term by term: :func:`estimate_tricks` and the strong player's fast
    copy (ai/strong/bidmodel.py) get the same sums, bit for bit."""
    n = len(ranks)
    if 14 in ranks:
        total += 1.0
    if 13 in ranks and n >= 2:
        total += 0.75 if 14 in ranks else 0.5
    if 12 in ranks and n >= 3 and (14 in ranks or 13 in ranks):
        total += 0.3
    if long_trump:
        total += SHORT.get(n, 0.0)
    return total


def estimate_tricks(hand: list[Card], trump: int | None) -> float:
    """Likely tricks of one hand with ``trump`` as trump (honours, trump length, short side suits)."""
    suits = by_suit(hand)
    long_trump = trump is not None and len(suits[trump]) >= 3
    total = 0.0
    for s in range(4):
        ranks = suits[s]
        if s == trump:
            total += sum(HONOUR.get(r, 0.0) for r in ranks)
            total += max(0, len(ranks) - 3) * 0.85
            continue
        total = add_side_suit(total, ranks, long_trump)
    return total


def best_trump(hand: list[Card]) -> tuple[int, float]:
    """The suit that makes the hand strongest as trump, and the tricks it would take."""
    suits = by_suit(hand)
    return max(
        ((s, estimate_tricks(hand, s)) for s in range(4)),
        key=lambda x: (round(x[1], 6), len(suits[x[0]]), sum(suits[x[0]])),
    )
