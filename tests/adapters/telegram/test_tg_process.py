"""`majlis run --telegram` as a real process against the fake Bot API: configured from the
environment (token and base URL), it answers in a group, keeps the table in SQLite across a restart,
and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.adapters.processes import start_run, stop_run
from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram

pytestmark = pytest.mark.slow  # majlis run as a real process

GROUP = -100777


async def start_bot(tg: FakeTelegram, tmp_path: Path) -> asyncio.subprocess.Process:
    return await start_run("telegram", tmp_path, {
        "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url,
        "MAJLIS_DB": str(tmp_path / "bot.sqlite3"), "PTB_TIMEDELTA": "1"})


async def stop_bot(proc: asyncio.subprocess.Process) -> tuple[int, bytes]:
    return await stop_run(proc, signal.SIGTERM)


async def test_run_from_environment_restart_and_sigterm(tg: FakeTelegram, tmp_path: Path) -> None:
    ali = tg.add_user(11, "Ali", "en")
    tg.add_group(GROUP, admins=[ali.user_id])
    proc = await start_bot(tg, tmp_path)
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls, timeout=60)
        await tg.say(ali, GROUP, "/lang en")
        await tg.say(ali, GROUP, "/new trix")
        lobby = await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: "waiting for players" in m.text),
                                  timeout=30)
    finally:
        code, err = await stop_bot(proc)
    assert code == 0, err.decode()[-2000:]

    calls = len(tg.calls)
    proc = await start_bot(tg, tmp_path)  # the same database: the lobby is restored and shown again
    try:
        await tg.wait_for(lambda: "getUpdates" in tg.calls[calls:], timeout=60)
        await tg.say(ali, GROUP, "/begin")
        await tg.wait_for(lambda: "waiting for players" not in lobby.text and len(lobby.history) > 1,
                          timeout=30)
    finally:
        code, err = await stop_bot(proc)
    assert code == 0, err.decode()[-2000:]
    assert [m.message_id for m in tg.bot_messages(GROUP) if m.text.startswith("Trix · table")] == \
        [lobby.message_id]
