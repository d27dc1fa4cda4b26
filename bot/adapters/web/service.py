"""The web table inside ``majlis run``: one web server per process, beside the chat bots.

With ``MAJLIS_WEB_URL`` (the public https address, behind the operator's reverse proxy) or
``MAJLIS_WEB_PORT`` set (read by :func:`bot.app.config.web_config`), each bot runner calls
:func:`attach` with its table manager; the first
starts the server on ``MAJLIS_WEB_HOST:MAJLIS_WEB_PORT`` (default 127.0.0.1:8741), later ones add
their manager (``majlis run`` with both bots runs one manager per platform on one database). The
runner gets a :class:`WebFront` whose buttons go on private hand messages:

- Telegram: an "Open table" ``web_app`` button to ``<url>/tg?table=<id>`` (the Mini App; the page
  signs in with Telegram's ``initData``, so the address itself carries no secret);
- Discord: an "Open table" link to a per-player signed address (table and seat inside, expiring);
- both: the "Open the profile page" link under a ``/profile`` card (:meth:`WebFront.profile_link`), the
  replay's link in a flagged tournament match's notice (:meth:`WebFront.replay_link`), and the
  "Bracket on the web" link under a tournament's message (:meth:`WebFront.tournament_button`).
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass

from bot.adapters.web.relay import Relay, internal_url
from bot.adapters.web.server import WebServer, WebSettings
from bot.adapters.web.tables import ManagerSet
from bot.adapters.web.telegram_auth import DEFAULT_MAX_AGE
from bot.adapters.web.tokens import install_secret
from bot.core.manager import TableManager
from bot.core.model import TableSnapshot
from bot.present.i18n import T
from bot.present.render.message import Button
from storage.tournaments import Tournament

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

    def seat_link(self, table_id: int, seat: int, player_id: str) -> tuple[str, bool] | None:
        """A tournament match's player's seat on the web, for their ping (bot/present/tournament_notices.py):
        a Telegram person's Mini App (an https address: Telegram's rule; it signs who they are), else a
        signed link to their own page (table and seat inside, expiring). ``(address, Mini App)``."""
        url = self.config.url
        if not url:
            return None
        if player_id.startswith("tg:") and url.startswith("https://"):
            return self.server.links.telegram_url(table_id), True
        return self.server.links.play_url(table_id, seat, player_id, self.managers.clock.now()), False

    def profile_link(self, player_id: str, league: str | None) -> str | None:
        """The signed address of a person's profile page in ``league`` (None: across every chat; the
        chat side asks for that one only for the person's own card in their private chat)."""
        if not self.config.url:
            return None
        return self.server.links.profile_url(player_id, league, self.managers.clock.now())

    def replay_link(self, table_id: int) -> str | None:
        """The signed address of a finished table's replay page (a flagged tournament match's, for its
        organiser: bot/present/tournament_notices.py)."""
        if not self.config.url:
            return None
        return self.server.links.base_url + self.server.links.replay_path(table_id, self.managers.clock.now())

    def tournament_button(self, tour: Tournament, t: T) -> Button | None:
        """The link to a tournament's page under its message (signed from its creation, so that the
        message does not change with the clock)."""
        if not self.config.url:
            return None
        url = self.server.links.tournament_url(tour.tournament_id, tour.created_at)
        return Button(t.gettext("Bracket on the web"), url=url)

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


async def attach(manager: TableManager, wc: WebConfig | None, *, telegram_token: str | None = None) -> WebFront | None:
    """Serve ``manager``'s tables on this process's web server (started on first use); None when
    the web table is not configured (``wc`` None: see :func:`bot.app.config.web_config`)."""
    global _front
    if wc is None:
        return None
    async with _lock:
        if _front is None:
            managers = ManagerSet(manager)
            secret = await install_secret(manager.repo)
            server = WebServer(managers, secret, WebSettings(host=wc.host, port=wc.port, public_url=wc.url,
                                                              telegram_max_age=wc.telegram_max_age))
            owner = manager.settings.owner
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
