"""Plain lines (outside the drawn panels) for a terminal that does no bidi: cut at spaces to its width
first, then each line put in visual order on its own (issue 29). The printed lines are read back as a
person reads them (:mod:`tests.adapters.terminal.reading`), independently of the code under test."""

from __future__ import annotations

import io

import pytest
from bidi import get_display

from bot.adapters.terminal.bidi import MARKS, cells, plain, wrap_logical
from bot.adapters.terminal.output import say
from bot.app.cli.common import fail
from bot.present.i18n import translator
from bot.present.render.rules_text import render_rules
from tests.adapters.terminal.reading import arabic_words, read_visual

STOPPED = "Stopped. Your match is saved: continue it with {command}."


def test_an_arabic_paragraph_reads_from_its_first_line_down_with_no_word_cut() -> None:
    t = translator("ar")
    text = render_rules("tarneeb41", t)
    para = max(text.split("\n"), key=len)
    assert cells(para) > 150  # several lines at 40 cells
    printed = plain(para, "none", 40).split("\n")
    assert len(printed) >= 4
    assert all(cells(line) <= 40 for line in printed)
    assert not set("".join(printed)) & set(MARKS)
    assert any(0xFE70 <= ord(ch) <= 0xFEFF for ch in printed[0])  # joined forms, for a dumb terminal
    read = [w for line in printed for w in read_visual(line)]
    assert read == arabic_words(para)  # every word whole, in order, the first line first


def test_the_terminal_wrapping_a_visual_line_put_the_sentence_end_first() -> None:
    """The bug this replaces: the whole paragraph in visual order (python-bidi), cut by the terminal at
    40 columns, starts with the paragraph's last words and cuts a word at the edge."""
    t = translator("ar")
    para = max(render_rules("tarneeb41", t).split("\n"), key=len)
    whole = get_display(para, base_dir="R")
    rows = [whole[i:i + 40] for i in range(0, len(whole), 40)]
    words = arabic_words(para)
    assert read_visual(rows[0])[:2] != words[:2]
    assert [w for line in plain(para, "none", 40).split("\n") for w in read_visual(line)][:2] == words[:2]


def test_a_command_inside_an_arabic_line_stays_whole_and_left_to_right_when_the_line_is_cut() -> None:
    t = translator("ar")
    line = t.gettext(STOPPED, command="majlis play --resume")
    assert "\u2068" in line  # the catalog isolates the command
    for width in range(12, 70, 3):
        printed = plain(line, "none", width).split("\n")
        joined = "\n".join(printed)
        assert not set(joined) & set(MARKS), width
        assert all(cells(p) <= width for p in printed), (width, printed)
        assert [w for p in printed for w in read_visual(p)] == arabic_words(line), width
        latin = " ".join(w for p in printed for w in p.split() if w.strip(".").isascii())
        assert latin.replace(".", "") == "majlis play --resume", (width, printed)


def test_an_isolate_cut_across_lines_is_closed_and_opened_again_with_its_direction() -> None:
    line = "قل \u2068one two three four\u2069 الآن"
    pieces = wrap_logical(line, 12)
    assert len(pieces) > 2
    for piece in pieces:
        assert piece.count("\u2066") + piece.count("\u2067") + piece.count("\u2068") == piece.count("\u2069")
    assert pieces[1].startswith("\u2066")  # the first-strong isolate held English: left to right


def test_a_word_wider_than_the_terminal_is_cut_where_it_must_be() -> None:
    path = "/very/long/" + "x" * 50 + "/majlis.sqlite3"
    line = translator("ar").gettext("No database at {path}.", path=path)
    printed = plain(line, "none", 30).split("\n")
    assert all(cells(p) <= 30 for p in printed)
    assert "".join(p.strip(".") for p in printed if p.isascii()) == path  # isolated: left to right, in order


def test_in_terminal_mode_lines_stay_logical_without_isolates_and_cut_at_spaces() -> None:
    t = translator("ar")
    line = t.gettext(STOPPED, command="majlis play --resume")
    printed = plain(line, "terminal", 30).split("\n")
    assert len(printed) == 2 and not set("".join(printed)) & set("\u2066\u2067\u2068\u2069")
    assert " ".join(printed) == line.replace("\u2068", "").replace("\u2069", "")


def test_a_pipe_gets_whole_lines_in_logical_order() -> None:
    t = translator("ar")
    line = t.gettext(STOPPED, command="majlis play --resume") * 3
    out = io.StringIO()
    say(line, out)
    assert out.getvalue() == line.replace("\u2068", "").replace("\u2069", "") + "\n"


def test_an_arabic_error_line_on_standard_error_carries_no_isolate(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    code = fail(translator("ar").gettext("No database at {path}.", path="/nonexistent/x.db"), 1, bidi="none")
    assert code == 1
    text = err.getvalue()
    assert text.endswith("\n") and not set(text) & set(MARKS)
    assert "/nonexistent/x.db" in text and any(0xFE70 <= ord(ch) <= 0xFEFF for ch in text)
