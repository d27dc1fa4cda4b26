"""A fake Telegram Bot API server (aiohttp, 127.0.0.1) for driving the real python-telegram-bot.

The tests act as people: :meth:`FakeTelegram.say` posts a message as a user (with a
``bot_command`` entity when it starts with ``/``), :meth:`FakeTelegram.press` presses an inline
button and waits for the bot's ``answerCallbackQuery``. Everything the bot sends, edits or deletes
is recorded per chat (:attr:`FakeTelegram.chats`), with a timestamp from ``clock`` so a test can
check the per-chat budget (:meth:`FakeTelegram.max_ops_in_window`).

Behaviour copied from Telegram (see ``/work/shared/docs/testing.md``):

- ``getUpdates`` is a long poll held for its ``timeout``; parked polls are released on ``stop()``;
- requests are form data whose nested fields are JSON strings;
- unknown methods get 400 (a 404 would read as an invalid token);
- a private message to a user who never pressed Start (or who blocked the bot) gets 403
  ``Forbidden: bot can't initiate conversation with a user``;
- an edit that changes nothing gets 400 ``message is not modified``; an edit of a deleted message
  gets 400 ``message to edit not found``;
- :meth:`FakeTelegram.fail_next` makes the next requests for a chat fail with 429 ``retry_after``
  (or any other status);
- ephemeral messages in groups (Bot API 10.2, with 10.3's ``ephemeral_message_parameters``, disabled
  buttons and ``replace_callback_query_message``): see :class:`FakeEphemeral` and the section
  "ephemeral messages" below for who sees what and the errors;
- ``setWebhook`` / ``deleteWebhook`` are recorded (:attr:`FakeTelegram.webhook_calls`); while a webhook
  is set, ``getUpdates`` gets 409 Conflict and every update is POSTed to the webhook's URL as JSON,
  one at a time in order, with the ``X-Telegram-Bot-Api-Secret-Token`` header when a secret was
  given (retried while the address does not answer; each answer's status in
  :attr:`FakeTelegram.deliveries`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

TOKEN = "123:TEST"
BOT_ID = 123
BOT_USERNAME = "majlis_bot"

FORBIDDEN_START = "Forbidden: bot can't initiate conversation with a user"
FORBIDDEN_BLOCKED = "Forbidden: bot was blocked by the user"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
COUNTED_KINDS = frozenset({"send", "edit"})


class ApiError(Exception):
    """An error answer of the fake API."""

    def __init__(self, status: int, description: str, parameters: dict[str, Any] | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters


@dataclass
class FakeUser:
    """A person on the fake Telegram."""

    user_id: int
    first_name: str
    language_code: str = "en"
    username: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The Bot API ``User`` object."""
        d: dict[str, Any] = {"id": self.user_id, "is_bot": False, "first_name": self.first_name,
                             "language_code": self.language_code}
        if self.username:
            d["username"] = self.username
        return d


@dataclass
class FakeChat:
    """A group, supergroup (maybe a forum) or a private chat."""

    chat_id: int
    type: str
    title: str | None = None
    is_forum: bool = False
    admins: set[int] = field(default_factory=set)
    first_name: str | None = None
    members: set[int] | None = None  # None: everyone asked about is a member; else the others have "left"
    #: A forum's topics the bot created (``createForumTopic``): thread id -> name.
    topics: dict[int, str] = field(default_factory=dict)
    #: Whether the bot is an administrator with ``can_manage_topics`` (needed to create a topic).
    bot_manages_topics: bool = True

    def to_json(self) -> dict[str, Any]:
        """The Bot API ``Chat`` object."""
        d: dict[str, Any] = {"id": self.chat_id, "type": self.type}
        if self.title:
            d["title"] = self.title
        if self.first_name:
            d["first_name"] = self.first_name
        if self.is_forum:
            d["is_forum"] = True
        return d


