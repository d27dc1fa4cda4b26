"""Where the terminal writes: lines, framed boxes side by side, colour, and the bidi mode.

Every line goes through :func:`bot.adapters.terminal.bidi.for_terminal` (no isolate mark ever reaches the
terminal; Arabic in visual order when the terminal does no bidi). Boxes are measured *after* that
transformation, in terminal cells, so their right edges line up. When the terminal lays Arabic out
itself (``bidi = terminal``) a right-to-left line would carry a box's side bars to places we cannot
predict, so Arabic boxes are drawn with rules above and below only.

Colour (ANSI) only on a real terminal: hearts and diamonds red, the playable cards bright, the
others dim.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import TextIO

from bot.adapters.terminal.bidi import VTE_AUTODETECT_OFF, VTE_AUTODETECT_ON, cells, for_terminal, plain
from bot.adapters.terminal.output import columns

#: The widths of the frame: the table, a gap, the hand (79 columns, for an 80×24 terminal).
WIDTH = 79
LEFT = 50
RIGHT = WIDTH - LEFT - 1

_RED = re.compile(r"[0-9٠-٩AKQJ]{0,2}[♥♦][0-9٠-٩AKQJ]{0,2}")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
RED, DIM, BOLD, RESET = "\x1b[31m", "\x1b[2m", "\x1b[1m", "\x1b[0m"
RLM = "\u200f"
#: In-text markers for styles, put in by the renderers and turned into ANSI (or removed) here.
DIM_ON, DIM_OFF = "\x01", "\x02"


def visible(text: str) -> str:
    """``text`` without ANSI codes and style markers."""
    return _ANSI.sub("", text).replace(DIM_ON, "").replace(DIM_OFF, "")


def wrap(text: str, width: int) -> list[str]:
    """Logical-order word wrap by terminal cells (before any bidi reordering)."""
    out: list[str] = []
    for para in text.split("\n"):
        lead = len(para) - len(para.lstrip(" "))
        line = ""
        for word in para.strip(" ").split(" "):
            cand = f"{line} {word}" if line.strip() else " " * lead + word
            if cells(visible(cand)) <= width or not line.strip():
                line = cand
            else:
                out.append(line)
                line = " " * min(lead + 2, 6) + word
        out.append(line)
    return out


@dataclass
class Screen:
    """The terminal's output. ``color``: ANSI colours; ``mode``: ``terminal`` or ``none`` (bidi)."""

    stream: TextIO = field(default_factory=lambda: sys.stdout)
    color: bool = False
    mode: str = "none"
    rtl: bool = False
    autodetect: bool = False  # a VTE terminal: ask it to find each line's direction (bidi.VTE_AUTODETECT_ON)

    def begin(self) -> None:
        """Before the first line."""
        if self.autodetect:
            self.stream.write(VTE_AUTODETECT_ON)

    def end(self) -> None:
        """After the last line."""
        if self.autodetect:
            self.stream.write(VTE_AUTODETECT_OFF)
            self.stream.flush()

    def _style(self, text: str) -> str:
        if not self.color:
            return text.replace(DIM_ON, "").replace(DIM_OFF, "")
        text = _RED.sub(lambda m: RED + m.group(0) + RESET, text)
        return text.replace(DIM_ON, DIM).replace(DIM_OFF, RESET)

    def shape(self, text: str) -> str:
        """One or more lines as the terminal must receive them (bidi, no isolates), unstyled."""
        return for_terminal(text, self.mode, self.rtl)

    def plain(self, text: str) -> str:
        """Lines outside the boxes as the terminal must receive them, unstyled: cut at spaces to the
        terminal's width first, then each in visual order (:func:`bot.adapters.terminal.bidi.plain`)."""
        width = columns(self.stream)
        return plain(text, self.mode, width - 1 if width and width > 1 else None, self.rtl)

    def write(self, text: str) -> None:
        """Raw text (a prompt without newline), shaped."""
        self.stream.write(self._style(self.plain(text)))
        self.stream.flush()

    def line(self, text: str = "") -> None:
        """One or more lines of text."""
        self.stream.write(self._style(self.plain(text)) + "\n")
        self.stream.flush()

    def box(self, lines: list[str], title: str = "", width: int = WIDTH) -> list[str]:
        """A framed block, as finished output lines (shaped, ``width`` cells each)."""
        inner = width - 4
        body = [self.shape(x) for raw in lines for x in wrap(raw, inner)]
        head = self.shape(title)
        if self.rtl and self.mode == "terminal":  # the terminal moves things in Arabic lines: rules only,
            # every line a right-to-left paragraph (a RIGHT-TO-LEFT MARK first), so they all start at the right
            top = "── " + head + " " + "─" * max(0, width - cells(visible(head)) - 4)
            return [RLM + x for x in (top, *("  " + b for b in body), "─" * width)]
        tlen = cells(visible(head))
        top = "╭─ " + head + " " + "─" * max(0, width - tlen - 5) + "╮" if head else "╭" + "─" * (width - 2) + "╮"
        out = [top]
        for b in body:
            pad = inner - cells(visible(b))
            out.append("│ " + (" " * pad + b if self.rtl else b + " " * pad) + " │")
        out.append("╰" + "─" * (width - 2) + "╯")
        return out

    def panel(self, text: str, *, title: str = "", width: int = WIDTH) -> None:
        """A framed block of text."""
        self._emit(self.box(text.split("\n"), title, width))

    def side_by_side(self, left: tuple[str, list[str]], right: tuple[str, list[str]]) -> None:
        """Two boxes next to each other (the table and the hand); in Arabic the first on the right."""
        a = self.box(left[1], left[0], LEFT)
        b = self.box(right[1], right[0], RIGHT)
        if self.rtl and self.mode == "terminal":
            self._emit(a + b)
            return
        height = max(len(a), len(b))
        a += [" " * LEFT] * (height - len(a))
        b += [" " * RIGHT] * (height - len(b))
        rows = [(y + " " + x) if self.rtl else (x + " " + y) for x, y in zip(a, b, strict=True)]
        self._emit(rows)

    def _emit(self, rows: list[str]) -> None:
        for r in rows:
            self.stream.write(self._style(r) + "\n")
        self.stream.flush()
