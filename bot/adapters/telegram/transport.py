"""The outbox's :class:`~bot.present.outbox.Transport` for Telegram, through python-telegram-bot's ``Bot``.

Destinations are platform-neutral strings: ``"tg:<chat>"`` (a group), ``"tg:<chat>/<thread>"`` (a
forum topic: every message carries ``message_thread_id``) and ``"dm:tg:<user>"`` (the private chat
with a person), and ``"tg:<chat>[/<thread>]#<user>"``: the ephemeral messages of one member in a
group (Bot API 10.2: shown to that member only, kept out of the chat's history; see
:func:`eph_dest`). Telegram's errors become the outbox's: 403 → :class:`~bot.present.outbox.Forbidden`,
429 → :class:`~bot.present.outbox.RetryAfter`, network trouble and 5xx →
:class:`~bot.present.outbox.TransientError`, any other 400 on a send → :class:`~bot.present.outbox.PermanentError`
(dropped, never retried against the group's budget), an edit of a deleted message →
:class:`~bot.present.outbox.MessageGone`; "message is not modified" counts as success. A group that became a
supergroup (``ChatMigrated``) is noted (:meth:`TelegramTransport.migrated`: the chat's tables move)
and the operation is made again at the new id.
"""

from __future__ import annotations

import datetime as dtm
import logging
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity, User, WebAppInfo
from telegram import error as tg_error

from bot.core import identity
from bot.present.outbox import Budget, Forbidden, MessageGone, PermanentError, RetryAfter, TransientError
from bot.present.render.message import Button, OutMessage

log = logging.getLogger(__name__)
T = TypeVar("T")

#: 20 per minute per group (edits included), spent as a steady stream: a burst of 2, then one every
#: 3.2 s; the 1 s margin keeps clock differences from squeezing 21 into one of Telegram's minutes.
GROUP_BUDGET = Budget(20, 60.0, burst=2, margin=1.0)
#: About one message a second in a private chat.
DM_BUDGET = Budget(1, 1.0, margin=0.05)
#: One member's ephemeral messages in a group (their hand there): about one a second, like a private
#: chat. The Bot API documentation we could read says nothing of ephemeral messages and the group's
#: 20 a minute; they are shown to one member and kept out of the chat's history, so they are paced
#: per member (and within the bot-wide budget), not out of the group's 20.
EPHEMERAL_BUDGET = Budget(1, 1.0, margin=0.05)
#: The whole bot: about 30 messages a second (Telegram's broadcast limit).
GLOBAL_BUDGET = Budget(30, 1.0, burst=5, margin=0.05)
MAX_TEXT = 4096
#: Group → supergroup moves remembered for messages still queued under the old id.
MAX_MOVED = 1024
#: Callback data of a placeholder button without a payload (Telegram has no disabled buttons):
#: answered silently.
NOOP = "noop"
#: Prefix of a disabled move's callback data (``DISABLED + payload``): pressing it runs the move, so
#: that the table refuses it with its reason ("you must follow suit"), in the presser's answer only.
DISABLED = "off:"

_GONE = ("message to edit not found", "message to delete not found", "message_id_invalid",
         "message can't be edited", "message can't be deleted", "message not found")
_NO_CHAT = ("chat not found", "bot was kicked", "not enough rights", "have no rights",
            "need administrator rights", "chat_write_forbidden", "topic_closed", "topic_deleted",
            "message thread not found")


# The ids are spelled in bot/core/identity.py; these are its Telegram spellings.
group_dest = identity.tg_group
parse_dest = identity.tg_parse


def dm_dest(user_id: int) -> str:
    """The destination of a person's private chat with the bot."""
    return identity.dm_dest(identity.person_id(identity.TELEGRAM, user_id))


def player_id(user_id: int) -> str:
    """The neutral player id of a Telegram user."""
    return identity.person_id(identity.TELEGRAM, user_id)


