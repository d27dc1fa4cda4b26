"""``/metrics`` and ``/healthz`` of a real ``majlis run`` process against the fake Bot API (bot/app/health.py).

The counters move with real actions (a person's move, AI moves), a 429 of the fake is counted, the
live table and the AI's think time show; ``/healthz`` is 200 while the storage answers and the bot
is connected, 503 when the Bot API is gone or the database is (a PostgreSQL server of the test's
own, stopped under the running bot).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests import pg
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.processes import free_port, start_run, stop_run
from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram

pytestmark = pytest.mark.slow  # majlis run as a real process

GROUP = -100999


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


def _get_now(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return int(r.status), r.read().decode()
    except urllib.error.HTTPError as e:  # 503 and the like: an answer, not a failure
        with e:
            return int(e.code), e.read().decode()


async def get(url: str) -> tuple[int, str]:
    """GET ``url``; retried while nothing listens yet.

    By urllib in a thread, whose sockets are closed when a connection fails (aiohttp's client,
    probing a port that is only starting to listen, once left a connecting socket to the
    garbage collector, and its ResourceWarning failed a test).
    """
    for _ in range(600):
        try:
            return await asyncio.to_thread(_get_now, url)
        except (urllib.error.URLError, ConnectionError):
            await asyncio.sleep(0.1)
    raise AssertionError(f"nothing answers at {url}")


async def scrape(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    status, text = await get(f"{base}/metrics")
    assert status == 200
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def env(tg: FakeTelegram, db: str, port: int, **extra: str) -> dict[str, str]:
    return {"MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url, "MAJLIS_DB": db,
            "PTB_TIMEDELTA": "1", "MAJLIS_METRICS_PORT": str(port), "MAJLIS_AI_LEVEL": "easy",
            "MAJLIS_SHUTDOWN_GRACE": "2", **extra}


async def test_metrics_move_with_real_actions_and_healthz_follows_the_bot_api(
        tg: FakeTelegram, tmp_path: Path) -> None:
    ali = tg.add_user(11, "Ali", "en")
    tg.add_group(GROUP, admins=[ali.user_id])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = await start_run("telegram", tmp_path, env(tg, str(tmp_path / "m.sqlite3"), port))
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        status, body = await get(f"{base}/healthz")
        assert (status, json.loads(body)) == (200, {"status": "ok", "storage": "ok", "telegram": "ok"})
        before = await scrape(base)
        assert value(before, "majlis_actions_total", reason="person") == 0
        assert value(before, "majlis_live_tables", status="playing") == 0

        await tg.say(ali, GROUP, "/lang en")
        await tg.say(ali, GROUP, "/new tarneeb41 target=1")
        await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: "waiting for players" in m.text), timeout=30)
        tg.fail_next(GROUP, status=429, retry_after=1, methods=["editmessagetext"])
        await tg.say(ali, GROUP, "/begin")  # three AI seats: they play until it is Ali's turn

        def hand() -> Any:
            return tg.last_bot_message(ali.user_id, lambda m: any(
                str(b.get("callback_data", "")).startswith("mj1:a:") for b in m.buttons))

        m = await tg.wait_for(hand, timeout=30)
        move = next(b["callback_data"] for b in m.buttons if str(b.get("callback_data", "")).startswith("mj1:a:"))
        answer = await tg.press(ali, m, move)
        assert not answer.text or answer.text.startswith("Your turn"), answer.text
        for _ in range(100):  # the counters are read at once: poll until the press shows
            after = await scrape(base)
            if value(after, "majlis_actions_total", reason="person") >= 1 and \
                    value(after, "majlis_rate_limited_total", platform="tg") >= 1:
                break
            await asyncio.sleep(0.1)
        assert value(after, "majlis_actions_total", reason="person") == 1
        assert value(after, "majlis_actions_total", reason="ai") >= 3  # the bids before Ali's (at least)
        actions = sum(value(after, "majlis_actions_total", reason=r) for r in ("person", "ai", "timeout"))
        assert value(after, "majlis_action_seconds_count") == actions
        assert value(after, "majlis_action_seconds_sum") > 0
        assert value(after, "majlis_ai_think_seconds_count", game="tarneeb41") >= 3
        assert value(after, "majlis_rate_limited_total", platform="tg") == 1
        assert value(after, "majlis_live_tables", status="playing") == 1
        assert ("majlis_outbox_queue_depth", (("platform", "tg"),)) in after

        tg.fail_next(GROUP, status=429, retry_after=3, methods=["sendmessage"])
        errors = sum(op.kind == "error" for op in tg.ops[GROUP])
        await tg.say(ali, GROUP, "/help")  # its reply waits out the 429 in the outbox
        await tg.wait_for(lambda: sum(op.kind == "error" for op in tg.ops[GROUP]) > errors, timeout=30)
        waiting = await scrape(base)
        assert value(waiting, "majlis_outbox_queue_depth", platform="tg") >= 1
        assert value(waiting, "majlis_rate_limited_total", platform="tg") == 2

        await tg.stop()  # the Bot API is gone: not connected
        status, body = await get(f"{base}/healthz")
        reply = json.loads(body)
        assert status == 503 and reply["status"] == "unavailable" and reply["storage"] == "ok"
        assert reply["telegram"] != "ok"
    finally:
        code, err = await stop_run(proc, signal.SIGTERM)
    assert code == 0, err.decode()[-3000:]


@pytest.mark.parametrize("shards", ["", "0-1/2"])
async def test_healthz_follows_the_discord_gateway(tmp_path: Path, shards: str) -> None:
    dc = FakeDiscord()
    await dc.start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    try:
        proc = await start_run("discord", tmp_path, {
            "MAJLIS_DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GAbCdE.fakefakefakefakefakefakefakefake12",
            "MAJLIS_DISCORD_API_BASE": dc.api_base, "MAJLIS_DISCORD_GATEWAY": dc.gateway_url,
            "MAJLIS_DB": str(tmp_path / "d.sqlite3"), "MAJLIS_METRICS_PORT": str(port), "MAJLIS_SHUTDOWN_GRACE": "2",
            **({"MAJLIS_DISCORD_SHARDS": shards} if shards else {})})
        try:
            await dc.wait_connected(shards=2 if shards else 1, timeout=60)
            for _ in range(100):  # connected comes just before the runner calls the bot ready
                status, body = await get(f"{base}/healthz")
                if status == 200:
                    break
                await asyncio.sleep(0.1)
            assert (status, json.loads(body)) == (200, {"status": "ok", "storage": "ok", "discord": "ok"})
            await dc.close()  # the gateway is gone
            for _ in range(100):
                status, body = await get(f"{base}/healthz")
                if status == 503:
                    break
                await asyncio.sleep(0.1)
            reply = json.loads(body)
            assert status == 503 and reply["discord"] != "ok" and reply["storage"] == "ok", reply
        finally:
            code, err = await stop_run(proc, signal.SIGTERM)
        assert code == 0, err.decode()[-3000:]
    finally:
        await dc.close()


async def test_healthz_is_503_when_the_database_is_gone(tg: FakeTelegram, tmp_path: Path) -> None:
    if pg.server() is None:
        pytest.skip(f"no PostgreSQL: {'; '.join(pg.UNAVAILABLE)}")
    if os.environ.get(pg.ENV):
        pytest.skip(f"needs a PostgreSQL server of its own to stop ({pg.ENV} names a shared one)")
    own = pg.start()
    assert own is not None
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    try:
        proc = await start_run("telegram", tmp_path, env(tg, own.url, port))
        try:
            await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
            status, body = await get(f"{base}/healthz")
            assert (status, json.loads(body)["storage"]) == (200, "ok")
            # the database server goes away under the bot: SIGINT to the postmaster is a fast shutdown
            # (SIGTERM's waits for the bot to disconnect; runuser does not pass SIGINT on)
            assert own.folder is not None and own.process is not None
            postmaster = int((own.folder / "data" / "postmaster.pid").read_text().split()[0])
            os.kill(postmaster, signal.SIGINT)
            await asyncio.to_thread(own.process.wait, 30)
            status, body = await get(f"{base}/healthz")
            reply = json.loads(body)
            assert status == 503 and reply["storage"] != "ok" and reply["telegram"] == "ok", reply
        finally:
            code, err = await stop_run(proc, signal.SIGTERM)
        assert code == 0, err.decode()[-3000:]  # the stop is clean even without its database
    finally:
        own.stop()
