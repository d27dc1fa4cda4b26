"""Fixtures of the Telegram adapter tests: the fake Bot API server on 127.0.0.1."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

# PTB warns when a 429's retry_after is read as an int; opt in to timedelta (tests turn warnings
# into errors).
os.environ["PTB_TIMEDELTA"] = "1"
ROOT = str(Path(__file__).resolve().parents[3])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.adapters.telegram.fake_server import FakeTelegram  # noqa: E402
from tests.adapters.telegram.harness import Bed  # noqa: E402


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A running fake Telegram with its default clock."""
    fake = FakeTelegram()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def bed(tmp_path: Path) -> AsyncIterator[Bed]:
    """The whole bot (manager, presenter, Application) on a SQLite file, against the fake."""
    b = Bed(tmp_path)
    await b.open()
    try:
        yield b
    finally:
        await b.close()


@pytest.fixture(autouse=True)
def collect_garbage() -> Iterator[None]:
    """Collect after each test, so that a leaked socket is reported by the test that leaked it."""
    yield
    gc.collect()
