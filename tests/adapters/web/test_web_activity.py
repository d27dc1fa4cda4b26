"""The Discord Activity sign-in (``POST /api/discord``) against the fake Discord's OAuth2 token,
user and activity-instance endpoints: a seat for the seated, a spectator's view for the others in
the Activity, nothing for a forged, replayed or foreign code, and no secret in any log line."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.adapters.web.discord_auth import DiscordActivity
from bot.adapters.web.server import WebServer, WebSettings, csp
from bot.adapters.web.tokens import install_secret, verify
from bot.core.manager import TableManager
from bot.core.model import Person
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from storage import open_repository
from tests.adapters.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.timeout(60)


@dataclass
class Activity:
    """A fake Discord with Activities on, a table in its channel with Alice seated, the web server."""

    fake: FakeDiscord
    manager: TableManager
    server: WebServer
    base: str
    table_id: int
    alice: int
    bob: int

    def launch(self, user: int, channel: int | None = None) -> str:
        """``user`` opens the Activity in the channel (what LAUNCH_ACTIVITY does); its instance id."""
        return self.fake.launch(user, channel or self.fake.channel_id)

    def code(self, user: int) -> str:
        """The SDK's AUTHORIZE for ``user``: a fresh OAuth2 code."""
        code = self.fake.authorize(user, str(self.fake.app_id), ["identify"])
        assert code is not None
        return code

    async def sign_in(self, s: aiohttp.ClientSession, code: Any, instance: Any) -> tuple[int, dict[str, Any]]:
        async with s.post(self.base + "/api/discord", json={"code": code, "instance_id": instance}) as r:
            return r.status, await r.json()


@pytest.fixture
async def activity(tmp_path: Path) -> AsyncIterator[Activity]:
    fake = FakeDiscord(activities=True)
    await fake.start()
    repo = await open_repository(str(tmp_path / "web.sqlite3"))
    manager = TableManager(repo, router=routed, settings=ManagerSettings(ai_delay=0.0, seed_source=lambda: 7,
                                                                         lobby_timeout=3600.0))
    alice, bob = fake.add_member("Alice"), fake.add_member("Bob")
    secret = await install_secret(repo)
    settings = WebSettings(port=0, discord=DiscordActivity(str(fake.app_id), fake.client_secret, fake.bot_token,
                                                           fake.api_base))
    server = WebServer(manager, secret, settings)
    await manager.start()
    try:
        chat = f"dc:{fake.channel_id}"
        await manager.update_chat(chat, ai_level="easy", lang="en")
        snap = await manager.create(chat, Person(f"dc:{alice}", "Alice", "en"), "tarneeb41", {})
        await manager.begin(chat, Person(f"dc:{alice}", "Alice", "en"))
        base = await server.start()
        yield Activity(fake, manager, server, base, snap.table_id, alice, bob)
    finally:
        await server.close()
        await manager.close()
        await repo.close()
        await fake.close()


