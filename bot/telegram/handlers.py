"""Telegram updates → table manager calls: commands, button presses and deep-link joins.

Every button press is answered at once with ``answerCallbackQuery`` (a refused press with a short
localized alert that says why). What the table looks like afterwards is the presenter's business:
it hears the manager and edits the live messages through the outbox. Replies of commands go
through the same outbox, so they share the group's budget.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from telegram import Message, Update, User
from telegram import error as tg_error
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from bot import codec
from bot.errors import TableError
from bot.i18n import T, normalize_lang, resolve_lang, translator
from bot.outbox import NEW
from bot.render import render_help, render_leaderboard, render_rules, render_scores, render_stats
from bot.render.cards import cards_line
from bot.render.errors import render_error
from bot.render.message import OutMessage
from bot.telegram import texts
from bot.telegram.transport import (
    NOOP,
    TelegramTransport,
    dm_dest,
    group_dest,
    parse_dest,
    player_id,
    user_of,
)
from bot.types import Person, TableSnapshot

if TYPE_CHECKING:
    from bot.manager import TableManager

log = logging.getLogger(__name__)

#: Deep-link payload of the lobby's Join button: ``j<table_id>``.
JOIN_PREFIX = "j"
ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})
GROUP_TYPES = frozenset({ChatType.GROUP, ChatType.SUPERGROUP})


def join_payload(table_id: int) -> str:
    """The ``/start`` payload that seats a person at ``table_id``."""
    return f"{JOIN_PREFIX}{table_id}"


def parse_join_payload(payload: str) -> int | None:
    """The table id of a join payload, else None."""
    if payload.startswith(JOIN_PREFIX) and payload[1:].isdigit():
        return int(payload[1:])
    return None


def person_of(user: User) -> Person:
    """The platform-neutral person of a Telegram user."""
    return Person(player_id(user.id), user.full_name or str(user.id), user.language_code)


def chat_of(message: Message) -> str:
    """The neutral chat id of a message: the group, or the group's forum topic."""
    thread = message.message_thread_id if message.is_topic_message else None
    return group_dest(message.chat.id, thread)


class Sender(Protocol):
    """Where the adapter's own replies go (the outbox hub, so the group budget is shared)."""

    def put(self, dest: str, key: str | None, msg: OutMessage | None, mode: str = ...) -> None: ...


@dataclass
class Services:
    """What the handlers use: the manager, the transport, and the outbox for replies."""

    manager: TableManager
    transport: TelegramTransport | None = None
    sender: Sender | None = None
    on_started: Callable[[Person], Awaitable[None]] | None = None
    on_lang: Callable[[str], None] | None = None
    on_hand: Callable[[Person, TableSnapshot | None], Awaitable[None]] | None = None
    langs: dict[str, str | None] = field(default_factory=dict)


