"""Arabic that reads right in a terminal.

Chat clients lay out right-to-left text themselves; terminals differ. Some (VTE ≥ 0.58, mlterm,
Konsole) apply the Unicode bidi algorithm and shape Arabic: they want *logical* order, and they show
the bidi isolates the catalogs use (U+2066–U+2069) as boxes or gaps, so those are removed. Most
others (xterm, the Linux console, tmux's own screen, Alacritty, kitty) draw cells left to right as
they come: they need *visual* order, Arabic letters already in their joined presentation forms.

``--bidi`` (or ``bidi =`` in the config file) chooses: ``terminal`` (the terminal does bidi: print
logical order), ``none`` (it does nothing: print reshaped visual order), ``auto`` (guess from the
environment: VTE, mlterm and Konsole announce themselves).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping
from functools import lru_cache

from bot.core.identity import ascii_int

MODES = ("auto", "terminal", "none")
#: Invisible direction marks: never printed to a terminal as such.
ISOLATES = "\u2066\u2067\u2068\u2069"
MARKS = ISOLATES + "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e"
_STRIP_ISOLATES = str.maketrans("", "", ISOLATES)
_STRIP_MARKS = str.maketrans("", "", MARKS)


def detect(env: Mapping[str, str] | None = None, *, tty: bool | None = None) -> str:
    """``"terminal"`` if the environment names a terminal that does bidi, else ``"none"``.

    Output that is not a terminal (a pipe, a file: ``tty`` False; None: look at stdout) is kept in
    logical order, the order programs and editors expect."""
    env = os.environ if env is None else env
    if tty is None:
        import sys

        tty = sys.stdout.isatty()
    if not tty:
        return "terminal"
    if env.get("TMUX") or env.get("STY"):
        return "none"  # a multiplexer keeps its own grid of cells, whatever the outer terminal does
    vte = ascii_int(env.get("VTE_VERSION", ""))  # "²" or "٥٨٠٠" is not a version
    if vte is not None and vte >= 5800:
        return "terminal"
    if env.get("MLTERM") or env.get("KONSOLE_VERSION"):
        return "terminal"
    return "none"


def resolve(mode: str | None, env: Mapping[str, str] | None = None, *, tty: bool | None = None) -> str:
    """``terminal`` or ``none`` for a requested mode (``auto``/None: :func:`detect`)."""
    if mode in ("terminal", "none"):
        return mode
    return detect(env, tty=tty)


def has_rtl(text: str) -> bool:
    """True if ``text`` holds a right-to-left letter."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


