"""Extract, merge and compile the catalogs with Babel: ``python -m locales.update``.

1. extract every ``gettext`` / ``ngettext`` / ``pgettext`` call (method calls such as
   ``t.gettext("...")`` included) under ``bot/`` into ``locales/messages.pot``;
2. merge the template into ``<lang>/LC_MESSAGES/messages.po`` for every language (new ids arrive
   untranslated; English ones are filled with the English id itself);
3. compile each ``.po`` to ``.mo`` (shipped as package data).

``--check`` changes nothing and exits 1 when the template or a ``.mo`` is out of date.
The same steps are available as ``pybabel extract -F locales/babel.cfg -k pgettext:1c,2 ...``;
this script exists so the output is stable (no line numbers, sorted) and testable.
"""

from __future__ import annotations

import copy
import io
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SOURCES = ("bot",)
LANGS = ("ar", "en")
DOMAIN = "messages"
KEYWORDS = {**DEFAULT_KEYWORDS, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
#: The Arabic plural rule as gettext writes it (six forms: zero, one, two, few, many, other).
PLURALS = {
    "ar": (6, "(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5)"),
    "en": (2, "(n != 1)"),
}
Key = str | tuple[str, str]


def po_path(lang: str) -> Path:
    """Where the ``.po`` of ``lang`` lives."""
    return HERE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    """Where the compiled ``.mo`` of ``lang`` lives."""
    return HERE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _messages(sources: Iterable[str]) -> Iterable[tuple[str, int, str | tuple[str, ...], str | None]]:
    for src in sources:
        for filename, lineno, message, _comments, context in extract_from_dir(
            str(ROOT / src), method_map=[("**.py", "python")], keywords=KEYWORDS,
        ):
            yield f"{src}/{filename}", lineno, message, context


def extract() -> Catalog:
    """A fresh template from the code (locations without line numbers, so edits stay quiet)."""
    cat = Catalog(project="majlis", version="0.1", copyright_holder="Majlis", charset="utf-8",
                  fuzzy=False)
    for filename, lineno, message, context in sorted(_messages(SOURCES), key=lambda m: (m[0], m[1])):
        cat.add(message, None, locations=[(filename, lineno)], context=context)
    return cat


def _po_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)
    return buf.getvalue()


def mo_bytes(cat: Catalog) -> bytes:
    """The compiled form of a catalog."""
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def read(path: Path, lang: str | None = None) -> Catalog:
    """A ``.po``/``.pot`` file as a catalog."""
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def template_keys(cat: Catalog) -> set[tuple[Key, str | None]]:
    """What a template says: each message's key and plural id (to compare extractions)."""
    out: set[tuple[Key, str | None]] = set()
    for m in cat:
        if not m.id:
            continue
        plural = m.id[1] if isinstance(m.id, tuple | list) else None
        key: Key = m.id[0] if isinstance(m.id, tuple | list) else m.id
        out.add(((m.context, key) if m.context else key, plural))  # type: ignore[arg-type]
    return out


def merge(template: Catalog, lang: str) -> Catalog:
    """The ``.po`` of ``lang`` updated to ``template`` (the English catalog is the ids themselves)."""
    path = po_path(lang)
    if path.exists():
        cat = read(path, lang)
    else:
        cat = Catalog(locale=lang, project="majlis", version="0.1", copyright_holder="Majlis", fuzzy=False)
    nplurals, expr = PLURALS[lang]
    cat._num_plurals = nplurals  # type: ignore[assignment]  # Babel keeps the header's rule here
    cat._plural_expr = expr  # type: ignore[assignment]
    cat.update(copy.deepcopy(template), no_fuzzy_matching=True, update_creation_date=False)
    cat.obsolete.clear()
    for m in cat:
        if not m.id:
            continue
        m.flags.discard("fuzzy")
        if lang == "en":  # the ids are the English text
            m.string = (m.id[0], m.id[1]) if isinstance(m.id, tuple | list) else m.id
    return cat


def main(argv: list[str]) -> int:
    """Run the steps (or only check them with ``--check``)."""
    check = "--check" in argv
    template = extract()
    pot = HERE / f"{DOMAIN}.pot"
    stale: list[str] = []
    if not pot.exists() or template_keys(read(pot)) != template_keys(template):
        stale.append(str(pot))
        if not check:
            pot.write_bytes(_po_bytes(template))
    for lang in LANGS:
        if check:
            cat = read(po_path(lang), lang)
        else:
            cat = merge(template, lang)
            po_path(lang).parent.mkdir(parents=True, exist_ok=True)
            po_path(lang).write_bytes(_po_bytes(cat))
            cat = read(po_path(lang), lang)
        data = mo_bytes(cat)
        if not mo_path(lang).exists() or mo_path(lang).read_bytes() != data:
            stale.append(str(mo_path(lang)))
            if not check:
                mo_path(lang).write_bytes(data)
    for path in stale:
        print(("out of date: " if check else "updated: ") + path)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
