"""The sample files (locales/samples/) are what the code writes now, and the catalogs build no «لـ{name}»
and no English "You holds"."""

from __future__ import annotations

import re

import pytest

from bot.present import samples as S
from locales import update as U


@pytest.mark.parametrize("lang", S.LANGS)
def test_the_committed_sample_file_is_what_the_script_writes_now(lang: str) -> None:
    committed = (S.OUT / f"{lang}.txt").read_text(encoding="utf-8")
    assert committed == S.sample_text(lang), f"locales/samples/{lang}.txt is stale: run {S.COMMAND}"


def test_no_arabic_message_glues_la_to_a_placeholder() -> None:
    glued = []
    for m in U.read(U.po_path("ar"), "ar"):
        forms = m.string if isinstance(m.string, tuple | list) else [m.string]
        glued += [f for f in forms if f and re.search(r"لـ\s*\{", f)]
    assert glued == []
    assert "لـ" not in (S.OUT / "ar.txt").read_text(encoding="utf-8")


YOU_AS_A_THIRD_PERSON = re.compile(r"\bYou (holds|takes|has|wins|plays|passes|bids|is|names|chooses|doubles|deals)\b")


def test_no_english_message_or_sample_says_you_holds() -> None:
    ids = [str(m.id[0] if isinstance(m.id, tuple | list) else m.id) for m in U.read(U.po_path("en"), "en") if m.id]
    assert [i for i in ids if YOU_AS_A_THIRD_PERSON.search(i)] == []
    assert YOU_AS_A_THIRD_PERSON.findall((S.OUT / "en.txt").read_text(encoding="utf-8")) == []


def test_no_arabic_sample_puts_anta_where_a_possessive_belongs() -> None:
    text = (S.OUT / "ar.txt").read_text(encoding="utf-8")
    for wrong in ("دور أنت", "مملكة أنت", "نصيب أنت", "على أنت", "بين أنت", "مع أنت"):
        assert wrong not in text


def test_every_message_that_names_a_seat_says_what_the_reader_reads() -> None:
    unclassified = []
    for msgid, plural, _context in S.catalog_messages():
        if S.fields(msgid + (plural or "")) & S.SEAT_FIELDS:
            homes = [msgid in S.SAID_TO_THE_READER, msgid in S.READER_AS_A_NAME, msgid in S.NEVER_THE_READER]
            if sum(homes) != 1:
                unclassified.append(msgid)
    assert unclassified == []
    known = {m for m, _, _ in S.catalog_messages()}
    assert set(S.SAID_TO_THE_READER.values()) <= known  # every second-person twin is a real message


def test_every_plural_message_is_shown_for_every_count() -> None:
    text = (S.OUT / "ar.txt").read_text(encoding="utf-8")
    plurals = [m for m in S.catalog_messages() if m[1]]
    assert plurals
    for n in S.COUNTS:
        assert text.count(f"n={n}") >= len(plurals)
