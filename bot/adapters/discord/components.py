"""Buttons and selects: platform-neutral button rows to Discord components, and back.

Every button carries a codec payload (``mj1:<verb>:<table>:<version>:<arg>``, bot/present/codec.py) as
its ``custom_id``. Clicks are routed by :class:`PayloadButton` and :class:`PayloadSelect`,
``DynamicItem`` templates registered at start-up, so buttons keep working after a restart
without any stored view. A message whose rows do not fit Discord's 5 rows of 5 buttons is
shown as selects of at most 25 options whose values are the payloads.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.core.model import TableSnapshot
from bot.present.i18n import T
from bot.present.render.message import Button

MAX_ROWS = 5
MAX_COLS = 5
MAX_OPTIONS = 25
MAX_LABEL = 80
MAX_CUSTOM_ID = 100
#: ``custom_id`` of the n-th select of a message; its options' values are payloads.
SELECT_PREFIX = "mjs:"
#: ``custom_id`` of a button that carries nothing (a disabled placeholder).
NOOP_PREFIX = "mjn:"
#: ``custom_id`` of "Open table" on a table message (``mja:<table>``): answered by opening the
#: web table inside Discord, as an Activity (interaction callback ``LAUNCH_ACTIVITY``).
ACTIVITY_PREFIX = "mja:"

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

#: What a press leads to: ``(interaction, payload string)``.
PressHandler = Callable[[discord.Interaction[Any], str], Awaitable[None]]


class StaticView(discord.ui.View):
    """A view that is only a layout: never stored, clicks go to the dynamic items."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        """Never: the dynamic items answer every click, so nothing is kept per message."""
        return False


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def fits_buttons(rows: Sequence[Sequence[Button]]) -> bool:
    """Whether ``rows`` fit Discord's 5 rows of 5 buttons."""
    return len(rows) <= MAX_ROWS and all(len(r) <= MAX_COLS for r in rows)


def build_view(rows: Sequence[Sequence[Button]]) -> StaticView | None:
    """The components of a message (None when there are no buttons)."""
    rows = [r for r in rows if r]
    if not rows:
        return None
    view = StaticView()
    if fits_buttons(rows):
        n = 0
        for i, row in enumerate(rows):
            for b in row:
                view.add_item(_button(b, i, n))
                n += 1
        return view
    usable = [b for r in rows for b in r if b.payload and not b.disabled]
    links = [b for r in rows for b in r if b.url]
    chunks = [usable[i:i + MAX_OPTIONS] for i in range(0, len(usable), MAX_OPTIONS)]
    for i, chunk in enumerate(chunks[: MAX_ROWS - (1 if links else 0)]):
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{SELECT_PREFIX}{i}", min_values=1, max_values=1, row=i,
            options=[discord.SelectOption(label=_label(b.label), value=b.payload or "") for b in chunk])
        view.add_item(select)
    for j, b in enumerate(links[:MAX_COLS]):
        view.add_item(_button(b, MAX_ROWS - 1, j))
    return view


def _button(b: Button, row: int, n: int) -> discord.ui.Button[Any]:
    if b.url is not None:
        return discord.ui.Button(label=_label(b.label), url=b.url, row=row, disabled=b.disabled)
    return discord.ui.Button(
        label=_label(b.label), custom_id=b.payload or f"{NOOP_PREFIX}{n}", row=row,
        style=_STYLES.get(b.style, discord.ButtonStyle.secondary), disabled=b.disabled or b.payload is None)


def components_json(rows: Sequence[Sequence[Button]]) -> list[dict[str, Any]]:
    """The raw ``components`` array of a message."""
    view = build_view(rows)
    return [] if view is None else view.to_components()


def _handler(interaction: discord.Interaction[Any]) -> PressHandler | None:
    return getattr(interaction.client, "on_payload", None)


class PayloadButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"mj1:[a-z]:[0-9]+:(?:-|[0-9]+):[A-Za-z0-9_]*"):
    """Any Majlis button, parsed back from its ``custom_id`` after any restart."""

    def __init__(self, payload: str) -> None:
        super().__init__(discord.ui.Button(custom_id=payload))
        self.payload = payload

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PayloadButton:
        """Rebuild the button from the clicked component."""
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the client's ``on_payload``."""
        handler = _handler(interaction)
        if handler is not None:
            await handler(interaction, self.payload)


def activity_button(snap: TableSnapshot, t: T) -> Button:
    """"Open table" under a table message: the web table inside Discord (an Activity), at the
    presser's own seat, or as a spectator's view for anyone else in the channel."""
    return Button(t.gettext("Open table"), payload=f"{ACTIVITY_PREFIX}{snap.table_id}", style="primary")


class ActivityButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mja:[0-9]+"):
    """"Open table" (:func:`activity_button`), after any restart."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.payload = custom_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActivityButton:
        """Rebuild the button from the clicked component."""
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the client's ``on_payload`` (which launches the Activity)."""
        handler = _handler(interaction)
        if handler is not None:
            await handler(interaction, self.payload)


class PayloadSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mjs:[0-9]+"):
    """A select whose chosen option's value is a payload."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="-")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PayloadSelect:
        """Rebuild the select from the clicked component."""
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the chosen payload to the client's ``on_payload``."""
        data: Any = interaction.data or {}
        values = data.get("values") or []
        handler = _handler(interaction)
        if values and handler is not None:
            await handler(interaction, str(values[0]))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PayloadButton, PayloadSelect, ActivityButton)
