"""Discord Activity sign-in: an OAuth2 code from the Embedded App SDK, exchanged on the server.

The page inside Discord runs the SDK's ``authorize`` command and sends the ``code`` it got, with
the SDK's ``instance_id``, to ``POST /api/discord``. Here, with the application's client id and
secret (``MAJLIS_DISCORD_CLIENT_ID``, ``MAJLIS_DISCORD_CLIENT_SECRET``):

1. ``POST {api}/oauth2/token`` (form: ``client_id``, ``client_secret``, ``grant_type=authorization_code``,
   ``code``) gives an access token for that person;
2. ``GET {api}/users/@me`` with it says who the person is;
3. ``GET {api}/applications/{client id}/activity-instances/{instance_id}`` with the bot's token says
   where the Activity runs (its channel) and who is in it; the person must be one of them.

Nothing the page says is trusted but the code: the channel comes from Discord (step 3), not from
the page. A code is taken once: a second use is refused here before Discord is asked (and Discord
refuses a used code too). The client secret, the codes and the access tokens are never logged.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.adapters.web.tokens import Forged, Missing
from bot.core import identity
from bot.core.cache import TTLCache

log = logging.getLogger(__name__)

DEFAULT_API = "https://discord.com/api/v10"
#: The longest code or instance id taken from a page (Discord's are far shorter).
MAX_FIELD = 200
#: How long a used code is remembered (Discord's codes live about ten minutes).
USED_TTL = 15 * 60.0
USED_SIZE = 100_000
TIMEOUT = aiohttp.ClientTimeout(total=10.0)


@dataclass(frozen=True, slots=True)
class DiscordActivity:
    """The Discord application behind the Activity: its OAuth2 client, the bot's token (to ask
    where an Activity instance runs) and the API's address (a fake in the tests)."""

    client_id: str
    client_secret: str
    bot_token: str
    api_base: str = DEFAULT_API

    def __repr__(self) -> str:  # never print a secret
        return f"DiscordActivity(client_id={self.client_id!r}, api_base={self.api_base!r})"

    @property
    def proxy_origin(self) -> str:
        """The origin Discord serves the Activity from (its proxy), which opens the WebSocket."""
        return f"https://{self.client_id}.discordsays.com"


@dataclass(frozen=True, slots=True)
class DiscordSignIn:
    """The person Discord vouches for, and where their Activity runs."""

    user_id: int
    name: str
    channel_id: int
    guild_id: int | None
    access_token: str

    def __repr__(self) -> str:  # never print the access token
        return f"DiscordSignIn(user_id={self.user_id}, channel_id={self.channel_id})"

    @property
    def player_id(self) -> str:
        """The platform-neutral id (``"dc:<user>"``)."""
        return identity.person_id(identity.DISCORD, self.user_id)

    @property
    def chat_id(self) -> str:
        """The neutral chat id of the Activity's channel (``"dc:<channel>"``)."""
        return f"{identity.chat_prefix(identity.DISCORD)}{self.channel_id}"


def _field(value: Any, what: str) -> str:
    if value is None or value == "":
        raise Missing(f"no {what}")
    if not isinstance(value, str) or len(value) > MAX_FIELD or not value.isascii() or not value.isprintable():
        raise Forged(f"malformed {what}")
    return value


def _snowflake(value: Any) -> int | None:
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 25 else None


class DiscordAuth:
    """Signs people in from an Activity (see the module's docstring); one per web server."""

    def __init__(self, activity: DiscordActivity, clock: Any = None) -> None:
        self.activity = activity
        self._used: TTLCache[str, bool] = (TTLCache(USED_SIZE, USED_TTL, clock) if clock is not None
                                           else TTLCache(USED_SIZE, USED_TTL))

    def _take(self, code: str) -> None:
        """Mark ``code`` used; a code seen before is refused (a replay)."""
        key = hashlib.sha256(code.encode()).hexdigest()
        if self._used.get(key):
            raise Forged("a used code")
        self._used.put(key, True)

    async def sign_in(self, code: Any, instance_id: Any) -> DiscordSignIn:
        """The person and channel behind a code from the SDK; ``Missing``/``Forged`` otherwise."""
        code = _field(code, "code")
        instance = _field(instance_id, "instance id")
        self._take(code)
        a = self.activity
        base = a.api_base.rstrip("/")
        async with aiohttp.ClientSession(timeout=TIMEOUT) as s:
            form = {"client_id": a.client_id, "client_secret": a.client_secret,
                    "grant_type": "authorization_code", "code": code}
            async with s.post(f"{base}/oauth2/token", data=form) as r:
                token = await self._json(r, "the code exchange")
            access = token.get("access_token") if isinstance(token, dict) else None
            if not isinstance(access, str) or not access:
                raise Forged("no access token for the code")
            async with s.get(f"{base}/users/@me", headers={"Authorization": f"Bearer {access}"}) as r:
                user = await self._json(r, "the user")
            user_id = _snowflake(user.get("id")) if isinstance(user, dict) else None
            if user_id is None:
                raise Forged("no user for the access token")
            async with s.get(f"{base}/applications/{a.client_id}/activity-instances/{instance}",
                             headers={"Authorization": f"Bot {a.bot_token}"}) as r:
                found = await self._json(r, "the activity instance")
        location = found.get("location") if isinstance(found, dict) else None
        users = found.get("users") if isinstance(found, dict) else None
        channel = _snowflake(location.get("channel_id")) if isinstance(location, dict) else None
        if channel is None or not isinstance(users, list) or str(user_id) not in [str(u) for u in users]:
            raise Forged("not in this activity instance")
        name = str(user.get("global_name") or user.get("username") or user_id)
        guild = _snowflake(location.get("guild_id")) if isinstance(location, dict) else None
        return DiscordSignIn(user_id=user_id, name=name, channel_id=channel, guild_id=guild, access_token=access)

    @staticmethod
    async def _json(response: aiohttp.ClientResponse, what: str) -> Any:
        """The JSON answer of a successful call; a refusal (4xx) is a forged sign-in."""
        if response.status >= 500:
            log.warning("discord sign-in: %s failed with HTTP %d", what, response.status)
            raise ConnectionError(f"{what}: HTTP {response.status}")
        if response.status >= 400:
            log.info("discord sign-in: %s refused (HTTP %d)", what, response.status)
            raise Forged(f"{what} refused")
        try:
            return await response.json(content_type=None)
        except ValueError:
            raise Forged(f"{what}: not JSON") from None
