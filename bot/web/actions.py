"""The one door from a web page to the tables: every move a page sends goes through here.

A move carries the table version the page showed (a stale page is refused as a stale button is)
and the person the credential names; the table manager decides, with the same seat, turn and
version checks as a button press in Telegram or Discord. Nothing else in ``bot/web`` changes a
table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.errors import TableError
from bot.types import Person, TableSnapshot

MAX_ACTION = 32


@dataclass(frozen=True, slots=True)
class WebActor:
    """Who acts from a page: the person, and the seat their credential is for."""

    person: Person
    table_id: int
    seat: int


async def act(manager: Any, actor: WebActor, version: Any, action: Any) -> TableSnapshot:
    """Apply ``action`` at ``version`` for ``actor``; raises :class:`TableError` (nothing changed)."""
    if type(version) is not int:
        raise TableError("stale")
    if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION:
        raise TableError("bad_action")
    snap = manager.get(actor.table_id)
    if snap is None:
        raise TableError("no_table")
    if snap.seat_of(actor.person.player_id) != actor.seat:
        raise TableError("not_seated")
    result: TableSnapshot = await manager.act(actor.table_id, actor.person, version, action)
    return result
