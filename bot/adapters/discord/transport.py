"""The outbox's :class:`~bot.present.outbox.Transport` for Discord, through discord.py's HTTP client.

Destinations are platform-neutral strings: ``"dc:<channel>"`` (a text channel or a thread) and
``"dm:dc:<user>"`` (the DM with a person; its channel is opened once and remembered). Requests go
through ``client.http`` so that they share discord.py's rate-limit buckets and its redirected
``Route.BASE``. Discord's errors become the outbox's: 403 and 50007 →
:class:`~bot.present.outbox.Forbidden`, 429 → :class:`~bot.present.outbox.RetryAfter`, 5xx and network trouble →
:class:`~bot.present.outbox.TransientError`, 10008 Unknown Message → :class:`~bot.present.outbox.MessageGone`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
from discord.http import Route

from bot.adapters.discord.components import components_json
from bot.adapters.discord.emojis import CardFaces
from bot.core import identity
from bot.core.cache import TTLCache
from bot.present.outbox import Budget, Forbidden, MessageGone, RetryAfter, TransientError
from bot.present.render.message import OutMessage

log = logging.getLogger(__name__)

#: About 5 messages (edits included) per 5 s per channel, and the same for a DM, spent as a steady
#: stream (one every 1.05 s). The outbox is the one pacing layer: it counts a request from when it
#: completes, so retries inside discord.py cannot bunch the next ones up.
CHANNEL_BUDGET = Budget(5, 5.0, burst=1, margin=0.25)
DM_BUDGET = Budget(5, 5.0, burst=1, margin=0.25)
#: Discord's global limit is 50 requests a second per bot.
GLOBAL_BUDGET = Budget(50, 1.0, burst=10, margin=0.05)
#: DM channels remembered (the oldest are opened again when needed).
MAX_DM_CHANNELS = 50_000
MAX_TEXT = 2000
SUPPRESS_NOTIFICATIONS = 1 << 12
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL, CANNOT_DM = 10008, 10003, 50007
_NO_MENTIONS: dict[str, Any] = {"parse": []}


# The ids are spelled in bot/core/identity.py; these are its Discord spellings.
channel_dest = identity.dc_channel
parse_dest = identity.dc_parse


def dm_dest(user_id: int) -> str:
    """The destination of a person's DM with the bot."""
    return identity.dm_dest(identity.person_id(identity.DISCORD, user_id))


def player_id(user_id: int) -> str:
    """The neutral player id of a Discord user."""
    return identity.person_id(identity.DISCORD, user_id)


def user_of(player: str) -> int | None:
    """The Discord user id of a neutral player id, or None if it is not a Discord person."""
    return identity.user_of(player, identity.DISCORD)


def is_dm(dest: str) -> bool:
    """Whether ``dest`` is a person's DM."""
    return identity.is_dm_of(dest, identity.DISCORD)


def mention_text(msg: OutMessage) -> tuple[str, list[str]]:
    """The message's text with each mentioned name written as ``<@id>``, and those user ids."""
    text, users = msg.text, []
    for m in sorted(msg.mentions, key=lambda m: m.start, reverse=True):
        uid = user_of(m.player_id)
        if uid is None:
            continue
        text = f"{text[:m.start]}<@{uid}>{text[m.start + m.length:]}"
        users.append(str(uid))
    return text, users[::-1]


def message_payload(msg: OutMessage, *, new: bool, faces: CardFaces | None = None) -> dict[str, Any]:
    """The JSON body of a send (``new``) or an edit (cards as the application's emojis with ``faces``).
    Nobody is pinged but the message's own :attr:`~bot.present.render.message.OutMessage.mentions`
    (``allowed_mentions`` lists only them)."""
    text, users = mention_text(msg) if msg.mentions else (msg.text, [])  # offsets are of the plain text
    text = faces.apply(text) if faces is not None else text
    mentions: dict[str, Any] = {"parse": [], "users": users[:100]} if users else _NO_MENTIONS
    body: dict[str, Any] = {"content": text[:MAX_TEXT], "components": components_json(msg.buttons),
                            "allowed_mentions": mentions}
    if new and not msg.notify:
        body["flags"] = SUPPRESS_NOTIFICATIONS
    return body


