"""Hint and Review as a newcomer meets them on a phone (390×844, Arabic and English), in real chromium
(the one launcher in conftest.py) on a real manager and SQLite file: the casual table says so in its
header, Hint at the reader's turn lights the suggested bid's button and raises the suggested card with
the advice beside the hand, and Review in the deal's result panel names the costliest card."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.advice import HINTS
from bot.core.tables import ai_runner
from bot.present.i18n import translator
from tests.adapters.web.conftest import chromium
from tests.adapters.web.harness import web_bed
from tests.adapters.web.test_web_browser import click_move, my_move, wait_js
from tests.adapters.web.test_web_table_ui import PANEL_UP, PHONE, new_page, no_overflow, shot

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]  # chromium

ISOLATES = "\u2066\u2067\u2068\u2069"
ADVICE_UP = ("!document.getElementById('advice').hidden"
             " && !document.getElementById('advice').classList.contains('waiting')")
REVIEW_UP = ("document.getElementById('panelreview').textContent.length > 3"
             " && !document.getElementById('panelreview').classList.contains('waiting')")


def before(text: str) -> str:
    """What a message says before its first placeholder (filled with «§»), bidi isolates left off."""
    return text.partition("§")[0].strip(ISOLATES)


async def press(page: Any, button: str, shown: str, up: str) -> None:
    """Press Hint or Review and wait for its answer; pressed again, as the page says to, while the
    search cannot finish within its cap (``ai_busy``: a loaded machine)."""
    for _ in range(8):
        await page.locator(button).click()
        await wait_js(page, up, 10_000)
        if await page.locator(shown).get_attribute("data-code") != "ai_busy":
            return
        await asyncio.sleep(0.5)
    raise AssertionError("the AI was busy every time")


@pytest.fixture(autouse=True)
def in_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The advice in a worker thread (the process pool's own tests, the cap's among them, are in
    tests/ai/test_ai_pool.py), under a cap no loaded machine reaches: what is tested here is what the
    answer says and where it goes, never how fast it comes."""
    monkeypatch.setattr(ai_runner, "POOL", False)
    monkeypatch.setattr(ai_runner, "HARD_CAP", 20.0)
    monkeypatch.setattr(ai_runner, "deadline_in", lambda: time.monotonic() + 19.0)
    yield


@pytest.mark.parametrize("lang", ["ar", "en"])
async def test_hint_lights_the_suggested_move_and_review_in_the_result_panel_names_the_costliest_card(
        tmp_path: Path, lang: str) -> None:
    digits = "arabic" if lang == "ar" else "western"
    t = translator(lang, digits)
    hint_prefix = before(t.gettext("Hint: {action}.", action="§"))
    review_prefix = before(t.gettext("Review of deal {deal}: your {card} in trick {trick} cost {amount} points; "
                                     "{better} was better.", deal="§", card="", trick="", amount="", better=""))
    async with web_bed(tmp_path, game="tarneeb41", seed=3, lang=lang, digits=digits, ai_delay=0.02,
                       deal_pause=60.0, options={HINTS: True}) as bed, chromium() as browser:
        page = await new_page(browser, bed.play_url(0), PHONE)
        assert await page.locator("#casual").inner_text() == t.gettext("Casual table: hints and deal reviews are on.")
        assert await page.locator("#reviewbtn").is_hidden()  # nothing to review before a deal is scored
        bid_hinted = card_hinted = False
        while not card_hinted:
            assert await my_move(page) is not None
            await no_overflow(page)
            bidding = await page.locator("#actions button").count() > 0
            if bidding and bid_hinted:
                await click_move(page)
                continue
            version = await page.evaluate("document.body.dataset.version")
            await press(page, "#hintbtn", "#advice", ADVICE_UP)
            said = await page.locator("#advicetext").inner_text()
            assert said.startswith(hint_prefix), said
            assert await page.evaluate("document.body.dataset.version") == version  # a hint moves nothing
            legal = bed.manager.view(bed.table_id, 0)["legal"]
            if bidding:  # the suggested bid's button is lit, and it is a legal one
                lit = page.locator("#actions button.hinted")
                assert await lit.count() == 1 and await lit.get_attribute("data-action") in legal
                bid_hinted = True
                await lit.click()
                await wait_js(page, f"document.body.dataset.version !== '{version}'", 10_000)
                continue
            raised = page.locator("#hand .card.raised.hinted")  # the suggested card stands up
            assert await raised.count() == 1 and await page.locator("#hand .card.hinted").count() == 1
            code = await raised.get_attribute("data-code")
            assert f"play {code}" in legal
            assert await page.locator("#playbtn").is_visible()  # Play plays it
            await shot(page, f"hint-phone-{lang}")
            card_hinted = True
            log = len(await bed.repo.actions(bed.table_id))
            await page.locator("#playbtn").click()
            await wait_js(page, f"document.body.dataset.version !== '{version}'", 10_000)
            assert (await bed.repo.actions(bed.table_id))[log].action == f"play {code}"
            await wait_js(page, "document.getElementById('advice').hidden", 5_000)  # it was for that position
        while await page.evaluate(PANEL_UP) is False:  # on to the end of the deal
            await wait_js(page, PANEL_UP + " || document.querySelector('#hand.myturn .card.playable') !== null"
                          " || document.querySelector('#actions button') !== null", 20_000)
            if await page.evaluate(PANEL_UP):
                break
            await click_move(page)
        await press(page, "#panelreviewbtn", "#panelreview", REVIEW_UP)
        said = await page.locator("#panelreview").inner_text()
        assert said.startswith(review_prefix) or said.startswith(before(
            t.ngettext("Review of deal {deal}: none of your {n} card cost anything, all hands known.",
                       "Review of deal {deal}: none of your {n} cards cost anything, all hands known.", 13,
                       deal="§"))), said
        assert await page.evaluate(PANEL_UP)  # the panel stays while its review is read
        assert await page.locator("#panelreviewbtn").is_hidden()  # answered
        await no_overflow(page)
        await shot(page, f"review-phone-{lang}")
        await page.locator("#nextdeal").click()
        await wait_js(page, "document.getElementById('panel').hidden", 5_000)
        await wait_js(page, "!document.getElementById('reviewbtn').hidden", 10_000)  # and while the next deal runs
        await press(page, "#reviewbtn", "#advice", ADVICE_UP)  # beside the hand this time
        assert await page.locator("#advicetext").inner_text() == said
        assert await page.locator("#advice").get_attribute("data-kind") == "review"
        assert page.errors == []
