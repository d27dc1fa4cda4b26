"""Discord with the web table on: the ephemeral "My hand" carries a signed link to the player's page."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.web import service as web
from bot.app.config import web_config
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table
from tests.adapters.web.test_web_telegram import free_port

pytestmark = pytest.mark.timeout(90)
WEB_URL = "https://majlis.example"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    f = FakeDiscord()
    await f.start()
    yield f
    await f.close()


@pytest.mark.slow
async def test_discord_ephemeral_hand_links_to_a_signed_page_of_that_seat(fake: FakeDiscord, tmp_path: Path) -> None:
    with fake.patched():
        bot = await Bot(fake, tmp_path / "majlis.sqlite3").start()
        port = free_port()
        front = await web.attach(bot.manager, web_config(env={"MAJLIS_WEB_URL": WEB_URL, "MAJLIS_WEB_PORT": str(port)}))
        try:
            assert front is not None and bot.client is not None
            bot.client.handlers.web_link = front.discord_button
            alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
            bob = Member(fake.add_member("Bob"), "Bob")
            table = Table(fake, bot, fake.channel_id, [alice])
            await table.slash(alice, "lang", language="en")
            await table.open("tarneeb41")
            await table.slash(alice, "begin")
            hand = await fake.wait_until(  # the table message shows "My hand" once its (paced) edit arrives
                lambda: next((c for c in table.table_message().custom_ids() if c.startswith("mj1:h:")), None),
                timeout=20)
            ix = await table.click(alice, table.table_message().id, hand)
            assert ix.original_id is not None
            message = fake.messages[ix.original_id]
            links = [c for row in message.components for c in row.get("components", []) if c.get("url")]
            assert [c["label"] for c in links] == ["Open table"]
            url = links[0]["url"]
            assert url.startswith(f"{WEB_URL}/#k=")
            token = url.split("#k=")[1]
            base = f"ws://127.0.0.1:{port}/ws?k="
            async with aiohttp.ClientSession() as s:
                async with s.ws_connect(base + token, origin=WEB_URL) as ws:
                    assert json.loads((await ws.receive(timeout=10)).data)["type"] == "hello"
                    state = json.loads((await ws.receive(timeout=10)).data)["state"]
                    assert state["me"] == 0 and len(state["hand"]) == 13
                    mine = bot.manager.view(table.table_id, 0)["hand"]
                    assert sorted(c["code"] for c in state["hand"]) == sorted(mine)
                # Bob is not seated: "My hand" refuses him, so he has no link; and Alice's link is hers
                ix = await table.click(bob, table.table_message().id, hand)
                assert ix.original_id is None or not any(
                    c.get("url") for row in fake.messages[ix.original_id].components for c in row.get("components", []))
                async with s.get(f"http://127.0.0.1:{port}/ws?k=" + token[:-2] + "xx") as r:
                    assert r.status == 403
        finally:
            await web.detach(front)
            await bot.stop()
