"""``majlis run --telegram`` with the web table on: the hand DM's Mini App button, Telegram sign-in,
and moves crossing between the chat and the page (real process, real PTB, the fake Bot API)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

os.environ.setdefault("PTB_TIMEDELTA", "1")

from tests.adapters.processes import start_run, stop_run
from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram
from tests.adapters.web.telegram_data import init_data

pytestmark = pytest.mark.timeout(120)
GROUP = -100778
WEB_URL = "https://majlis.example"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def state_where(ws: aiohttp.ClientWebSocketResponse, pred: Any) -> dict[str, Any]:
    """The next table state on the page's socket for which ``pred`` holds (other messages read past)."""
    while True:
        data = json.loads((await ws.receive(timeout=15)).data)
        if data["type"] == "state" and pred(data["state"]):
            return dict(data["state"])


def may_act(st: dict[str, Any]) -> bool:
    """The page's seat may move in this state (a bid, a choice or a playable card)."""
    return bool(st["actions"]) or any(c["playable"] for c in st["hand"])


def first_move(st: dict[str, Any]) -> str:
    """A legal move of the page's seat in ``st``: its first action, or its first playable card."""
    return str(st["actions"][0]["code"]) if st["actions"] else \
        "play " + next(c["code"] for c in st["hand"] if c["playable"])


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.mark.slow
async def test_telegram_hand_opens_the_mini_app_and_moves_cross_both_ways(tg: FakeTelegram, tmp_path: Path) -> None:
    ali = tg.add_user(11, "Ali", "en")
    tg.add_group(GROUP, admins=[ali.user_id])
    port = free_port()
    proc = await start_run("telegram", tmp_path, {
        "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url, "PTB_TIMEDELTA": "1",
        "MAJLIS_DB": str(tmp_path / "bot.sqlite3"), "MAJLIS_AI_LEVEL": "easy",
        "MAJLIS_WEB_URL": WEB_URL, "MAJLIS_WEB_PORT": str(port)})
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        await tg.start_bot(ali)
        await tg.say(ali, GROUP, "/lang en")
        await tg.say(ali, GROUP, "/new tarneeb41")
        await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: "waiting for players" in m.text), timeout=30)
        await tg.say(ali, GROUP, "/begin")

        def web_hand() -> Any:
            return tg.last_bot_message(ali.user_id, lambda m: any("web_app" in b for b in m.buttons))

        hand = await tg.wait_for(web_hand, timeout=30)
        button = next(b for b in hand.buttons if "web_app" in b)
        assert button["text"] == "Open table"
        assert button["web_app"]["url"] == f"{WEB_URL}/tg?table=1"
        # no Mini App button in the group: Telegram refuses them there (the fake does too)
        assert not any("web_app" in b for m in tg.bot_messages(GROUP) for b in m.buttons)

        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as s:
            async with s.post(base + "/api/telegram",
                              json={"init_data": init_data(11, "Ali", int(time.time()), TOKEN), "table": 1}) as r:
                assert r.status == 200
                token = (await r.json())["token"]
            async with s.post(base + "/api/telegram", json={
                    "init_data": init_data(11, "Ali", int(time.time()), "1:forged"), "table": 1}) as r:
                assert r.status == 403
            async with s.ws_connect(f"ws://127.0.0.1:{port}/ws?k={token}", origin=WEB_URL) as ws:
                assert json.loads((await ws.receive(timeout=10)).data)["type"] == "hello"
                st = await state_where(ws, may_act)
                assert st["me"] == 0 and len(st["hand"]) == 13
                # a move from the page reaches the Telegram hand
                before = len(tg.calls)
                await ws.send_json({"type": "act", "version": st["version"], "action": first_move(st)})
                st2 = await state_where(ws, lambda x: x["version"] > st["version"])
                await tg.wait_for(lambda: any(c in ("editMessageText", "sendMessage") for c in tg.calls[before:]),
                                  timeout=10)
                # and a press in Telegram reaches the page
                mine = await state_where(ws, may_act)
                dm = await tg.wait_for(lambda: tg.last_bot_message(
                    ali.user_id, lambda m: any(str(b.get("callback_data", "")).startswith(
                        f"mj1:a:1:{mine['version']}:") for b in m.buttons)), timeout=15)
                data = next(str(b["callback_data"]) for b in dm.buttons
                            if str(b.get("callback_data", "")).startswith(f"mj1:a:1:{mine['version']}:"))
                started = asyncio.get_running_loop().time()
                await tg.press(ali, dm, data)
                moved = await state_where(ws, lambda x: x["version"] > mine["version"])
                assert asyncio.get_running_loop().time() - started < 5.0
                assert moved["version"] > st2["version"] - 1
    finally:
        code, err = await stop_run(proc, signal.SIGTERM)
    assert code == 0, err.decode()[-3000:]


@pytest.mark.slow
async def test_a_profile_card_in_private_links_the_persons_own_page_across_every_chat(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """``majlis run`` wires the card's link (bot/app/runner.py): /profile in the private chat answers with
    an "Open the profile page" button whose signed address opens Ali's own page, every chat."""
    ali = tg.add_user(11, "Ali", "en")
    port = free_port()
    proc = await start_run("telegram", tmp_path, {
        "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url, "PTB_TIMEDELTA": "1",
        "MAJLIS_DB": str(tmp_path / "bot.sqlite3"), "MAJLIS_WEB_URL": WEB_URL, "MAJLIS_WEB_PORT": str(port)})
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        await tg.start_bot(ali)
        await tg.say(ali, ali.user_id, "/profile")
        card = await tg.wait_for(lambda: tg.last_bot_message(
            ali.user_id, lambda m: any(str(b.get("url", "")).startswith(WEB_URL + "/profile#k=") for b in m.buttons)),
            timeout=30)
        button = next(b for b in card.buttons if "url" in b)
        assert button["text"] == "Open the profile page" and "every chat" in card.text
        token = str(button["url"]).split("#k=", 1)[1]
        async with aiohttp.ClientSession() as s, \
                s.get(f"http://127.0.0.1:{port}/api/profile?k={token}&lang=en-GB") as r:  # Ali's browser
            assert r.status == 200
            page = await r.json()
        assert page["title"] == "Profile · Ali · every chat" and page["lang"] == "en"
    finally:
        code, err = await stop_run(proc, signal.SIGTERM)
    assert code == 0, err.decode()[-3000:]
