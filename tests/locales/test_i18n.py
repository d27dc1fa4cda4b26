"""The translator: language resolution, digits, signs, isolation."""

from __future__ import annotations

import pytest

from bot.core.lang import resolve_lang
from bot.present.i18n import FSI, LRI, PDI, RLI, translator


@pytest.mark.parametrize(
    ("stored", "hint", "lang"),
    [("en", "ar", "en"), ("ar", "en-US", "ar"), (None, "en-GB", "en"), (None, "en_US", "en"),
     (None, "ar-SA", "ar"), (None, None, "ar"), (None, "fr", "ar"), ("xx", "en", "en"), ("", "", "ar")],
)
def test_resolve_lang_prefers_stored_then_hint_then_arabic(stored: str | None, hint: str | None,
                                                          lang: str) -> None:
    assert resolve_lang(stored, hint) == lang


def test_digits() -> None:
    assert translator("ar", "arabic").number(1234567890) == "١٢٣٤٥٦٧٨٩٠"
    assert translator("ar").number(41) == "41"
    assert translator("en", "arabic").number(7) == "٧"
    assert translator("en").signed(5) == "+5"
    assert translator("en").signed(-4) == "\u22124"
    assert translator("en").signed(0) == "0"


def test_arabic_indic_digits_in_translations_follow_the_setting() -> None:
    western = translator("ar").gettext("The highest total after 20 deals wins.")
    arabic = translator("ar", "arabic").gettext("The highest total after 20 deals wins.")
    assert "20" in western and "٢٠" not in western
    assert "٢٠" in arabic


def test_isolate_wraps_once_and_only_in_rtl() -> None:
    ar = translator("ar")
    assert ar.isolate("QS") == f"{FSI}QS{PDI}"
    assert ar.isolate(ar.isolate("QS")) == f"{FSI}QS{PDI}"
    assert ar.isolate("") == ""
    assert translator("en").isolate("QS") == "QS"


def test_ngettext_passes_n_and_other_params() -> None:
    text = translator("en").ngettext("{name}, {n} second left, then a move is played for you.",
                                     "{name}, {n} seconds left, then a move is played for you.", 5, name="Ali")
    assert text == "Ali, 5 seconds left, then a move is played for you."


def test_arabic_lines_that_start_with_a_latin_name_get_a_right_to_left_mark() -> None:
    ar = translator("ar")
    text = ar.lines([ar.gettext("{name}: {score}", name="Sam", score=3), "الدور", "", "♠ A K"])
    first, second, third, fourth = text.split("\n")
    assert first.startswith("\u200f" + FSI + "Sam")
    assert second == "الدور" and third == ""
    assert fourth == "\u200f♠ A K"
    assert ar.lines([first]) == first  # idempotent
    assert translator("en").lines(["Sam", "x"]) == "Sam\nx"


def test_no_mark_when_the_first_letter_is_arabic_even_inside_an_isolate() -> None:
    ar = translator("ar")
    line = ar.gettext("{name}: {score}", name="تركس", score=1)
    assert ar.lines([line]) == line


def test_a_run_of_isolated_items_is_isolated_as_a_whole_right_to_left_in_arabic() -> None:
    """A first-strong isolate around pieces that are all isolated finds no letter of its own and
    resolves to left to right (UAX #9, P2–P3): Arabic would read the run backwards (issue 29)."""
    ar = translator("ar")
    run = f"{FSI}Sara{PDI} {FSI}Q♠{PDI}"
    assert ar.isolate(run) == f"{RLI}{run}{PDI}"
    assert ar.isolate(f"{FSI}a {FSI}b{PDI}{PDI}") == f"{FSI}a {FSI}b{PDI}{PDI}"
    assert ar.isolate(f"{RLI}{run}{PDI}") == f"{RLI}{run}{PDI}"  # already one isolate
    assert ar.isolate(f"علي {FSI}3{PDI}") == f"{FSI}علي {FSI}3{PDI}{PDI}"  # a letter of its own: first strong
    assert ar.isolate("Q♠ K♠") == f"{FSI}Q♠ K♠{PDI}"
    assert ar.isolate("−4") == f"{FSI}−4{PDI}"
    assert translator("en").isolate(run) == run
    en = translator("en")
    assert en.isolate("سارة") == f"{FSI}سارة{PDI}"  # an Arabic name in an English line (rule W2 otherwise)
    assert en.isolate(f"{FSI}سارة{PDI}: {FSI}7{PDI}") == f"{LRI}{FSI}سارة{PDI}: {FSI}7{PDI}{PDI}"


def test_a_list_in_arabic_is_a_right_to_left_isolate_of_isolated_items() -> None:
    ar, en = translator("ar"), translator("en")
    items = ["Sara", f"{FSI}Ali{PDI}: {FSI}3{PDI}", "علي"]
    assert ar.join(items) == f"{RLI}{FSI}Sara{PDI}، {RLI}{items[1]}{PDI}، {FSI}علي{PDI}{PDI}"
    assert ar.join(items, sep=" · ").count(" · ") == 2
    assert ar.join([]) == ""
    latin = items[:2]
    assert en.join(latin) == ", ".join(latin)  # English of Latin letters byte for byte as before
    assert en.join(latin, sep=" · ") == " · ".join(latin)
    assert en.join(items) == f"Sara, {items[1]}, {FSI}علي{PDI}"  # an Arabic name: its own isolate, in its place
    assert ar.gettext("Bids: {bids}", bids=ar.join(items)).endswith(ar.join(items))  # not wrapped again


def test_lines_are_the_same_when_remembered_and_the_memory_is_bounded() -> None:
    from bot.present.i18n import MAX_PIECES, RLM, T

    t = T("ar")
    lines = ["Ali · 3", "علي · ٣", "", f"Q♠ {FSI}علي{PDI}"]
    first = t.lines(lines)
    assert first == t.lines(lines) == "\n".join([RLM + "Ali · 3", "علي · ٣", "", RLM + f"Q♠ {FSI}علي{PDI}"])
    for i in range(MAX_PIECES + 5):
        t.keep(("k", i), i)
    assert t.recall(("k", MAX_PIECES + 4)) == MAX_PIECES + 4
    assert t.recall(("k", 0)) is None  # the memory started again
    assert t.lines(lines) == first