class DiscordTransport:
    """Send, edit and delete plain messages with buttons; typed errors for the outbox."""

    def __init__(self, client: discord.Client, *, channel_budget: Budget = CHANNEL_BUDGET,
                 dm_budget: Budget = DM_BUDGET, global_budget: Budget | None = GLOBAL_BUDGET) -> None:
        self.client = client
        self.channel_budget = channel_budget
        self.dm_budget = dm_budget
        self.global_budget = global_budget  # the outbox hub's bot-wide limiter
        self._dm_channels: TTLCache[int, int] = TTLCache(MAX_DM_CHANNELS)
        #: The card emojis, once read at start-up (bot/adapters/discord/emojis.py); None: cards as text.
        self.faces: CardFaces | None = None
        self._dm_locks: dict[int, asyncio.Lock] = {}

    def budget(self, dest: str) -> Budget:
        """A channel: 5 per 5 s (edits included); a DM: 5 per 5 s."""
        return self.dm_budget if is_dm(dest) else self.channel_budget

    async def channel_of(self, dest: str) -> int:
        """The channel id to post to (opening the DM channel the first time)."""
        target = parse_dest(dest)
        if not is_dm(dest):
            return target
        cached = self._dm_channels.get(target)
        if cached is not None:
            return cached
        lock = self._dm_locks.setdefault(target, asyncio.Lock())
        try:
            async with lock:
                cached = self._dm_channels.get(target)
                if cached is None:
                    data = await self._call(dest, self.client.http.start_private_message(target))
                    cached = int(data["id"])
                    self._dm_channels.put(target, cached)
        finally:
            if not lock.locked():
                self._dm_locks.pop(target, None)
        return cached

    async def send(self, dest: str, msg: OutMessage) -> str:
        """Post ``msg``; returns the new message id."""
        cid = await self.channel_of(dest)
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=cid)
        body = message_payload(msg, new=True, faces=self.faces)
        data = await self._call(dest, self.client.http.request(route, json=body))
        return str(data["id"])

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        """Replace text and buttons of an earlier message."""
        cid = await self.channel_of(dest)
        route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=cid,
                      message_id=int(message_id))
        await self._call(dest, self.client.http.request(route, json=message_payload(msg, new=False, faces=self.faces)))

    async def delete(self, dest: str, message_id: str) -> None:
        """Remove an earlier message."""
        cid = await self.channel_of(dest)
        await self._call(dest, self.client.http.delete_message(cid, int(message_id)))

    @staticmethod
    async def _call(dest: str, request: Any) -> Any:
        try:
            return await request
        except discord.RateLimited as exc:
            raise RetryAfter(exc.retry_after) from exc
        except discord.Forbidden as exc:
            raise Forbidden(dest) from exc
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                raise Forbidden(dest) from exc
            raise MessageGone(str(exc)) from exc
        except discord.DiscordServerError as exc:
            raise TransientError(str(exc)) from exc
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise RetryAfter(_retry_after(exc)) from exc
            if exc.code == CANNOT_DM:
                raise Forbidden(dest) from exc
            if exc.status >= 500:
                raise TransientError(str(exc)) from exc
            log.warning("discord %s refused a request: %s", dest, exc)
            raise TransientError(str(exc)) from exc
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            raise TransientError(str(exc)) from exc


def _retry_after(exc: discord.HTTPException) -> float:
    """The wait of a 429 that discord.py did not retry itself (no ``Via``: a Cloudflare limit)."""
    header = exc.response.headers.get("Retry-After") if exc.response is not None else None
    try:
        return max(float(header), 1.0) if header else 5.0
    except ValueError:
        return 5.0
