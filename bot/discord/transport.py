"""The outbox's :class:`~bot.outbox.Transport` for Discord, through discord.py's HTTP client.

Destinations are platform-neutral strings: ``"dc:<channel>"`` (a text channel or a thread) and
``"dm:dc:<user>"`` (the DM with a person; its channel is opened once and remembered). Requests go
through ``client.http`` so that they share discord.py's rate-limit buckets and its redirected
``Route.BASE``. Discord's errors become the outbox's: 403 and 50007 →
:class:`~bot.outbox.Forbidden`, 429 → :class:`~bot.outbox.RetryAfter`, 5xx and network trouble →
:class:`~bot.outbox.TransientError`, 10008 Unknown Message → :class:`~bot.outbox.MessageGone`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord.http import Route

from bot import identity
from bot.discord.components import components_json
from bot.outbox import Budget, Forbidden, MessageGone, RetryAfter, TransientError
from bot.render.message import OutMessage

log = logging.getLogger(__name__)

#: About 5 messages (edits included) per 5 s per channel, and the same for a DM.
CHANNEL_BUDGET = Budget(5, 5.0)
DM_BUDGET = Budget(5, 5.0)
MAX_TEXT = 2000
SUPPRESS_NOTIFICATIONS = 1 << 12
UNKNOWN_MESSAGE, UNKNOWN_CHANNEL, CANNOT_DM = 10008, 10003, 50007
_NO_MENTIONS: dict[str, Any] = {"parse": []}


# The ids are spelled in bot/identity.py; these are its Discord spellings.
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
    return dest.startswith("dm:dc:")


def message_payload(msg: OutMessage, *, new: bool) -> dict[str, Any]:
    """The JSON body of a send (``new``) or an edit."""
    body: dict[str, Any] = {"content": msg.text[:MAX_TEXT], "components": components_json(msg.buttons),
                            "allowed_mentions": _NO_MENTIONS}
    if new and not msg.notify:
        body["flags"] = SUPPRESS_NOTIFICATIONS
    return body


class DiscordTransport:
    """Send, edit and delete plain messages with buttons; typed errors for the outbox."""

    def __init__(self, client: discord.Client, *, channel_budget: Budget = CHANNEL_BUDGET,
                 dm_budget: Budget = DM_BUDGET) -> None:
        self.client = client
        self.channel_budget = channel_budget
        self.dm_budget = dm_budget
        self._dm_channels: dict[int, int] = {}
        self._dm_locks: dict[int, asyncio.Lock] = {}
        self._done: dict[int, deque[float]] = {}
        self._pace_locks: dict[int, asyncio.Lock] = {}

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
        async with lock:
            if target not in self._dm_channels:
                data = await self._call(dest, self.client.http.start_private_message(target))
                self._dm_channels[target] = int(data["id"])
        return self._dm_channels[target]

    async def send(self, dest: str, msg: OutMessage) -> str:
        """Post ``msg``; returns the new message id."""
        cid = await self.channel_of(dest)
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=cid)
        body = message_payload(msg, new=True)
        data = await self._paced(dest, cid, lambda: self.client.http.request(route, json=body))
        return str(data["id"])

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        """Replace text and buttons of an earlier message."""
        cid = await self.channel_of(dest)
        route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=cid,
                      message_id=int(message_id))
        body = message_payload(msg, new=False)
        await self._paced(dest, cid, lambda: self.client.http.request(route, json=body))

    async def _paced(self, dest: str, cid: int, request: Callable[[], Awaitable[Any]]) -> Any:
        """Make the request no sooner than the budget's window after the 5th last one *completed*.

        The outbox paces by when it starts an operation; a request that discord.py retried (a 429
        with ``Via``, a 502) reaches Discord later than that, which would bunch the next ones up.
        Counting from completions guarantees the spacing as Discord sees it.
        """
        budget = self.budget(dest)
        done = self._done.setdefault(cid, deque(maxlen=budget.ops))
        loop = asyncio.get_running_loop()
        async with self._pace_locks.setdefault(cid, asyncio.Lock()):
            if len(done) == budget.ops:
                wait = done[0] + budget.per_seconds - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
            result = await self._call(dest, request())
            done.append(loop.time())
            return result

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
