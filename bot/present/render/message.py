"""Platform-neutral messages: plain text plus rows of buttons (docs/architecture.md §3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Discord allows 5 rows of 5 buttons; Telegram is laxer, so these bind both.
MAX_ROWS = 5
MAX_COLS = 5


@dataclass(frozen=True, slots=True)
class Button:
    """One button: a codec payload (bot/present/codec.py) or a URL (``web_app``: Telegram opens it as a Mini App)."""

    label: str
    payload: str | None = None
    url: str | None = None
    style: str = "secondary"  # "primary" "secondary" "success" "danger" (Discord uses it)
    disabled: bool = False
    web_app: bool = False


@dataclass(frozen=True, slots=True)
class Mention:
    """A person mentioned by a message: ``text[start:start + length]`` is their name (Python string
    indices). The Telegram transport makes it a ``text_mention`` entity; the Discord one writes
    ``<@id>`` in its place and lets only the mentioned people be pinged."""

    player_id: str
    start: int
    length: int


@dataclass(frozen=True, slots=True)
class OutMessage:
    """A message for one destination: plain Unicode text (no markup) and button rows.

    ``mentions``: the people it mentions (only the opt-in notices of bot/core/notify.py have any;
    every other message mentions nobody, whatever its text holds)."""

    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    notify: bool = True
    mentions: tuple[Mention, ...] = ()


def rows(groups: Sequence[Sequence[Button]], *, max_rows: int = MAX_ROWS,
         max_cols: int = MAX_COLS) -> tuple[tuple[Button, ...], ...]:
    """Lay groups of buttons out in rows of at most ``max_cols``, each group starting a new row.

    If that needs more than ``max_rows`` rows, the groups are packed densely instead; buttons
    that still do not fit are dropped from the end (callers put the least useful ones last).
    """
    out: list[tuple[Button, ...]] = []
    for g in groups:
        for i in range(0, len(g), max_cols):
            out.append(tuple(g[i:i + max_cols]))
    if len(out) <= max_rows:
        return tuple(out)
    flat = [b for g in groups for b in g][: max_rows * max_cols]
    return tuple(tuple(flat[i:i + max_cols]) for i in range(0, len(flat), max_cols))
