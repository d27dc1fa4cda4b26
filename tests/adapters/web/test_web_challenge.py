"""A duplicate challenge's deal played in the Telegram Mini App (issue 31: "in their private chat, the web
table or the Mini App"): ``majlis run --telegram`` with the web table on, a board dealt in the person's
private chat carries the "Open table" Mini App button, Telegram sign-in gives the person's own seat of
that board, and a move from the page is the board's move (real process, real PTB, the fake Bot API)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

os.environ.setdefault("PTB_TIMEDELTA", "1")

from tests.adapters.processes import start_run, stop_run
from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram
from tests.adapters.web.telegram_data import init_data
from tests.adapters.web.test_web_telegram import (  # noqa: F401 (tg: the fixture)
    WEB_URL,
    first_move,
    free_port,
    may_act,
    state_where,
    tg,
)

pytestmark = pytest.mark.timeout(120)
GROUP = -100779


@pytest.mark.slow
async def test_a_challenge_board_dealt_in_private_opens_in_the_mini_app_at_the_persons_seat(
        tg: FakeTelegram, tmp_path: Path) -> None:  # noqa: F811 (the fixture)
    ali = tg.add_user(11, "Ali", "en")
    tg.add_group(GROUP, admins=[ali.user_id])
    port = free_port()
    proc = await start_run("telegram", tmp_path, {
        "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url, "PTB_TIMEDELTA": "1",
        "MAJLIS_DB": str(tmp_path / "bot.sqlite3"), "MAJLIS_WEB_URL": WEB_URL, "MAJLIS_WEB_PORT": str(port)})
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        await tg.start_bot(ali)
        await tg.say(ali, GROUP, "/lang en")
        await tg.say(ali, GROUP, "/challenge new tarneeb41 2 1")
        await tg.wait_for(lambda: tg.last_bot_message(  # the group's challenge message (its values isolated)
            GROUP, lambda m: "/challenge play" in m.text.replace("\u2068", "").replace("\u2069", "")), timeout=30)
        await tg.say(ali, GROUP, "/challenge play")  # in the group; the board is dealt in the private chat

        def web_hand() -> Any:
            return tg.last_bot_message(ali.user_id, lambda m: any("web_app" in b for b in m.buttons))

        hand = await tg.wait_for(web_hand, timeout=30)
        button = next(b for b in hand.buttons if "web_app" in b)
        assert button["text"] == "Open table" and button["web_app"]["url"].startswith(f"{WEB_URL}/tg?table=")
        table = int(button["web_app"]["url"].rsplit("=", 1)[1])

        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as s:
            async with s.post(base + "/api/telegram",
                              json={"init_data": init_data(11, "Ali", int(time.time()), TOKEN), "table": table}) as r:
                assert r.status == 200
                token = (await r.json())["token"]
            async with s.post(base + "/api/telegram",  # someone else is not seated at Ali's board
                              json={"init_data": init_data(12, "Huda", int(time.time()), TOKEN), "table": table}) as r:
                assert r.status == 403 and (await r.json())["error"] == "not_seated"
            async with s.ws_connect(f"ws://127.0.0.1:{port}/ws?k={token}", origin=WEB_URL) as ws:
                assert json.loads((await ws.receive(timeout=10)).data)["type"] == "hello"
                st = await state_where(ws, may_act)
                assert st["me"] == 0 and len(st["hand"]) == 13  # the board's seat 0: the person's own
                await ws.send_json({"type": "act", "version": st["version"], "action": first_move(st)})
                await state_where(ws, lambda x: x["version"] > st["version"])
    finally:
        code, err = await stop_run(proc, signal.SIGTERM)
    assert code == 0, err.decode()[-3000:]
