"""What the Telegram handlers share: ids of people and chats, the services, languages, replies.

Replies go through the presenter's outbox, so they share each group's budget with the table.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from telegram import Message, Update, User
from telegram import error as tg_error
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from bot.adapters.telegram.transport import TelegramTransport, dm_dest, group_dest, parse_dest, player_id
from bot.adapters.throttle import CommandLimits, Cooldown, Verdict
from bot.core.cache import TTLCache
from bot.core.commands import Actor, Answers, R
from bot.core.lang import resolve_lang
from bot.core.model import Person, TableSnapshot
from bot.core.service import Service
from bot.present.i18n import T, translator
from bot.present.outbox import NEW
from bot.present.render.message import Button, OutMessage
from bot.present.season_notices import Standings

if TYPE_CHECKING:
    from bot.adapters.telegram.hands import GroupHands
    from bot.core.manager import TableManager
    from bot.present.tournament_notices import Brackets
    from storage.tournaments import Tournament

log = logging.getLogger(__name__)

ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})
GONE_STATUSES = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.BANNED})
GROUP_TYPES = frozenset({ChatType.GROUP, ChatType.SUPERGROUP})
#: The user Telegram shows for a group's anonymous admins (they post as the group: ``sender_chat``).
ANONYMOUS_ADMIN = 1087968824
#: Seconds a ``getChatMember`` answer about admin rights is used again: a confirmed admin for a
#: minute (a demotion takes at most that long to count), a refusal for ten seconds (a promotion
#: counts soon); one person's burst of commands, presses and forwarded ``begin``\ s asks once.
ADMIN_TTL = 60.0
NOT_ADMIN_TTL = 10.0
ADMIN_CACHE_SIZE = 4096


def join_payload(table_id: int, manager: TableManager) -> str:
    """The signed ``/start`` payload that invites a person to ``table_id`` (bot/core/links.py)."""
    return manager.links.join_payload(table_id)


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
    #: The hands shown in groups to their player only (Bot API 10.2), once the outbox exists.
    hands: GroupHands | None = None
    #: The address of a person's profile page on the web table (player id, league or None: every
    #: chat), when the web table runs (bot/adapters/web/profile.py).
    profile_link: Callable[[str, str | None], str | None] | None = None
    #: Each chat's standings message (bot/present/season_notices.py), once the outbox exists.
    standings: Standings | None = None
    #: Each chat's tournament message (bot/present/tournament_notices.py), once the outbox exists.
    brackets: Brackets | None = None
    #: The button to a tournament's web page, when the web table runs (bot/adapters/web/service.py).
    tournament_link: Callable[[Tournament, T], Button | None] | None = None
    #: Per-person limits (bot/core/settings.py), on the manager's clock.
    limits: CommandLimits = field(default_factory=CommandLimits)
    _service: Service | None = None
    _commands: Cooldown | None = None
    _presses: Cooldown | None = None
    _admins: tuple[TTLCache[str, bool], TTLCache[str, bool]] | None = None

    def admin_cache(self) -> tuple[TTLCache[str, bool], TTLCache[str, bool]]:
        """(confirmed admins, refused ones) by ``"<group> <user>"``, on the manager's clock."""
        if self._admins is None:
            clock = self.manager.clock.now
            self._admins = (TTLCache(ADMIN_CACHE_SIZE, ADMIN_TTL, clock),
                            TTLCache(ADMIN_CACHE_SIZE, NOT_ADMIN_TTL, clock))
        return self._admins

    @property
    def service(self) -> Service:
        """The one dispatch (bot/core/service.py) over the manager."""
        if self._service is None:
            self._service = Service(self.manager)
        return self._service

    def command_verdict(self, chat_id: str, player: str) -> Verdict:
        """Whether a command of ``player`` in ``chat_id`` may be served now (token bucket)."""
        if self._commands is None:
            self._commands = self.limits.commands(self.manager.clock)
        return self._commands.check(f"{chat_id} {player}")

    def press_verdict(self, player: str) -> Verdict:
        """Whether a button press of ``player`` may be served now (a flood cap)."""
        if self._presses is None:
            self._presses = self.limits.presses(self.manager.clock)
        return self._presses.check(player)

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
        """Whether the user administers the chat (``getChatMember``, its answer kept a short while)."""
        yes, no = self.s.admin_cache()
        key = f"{chat_id} {user_id}"
        if yes.get(key):
            return True
        if no.get(key) is not None:
            return False
        try:
            member = await context.bot.get_chat_member(chat_id, user_id)
        except tg_error.TelegramError:
            log.info("getChatMember %s %s failed", chat_id, user_id, exc_info=True)
            return False  # not kept: the next command asks again
        admin = member.status in ADMIN_STATUSES
        (yes if admin else no).put(key, admin)
        (no if admin else yes).discard(key)
        return admin

    def actor(self, context: ContextTypes.DEFAULT_TYPE, message: Message, user: User,
              event_id: str | None = None) -> Actor:
        """Who sent ``message`` and from where; a group's anonymous admin is its admin, not a player.

        ``event_id``: the callback query's id for a press; else the message is the event (so a
        command forwarded to another process is applied once however often it is retried)."""
        in_group = message.chat.type in GROUP_TYPES
        chat_id = chat_of(message) if in_group else dm_dest(user.id)
        group = message.chat.id
        anonymous = in_group and user.id == ANONYMOUS_ADMIN and message.sender_chat is not None \
            and message.sender_chat.id == group

        async def is_admin() -> bool:
            if not in_group:
                return False
            return anonymous or await self.is_admin(context, group, user.id)

        async def is_member(table_chat: str) -> bool | None:
            return await self.is_member(context, table_chat, user.id)

        event = event_id or f"tg:m:{message.chat.id}:{message.message_id}"
        return Actor(person_of(user), chat_id, is_admin, is_member, can_sit=not anonymous, event_id=event)

    async def is_member(self, context: ContextTypes.DEFAULT_TYPE, table_chat: str, user_id: int) -> bool | None:
        """Whether the user belongs to the table's group (``getChatMember``; None: cannot tell)."""
        try:
            member = await context.bot.get_chat_member(parse_dest(table_chat)[0], user_id)
        except (tg_error.TelegramError, ValueError):
            log.info("getChatMember %s %s failed", table_chat, user_id, exc_info=True)
            return None
        return member.status not in GONE_STATUSES

    async def dispatch(self, cmd: Answers[R], actor: Actor) -> R:
        """Run a command through the one dispatch; returns what the command answers."""
        return await self.s.service.dispatch(cmd, actor)

    def _where(self, update: Update) -> tuple[Message, User, str] | None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return None
        if message.chat.type in GROUP_TYPES:
            return message, user, chat_of(message)
        return message, user, dm_dest(user.id)
