"""Names of cards, suits, ranks, games and contracts in the reader's language (rules.md §4)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.present.i18n import T

SUIT_ORDER: tuple[str, ...] = ("S", "H", "D", "C")  # as a hand is shown: spades, hearts, diamonds, clubs
SUIT_SYMBOL: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_ORDER = "AKQJT98765432"
RANK_GLYPH: dict[str, str] = {"T": "10"}

_SUITS: dict[str, Callable[[T], str]] = {
    "S": lambda t: t.pgettext("suit", "Spades"),
    "H": lambda t: t.pgettext("suit", "Hearts"),
    "D": lambda t: t.pgettext("suit", "Diamonds"),
    "C": lambda t: t.pgettext("suit", "Clubs"),
}

_RANKS: dict[str, Callable[[T], str]] = {
    "A": lambda t: t.pgettext("rank", "Ace"),
    "K": lambda t: t.pgettext("rank", "King"),
    "Q": lambda t: t.pgettext("rank", "Queen"),
    "J": lambda t: t.pgettext("rank", "Jack"),
    "T": lambda t: t.pgettext("rank", "Ten"),
    "9": lambda t: t.pgettext("rank", "Nine"),
    "8": lambda t: t.pgettext("rank", "Eight"),
    "7": lambda t: t.pgettext("rank", "Seven"),
    "6": lambda t: t.pgettext("rank", "Six"),
    "5": lambda t: t.pgettext("rank", "Five"),
    "4": lambda t: t.pgettext("rank", "Four"),
    "3": lambda t: t.pgettext("rank", "Three"),
    "2": lambda t: t.pgettext("rank", "Two"),
}

_GAMES: dict[str, Callable[[T], str]] = {
    "tarneeb41": lambda t: t.gettext("Syrian Tarneeb {target}", target=41),
    "tarneeb": lambda t: t.pgettext("game", "Tarneeb"),
    "trix": lambda t: t.pgettext("game", "Trix"),
}

_CONTRACTS: dict[str, Callable[[T], str]] = {
    "king": lambda t: t.pgettext("contract", "King of Hearts"),
    "queens": lambda t: t.pgettext("contract", "Queens"),
    "diamonds": lambda t: t.pgettext("contract", "Diamonds"),
    "tricks": lambda t: t.pgettext("contract", "Latoosh"),
    "trix": lambda t: t.pgettext("contract", "Trix"),
    "complex": lambda t: t.pgettext("contract", "Complex"),
}

CONTRACT_ORDER: tuple[str, ...] = ("king", "queens", "diamonds", "tricks", "trix", "complex")


def rank_glyph(rank: str, t: T | None = None) -> str:
    """``"10"`` for ``"T"``, the letter for a picture card; numbers in the reader's digits."""
    glyph = RANK_GLYPH.get(rank, rank)
    return t.number(int(glyph)) if t is not None and glyph.isdigit() else glyph


#: (code, digits) -> label: a label depends on the reader's digits only (kept for the 52 cards).
_LABELS: dict[tuple[str, str | None], str] = {}


def card_label(code: str, t: T | None = None) -> str:
    """The compact label of a card: ``"Q♠"``, ``"10♥"`` (``"١٠♥"`` with Arabic-Indic digits)."""
    key = (code, None if t is None else t.digits)
    label = _LABELS.get(key)
    if label is None:
        label = rank_glyph(code[0], t) + SUIT_SYMBOL[code[1]]
        if len(_LABELS) < 1024:
            _LABELS[key] = label
    return label


def card_name(code: str, t: T) -> str:
    """The card in words: ``"Queen of Spades"`` / ``"بنت بستوني"``."""
    return t.gettext("{rank} of {suit}", rank=rank_name(code[0], t), suit=suit_name(code[1], t))


def rank_name(rank: str, t: T) -> str:
    """A rank in words (``"K"`` → King / شايب)."""
    return _RANKS[rank](t)


def suit_name(suit: str, t: T) -> str:
    """A suit in words (``"H"`` → Hearts / كبة)."""
    return _SUITS[suit.upper()](t)


def suit_label(suit: str, t: T) -> str:
    """A suit with its symbol: ``"♥ Hearts"``."""
    s = suit.upper()
    return f"{SUIT_SYMBOL[s]} {suit_name(s, t)}"


def trump_label(trump: str, t: T) -> str:
    """The trump of a deal: ``"♥ Hearts"``, or "No trump" for ``"N"`` (a classic Tarneeb variant)."""
    if trump.upper() == "N":
        return t.pgettext("trump", "No trump")
    return suit_label(trump, t)


def game_name(game_id: str, t: T) -> str:
    """The game's name: Syrian Tarneeb 41 / طرنيب سوري ٤١, Tarneeb / طرنيب, Trix / تركس."""
    f = _GAMES.get(game_id)
    return f(t) if f else game_id


def contract_name(contract: str, t: T) -> str:
    """A Trix contract's name: King of Hearts / شايب الكبة, Queens / البنات, …"""
    f = _CONTRACTS.get(contract)
    return f(t) if f else contract


def sort_key(code: str) -> tuple[int, int]:
    """Display order in a hand: by suit (♠ ♥ ♦ ♣), high rank first."""
    return SUIT_ORDER.index(code[1]), RANK_ORDER.index(code[0])


def by_suit(codes: Iterable[str]) -> dict[str, list[str]]:
    """The codes grouped by suit in display order, each suit high to low; empty suits omitted."""
    out: dict[str, list[str]] = {s: [] for s in SUIT_ORDER}
    for c in sorted(codes, key=sort_key):
        out[c[1]].append(c)
    return {s: cs for s, cs in out.items() if cs}


def cards_line(codes: Iterable[str], t: T) -> str:
    """Cards as labels separated by spaces, isolated as one run for right-to-left text."""
    return t.isolate(" ".join(card_label(c, t) for c in codes))
