"""Reading printed lines back as a person reads them, independently of the code that printed them: a
right-to-left line from right to left, the lines from the top down. An Arabic word in visual order is
its letters reversed and joined (presentation forms), which NFKC takes back to the plain letters."""

from __future__ import annotations

import unicodedata

MARK_CHARS = set("\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _bare(word: str) -> str:
    """A word's letters only (no punctuation, no harakat), in logical order."""
    return "".join(ch for ch in word if unicodedata.category(ch)[0] == "L")


def arabic_words(logical: str) -> list[str]:
    """The Arabic words of a logical-order text, in reading order."""
    words = (_bare(unicodedata.normalize("NFKC", w)) for w in logical.split())
    return [w for w in words if w and unicodedata.bidirectional(w[0]) in ("R", "AL")]


def read_visual(line: str) -> list[str]:
    """The Arabic words of one printed right-to-left line, in the order a person reads them: right to
    left, each word's letters reversed back (before NFKC, which splits ligatures such as lam-alef)."""
    out = []
    for token in reversed(line.split()):
        word = _bare(unicodedata.normalize("NFKC", token[::-1]))
        if word and unicodedata.bidirectional(word[0]) in ("R", "AL"):
            out.append(word)
    return out
