"""The fake Bot API itself behaves as the tests assume (long poll, 400 for unknown methods, budgets)."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram, Op


async def call(tg: FakeTelegram, method: str, **params: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    async with httpx.AsyncClient(timeout=20) as client:
        r = await client.post(f"{tg.base_url}{TOKEN}/{method}", data=params)
        return r.status_code, r.json()


async def test_long_poll_is_held_and_released_by_an_update(tg: FakeTelegram) -> None:
    user = tg.add_user(5, "Ali")
    started = time.monotonic()
    poll = asyncio.create_task(call(tg, "getUpdates", timeout="5", offset="0"))
    await asyncio.sleep(0.2)
    assert not poll.done()
    await tg.say(user, 5, "/start x")
    status, body = await poll
    assert status == 200 and time.monotonic() - started < 4
    update = body["result"][0]
    assert update["message"]["entities"] == [{"type": "bot_command", "offset": 0, "length": 6}]
    _, again = await call(tg, "getUpdates", timeout="0", offset=str(update["update_id"] + 1))
    assert again["result"] == []


async def test_unknown_method_is_400_not_404(tg: FakeTelegram) -> None:
    status, body = await call(tg, "sendDice", chat_id="5")
    assert status == 400 and body["ok"] is False


async def test_window_count(tg: FakeTelegram) -> None:
    ops = [Op("edit", -1, 1, "x", at) for at in (0.0, 10.0, 59.9, 60.0, 60.5, 200.0)]
    tg.ops[-1].extend(ops)
    assert tg.max_ops_in_window(-1, 60.0) == 4  # 0.0 is out of the window ending at 60.0
    assert tg.max_ops_in_window(-1, 61.0) == 5


async def test_a_webhook_is_recorded_gets_the_updates_with_its_secret_and_deleting_it_resumes_polling(
        tg: FakeTelegram) -> None:
    from aiohttp import web

    got: list[tuple[str | None, dict]] = []  # type: ignore[type-arg]

    async def hook(request: web.Request) -> web.Response:
        got.append((request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json()))
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        user = tg.add_user(5, "Ali")
        assert (await call(tg, "setWebhook", url=f"http://127.0.0.1:{port}/hook", secret_token="s3cret"))[0] == 200
        status, _ = await call(tg, "getUpdates", timeout="0")
        assert status == 409  # as Telegram: no polling while a webhook is set
        await tg.say(user, 5, "hello")
        await tg.wait_for(lambda: got, timeout=10)
        assert got[0][0] == "s3cret" and got[0][1]["message"]["text"] == "hello"
        assert tg.deliveries == [(got[0][1]["update_id"], 200)]
        assert (await call(tg, "deleteWebhook"))[0] == 200
        await tg.say(user, 5, "again")
        _, body = await call(tg, "getUpdates", timeout="0")
        assert [u["message"]["text"] for u in body["result"]] == ["again"]
        assert [m for m, _ in tg.webhook_calls] == ["setwebhook", "deletewebhook"]
        assert tg.webhook_calls[0][1]["secret_token"] == "s3cret"
    finally:
        await runner.cleanup()