def user_of(player: str) -> int | None:
    """The Telegram user id of a neutral player id, or None if it is not a Telegram person."""
    return identity.user_of(player, identity.TELEGRAM)


def eph_dest(chat: str, user_id: int) -> str:
    """The destination of ``user_id``'s ephemeral messages in the group (or topic) ``chat``."""
    return f"{chat}#{user_id}"


def parse_eph(dest: str) -> tuple[str, int] | None:
    """``(group destination, user id)`` of an ephemeral destination, else None."""
    chat, sep, user = dest.rpartition("#")
    if not sep or not chat.startswith("tg:"):
        return None
    uid = identity.ascii_int(user)
    return (chat, uid) if uid is not None else None


def is_dm(dest: str) -> bool:
    """Whether ``dest`` is a person's private chat."""
    return identity.is_dm_of(dest, identity.TELEGRAM)


def markup(buttons: tuple[tuple[Button, ...], ...], *, disabled_ok: bool = False) -> InlineKeyboardMarkup | None:
    """The inline keyboard of a message's button rows (None when there are none).

    ``disabled_ok``: a button without anything to do is a disabled button of Bot API 10.3
    (``disabled: {}``; PTB 22.8 does not model it, so it goes in ``api_kwargs``) instead of a ``noop``
    callback. A move that is not allowed now keeps its ``off:`` callback either way: a 10.3 disabled
    button "does nothing" when pressed, and that press must say why the card may not be played."""
    rows: list[list[InlineKeyboardButton]] = []
    for row in buttons:
        out: list[InlineKeyboardButton] = []
        for b in row:
            if b.url is not None and b.web_app:
                out.append(InlineKeyboardButton(b.label, web_app=WebAppInfo(b.url)))
            elif b.url is not None:
                out.append(InlineKeyboardButton(b.label, url=b.url))
            elif b.payload is not None and not b.disabled:
                out.append(InlineKeyboardButton(b.label, callback_data=b.payload))
            elif b.payload is not None and len((DISABLED + b.payload).encode()) <= 64:
                # a move not allowed now (a card that does not follow suit): pressing it says why
                out.append(InlineKeyboardButton(b.label, callback_data=DISABLED + b.payload))
            elif disabled_ok:
                out.append(InlineKeyboardButton(b.label, api_kwargs={"disabled": {}}))
            else:
                out.append(InlineKeyboardButton(b.label, callback_data=NOOP))
        if out:
            rows.append(out)
    return InlineKeyboardMarkup(rows) if rows else None


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def entities(msg: OutMessage) -> list[MessageEntity] | None:
    """The ``text_mention`` entities of the message's mentions (offsets in UTF-16 code units, as the
    Bot API counts them), None when it mentions nobody: a person without a username is mentioned by
    id, and nobody else is (plain text is sent without a parse mode)."""
    out = []
    for m in msg.mentions:
        uid = user_of(m.player_id)
        if uid is None or m.start + m.length > MAX_TEXT:
            continue
        name = msg.text[m.start:m.start + m.length]
        out.append(MessageEntity(MessageEntity.TEXT_MENTION, _utf16(msg.text[:m.start]), _utf16(name),
                                 user=User(uid, name, False)))
    return out or None


def retry_seconds(exc: tg_error.RetryAfter) -> float:
    """The wait asked by a 429, without PTB's int/timedelta deprecation warning."""
    value: Any = getattr(exc, "_retry_after", None)
    if value is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = exc.retry_after
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


def _has(exc: Exception, needles: tuple[str, ...]) -> bool:
    text = str(exc).lower()
    return any(n in text for n in needles)


