"""The languages Majlis speaks, and whose language a person gets: the one spelling of both, for the
core (stored preferences) and for the words (:mod:`bot.present.i18n`)."""

from __future__ import annotations

LANGS: tuple[str, ...] = ("ar", "en")
DEFAULT_LANG = "ar"


def normalize_lang(code: str | None) -> str | None:
    """``"ar"``/``"en"`` for a stored choice or platform hint (``"ar-SA"``, ``"en_US"``), else None."""
    if not code:
        return None
    base = code.strip().replace("_", "-").split("-", 1)[0].lower()
    return base if base in LANGS else None


def resolve_lang(stored: str | None, hint: str | None) -> str:
    """The recipient's language: the stored choice, else the platform's hint, else Arabic."""
    return normalize_lang(stored) or normalize_lang(hint) or DEFAULT_LANG


def resume_lang(match: str | None, wanted: str, *, asked: bool) -> str:
    """The language a resumed match goes on in: ``wanted`` if it was asked for explicitly (``--lang``),
    else the match's own (``match``, stored with its table), else ``wanted`` (the machine's)."""
    if asked:
        return wanted
    return normalize_lang(match) or wanted
