"""What the Telegram handlers share: ids of people and chats, the services, languages, replies.

Replies go through the presenter's outbox, so they share each group's budget with the table.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from telegram import Message, Update, User
from telegram import error as tg_error
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from bot.i18n import T, resolve_lang, translator
from bot.outbox import NEW
from bot.render.message import OutMessage
from bot.telegram.transport import TelegramTransport, dm_dest, group_dest, player_id
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

class Base:
    """Helpers of the command and button handlers (languages, replies, admin checks)."""

    def __init__(self, services: Services) -> None:
        self.s = services

    # ------------------------------------------------------------------ languages and replies

    async def chat_t(self, chat_id: str, user: User | None) -> T:
        """The translator of a group (its stored language, else the user's hint)."""
        chat = await self.s.manager.chat_settings(chat_id)
        return translator(resolve_lang(chat.lang, user.language_code if user else None), chat.digits)

    async def person_t(self, user: User) -> T:
        """The translator of one person (their stored language, else Telegram's hint)."""
        record = await self.s.manager.player(person_of(user))  # cached by the manager's prefs
        return translator(resolve_lang(record.lang, user.language_code))

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
