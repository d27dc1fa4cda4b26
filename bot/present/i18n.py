"""Words for people: gettext catalogs per language, Arabic-Indic digits, bidi isolation.

A :class:`T` is one recipient's translator. Message ids are whole English sentences with named
``{placeholders}`` (``str.format``); every count goes through :meth:`T.ngettext`::

    t = translator("ar", digits="arabic")
    t.ngettext("{n} trick", "{n} tricks", 3)        # '٣ لمات', the number isolated

Parameters are formatted for the reader: integers in the chosen digits, and in a right-to-left
language every parameter is wrapped in a first-strong isolate (U+2068 … U+2069) so that card
codes, numbers and Latin names embedded in an Arabic sentence keep their own direction.

A parameter that is itself a phrase of isolated pieces (a list of bids, the cards on the table, the
order of play) gets a right-to-left isolate (U+2067 … U+2069) instead: its pieces are isolated, so a
first-strong isolate would find no letter of its own, resolve to left to right (UAX #9, rules P2–P3)
and lay the list out backwards for an Arabic reader. :meth:`T.join` builds such lists, each item its
own isolate.
"""

from __future__ import annotations

import gettext as _gettext
import unicodedata
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import locales
from bot.core.lang import DEFAULT_LANG, normalize_lang

RTL_LANGS = frozenset({"ar"})
DIGITS: tuple[str, ...] = ("western", "arabic")
DOMAIN = "messages"
LOCALE_DIR = Path(locales.__file__).resolve().parent

FSI = "\u2068"
RLI = "\u2067"
LRI = "\u2066"
PDI = "\u2069"
RLM = "\u200f"
_OPENERS = frozenset({FSI, LRI, RLI})
_ARABIC_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
_WESTERN_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩", "0123456789")


def _is_isolated(s: str) -> bool:
    """True if ``s`` is one isolate: an FSI, LRI or RLI at the start whose matching PDI is the last
    character."""
    if not (s[:1] in _OPENERS and s.endswith(PDI)):
        return False
    depth = 0
    for i, ch in enumerate(s):
        if ch in _OPENERS:
            depth += 1
        elif ch == PDI:
            depth -= 1
            if depth == 0:
                return i == len(s) - 1
    return False


def _starts_rtl(line: str) -> bool:
    """True if the first strong letter of ``line`` is right-to-left, looking inside isolates too
    (as HTML's ``dir=auto`` does; a line whose first isolate holds Arabic is read right to left by
    clients that skip isolates and by those that do not)."""
    for ch in line:
        d = unicodedata.bidirectional(ch)
        if d in ("R", "AL"):
            return True
        if d == "L":
            return False
    return False


