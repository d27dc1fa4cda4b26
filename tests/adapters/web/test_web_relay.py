"""The web table across processes (bot/adapters/web/relay.py): two table managers on one database (an SQLite
file, a real PostgreSQL), each with its own repository connection and web server, as two
processes; a page that opens the table at the process that does not hold it is relayed to the
holder: it gets its hand, its moves are applied there once, a refused credential is refused as at
the holder, and a holder that went away gets 503 (the page's reconnect loop tries again), never
404 while the table is live."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.web.relay import META_PREFIX, internal_url
from bot.adapters.web.server import WebServer, WebSettings
from bot.adapters.web.tokens import install_secret
from bot.core.manager import TableManager
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from storage.postgres import PostgresRepository
from storage.repository import Repository
from storage.sqlite import SQLiteRepository
from tests.adapters.web.harness import BOT_TOKEN, CHAT, SARA, Page
from tests.adapters.web.telegram_data import init_data
from tests.pg import POSTGRES

pytestmark = pytest.mark.timeout(60)


@dataclass
class Side:
    """One 'process': its repository, manager and web server."""

    repo: Repository
    manager: TableManager
    server: WebServer
    base: str

    def ws(self, token: str) -> str:
        return self.base.replace("http://", "ws://") + "/ws?k=" + token


@pytest.fixture(params=["sqlite", POSTGRES])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "shared.sqlite3")


@pytest.fixture
async def two(database: str) -> AsyncIterator[tuple[Side, Side, int]]:
    """Process a holds a started Tarneeb 41 table with Sara in seat 0; process b holds nothing."""
    from bot.adapters.web.relay import Relay

    sides = []
    for name in ("a", "b"):
        repo: Repository = (PostgresRepository(database, pool_size=3) if database.startswith("postgresql://")
                            else SQLiteRepository(database))
        await repo.open()
        settings = ManagerSettings(owner=name, lease_seconds=30.0, heartbeat_seconds=10.0,
                                   ai_delay=0.0, default_turn_seconds=0, seed_source=lambda: 7)
        manager = TableManager(repo, router=routed, settings=settings)
        await manager.start()
        server = WebServer(manager, await install_secret(repo), WebSettings(port=0, telegram_token=BOT_TOKEN))
        server.relay = Relay(manager, name)
        base = await server.start()
        await server.relay.advertise(internal_url("127.0.0.1", server.port))
        sides.append(Side(repo, manager, server, base))
    a, b = sides
    await a.manager.update_chat(CHAT, ai_level="easy", lang="en", turn_seconds=0)
    await a.manager.update_player(SARA.player_id, name=SARA.name, lang="en")
    snap = await a.manager.create(CHAT, SARA, "tarneeb41", {})
    await a.manager.begin(CHAT, SARA)
    await a.manager.run_due()
    try:
        yield a, b, snap.table_id
    finally:
        for side in sides:
            await side.server.close()
            await side.manager.close()
            await side.repo.close()


async def status_of(url: str) -> int:
    async with aiohttp.ClientSession() as s, s.get(url) as r:
        return r.status


async def test_a_page_reaching_the_other_process_plays_at_the_holder(two: tuple[Side, Side, int]) -> None:
    a, b, tid = two
    assert b.manager.get(tid) is None  # b does not run the table
    assert await a.repo.get_meta(META_PREFIX + "a") == a.base  # where b finds a's web server
    token = a.server.links.token("play", tid, a.manager.clock.now(), seat=0, player_id=SARA.player_id)
    async with aiohttp.ClientSession() as s, s.ws_connect(b.ws(token), origin=b.base) as ws:
        page = Page(ws)
        hello = await page.next()
        assert hello["type"] == "hello"
        state = await page.until(lambda st: bool(st["actions"]) or any(c["playable"] for c in st["hand"]))
        view = a.manager.view(tid, 0)
        assert state["me"] == 0 and sorted(c["code"] for c in state["hand"]) == sorted(view["hand"])
        version = state["version"]
        await page.act(view["legal"][0], version=version - 1)  # stale: refused by the holder, as ever
        err = await page.next()
        assert err["type"] == "error" and err["code"] == "stale"
        await page.act(view["legal"][0])
        after = await page.until(lambda st: st["version"] > version)
        assert after["version"] > version
    log = await a.repo.actions(tid)
    assert log[version].actor == SARA.player_id and log[version].action == view["legal"][0]  # applied once, at a
    assert len([r for r in log if r.actor == SARA.player_id]) == 1
    assert b.manager.get(tid) is None and b.server.relay is not None and b.server.relay.relayed == 1


async def test_a_relayed_page_is_refused_as_at_the_holder_and_retries_while_the_holder_is_away(
        two: tuple[Side, Side, int]) -> None:
    a, b, tid = two
    now = a.manager.clock.now()
    before = a.manager.get(tid)
    wrong_seat = a.server.links.token("play", tid, now, seat=1, player_id=SARA.player_id)
    assert await status_of(b.ws(wrong_seat)) == 403  # the holder's answer: not her seat
    forged = a.server.links.token("play", tid, now, seat=0, player_id=SARA.player_id)[:-3] + "AAA"
    assert await status_of(b.ws(forged)) == 403  # refused here, before anything is relayed
    good = a.server.links.token("play", tid, now, seat=0, player_id=SARA.player_id)
    assert await status_of(b.ws(good)) == 400  # the page's plain "why was I closed?" GET: not final
    spectator = a.server.links.watch_url(tid, now).split("#k=")[1]
    async with aiohttp.ClientSession() as s, s.ws_connect(b.ws(spectator)) as ws:
        page = Page(ws)
        await page.next()
        st = await page.until(lambda st: st["version"] >= 0)
        assert st["me"] is None and st["hand"] == []  # the public view only
        # the holder's web server goes away: the relayed page is closed too
        await a.server.close()
        msg = await ws.receive()
        while msg.type == aiohttp.WSMsgType.TEXT:
            json.loads(msg.data)
            msg = await ws.receive()
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        assert ws.close_code == 1000  # the holder's own close code (its shutdown), passed on
    assert await status_of(b.ws(good)) == 503  # never 404 while the table is live: the page retries
    after = a.manager.get(tid)
    assert before is not None and after is not None and after.table.version == before.table.version


async def test_a_mini_app_sign_in_at_the_other_process_gets_the_seat_and_plays(two: tuple[Side, Side, int]) -> None:
    a, b, tid = two
    now = int(a.manager.clock.now())
    async with aiohttp.ClientSession() as s:
        async def sign_in(user: int, name: str) -> tuple[int, dict[str, object]]:
            async with s.post(b.base + "/api/telegram",
                              json={"init_data": init_data(user, name, now, BOT_TOKEN), "table": tid}) as r:
                return r.status, await r.json()

        assert (await sign_in(99, "Stranger"))[0] == 403  # not seated at the table (read from storage)
        code, body = await sign_in(11, "Sara")
        assert code == 200
        async with s.ws_connect(b.ws(str(body["token"]))) as ws:
            page = Page(ws)
            await page.next()
            st = await page.until(lambda st: True)
            assert st["me"] == 0 and len(st["hand"]) == 13


async def test_a_process_that_stops_takes_back_its_web_address(two: tuple[Side, Side, int]) -> None:
    """Each process start has its own owner name: the address it advertised goes with it."""
    a, b, _ = two
    assert await b.repo.get_meta(META_PREFIX + "b") == b.base
    await b.server.close()
    assert await a.repo.get_meta(META_PREFIX + "b") is None
    assert await a.repo.get_meta(META_PREFIX + "a") == a.base  # the other process's stays
