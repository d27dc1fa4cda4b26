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
        if cat in ("Cf", "Mn", "Me") or ch in ("\u200b",):
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