async def first_state(base: str, token: str, origin: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as s, \
            s.ws_connect(base.replace("http://", "ws://") + "/ws?k=" + token, origin=origin) as ws:
        assert json.loads((await ws.receive(timeout=10)).data)["type"] == "hello"
        while True:
            data = json.loads((await ws.receive(timeout=10)).data)
            if data["type"] == "state":
                return dict(data["state"])


async def test_a_seated_person_gets_their_own_seat_and_someone_else_in_the_channel_a_spectators_view(
        activity: Activity) -> None:
    a = activity
    instance = a.launch(a.alice)
    assert a.launch(a.bob) == instance  # Bob joins the channel's running Activity
    async with aiohttp.ClientSession() as s:
        async with s.get(a.base + "/api/discord") as r:
            assert r.status == 200 and await r.json() == {"client_id": str(a.fake.app_id)}
        status, alice = await a.sign_in(s, a.code(a.alice), instance)
        assert status == 200 and alice["seat"] == 0 and alice["table"] == a.table_id
        assert a.fake.authenticate(alice["access_token"])["user"]["id"] == str(a.alice)  # the SDK may authenticate
        status, bob = await a.sign_in(s, a.code(a.bob), instance)
        assert status == 200 and bob["seat"] is None
    grant = verify(a.server.secret, alice["token"], a.manager.clock.now())
    assert (grant.kind, grant.seat, grant.player_id) == ("play", 0, f"dc:{a.alice}")
    assert verify(a.server.secret, bob["token"], a.manager.clock.now()).kind == "watch"
    # the same WebSocket as every web seat, opened from Discord's proxy origin
    proxy = f"https://{a.fake.app_id}.discordsays.com"
    mine = await first_state(a.base, alice["token"], proxy)
    assert mine["me"] == 0 and sorted(c["code"] for c in mine["hand"]) == sorted(a.manager.view(a.table_id, 0)["hand"])
    watched = await first_state(a.base, bob["token"], proxy)
    assert watched["me"] is None and watched["hand"] == []


async def test_a_forged_a_replayed_and_a_foreign_code_get_nothing(activity: Activity) -> None:
    a = activity
    instance = a.launch(a.alice)
    async with aiohttp.ClientSession() as s:
        status, body = await a.sign_in(s, "forged-code-never-issued", instance)
        assert (status, body) == (403, {"error": "forged"})
        code = a.code(a.alice)
        status, first = await a.sign_in(s, code, instance)
        assert status == 200 and "token" in first
        status, body = await a.sign_in(s, code, instance)  # the same code again: refused here
        assert (status, body) == (403, {"error": "forged"})
        assert a.fake.exchanges.count(code) == 1  # ... before Discord was asked a second time
        # a code of someone who is not in the Activity (Bob never opened it) gets nothing either
        status, body = await a.sign_in(s, a.code(a.bob), instance)
        assert (status, body) == (403, {"error": "forged"})
        # nor does an instance id the page made up, nor a missing or malformed field
        assert (await a.sign_in(s, a.code(a.alice), "i-made-up"))[0] == 403
        assert (await a.sign_in(s, None, instance))[0] == 401
        assert (await a.sign_in(s, {"code": 1}, instance))[0] == 403
        assert (await a.sign_in(s, "x" * 500, instance))[0] == 403
        async with s.post(a.base + "/api/discord", data=b"not json") as r:
            assert r.status == 403


async def test_the_channel_comes_from_discord_not_from_the_page(activity: Activity) -> None:
    a = activity
    elsewhere = a.fake.add_channel("no-table-here")
    instance = a.launch(a.alice, elsewhere)  # Alice runs the Activity in a channel without a table
    # whatever the page says about channels, Discord's instance says where it runs
    body = {"code": a.code(a.alice), "instance_id": instance, "channel_id": str(a.fake.channel_id)}
    async with aiohttp.ClientSession() as s, s.post(a.base + "/api/discord", json=body) as r:
        assert (r.status, await r.json()) == (404, {"error": "no_table"})


async def test_no_secret_code_or_access_token_reaches_a_log_line(activity: Activity,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    a = activity
    caplog.set_level(logging.DEBUG)
    instance = a.launch(a.alice)
    code = a.code(a.alice)
    async with aiohttp.ClientSession() as s:
        status, body = await a.sign_in(s, code, instance)
        assert status == 200
        await a.sign_in(s, code, instance)
        await a.sign_in(s, "forged-code-never-issued", instance)
    text = caplog.text + repr(a.server.settings) + repr(a.server.discord_auth)
    for secret in (a.fake.client_secret, code, body["access_token"], body["token"]):
        assert secret not in text
    assert "discord sign-in: the code exchange refused" in caplog.text  # what is logged says what happened


async def test_the_page_may_be_framed_by_discord_only_with_the_activity_on(activity: Activity) -> None:
    a = activity
    async with aiohttp.ClientSession() as s:
        async with s.get(a.base + "/?frame_id=f&instance_id=i&platform=desktop") as r:
            policy = r.headers["Content-Security-Policy"]
        assert "frame-ancestors 'self' https://web.telegram.org" in policy and "https://discord.com" in policy
        assert "script-src 'self';" in policy and "connect-src 'self';" in policy  # nothing from elsewhere
        async with s.get(a.base + "/static/discord-embedded-app-sdk.mjs") as r:
            assert r.status == 200 and r.content_type == "text/javascript"
            assert "DiscordSDK" in await r.text()
        token = a.server.links.token("watch", a.table_id, a.manager.clock.now())
        async with s.get(a.base.replace("http", "ws") + "/ws?k=" + token,
                         headers={"Origin": "https://evil.example", "Connection": "Upgrade", "Upgrade": "websocket",
                                  "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
                         ) as r:
            assert r.status == 403
    assert "discord.com" not in csp(False)


async def test_a_web_process_that_does_not_hold_the_table_still_seats_its_player(activity: Activity) -> None:
    """Several processes on one database: the web server that gets the sign-in may not hold the table;
    the seat is read from storage (the page then follows the table through the relay)."""
    a = activity
    other = TableManager(a.manager.repo, router=routed, settings=ManagerSettings(ai_delay=0.0))  # not started:
    settings = WebSettings(port=0, discord=DiscordActivity(str(a.fake.app_id), a.fake.client_secret,  # holds nothing
                                                           a.fake.bot_token, a.fake.api_base))
    server = WebServer(other, a.server.secret, settings)
    base = await server.start()
    try:
        assert other.table_in_chat(f"dc:{a.fake.channel_id}") is None
        instance = a.launch(a.alice)
        async with aiohttp.ClientSession() as s, \
                s.post(base + "/api/discord", json={"code": a.code(a.alice), "instance_id": instance}) as r:
            assert r.status == 200
            alice = await r.json()
        assert alice["seat"] == 0 and alice["table"] == a.table_id
        grant = verify(a.server.secret, alice["token"], a.manager.clock.now())
        assert (grant.kind, grant.seat, grant.player_id) == ("play", 0, f"dc:{a.alice}")
    finally:
        await server.close()
