"""``majlis run`` as a real process against both fakes (bot/app/runner.py, bot/app/logs.py).

One runner owns the signals: SIGTERM or SIGINT stops one bot or both, drains the outboxes within
``MAJLIS_SHUTDOWN_GRACE`` and exits 0; both bots share one repository (one open database file)
and one table manager; at DEBUG no token reaches the log.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.processes import start_run, stop_run
from tests.adapters.telegram.fake_server import FakeTelegram

pytestmark = pytest.mark.slow  # majlis run as a real process

GROUP = -100555
#: Shaped like real tokens (so the pattern redaction is exercised too), but made up.
TG_TOKEN = "7012345678:AAHfakeFAKEfake_fake-FAKEfakeFAKEfak"
DC_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GAbCdE.fakefakefakefakefakefakefakefake12"


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram(token=TG_TOKEN)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()


def _env(tmp_path: Path, tg: FakeTelegram | None, dc: FakeDiscord | None, **extra: str) -> dict[str, str]:
    env = {"MAJLIS_DB": str(tmp_path / "majlis.sqlite3"), "PTB_TIMEDELTA": "1", **extra}
    if tg is not None:
        env.update(MAJLIS_TELEGRAM_TOKEN=TG_TOKEN, MAJLIS_TELEGRAM_BASE_URL=tg.base_url)
    if dc is not None:
        env.update(MAJLIS_DISCORD_TOKEN=DC_TOKEN, MAJLIS_DISCORD_API_BASE=dc.api_base,
                   MAJLIS_DISCORD_GATEWAY=dc.gateway_url)
    return env


async def _start(flag: str, tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    proc = await start_run(flag, tmp_path, env) if flag else await _start_plain(tmp_path, env)
    return proc


async def _start_plain(tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    """``majlis run`` with no flag: every bot that has a token."""
    import sys

    from tests.adapters.processes import ROOT

    full = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    full.update(MAJLIS_DATA_DIR=str(tmp_path), MAJLIS_AI_DELAY="0", PYTHONPATH=str(ROOT), **env)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=str(ROOT), env=full,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


def _open_files(pid: int, path: Path) -> int:
    """How many descriptors of process ``pid`` are open on ``path`` itself (not its -wal/-shm)."""
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                n += 1
        except OSError:
            continue
    return n


async def test_both_bots_share_one_database_log_no_token_at_debug_and_stop_on_sigterm(
        tg: FakeTelegram, dc: FakeDiscord, tmp_path: Path) -> None:
    ali = tg.add_user(11, "Ali", "en")
    tg.add_group(GROUP, admins=[ali.user_id])
    alice = dc.add_member("Alice", manage_guild=True)
    db = tmp_path / "majlis.sqlite3"
    proc = await _start("", tmp_path, _env(tmp_path, tg, dc, MAJLIS_LOG_LEVEL="DEBUG"))
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        await dc.wait_connected(timeout=60)
        assert _open_files(proc.pid, db) == 1  # one repository for both bots
        await tg.say(ali, GROUP, "/lang en")
        await tg.say(ali, GROUP, "/new trix")
        await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: "waiting for players" in m.text), timeout=30)
        ix = await dc.slash(alice, None, "new", game="tarneeb41")
        await dc.wait_until(lambda: ix.edits and dc.channel_messages(), timeout=30)
        assert _open_files(proc.pid, db) == 1
    finally:
        started = time.monotonic()
        code, err = await stop_run(proc, signal.SIGTERM)
    log = err.decode()
    assert code == 0, log[-3000:]
    assert time.monotonic() - started < 20
    assert "DEBUG" in log and "telegram" in log and "discord" in log  # the log did run at DEBUG
    assert TG_TOKEN not in log and TG_TOKEN.split(":")[1] not in log
    assert DC_TOKEN not in log
    leaked = [t for t in dc.by_token if t in log]
    assert leaked == []  # interaction tokens (webhook URLs) are secrets too
    assert "Traceback" not in log
    assert "bot.app.runner: stopped" in log.splitlines()[-1]


async def test_discord_alone_stops_on_sigterm_with_exit_code_0(dc: FakeDiscord, tmp_path: Path) -> None:
    proc = await _start("discord", tmp_path, _env(tmp_path, None, dc))
    try:
        await dc.wait_connected(timeout=60)
    finally:
        code, err = await stop_run(proc, signal.SIGTERM)
    assert code == 0, err.decode()[-3000:]


async def test_telegram_alone_stops_on_sigint_after_delivering_what_was_queued(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """A reply waiting out a 429 when SIGINT comes is still delivered: the outbox drains first."""
    ali = tg.add_user(11, "Ali", "en")
    tg.add_group(GROUP, admins=[ali.user_id])
    proc = await _start("telegram", tmp_path, _env(tmp_path, tg, None, MAJLIS_LOG_LEVEL="INFO"))
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        tg.fail_next(GROUP, status=429, retry_after=2, methods=["sendmessage"])
        await tg.say(ali, GROUP, "/help")
        await tg.wait_for(lambda: any(op.kind == "error" for op in tg.ops[GROUP]), timeout=30)
    finally:
        started = time.monotonic()
        code, err = await stop_run(proc, signal.SIGINT)
    assert code == 0, err.decode()[-3000:]
    assert time.monotonic() - started >= 1.0  # it waited for the retry ...
    assert tg.bot_messages(GROUP)  # ... and the reply went out before the exit


async def test_the_drain_is_bounded_by_the_configured_grace(tg: FakeTelegram, tmp_path: Path) -> None:
    """A reply that cannot go out for a minute does not hold the stop beyond the grace."""
    ali = tg.add_user(11, "Ali", "en")
    tg.add_group(GROUP, admins=[ali.user_id])
    proc = await _start("telegram", tmp_path, _env(tmp_path, tg, None, MAJLIS_SHUTDOWN_GRACE="1"))
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        tg.fail_next(GROUP, status=429, retry_after=60, methods=["sendmessage"])
        await tg.say(ali, GROUP, "/help")
        await tg.wait_for(lambda: any(op.kind == "error" for op in tg.ops[GROUP]), timeout=30)
    finally:
        started = time.monotonic()
        code, err = await stop_run(proc, signal.SIGTERM)
    assert code == 0, err.decode()[-3000:]
    assert time.monotonic() - started < 10  # 1 s of grace, then closing; not the 60 s of the 429
    assert not tg.bot_messages(GROUP)


async def test_a_refused_token_is_one_error_line_and_exit_code_1(tg: FakeTelegram, tmp_path: Path) -> None:
    env = _env(tmp_path, tg, None)
    env["MAJLIS_TELEGRAM_TOKEN"] = "7012345678:AAHsomeOtherFakeTokenFakeTokenFakeTo"  # not the fake's
    proc = await _start("telegram", tmp_path, env)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    log = err.decode()
    assert proc.returncode == 1, log
    problems = [line for line in log.splitlines() if " ERROR " in line or " CRITICAL " in line]
    assert len(problems) == 1 and "Telegram refused the bot token" in problems[0], log
    assert "Traceback" not in log
    assert env["MAJLIS_TELEGRAM_TOKEN"] not in log