def _has_rtl(s: str) -> bool:
    """True if ``s`` holds a right-to-left letter (Arabic, Hebrew)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in s)


def _is_phrase(s: str) -> bool:
    """True if ``s`` is a phrase of isolated pieces with no strong letter of its own between them
    (``FSI Ali PDI: FSI 7 PDI``, ``FSI 0 PDI ← FSI 1 PDI``), which a first-strong isolate would
    resolve to left to right."""
    depth = 0
    isolates = False
    for ch in s:
        if ch in _OPENERS:
            depth += 1
            isolates = True
        elif ch == PDI:
            depth = max(depth - 1, 0)
        elif depth == 0 and unicodedata.bidirectional(ch) in ("L", "R", "AL"):
            return False
    return isolates


@cache
def _catalog(lang: str) -> _gettext.NullTranslations:
    try:
        return _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
    except OSError:
        return _gettext.NullTranslations()


#: Bounds of a translator's caches: looked-up templates, and whole formatted pieces.
MAX_TEMPLATES = 4096
MAX_PIECES = 8192


class T:
    """One recipient's translator: a language, a digit style, and the formatting rules.

    Cheap to call again: each template is looked up and has its digits normalised once (then kept,
    up to :data:`MAX_TEMPLATES`), and a piece formatted with the same parameters is formatted once
    (up to :data:`MAX_PIECES`, then the cache starts again), so rendering a message mostly reads
    dictionaries.
    """

    __slots__ = ("_memo", "_pieces", "_rtl_lines", "_templates", "_tr", "digits", "lang", "rtl")

    def __init__(self, lang: str, digits: str = "western") -> None:
        self.lang = lang
        self.rtl = lang in RTL_LANGS
        self.digits = digits if digits in DIGITS else "western"
        self._tr = _catalog(lang)
        self._templates: dict[Any, str] = {}
        self._pieces: dict[Any, str] = {}
        self._memo: dict[Any, Any] = {}
        self._rtl_lines: dict[str, bool] = {}

    def recall(self, key: Any) -> Any:
        """What :meth:`keep` stored under ``key`` for this reader (None if nothing, or forgotten)."""
        return self._memo.get(key)

    def keep(self, key: Any, value: Any) -> None:
        """Remember ``value`` (text made for this reader's language and digits) under ``key``, up to
        :data:`MAX_PIECES` entries (then the memory starts again)."""
        memo = self._memo
        if len(memo) >= MAX_PIECES:
            memo.clear()
        memo[key] = value

    def __repr__(self) -> str:
        return f"T({self.lang!r}, digits={self.digits!r})"

    def number(self, n: int) -> str:
        """``n`` in the chosen digits (Western ``0-9`` or Arabic-Indic ``٠-٩``)."""
        s = str(n)
        if self.digits == "arabic":
            s = s.translate(_ARABIC_DIGITS)
        if n < 0:
            s = "\u2212" + s[1:]  # a real minus sign (it also keeps its place in right-to-left text)
        return s

    def isolate(self, s: str) -> str:
        """``s`` wrapped in FSI … PDI in a right-to-left language; a phrase of isolated pieces in
        RLI … PDI, so that it reads right to left (see the module's text).

        In a left-to-right language only what holds right-to-left letters is isolated (an Arabic name
        in an English line: without it, the bid or card after the name joins the name's run, UAX #9
        rule W2, and is drawn before it), and a phrase holding such pieces reads left to right (LRI);
        English text of Latin letters stays exactly as it is."""
        if not s or _is_isolated(s):
            return s
        if self.rtl:
            return f"{RLI}{s}{PDI}" if _is_phrase(s) else f"{FSI}{s}{PDI}"
        if not _has_rtl(s):
            return s
        return f"{LRI}{s}{PDI}" if _is_phrase(s) else f"{FSI}{s}{PDI}"

    def signed(self, n: int) -> str:
        """A score change with its sign: ``+5``, ``−4``, ``0``."""
        body = self.number(abs(n))
        return f"+{body}" if n > 0 else (f"\u2212{body}" if n < 0 else body)

    def _template(self, key: Any, text: str) -> str:
        """A looked-up template with the digits written into a translation made Western when so
        chosen (once per template)."""
        if self.digits == "western":
            text = text.translate(_WESTERN_DIGITS)
        if len(self._templates) < MAX_TEMPLATES:
            self._templates[key] = text
        return text

    def _fill(self, text: str, params: dict[str, Any]) -> str:
        if not params:
            return text
        shown = {}
        for key, value in params.items():
            text_value = self.number(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)
            shown[key] = self.isolate(text_value)
        return text.format(**shown)

    def _piece(self, key: Any, text: str, params: dict[str, Any]) -> str:
        """``text`` filled with ``params``, from the cache when these were formatted before."""
        if not params:
            return text
        try:
            memo = (key, *[(k, v, v.__class__) for k, v in params.items()])  # 1, 1.0 and True differ
            done = self._pieces.get(memo)
        except TypeError:  # an unhashable parameter: just format it
            return self._fill(text, params)
        if done is None:
            done = self._fill(text, params)
            if len(self._pieces) >= MAX_PIECES:
                self._pieces.clear()
            self._pieces[memo] = done
        return done

    def gettext(self, msgid: str, **params: Any) -> str:
        """The translation of ``msgid`` with ``params`` filled in."""
        text = self._templates.get(msgid)
        if text is None:
            text = self._template(msgid, self._tr.gettext(msgid))
        return self._piece(msgid, text, params)

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The plural form for ``n`` (Arabic has six); ``{n}`` is available to the text."""
        params.setdefault("n", n)
        key = ("n", singular, plural, n)
        text = self._templates.get(key)
        if text is None:
            text = self._template(key, self._tr.ngettext(singular, plural, n))
        return self._piece(key, text, params)

    def pgettext(self, context: str, msgid: str, **params: Any) -> str:
        """The translation of a short word in a ``context`` (``pgettext("suit", "Spades")``)."""
        key = ("p", context, msgid)
        text = self._templates.get(key)
        if text is None:
            text = self._template(key, self._tr.pgettext(context, msgid))
        return self._piece(key, text, params)

    def lines(self, lines: list[str]) -> str:
        """Lines joined into one text. In a right-to-left language a line whose first strong letter
        is not right-to-left (a Latin name, a card) gets a RIGHT-TO-LEFT MARK, so that clients which
        guess a paragraph's direction from its first letter still lay it out right to left."""
        if not self.rtl:
            return "\n".join(lines)
        known = self._rtl_lines  # the same lines come back message after message
        out = []
        for line in lines:
            rtl = known.get(line)
            if rtl is None:
                rtl = not line or _starts_rtl(line)
                if len(known) >= MAX_PIECES:
                    known.clear()
                known[line] = rtl
            out.append(line if rtl else RLM + line)
        return "\n".join(out)

    def join(self, items: list[str], sep: str | None = None) -> str:
        """A list for a sentence: ``"a, b, c"`` (Arabic comma in Arabic), or the items between ``sep``.

        In a right-to-left language each item is its own isolate and the list a right-to-left
        isolate, so that it reads right to left, first item first, whatever its items hold."""
        if sep is None:
            sep = "، " if self.rtl else ", "
        if not items:
            return ""
        if not self.rtl:  # Latin items as they are; an item holding Arabic its own isolate
            return sep.join(self.isolate(item) for item in items)
        return RLI + sep.join(self.isolate(item) for item in items) + PDI


def N_(msgid: str) -> str:
    """Mark a message id for extraction where it is translated later (``t.gettext(variable)``)."""
    return msgid


@lru_cache(maxsize=64)
def translator(lang: str | None, digits: str = "western") -> T:
    """A translator for ``"ar"`` or ``"en"``; anything else gives Arabic."""
    return T(normalize_lang(lang) or DEFAULT_LANG, digits)
