"""The web table in a real browser (Debian's chromium driven by playwright), on a real manager.

Lean on purpose: one match, one Trix deal, a few pages. Screenshots go to ``tests/web/output``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.web.conftest import ARGS, CHROMIUM, OUTPUT
from tests.web.harness import web_bed

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
CODE = re.compile(r'"code":"([2-9TJQKA][SHDC])"')


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(browser: Any, url: str, viewport: dict[str, int] = DESKTOP) -> Any:
    page = await browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    await page.goto(url)
    await page.wait_for_selector("body[data-version]")
    return page


async def wait_js(page: Any, expr: str, timeout: float = 20_000) -> None:
    """Poll ``expr`` until true (the page's CSP forbids playwright's eval-based wait_for_function)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout / 1000
    while not await page.evaluate(expr):
        assert loop.time() < end, f"timed out waiting for {expr}"
        await asyncio.sleep(0.02)


async def shot(page: Any, name: str) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=True)


async def my_move(page: Any, timeout: float = 20_000) -> str | None:
    """Wait until this page may act (or the match is over); None once over."""
    await wait_js(page,
        "document.body.dataset.over === '1' || document.querySelector('#hand.myturn .card.playable') !== null"
        " || document.querySelector('#actions button') !== null", timeout)
    if await page.evaluate("document.body.dataset.over === '1'"):
        return None
    return str(await page.evaluate("document.body.dataset.version"))


async def click_move(page: Any, prefer: str | None = None) -> str:
    """Click a legal choice: a raised card, else an action button (``prefer`` first if shown)."""
    version = await page.evaluate("document.body.dataset.version")
    if prefer and await page.locator(f'#actions button[data-action="{prefer}"]').count():
        what = prefer
        await page.locator(f'#actions button[data-action="{prefer}"]').click()
    elif await page.locator("#hand.myturn .card.playable").count():
        card = page.locator("#hand.myturn .card.playable").first
        what = "play " + str(await card.get_attribute("data-code"))
        await card.click()
    else:
        button = page.locator("#actions button").first
        what = str(await button.get_attribute("data-action"))
        await button.click()
    await wait_js(page, f"document.body.dataset.version !== '{version}'", 10_000)
    return what


async def test_browser_tarneeb41_whole_match_by_clicking(tmp_path: Any) -> None:
    async with web_bed(tmp_path, game="tarneeb41", seed=3, options={"target": 11}, ai_delay=0.0) as bed, \
            chromium() as browser:
        page = await open_page(browser, bed.play_url(0))
        assert await page.locator("#hand .card").count() == 13
        assert await page.evaluate("document.documentElement.dir") == "ltr"
        clicks = 0
        shot_taken = False
        while await my_move(page) is not None:
            if not shot_taken and await page.locator("#hand.myturn .card.playable").count():
                # playable cards raised, the others dimmed; four seats; the trump shown
                assert await page.locator("#seat-0 .name").inner_text() == "Sara"
                assert await page.locator("#trumpbox .item").count() == 2  # trump and the exposed card
                await shot(page, "tarneeb41-desktop-en")
                shot_taken = True
            await click_move(page)
            clicks += 1
        assert clicks >= 14
        snap = bed.manager.get(bed.table_id)
        assert snap is not None and snap.table.status == "finished"
        result = await page.locator("#result").inner_text()
        assert "wins the match" in result
        rows = await page.locator("#sheet tbody tr").count()
        assert rows >= 1 and await page.locator("#sheet thead th").all_inner_texts() == ["Deal", "Us", "Them"]
        await page.locator("#lastbtn").click()
        assert await page.locator("#lasttrick .card").count() == 4
        await shot(page, "tarneeb41-over-desktop-en")
        assert page.errors == []


async def test_browser_arabic_page_is_rtl_on_phone_and_desktop(tmp_path: Any) -> None:
    async with web_bed(tmp_path, game="tarneeb41", seed=5, lang="ar", digits="arabic") as bed, \
            chromium() as browser:
        page = await open_page(browser, bed.play_url(0), PHONE)
        await my_move(page)
        assert await page.evaluate("document.documentElement.dir") == "rtl"
        assert await page.evaluate("document.documentElement.lang") == "ar"
        assert await page.locator("#hand .card").count() == 13
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, width  # nothing sticks out sideways on a phone
        ui = await page.locator("#lastbtn").inner_text()
        assert ui and not re.search("[A-Za-z]", ui)
        # numbers in Arabic-Indic digits, as the chat says
        assert re.search("[٠-٩]", await page.locator("#scores").inner_text())
        await shot(page, "tarneeb41-phone-ar")
        await page.set_viewport_size(DESKTOP)
        await shot(page, "tarneeb41-desktop-ar")
        assert page.errors == []