class TelegramTransport:
    """Send, edit and delete plain messages with inline keyboards; typed errors for the outbox."""

    def __init__(self, bot: Bot, *, bot_username: str | None = None,
                 group_budget: Budget = GROUP_BUDGET, dm_budget: Budget = DM_BUDGET,
                 global_budget: Budget | None = GLOBAL_BUDGET, ephemeral_budget: Budget = EPHEMERAL_BUDGET) -> None:
        self.bot = bot
        self._username = bot_username
        self.group_budget = group_budget
        self.dm_budget = dm_budget
        self.ephemeral_budget = ephemeral_budget
        self.global_budget = global_budget  # the outbox hub's bot-wide limiter

    @property
    def bot_username(self) -> str:
        """The bot's @username (from ``getMe`` once the bot is initialized)."""
        if self._username is None:
            self._username = self.bot.username
        return self._username

    def start_link(self, payload: str | None = None) -> str:
        """The deep link that opens the private chat with the bot and presses Start."""
        base = f"https://t.me/{self.bot_username}"
        return f"{base}?start={payload}" if payload else base

    def budget(self, dest: str) -> Budget:
        """Group/topic: 20 per minute (edits included); private chat: 1 per second; one member's
        ephemeral messages in a group: 1 per second (:data:`EPHEMERAL_BUDGET`)."""
        if parse_eph(dest) is not None:
            return self.ephemeral_budget
        return self.dm_budget if is_dm(dest) else self.group_budget

    async def send(self, dest: str, msg: OutMessage) -> str:
        """Post ``msg``; returns the new message id (an ephemeral one's ``ephemeral_message_id``)."""
        if parse_eph(dest) is not None:
            return await self.send_ephemeral(dest, msg)
        chat_id, thread_id = parse_dest(dest)
        try:
            sent = await self._at(chat_id, lambda chat: self.bot.send_message(
                chat, msg.text[:MAX_TEXT], message_thread_id=thread_id, entities=entities(msg),
                reply_markup=markup(msg.buttons), disable_notification=not msg.notify))
        except tg_error.BadRequest as exc:
            if _has(exc, _NO_CHAT):
                raise Forbidden(dest) from exc
            raise PermanentError(str(exc)) from exc  # the same request would be refused again
        except tg_error.TelegramError as exc:
            raise self._map(dest, exc) from exc
        return str(sent.message_id)

    async def send_ephemeral(self, dest: str, msg: OutMessage, *, query_id: str | None = None) -> str:
        """Show ``msg`` to one member in the group (Bot API 10.2/10.3: ``sendMessage`` with
        ``ephemeral_message_parameters``, sent through PTB's ``api_kwargs`` since PTB 22.8 does not
        model it); ``query_id``: the callback query it answers. Returns its ``ephemeral_message_id``.
        Telegram does not guarantee delivery: a success says nothing of whether the member saw it."""
        where = parse_eph(dest)
        if where is None:
            raise PermanentError(f"not an ephemeral destination: {dest}")
        chat, user = where
        chat_id, thread_id = parse_dest(chat)
        params: dict[str, Any] = {"receiver_user_id": user}
        if query_id is not None:
            params["callback_query_id"] = query_id
        try:
            sent = await self._at(chat_id, lambda c: self.bot.send_message(
                c, msg.text[:MAX_TEXT], message_thread_id=thread_id,
                reply_markup=markup(msg.buttons, disabled_ok=True), disable_notification=not msg.notify,
                api_kwargs={"ephemeral_message_parameters": params}))
        except tg_error.BadRequest as exc:
            if _has(exc, _NO_CHAT):
                raise Forbidden(dest) from exc
            raise PermanentError(str(exc)) from exc
        except tg_error.TelegramError as exc:
            raise self._map(dest, exc) from exc
        ephemeral = sent.api_kwargs.get("ephemeral_message_id")
        if ephemeral is None:
            raise PermanentError("the answer to an ephemeral sendMessage has no ephemeral_message_id")
        return str(ephemeral)

    async def _ephemeral_call(self, dest: str, method: str, message_id: str, **extra: Any) -> None:
        where = parse_eph(dest)
        if where is None:
            raise PermanentError(f"not an ephemeral destination: {dest}")
        chat, user = where
        chat_id, _ = parse_dest(chat)
        args = {"receiver_user_id": user, "ephemeral_message_id": int(message_id), **extra}
        await self._at(chat_id, lambda c: self.bot.do_api_request(method, api_kwargs={"chat_id": c, **args}))

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        """Replace text and keyboard of an earlier message (unchanged content is fine)."""
        try:
            if parse_eph(dest) is not None:  # one member's message in the group (Bot API 10.2)
                await self._ephemeral_call(dest, "editEphemeralMessageText", message_id, text=msg.text[:MAX_TEXT],
                                           reply_markup=markup(msg.buttons, disabled_ok=True))
            else:
                chat_id, _ = parse_dest(dest)
                await self._at(chat_id, lambda chat: self.bot.edit_message_text(
                    msg.text[:MAX_TEXT], chat_id=chat, message_id=int(message_id),
                    reply_markup=markup(msg.buttons)))
        except tg_error.BadRequest as exc:
            if _has(exc, ("message is not modified",)):
                return
            if _has(exc, _NO_CHAT):
                raise Forbidden(dest) from exc
            raise MessageGone(str(exc)) from exc
        except tg_error.TelegramError as exc:
            raise self._map(dest, exc) from exc

    async def delete(self, dest: str, message_id: str) -> None:
        """Remove an earlier message."""
        if parse_eph(dest) is not None:
            try:
                await self._ephemeral_call(dest, "deleteEphemeralMessage", message_id)
            except tg_error.BadRequest as exc:
                raise MessageGone(str(exc)) from exc
            except tg_error.TelegramError as exc:
                raise self._map(dest, exc) from exc
            return
        chat_id, _ = parse_dest(dest)
        try:
            await self._at(chat_id, lambda chat: self.bot.delete_message(chat, int(message_id)))
        except tg_error.BadRequest as exc:
            raise MessageGone(str(exc)) from exc
        except tg_error.TelegramError as exc:
            raise self._map(dest, exc) from exc

    # ------------------------------------------------------------------ groups that became supergroups

    #: Awaited with (old chat id, new chat id) when Telegram says a group became a supergroup (the
    #: application moves the chat's tables and settings: ``TableManager.move_chat``).
    on_migrated: Callable[[int, int], Awaitable[None]] | None = None

    @property
    def moved(self) -> dict[int, int]:
        """Groups that became supergroups: old id -> new id (what is still queued for the old id goes
        to the new one); the newest ``MAX_MOVED``."""
        table: dict[int, int] | None = self.__dict__.get("_moved")
        if table is None:
            table = self.__dict__["_moved"] = {}
        return table

    async def migrated(self, old: int, new: int) -> None:
        """Note that group ``old`` is now supergroup ``new`` and tell :attr:`on_migrated` (once per group)."""
        if self.moved.get(old) == new:
            return
        self.moved[old] = new
        while len(self.moved) > MAX_MOVED:
            del self.moved[next(iter(self.moved))]
        log.info("telegram: group %s became the supergroup %s; its tables move there", old, new)
        if self.on_migrated is not None:
            try:
                await self.on_migrated(old, new)
            except Exception:
                log.exception("moving the tables of group %s to %s failed", old, new)

    async def _at(self, chat_id: int, call: Callable[[int], Awaitable[T]]) -> T:
        """``call`` at the chat's current id; after ``ChatMigrated``, once more at the new one."""
        chat_id = self.moved.get(chat_id, chat_id)
        try:
            return await call(chat_id)
        except tg_error.ChatMigrated as exc:
            new = int(exc.new_chat_id)
            await self.migrated(chat_id, new)
            return await call(new)

    @staticmethod
    def _map(dest: str, exc: tg_error.TelegramError) -> Exception:
        if isinstance(exc, tg_error.Forbidden | tg_error.ChatMigrated):
            return Forbidden(dest)
        if isinstance(exc, tg_error.RetryAfter):
            return RetryAfter(retry_seconds(exc))
        log.info("telegram %s: %s", dest, exc)
        return TransientError(str(exc))
