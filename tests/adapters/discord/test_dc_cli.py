"""``majlis run --discord`` as a real process against the fake: configured by the environment
(token, REST base, gateway), it answers commands, and a second process edits the same table."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.adapters.discord.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[3]


async def start_bot(fake: FakeDiscord, tmp_path: Path) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env.update(MAJLIS_DISCORD_TOKEN="fake-token", MAJLIS_DISCORD_API_BASE=fake.api_base,
               MAJLIS_DISCORD_GATEWAY=fake.gateway_url, MAJLIS_DATA_DIR=str(tmp_path),
               MAJLIS_DB=str(tmp_path / "majlis.sqlite3"), MAJLIS_AI_DELAY="0", MAJLIS_LOG_LEVEL="WARNING",
               PYTHONPATH=str(ROOT))
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "run", "--discord", cwd=str(ROOT), env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def stop_bot(proc: asyncio.subprocess.Process) -> tuple[int, bytes]:
    proc.send_signal(signal.SIGINT)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, err


async def test_majlis_run_discord_uses_the_configured_urls_and_survives_a_restart(
        fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_member("Alice", manage_guild=True)
    proc = await start_bot(fake, tmp_path)
    try:
        await fake.wait_until(lambda: fake.commands.get(None) and fake._sockets, timeout=60)
        assert [c["name"] for c in fake.commands[None]] == ["majlis"]
        ix = await fake.slash(alice, None, "lang", language="en")
        await fake.wait_until(lambda: ix.edits, timeout=20)
        ix = await fake.slash(alice, None, "new", game="tarneeb41")
        await fake.wait_until(lambda: ix.edits and fake.channel_messages(), timeout=20)
        table = fake.channel_messages()[0]
        assert "waiting for players" in table.content and table.custom_ids()[0].startswith("mj1:j:")
    finally:
        code, err = await stop_bot(proc)
    assert code in (0, 130), err.decode()[-2000:]

    edits = sum(1 for s in fake.log if s.message_id == table.id)
    proc = await start_bot(fake, tmp_path)
    try:
        await fake.wait_until(lambda: sum(1 for s in fake.log if s.message_id == table.id) > edits, timeout=60)
        assert [m.id for m in fake.channel_messages()] == [table.id]  # restored: edited, not posted again
        await fake.wait_connected()
        bob = fake.add_member("Bob")
        ix = await fake.click(bob, table.id, table.custom_ids()[0])  # a button from before the restart
        await fake.wait_until(lambda: ix.edits, timeout=20)
        assert "Seat 1: Bob" in fake.messages[ix.original_id or 0].content
    finally:
        code, err = await stop_bot(proc)
    assert code in (0, 130), err.decode()[-2000:]
    assert fake.violations == []
