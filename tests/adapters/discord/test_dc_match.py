"""Four simulated members play whole matches through slash commands and buttons only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3").start()
    yield b
    await b.stop()


def members(fake: FakeDiscord, names: str = "Alice Bob Carol Dan", closed: str = "") -> list[Member]:
    out = []
    for name in names.split():
        uid = fake.add_member(name, dm_open=name not in closed.split())
        out.append(Member(uid, name, dm_open=name not in closed.split()))
    return out


async def test_tarneeb41_in_english(fake: FakeDiscord, bot: Bot) -> None:
    people = members(fake)
    table = Table(fake, bot, fake.channel_id, people, seed=3)
    await table.open("tarneeb41", target=5)
    assert table.status() == "playing"
    await table.play_out(dm_seats=frozenset({1}))
    assert table.status() == "finished"
    await bot.drain()
    assert bot.privacy is not None and bot.privacy.leaks == []
    assert fake.violations == []
