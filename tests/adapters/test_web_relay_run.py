"""The web table across two real ``majlis run --discord`` processes on one PostgreSQL (bot/adapters/web/relay.py).

p0 runs shard 0, p1 shard 1; each has its own web server (``MAJLIS_WEB_PORT``) and advertises its
address in the database. Bob opens a table in p1's server, so p1 holds it, and his hand (``/majlis
hand``, only for him) carries an "Open table" link signed by p1. A load balancer may send his page to either process:
here it reaches p0, which relays the WebSocket to p1. The page sees its hand and plays through p0;
the move is applied by p1, once. Then p1 is killed with SIGKILL: the relayed page is closed, p0
answers 503 (never 404) while the table is not yet taken over, the page's reconnect gets the table
from p0 itself once p0 has taken it over within the lease (3 s), and its next move is applied there.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot.app.config import home_shard
from storage.postgres import PostgresRepository
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.processes import free_port, start_run, stop_pair, wait_listening
from tests.adapters.test_multiprocess_run import env, table_of, until

pytestmark = pytest.mark.slow  # majlis run as real processes


def open_table_link(fake: FakeDiscord, user_id: int) -> str | None:
    """The "Open table" link on the newest private message (the ephemeral hand) that has one."""
    for m in reversed(fake.private_messages(user_id)):
        for row in m.components:
            for c in row.get("components", []):
                if c.get("type") == 2 and c.get("url"):
                    return str(c["url"])
    return None


async def receive_state(ws: aiohttp.ClientWebSocketResponse, timeout: float) -> dict[str, Any]:
    """The next ``state`` message (errors fail the test)."""
    deadline = time.monotonic() + timeout
    while True:
        msg = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
        data = json.loads(msg.data)
        assert data["type"] != "error", data
        if data["type"] == "state":
            return dict(data["state"])


def a_move(state: dict[str, Any]) -> str | None:
    """A legal move of the seat's, as the page offers it (a bid button or a playable card)."""
    if state["actions"]:
        return str(state["actions"][0]["code"])
    playable = [c["code"] for c in state["hand"] if c["playable"]]
    return f"play {playable[0]}" if playable else None


async def play_one(ws: aiohttp.ClientWebSocketResponse, state: dict[str, Any], timeout: float = 60
                   ) -> tuple[int, str]:
    """From ``state`` on, wait for the seat's turn, send one move, wait until it is applied;
    (the version it was sent at, the move)."""
    deadline = time.monotonic() + timeout
    while (move := a_move(state)) is None:
        state = await receive_state(ws, deadline - time.monotonic())
    version = int(state["version"])
    await ws.send_json({"type": "act", "action": move, "version": version})
    while int(state["version"]) <= version:
        state = await receive_state(ws, deadline - time.monotonic())
    return version, move


async def ws_status(url: str) -> int:
    """What a page's plain GET of its WebSocket address answers (its 'why was I closed?' probe)."""
    async with aiohttp.ClientSession() as s, s.get(url) as r:
        return r.status


async def test_a_page_at_the_other_process_is_relayed_and_after_a_kill_is_served_by_the_survivor(
        fake: FakeDiscord, pg_url: str, tmp_path: Path) -> None:
    guild = {home_shard(g, 2): g for g in fake.guilds}
    channel = next(cid for cid, c in fake.channels.items() if c.get("guild_id") == guild[1])
    bob = fake.add_member("Bob", guild_id=guild[1], manage_guild=True)
    ports = [free_port(), free_port()]
    procs = []
    for i, shards in enumerate(("0/2", "1/2")):
        (tmp_path / f"p{i}").mkdir()
        base = f"http://127.0.0.1:{ports[i]}"
        procs.append(await start_run("discord", tmp_path / f"p{i}", {
            **env(fake, pg_url, shards), "MAJLIS_TURN_SECONDS": "120", "MAJLIS_WEB_URL": base,
            "MAJLIS_WEB_HOST": "127.0.0.1", "MAJLIS_WEB_PORT": str(ports[i])}))
    p0, p1 = procs
    p0_ws = f"ws://127.0.0.1:{ports[0]}/ws?k="
    p1_err = b""
    try:
        await fake.wait_connected(shards=2, timeout=90)
        for port in ports:
            await wait_listening(port)
        ix = await fake.slash(bob, channel, "new", game="tarneeb41", target=11)
        await ix.answered(60)
        chat = f"dc:{channel}"
        await until(lambda: table_of(pg_url, chat), 30, "table")
        await (await fake.slash(bob, channel, "begin")).answered(60)
        row = await table_of(pg_url, chat)
        assert row is not None and row[3] is not None and f":{p1.pid}:" in row[3]  # p1 holds it
        table_id = row[0]

        await (await fake.slash(bob, channel, "hand")).answered(60)  # his cards, only for him

        async def link() -> str | None:
            return open_table_link(fake, bob)

        url = await until(link, 30, "an Open table link on Bob's hand")
        assert urlsplit(url).port == ports[1]  # signed and addressed by the holder
        token = urlsplit(url).fragment.removeprefix("k=")
        assert token and token != urlsplit(url).fragment

        # the balancer sends the page to p0, which does not hold the table: relayed to p1
        async with aiohttp.ClientSession() as s:
            async with s.ws_connect(p0_ws + token, origin=f"http://127.0.0.1:{ports[0]}") as ws:
                first = json.loads((await ws.receive(timeout=10)).data)
                assert first["type"] == "hello"
                state = await receive_state(ws, 10)
                assert state["me"] == 0 and len(state["hand"]) == 13  # his own hand, through p0
                relayed = [await play_one(ws, state)]
                p1.send_signal(signal.SIGKILL)  # mid-match, nothing released
                _, p1_err = await asyncio.wait_for(p1.communicate(), 30)
                msg = await ws.receive(timeout=30)
                while msg.type == aiohttp.WSMsgType.TEXT:
                    msg = await ws.receive(timeout=30)
                assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            # the page's reconnect loop: 503 while nobody serves the table, never 404
            statuses: list[int] = []
            deadline = time.monotonic() + 60
            while True:
                code = await ws_status(p0_ws + token)
                statuses.append(code)
                if code != 503:
                    break
                assert time.monotonic() < deadline, "p0 never took the table over"
                await asyncio.sleep(0.2)
            assert code == 400 and 404 not in statuses  # 400: the table is here now, a WebSocket is wanted
            row = await table_of(pg_url, chat)
            assert row is not None and row[3] is not None and f":{p0.pid}:" in row[3]  # taken over by p0
            async with s.ws_connect(p0_ws + token, origin=f"http://127.0.0.1:{ports[0]}") as ws:
                assert json.loads((await ws.receive(timeout=10)).data)["type"] == "hello"
                state = await receive_state(ws, 10)
                assert state["me"] == 0 and state["version"] >= relayed[0][0] + 1
                served = [await play_one(ws, state)]
    finally:
        code, log = await stop_pair(p0, p1)
    assert code == 0, log[-3000:]
    assert "taking over tables" in log and "Traceback" not in log, log[-3000:]
    assert p1_err is not None

    repo = PostgresRepository(pg_url, pool_size=2)
    await repo.open()
    try:
        actions = await repo.actions(table_id)
    finally:
        await repo.close()
    mine = [(x.seq, x.action) for x in actions if x.actor == f"dc:{bob}"]
    # each move the page saw applied is in the log once, at its place: one by p1, one by p0
    assert mine == [(v + 1, m) for v, m in relayed + served], (mine, relayed, served)
