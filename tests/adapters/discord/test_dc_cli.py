"""``majlis run --discord`` as a real process against the fake: configured by the environment
(token, REST base, gateway), it answers commands, and a second process edits the same table."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.processes import start_run, stop_run

pytestmark = pytest.mark.slow  # majlis run as a real process


async def start_bot(fake: FakeDiscord, tmp_path: Path) -> asyncio.subprocess.Process:
    return await start_run("discord", tmp_path, {
        "MAJLIS_DISCORD_TOKEN": "fake-token", "MAJLIS_DISCORD_API_BASE": fake.api_base,
        "MAJLIS_DISCORD_GATEWAY": fake.gateway_url, "MAJLIS_DB": str(tmp_path / "majlis.sqlite3"),
        "MAJLIS_LOG_LEVEL": "WARNING"})


async def stop_bot(proc: asyncio.subprocess.Process) -> tuple[int, bytes]:
    return await stop_run(proc, signal.SIGINT)


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
        await fake.wait_until(lambda: fake._sockets, timeout=60)
        await fake.wait_connected()
        bob = fake.add_member("Bob")
        ix = await fake.click(bob, table.id, table.custom_ids()[0])  # a button from before the restart
        await fake.wait_until(lambda: ix.edits, timeout=20)
        assert "Seat 1: Bob" in fake.messages[ix.original_id or 0].content
        # The restored lobby is the same message, edited when it changed (not to what it showed).
        await fake.wait_until(lambda: sum(1 for s in fake.log if s.message_id == table.id) > edits, timeout=60)
        assert [m.id for m in fake.channel_messages()] == [table.id]
        assert "Bob" in fake.messages[table.id].content
    finally:
        code, err = await stop_bot(proc)
    assert code in (0, 130), err.decode()[-2000:]
    assert fake.violations == []
