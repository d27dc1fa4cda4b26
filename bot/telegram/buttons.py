"""Button presses: decode the payload, call the table manager, answer the query at once.

Every press is answered with ``answerCallbackQuery``; a refused one with a short localized alert that
says why (``bot/render/errors.py``). "My hand" answers with the cards in an alert.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable

from telegram import Update
from telegram import error as tg_error
from telegram.ext import ContextTypes

from bot import codec
from bot.errors import TableError
from bot.i18n import resolve_lang, translator
from bot.render.cards import cards_line
from bot.render.errors import render_error
from bot.telegram import texts
from bot.telegram.common import Base, person_of
from bot.telegram.transport import NOOP, parse_dest, user_of
from bot.types import Person, TableSnapshot

log = logging.getLogger(__name__)


class Buttons(Base):
    """The ``CallbackQueryHandler`` of the Application."""

    async def press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button: decode, call the manager, answer the query (an alert when refused)."""
        query = update.callback_query
        if query is None:
            return
        data = query.data or ""
        if data == NOOP or not codec.is_ours(data):
            await _answer(query.answer())
            return
        person = person_of(query.from_user)
        try:
            payload = codec.decode(data)
            alert = await self._apply(payload, person, context)
        except codec.CodecError:
            t = await self.person_t(query.from_user)
            await _answer(query.answer(render_error("bad_action", {}, t), show_alert=True))
        except TableError as e:
            t = await self.person_t(query.from_user)
            await _answer(query.answer(render_error(e.code, e.params, t), show_alert=True))
        else:
            if alert is None:
                await _answer(query.answer())
            else:
                await _answer(query.answer(alert, show_alert=True))

    async def _apply(self, p: codec.Payload, person: Person, context: ContextTypes.DEFAULT_TYPE) -> str | None:
        m = self.s.manager
        if p.verb == "a":
            if p.version is None:
                await m.act_current(p.table_id, person, p.arg)
            else:
                await m.act(p.table_id, person, p.version, p.arg)
            return None
        snap = m.get(p.table_id)
        if snap is None:
            raise TableError("no_table")
        chat = snap.table.chat_id
        if p.verb == "j":
            await m.join(chat, person, int(p.arg) if p.arg.isdigit() else None)
        elif p.verb == "b":
            await m.begin(chat, person)
        elif p.verb == "l":
            await m.leave(chat, person)
        elif p.verb == "c":
            await m.claim(chat, person, int(p.arg) if p.arg.isdigit() else -1)
        elif p.verb == "x":
            user = user_of(person.player_id)
            admin = user is not None and await self.is_admin(context, parse_dest(chat)[0], user)
            await m.stop(chat, person, is_admin=admin)
        elif p.verb == "h":
            return await self._hand_alert(snap, person)
        return None

    async def _hand_alert(self, snap: TableSnapshot, person: Person) -> str:
        seat = snap.seat_of(person.player_id)
        if seat is None:
            raise TableError("not_seated")
        if snap.public is None:
            raise TableError("not_started")
        view = self.s.manager.view(snap.table.table_id, seat)
        record = await self.s.manager.prefs.player_record(person.player_id)
        t = translator(resolve_lang(record.lang if record is not None else None, person.lang_hint))
        hand = list(view.get("hand") or [])
        return texts.hand_alert(hand, list(view.get("legal") or []), t, cards_line(hand, t))


async def _answer(call: Awaitable[bool]) -> None:
    try:
        await call
    except tg_error.TelegramError as e:
        log.info("answerCallbackQuery failed: %s", e)
