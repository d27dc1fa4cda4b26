"""The web table inside ``majlis run``: one web server per process, beside the chat bots.

With ``MAJLIS_WEB_URL`` (the public https address, behind the operator's reverse proxy) or
``MAJLIS_WEB_PORT`` set (read by :func:`bot.app.config.web_config`), each bot runner calls
:func:`attach` with its table manager; the first
starts the server on ``MAJLIS_WEB_HOST:MAJLIS_WEB_PORT`` (default 127.0.0.1:8741), later ones add
their manager (``majlis run`` with both bots runs one manager per platform on one database). The
runner gets a :class:`WebFront` whose buttons go on private hand messages:

- Telegram: an "Open table" ``web_app`` button to ``<url>/tg?table=<id>`` (the Mini App; the page
  signs in with Telegram's ``initData``, so the address itself carries no secret);
- Discord: an "Open table" link to a per-player signed address (table and seat inside, expiring).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.adapters.web.relay import Relay, internal_url
from bot.adapters.web.server import WebServer, WebSettings
from bot.adapters.web.telegram_auth import DEFAULT_MAX_AGE
from bot.adapters.web.tokens import install_secret
from bot.core.model import TableSnapshot, TableUpdate
from bot.present.i18n import T
from bot.present.render.message import Button

DEFAULT_PORT = 8741


@dataclass(frozen=True, slots=True)
class WebConfig:
    """Where the web table listens and the address people reach it at."""

    url: str | None
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    telegram_max_age: float = DEFAULT_MAX_AGE
    #: Where this process's web server is reached by the other processes (bot/adapters/web/relay.py).
    internal_url: str | None = None


class ManagerSet:
    """Several table managers (one per platform) seen as one by the web server: each call goes to
    the manager that holds the table."""

    def __init__(self) -> None:
        self.managers: list[Any] = []
        self._listeners: list[Callable[[TableUpdate], Any]] = []

    def add(self, manager: Any) -> None:
        """Serve this manager's tables too."""
        self.managers.append(manager)
        for listener in self._listeners:
            manager.subscribe(listener)

    def subscribe(self, listener: Callable[[TableUpdate], Any]) -> None:
        """Receive every manager's updates."""
        self._listeners.append(listener)
        for m in self.managers:
            m.subscribe(listener)

    def owner(self, table_id: int) -> Any:
        """The manager holding ``table_id`` (the first one if none does)."""
        for m in self.managers:
            if m.get(table_id) is not None:
                return m
        return self.managers[0]

    def owner_of_chat(self, chat_id: str) -> Any:
        """The manager whose chats ``chat_id`` belongs to."""
        for m in self.managers:
            prefixes = m.settings.chat_prefixes
            if prefixes is None or chat_id.startswith(prefixes):
                return m
        return self.managers[0]

    @property
    def clock(self) -> Any:
        """The first manager's clock."""
        return self.managers[0].clock

    @property
    def repo(self) -> Any:
        """The database (all managers of a process share it)."""
        return self.managers[0].repo

    @property
    def prefs(self) -> Any:
        """The preference cache of the first manager (players are the same in every one)."""
        return getattr(self.managers[0], "prefs", None)

    def get(self, table_id: int) -> TableSnapshot | None:
        """The snapshot of the table, from whichever manager holds it."""
        snap: TableSnapshot | None = self.owner(table_id).get(table_id)
        return snap

    def view(self, table_id: int, seat: int | None) -> dict[str, Any]:
        """The engine view of a seat."""
        view: dict[str, Any] = self.owner(table_id).view(table_id, seat)
        return view

    async def act(self, table_id: int, person: Any, version: int, action: str) -> TableSnapshot:
        """A move, by the manager holding the table."""
        snap: TableSnapshot = await self.owner(table_id).act(table_id, person, version, action)
        return snap

    async def chat_settings(self, chat_id: str) -> Any:
        """A chat's settings."""
        return await self.owner_of_chat(chat_id).chat_settings(chat_id)


@dataclass
class WebFront:
    """The running web table of this process."""

    server: WebServer
    managers: ManagerSet
    config: WebConfig
    users: int = 0

    def telegram_button(self, snap: TableSnapshot, seat: int, player_id: str, t: T) -> Button | None:
        """The Mini App button of a Telegram hand (needs an https address: Telegram's rule)."""
        url = self.config.url
        if not url or not url.startswith("https://"):
            return None
        return Button(t.gettext("Open table"), url=self.server.links.telegram_url(snap.table_id), web_app=True,
                      style="primary")

    def discord_button(self, snap: TableSnapshot, seat: int, player_id: str, t: T) -> Button | None:
        """A link to the player's own page, signed (table and seat inside) and expiring."""
        if not self.config.url:
            return None
        url = self.server.links.play_url(snap.table_id, seat, player_id, self.managers.clock.now())
        return Button(t.gettext("Open table"), url=url, style="primary")


    def watch_button(self, snap: TableSnapshot, t: T) -> Button | None:
        """A spectator's link under a chat's public table (the public view only). Signed from the
        table's creation, so the public message does not change with the clock."""
        if not self.config.url:
            return None
        url = self.server.links.watch_url(snap.table_id, snap.table.created_at, ttl=WATCH_TTL)
        return Button(t.gettext("Watch on the web"), url=url, style="secondary")


#: How long a chat's spectator link works, from the table's creation.
WATCH_TTL = 3 * 24 * 3600.0
_front: WebFront | None = None
_lock = asyncio.Lock()


async def attach(manager: Any, wc: WebConfig | None, *, telegram_token: str | None = None) -> WebFront | None:
    """Serve ``manager``'s tables on this process's web server (started on first use); None when
    the web table is not configured (``wc`` None: see :func:`bot.app.config.web_config`)."""
    global _front
    if wc is None:
        return None
    async with _lock:
        if _front is None:
            managers = ManagerSet()
            managers.add(manager)
            secret = await install_secret(manager.repo)
            server = WebServer(managers, secret, WebSettings(host=wc.host, port=wc.port, public_url=wc.url,
                                                              telegram_max_age=wc.telegram_max_age))
            owner = getattr(getattr(manager, "settings", None), "owner", None)
            if owner:  # several processes on one database: pages of the others' tables are relayed
                server.relay = Relay(managers, owner)
            await server.start()
            if server.relay is not None:
                await server.relay.advertise(internal_url(wc.host, server.port, wc.internal_url))
            _front = WebFront(server=server, managers=managers, config=wc)
        elif manager not in _front.managers.managers:
            _front.managers.add(manager)
        if telegram_token:
            _front.server.settings = dataclasses.replace(_front.server.settings, telegram_token=telegram_token)
        _front.users += 1
        return _front


async def detach(front: WebFront | None) -> None:
    """A runner is done; the last one stops the web server."""
    global _front
    if front is None:
        return
    async with _lock:
        front.users -= 1
        if front.users <= 0:
            await front.server.close()
            if _front is front:
                _front = None
