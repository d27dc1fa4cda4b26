"""The web table across processes: a page that reaches a process not holding its table.

With several processes on one database (``ManagerSettings.owner`` set), each process's web server
serves the tables that process holds (its table manager, its publisher, its timers). Behind one load
balancer a page may reach any of them, so each process advertises the address at which the others
reach its web server (``meta`` ``web:<owner>``: ``MAJLIS_WEB_INTERNAL_URL``, default
``http://<host>:<port>`` of where it listens, the machine's host name when it listens on every
interface), and a WebSocket for a table held elsewhere is relayed there: this process checks the
credential's signature (the install secret is shared), opens the same ``/ws`` at the holder (which
checks the seat and the flood limit as for any page, and applies the moves), and copies the
messages both ways until either side closes. The page notices nothing.

What the page sees when the holder cannot be reached: 503 before the upgrade (the page's
reconnect loop tries again; by then the table has been taken over, and is held here or
elsewhere), never 404 while the table is live. The holder's own refusals (401, 403, 404) are
passed through as they are, so a page whose seat was taken is told so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any

import aiohttp
from aiohttp import WSMsgType, web

from bot.core.queries import TableQueries
from storage.records import LIVE_STATUSES
from storage.repository import Repository

log = logging.getLogger(__name__)

#: ``meta`` key of a process's web address: ``web:<owner>``.
META_PREFIX = "web:"
#: Seconds to wait for the holder's WebSocket handshake.
CONNECT_TIMEOUT = 5.0
#: The close code a relayed page gets when its holder went away (RFC 6455 "try again later").
TRY_AGAIN = 1013


def internal_url(host: str, port: int, configured: str | None = None) -> str:
    """Where the other processes reach this web server."""
    if configured:
        return configured.rstrip("/")
    if host in ("", "0.0.0.0", "::"):  # every interface: the others know this machine by name
        host = socket.gethostname()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


class Relay:
    """Finds a remote table's holder and relays a page's WebSocket to it."""

    def __init__(self, manager: TableQueries, owner: str) -> None:
        self.manager = manager  # the manager (or the process's managers) whose repository and clock are used
        self.owner = owner
        self._session: aiohttp.ClientSession | None = None
        self.relayed = 0  # connections relayed (tests, logs)
        self._advertised = False

    @property
    def repo(self) -> Repository:
        """The shared database."""
        return self.manager.repo

    async def advertise(self, url: str) -> None:
        """Tell the other processes where this process's web server is."""
        await self.repo.set_meta_if_absent(META_PREFIX + self.owner, url)
        self._advertised = True

    async def holder(self, table_id: int) -> tuple[str, str | None] | None:
        """(status, holder's web address) of a live table this process does not hold; None when the
        table is not live (or unknown). The address is None when no live process can take the page."""
        route = await self.repo.table_route(table_id)
        if route is None or route[1] not in LIVE_STATUSES:
            return None
        _, status, owner, until = route
        if owner is None or owner == self.owner or until is None or until < self.manager.clock.now():
            return status, None  # being restored or taken over: the page asks again shortly
        return status, await self.repo.get_meta(META_PREFIX + owner)

    async def forward(self, request: web.Request, url: str) -> web.StreamResponse:
        """Relay the page's WebSocket to the holder's ``/ws`` (the same query)."""
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(
                total=None, connect=CONNECT_TIMEOUT, sock_connect=CONNECT_TIMEOUT))
        target = url.rstrip("/") + "/ws?" + request.query_string
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):  # the handshake; the connection itself lasts
                upstream = await self._session.ws_connect(
                    target, heartbeat=30.0, max_msg_size=1 << 20,
                    timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=CONNECT_TIMEOUT))
        except aiohttp.WSServerHandshakeError as e:  # the holder refused it: say what it said
            status = e.status if e.status in (400, 401, 403, 404) else 503
            return web.json_response({"error": "holder"}, status=status)
        except (TimeoutError, aiohttp.ClientError, OSError):
            log.info("the holder of a table at %s cannot be reached; the page will try again", url)
            return web.json_response({"error": "unavailable"}, status=503)
        try:
            page = web.WebSocketResponse(heartbeat=30.0, max_msg_size=4096)
            await page.prepare(request)  # a plain GET (the page asking why it was closed) ends here: 400
        except BaseException:
            await upstream.close()
            raise
        self.relayed += 1
        await self._pump(page, upstream)
        return page

    @staticmethod
    async def _copy(source: Any, dest: Any) -> None:
        """Send ``source``'s text messages on through ``dest`` until ``source`` closes or fails."""
        async for msg in source:
            if msg.type == WSMsgType.TEXT:
                await dest.send_str(msg.data)
            elif msg.type == WSMsgType.ERROR:
                return

    async def _pump(self, page: web.WebSocketResponse, upstream: aiohttp.ClientWebSocketResponse) -> None:
        # the holder's messages to the page, the page's moves to the holder
        tasks = [asyncio.create_task(self._copy(upstream, page)), asyncio.create_task(self._copy(page, upstream))]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, ConnectionError, RuntimeError):
                    await task
            # the holder's close code reaches the page (1008 for a flood); a vanished holder: try again
            code = upstream.close_code if upstream.closed and upstream.close_code else TRY_AGAIN
            await upstream.close()
            await page.close(code=code)

    async def close(self) -> None:
        """Take back the advertised address (each process start has its own owner name: a row left
        behind would never be read again) and close the client session (the relayed pages close
        with the server). A process killed outright leaves its row: harmless, never read again."""
        if self._advertised:
            self._advertised = False
            try:
                await self.repo.delete_meta(META_PREFIX + self.owner)
            except Exception:  # the database may be gone already; the row is harmless
                log.info("could not take back this process's web address", exc_info=True)
        if self._session is not None:
            await self._session.close()
            self._session = None
