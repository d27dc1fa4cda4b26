"""The one door from a web page to the tables: every move a page sends goes through here.

A move carries the table version the page showed (a stale page is refused as a stale button is)
and the person the credential names. It goes through the same :meth:`bot.core.service.Service.dispatch`
as a press in a private chat with the bot (the page counts as the person's private chat: they
must sit at the table), then the manager's seat, turn and version checks. Next deal and Play
again, from the result panels, go through the same dispatch. Nothing else in ``bot/adapters/web``
changes a table. Hint and Review (:func:`hint`, :func:`review`) change nothing: they ask the same
dispatch for advice to the one page that pressed them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core.commands import Act, Actor, Advice, Hint, NextDeal, Rematch, Review
from bot.core.errors import Refusal, TableError
from bot.core.identity import dm_dest
from bot.core.model import Person, TableSnapshot
from bot.core.service import Service

if TYPE_CHECKING:
    from bot.adapters.web.tables import ManagerSet

MAX_ACTION = 32


@dataclass(frozen=True, slots=True)
class WebActor:
    """Who acts from a page: the person, and the seat their credential is for."""

    person: Person
    table_id: int
    seat: int


async def act(managers: ManagerSet, actor: WebActor, version: Any, action: Any) -> TableSnapshot:
    """Apply ``action`` at ``version`` for ``actor``; raises :class:`TableError` (nothing changed)."""
    if type(version) is not int:
        raise TableError(Refusal.STALE)
    if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION:
        raise TableError(Refusal.BAD_ACTION)
    snap = managers.get(actor.table_id)
    if snap is None:
        raise TableError(Refusal.NO_TABLE)
    if snap.seat_of(actor.person.player_id) != actor.seat:
        raise TableError(Refusal.NOT_SEATED)
    cmd = Act(actor.table_id, version, action)
    # the web server serves several platforms' managers as one: the one holding the table decides
    service = Service(managers.owner(actor.table_id))
    result: TableSnapshot = await service.dispatch(cmd, Actor(actor.person, dm_dest(actor.person.player_id)))
    return result


async def next_deal(managers: ManagerSet, actor: WebActor) -> TableSnapshot:
    """Next deal, pressed on the result panel: the table's pause after the deal ends (for the only
    person at it; see :class:`~bot.core.commands.NextDeal`)."""
    snap = managers.get(actor.table_id)
    if snap is None:
        raise TableError(Refusal.NO_TABLE)
    if snap.seat_of(actor.person.player_id) != actor.seat:
        raise TableError(Refusal.NOT_SEATED)
    service = Service(managers.owner(actor.table_id))
    result: TableSnapshot = await service.dispatch(NextDeal(actor.table_id),
                                                   Actor(actor.person, dm_dest(actor.person.player_id)))
    return result


async def rematch(managers: ManagerSet, person: Person, chat_id: str, table_id: int, swap: Any) -> TableSnapshot:
    """Play again after the finished match ``table_id``, pressed on its page by ``person`` (who sat at
    it: the dispatch checks, as for a press in a private chat); the new table's snapshot."""
    if type(swap) is not bool:
        raise TableError(Refusal.BAD_ACTION)
    service = Service(managers.owner_of_chat(chat_id))
    actor = Actor(person, dm_dest(person.player_id))
    result: TableSnapshot = await service.dispatch(Rematch(table_id, swap=swap), actor)
    return result


def _seated(managers: ManagerSet, actor: WebActor) -> None:
    """The page's credential is for a seat the table still gives this person."""
    snap = managers.get(actor.table_id)
    if snap is None:
        raise TableError(Refusal.NO_TABLE)
    if snap.seat_of(actor.person.player_id) != actor.seat:
        raise TableError(Refusal.NOT_SEATED)


async def hint(managers: ManagerSet, actor: WebActor, version: Any) -> Advice:
    """What the strong search would play now, for ``actor``'s seat at its turn, at the ``version`` the
    page showed (``stale`` otherwise); refused where the table has hints off (``hints_off``)."""
    if type(version) is not int:
        raise TableError(Refusal.STALE)
    _seated(managers, actor)
    service = Service(managers.owner(actor.table_id))
    answer: Advice = await service.dispatch(Hint(actor.table_id, version),
                                            Actor(actor.person, dm_dest(actor.person.player_id)))
    return answer


async def review(managers: ManagerSet, actor: WebActor) -> Advice:
    """The costliest card of ``actor``'s last finished deal at the table (tables with hints on only)."""
    _seated(managers, actor)
    service = Service(managers.owner(actor.table_id))
    answer: Advice = await service.dispatch(Review(actor.table_id),
                                            Actor(actor.person, dm_dest(actor.person.player_id)))
    return answer
