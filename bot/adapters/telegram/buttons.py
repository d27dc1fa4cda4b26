"""Button presses: decode the payload into a command, dispatch it (bot/core/service.py), answer at once.

Every press is answered with ``answerCallbackQuery``; a refused one with a short localized alert that
says why (``bot/present/render/errors.py``). "My hand" answers with the hand as an ephemeral message
in the group, for the presser only (``bot/adapters/telegram/hands.py``; the chat's ``hands`` setting),
else (``hands=dm``, or when Telegram refuses it) with the cards in an alert. A move pressed on an
ephemeral hand is dispatched like any other; the hand is then edited to the newest state.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable

from telegram import CallbackQuery, Message, Update
from telegram import error as tg_error
from telegram.ext import ContextTypes

from bot.adapters.telegram import texts
from bot.adapters.telegram.common import Base
from bot.adapters.telegram.transport import DISABLED, NOOP, player_id
from bot.core.commands import Act, Actor, Hint, Review, ShowHand, TournamentAction
from bot.core.errors import Refusal, TableError
from bot.core.lang import resolve_lang
from bot.core.views import View
from bot.present import codec
from bot.present.i18n import T, translator
from bot.present.outbox import TransportError
from bot.present.render.advice import advice_text
from bot.present.render.cards import cards_line
from bot.present.render.errors import render_error

log = logging.getLogger(__name__)


class Buttons(Base):
    """The ``CallbackQueryHandler`` of the Application."""

    async def press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button: decode, dispatch, answer the query (an alert when refused); every press is answered."""
        query = update.callback_query
        if query is None:
            return
        try:
            verdict = self.s.press_verdict(player_id(query.from_user.id))
            if not verdict.ok:  # a flood: answered (the spinner stops), nothing dispatched
                text = None
                if verdict.first:
                    t = await self.person_t(query.from_user)
                    text = render_error("slow_down", {"seconds": max(1, math.ceil(verdict.wait))}, t)
                await _answer(query.answer(text))
                return
            await self._press(query, context)
        except Exception:
            log.exception("telegram button failed on %r", query.data)
            try:
                t = await self.person_t(query.from_user)
            except Exception:
                t = translator(resolve_lang(None, query.from_user.language_code))
            await _answer(query.answer(render_error("internal", {}, t), show_alert=True))

    async def _press(self, query: CallbackQuery, context: ContextTypes.DEFAULT_TYPE) -> None:
        data = query.data or ""
        if data.startswith(DISABLED):  # a move shown disabled: the table says why it is not allowed
            data = data[len(DISABLED):]
        if data == NOOP or not codec.is_ours(data):
            await _answer(query.answer())
            return
        try:
            cmd = codec.to_command(data)
            message = query.message
            if not isinstance(message, Message):  # an inline or too old message: no chat to check
                raise TableError(Refusal.STALE)
            # the table is the one of the chat the button was pressed in, never the payload's alone
            actor = self.actor(context, message, query.from_user, event_id=f"tg:q:{query.id}")
            ephemeral = message.api_kwargs.get("ephemeral_message_id")
            if ephemeral is not None and isinstance(cmd, Act):
                await self._from_ephemeral(cmd, actor, str(ephemeral))
            alert = await self._apply(cmd, actor, query.id)
        except TableError as e:
            t = await self.person_t(query.from_user)
            await _answer(query.answer(render_error(e.code, e.params, t), show_alert=True))
            if query.message is not None and isinstance(query.message, Message) \
                    and query.message.api_kwargs.get("ephemeral_message_id") is not None \
                    and e.code in (Refusal.STALE, Refusal.NOT_YOUR_TURN, Refusal.ILLEGAL):
                await self._refresh(data, player_id(query.from_user.id))
        else:
            if alert is None:
                await _answer(query.answer())
            else:
                await _answer(query.answer(alert, show_alert=True))

    async def _apply(self, cmd: codec.ButtonCommand, actor: Actor, query_id: str) -> str | None:
        if isinstance(cmd, Hint | Review):  # to the presser alone, in an alert (never the group)
            answer = await self.dispatch(cmd, actor)
            return advice_text(answer, await self._actor_t(actor))[:200]
        if isinstance(cmd, ShowHand):
            hand = await self.dispatch(cmd, actor)
            hands = self.s.hands
            if hands is not None and not actor.in_dm and await hands.ephemeral(actor.chat_id):
                try:
                    await hands.show(hand.snapshot, actor.person.player_id, query_id=query_id)
                except TransportError as e:  # refused by Telegram: the cards in an alert, as before 10.2
                    log.info("ephemeral hand for %s refused: %s", actor.person.player_id, e)
                else:
                    return None
            return await self._hand_alert(actor, hand.view)
        if isinstance(cmd, TournamentAction):  # the tournament's message is edited by its listener
            await self.dispatch(cmd, actor)
            return None
        await self.dispatch(cmd, actor)
        return None

    async def _from_ephemeral(self, cmd: Act, actor: Actor, message_id: str) -> None:
        """A move pressed on an ephemeral hand: keep that hand current from now on."""
        snap = self.s.manager.get(cmd.table_id)
        if self.s.hands is not None and snap is not None:
            await self.s.hands.known(snap, actor.person.player_id, message_id)

    async def _refresh(self, data: str, player: str) -> None:
        """A refused move of an ephemeral hand: show the hand as it is now."""
        try:
            cmd = codec.to_command(data)
        except TableError:
            return
        if isinstance(cmd, TournamentAction):
            return
        snap = self.s.manager.get(cmd.table_id) if cmd.table_id is not None else None
        if self.s.hands is not None and snap is not None:
            await self.s.hands.refresh(snap, player)

    async def _actor_t(self, actor: Actor) -> T:
        person = actor.person
        record = await self.s.manager.prefs.player_record(person.player_id)
        return translator(resolve_lang(record.lang if record is not None else None, person.lang_hint))

    async def _hand_alert(self, actor: Actor, view: View) -> str:
        t = await self._actor_t(actor)
        hand = list(view.get("hand") or [])
        return texts.hand_alert(hand, list(view.get("legal") or []), t, cards_line(hand, t))


async def _answer(call: Awaitable[bool]) -> None:
    try:
        await call
    except tg_error.TelegramError as e:
        log.info("answerCallbackQuery failed: %s", e)