_MIRROR = {"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "«": "»", "»": "«", "<": ">", ">": "<"}


@lru_cache(maxsize=4096)
def visual(line: str, rtl: bool = True) -> str:
    """One line in visual order: Arabic joined (presentation forms) and reordered for a terminal that
    draws cells left to right. A line with Arabic in it is a right-to-left paragraph on a
    right-to-left screen (``rtl``); otherwise its direction is that of its first strong letter."""
    if not has_rtl(line):
        return line.translate(_STRIP_MARKS)
    import arabic_reshaper
    from bidi import get_display

    from bot.present.i18n import _starts_rtl

    base = "R" if rtl or _starts_rtl(line) else "L"
    shaped = arabic_reshaper.reshape(_mirrored(line, base == "R"))
    return str(get_display(shaped, base_dir=base)).translate(_STRIP_MARKS)


def _display(line: str, base_rtl: bool) -> str:
    """One line of a paragraph whose direction is known (``base_rtl``), in visual order, no marks left:
    a line of a right-to-left paragraph is laid out right to left even when it holds no Arabic letter
    (its full stop goes to the left end, as it would in the unwrapped paragraph)."""
    if not base_rtl and not has_rtl(line):
        return line.translate(_STRIP_MARKS)
    import arabic_reshaper
    from bidi import get_display

    shaped = arabic_reshaper.reshape(_mirrored(line, base_rtl))
    return str(get_display(shaped, base_dir="R" if base_rtl else "L")).translate(_STRIP_MARKS)


@lru_cache(maxsize=4096)
def plain(text: str, mode: str, width: int | None = None, rtl: bool = True) -> str:
    """Lines outside the drawn panels (a command's text, a notice, an error line) as a terminal must get
    them: each line of ``text`` wrapped first, at spaces, to ``width`` cells (None: not wrapped, for a
    pipe or a file), then each piece put in visual order on its own (``none``: a terminal that draws
    cells as they come) or left in logical order (``terminal``). A terminal that wraps a visual line
    itself would put the sentence's end above its beginning and cut words; that never happens here.
    No isolate is printed, and in ``none`` mode no direction mark at all. ``rtl``: as for :func:`visual`."""
    from bot.present.i18n import _starts_rtl

    out: list[str] = []
    for para in text.split("\n"):
        base_rtl = has_rtl(para) and (rtl or _starts_rtl(para))
        pieces = wrap_logical(para, width) if width else [para]
        for piece in pieces:
            out.append(_display(piece, base_rtl) if mode == "none" else logical(piece))
    return "\n".join(out)


_OPENERS = "\u2066\u2067\u2068"
_PDI = "\u2069"


def _first_strong_rtl(text: str) -> bool:
    """True if the first strong letter of ``text`` outside nested isolates is right to left (rule P2 of
    the bidi algorithm, as for a first-strong isolate); up to the end of the isolate ``text`` opens in."""
    depth = 0
    for ch in text:
        if ch in _OPENERS:
            depth += 1
        elif ch == _PDI:
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0:
            d = unicodedata.bidirectional(ch)
            if d in ("R", "AL"):
                return True
            if d == "L":
                return False
    return False


def wrap_logical(para: str, width: int) -> list[str]:
    """One paragraph (logical order) cut into lines of at most ``width`` cells at its spaces; a word longer
    than a line is cut where it must. An isolate a cut falls inside is closed at the end of its line and
    opened again at the start of the next, with the direction it had (a first-strong isolate is
    resolved from its whole content), so that each line, laid out on its own, keeps the paragraph's
    order."""
    width = max(width, 1)
    if cells(para) <= width:
        return [para]
    para = _resolve_first_strong(para)
    words = para.split(" ")
    lines: list[str] = []
    line = ""
    for whole in words:
        word = whole
        while cells(word) > width:  # a path or a URL wider than the terminal: cut where it must be
            if line:
                lines.append(line)
                line = ""
            cut = _fit(word, width)
            lines.append(word[:cut])
            word = word[cut:]
        cand = f"{line} {word}" if line else word
        if cells(cand) <= width or not line:
            line = cand
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return _reopen(lines)


def _fit(word: str, width: int) -> int:
    """How many characters of ``word`` fill ``width`` cells (at least one)."""
    for i in range(1, len(word) + 1):
        if cells(word[:i]) > width:
            return max(i - 1, 1)
    return len(word)


def _resolve_first_strong(para: str) -> str:
    """``para`` with each first-strong isolate replaced by the direction its whole content gives it (a
    left-to-right or a right-to-left isolate): a piece of it cut off on another line keeps that
    direction."""
    if "\u2068" not in para:
        return para
    return "".join(("\u2067" if _first_strong_rtl(para[i + 1:]) else "\u2066") if ch == "\u2068" else ch
                   for i, ch in enumerate(para))


def _reopen(lines: list[str]) -> list[str]:
    """``lines`` (a paragraph cut at spaces) with every isolate open across a cut closed at the end of its
    line and opened again at the start of the next."""
    stack: list[str] = []
    out = []
    for line in lines:
        head = "".join(stack)
        for ch in line:
            if ch in _OPENERS:
                stack.append(ch)
            elif ch == _PDI and stack:
                stack.pop()
        out.append(head + line + _PDI * len(stack))
    return out


def _mirrored(line: str, base_rtl: bool) -> str:
    """Brackets that will stand in a right-to-left run, replaced by their mirror image (rule L4 of the
    bidi algorithm, which the reordering library leaves to the renderer): those at the paragraph's
    own level when it is right to left, and those directly inside a right-to-left isolate."""
    from bot.present.i18n import _starts_rtl

    stack = [base_rtl]
    out = []
    for i, ch in enumerate(line):
        if ch in "\u2066\u2067\u2068":
            stack.append(ch == "\u2067" or (ch == "\u2068" and _starts_rtl(line[i + 1:])))
            out.append(ch)
        elif ch == "\u2069":
            if len(stack) > 1:
                stack.pop()
            out.append(ch)
        elif ch in _MIRROR and stack[-1]:
            out.append(_MIRROR[ch])
        else:
            out.append(ch)
    return "".join(out)


#: VTE (≥ 0.58) lays out every line left to right unless told otherwise: SCP 2 (``CSI 2 SP k``, "select
#: character path: right to left") makes each line a right-to-left paragraph, which is what an Arabic
#: screen is (a hand row "♠ K 10 2" included: the suit first, on the right). Sent on and off around a
#: match in ``terminal`` mode; terminals that do not know it ignore it.
VTE_AUTODETECT_ON = "\x1b[2 k"
VTE_AUTODETECT_OFF = "\x1b[0 k"


def wants_autodetect(mode: str, env: Mapping[str, str] | None = None) -> bool:
    """True when a VTE terminal lays out Arabic itself and must be told to find each line's direction."""
    env = os.environ if env is None else env
    return mode == "terminal" and ascii_int(env.get("VTE_VERSION", "")) is not None and not env.get("TMUX")


def logical(line: str) -> str:
    """One line for a terminal that does bidi itself: isolates removed, everything else kept."""
    return line.translate(_STRIP_ISOLATES)


def for_terminal(text: str, mode: str, rtl: bool = True) -> str:
    """``text`` (one or more lines) ready to print in ``mode`` (``terminal`` or ``none``); ``rtl``: the
    screen is right to left (its Arabic lines are right-to-left paragraphs)."""
    if mode == "terminal":
        return "\n".join(logical(line) for line in text.split("\n"))
    return "\n".join(visual(line, rtl) for line in text.split("\n"))


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes (format marks take none, wide characters two)."""
    n = 0
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cf", "Cc", "Mn", "Me") or ch in ("\u200b",):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return n


def configured(requested: str | None, file: Mapping[str, object] | None = None,
               env: Mapping[str, str] | None = None, *, tty: bool | None = None) -> str:
    """The bidi mode to use: ``--bidi``, then ``MAJLIS_BIDI``, then ``bidi`` in the config file, then auto.

    Raises ``ValueError`` for a value that is not one of :data:`MODES`."""
    env = os.environ if env is None else env
    for value in (requested, env.get("MAJLIS_BIDI"), (file or {}).get("bidi")):
        if value is None or value == "":
            continue
        text = str(value).strip().lower()
        if text not in MODES:
            raise ValueError(f"bidi: expected auto, terminal or none, got {value!r}")
        return resolve(text, env, tty=tty)
    return resolve("auto", env, tty=tty)
