"""Checks made once when a command starts: what the operator must know before the first table."""

from __future__ import annotations

import logging

from bot.present.i18n import T, translator

log = logging.getLogger("majlis")


def ai_problem() -> str | None:
    """Why the search-based AI of the Tarneeb games cannot run here (None: it can).

    ``endplay`` (the double-dummy solver) is a core dependency; a platform without its wheel, or a
    broken install, leaves levels ``normal`` and ``strong`` of Tarneeb and Tarneeb 41 playing like
    ``easy``. Checked the way the AI loads it (:mod:`ai.strong.dds`: milliseconds, once).
    """
    from ai.strong import dds

    if dds.available():
        return None
    try:  # not loaded: ask again for the reason (nothing is loaded twice)
        dds._load()
    except Exception as e:  # ImportError, or the shared library failing to load (OSError)
        return f"{type(e).__name__}: {e}"
    return "the double-dummy solver did not load"


def missing_ai_warning(t: T | None = None) -> str | None:
    """The warning to show when the double-dummy solver cannot load (None when it loads)."""
    problem = ai_problem()
    if problem is None:
        return None
    t = t or translator("en")
    return t.gettext(
        "WARNING: the double-dummy solver (endplay) cannot be loaded ({problem}), so in Tarneeb and Tarneeb 41 "
        "the AI levels normal and strong play like easy. Install it with: pip install endplay",
        problem=problem)


def warn_missing_ai(t: T | None = None) -> str | None:
    """Log :func:`missing_ai_warning` (once, at WARNING) and return it."""
    text = missing_ai_warning(t)
    if text is not None:
        log.warning("%s", text)
    return text
