"""The gettext catalogs: complete, consistent placeholders, six Arabic plural forms, compiled and current."""

from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract

from bot.present.i18n import FSI, PDI, T, translator
from locales import update as U

FORMATTER = string.Formatter()


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in FORMATTER.parse(text) if name is not None}


def messages(lang: str) -> list:
    return [m for m in U.read(U.po_path(lang), lang) if m.id]


def plain(s: str) -> str:
    return s.replace(FSI, "").replace(PDI, "")


@pytest.mark.parametrize("lang", U.LANGS)
def test_every_message_is_translated(lang: str) -> None:
    cat = U.read(U.po_path(lang), lang)
    assert cat.num_plurals == (6 if lang == "ar" else 2)
    missing = []
    for m in messages(lang):
        forms = m.string if isinstance(m.string, tuple | list) else [m.string]
        if isinstance(m.id, tuple | list):
            assert len(forms) == cat.num_plurals, m.id
        if not all(f and f.strip() for f in forms):
            missing.append(m.id)
    assert missing == []


@pytest.mark.parametrize("lang", U.LANGS)
def test_placeholders_of_translations_equal_their_ids(lang: str) -> None:
    wrong = []
    for m in messages(lang):
        if isinstance(m.id, tuple | list):
            want = fields(m.id[0]) | fields(m.id[1])
            assert fields(m.id[0]) - {"n"} == fields(m.id[1]) - {"n"}, m.id
            for form in m.string:
                # a plural form may spell its number out ("لمتان"), so {n} may be left out
                if fields(form) - {"n"} != want - {"n"} or not fields(form) <= want | {"n"}:
                    wrong.append((m.id, form))
        elif fields(m.string) != fields(m.id):
            wrong.append((m.id, m.string))
    assert wrong == []


def test_template_matches_a_fresh_extraction() -> None:
    assert U.template_keys(U.read(U.HERE / "messages.pot")) == U.template_keys(U.extract()), (
        "run: python -m locales.update"
    )


@pytest.mark.parametrize("lang", U.LANGS)
def test_catalogs_cover_the_template_and_mo_files_are_current(lang: str) -> None:
    cat = U.read(U.po_path(lang), lang)
    assert U.template_keys(cat) == U.template_keys(U.read(U.HERE / "messages.pot"))
    assert U.mo_path(lang).read_bytes() == U.mo_bytes(cat), "run: python -m locales.update"


def test_update_check_reports_nothing_stale(capsys: pytest.CaptureFixture[str]) -> None:
    assert U.main(["--check"]) == 0
    assert capsys.readouterr().out == ""


def test_method_calls_are_extracted() -> None:
    src = b'''
t.gettext("plain {x}", x=1)
self.t.ngettext("{n} cat", "{n} cats", n)
tr.pgettext("suit", "Hearts")
MENU = (("new", N_("Open a table")),)
'''
    found = [(msg, ctx) for _, msg, _, ctx in extract("python", io.BytesIO(src), keywords=U.KEYWORDS)]
    assert found == [("plain {x}", None), (("{n} cat", "{n} cats"), None), ("Hearts", "suit"),
                     ("Open a table", None)]


@pytest.mark.parametrize(
    ("n", "western", "arabic"),
    [(0, "لا لمات", "لا لمات"), (1, "لمة واحدة", "لمة واحدة"), (2, "لمتان", "لمتان"),
     (3, "3 لمات", "٣ لمات"), (11, "11 لمة", "١١ لمة"), (100, "100 لمة", "١٠٠ لمة"),
     (103, "103 لمات", "١٠٣ لمات"), (111, "111 لمة", "١١١ لمة")],
)
def test_six_arabic_plural_forms_of_a_trick_count(n: int, western: str, arabic: str) -> None:
    assert plain(translator("ar").ngettext("{n} trick", "{n} tricks", n)) == western
    assert plain(translator("ar", digits="arabic").ngettext("{n} trick", "{n} tricks", n)) == arabic


@pytest.mark.parametrize(("n", "text"), [(0, "0 tricks"), (1, "1 trick"), (2, "2 tricks"), (3, "3 tricks"),
                                         (11, "11 tricks"), (100, "100 tricks")])
def test_english_plural_forms(n: int, text: str) -> None:
    assert translator("en").ngettext("{n} trick", "{n} tricks", n) == text


def test_arabic_isolates_embedded_values_and_english_does_not() -> None:
    ar = translator("ar")
    assert ar.rtl and ar.lang == "ar"
    assert ar.gettext("Waiting for {name}.", name="Sam") == f"بانتظار {FSI}Sam{PDI}."
    en = translator("en")
    assert not en.rtl
    assert en.gettext("Waiting for {name}.", name="Sam") == "Waiting for Sam."


def test_levantine_vocabulary() -> None:
    t = translator("ar")
    assert [t.pgettext("suit", s) for s in ("Hearts", "Diamonds", "Clubs", "Spades")] == [
        "كبة", "ديناري", "سباتي", "بستوني"]
    assert [t.pgettext("rank", r) for r in ("King", "Queen", "Jack", "Ace")] == ["شايب", "بنت", "ولد", "آص"]
    assert [t.pgettext("contract", c) for c in ("King of Hearts", "Queens", "Diamonds", "Latoosh", "Trix")] == [
        "شايب الكبة", "البنات", "الديناري", "اللطوش", "تركس"]
    assert t.pgettext("game", "Tarneeb") == "طرنيب"
    assert plain(translator("ar", "arabic").gettext("Syrian Tarneeb {target}", target=41)) == "طرنيب سوري ٤١"


def test_the_mo_files_ship_inside_the_package() -> None:
    for lang in U.LANGS:
        assert U.mo_path(lang).is_file()
        assert U.mo_path(lang).is_relative_to(Path(U.__file__).parent)
    assert isinstance(translator("xx"), T) and translator("xx").lang == "ar"


def literal_calls() -> set[tuple[str | None, str]]:
    """Every ``x.gettext("…")`` / ``x.ngettext("…", …)`` / ``x.pgettext("c", "…")`` with literal ids in bot/."""
    import ast

    found: set[tuple[str | None, str]] = set()
    for path in (U.ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name)):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
            if name in ("gettext", "ngettext") and args and args[0] is not None:
                found.add((None, args[0]))
            elif name == "pgettext" and len(args) >= 2 and None not in args[:2]:
                found.add((args[0], args[1]))
    return found


def test_babel_extracts_every_literal_call_in_the_code() -> None:
    """Babel's extractor skips calls nested in some expressions; none may be lost."""
    extracted = set()
    for key, _plural in U.template_keys(U.read(U.HERE / "messages.pot")):
        extracted.add(key if isinstance(key, tuple) else (None, key))
    assert literal_calls() - extracted == set()


def test_the_english_catalog_is_the_ids_themselves() -> None:
    for m in messages("en"):
        assert tuple(m.string) == tuple(m.id) if isinstance(m.id, tuple | list) else m.string == m.id
