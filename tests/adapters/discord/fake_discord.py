"""A fake Discord REST API and gateway on 127.0.0.1 (aiohttp) that the real discord.py talks to.

It enforces what Discord enforces and the adapter must respect (the 3 s first-response deadline,
one response per interaction, component limits, closed DMs) and it records everything the bot
sent, so that tests can act as people and read back what each of them could see::

    fake = FakeDiscord()
    await fake.start()
    alice = fake.add_member("Alice")
    with fake.patched():                     # Route.BASE and DEFAULT_GATEWAY point here
        client = build_client(...)
        ...
        ix = await fake.slash(alice, fake.channel_id, "join")
        await ix.answered()
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import secrets
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

JSON = "application/json"
JOINED = "2026-01-01T00:00:00+00:00"
EPHEMERAL = 64
DEADLINE = 3.0
TOKEN_LIFE = 15 * 60.0
#: Permission bits.
ADMINISTRATOR, MANAGE_GUILD = 1 << 3, 1 << 5
PUBLIC_THREAD, PRIVATE_THREAD = 11, 12  # channel types
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31)  # view channel, send messages, use app commands
#: Interaction callback type 12: open the application's Activity for the person who pressed.
LAUNCH_ACTIVITY = 12
#: Application command type 4: the Entry Point command Discord makes when Activities are switched on.
PRIMARY_ENTRY_POINT = 4
#: How many emojis an application may own.
APP_EMOJI_LIMIT = 2000
#: How long an OAuth2 authorization code may be exchanged (Discord: about ten minutes).
CODE_LIFE = 10 * 60.0


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response with ``Content-Type: application/json`` exactly (no charset)."""
    resp = web.Response(body=json.dumps(data).encode(), status=status, headers=headers)
    resp.headers["Content-Type"] = JSON
    return resp


def _error(status: int, code: int, message: str, headers: dict[str, str] | None = None) -> web.Response:
    return _json({"message": message, "code": code}, status, headers)


@dataclass
class Sent:
    """One thing the bot made visible: a message, an edit, or an ephemeral response.

    ``channel_id`` is where it shows; ``user_id`` is the only person who may see it (DMs and
    ephemeral messages), None for a channel message that everyone in the channel sees.
    """

    kind: str  # "message" | "edit" | "ephemeral" | "ephemeral_edit" | "delete"
    channel_id: int
    user_id: int | None
    message_id: int
    content: str
    components: list[dict[str, Any]]
    at: float
    via: str  # "channel" | "interaction"


def pinged(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """Whom Discord notifies of the ``<@id>`` mentions of ``content`` under ``allowed_mentions``
    (absent: every mentioned user; ``parse`` without "users": only those in its ``users`` list)."""
    mentioned = [int(m) for m in re.findall(r"<@!?(\d+)>", content)]
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in listed]


@dataclass
class Message:
    """A message as the fake stores it."""

    id: int
    channel_id: int
    content: str
    components: list[dict[str, Any]]
    flags: int = 0
    only_for: int | None = None  # the one user who sees an ephemeral message
    interaction_id: int | None = None
    deleted: bool = False
    pinged: list[int] = field(default_factory=list)  # who Discord notifies of a mention in it

    def custom_ids(self) -> list[str]:
        """Every enabled button's custom id and every select option's value, in order."""
        out: list[str] = []
        for row in self.components:
            for c in row.get("components", []):
                if c.get("type") == 2 and not c.get("disabled") and c.get("custom_id"):
                    out.append(c["custom_id"])
                elif c.get("type") == 3 and not c.get("disabled"):
                    out.extend(f"{c['custom_id']}|{o['value']}" for o in c.get("options", []))
        return out

    def labels(self) -> list[str]:
        """Every button label and select option label."""
        out: list[str] = []
        for row in self.components:
            for c in row.get("components", []):
                if c.get("label"):
                    out.append(c["label"])
                for o in c.get("options", []):
                    out.append(o.get("label", ""))
        return out


