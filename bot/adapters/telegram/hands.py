"""Hands shown in the group to their player only (Telegram Bot API 10.2 ephemeral messages).

"My hand" on the table message answers the press with the player's hand as an ephemeral message:
only they see it, it stays out of the chat's history, and its buttons are their moves (a card that may
not be played is shown disabled; pressing it says why). The hand is then kept current by editing it
(``editEphemeralMessageText``) after every change of the table, through the outbox at the member's
own destination (``tg:<chat>#<user>``, paced like a private chat: not out of the group's 20 a
minute). Pressing "My hand" again shows the newest state as a new ephemeral message and deletes the
one before: since Telegram does not guarantee delivery ("especially if they are offline"), that
press is also how a hand that never arrived is fetched again. The table message keeps its "My hand"
button and names whose turn it is, so nobody depends on a hand's edit (or a timer) to learn it.

Where hands go is the chat's setting (``/settings hands=both|group|dm``, ``ChatRecord.hands``):
``dm`` keeps "My hand" an alert and the hand in the private chat, as before Bot API 10.2.

The moves on an ephemeral hand are presses like any other: one dispatch (bot/core/service.py), the
seat and the table's version checked there; a refused press is answered with its reason and the
hand is edited to the newest state.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from bot.adapters.telegram.transport import TelegramTransport, eph_dest, user_of
from bot.core.model import TableSnapshot, TableUpdate
from bot.present.i18n import T, translator
from bot.present.keys import human_of
from bot.present.outbox import EDIT, OutboxHub, TransportError
from bot.present.outbox.types import fingerprint
from bot.present.render import render_hand
from bot.present.render.message import OutMessage
from storage.records import LIVE_STATUSES

if TYPE_CHECKING:
    from bot.core.manager import TableManager

log = logging.getLogger(__name__)

#: Chat settings (``ChatRecord.hands``) under which "My hand" answers with an ephemeral hand.
EPHEMERAL_MODES = frozenset({"both", "group"})


def group_hand_key(table_id: int, player_id: str) -> str:
    """The outbox key of a player's ephemeral hand of a table (at their ephemeral destination).

    Not a ``hand:`` key: the presenter stores those ids with the table, and the ephemeral hand's id
    must never take the place of the private chat's."""
    return f"ehand:{table_id}:{player_id}"


@dataclass(frozen=True)
class Shown:
    """One player's ephemeral hand of a table: where it is and who it is for."""

    dest: str
    key: str
    player: str


class GroupHands:
    """Shows hands as ephemeral messages in the group and keeps them current (see the module)."""

    def __init__(self, manager: TableManager, hub: OutboxHub, transport: TelegramTransport) -> None:
        self.manager = manager
        self.hub = hub
        self.transport = transport
        self._shown: dict[int, dict[str, Shown]] = {}  # table id -> player -> their ephemeral hand
        manager.subscribe(self.on_update)

    async def ephemeral(self, chat_id: str) -> bool:
        """Whether "My hand" in this chat answers with an ephemeral hand (``ChatRecord.hands``)."""
        return (await self.manager.chat_settings(chat_id)).hands in EPHEMERAL_MODES

    async def _t(self, snap: TableSnapshot, player: str) -> T:
        lang, digits = await self.manager.prefs.private_lang(player, snap.table.chat_id)
        return translator(lang, digits)

    def _build(self, table_id: int, player: str, fallback: TableSnapshot, t: T) -> OutMessage | None:
        """The player's hand as it is now (None if they no longer hold a seat there)."""
        snap = self.manager.get(table_id) or fallback
        seat = next((s for s in range(len(snap.table.seats)) if human_of(snap, s) == player), None)
        if seat is None or snap.public is None:
            return None
        try:
            view = self.manager.view(table_id, seat)
        except Exception:  # the table is gone from the manager: nothing newer to show
            return None
        return render_hand(snap, view, t)

    async def show(self, snap: TableSnapshot, player: str, *, query_id: str | None = None) -> None:
        """Show ``player``'s hand at ``snap``'s table to them only, in answer to ``query_id`` (their
        press of "My hand"): a new ephemeral message with the newest state; the one shown before is
        deleted. Raises :class:`~bot.present.outbox.TransportError` when Telegram refuses it."""
        user = user_of(player)
        if user is None:
            raise TransportError(f"{player} is not a Telegram person")
        t = await self._t(snap, player)
        msg = self._build(snap.table_id, player, snap, t)
        if msg is None:
            return
        dest, key = eph_dest(snap.table.chat_id, user), group_hand_key(snap.table_id, player)
        box = self.hub.outbox(dest)
        old = box.message_ids.get(key)
        new = await self.transport.send_ephemeral(dest, msg, query_id=query_id)
        box.window.record(self.hub.clock.now())  # the member's pacing counts it
        self.hub.remember(dest, key, new, fingerprint(msg))
        self._shown.setdefault(snap.table_id, {})[player] = Shown(dest, key, player)
        if old is not None and old != new:
            with contextlib.suppress(TransportError):  # gone already, or never delivered: nothing to do
                await self.transport.delete(dest, old)

    async def known(self, snap: TableSnapshot, player: str, message_id: str) -> None:
        """A press came from ``player``'s ephemeral hand ``message_id`` (maybe shown by an earlier
        process): keep that one current from now on."""
        user = user_of(player)
        if user is None:
            return
        dest, key = eph_dest(snap.table.chat_id, user), group_hand_key(snap.table_id, player)
        if self.hub.outbox(dest).message_ids.get(key) is None:
            self.hub.remember(dest, key, message_id)
        self._shown.setdefault(snap.table_id, {})[player] = Shown(dest, key, player)

    async def refresh(self, snap: TableSnapshot, player: str) -> None:
        """Edit ``player``'s ephemeral hand to the newest state (after a refused press)."""
        shown = self._shown.get(snap.table_id, {}).get(player)
        if shown is not None:
            self.hub.put(shown.dest, shown.key, partial(self._build, snap.table_id, player, snap,
                                                        await self._t(snap, player)), EDIT)

    async def on_update(self, update: TableUpdate) -> None:
        """Every change of a table edits the ephemeral hands shown at it (the newest state, when the
        member's outbox sends it); a finished table's are edited a last time and forgotten."""
        snap = update.snapshot
        shown = self._shown.get(snap.table_id)
        if not shown:
            return
        try:
            for one in list(shown.values()):
                self.hub.put(one.dest, one.key, partial(self._build, snap.table_id, one.player, snap,
                                                        await self._t(snap, one.player)), EDIT)
            if snap.table.status not in LIVE_STATUSES:
                for one in self._shown.pop(snap.table_id, {}).values():
                    self.hub.outbox(one.dest).forget([one.key])
        except Exception:  # a rendering bug must not break the manager's notification loop
            log.exception("editing the group hands of table %s failed", snap.table_id)
