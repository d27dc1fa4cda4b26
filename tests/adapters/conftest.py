"""Fixtures of the real-process tests beside the platform folders."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord with two servers, one on each of two shards (tests/adapters/discord has its own)."""
    f = FakeDiscord(guilds=2, shards=2)
    await f.start()
    try:
        yield f
    finally:
        await f.close()
