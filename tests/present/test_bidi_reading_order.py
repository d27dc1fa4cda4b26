"""Composite lines read in the language's order once laid out by a real implementation of the Unicode
bidi algorithm (python-bidi, what the terminal's ``--bidi none`` path uses): in Arabic the first item
is the rightmost, in English the leftmost, and each item's pieces follow each other the same way."""

from __future__ import annotations

import re

import pytest
from bidi import get_display

from bot.present.i18n import translator
from tests.present.bidi_lines import LATIN_SEATS, SEATS, Line, composite_lines

LANGS = {"en": translator("en"), "ar": translator("ar"), "ar-digits": translator("ar", digits="arabic")}


_LEVEL = re.compile(r"Level\(\s*(\d+),\s*\)")
_MARKS = str.maketrans("", "", "\u2066\u2067\u2068\u2069\u200e\u200f")


def levels(text: str, base: str) -> list[int]:
    """The embedding level python-bidi resolves for each character of ``text`` (its debug output
    gives them per UTF-8 byte)."""
    info = str(get_display(text, base_dir=base, debug=True))
    per_byte = [int(x) for x in _LEVEL.findall(info.split("levels:", 1)[1].split("paragraphs:", 1)[0])]
    out, i = [], 0
    for ch in text:
        out.append(per_byte[i])
        i += len(ch.encode())
    assert i == len(per_byte)
    return out


def visual_order(text: str, base: str) -> list[int]:
    """The logical indexes of ``text`` left to right on the screen: python-bidi's levels, reversed by
    rule L2 (and checked against python-bidi's own ``get_display``)."""
    lv = levels(text, base)
    order = list(range(len(text)))
    for k in range(max(lv, default=0), 0, -1):
        i = 0
        while i < len(order):
            if lv[order[i]] < k:
                i += 1
                continue
            j = i
            while j < len(order) and lv[order[j]] >= k:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    mine = "".join(text[i] for i in order).translate(_MARKS)
    assert mine.strip() == str(get_display(text, base_dir=base)).translate(_MARKS).strip()
    return order


def reading_order(line: Line, rtl: bool) -> list[str]:
    """The pieces of ``line`` in the order a reader meets them on the screen (each piece found in
    the text after the piece before it)."""
    order = visual_order(line.text, "R" if rtl else "L")
    x = {logical: column for column, logical in enumerate(order)}
    at, where = 0, {}
    for piece in (p for item in line.items for p in item):
        at = line.text.index(piece, at)
        where[piece] = x[at]
        at += len(piece)
    return sorted(where, key=lambda p: where[p], reverse=rtl)


def lines_of(lang: str) -> list[Line]:
    """The composite lines in ``lang``: Arabic around Latin, Arabic and AI names; English around
    Latin and AI names."""
    t = LANGS[lang]
    return composite_lines(t, SEATS if t.rtl else LATIN_SEATS)


def misread(lines: list[Line], rtl: bool) -> dict[str, tuple[list[str], list[str]]]:
    """The lines whose pieces a reader meets out of order: kind → (as read, as meant)."""
    wrong = {}
    for line in lines:
        logical = [p for item in line.items for p in item]
        seen = reading_order(line, rtl)
        if seen != logical:
            wrong[line.kind] = (seen, logical)
    return wrong


@pytest.mark.parametrize("lang", LANGS)
def test_every_composite_line_reads_in_the_order_of_its_language(lang: str) -> None:
    lines = lines_of(lang)
    assert {x.kind for x in lines} >= {"bids", "on the table", "last trick", "order of play", "layout rows",
                                       "scores per player, team 0", "auction", "players"}
    assert misread(lines, LANGS[lang].rtl) == {}


def test_the_order_of_play_points_the_way_it_is_read() -> None:
    (en,) = [x for x in lines_of("en") if x.kind == "order of play"]
    (ar,) = [x for x in lines_of("ar") if x.kind == "order of play"]
    assert "→" in en.text and "←" not in en.text
    assert "←" in ar.text and "→" not in ar.text


def test_the_bids_line_of_the_issue_reads_from_the_right_in_arabic() -> None:
    """«الطلبات: لاعب آلي 1: 2، لاعب آلي 2: 4، لاعب آلي 3: 3» drew AI 3's bid first (issue 29)."""
    (bids,) = [x for x in lines_of("ar") if x.kind == "bids"]
    order = visual_order(bids.text, "R")
    x = {logical: column for column, logical in enumerate(order)}
    first, second, third = (x[bids.text.index(item[0])] for item in bids.items)
    assert first > second > third  # the first bid is the rightmost


def test_an_arabic_name_in_an_english_line_keeps_its_card_after_it() -> None:
    assert misread(composite_lines(LANGS["en"], SEATS), rtl=False) == {}
