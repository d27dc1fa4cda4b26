"""Fixtures: the fake Discord on 127.0.0.1 and discord.py pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started fake with one guild and one text channel."""
    f = FakeDiscord()
    await f.start()
    yield f
    await f.close()


@pytest.fixture
def patched(fake: FakeDiscord) -> Iterator[FakeDiscord]:
    """discord.py's REST base and gateway redirected to the fake for the test's duration."""
    with fake.patched():
        yield fake
