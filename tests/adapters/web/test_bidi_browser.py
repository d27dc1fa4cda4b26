"""Composite lines read in the language's order in a real browser (Debian's chromium): each line, as
the web page and the chats get it, in a ``<div dir="rtl">`` (Arabic) or ``<div dir="ltr">`` (English),
and the x position of each of its pieces from ``Range.getBoundingClientRect()``: in Arabic the first
item is the rightmost, in English the leftmost. The same lines through python-bidi:
``tests/present/test_bidi_reading_order.py``."""

from __future__ import annotations

import dataclasses
import html

import pytest

from bot.present.i18n import translator
from tests.adapters.web.conftest import chromium
from tests.present.bidi_lines import LATIN_SEATS, SEATS, Line, composite_lines

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(120)]  # chromium

#: The middle x of each [start, end) range of the text of the element with id ``id`` (offsets in UTF-16).
ITEM_X_JS = """([id, ranges]) => {
  const node = document.getElementById(id).firstChild;
  return ranges.map(([a, b]) => {
    const r = document.createRange();
    r.setStart(node, a);
    r.setEnd(node, b);
    const q = r.getBoundingClientRect();
    return q.left + q.width / 2;
  });
}"""


def utf16(text: str, i: int) -> int:
    """A Python index into ``text`` as the browser counts it."""
    return len(text[:i].encode("utf-16-le")) // 2


def piece_ranges(line: Line) -> list[tuple[str, tuple[int, int]]]:
    """Each piece of ``line`` and its range in the text (found after the piece before it)."""
    at, out = 0, []
    for piece in (p for item in line.items for p in item):
        at = line.text.index(piece, at)
        out.append((piece, (utf16(line.text, at), utf16(line.text, at + len(piece)))))
        at += len(piece)
    return out


@dataclasses.dataclass(frozen=True)
class Case:
    """A line in a ``<div dir=…>``, read by an Arabic (``rtl``) or an English reader."""

    key: str
    dir: str
    rtl: bool
    line: Line


async def reading_orders(cases: list[Case]) -> dict[str, tuple[list[str], list[str]]]:
    """For each case: its pieces in the order the reader meets them in chromium, and their x."""
    body = "".join(f'<div id="l{i}" dir="{c.dir}">{html.escape(c.line.text)}</div>' for i, c in enumerate(cases))
    out: dict[str, tuple[list[str], list[str]]] = {}
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1800, "height": 900})
        await page.set_content('<!doctype html><meta charset="utf-8">'
                               f'<body style="font: 16px sans-serif">{body}</body>')
        for i, c in enumerate(cases):
            ranges = piece_ranges(c.line)
            xs: list[float] = await page.evaluate(ITEM_X_JS, [f"l{i}", [r for _, r in ranges]])
            pieces = [p for p, _ in ranges]
            placed = sorted(zip(xs, pieces, strict=True), reverse=c.rtl)
            out[c.key] = ([p for _, p in placed], [f"{p}@{x:.0f}" for x, p in zip(xs, pieces, strict=True)])
    return out


def cases() -> list[Case]:
    """Every composite line in English and Arabic (both digit styles), as the web page shows it (a line
    of a page whose direction is the language's) and as a chat gets it (``t.lines``: a right-to-left
    mark before an Arabic line that starts with a Latin name; ``dir=auto``, as chat clients guess a
    paragraph's direction from its text)."""
    out = []
    for lang, digits in (("en", "western"), ("ar", "western"), ("ar", "arabic")):
        t = translator(lang, digits)
        for line in composite_lines(t, SEATS if t.rtl else LATIN_SEATS):
            key = f"{lang}/{digits} {line.kind}"
            out.append(Case(key + " (page)", "rtl" if t.rtl else "ltr", t.rtl, line))
            chat = dataclasses.replace(line, text=t.lines([line.text]))
            out.append(Case(key + " (chat)", "auto", t.rtl, chat))
    return out


async def test_every_composite_line_reads_in_the_order_of_its_language_in_chromium() -> None:
    all_cases = cases()
    seen = await reading_orders(all_cases)
    wrong = {}
    for c in all_cases:
        meant = [p for item in c.line.items for p in item]
        if seen[c.key][0] != meant:
            wrong[c.key] = seen[c.key][1]
    assert not wrong, wrong