class Handlers:
    """The update handlers of one Application."""

    def __init__(self, services: Services) -> None:
        self.s = services

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Register every command and the button handler on ``app``."""
        commands: dict[str, Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]] = {
            "start": self.start, "new": self.new, "join": self.join, "leave": self.leave,
            "begin": self.begin, "stop": self.stop, "scores": self.scores,
            "leaderboard": self.leaderboard, "stats": self.stats, "lang": self.lang,
            "settings": self.settings, "rules": self.rules, "help": self.help,
            "top": self.leaderboard, "language": self.lang, "hand": self.hand,
        }
        for name, callback in commands.items():
            app.add_handler(CommandHandler(name, callback))
        app.add_handler(CallbackQueryHandler(self.press))
        app.add_error_handler(self.error)

    # ------------------------------------------------------------------ languages and replies

    async def chat_t(self, chat_id: str, user: User | None) -> T:
        """The translator of a group (its stored language, else the user's hint)."""
        chat = await self.s.manager.chat_settings(chat_id)
        return translator(resolve_lang(chat.lang, user.language_code if user else None), chat.digits)

    async def person_t(self, user: User) -> T:
        """The translator of one person (their stored language, else Telegram's hint)."""
        pid = player_id(user.id)
        if pid not in self.s.langs:
            record = await self.s.manager.player(person_of(user))
            self.s.langs[pid] = record.lang
        return translator(resolve_lang(self.s.langs[pid], user.language_code))

    async def reply(self, dest: str, text: str | OutMessage) -> None:
        """A new message at ``dest`` through the outbox (straight through the transport without one)."""
        msg = text if isinstance(text, OutMessage) else OutMessage(text)
        if self.s.sender is not None:
            self.s.sender.put(dest, None, msg, NEW)
            return
        if self.s.transport is None:
            log.warning("no transport yet; reply to %s dropped", dest)
            return
        try:
            await self.s.transport.send(dest, msg)
        except Exception:
            log.exception("telegram reply to %s failed", dest)

    async def is_admin(self, context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the chat (``getChatMember``)."""
        try:
            member = await context.bot.get_chat_member(chat_id, user_id)
        except tg_error.TelegramError:
            log.info("getChatMember %s %s failed", chat_id, user_id, exc_info=True)
            return False
        return member.status in ADMIN_STATUSES

    def _where(self, update: Update) -> tuple[Message, User, str] | None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return None
        if message.chat.type in GROUP_TYPES:
            return message, user, chat_of(message)
        return message, user, dm_dest(user.id)

    async def _group_call(self, update: Update, call: Callable[[str, Person], Awaitable[Any]]) -> None:
        """Run a manager call for a group command; a refusal is answered in the group."""
        where = self._where(update)
        if where is None:
            return
        message, user, chat_id = where
        if message.chat.type not in GROUP_TYPES:
            await self.reply(chat_id, texts.private_only(await self.person_t(user)))
            return
        try:
            await call(chat_id, person_of(user))
        except TableError as e:
            await self.reply(chat_id, render_error(e.code, e.params, await self.chat_t(chat_id, user)))

    # ------------------------------------------------------------------ table commands

    async def new(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/new <game> [key=value ...]``."""
        args = list(context.args or [])
        game = texts.GAME_ALIASES.get(args[0].lower()) if args else None
        if game is None:
            where = self._where(update)
            if where is not None:
                t = (await self.chat_t(where[2], where[1]) if where[0].chat.type in GROUP_TYPES
                     else await self.person_t(where[1]))
                await self.reply(where[2], texts.new_usage(t))
            return
        options = texts.parse_options(args[1:])
        await self._group_call(
            update, lambda chat, person: self.s.manager.create(chat, person, game, options or None))

    async def join(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/join [seat]``."""
        args = context.args or []
        seat = int(args[0]) if args and args[0].isdigit() else None
        await self._group_call(update, lambda chat, person: self.s.manager.join(chat, person, seat))

    async def leave(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/leave``."""
        await self._group_call(update, self.s.manager.leave)

    async def begin(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/begin``: start now, AI players in the empty seats."""
        await self._group_call(update, self.s.manager.begin)

    async def stop(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/stop`` (the creator or an admin)."""
        where = self._where(update)
        if where is None:
            return
        message, user = where[0], where[1]
        admin = message.chat.type in GROUP_TYPES and await self.is_admin(context, message.chat.id, user.id)
        await self._group_call(
            update, lambda chat, person: self.s.manager.stop(chat, person, is_admin=admin))

    # ------------------------------------------------------------------ information commands

    async def scores(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/scores``: this table's running totals."""
        async def show(chat: str, person: Person) -> None:
            snap = self.s.manager.table_in_chat(chat)
            if snap is None:
                raise TableError("no_table")
            await self.reply(chat, render_scores(snap, await self.chat_t(chat, update.effective_user)))
        await self._group_call(update, show)

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/leaderboard [game]``: this group's best per game."""
        args = context.args or []
        wanted = texts.GAME_ALIASES.get(args[0].lower()) if args else None

        async def show(chat: str, person: Person) -> None:
            t = await self.chat_t(chat, update.effective_user)
            parts = [render_leaderboard(await self.s.manager.leaderboard(chat, g), g, t).text
                     for g in ((wanted,) if wanted else texts.GAMES)]
            await self.reply(chat, "\n\n".join(parts))
        await self._group_call(update, show)

    async def stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/stats``: the sender's record (in this group, or everywhere in private)."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        in_group = message.chat.type in GROUP_TYPES
        person = person_of(user)
        rows = await self.s.manager.stats(person.player_id, dest if in_group else None)
        t = await self.chat_t(dest, user) if in_group else await self.person_t(user)
        await self.reply(dest, render_stats(rows, person.name, t))

    async def rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/rules [game]``."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        args = context.args or []
        game = texts.GAME_ALIASES.get(args[0].lower()) if args else None
        t = await self.chat_t(dest, user) if message.chat.type in GROUP_TYPES else await self.person_t(user)
        await self.reply(dest, render_rules(game or "", t))

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/help``."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        t = await self.chat_t(dest, user) if message.chat.type in GROUP_TYPES else await self.person_t(user)
        await self.reply(dest, render_help("telegram", t))

    async def hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/hand``: a fresh copy of the sender's hand in the private chat (the group is told if that
        fails); in the group, the hand at this group's table."""
        where = self._where(update)
        if where is None or self.s.on_hand is None:
            return
        message, user, dest = where
        snap = self.s.manager.table_in_chat(dest) if message.chat.type in GROUP_TYPES else None
        await self.s.on_hand(person_of(user), snap)

    # ------------------------------------------------------------------ admin commands

    async def lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/lang ar|en``: the group's language (admins), or one's own in private."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        args = context.args or []
        lang = normalize_lang(args[0]) if args else None
        if message.chat.type not in GROUP_TYPES:
            if lang is None:
                await self.reply(dest, texts.lang_usage(await self.person_t(user)))
                return
            await self.s.manager.update_player(player_id(user.id), lang=lang)
            self.s.langs[player_id(user.id)] = lang
            if self.s.on_lang is not None:
                self.s.on_lang(player_id(user.id))
            await self.reply(dest, texts.lang_set(translator(lang)))
            return
        t = await self.chat_t(dest, user)
        if lang is None:
            await self.reply(dest, texts.lang_usage(t))
        elif not await self.is_admin(context, message.chat.id, user.id):
            await self.reply(dest, texts.admins_only(t))
        else:
            chat = await self.s.manager.update_chat(dest, lang=lang)
            await self.reply(dest, texts.lang_set(translator(lang, chat.digits)))

    async def settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/settings [turn=N] [digits=…] [ai=…] [GAME.key=value]`` (admins change, anyone reads)."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        if message.chat.type not in GROUP_TYPES:
            await self.reply(dest, texts.private_only(await self.person_t(user)))
            return
        t = await self.chat_t(dest, user)
        args = context.args or []
        if not args:
            await self.reply(dest, texts.settings_text(await self.s.manager.chat_settings(dest), t))
            return
        if not await self.is_admin(context, message.chat.id, user.id):
            await self.reply(dest, texts.admins_only(t))
            return
        changes = _settings_changes(texts.parse_options(args),
                                    (await self.s.manager.chat_settings(dest)).default_options)
        if changes is None:
            await self.reply(dest, texts.settings_usage(t))
            return
        chat = await self.s.manager.update_chat(dest, **changes)
        await self.reply(dest, texts.settings_text(chat, await self.chat_t(dest, user)))

    # ------------------------------------------------------------------ private chat

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/start [payload]`` in private: the person can now be messaged; a join payload seats them."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        person = person_of(user)
        if message.chat.type in GROUP_TYPES:
            await self.reply(dest, render_help("telegram", await self.chat_t(dest, user)))
            return
        await self.s.manager.player(person)
        await self.s.manager.update_player(person.player_id, dm_ok=True)
        t = await self.person_t(user)
        args = context.args or []
        table_id = parse_join_payload(args[0]) if args else None
        if table_id is None:
            await self.reply(dest, texts.welcome_text(t))
        else:
            snap = self.s.manager.get(table_id)
            try:
                if snap is None:
                    raise TableError("no_table")
                if snap.seat_of(person.player_id) is None:
                    snap = await self.s.manager.join(snap.table.chat_id, person)
            except TableError as e:
                await self.reply(dest, render_error(e.code, e.params, t))
            else:
                seat = snap.seat_of(person.player_id)
                if seat is not None:
                    await self.reply(dest, texts.joined_text(snap, seat, t))
        if self.s.on_started is not None:
            await self.s.on_started(person)

    # ------------------------------------------------------------------ buttons

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
        t = translator(resolve_lang(self.s.langs.get(person.player_id), person.lang_hint))
        hand = list(view.get("hand") or [])
        return texts.hand_alert(hand, list(view.get("legal") or []), t, cards_line(hand, t))

    async def error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log what a handler did not expect."""
        log.error("telegram handler failed on %r", update, exc_info=context.error)


async def _answer(call: Awaitable[bool]) -> None:
    try:
        await call
    except tg_error.TelegramError as e:
        log.info("answerCallbackQuery failed: %s", e)


def _settings_changes(opts: dict[str, Any], defaults: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """``update_chat`` keyword changes from ``/settings`` words, or None if one is not understood."""
    changes: dict[str, Any] = {}
    new_defaults = {g: dict(o) for g, o in defaults.items()}
    for key, value in opts.items():
        if key in ("turn", "timer", "turn_seconds") and isinstance(value, int) and value >= 0:
            changes["turn_seconds"] = value
        elif key == "digits" and value in ("western", "arabic"):
            changes["digits"] = value
        elif key in ("ai", "ai_level") and value in ("easy", "normal", "strong"):
            changes["ai_level"] = value
        elif "." in key and texts.GAME_ALIASES.get(key.split(".", 1)[0]):
            game = texts.GAME_ALIASES[key.split(".", 1)[0]]
            new_defaults.setdefault(game, {})[key.split(".", 1)[1]] = value
        else:
            return None
    if new_defaults != defaults:
        changes["default_options"] = new_defaults
    return changes or None
