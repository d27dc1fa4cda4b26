"""The table inside Discord, in chromium: a Discord table message's "Open table" launches the Activity,
the page does the Embedded App SDK's handshake with a fake of the Discord client around it
(``fake_sdk_host.py``), signs in with an OAuth2 code that the server exchanges at the fake Discord,
and Alice plays a deal at her own seat while Bob, who is not seated, watches. A made-up code and a
used one get nothing; no secret reaches a log line."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.adapters.discord.components import activity_button
from bot.adapters.web.discord_auth import DiscordActivity
from bot.adapters.web.server import WebServer, WebSettings
from bot.adapters.web.tokens import install_secret
from tests.adapters.discord.fake_discord import LAUNCH_ACTIVITY, FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table
from tests.adapters.web.conftest import LOCAL_FROM_PUBLIC, OUTPUT, chromium
from tests.adapters.web.fake_sdk_host import open_activity, route_host
from tests.adapters.web.test_web_browser import click_move, next_deal, wait_js

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(180)]  # chromium

#: The README's pictures of the Activity, written there when MAJLIS_SCREENS names a folder.
SCREENS = {"activity-player-en": "discord-activity-player.png",
           "activity-spectator-en": "discord-activity-spectator.png"}


async def shot(page: Any, name: str) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    await page.screenshot(path=str(path))
    folder = os.environ.get("MAJLIS_SCREENS")
    if folder and name in SCREENS:
        shutil.copyfile(path, Path(folder) / SCREENS[name])


async def test_an_activity_session_launch_identify_play_a_deal_and_watch(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake = FakeDiscord(activities=True)
    await fake.start()
    try:
        with fake.patched():
            bot = await Bot(fake, tmp_path / "majlis.sqlite3", table_link=activity_button).start()
            assert bot.manager is not None
            activity = DiscordActivity(str(fake.app_id), fake.client_secret, fake.bot_token, fake.api_base)
            server = WebServer(bot.manager, await install_secret(bot.manager.repo),
                               WebSettings(port=0, discord=activity))
            site = await server.start()
            try:
                await session(fake, bot, server, site, caplog)
            finally:
                await server.close()
                await bot.stop()
    finally:
        await fake.close()


async def session(fake: FakeDiscord, bot: Bot, server: WebServer, site: str,
                  caplog: pytest.LogCaptureFixture) -> None:
    alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
    bob = Member(fake.add_member("Bob"), "Bob")
    carol = Member(fake.add_member("Carol"), "Carol")
    table = Table(fake, bot, fake.channel_id, [alice])
    await table.slash(alice, "lang", language="en")
    await table.open("tarneeb41")
    await table.slash(alice, "begin")
    button = await fake.wait_until(lambda: next((c for c in table.table_message().custom_ids()
                                                 if c.startswith("mja:")), None), timeout=20)
    launches = {}
    for member in (alice, bob, carol):  # "Open table": Discord opens the Activity for each of them
        ix = await fake.click(member.user_id, table.table_message().id, button)
        await ix.answered()
        assert ix.response_type == LAUNCH_ACTIVITY and ix.instance_id is not None
        launches[member.name] = ix.instance_id
    instance = launches["Alice"]
    assert set(launches.values()) == {instance}

    async with chromium(LOCAL_FROM_PUBLIC) as browser:
        context = await browser.new_context()
        await route_host(context)
        page_a, alice_frame = await open_activity(context, fake, alice.user_id, instance, site)
        await alice_frame.wait_for_selector("body[data-version]")
        # the handshake, AUTHORIZE with the page's client id, then AUTHENTICATE with the exchanged token
        log = await page_a.evaluate("window.sdkLog")
        assert [entry[0] for entry in log] == ["HANDSHAKE", "AUTHORIZE", "AUTHENTICATE"]
        assert log[0][1]["client_id"] == str(fake.app_id) and log[0][1]["sdk_version"] == "2.5.0"
        assert log[1][1]["scope"] == ["identify"] and log[1][1]["response_type"] == "code"
        assert fake.authenticate(log[2][1]["access_token"]) is not None
        assert await alice_frame.locator("#hand .card").count() == 13
        assert await alice_frame.locator("#seat-0 .name").inner_text() == "Alice"

        page_b, bob_frame = await open_activity(context, fake, bob.user_id, instance, site)
        await bob_frame.wait_for_selector("body[data-version]")
        assert await bob_frame.locator("#hand .card").count() == 0  # a spectator: the public view only

        # Alice plays the first deal out in her Activity; Bob's follows every move
        shot_taken = False
        while True:
            await wait_js(alice_frame, "document.body.dataset.panel === 'deal'"
                          " || document.querySelector('#hand.myturn .card.playable') !== null"
                          " || document.querySelector('#actions button') !== null", 20_000)
            if await alice_frame.evaluate("document.body.dataset.panel === 'deal'"):
                break
            if not shot_taken and await alice_frame.locator("#hand.myturn .card.playable").count() \
                    and await alice_frame.locator("#trick .card").count() >= 2:  # cards on the table
                await wait_js(bob_frame, f"document.body.dataset.version === "
                                         f"'{await alice_frame.evaluate('document.body.dataset.version')}'")
                await next_deal(bob_frame)  # the spectator closes an earlier deal's panel
                await shot(page_a, "activity-player-en")
                await shot(page_b, "activity-spectator-en")
                shot_taken = True
            await click_move(alice_frame)
        assert shot_taken
        await wait_js(bob_frame, "document.querySelectorAll('#sheet tbody tr').length >= 1", 20_000)
        actions = await bot.manager.repo.actions(table.table_id) if bot.manager is not None else []
        assert sum(1 for a in actions if a.seat == 0 and a.action.startswith("play ")) == 13

        # Carol's page brings a code Discord never issued: the server refuses, the page says so
        page_c, carol_frame = await open_activity(context, fake, carol.user_id, instance, site, forge=True)
        await carol_frame.wait_for_selector("body[data-denied='1']")
        assert await carol_frame.locator("#hand .card").count() == 0
        # and Alice's code, used once already, is refused when it comes again
        used = next(c for c in fake.exchanges if not c.startswith("forged"))
        async with aiohttp.ClientSession() as s, \
                s.post(site + "/api/discord", json={"code": used, "instance_id": instance}) as r:
            assert r.status == 403
        assert fake.exchanges.count(used) == 1
        for page in (page_a, page_b, page_c):
            assert page.errors == []
        await context.close()

    secrets = [fake.client_secret, *fake.codes, *fake.access_tokens]
    assert not [s for s in secrets if s in caplog.text]
