"""What the player may type at a prompt, and what it means.

In a bid prompt a number *is* the bid (``7`` bids 7, shown in the screen's digits); every other
choice (a card, a contract, a trump suit, a double, done, pass) has a short letter key that cannot be
mistaken for a bid, and the action's own words also work (``QS``, ``10h``, ``play QS``, ``bid 13``,
``pass``). The letters of the prompt commands (``h``/``?`` help, ``r`` rules, ``s`` scores, ``l`` the
last trick, ``q`` save and quit) are never choice keys.

Digits are read safely: ASCII and Arabic-Indic (and any other *decimal* digit) count as digits;
superscripts, circled numbers and the like are just unknown text, never a crash.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: Prompt commands: the letter (or ``?``) and what it does.
COMMANDS: dict[str, str] = {"h": "help", "?": "help", "r": "rules", "s": "scores", "l": "last", "q": "quit",
                             "t": "hint", "v": "review"}
#: Keys for choices that are not bids: no command letter, no ``p`` (pass), ``d`` (done), ``y``/``n``
#: (questions).
KEYS = "abcefgijkmouwxz"
PASS_KEY = "p"
DONE_KEY = "d"
ACTION_VERBS = ("play", "bid", "trump", "contract", "double")
_RANKS = "23456789TJQKA"
_SUITS = "SHDC"
#: Arabic letters a player may type for a suit (the first letter of the Levantine names).
_ARABIC_SUITS = {"ب": "S", "ك": "H", "د": "D", "س": "C"}


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit (``٧``, ``۷``, ``７``) as ASCII; other characters unchanged.

    Only Unicode *decimal* digits are converted: ``²`` or ``①`` are digits to ``str.isdigit`` but
    not numbers one may type, so they stay as they are (and are refused as unknown text).
    """
    out = []
    for ch in text:
        d = unicodedata.decimal(ch, None)
        out.append(str(d) if d is not None else ch)
    return "".join(out)


def normalize(text: str) -> str:
    """Lower case, single spaces, ASCII digits, no surrounding space."""
    return " ".join(ascii_digits(text).strip().lower().split())


def number_of(text: str) -> int | None:
    """The whole number ``text`` is (after :func:`normalize`), or None."""
    s = normalize(text)
    return int(s) if re.fullmatch(r"[0-9]{1,3}", s) else None


def card_code(text: str) -> str | None:
    """A card typed by the player (``qs``, ``10h``, ``Th``, ``Q♠``) as its code (``QS``), or None."""
    s = normalize(text).replace(" ", "")
    for sym, code in (("♠", "s"), ("♥", "h"), ("♦", "d"), ("♣", "c"), ("♤", "s"), ("♡", "h"), ("♢", "d"),
                      ("♧", "c")):
        s = s.replace(sym, code)
    for ar, code in _ARABIC_SUITS.items():
        s = s.replace(ar, code.lower())
    s = s.replace("10", "t").upper()
    if len(s) == 2 and s[0] in _RANKS and s[1] in _SUITS:
        return s
    return None


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action: what to type, the engine's code, and how it is shown."""

    key: str
    code: str
    label: str


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a line of input means.

    ``kind``: ``"action"`` (``code`` is legal), ``"try"`` (``code`` is a well-formed move that is not
    legal now: ask the engine, which names the rule), ``"command"`` (``code`` is a command name),
    ``"empty"`` or ``"unknown"``. ``typed_in_full``: the player wrote the move out (``bid 13``), so
    an extreme needs no second question.
    """

    kind: str
    code: str = ""
    typed_in_full: bool = False


class Menu:
    """The choices of one prompt."""

    def __init__(self, legal: list[str], labels: dict[str, str], *, bid_offset: int = 0) -> None:
        """``legal``: the engine's codes in display order; ``labels``: how each is shown;
        ``bid_offset``: subtracted from a bid for display (6 when classic bids are shown as levels)."""
        self.bid_offset = bid_offset
        self.bids = [c for c in legal if c.startswith("bid ")]
        self.is_bid = bool(self.bids)
        choices: list[Choice] = []
        letters = iter(KEYS)
        for code in legal:
            if code.startswith("bid "):
                key = str(int(code.split()[1]) - bid_offset)
            elif code == "pass":
                key = PASS_KEY
            elif code == "done":
                key = DONE_KEY
            else:
                key = next(letters, "")
            choices.append(Choice(key, code, labels.get(code, code)))
        self.choices = choices
        self.legal = list(legal)

    def by_key(self, key: str) -> Choice | None:
        """The choice with this key."""
        return next((c for c in self.choices if c.key and c.key == key), None)

    def by_code(self, code: str) -> Choice | None:
        """The choice of this engine code."""
        return next((c for c in self.choices if c.code == code), None)

    def parse(self, text: str) -> Parsed:
        """The meaning of one line of input (never raises)."""
        s = normalize(text)
        if not s:
            return Parsed("empty")
        if s in COMMANDS:
            return Parsed("command", COMMANDS[s])
        words = s.split(" ")
        n = number_of(s)
        if n is not None:
            if self.is_bid:
                return self._bid(n + self.bid_offset, full=False)
            return Parsed("unknown")
        if s in ("pass", "باس") or (s == PASS_KEY and "pass" in self.legal):
            return Parsed("action", "pass", True) if "pass" in self.legal else Parsed("try", "pass", True)
        if s == "done" and "done" in self.legal:
            return Parsed("action", "done", True)
        choice = self.by_key(s)
        if choice is not None:
            return Parsed("action", choice.code)
        if words[0] == "bid" and len(words) == 2:
            m = number_of(words[1])
            return self._bid(m + self.bid_offset, full=True) if m is not None else Parsed("unknown")
        rest = " ".join(words[1:]) if words[0] in ACTION_VERBS and len(words) > 1 else s
        verb = words[0] if words[0] in ACTION_VERBS and len(words) > 1 else None
        for code in self.legal:  # the action's own word: "contract king", "king", "trump s", "s" ...
            cverb, _, arg = code.partition(" ")
            if arg and arg.lower() == rest and verb in (None, cverb) and cverb not in ("play", "double"):
                return Parsed("action", code, True)
        card = card_code(rest)
        if card is not None:
            wanted_verb = verb or ("double" if any(c.startswith("double ") for c in self.legal) else "play")
            code = f"{wanted_verb} {card}"
            return Parsed("action", code, True) if code in self.legal else Parsed("try", code, True)
        return Parsed("unknown")

    def _bid(self, bid: int, *, full: bool) -> Parsed:
        code = f"bid {bid}"
        if code in self.legal:
            return Parsed("action", code, full)
        return Parsed("try", code, full)


def is_extreme(game: str, code: str) -> bool:
    """A move that cannot be taken back and is rarely meant: bidding all 13 tricks (a kaboot)."""
    return game in ("tarneeb", "tarneeb41") and code == "bid 13"