@dataclass
class Interaction:
    """An interaction that a simulated member started, and what the bot answered."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    created: float
    message_id: int | None = None  # the clicked message
    response_type: int | None = None
    responded_at: float | None = None
    original_id: int | None = None
    ephemeral: bool = False
    followups: list[int] = field(default_factory=list)
    instance_id: str | None = None  # the Activity instance a LAUNCH_ACTIVITY response opened
    edits: int = 0
    errors: list[int] = field(default_factory=list)  # Discord error codes the bot provoked
    event: asyncio.Event = field(default_factory=asyncio.Event)

    async def answered(self, timeout: float = 10.0) -> Interaction:
        """Wait until the bot has shown the person something (a message, an edit, or a defer-update)."""
        await asyncio.wait_for(self.event.wait(), timeout)
        return self

    @property
    def latency(self) -> float | None:
        """Seconds from the click to the first response."""
        return None if self.responded_at is None else self.responded_at - self.created


class FakeDiscord:
    """The fake server: one guild with text channels and members, REST and gateway."""

    def __init__(self, *, guilds: int = 1, channels: int = 1, shards: int = 1, activities: bool = False) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.app_id = self.bot_id = self._id()
        #: The application's OAuth2 secret and the bot token it accepts (``Authorization: Bot ...``).
        self.client_secret = "fake-secret-" + secrets.token_urlsafe(16)
        self.bot_token = "fake-token"
        #: Activities switched on in the Developer Portal: LAUNCH_ACTIVITY works, and the Entry
        #: Point command exists (a bulk overwrite must keep it: error 50240).
        self.activities = activities
        self.codes: dict[str, tuple[int, float, list[str]]] = {}  # code -> (user, issued at, scopes)
        self.used_codes: set[str] = set()
        self.exchanges: list[str] = []  # every code presented to /oauth2/token, in order
        self.access_tokens: dict[str, tuple[int, list[str]]] = {}  # access token -> (user, scopes)
        self.instances: dict[str, dict[str, Any]] = {}  # activity instance id -> location and users
        self.app_emojis: dict[int, dict[str, Any]] = {}  # the application's own emojis, by id
        self.emoji_images: dict[int, bytes] = {}
        self.shards = shards
        self.guilds: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.members: dict[int, dict[int, dict[str, Any]]] = {}  # guild -> user -> member
        self.dm_closed: set[int] = set()
        #: Channels where the bot lacks Create Public Threads (starting one there answers 403 50013).
        self.no_threads: set[int] = set()
        self.threads: list[int] = []  # the threads the bot started, in order
        self.dm_channels: dict[int, int] = {}  # user -> DM channel
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.log: list[Sent] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.requests: list[tuple[str, str]] = []
        self.violations: list[str] = []  # things Discord would have refused, with why
        self.budget_hits: dict[int, deque[float]] = defaultdict(deque)
        self.max_in_window: dict[int, int] = defaultdict(int)
        self.inject: list[tuple[str, str, int, float]] = []  # (method, path part, status, retry_after)
        self.changed = asyncio.Condition()
        self._sockets: list[tuple[web.WebSocketResponse, int, int]] = []
        self._seq = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self._server: Any = None  # the listening asyncio server, closed first
        self.port = 0
        self.clock_offset = 0.0  # tests may age every token by moving the fake's clock
        for g in range(guilds):
            # Spread guilds over shards: a guild's shard is (id >> 22) % shards, as on Discord.
            gid = (self.app_id >> 22 << 22) + ((g + 1) << 22)
            self.guilds[gid] = {"id": gid, "name": f"Majlis {g}", "owner_id": self.bot_id}
            self.members[gid] = {}
            for c in range(channels):
                self.add_channel(f"table-{g}-{c}", gid)
        self.guild_id = next(iter(self.guilds))
        self.channel_id = next(cid for cid, c in self.channels.items() if c["guild_id"] == self.guild_id)
        self.bot_user = {"id": str(self.bot_id), "username": "majlis", "discriminator": "0", "avatar": None,
                         "global_name": "Majlis", "bot": True}
        if activities:
            self.commands[None] = [self._entry_point()]

    def _entry_point(self) -> dict[str, Any]:
        """The default Entry Point command ("Launch"), handled by Discord (handler 2)."""
        return {"id": str(self._id()), "application_id": str(self.app_id), "version": "1", "type": PRIMARY_ENTRY_POINT,
                "name": "launch", "description": "", "handler": 2, "integration_types": [0, 1],
                "contexts": [0, 1, 2]}

    def _id(self) -> int:
        return next(self._ids)

    def now(self) -> float:
        """The fake's clock (monotonic seconds, plus ``clock_offset``)."""
        return time.monotonic() + self.clock_offset

    # ---- world building ----

    def add_channel(self, name: str, guild_id: int | None = None) -> int:
        """A guild text channel."""
        gid = guild_id or self.guild_id
        cid = self._id()
        self.channels[cid] = {"id": str(cid), "type": 0, "name": name, "position": len(self.channels),
                              "permission_overwrites": [], "guild_id": gid, "nsfw": False}
        return cid

    def add_member(self, name: str, *, manage_guild: bool = False, dm_open: bool = True,
                   locale: str = "en-US", guild_id: int | None = None) -> int:
        """A person in the guild (every guild when ``guild_id`` is None); returns the user id."""
        uid = self._id()
        self.users[uid] = {"id": str(uid), "username": name.lower(), "discriminator": "0", "avatar": None,
                           "global_name": name, "locale": locale}
        perms = MEMBER_PERMS | (MANAGE_GUILD if manage_guild else 0)
        for gid in [guild_id] if guild_id else list(self.guilds):
            self.members[gid][uid] = {"user": self.users[uid], "roles": [], "joined_at": JOINED,
                                      "deaf": False, "mute": False, "nick": None,
                                      "permissions": str(perms), "flags": 0}
        if not dm_open:
            self.dm_closed.add(uid)
        return uid

    # ---- life cycle ----

    async def start(self) -> None:
        """Listen on 127.0.0.1 at a free port."""
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get("/", self._gateway)
        api = "/api/v10"
        r = app.router
        r.add_get(api + "/users/@me", self._me)
        r.add_post(api + "/oauth2/token", self._oauth_token)
        r.add_get(api + "/applications/{app}/activity-instances/{iid}", self._activity_instance)
        r.add_get(api + "/applications/{app}/emojis", self._get_emojis)
        r.add_post(api + "/applications/{app}/emojis", self._create_emoji)
        r.add_get(api + "/oauth2/applications/@me", self._app_info)
        r.add_get(api + "/gateway", lambda _r: _json({"url": self.gateway_url}))
        r.add_get(api + "/gateway/bot", self._gateway_bot)
        r.add_put(api + "/applications/{app}/commands", self._put_commands)
        r.add_put(api + "/applications/{app}/guilds/{guild}/commands", self._put_commands)
        r.add_get(api + "/applications/{app}/commands", self._get_commands)
        r.add_post(api + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(api + "/webhooks/{app}/{token}", self._followup)
        r.add_patch(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_edit)
        r.add_get(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_get)
        r.add_delete(api + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_delete)
        r.add_post(api + "/users/@me/channels", self._open_dm)
        r.add_post(api + "/channels/{cid}/messages", self._channel_send)
        r.add_patch(api + "/channels/{cid}/messages/{mid}", self._channel_edit)
        r.add_delete(api + "/channels/{cid}/messages/{mid}", self._channel_delete)
        r.add_get(api + "/channels/{cid}/messages/{mid}", self._channel_get)
        r.add_post(api + "/channels/{cid}/threads", self._start_thread)
        r.add_patch(api + "/channels/{cid}", self._modify_thread)
        r.add_route("*", "/{tail:.*}", lambda req: _error(404, 0, f"404: Not Found {req.path}"))
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._server = site._server
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def close(self) -> None:
        """Stop listening, then close the gateway sockets and the rest (listening first: a bot
        reconnects at once, and a connection accepted while the server shuts down may be left to
        the garbage collector, whose ResourceWarning then fails whatever test runs)."""
        if self._server is not None:
            self._server.close()
        for ws, _, _ in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be."""
        return f"ws://127.0.0.1:{self.port}/"

    @contextlib.contextmanager
    def patched(self) -> Iterator[None]:
        """Point discord.py at this fake (process-wide) and restore afterwards."""
        old_base, old_gw = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gw

    def fail_next(self, method: str, path_part: str, status: int = 429, retry_after: float = 0.05) -> None:
        """Answer the next ``method`` request whose path contains ``path_part`` with ``status``."""
        self.inject.append((method, path_part, status, retry_after))

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        self.requests.append((request.method, request.path))
        for i, (method, part, status, retry_after) in enumerate(self.inject):
            if request.method == method and part in request.path:
                del self.inject[i]
                if status == 429:
                    # A negative retry_after asks for a 429 without ``Via`` (a Cloudflare-style block).
                    headers = {"Retry-After": "1"} if retry_after < 0 else {"Via": "1.1 google", "Retry-After": "1"}
                    return _json({"message": "You are being rate limited.", "retry_after": abs(retry_after),
                                  "global": False}, 429, headers)
                return _error(status, 0, "injected failure")
        return await handler(request)  # type: ignore[no-any-return]

    # ---- REST: login and commands ----

    async def _app_info(self, _request: web.Request) -> web.Response:
        return _json({"id": str(self.app_id), "name": "Majlis", "icon": None, "description": "",
                      "bot_public": True, "bot_require_code_grant": False, "owner": self.bot_user,
                      "verify_key": "0" * 64,
                      "flags": 0, "summary": "", "rpc_origins": []})

    async def _gateway_bot(self, _request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url, "shards": self.shards,
                      "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                              "max_concurrency": 16}})

    async def _put_commands(self, request: web.Request) -> web.Response:
        body = await request.json()
        guild = request.match_info.get("guild")
        if guild is None and self.activities and not any(c.get("type") == PRIMARY_ENTRY_POINT for c in body):
            self.violations.append("a bulk overwrite without the Entry Point command")
            return _error(400, 50240, "You cannot remove this app's Entry Point command in a bulk update "
                                      "operation. Please include the Entry Point command in your update "
                                      "request or delete it separately.")
        out = []
        for given in body:
            cmd = dict(given, id=str(self._id()), application_id=str(self.app_id), version="1")
            if guild:
                cmd["guild_id"] = guild
            out.append(cmd)
        self.commands[int(guild) if guild else None] = out
        return _json(out)

    async def _get_commands(self, _request: web.Request) -> web.Response:
        return _json(self.commands.get(None, []))

    # ---- REST: interactions ----

    def _check_components(self, components: list[dict[str, Any]] | None) -> str | None:
        if not components:
            return None
        if len(components) > 5:
            return "more than 5 action rows"
        for row in components:
            items = row.get("components", [])
            selects = [c for c in items if c.get("type") in (3, 5, 6, 7, 8)]
            if len(items) > 5:
                return "more than 5 buttons in a row"
            if selects and len(items) > 1:
                return "a select shares its row"
            for c in items:
                cid = c.get("custom_id")
                if cid is not None and len(cid) > 100:
                    return f"custom_id longer than 100: {cid}"
                if len(c.get("label") or "") > 80:
                    return "button label longer than 80"
                if len(c.get("options", [])) > 25:
                    return "more than 25 select options"
                for o in c.get("options", []):
                    if len(o.get("value", "")) > 100 or len(o.get("label", "")) > 100:
                        return "select option longer than 100"
        return None

    def _bad_body(self, body: dict[str, Any]) -> web.Response | None:
        why = self._check_components(body.get("components"))
        if why is None and len(body.get("content") or "") > 2000:
            why = "content longer than 2000"
        allowed = body.get("allowed_mentions")
        if why is None and isinstance(allowed, dict):
            if len(allowed.get("users") or []) > 100:
                why = "allowed_mentions.users longer than 100"
            elif allowed.get("users") and "users" in (allowed.get("parse") or []):
                why = "allowed_mentions: parse users and a users list together"
        if why is not None:
            self.violations.append(why)
            return _error(400, 50035, f"Invalid Form Body: {why}")
        return None

    async def _callback(self, request: web.Request) -> web.Response:
        ix = self.interactions.get(int(request.match_info["iid"]))
        if ix is None or ix.token != request.match_info["token"]:
            return _error(404, 10062, "Unknown interaction")
        body = await request.json()
        if ix.response_type is not None:
            ix.errors.append(40060)
            self.violations.append(f"interaction {ix.id} answered twice")
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if self.now() - ix.created > DEADLINE:
            ix.errors.append(10062)
            self.violations.append(f"interaction {ix.id} answered after {self.now() - ix.created:.2f}s")
            return _error(404, 10062, "Unknown interaction")
        data = body.get("data") or {}
        bad = self._bad_body(data)
        if bad is not None:
            return bad
        cb = body["type"]
        if cb == LAUNCH_ACTIVITY and (not self.activities or ix.type not in (2, 3) or ix.guild_id is None):
            self.violations.append(f"LAUNCH_ACTIVITY for interaction {ix.id} (activities {self.activities})")
            return _error(400, 50035, "Invalid Form Body: this application cannot launch an Activity here")
        ix.response_type, ix.responded_at = cb, self.now()
        if cb == LAUNCH_ACTIVITY:
            ix.instance_id = self.launch(ix.user_id, ix.channel_id)
        message: Message | None = None
        if cb in (4, 5):
            ix.ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
            message = self._store(ix.channel_id, data.get("content") or "", data.get("components") or [],
                                  only_for=ix.user_id if ix.ephemeral else None, interaction=ix)
            ix.original_id = message.id
            if cb == 4:
                self._record("ephemeral" if ix.ephemeral else "message", message, "interaction")
        elif cb == 7 and ix.message_id is not None:
            message = self.messages[ix.message_id]
            message.content = data.get("content", message.content)
            message.components = data.get("components", message.components)
            ix.original_id = message.id
            self._record("ephemeral_edit" if message.only_for else "edit", message, "interaction")
        elif cb == 6:
            ix.original_id = ix.message_id
        ix.event.set()
        await self._notify()
        payload: dict[str, Any] = {"interaction": {"id": str(ix.id), "type": ix.type,
                                                   "response_message_id": str(ix.original_id or ix.id),
                                                   "response_message_loading": cb == 5,
                                                   "response_message_ephemeral": ix.ephemeral},
                                   "resource": {"type": cb}}
        if message is not None:
            payload["resource"]["message"] = self._message_json(message)
        if ix.instance_id is not None:
            payload["interaction"]["activity_instance_id"] = ix.instance_id
            payload["resource"]["activity_instance"] = {"id": ix.instance_id}
        if "with_response" not in request.query:
            return web.Response(status=204)
        return _json(payload)

    def _token(self, request: web.Request) -> Interaction | web.Response:
        ix = self.by_token.get(request.match_info["token"])
        if ix is None:
            return _error(401, 50027, "Invalid Webhook Token")
        if self.now() - ix.created > TOKEN_LIFE:
            self.violations.append(f"interaction token {ix.id} used after 15 minutes")
            return _error(401, 50027, "Invalid Webhook Token")
        if ix.response_type is None:
            self.violations.append(f"webhook use before the response of {ix.id}")
            return _error(404, 10015, "Unknown Webhook")
        return ix

    async def _followup(self, request: web.Request) -> web.Response:
        ix = self._token(request)
        if isinstance(ix, web.Response):
            return ix
        body = await request.json()
        bad = self._bad_body(body)
        if bad is not None:
            return bad
        eph = bool((body.get("flags") or 0) & EPHEMERAL)
        message = self._store(ix.channel_id, body.get("content") or "", body.get("components") or [],
                              only_for=ix.user_id if eph else None, interaction=ix)
        ix.followups.append(message.id)
        self._record("ephemeral" if eph else "message", message, "interaction")
        ix.event.set()
        await self._notify()
        return _json(self._message_json(message))

    def _webhook_message(self, request: web.Request, ix: Interaction) -> Message | web.Response:
        mid = request.match_info["mid"]
        key = ix.original_id if mid == "@original" else int(mid)
        message = self.messages.get(key) if key is not None else None
        if message is None or message.deleted:
            return _error(404, 10008, "Unknown Message")
        return message

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        ix = self._token(request)
        if isinstance(ix, web.Response):
            return ix
        message = self._webhook_message(request, ix)
        if isinstance(message, web.Response):
            return message
        body = await request.json()
        bad = self._bad_body(body)
        if bad is not None:
            return bad
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        ix.edits += 1
        self._record("ephemeral_edit" if message.only_for else "edit", message, "interaction")
        ix.event.set()
        await self._notify()
        return _json(self._message_json(message))

    async def _webhook_get(self, request: web.Request) -> web.Response:
        ix = self._token(request)
        if isinstance(ix, web.Response):
            return ix
        message = self._webhook_message(request, ix)
        return message if isinstance(message, web.Response) else _json(self._message_json(message))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        ix = self._token(request)
        if isinstance(ix, web.Response):
            return ix
        message = self._webhook_message(request, ix)
        if isinstance(message, web.Response):
            return message
        message.deleted = True
        self._record("delete", message, "interaction")
        return web.Response(status=204)

    # ---- REST: OAuth2 and Activities ----

    def _auth(self, request: web.Request) -> tuple[str, str]:
        kind, _, value = request.headers.get("Authorization", "").partition(" ")
        return kind, value

    async def _me(self, request: web.Request) -> web.Response:
        """The bot (``Bot`` token) or the person an OAuth2 access token stands for (``Bearer``)."""
        kind, value = self._auth(request)
        if kind == "Bearer":
            held = self.access_tokens.get(value)
            if held is None:
                return _error(401, 0, "401: Unauthorized")
            user = self.users[held[0]]
            return _json({**{k: v for k, v in user.items() if k != "locale"}, "public_flags": 0, "flags": 0})
        return _json(self.bot_user)

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``: form-encoded only (JSON is refused, as on Discord); one use per code."""
        if request.content_type != "application/x-www-form-urlencoded":
            return _json({"error": "invalid_request", "error_description": "form body expected"}, 400)
        form = await request.post()
        code = str(form.get("code", ""))
        self.exchanges.append(code)
        if form.get("client_id") != str(self.app_id) or form.get("client_secret") != self.client_secret:
            return _json({"error": "invalid_client"}, 401)
        if form.get("grant_type") != "authorization_code":
            return _json({"error": "unsupported_grant_type"}, 400)
        issued = self.codes.get(code)
        if issued is None or code in self.used_codes or self.now() - issued[1] > CODE_LIFE:
            return _json({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, 400)
        self.used_codes.add(code)
        access = "fake-access-" + secrets.token_urlsafe(24)
        self.access_tokens[access] = (issued[0], issued[2])
        return _json({"access_token": access, "token_type": "Bearer", "expires_in": 604800,
                      "refresh_token": "fake-refresh-" + secrets.token_urlsafe(24), "scope": " ".join(issued[2])})

    async def _activity_instance(self, request: web.Request) -> web.Response:
        """``GET /applications/{app}/activity-instances/{instance}``: the bot's token only."""
        kind, value = self._auth(request)
        if kind != "Bot" or value != self.bot_token or request.match_info["app"] != str(self.app_id):
            return _error(401, 0, "401: Unauthorized")
        found = self.instances.get(request.match_info["iid"])
        if found is None:
            return _error(404, 10090, "Unknown activity instance")  # the code is the fake's own choice
        loc = {"id": f"gc-{found['guild_id']}-{found['channel_id']}", "kind": "gc",
               "channel_id": str(found["channel_id"]), "guild_id": str(found["guild_id"])}
        return _json({"application_id": str(self.app_id), "instance_id": request.match_info["iid"],
                      "launch_id": str(found["launch_id"]), "location": loc,
                      "users": [str(u) for u in sorted(found["users"])]})

    # ---- REST: the application's emojis ----

    async def _get_emojis(self, request: web.Request) -> web.Response:
        if request.match_info["app"] != str(self.app_id):
            return _error(403, 50001, "Missing Access")
        return _json({"items": list(self.app_emojis.values())})

    async def _create_emoji(self, request: web.Request) -> web.Response:
        """Discord's rules: a name of 2 to 32 letters, digits or underscores, unique in the application;
        a PNG, JPEG or GIF data URI of at most 256 KiB; at most 2000 emojis (error 30008)."""
        if request.match_info["app"] != str(self.app_id):
            return _error(403, 50001, "Missing Access")
        body = await request.json()
        name, image = str(body.get("name", "")), str(body.get("image", ""))
        if not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            return _error(400, 50035, "Invalid Form Body: name")
        if any(e["name"] == name for e in self.app_emojis.values()):
            return _error(400, 50035, "Invalid Form Body: name: An emoji with this name already exists")
        if len(self.app_emojis) >= APP_EMOJI_LIMIT:
            return _error(400, 30008, "Maximum number of emojis reached (2000)")
        head, _, data = image.partition(",")
        if head not in ("data:image/png;base64", "data:image/jpeg;base64", "data:image/gif;base64"):
            return _error(400, 50035, "Invalid Form Body: image")
        raw = base64.b64decode(data)
        if len(raw) > 256 * 1024:
            return _error(400, 50035, "Invalid Form Body: image: File cannot be larger than 256.0 kb")
        eid = self._id()
        self.app_emojis[eid] = {"id": str(eid), "name": name, "roles": [], "user": self.bot_user,
                                "require_colons": True, "managed": False, "animated": False, "available": True}
        self.emoji_images[eid] = raw
        return _json(self.app_emojis[eid], 201)

    # ---- the Discord client's side of an Activity (what the fake SDK host asks for) ----

    def launch(self, user_id: int, channel_id: int) -> str:
        """``user_id`` opens the Activity in ``channel_id``: they join the channel's running instance,
        or a new one starts. Returns the instance id the iframe's address carries."""
        for iid, inst in self.instances.items():
            if inst["channel_id"] == channel_id:
                inst["users"].add(user_id)
                return iid
        iid = f"i-{self._id()}-gc-{channel_id}"
        self.instances[iid] = {"channel_id": channel_id, "guild_id": self.channels[channel_id].get("guild_id"),
                               "users": {user_id}, "launch_id": self._id()}
        return iid

    def authorize(self, user_id: int, client_id: str, scopes: list[str]) -> str | None:
        """The AUTHORIZE command: a code for ``user_id`` (None for another application's id)."""
        if client_id != str(self.app_id):
            return None
        code = "fake-code-" + secrets.token_urlsafe(16)
        self.codes[code] = (user_id, self.now(), list(scopes))
        return code

    def authenticate(self, access_token: str | None) -> dict[str, Any] | None:
        """The AUTHENTICATE command's data for a token this application was given, else None."""
        held = self.access_tokens.get(access_token or "")
        if held is None:
            return None
        user = self.users[held[0]]
        return {"access_token": access_token, "scopes": held[1], "expires": "2030-01-01T00:00:00.000000+00:00",
                "user": {"id": user["id"], "username": user["username"], "discriminator": "0", "avatar": None,
                         "public_flags": 0, "global_name": user["global_name"]},
                "application": {"id": str(self.app_id), "name": "Majlis", "description": "", "icon": None}}

    # ---- REST: channels and DMs ----

    async def _open_dm(self, request: web.Request) -> web.Response:
        body = await request.json()
        uid = int(body["recipient_id"])
        if uid not in self.users:
            return _error(400, 50033, "Invalid Recipients")
        cid = self.dm_channels.get(uid)
        if cid is None:
            cid = self.dm_channels[uid] = self._id()
            self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [self.users[uid]], "user": uid}
        return _json({"id": str(cid), "type": 1, "recipients": [self.users[uid]], "last_message_id": None})

    def _channel(self, request: web.Request) -> dict[str, Any] | web.Response:
        channel = self.channels.get(int(request.match_info["cid"]))
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        if channel["type"] == 1 and channel["user"] in self.dm_closed:
            return _error(403, 50007, "Cannot send messages to this user")
        return channel

    def _spend(self, channel_id: int) -> None:
        """Count one bot message or edit against the channel's 5-per-5-seconds budget."""
        hits, now = self.budget_hits[channel_id], self.now()
        hits.append(now)
        while hits and now - hits[0] >= 5.0:
            hits.popleft()
        self.max_in_window[channel_id] = max(self.max_in_window[channel_id], len(hits))

    # ---- REST: threads ----

    async def _start_thread(self, request: web.Request) -> web.Response:
        """Start Thread without Message (``POST /channels/{id}/threads``), as Discord documents it: a
        ``name`` of 1 to 100 characters, ``auto_archive_duration`` one of 60, 1440, 4320 or 10080,
        ``type`` 11 (public) or 12 (private, the default in API v10); needs Create Public (Private)
        Threads in a guild text channel (else 403 50013); answers the thread channel and dispatches
        THREAD_CREATE to the guild's shard."""
        channel = self._channel(request)
        if isinstance(channel, web.Response):
            return channel
        if channel.get("type") != 0:
            return _error(400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        name = body.get("name")
        kind = body.get("type") or PRIVATE_THREAD
        archive = body.get("auto_archive_duration") or 4320
        if not isinstance(name, str) or not 1 <= len(name) <= 100 or kind not in (PUBLIC_THREAD, PRIVATE_THREAD) \
                or archive not in (60, 1440, 4320, 10080):
            self.violations.append(f"start thread: bad body {body!r}")
            return _error(400, 50035, "Invalid Form Body")
        if int(channel["id"]) in self.no_threads:
            return _error(403, 50013, "Missing Permissions")
        tid = self._id()
        gid = channel["guild_id"]
        stamp = "2026-01-01T00:00:00+00:00"
        thread = {"id": str(tid), "type": kind, "guild_id": gid, "parent_id": channel["id"], "name": name,
                  "owner_id": str(self.bot_id), "last_message_id": None, "message_count": 0, "member_count": 1,
                  "total_message_sent": 0, "rate_limit_per_user": body.get("rate_limit_per_user") or 0, "flags": 0,
                  "thread_metadata": {"archived": False, "auto_archive_duration": archive, "locked": False,
                                      "archive_timestamp": stamp, "create_timestamp": stamp,
                                      **({"invitable": bool(body.get("invitable", True))}
                                         if kind == PRIVATE_THREAD else {})}}
        self.channels[tid] = thread
        self.threads.append(tid)
        data = {**thread, "guild_id": str(gid), "newly_created": True}
        with contextlib.suppress(RuntimeError):  # no gateway (a REST-only test): nobody hears it
            await self.dispatch("THREAD_CREATE", data, gid)
        await self._notify()
        return _json({**thread, "guild_id": str(gid)}, 201)

    async def _modify_thread(self, request: web.Request) -> web.Response:
        """Modify Channel for a thread: ``archived``, ``locked``, ``name`` (what the bot may change of
        the threads it started); dispatches THREAD_UPDATE."""
        channel = self._channel(request)
        if isinstance(channel, web.Response):
            return channel
        if channel.get("type") not in (PUBLIC_THREAD, PRIVATE_THREAD):
            return _error(403, 50013, "Missing Permissions")  # the fake models thread changes only
        body = await request.json()
        meta = channel["thread_metadata"]
        for key in ("archived", "locked"):
            if key in body:
                meta[key] = bool(body[key])
        if isinstance(body.get("name"), str):
            channel["name"] = body["name"]
        data = {**channel, "guild_id": str(channel["guild_id"])}
        with contextlib.suppress(RuntimeError):
            await self.dispatch("THREAD_UPDATE", data, channel["guild_id"])
        return _json(data)

    def thread_names(self) -> list[str]:
        """The names of the threads the bot started, in order."""
        return [self.channels[t]["name"] for t in self.threads]

    async def _channel_send(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if isinstance(channel, web.Response):
            return channel
        meta = channel.get("thread_metadata")
        if meta is not None and meta["archived"]:  # Discord unarchives a thread that is not locked
            if meta["locked"]:
                return _error(400, 50083, "Thread is archived")
            meta["archived"] = False
        body = await request.json()
        bad = self._bad_body(body)
        if bad is not None:
            return bad
        cid = int(channel["id"])
        message = self._store(cid, body.get("content") or "", body.get("components") or [],
                              only_for=channel.get("user"))
        message.pinged = pinged(message.content, body.get("allowed_mentions"))
        self._spend(cid)
        self._record("message", message, "channel")
        await self._notify()
        return _json(self._message_json(message))

    def _own_message(self, request: web.Request) -> Message | web.Response:
        message = self.messages.get(int(request.match_info["mid"]))
        if message is None or message.deleted or message.channel_id != int(request.match_info["cid"]):
            return _error(404, 10008, "Unknown Message")
        return message

    async def _channel_edit(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if isinstance(channel, web.Response):
            return channel
        message = self._own_message(request)
        if isinstance(message, web.Response):
            return message
        body = await request.json()
        bad = self._bad_body(body)
        if bad is not None:
            return bad
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        self._spend(message.channel_id)
        self._record("edit", message, "channel")
        await self._notify()
        return _json(self._message_json(message))

    async def _channel_delete(self, request: web.Request) -> web.Response:
        message = self._own_message(request)
        if isinstance(message, web.Response):
            return message
        message.deleted = True
        self._record("delete", message, "channel")
        await self._notify()
        return web.Response(status=204)

    async def _channel_get(self, request: web.Request) -> web.Response:
        message = self._own_message(request)
        return message if isinstance(message, web.Response) else _json(self._message_json(message))

    # ---- records ----

    def _store(self, channel_id: int, content: str, components: list[dict[str, Any]], *,
               only_for: int | None = None, interaction: Interaction | None = None) -> Message:
        message = Message(self._id(), channel_id, content, components,
                          flags=EPHEMERAL if only_for and interaction else 0, only_for=only_for,
                          interaction_id=interaction.id if interaction else None)
        self.messages[message.id] = message
        return message

    def _record(self, kind: str, message: Message, via: str) -> None:
        self.log.append(Sent(kind, message.channel_id, message.only_for, message.id, message.content,
                             json.loads(json.dumps(message.components)), self.now(), via))

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 15.0) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every change); return its value."""
        async def loop() -> Any:
            while True:
                value = predicate()
                if value:
                    return value
                async with self.changed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.changed.wait(), 0.005)
        return await asyncio.wait_for(loop(), timeout)

    def _message_json(self, message: Message) -> dict[str, Any]:
        channel = self.channels.get(message.channel_id, {})
        data: dict[str, Any] = {
            "id": str(message.id), "channel_id": str(message.channel_id), "author": self.bot_user,
            "content": message.content, "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 0, "flags": message.flags,
            "components": message.components,
        }
        if channel.get("guild_id"):
            data["guild_id"] = str(channel["guild_id"])
        if message.interaction_id:
            data["application_id"] = str(self.app_id)
        return data

    # ---- what people see ----

    def channel_messages(self, channel_id: int | None = None) -> list[Message]:
        """Live messages that everyone in the channel sees (not ephemeral), oldest first."""
        cid = channel_id or self.channel_id
        return [m for m in self.messages.values() if m.channel_id == cid and not m.only_for and not m.deleted]

    def private_messages(self, user_id: int) -> list[Message]:
        """Live DMs and ephemeral messages that only ``user_id`` sees, oldest first."""
        return [m for m in self.messages.values() if m.only_for == user_id and not m.deleted]

    def dms(self, user_id: int) -> list[Message]:
        """Live messages in the user's DM channel."""
        cid = self.dm_channels.get(user_id)
        return [m for m in self.messages.values()
                if cid is not None and m.channel_id == cid and not m.deleted]

    # ---- gateway ----

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        entry: tuple[web.WebSocketResponse, int, int] | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None}))
                elif op == 2:
                    shard_id, count = (frame["d"].get("shard") or [0, 1])[:2]
                    entry = (ws, shard_id, count)
                    self._sockets.append(entry)
                    await self._ready(ws, shard_id, count)
                elif op == 6:
                    await ws.send_str(json.dumps({"op": 9, "d": False}))
        finally:
            if entry in self._sockets:
                self._sockets.remove(entry)  # type: ignore[arg-type]
        return ws

    def _shard_of(self, guild_id: int | None, count: int) -> int:
        return 0 if guild_id is None else (guild_id >> 22) % count

    async def _ready(self, ws: web.WebSocketResponse, shard_id: int, count: int) -> None:
        mine = [g for g in self.guilds if self._shard_of(g, count) == shard_id]
        ready = {"v": 10, "user": self.bot_user,
                 "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                 "session_id": f"session-{shard_id}", "resume_gateway_url": self.gateway_url,
                 "application": {"id": str(self.app_id), "flags": 0}, "shard": [shard_id, count],
                 "private_channels": [], "relationships": []}
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": next(self._seq), "d": ready}))
        for gid in mine:
            await ws.send_str(json.dumps({"op": 0, "t": "GUILD_CREATE", "s": next(self._seq),
                                          "d": self._guild_json(gid)}))

    def _guild_json(self, gid: int) -> dict[str, Any]:
        g = self.guilds[gid]
        return {
            "id": str(gid), "name": g["name"], "icon": None, "owner_id": str(g["owner_id"]),
            "unavailable": False,
            "roles": [{"id": str(gid), "name": "@everyone", "permissions": str(MEMBER_PERMS), "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [c for c in self.channels.values() if c.get("guild_id") == gid
                         and c.get("type") not in (PUBLIC_THREAD, PRIVATE_THREAD)],
            "members": [dict(m) for m in self.members[gid].values()]
            + [{"user": self.bot_user, "roles": [], "joined_at": JOINED,
                "deaf": False, "mute": False, "flags": 0}],
            "member_count": len(self.members[gid]) + 1, "features": [], "emojis": [], "stickers": [],
            "threads": [{**c, "guild_id": str(gid)} for c in self.channels.values() if c.get("guild_id") == gid
                        and c.get("type") in (PUBLIC_THREAD, PRIVATE_THREAD)],
            "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "large": False, "premium_tier": 0, "preferred_locale": "en-US",
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "nsfw_level": 0, "system_channel_flags": 0, "afk_timeout": 300,
            "joined_at": JOINED,
        }

    async def dispatch(self, event: str, data: dict[str, Any], guild_id: int | None = None) -> None:
        """Send a gateway dispatch to the shard that owns ``guild_id``."""
        for ws, shard_id, count in list(self._sockets):
            if self._shard_of(guild_id, count) == shard_id and not ws.closed:
                await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))
                return
        raise RuntimeError("no gateway connection for that guild")

    async def wait_connected(self, shards: int = 1, timeout: float = 15.0) -> None:
        """Wait until ``shards`` gateway sessions have identified."""
        await self.wait_until(lambda: len(self._sockets) >= shards, timeout)

    # ---- simulated members ----

    def _new_interaction(self, kind: int, user_id: int, channel_id: int, data: dict[str, Any],
                         message: Message | None = None) -> tuple[Interaction, dict[str, Any]]:
        iid = self._id()
        channel = self.channels[channel_id]
        gid = channel.get("guild_id")
        ix = Interaction(iid, f"tok-{iid}", kind, user_id, channel_id, gid, self.now(),
                         message_id=message.id if message else None)
        self.interactions[iid], self.by_token[ix.token] = ix, ix
        user = self.users[user_id]
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": kind, "token": ix.token, "version": 1,
            "attachment_size_limit": 8 << 20, "data": data, "locale": user.get("locale", "en-US"),
            "app_permissions": "0", "entitlements": [], "authorizing_integration_owners": {},
        }
        if gid:
            payload["guild_id"] = str(gid)
            payload["guild_locale"] = "en-US"
            payload["channel"] = {k: v for k, v in channel.items() if k != "user"}
            payload["channel_id"] = str(channel_id)
            payload["member"] = self.members[gid][user_id]
            payload["context"] = 0
        else:
            payload["channel"] = {"id": str(channel_id), "type": 1, "recipients": [user]}
            payload["channel_id"] = str(channel_id)
            payload["user"] = user
            payload["context"] = 1
        if message is not None:
            payload["message"] = self._message_json(message)
        return ix, payload

    async def slash(self, user_id: int, channel_id: int | None, sub: str, group: str = "majlis",
                    **options: Any) -> Interaction:
        """``/<group> <sub> option:value ...`` typed by ``user_id`` in a channel."""
        cid = channel_id or self.channel_id
        opts = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()]
        data = {"id": str(self._command_id(group)), "name": group, "type": 1,
                "options": [{"name": sub, "type": 1, "options": opts}]}
        ix, payload = self._new_interaction(2, user_id, cid, data)
        await self.dispatch("INTERACTION_CREATE", payload, ix.guild_id)
        return ix

    def _command_id(self, name: str) -> int:
        for cmds in self.commands.values():
            for c in cmds:
                if c["name"] == name:
                    return int(c["id"])
        return 0

    async def click(self, user_id: int, message_id: int, custom_id: str) -> Interaction:
        """Press a button (``custom_id``) or pick a select option (``"<select id>|<value>"``)."""
        message = self.messages[message_id]
        if "|" in custom_id:
            select_id, value = custom_id.split("|", 1)
            data = {"custom_id": select_id, "component_type": 3, "values": [value]}
        else:
            data = {"custom_id": custom_id, "component_type": 2}
        ix, payload = self._new_interaction(3, user_id, message.channel_id, data, message)
        guild = self.channels[message.channel_id].get("guild_id")
        await self.dispatch("INTERACTION_CREATE", payload, guild)
        return ix

    def seen_by(self, user_id: int) -> list[Sent]:
        """Everything the bot showed that only ``user_id`` could see (DMs and ephemeral messages)."""
        return [s for s in self.log if s.user_id == user_id]

    def public(self) -> list[Sent]:
        """Everything the bot showed to a whole channel."""
        return [s for s in self.log if s.user_id is None]
