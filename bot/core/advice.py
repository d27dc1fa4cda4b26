"""Hints and deal reviews at a table: the table setting, and asking the AI pool for them.

The setting is the table option ``hints`` (True: hints and reviews are allowed). It lives with the
engine's options in the table's record (so a rematch keeps it) but is the bot's, not a rule: the
engine is given the options without it (:func:`engine_options`). It is off unless a table is opened
with it: Majlis rates every match of a group (ratings, seasons), so group tables are rated play and
have none; the practice tables of ``majlis play`` and ``majlis web`` open with it on
(``docs/ai.md``, "Hints and reviews").

The advice itself is :mod:`ai.advice`, run in the AI process pool (:func:`bot.core.tables.ai_runner.advise`)
at a lower priority than the table's own AI moves, seeded from the table's seed and the position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The table option that allows hints and reviews.
HINTS = "hints"


def engine_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """A table's options as the engine takes them (without the bot's own ``hints``)."""
    return {k: v for k, v in (options or {}).items() if k != HINTS}


def hints_on(options: Mapping[str, Any] | None) -> bool:
    """Whether a table with these options allows hints and reviews."""
    return (options or {}).get(HINTS) is True
