"""Browser tests need Debian's chromium and the playwright package; without them they skip, saying so once."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("MAJLIS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Where the browser tests leave their screenshots.
OUTPUT = Path(os.environ.get("MAJLIS_TEST_OUTPUT") or Path(__file__).parent / "output")



#: A page on a public address (the fake Discord client on https://discord.com) may frame one on
#: 127.0.0.1: Chromium's Local Network Access checks would refuse it, which only the tests meet (a
#: real Activity's page is served by Discord's proxy from a public address).
LOCAL_FROM_PUBLIC = "--disable-features=LocalNetworkAccessChecks"


@contextlib.asynccontextmanager
async def chromium(*extra: str) -> AsyncIterator[Any]:
    """Debian's chromium through playwright, closed on the way out (``extra``: more switches)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=[*ARGS, *extra])
        try:
            yield browser
        finally:
            await browser.close()


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (apt-get install -y chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


_MISSING = browser_missing()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _MISSING is None:
        return
    skip = pytest.mark.skip(reason=f"browser tests skipped: {_MISSING}")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _MISSING is not None and terminalreporter.stats.get("skipped"):
        terminalreporter.write_line(f"web: browser tests skipped: {_MISSING}")
