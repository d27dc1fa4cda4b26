"""The web adapter's HTTP side (aiohttp): the page, its WebSocket, sign-in and replays.

Routes:

- ``GET /``, ``GET /tg`` (the Telegram Mini App entry), ``GET /replay/<id>``: the one page
  (``bot/adapters/web/static``). Credentials ride in the address's fragment, which browsers never send.
- ``GET /static/<file>``: the page's script and style sheet.
- ``GET /ws?k=<credential>``: the live table. A missing or expired credential gets 401, a forged
  one, a foreign ``Origin`` or a seat that is no longer the person's gets 403, all before the
  upgrade; nothing changes.
  The page sends ``act`` (a move), ``next`` (Next deal), ``rematch`` (Play again), ``hint``
  ``{"version"}`` and ``review``; a hint or a review is answered with an ``advice`` message to that
  page alone (one at a time per page, never blocking its moves), a refusal with an ``error``.
- ``POST /api/telegram`` ``{"init_data", "table"}``: a Mini App sign-in; Telegram's ``initData``
  is validated (:mod:`bot.adapters.web.telegram_auth`) and a play credential for the person's seat returned.
- ``GET /api/discord``: the application's client id, for the Embedded App SDK's handshake;
  ``POST /api/discord`` ``{"code", "instance_id"}``: a Discord Activity sign-in; the OAuth2 code is
  exchanged and the Activity's channel asked of Discord (:mod:`bot.adapters.web.discord_auth`); the
  answer is a play credential for the person's seat at that channel's live table, or a spectator's.
- ``GET /api/replay/<id>?k=<credential>``: a finished table's replay frames.
- ``GET /profile`` (the page ``static/profile.html``) and ``GET /api/profile?k=<credential>&lang=``: a
  person's profile page and its figures (:mod:`bot.adapters.web.profile`); a missing or expired
  credential gets 401, a forged one or one of another kind 403.
- ``GET /tournament`` (the page ``static/tournament.html``) and ``GET /api/tournament?k=<credential>``: a
  tournament's bracket or standings (:mod:`bot.present.render.tournament_page`), in its group's language;
  the page asks again every few seconds while the tournament is open.
- ``GET /api/words?lang=``: the page's words, for a page refused before it was told its language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import WSMsgType, web

from bot.adapters.throttle import Cooldown
from bot.adapters.web import actions
from bot.adapters.web.discord_auth import DiscordActivity, DiscordAuth
from bot.adapters.web.hub import Viewer, WebHub
from bot.adapters.web.links import WebLinks
from bot.adapters.web.profile import profile_page
from bot.adapters.web.relay import Relay
from bot.adapters.web.replay import replay_frames
from bot.adapters.web.tables import ManagerSet
from bot.adapters.web.telegram_auth import DEFAULT_MAX_AGE, validate_init_data
from bot.adapters.web.tokens import CredentialError, Forged, Grant, verify
from bot.core.errors import Refusal, TableError
from bot.core.identity import ascii_int
from bot.core.manager import TableManager
from bot.core.model import Person, TableSnapshot
from bot.core.table import Table
from bot.present.i18n import translator
from bot.present.render.advice import advice_text
from bot.present.render.errors import render_error
from bot.present.render.tournament_page import tournament_view
from storage.records import LIVE_STATUSES, TableStatus

log = logging.getLogger(__name__)

#: The Embedded App SDK, vendored (docs/configuration.md says which version and how to update it).
SDK_FILE = "discord-embedded-app-sdk.mjs"
STATIC_FILES = {"table.js": "text/javascript", "table.css": "text/css", "index.html": "text/html",
                "activity.mjs": "text/javascript", SDK_FILE: "text/javascript", "profile.html": "text/html",
                "profile.js": "text/javascript", "profile.css": "text/css", "tournament.html": "text/html",
                "tournament.js": "text/javascript", "tournament.css": "text/css"}
#: The pages (served at their own addresses, never under /static).
PAGES = ("index.html", "profile.html", "tournament.html")
FRAME_ANCESTORS = "'self' https://web.telegram.org https://webk.telegram.org https://webz.telegram.org"
#: Where Discord's clients frame an Activity (desktop, browser, the test builds); only with Activities on.
DISCORD_ANCESTORS = "https://discord.com https://ptb.discord.com https://canary.discord.com"


def csp(discord: bool = False) -> str:
    """The pages' Content-Security-Policy: nothing from elsewhere; framed by Telegram, and by
    Discord when the Activity is configured."""
    ancestors = FRAME_ANCESTORS + (" " + DISCORD_ANCESTORS if discord else "")
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            f"base-uri 'none'; form-action 'none'; frame-ancestors {ancestors}")


CSP = csp()


@dataclass(frozen=True, slots=True)
class WebSettings:
    """Where the web adapter listens and how it is reached.

    ``public_url``: the address people open (``MAJLIS_WEB_URL``, e.g. the reverse proxy's https
    address); default ``http://<host>:<port>``. ``telegram_token`` enables Mini App sign-in;
    ``telegram_max_age``: seconds an ``initData`` stays good. ``origins``: further origins whose pages
    may open the WebSocket (the page's own address always may). ``discord`` enables the Discord
    Activity sign-in (its proxy's origin may then open the WebSocket too).
    """

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None
    telegram_token: str | None = None
    telegram_max_age: float = DEFAULT_MAX_AGE
    origins: tuple[str, ...] = ()
    ws_rate: float = 10.0  # messages a second a page may send, on average
    ws_burst: int = 30  # ... and in one burst
    ws_flood_close: int = 100  # refused messages after which the connection is closed
    discord: DiscordActivity | None = None


_FLOOD = "\x00flood"  # the writer's cue to close a flooding page (1008, policy violation)


def _static(name: str) -> bytes:
    return resources.files("bot.adapters.web").joinpath("static", name).read_bytes()


class WebServer:
    """The aiohttp application of the web table, on one table manager (or a process's managers)."""

    def __init__(self, manager: TableManager | ManagerSet, secret: bytes, settings: WebSettings | None = None,
                 hub: WebHub | None = None) -> None:
        self.manager = manager if isinstance(manager, ManagerSet) else ManagerSet(manager)
        self.secret = secret
        self.settings = settings or WebSettings()
        self.hub = hub or WebHub(self.manager, replay_link=self._replay_path,
                                 deal_pause=self.manager.managers[0].settings.deal_pause)
        self._files = {name: _static(name) for name in STATIC_FILES}
        self._runner: web.AppRunner | None = None
        #: Several processes on one database: pages of tables held elsewhere are relayed there.
        self.relay: Relay | None = None
        self.base_url = (self.settings.public_url or "").rstrip("/")
        self._discord_auth: DiscordAuth | None = None
        #: The hint or review each page is waiting for (one at a time; it never holds up the page's moves).
        self._advising: dict[Viewer, asyncio.Task[None]] = {}
        self.app = web.Application(middlewares=[self._headers], client_max_size=16 * 1024)
        self.app.add_routes([
            web.get("/", self._page),
            web.get("/tg", self._page),
            web.get("/favicon.ico", self._favicon),
            web.get("/replay/{table_id}", self._page),
            web.get("/static/{name}", self._file),
            web.get("/ws", self._ws),
            web.post("/api/telegram", self._telegram),
            web.get("/api/discord", self._discord_config),
            web.post("/api/discord", self._discord),
            web.get("/api/replay/{table_id}", self._replay),
            web.get("/profile", self._profile_page),
            web.get("/api/profile", self._profile),
            web.get("/tournament", self._tournament_page),
            web.get("/api/tournament", self._tournament),
            web.get("/api/words", self._words),
        ])

    @property
    def links(self) -> WebLinks:
        """Signed addresses under the public address."""
        return WebLinks(self.base_url, self.secret)

    def _replay_path(self, table_id: int, now: float) -> str:
        return self.links.replay_path(table_id, now)  # the links change once start() knows the port

    def now(self) -> float:
        """The manager's clock."""
        return self.manager.clock.now()

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> str:
        """Listen; returns the base address (``public_url`` or the bound one)."""
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        if not self.base_url:
            addresses = self._runner.addresses
            port = addresses[0][1] if addresses else self.settings.port
            self.base_url = f"http://{self.settings.host}:{port}"
        return self.base_url

    async def close(self) -> None:
        """Close every page and stop listening."""
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.relay is not None:
            await self.relay.close()

    @property
    def port(self) -> int:
        """The port listened on (the bound one when ``port`` was 0)."""
        addresses = self._runner.addresses if self._runner is not None else []
        return int(addresses[0][1]) if addresses else self.settings.port

    # -- plain HTTP -----------------------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        if not response.prepared:
            response.headers.setdefault("Content-Security-Policy", csp(self.settings.discord is not None))
            response.headers.setdefault("X-Content-Type-Options", "nosniff")
            response.headers.setdefault("Referrer-Policy", "no-referrer")
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._files["index.html"], content_type="text/html", charset="utf-8")

    async def _profile_page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._files["profile.html"], content_type="text/html", charset="utf-8")

    async def _tournament_page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._files["tournament.html"], content_type="text/html", charset="utf-8")

    async def _favicon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC_FILES or name in PAGES:
            raise web.HTTPNotFound()
        return web.Response(body=self._files[name], content_type=STATIC_FILES[name], charset="utf-8")

    @staticmethod
    def _deny(e: CredentialError) -> web.Response:
        return web.json_response({"error": type(e).__name__.lower()}, status=e.status)

    def _origin_ok(self, request: web.Request) -> bool:
        """A browser's WebSocket must come from this site's own pages (no cross-site hijacking)."""
        origin = request.headers.get("Origin")
        if origin is None:  # not a browser: the credential alone decides
            return True
        netloc = urlsplit(origin).netloc.lower()
        allowed = {request.host.lower()}
        proxy = self.settings.discord.proxy_origin if self.settings.discord is not None else None
        for url in (self.settings.public_url, *self.settings.origins, proxy):
            if url:
                allowed.add(urlsplit(url).netloc.lower())
        return bool(netloc) and netloc in allowed

    def _grant(self, token: str | None) -> Grant:
        return verify(self.secret, token, self.now())

    async def _telegram(self, request: web.Request) -> web.Response:
        """Mini App sign-in: Telegram's initData → a play credential for the person's seat."""
        bot_token = self.settings.telegram_token
        if not bot_token:
            raise web.HTTPNotFound()
        try:
            body = await _object(request)
            user = validate_init_data(body.get("init_data"), bot_token, now=self.now(),
                                      max_age=self.settings.telegram_max_age)
        except CredentialError as e:
            return self._deny(e)
        raw = body.get("table")
        table = raw if type(raw) is int else ascii_int(raw) if isinstance(raw, str) else None  # not "²"
        snap = self.manager.get(table) if table is not None else None
        if snap is None and self.relay is not None and table is not None:  # held by another process
            record = await self.manager.repo.get_table(table)
            snap = TableSnapshot(table=record) if record is not None and record.status in LIVE_STATUSES else None
        if snap is None:
            return web.json_response({"error": "no_table"}, status=404)
        seat = snap.seat_of(user.player_id)
        if seat is None:
            return web.json_response({"error": "not_seated"}, status=403)
        token = self.links.token("play", snap.table_id, self.now(), seat=seat, player_id=user.player_id)
        return web.json_response({"token": token})

    @property
    def discord_auth(self) -> DiscordAuth | None:
        """The Activity sign-in, when configured (made on first use: the settings may come late)."""
        activity = self.settings.discord
        if activity is None:
            return None
        if self._discord_auth is None or self._discord_auth.activity is not activity:
            self._discord_auth = DiscordAuth(activity)
        return self._discord_auth

    async def _discord_config(self, request: web.Request) -> web.Response:
        """What the Activity page needs before its handshake: the application's (public) client id."""
        if self.settings.discord is None:
            raise web.HTTPNotFound()
        return web.json_response({"client_id": self.settings.discord.client_id})

    async def _discord(self, request: web.Request) -> web.Response:
        """Activity sign-in: an OAuth2 code → the person's seat at the Activity channel's table, or a
        spectator's view of it."""
        auth = self.discord_auth
        if auth is None:
            raise web.HTTPNotFound()
        try:
            body = await _object(request)
            who = await auth.sign_in(body.get("code"), body.get("instance_id"))
        except CredentialError as e:
            return self._deny(e)
        except (TimeoutError, ConnectionError, aiohttp.ClientError):
            return web.json_response({"error": "unavailable"}, status=503)
        found = await self._live_table(who.chat_id)
        if found is None:
            return web.json_response({"error": "no_table"}, status=404)
        table_id, seat = found[0], found[1].seat_of(who.player_id)
        now = self.now()
        if seat is not None:
            token = self.links.token("play", table_id, now, seat=seat, player_id=who.player_id)
        else:
            token = self.links.token("watch", table_id, now)
        # the access token goes back to the page only, for the SDK's ``authenticate``
        return web.json_response({"token": token, "access_token": who.access_token, "seat": seat,
                                  "table": table_id})

    async def _live_table(self, chat_id: str) -> tuple[int, Table] | None:
        """The chat's live table: held here, else (several processes on one database) as stored by the
        process that holds it; the page then follows it through the relay like any other."""
        snap = self.manager.table_in_chat(chat_id)
        if snap is not None:
            return snap.table_id, Table(record=snap.table)
        lease = await self.manager.repo.chat_lease(chat_id)
        record = await self.manager.repo.get_table(lease[0]) if lease is not None else None
        if record is None or record.status not in LIVE_STATUSES or record.chat_id != chat_id:
            return None
        return record.table_id, Table(record=record)

    async def _words(self, request: web.Request) -> web.Response:
        """The page's words in a language (for a page refused before it learnt its reader's)."""
        from bot.adapters.web.view import ui_strings
        from bot.core.lang import normalize_lang
        from bot.present.i18n import translator

        t = translator(normalize_lang(request.query.get("lang")) or "ar")
        return web.json_response({"ui": ui_strings(t), "lang": t.lang, "rtl": t.rtl},
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _replay(self, request: web.Request) -> web.Response:
        try:
            grant = self._grant(request.query.get("k"))
        except CredentialError as e:
            return self._deny(e)
        tid = request.match_info["table_id"]
        if grant.kind != "replay" or ascii_int(tid) != grant.table_id:
            return self._deny(Forged("not a replay of this table"))
        record = await self.manager.repo.get_table(grant.table_id)
        if record is None:
            return web.json_response({"error": "no_table"}, status=404)
        if record.status in LIVE_STATUSES:
            return web.json_response({"error": "not_finished"}, status=409)
        snap = self.manager.get(grant.table_id)
        t = await self.hub.viewer_t(snap or TableSnapshot(table=record), None)
        story = replay_frames(record, await self.manager.repo.actions(grant.table_id), t)
        from bot.adapters.web.view import ui_strings

        return web.json_response({"type": "replay", "ui": ui_strings(t), "lang": t.lang, "rtl": t.rtl, **story},
                                 dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _profile(self, request: web.Request) -> web.Response:
        """A person's profile (the figures of the league the credential names, or across every chat)."""
        try:
            grant = self._grant(request.query.get("k"))
        except CredentialError as e:
            return self._deny(e)
        if grant.kind != "profile" or grant.player_id is None:
            return self._deny(Forged("not a profile credential"))
        manager = self.manager.owner_of_chat(grant.league) if grant.league is not None else self.manager.managers[0]
        hint = request.query.get("lang")
        body = await profile_page(manager, grant.player_id, grant.league, hint[:16] if hint else None)
        return web.json_response(body, dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _tournament(self, request: web.Request) -> web.Response:
        """A tournament's bracket (any process can answer: the tournament is read from storage)."""
        try:
            grant = self._grant(request.query.get("k"))
        except CredentialError as e:
            return self._deny(e)
        if grant.kind != "tournament":
            return self._deny(Forged("not a tournament credential"))
        tour = await self.manager.repo.get_tournament(grant.table_id)
        if tour is None:
            return web.json_response({"error": "no_tournament"}, status=404)
        manager = self.manager.owner_of_chat(tour.chat_id)
        t = translator(*await manager.prefs.public_lang(tour.chat_id))
        body = tournament_view(tour, t, self.now())
        return web.json_response(body, dumps=lambda o: json.dumps(o, ensure_ascii=False))

    # -- the live table -------------------------------------------------------------------------

    async def _ws(self, request: web.Request) -> web.StreamResponse:
        if not self._origin_ok(request):
            return web.json_response({"error": "origin"}, status=403)
        try:
            grant = self._grant(request.query.get("k"))
        except CredentialError as e:
            return self._deny(e)
        if grant.kind not in ("play", "watch"):
            return self._deny(Forged(f"a {grant.kind} credential"))
        snap = self.manager.get(grant.table_id)
        if snap is None and self.relay is not None:  # another process may hold it
            found = await self.relay.holder(grant.table_id)
            if found is not None:
                url = found[1]
                if url is None:  # between holders: the page tries again
                    return web.json_response({"error": "unavailable"}, status=503)
                return await self.relay.forward(request, url)
        if snap is None:
            return web.json_response({"error": "no_table"}, status=404)
        playing = grant.kind == "play"
        if playing and (grant.player_id is None or snap.seat_of(grant.player_id) != grant.seat):
            return web.json_response({"error": "not_seated"}, status=403)
        t = await self.hub.viewer_t(snap, grant.player_id if playing else None)
        viewer = Viewer(table_id=grant.table_id, seat=grant.seat if playing else None,
                        player_id=grant.player_id if playing else None, t=t, expires=grant.expires)
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=4096)
        await ws.prepare(request)
        writer = asyncio.create_task(self._writer(ws, viewer))
        # the adapters' token bucket (bot.adapters.throttle.Cooldown), one key: this connection
        bucket = Cooldown(self.manager.clock, self.settings.ws_burst, 1.0 / self.settings.ws_rate, maxsize=1)
        refused = 0
        try:
            await self.hub.attach(viewer)
            async for msg in ws:
                if msg.type == WSMsgType.ERROR:
                    break
                if msg.type != WSMsgType.TEXT:
                    continue
                verdict = bucket.check("page")
                if verdict.ok:
                    await self._on_message(viewer, msg.data)
                    continue
                # A flooding page: told once each time it runs dry, then cut off; nothing it sent is applied.
                refused += 1
                if verdict.first:
                    viewer.put(json.dumps({"type": "error", "code": "web_flood", "ref": None,
                                           "text": render_error("web_flood", {}, viewer.t)}, ensure_ascii=False))
                if refused >= self.settings.ws_flood_close:
                    log.warning("closing a flooding page on table %s", viewer.table_id)
                    viewer.queue.put_nowait(_FLOOD)  # after what is queued: the page reads why
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(asyncio.shield(writer), 2.0)
                    break
        except LookupError:
            pass
        finally:
            self.hub.detach(viewer)
            advising = self._advising.pop(viewer, None)
            if advising is not None:
                advising.cancel()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            await ws.close()
        return ws

    @staticmethod
    async def _writer(ws: web.WebSocketResponse, viewer: Viewer) -> None:
        """Send the viewer's queue in order; None closes the connection (the page resyncs)."""
        try:
            while True:
                text = await viewer.queue.get()
                if text is None:
                    await ws.close()
                    return
                if text is _FLOOD:
                    await ws.close(code=1008, message=b"flood")
                    return
                await ws.send_str(text)
        except (ConnectionError, RuntimeError):
            return

    async def _rematch(self, viewer: Viewer, swap: Any) -> None:
        """Play again from the match panel. When the new match begins at once with this person in it
        (``majlis web``, or a chat's table where they were the only person) the page follows it to the
        new table with a credential of its own; otherwise the new table is a lobby in the chat, and
        the page says so."""
        assert viewer.player_id is not None and viewer.seat is not None
        record = await self.manager.repo.get_table(viewer.table_id)
        if record is None:
            raise TableError(Refusal.NO_TABLE)
        person = Person(viewer.player_id, record.seats[viewer.seat].name or "")
        new = await actions.rematch(self.manager, person, record.chat_id, viewer.table_id, swap)
        seat = new.seat_of(viewer.player_id)
        if new.table.status == TableStatus.PLAYING and seat is not None:
            now = self.now()
            ttl = max(self.links.ttl, (viewer.expires or now) - now)
            token = self.links.token("play", new.table_id, now, seat=seat, player_id=viewer.player_id, ttl=ttl)
            viewer.put(json.dumps({"type": "moved", "table": new.table_id, "token": token}))
        else:
            viewer.put(json.dumps({"type": "rematched", "table": new.table_id}))

    async def _on_message(self, viewer: Viewer, data: str) -> None:
        try:
            msg = json.loads(data)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("type") not in ("act", "next", "rematch", "hint", "review"):
            return
        ref = msg.get("ref")
        try:
            if viewer.seat is None or viewer.player_id is None:
                raise TableError(Refusal.NOT_SEATED)
            if msg["type"] in ("hint", "review"):
                if viewer in self._advising:  # one question at a time
                    raise TableError(Refusal.AI_BUSY)
                task = asyncio.create_task(self._advise(viewer, msg["type"], msg.get("version"), ref))
                self._advising[viewer] = task
                task.add_done_callback(lambda _: self._advising.pop(viewer, None))
                return
            if msg["type"] == "rematch":
                await self._rematch(viewer, msg.get("swap"))
                return
            snap = self.manager.get(viewer.table_id)
            if snap is None:
                raise TableError(Refusal.NO_TABLE)
            actor = actions.WebActor(person=viewer.person(snap), table_id=viewer.table_id, seat=viewer.seat)
            if msg["type"] == "next":  # Next deal on the result panel
                await actions.next_deal(self.manager, actor)
            else:
                await actions.act(self.manager, actor, msg.get("version"), msg.get("action"))
        except TableError as e:
            about = msg["type"] if msg["type"] in ("hint", "review") else None
            self._refuse(viewer, e, ref, about)
        except Exception:  # a storage failure, say: the move did not happen; the page stays connected
            log.exception("a move from the web failed on table %s", viewer.table_id)
            viewer.put(json.dumps({"type": "error", "code": "internal", "ref": ref,
                                   "text": render_error("illegal", {"reason": "internal"}, viewer.t)},
                                  ensure_ascii=False))


    @staticmethod
    def _refuse(viewer: Viewer, e: TableError, ref: Any, about: str | None = None) -> None:
        """Tell this page why nothing happened (``about``: the hint or review it asked for)."""
        message = {"type": "error", "code": e.code, "ref": ref, "text": render_error(e.code, e.params, viewer.t)}
        if about is not None:
            message["about"] = about
        viewer.put(json.dumps(message, ensure_ascii=False))

    async def _advise(self, viewer: Viewer, kind: str, version: Any, ref: Any) -> None:
        """Hint or Review for this page's seat: the same dispatch as the chats', answered to this page
        alone (``advice``), in its reader's words; ``card``/``action``: what the page raises."""
        try:
            snap = self.manager.get(viewer.table_id)
            if snap is None:
                raise TableError(Refusal.NO_TABLE)
            assert viewer.seat is not None
            actor = actions.WebActor(person=viewer.person(snap), table_id=viewer.table_id, seat=viewer.seat)
            if kind == "hint":
                answer = await actions.hint(self.manager, actor, version)
            else:
                answer = await actions.review(self.manager, actor)
        except TableError as e:
            self._refuse(viewer, e, ref, kind)
            return
        except Exception:  # the page stays connected; it may ask again
            log.exception("a %s from the web failed on table %s", kind, viewer.table_id)
            self._refuse(viewer, TableError(Refusal.INTERNAL), ref, kind)
            return
        action = answer.hint.action if answer.hint is not None else None
        viewer.put(json.dumps({"type": "advice", "kind": kind, "ref": ref, "version": answer.snapshot.table.version,
                               "text": advice_text(answer, viewer.t), "action": action}, ensure_ascii=False))


async def _object(request: web.Request) -> dict[str, Any]:
    """A sign-in's JSON object, else :class:`Forged` (not JSON, or not an object)."""
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise Forged("not JSON") from None
    if not isinstance(body, dict):
        raise Forged("not an object")
    return body
