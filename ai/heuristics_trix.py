"""Trix heuristics of the rule player: contract choice, doubling, penalty-avoiding play, the layout.

All decisions read a seat's view only (``hand``, ``legal``, ``trick``, ``contract``, ``layout``,
``contracts_left``, ``options``).
"""

from __future__ import annotations

from typing import Any

from ai.heuristics import Card, by_suit, card_of, code_of, current_winner, legal_cards, trick_cards
from engine import cards as C
from engine.trix.contracts import DEFAULT_PENALTIES, DEFAULT_TRIX_SCORES

HEARTS, DIAMONDS = C.HEARTS, C.DIAMONDS
JACK = 11


def penalties(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """(K♥, queen, diamond, trick) values, ``swap_diamond_latoosh_values`` applied."""
    opts = view.get("options") or {}
    p = opts.get("penalties") or DEFAULT_PENALTIES
    k, q, d, t = (int(x) for x in p)
    if opts.get("swap_diamond_latoosh_values"):
        d, t = t, d
    return k, q, d, t


def trix_scores(view: dict[str, Any]) -> tuple[int, ...]:
    """The layout's points by finishing place (the table's ``trix_scores``)."""
    sc = (view.get("options") or {}).get("trix_scores")
    return tuple(int(x) for x in sc) if isinstance(sc, (list, tuple)) and len(sc) == 4 else DEFAULT_TRIX_SCORES


def card_penalty(card: Card, contract: str, pen: tuple[int, int, int, int]) -> int:
    """What capturing ``card`` costs in ``contract`` (trick penalties aside)."""
    k, q, d, _ = pen
    out = 0
    if contract in ("king", "complex") and card == (HEARTS, 13):
        out += k
    if contract in ("queens", "complex") and card[1] == 12:
        out += q
    if contract in ("diamonds", "complex") and card[0] == DIAMONDS:
        out += d
    return out


# ---------------------------------------------------------------- contract choice


def _power(suits: dict[int, list[int]]) -> float:
    """Tricks a hand (its ranks by suit) is likely to be forced to take in a no-trump avoidance deal."""
    total = 0.0
    for s in range(4):
        ranks = suits[s]
        lows = sum(1 for r in ranks if r <= 7)
        for r in ranks:
            w = {14: 0.9, 13: 0.65, 12: 0.4, 11: 0.2, 10: 0.1}.get(r, 0.0)
            total += w * (0.6 if lows >= 3 else 1.0)
    return total


def estimate(contract: str, hand: list[Card], pen: tuple[int, int, int, int], trix: tuple[int, ...],
             suits: dict[int, list[int]] | None = None) -> float:
    """The seat's expected score in ``contract`` with ``hand``, roughly (``suits``: ``by_suit(hand)``
    when the caller has it already)."""
    k, q, d, t = pen
    if suits is None:
        suits = by_suit(hand)
    if contract == "king":
        hearts = suits[HEARTS]
        n = len(hearts)
        if 13 in hearts:
            low = sum(1 for r in hearts if r <= 8)
            p = 0.85 if n <= 1 else 0.6 if n == 2 else 0.4 if n == 3 else 0.15 if low >= 3 else 0.3
        else:
            p = 0.35 if 14 in hearts and n <= 2 else 0.15
        return -k * p
    if contract == "queens":
        risk = 0.0
        for s in range(4):
            ranks = suits[s]
            n = len(ranks)
            lows = sum(1 for r in ranks if r <= 9)
            if 12 in ranks:
                risk += 0.7 if n <= 1 else 0.5 if n == 2 else 0.3 if lows < 2 else 0.12
            else:
                risk += sum(0.2 if n <= 3 else 0.08 for r in ranks if r >= 13)
        return -q * risk
    if contract == "diamonds":
        high_d = sum(1 for r in suits[DIAMONDS] if r >= 11)
        return -d * (_power(suits) * 0.9 + high_d * 0.6)
    if contract == "tricks":
        return -t * (_power(suits) + 1.5)
    if contract == "trix":
        return _layout_value(suits, trix)
    return sum(estimate(c, hand, pen, trix, suits) for c in ("king", "queens", "diamonds", "tricks"))


def _layout_value(suits: dict[int, list[int]], trix: tuple[int, ...]) -> float:
    jacks = sum(1 for s in range(4) if JACK in suits[s])
    dead = 0
    for s in range(4):
        ranks = set(suits[s])
        for r in ranks:
            between = range(r + 1, JACK) if r < JACK else range(JACK + 1, r)
            dead += sum(1 for x in between if x not in ranks) >= 3
    mean = sum(trix) / len(trix)
    spread = (trix[0] - trix[-1]) / 3
    return mean + spread * (0.5 * (jacks - 1) - 0.25 * (dead - 3))


def choose_contract(view: dict[str, Any]) -> str:
    """The unplayed contract where this hand does best compared with an average hand."""
    hand = [card_of(c) for c in view.get("hand", [])]
    legal: list[str] = [str(a) for a in view["legal"] if str(a).startswith("contract ")]
    if not hand:
        return legal[0]
    pen = penalties(view)
    trix = trix_scores(view)
    return max(legal, key=lambda a: estimate(a.split()[1], hand, pen, trix) - baseline(a.split()[1], pen, trix))


def baseline(contract: str, pen: tuple[int, int, int, int], trix: tuple[int, ...]) -> float:
    """A seat's mean points in ``contract`` with a random hand (−75/4, −100/4, … +500/4)."""
    k, q, d, t = pen
    return {
        "king": -k / 4,
        "queens": -q,
        "diamonds": -13 * d / 4,
        "tricks": -13 * t / 4,
        "trix": sum(trix) / 4,
        "complex": -(k + 4 * q + 13 * d + 13 * t) / 4,
    }[contract]


# ---------------------------------------------------------------- doubling


def choose_double(view: dict[str, Any]) -> str:
    """Double only a card that is safe: K♥ among many hearts, a queen among many low cards."""
    hand = [card_of(c) for c in view.get("hand", [])]
    suits = by_suit(hand)
    for a in map(str, view["legal"]):
        if not a.startswith("double "):
            continue
        s, r = card_of(a.split()[1])
        ranks = suits[s]
        lows = sum(1 for x in ranks if x <= 7)
        short = any(len(suits[o]) <= 1 for o in range(4) if o != s)
        if r == 13 and (len(ranks) >= 5 or (len(ranks) >= 4 and lows >= 2 and short)):
            return a
        if r == 12 and len(ranks) >= 4 and lows >= 2 and 14 not in ranks and 13 not in ranks:
            return a
    return "done"


# ---------------------------------------------------------------- penalty trick play


def _lead(hand: list[Card], legal: list[Card], contract: str, pen: tuple[int, int, int, int]) -> Card:
    suits = by_suit(hand)
    if contract in ("king", "complex") and (HEARTS, 13) not in hand and 14 not in suits[HEARTS]:
        hearts = [c for c in legal if c[0] == HEARTS and c[1] <= 10]
        if hearts:
            return min(hearts, key=lambda c: c[1])
    if contract == "king" and (HEARTS, 13) in hand:
        side = [c for c in legal if c[0] != HEARTS]
        if side:
            return min(side, key=lambda c: (len(suits[c[0]]), c[1]))
    if contract in ("queens", "complex"):
        safe = [c for c in legal if 12 not in suits[c[0]] and c[1] < 12]
        if safe:
            return min(safe, key=lambda c: (c[1], -len(suits[c[0]])))
    if contract == "diamonds":
        low_d = [c for c in legal if c[0] == DIAMONDS and c[1] <= 5]
        other = [c for c in legal if c[0] != DIAMONDS]
        if other and not low_d:
            return min(other, key=lambda c: (c[1], -len(suits[c[0]])))
    return min(legal, key=lambda c: (card_penalty(c, contract, pen) > 0, c[1], -len(suits[c[0]])))


def play_penalty_trick(view: dict[str, Any]) -> str:
    """A card for K♥, Queens, Diamonds, Latoosh and the merged contract: take as little as possible.

    Void: throw the costliest card (K♥, a queen...) or the highest. Following: the highest card that
    still loses; when every card wins, the lowest (or, last to play, the highest that costs
    nothing). Under ``partnership`` no penalty card is thrown onto the partner's trick.
    """
    hand = [card_of(c) for c in view.get("hand", [])]
    legal = legal_cards(view)
    contract = str(view.get("contract"))
    pen = penalties(view)
    trick = trick_cards(view)
    if not trick:
        return "play " + code_of(_lead(hand, legal, contract, pen))
    led = trick[0][1][0]
    win_seat, win = current_winner(trick, None)
    suits = by_suit(hand)
    me = int(view.get("seat") or 0)
    if (view.get("options") or {}).get("partnership") and win_seat == (me + 2) % 4:
        below = [c for c in legal if c[0] != led or c[1] < win[1]]
        if below:
            return "play " + code_of(max(below, key=lambda c: (-card_penalty(c, contract, pen), c[1])))
    if legal[0][0] != led:
        worst = max(legal, key=lambda c: (card_penalty(c, contract, pen), c[1], -len(suits[c[0]])))
        return "play " + code_of(worst)
    below = [c for c in legal if c[1] < win[1]]
    if below:
        return "play " + code_of(max(below, key=lambda c: (c[1], card_penalty(c, contract, pen))))
    if len(trick) == 3:
        return "play " + code_of(max(legal, key=lambda c: (-card_penalty(c, contract, pen), c[1])))
    return "play " + code_of(min(legal, key=lambda c: (card_penalty(c, contract, pen), c[1])))


# ---------------------------------------------------------------- the layout


def _played(view: dict[str, Any]) -> set[Card]:
    out: set[Card] = set()
    for s, row in enumerate(_rows(view)):
        if row is not None:
            out |= {(s, r) for r in range(row[0], row[1] + 1)}
    return out


def _rows(view: dict[str, Any]) -> list[tuple[int, int] | None]:
    layout = view.get("layout") or {}
    rows: list[tuple[int, int] | None] = []
    for s in C.SUIT_CODES:
        row = layout.get(s)
        rows.append(None if row is None else (C.RANKS.index(row[0]) + 2, C.RANKS.index(row[1]) + 2))
    return rows


def layout_score(card: Card, mine: set[Card], played: set[Card]) -> float:
    """How good playing ``card`` is: it should open the way for our own cards, not the others'.

    For each direction the card opens: +1.5 per own card beyond it, −0.3 per other card beyond
    it, +1 if the very next card is ours and −1 if it is someone else's; an end card (2 or A) +1.
    (Weights tuned on ``bench/ai_rules.py``-style duplicate deals against random seats.)
    """
    s, r = card
    directions = (1, -1) if r == JACK else ((1,) if r > JACK else (-1,))
    score = 0.0
    for step in directions:
        nxt = r + step
        if not 2 <= nxt <= 14:
            score += 1.0
            continue
        beyond = [(s, x) for x in range(nxt, 15 if step > 0 else 1, step) if (s, x) not in played]
        own = sum(1 for c in beyond if c in mine)
        score += 1.5 * own - 0.3 * (len(beyond) - own)
        score += 1.0 if (s, nxt) in mine else -1.0
    return score


def play_layout(view: dict[str, Any]) -> str:
    """A layout card: unblock our own long runs, hold back cards the others need."""
    legal = legal_cards(view)
    if not legal:
        return "pass"
    mine = {card_of(c) for c in view.get("hand", [])}
    played = _played(view)
    best = max(legal, key=lambda c: (layout_score(c, mine, played), -c[1], -c[0]))
    return "play " + code_of(best)