@dataclass
class FakeMessage:
    """A message the bot sent (``from_bot``) or a person sent, with its edit history."""

    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None = None
    thread_id: int | None = None
    from_bot: bool = True
    notify: bool = True
    deleted: bool = False
    history: list[str] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)

    @property
    def mentioned(self) -> list[int]:
        """The ids of the people its ``text_mention`` entities mention (who Telegram notifies)."""
        return [int(e["user"]["id"]) for e in self.entities if e.get("type") == "text_mention"]

    def mention_texts(self) -> list[str]:
        """The text each ``text_mention`` covers (its UTF-16 offset and length, as the Bot API counts)."""
        units = self.text.encode("utf-16-le")
        return [units[2 * e["offset"]:2 * (e["offset"] + e["length"])].decode("utf-16-le")
                for e in self.entities if e.get("type") == "text_mention"]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button, row by row, flattened."""
        if not self.markup:
            return []
        return [b for row in self.markup.get("inline_keyboard", []) for b in row]

    def button(self, *, data_prefix: str | None = None, text: str | None = None,
               data: str | None = None) -> dict[str, Any]:
        """The first button whose callback data starts with ``data_prefix`` / has label ``text``."""
        for b in self.buttons:
            if data is not None and b.get("callback_data") == data:
                return b
            if data_prefix is not None and str(b.get("callback_data", "")).startswith(data_prefix):
                return b
            if text is not None and b.get("text") == text:
                return b
        raise LookupError(f"no button {data_prefix or text or data!r} in message {self.message_id}: "
                          f"{[b.get('text') for b in self.buttons]}")


@dataclass
class FakeEphemeral:
    """An ephemeral message (Bot API 10.2): shown in ``chat_id`` to ``receiver`` only, never in the
    chat's history. ``delivered`` is False when the fake dropped it (Telegram: "it is not guaranteed
    that the user will receive the message, especially if they are offline"): the bot got its id,
    the person never saw it, nor any edit of it."""

    chat_id: int
    receiver: int
    ephemeral_id: int
    text: str
    markup: dict[str, Any] | None = None
    thread_id: int | None = None
    delivered: bool = True
    deleted: bool = False
    history: list[str] = field(default_factory=list)
    #: The chat message this one is shown in place of, for its receiver (10.3's
    #: ``replace_callback_query_message``).
    replaces: int | None = None
    #: The callback query it answered, if any.
    query_id: str | None = None

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Every inline button, row by row, flattened (disabled ones included)."""
        if not self.markup:
            return []
        return [b for row in self.markup.get("inline_keyboard", []) for b in row]

    @property
    def visible(self) -> bool:
        """Whether its receiver sees it now."""
        return self.delivered and not self.deleted


@dataclass(frozen=True)
class Op:
    """One thing the bot did in a chat: ``kind`` is send, edit, delete, error or topic (created)."""

    kind: str
    chat_id: int
    message_id: int | None
    text: str
    at: float
    thread_id: int | None = None
    markup: dict[str, Any] | None = None


@dataclass(frozen=True)
class Answer:
    """The bot's ``answerCallbackQuery`` for one press."""

    query_id: str
    text: str | None
    show_alert: bool
    url: str | None
    at: float


@dataclass
class _Failure:
    status: int
    description: str
    retry_after: int | None
    methods: frozenset[str] | None
    count: int


def _param(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


ANONYMOUS_ADMIN = 1087968824


class FakeTelegram:
    """The fake Bot API server. ``async with FakeTelegram() as tg: ...`` or ``start()``/``stop()``."""

    def __init__(self, *, token: str = TOKEN, bot_username: str = BOT_USERNAME,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.token = token
        self.bot_username = bot_username
        self.clock = clock
        self.port = 0
        self.users: dict[int, FakeUser] = {}
        self.group_chats: dict[int, FakeChat] = {}
        self.started: set[int] = set()
        self.blocked: set[int] = set()
        self.messages: dict[int, dict[int, FakeMessage]] = defaultdict(dict)
        self.ops: dict[int, list[Op]] = defaultdict(list)
        self.answers: dict[str, Answer] = {}
        #: answers to a query already answered, refused as Telegram refuses them (a press delivered twice)
        self.late_answers: list[Answer] = []
        self.commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.calls: list[str] = []
        self.requests = 0
        self._updates: deque[dict[str, Any]] = deque()
        self._update_ids = itertools.count(1)
        self._message_ids: dict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1))
        self._query_ids = itertools.count(1)
        self._pending_answers: dict[str, asyncio.Future[Answer]] = {}
        self._failures: dict[int, list[_Failure]] = defaultdict(list)
        self.migrated: dict[int, int] = {}  # a basic group's id -> its supergroup's (ChatMigrated)
        self._changed = asyncio.Condition()
        self._closing = False
        self._runner: web.AppRunner | None = None
        #: ``(method, parameters)`` of every setWebhook / deleteWebhook, in order.
        self.webhook_calls: list[tuple[str, dict[str, Any]]] = []
        #: The webhook set (``url``, ``secret_token``...), None while the bot polls.
        self.webhook: dict[str, Any] | None = None
        #: ``(update_id, HTTP status)`` of every webhook delivery.
        self.deliveries: list[tuple[int, int]] = []
        self._outgoing: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._deliverer: asyncio.Task[None] | None = None
        #: Every ephemeral message by its id; what the bot did with them, in order (never counted in a
        #: chat's :attr:`ops`: they are not in the chat's history).
        self.ephemerals: dict[int, FakeEphemeral] = {}
        self.ephemeral_ops: list[Op] = []
        self._ephemeral_ids = itertools.count(1)
        self._drop: dict[int, int] = defaultdict(int)  # receiver -> ephemeral sends still to drop
        #: Callback queries by id: (presser, chat, ephemeral message id or None, chat message id or None).
        self.queries: dict[str, tuple[int, int, int | None, int | None]] = {}

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        """What to give ``ApplicationBuilder.base_url``."""
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        """What to give ``ApplicationBuilder.base_file_url``."""
        return f"http://127.0.0.1:{self.port}/file/bot"

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        """Release parked long polls and stop listening."""
        self._closing = True
        await self._notify()
        if self._deliverer is not None:
            self._deliverer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._deliverer
            self._deliverer = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await asyncio.sleep(0.01)  # let closed client and server transports finish closing

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ------------------------------------------------------------------ world set-up

    def add_user(self, user_id: int, first_name: str, language_code: str = "en", *,
                 started: bool = True) -> FakeUser:
        """A person; ``started``: they have pressed Start in the bot's private chat."""
        user = FakeUser(user_id, first_name, language_code)
        self.users[user_id] = user
        if started:
            self.started.add(user_id)
        return user

    def add_group(self, chat_id: int, title: str = "Majlis", *, forum: bool = False,
                  admins: Iterable[int] = ()) -> FakeChat:
        """A supergroup (a forum when ``forum``) whose administrators are ``admins``."""
        chat = FakeChat(chat_id, "supergroup", title, is_forum=forum, admins=set(admins))
        self.group_chats[chat_id] = chat
        return chat

    async def migrate(self, old: int, new: int, *, announce: bool = True) -> FakeChat:
        """The group ``old`` is upgraded to the supergroup ``new`` (Telegram's ``ChatMigrated``).

        From now on every request about ``old`` gets a 400 with ``migrate_to_chat_id``; the bot's
        old messages are not carried over. ``announce``: the service messages Telegram posts in both
        chats (``migrate_to_chat_id`` in the old one, ``migrate_from_chat_id`` in the new one).
        """
        before = self.group_chats[old]
        chat = self.add_group(new, before.title or "Majlis", admins=before.admins)
        self.migrated[old] = new
        if announce:
            for where, key, value in ((old, "migrate_to_chat_id", new), (new, "migrate_from_chat_id", old)):
                await self._push({"message": {
                    "message_id": next(self._message_ids[where]), "date": int(time.time()),
                    "chat": self._chat_json(where), "from": self.users[next(iter(before.admins))].to_json()
                    if before.admins else self._bot_json(), key: value}})
        return chat

    def block(self, user_id: int) -> None:
        """The user blocks the bot: private messages to them get 403 from now on."""
        self.blocked.add(user_id)

    def fail_next(self, chat_id: int, *, status: int = 429, retry_after: int | None = 1,
                  count: int = 1, methods: Iterable[str] | None = None,
                  description: str | None = None) -> None:
        """The next ``count`` requests about ``chat_id`` (of ``methods``, default all) fail."""
        if description is None:
            description = (f"Too Many Requests: retry after {retry_after}" if status == 429
                           else "Internal Server Error")
        self._failures[chat_id].append(_Failure(
            status, description, retry_after if status == 429 else None,
            frozenset(methods) if methods is not None else None, count))

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """Someone (an admin) deletes a message of the bot."""
        self.messages[chat_id][message_id].deleted = True

    # ------------------------------------------------------------------ acting as people

    def _chat_json(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.group_chats:
            return self.group_chats[chat_id].to_json()
        user = self.users.get(chat_id)
        return FakeChat(chat_id, "private", first_name=user.first_name if user else "?").to_json()

    async def _push(self, update: dict[str, Any]) -> None:
        update["update_id"] = next(self._update_ids)
        if self.webhook is not None:
            self._outgoing.put_nowait(update)
            if self._deliverer is None:
                self._deliverer = asyncio.ensure_future(self._deliver())
        else:
            self._updates.append(update)
        await self._notify()

    async def _deliver(self) -> None:
        """POST each update to the webhook, in order (Telegram's side of a webhook)."""
        async with aiohttp.ClientSession() as session:
            while True:
                update = await self._outgoing.get()
                for _ in range(300):  # the bot may not listen yet: retry for a while, as Telegram does
                    hook = self.webhook
                    if hook is None:  # deleted meanwhile: back to getUpdates
                        self._updates.append(update)
                        break
                    secret = hook.get("secret_token")
                    headers = {"X-Telegram-Bot-Api-Secret-Token": str(secret)} if secret else {}
                    try:
                        async with session.post(str(hook["url"]), json=update, headers=headers) as r:
                            self.deliveries.append((update["update_id"], r.status))
                            break
                    except aiohttp.ClientError:
                        await asyncio.sleep(0.1)
                await self._notify()

    async def say(self, user: FakeUser, chat_id: int, text: str, *, thread_id: int | None = None,
                  as_group: bool = False) -> int:
        """``user`` posts ``text`` in ``chat_id`` (their own id: the private chat). Returns its id.

        A text starting with ``/`` carries a ``bot_command`` entity, as Telegram adds it. A message in
        the private chat counts as having pressed Start.
        """
        if chat_id == user.user_id:
            self.started.add(user.user_id)
            self.blocked.discard(user.user_id)
        message_id = next(self._message_ids[chat_id])
        msg: dict[str, Any] = {"message_id": message_id, "date": int(time.time()),
                               "chat": self._chat_json(chat_id), "from": user.to_json(), "text": text}
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        if thread_id is not None:
            msg["message_thread_id"] = thread_id
            msg["is_topic_message"] = True
        if as_group:  # an anonymous admin: Telegram shows GroupAnonymousBot and the group as sender
            msg["from"] = {"id": ANONYMOUS_ADMIN, "is_bot": True, "first_name": "Group",
                           "username": "GroupAnonymousBot"}
            msg["sender_chat"] = self._chat_json(chat_id)
        self.messages[chat_id][message_id] = FakeMessage(chat_id, message_id, text, thread_id=thread_id,
                                                         from_bot=False)
        await self._push({"message": msg})
        return message_id

    async def start_bot(self, user: FakeUser, payload: str | None = None) -> int:
        """``user`` opens the bot's private chat (maybe from a deep link) and presses Start."""
        return await self.say(user, user.user_id, "/start" + (f" {payload}" if payload else ""))

    async def press(self, user: FakeUser, message: FakeMessage, data: str, *,
                    timeout: float = 10.0) -> Answer:
        """``user`` presses the button with callback ``data`` on ``message``; waits for the answer."""
        query_id = str(next(self._query_ids))
        fut: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._pending_answers[query_id] = fut
        msg: dict[str, Any] = {"message_id": message.message_id, "date": int(time.time()),
                               "chat": self._chat_json(message.chat_id),
                               "from": self._bot_json(), "text": message.text}
        if message.markup:
            msg["reply_markup"] = message.markup
        if message.thread_id is not None:
            msg["message_thread_id"] = message.thread_id
            msg["is_topic_message"] = True
        self.queries[query_id] = (user.user_id, message.chat_id, None, message.message_id)
        await self._push({"callback_query": {
            "id": query_id, "from": user.to_json(), "chat_instance": str(message.chat_id),
            "message": msg, "data": data}})
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._pending_answers.pop(query_id, None)

    # ------------------------------------------------------------------ ephemeral messages
    #
    # Modelled on the Bot API 10.2/10.3 documentation (aiogram 3.31's and the Bot API changelog's
    # text): sendMessage with ``ephemeral_message_parameters`` {receiver_user_id, callback_query_id?,
    # replace_callback_query_message?} (10.2's top-level receiver_user_id / callback_query_id are
    # accepted too) returns a Message carrying ``ephemeral_message_id`` and ``receiver_user``;
    # editEphemeralMessageText / editEphemeralMessageReplyMarkup / deleteEphemeralMessage take
    # chat_id, receiver_user_id, ephemeral_message_id and return True. What the documentation does
    # not say is modelled as follows (and said so in docs/configuration.md): the Message of an
    # ephemeral message has ``message_id`` 0; the error texts below; only group members may receive
    # one; a drop (``drop_ephemeral``) answers as a success.

    def drop_ephemeral(self, user_id: int, count: int = 1) -> None:
        """The next ``count`` ephemeral messages for ``user_id`` are not delivered (they are offline)."""
        self._drop[user_id] += count

    def visible_ephemerals(self, user_id: int, chat_id: int | None = None) -> list[FakeEphemeral]:
        """The ephemeral messages ``user_id`` sees now (in ``chat_id``), oldest first: only their own."""
        return [e for e in self.ephemerals.values() if e.receiver == user_id and e.visible
                and (chat_id is None or e.chat_id == chat_id)]

    def seen_by(self, user_id: int, chat_id: int) -> list[str]:
        """Every text ``user_id`` has seen in the group ``chat_id``: the chat's messages and edits, and
        what of their own ephemeral messages reached them."""
        seen = [op.text for op in self.ops[chat_id] if op.kind in COUNTED_KINDS]
        for e in self.ephemerals.values():
            if e.chat_id == chat_id and e.receiver == user_id and e.delivered:
                seen += e.history
        return seen

    async def press_ephemeral(self, user: FakeUser, message: FakeEphemeral, data: str, *,
                              timeout: float = 10.0) -> Answer:
        """``user`` presses the button with callback ``data`` on an ephemeral message. Only its receiver
        sees it, so anyone else pressing is a bug of the test (LookupError), as is pressing a button that
        is not there or is disabled (Telegram's clients do nothing on a disabled button)."""
        if message.receiver != user.user_id or not message.visible:
            raise LookupError(f"{user.first_name} cannot see ephemeral message {message.ephemeral_id}")
        if not any(b.get("callback_data") == data and "disabled" not in b for b in message.buttons):
            raise LookupError(f"no enabled button {data!r} on ephemeral message {message.ephemeral_id}")
        query_id = str(next(self._query_ids))
        fut: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._pending_answers[query_id] = fut
        self.queries[query_id] = (user.user_id, message.chat_id, message.ephemeral_id, None)
        await self._push({"callback_query": {
            "id": query_id, "from": user.to_json(), "chat_instance": str(message.chat_id),
            "message": self._ephemeral_json(message), "data": data}})
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._pending_answers.pop(query_id, None)

    def _ephemeral_json(self, e: FakeEphemeral) -> dict[str, Any]:
        receiver = self.users.get(e.receiver)
        d: dict[str, Any] = {"message_id": 0, "ephemeral_message_id": e.ephemeral_id, "date": int(time.time()),
                             "chat": self._chat_json(e.chat_id), "from": self._bot_json(), "text": e.text,
                             "receiver_user": receiver.to_json() if receiver else {"id": e.receiver, "is_bot": False,
                                                                                  "first_name": "?"}}
        if e.markup:
            d["reply_markup"] = e.markup
        if e.thread_id is not None:
            d["message_thread_id"] = e.thread_id
            d["is_topic_message"] = True
        return d

    def _send_ephemeral(self, chat_id: int, p: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
        chat = self.group_chats.get(chat_id)
        if chat is None:
            raise ApiError(400, "Bad Request: ephemeral messages can be sent only to groups")
        try:
            receiver = int(params["receiver_user_id"])
        except (KeyError, TypeError, ValueError):
            raise ApiError(400, "Bad Request: receiver_user_id is required") from None
        if receiver not in self.users or (chat.members is not None and receiver not in chat.members):
            raise ApiError(400, "Bad Request: the receiver is not a member of the chat")
        query_id = params.get("callback_query_id")
        replaces = None
        if query_id is not None:
            query = self.queries.get(str(query_id))
            if query is None or query[0] != receiver or query[1] != chat_id:
                raise ApiError(400, "Bad Request: query is too old and response timeout expired or query id "
                                    "is invalid")
            if params.get("replace_callback_query_message"):
                if query[2] is not None:
                    raise ApiError(400, "Bad Request: replace_callback_query_message must be False for callback "
                                        "queries from ephemeral messages")
                replaces = query[3]  # its receiver sees this one in place of the pressed message
        elif params.get("replace_callback_query_message"):
            raise ApiError(400, "Bad Request: replace_callback_query_message needs callback_query_id")
        text = str(p.get("text", ""))
        if not text:
            raise ApiError(400, "Bad Request: message text is empty")
        markup = p.get("reply_markup") or None
        self._check_markup(markup, chat_id)
        thread_id = int(p["message_thread_id"]) if p.get("message_thread_id") else None
        delivered = self._drop[receiver] <= 0
        if not delivered:
            self._drop[receiver] -= 1
        e = FakeEphemeral(chat_id, receiver, next(self._ephemeral_ids), text, markup, thread_id,
                          delivered=delivered, history=[text], query_id=str(query_id) if query_id else None,
                          replaces=replaces)
        self.ephemerals[e.ephemeral_id] = e
        self.ephemeral_ops.append(Op("send", chat_id, e.ephemeral_id, text, self.clock(), thread_id, markup))
        return self._ephemeral_json(e)

    def _ephemeral(self, chat_id: int, p: dict[str, Any], missing: str) -> FakeEphemeral:
        try:
            e = self.ephemerals.get(int(p["ephemeral_message_id"]))
            receiver = int(p["receiver_user_id"])
        except (KeyError, TypeError, ValueError):
            raise ApiError(400, "Bad Request: receiver_user_id and ephemeral_message_id are required") from None
        if e is None or e.deleted or e.chat_id != chat_id or e.receiver != receiver:
            raise ApiError(400, missing)
        return e

    def _edit_ephemeral(self, chat_id: int, method: str, p: dict[str, Any]) -> bool:
        e = self._ephemeral(chat_id, p, EDIT_NOT_FOUND)
        text = str(p["text"]) if method == "editephemeralmessagetext" else e.text
        markup = p.get("reply_markup") or None
        self._check_markup(markup, chat_id)
        if text == e.text and markup == e.markup:
            raise ApiError(400, NOT_MODIFIED)
        e.text, e.markup = text, markup
        e.history.append(text)
        self.ephemeral_ops.append(Op("edit", chat_id, e.ephemeral_id, text, self.clock(), e.thread_id, markup))
        return True

    def _delete_ephemeral(self, chat_id: int, p: dict[str, Any]) -> bool:
        e = self._ephemeral(chat_id, p, DELETE_NOT_FOUND)
        e.deleted = True
        self.ephemeral_ops.append(Op("delete", chat_id, e.ephemeral_id, e.text, self.clock(), e.thread_id))
        return True

    # ------------------------------------------------------------------ reading what the bot did

    def bot_messages(self, chat_id: int, *, thread_id: int | None = None,
                     include_deleted: bool = False) -> list[FakeMessage]:
        """The bot's messages in a chat, oldest first."""
        return [m for m in self.messages[chat_id].values()
                if m.from_bot and (include_deleted or not m.deleted)
                and (thread_id is None or m.thread_id == thread_id)]

    def last_bot_message(self, chat_id: int, predicate: Callable[[FakeMessage], bool] | None = None
                         ) -> FakeMessage | None:
        """The newest live bot message in ``chat_id`` that satisfies ``predicate``."""
        for m in reversed(self.bot_messages(chat_id)):
            if predicate is None or predicate(m):
                return m
        return None

    def texts(self, chat_id: int) -> list[str]:
        """Every text the chat received from the bot (sends and edits), in order."""
        return [op.text for op in self.ops[chat_id] if op.kind in COUNTED_KINDS]

    def max_ops_in_window(self, chat_id: int, window: float = 60.0) -> int:
        """The most sends+edits the chat got in any ``window`` seconds of ``clock``."""
        times = sorted(op.at for op in self.ops[chat_id] if op.kind in COUNTED_KINDS)
        best, lo = 0, 0
        for hi, t in enumerate(times):
            while times[lo] <= t - window:
                lo += 1
            best = max(best, hi - lo + 1)
        return best

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0, poll: float = 0.02) -> Any:
        """Wait until ``predicate()`` is truthy; returns its value.

        Checked after every request, and every ``poll`` seconds for what the bot does after a response
        (storing a message id, say)."""
        async def _wait() -> Any:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), poll)
        return await asyncio.wait_for(_wait(), timeout)

    # ------------------------------------------------------------------ the API

    def _bot_json(self) -> dict[str, Any]:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Majlis", "username": self.bot_username}

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"},
                                     status=401)
        method = request.match_info["method"]
        raw = await request.post() if request.can_read_body else {}
        params = {k: _param(v) for k, v in raw.items() if isinstance(v, str)}
        self.calls.append(method)
        self.requests += 1
        try:
            result = await self._dispatch(method.lower(), params)
        except ApiError as exc:
            body: dict[str, Any] = {"ok": False, "error_code": exc.status, "description": exc.description}
            if exc.parameters:
                body["parameters"] = exc.parameters
            response = web.json_response(body, status=exc.status)
        else:
            response = web.json_response({"ok": True, "result": result})
        if method.lower() != "getupdates":
            await self._notify()
        else:
            # A long poll that PTB cancels on stop leaves its connection orphaned; closing every poll's
            # connection after the answer lets the client side close its socket too.
            response.force_close()
        return response

    async def _dispatch(self, method: str, p: dict[str, Any]) -> Any:
        if method == "getupdates":
            if self.webhook is not None:
                raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                    "use deleteWebhook to delete the webhook first")
            return await self._get_updates(p)
        if method == "getme":
            return {**self._bot_json(), "can_join_groups": True, "can_read_all_group_messages": False,
                    "supports_inline_queries": False}
        if method == "setwebhook":
            self.webhook_calls.append((method, dict(p)))
            if p.get("url"):
                self.webhook = dict(p)
                if not self._outgoing.empty() and self._deliverer is None:
                    self._deliverer = asyncio.ensure_future(self._deliver())
            else:
                self.webhook = None
            return True
        if method == "deletewebhook":
            self.webhook_calls.append((method, dict(p)))
            self.webhook = None
            return True
        if method in ("close", "logout", "setchatmenubutton"):
            return True
        if method == "setmycommands":
            scope = p.get("scope") or {"type": "default"}
            key = (json.dumps(scope, sort_keys=True), str(p.get("language_code", "")))
            self.commands[key] = p["commands"]
            return True
        if method == "getchatmember":
            return self._chat_member(int(p["chat_id"]), int(p["user_id"]))
        if method == "answercallbackquery":
            return self._answer(p)
        chat_id = int(p["chat_id"]) if "chat_id" in p else None
        if chat_id is not None and chat_id in self.migrated:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": self.migrated[chat_id]})
        if chat_id is not None:
            self._check_failure(chat_id, method)
        if method == "sendmessage":
            assert chat_id is not None
            params = p.get("ephemeral_message_parameters")
            if params is None and "receiver_user_id" in p:  # 10.2's form, before the 10.3 object
                params = {k: p[k] for k in ("receiver_user_id", "callback_query_id") if k in p}
            if params is not None:
                if not isinstance(params, dict):
                    raise ApiError(400, "Bad Request: can't parse ephemeral message parameters")
                return self._send_ephemeral(chat_id, p, params)
            return self._send(chat_id, p)
        if method in ("editephemeralmessagetext", "editephemeralmessagereplymarkup"):
            assert chat_id is not None
            return self._edit_ephemeral(chat_id, method, p)
        if method == "deleteephemeralmessage":
            assert chat_id is not None
            return self._delete_ephemeral(chat_id, p)
        if method in ("editmessagetext", "editmessagereplymarkup"):
            assert chat_id is not None
            return self._edit(chat_id, method, p)
        if method == "deletemessage":
            assert chat_id is not None
            return self._delete(chat_id, int(p["message_id"]))
        if method == "createforumtopic":
            assert chat_id is not None
            return self._create_topic(chat_id, p)
        raise ApiError(400, f"Bad Request: method {method} is not implemented by the fake")

    async def _get_updates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(p.get("offset") or 0)
        while self._updates and self._updates[0]["update_id"] < offset:
            self._updates.popleft()
        timeout = float(p.get("timeout") or 0)
        limit = int(p.get("limit") or 100)
        if not self._updates and timeout > 0 and not self._closing:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: bool(self._updates) or self._closing), timeout)
        return list(itertools.islice(self._updates, limit))

    def _chat_member(self, chat_id: int, user_id: int) -> dict[str, Any]:
        user = self.users.get(user_id)
        user_json = user.to_json() if user else {"id": user_id, "is_bot": False, "first_name": "?"}
        chat = self.group_chats.get(chat_id)
        if chat is not None and user_id in chat.admins:
            return {"status": "creator", "user": user_json, "is_anonymous": False}
        if chat is not None and chat.members is not None and user_id not in chat.members:
            return {"status": "left", "user": user_json}
        return {"status": "member", "user": user_json}

    def _answer(self, p: dict[str, Any]) -> bool:
        query_id = str(p["callback_query_id"])
        answer = Answer(query_id, p.get("text"), bool(p.get("show_alert", False)), p.get("url"), self.clock())
        if query_id in self.answers:
            self.late_answers.append(answer)
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query id "
                                "is invalid")
        self.answers[query_id] = answer
        fut = self._pending_answers.get(query_id)
        if fut is not None and not fut.done():
            fut.set_result(answer)
        return True

    def _check_failure(self, chat_id: int, method: str) -> None:
        queue = self._failures.get(chat_id)
        if not queue:
            return
        failure = queue[0]
        if failure.methods is not None and method not in failure.methods:
            return
        failure.count -= 1
        if failure.count <= 0:
            queue.pop(0)
        self.ops[chat_id].append(Op("error", chat_id, None, str(failure.status), self.clock()))
        params = {"retry_after": failure.retry_after} if failure.retry_after is not None else None
        raise ApiError(failure.status, failure.description, params)

    def _check_private(self, chat_id: int) -> None:
        if chat_id > 0 and chat_id in self.blocked:
            raise ApiError(403, FORBIDDEN_BLOCKED)
        if chat_id > 0 and chat_id not in self.started:
            raise ApiError(403, FORBIDDEN_START)
        if chat_id < 0 and chat_id not in self.group_chats:
            raise ApiError(400, "Bad Request: chat not found")

    def _message_json(self, m: FakeMessage) -> dict[str, Any]:
        d: dict[str, Any] = {"message_id": m.message_id, "date": int(time.time()),
                             "chat": self._chat_json(m.chat_id), "from": self._bot_json(), "text": m.text}
        if m.markup:
            d["reply_markup"] = m.markup
        if m.entities:
            d["entities"] = m.entities
        if m.thread_id is not None:
            d["message_thread_id"] = m.thread_id
            d["is_topic_message"] = True
        return d

    def _create_topic(self, chat_id: int, p: dict[str, Any]) -> dict[str, Any]:
        """``createForumTopic``: in a forum supergroup whose administrators include the bot with
        ``can_manage_topics``; a ``name`` of 1 to 128 characters; returns the ``ForumTopic`` (its
        ``message_thread_id`` is the id of the service message that opens it, as on Telegram)."""
        chat = self.group_chats.get(chat_id)
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if not chat.is_forum:
            raise ApiError(400, "Bad Request: the chat is not a forum")
        if not chat.bot_manages_topics:
            raise ApiError(400, "Bad Request: not enough rights to create a topic")
        name = str(p.get("name") or "")
        if not 1 <= len(name) <= 128:
            raise ApiError(400, "Bad Request: TOPIC_TITLE_EMPTY" if not name else "Bad Request: TOPIC_TITLE_INVALID")
        thread_id = next(self._message_ids[chat_id])  # the topic's opening service message
        chat.topics[thread_id] = name
        self.ops[chat_id].append(Op("topic", chat_id, thread_id, name, self.clock(), thread_id, None))
        return {"message_thread_id": thread_id, "name": name, "icon_color": int(p.get("icon_color") or 7322096)}

    def _send(self, chat_id: int, p: dict[str, Any]) -> dict[str, Any]:
        self._check_private(chat_id)
        text = str(p.get("text", ""))
        if not text:
            raise ApiError(400, "Bad Request: message text is empty")
        thread_id = int(p["message_thread_id"]) if p.get("message_thread_id") else None
        markup = p.get("reply_markup") or None
        self._check_markup(markup, chat_id)
        entities = self._check_entities(p.get("entities"), text)
        m = FakeMessage(chat_id, next(self._message_ids[chat_id]), text, markup, thread_id,
                        notify=not p.get("disable_notification", False), history=[text], entities=entities)
        self.messages[chat_id][m.message_id] = m
        self.ops[chat_id].append(Op("send", chat_id, m.message_id, text, self.clock(), thread_id, markup))
        return self._message_json(m)

    @staticmethod
    def _check_entities(raw: Any, text: str) -> list[dict[str, Any]]:
        """``entities`` of a sendMessage as Telegram checks them: a list, each inside the text in UTF-16
        code units; a ``text_mention`` names a user by id."""
        if raw in (None, ""):
            return []
        if not isinstance(raw, list):
            raise ApiError(400, "Bad Request: can't parse entities")
        size = len(text.encode("utf-16-le")) // 2
        for e in raw:
            offset, length = e.get("offset"), e.get("length")
            if not isinstance(offset, int) or not isinstance(length, int) or offset < 0 or length <= 0 \
                    or offset + length > size:
                raise ApiError(400, "Bad Request: can't parse entities: entity beyond the end of the text")
            if e.get("type") == "text_mention" and not isinstance((e.get("user") or {}).get("id"), int):
                raise ApiError(400, "Bad Request: can't parse entities: text_mention without a user")
        return list(raw)

    def _check_markup(self, markup: dict[str, Any] | None, chat_id: int = 0) -> None:
        for row in (markup or {}).get("inline_keyboard", []):
            for b in row:
                kinds = set(b) - {"text", "icon_custom_emoji_id", "style"}
                if len(kinds) != 1:  # "exactly one of the fields other than text, ..." (10.3: disabled)
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                if "disabled" in b and b["disabled"] != {}:
                    raise ApiError(400, "Bad Request: can't parse DisabledButton")
                if "web_app" in b:  # Mini App buttons: private chats only, https only (as Telegram)
                    if chat_id < 0:
                        raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                    if not str(b["web_app"].get("url", "")).startswith("https://"):
                        raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
                if "callback_data" in b and len(str(b["callback_data"]).encode()) > 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                if not b.get("text"):
                    raise ApiError(400, "Bad Request: text buttons are unallowed in the inline keyboard")

    def _edit(self, chat_id: int, method: str, p: dict[str, Any]) -> dict[str, Any]:
        m = self.messages[chat_id].get(int(p["message_id"]))
        if m is None or m.deleted or not m.from_bot:
            raise ApiError(400, EDIT_NOT_FOUND)
        text = str(p["text"]) if method == "editmessagetext" else m.text
        markup = p.get("reply_markup") or None
        self._check_markup(markup, chat_id)
        if text == m.text and markup == m.markup:
            raise ApiError(400, NOT_MODIFIED)
        m.text, m.markup = text, markup
        m.history.append(text)
        self.ops[chat_id].append(Op("edit", chat_id, m.message_id, text, self.clock(), m.thread_id, markup))
        return self._message_json(m)

    def _delete(self, chat_id: int, message_id: int) -> bool:
        m = self.messages[chat_id].get(message_id)
        if m is None or m.deleted:
            raise ApiError(400, DELETE_NOT_FOUND)
        m.deleted = True
        self.ops[chat_id].append(Op("delete", chat_id, message_id, m.text, self.clock(), m.thread_id))
        return True
