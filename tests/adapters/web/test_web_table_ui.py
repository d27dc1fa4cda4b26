"""The web table as a new player meets it on a phone and a desktop (issue 29): the result of each deal
in a panel of its own, a tap that raises a card before it plays it, the Trix layout in readable rows,
Arabic seats that read from the right, nothing wider than the screen, and a whole match ending in Play
again. Real chromium (the one launcher in conftest.py) on a real manager and SQLite file.
"""

from __future__ import annotations

import asyncio
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.web.local import CHAT, LocalTable, WebOptions
from bot.core.model import TableUpdate
from bot.core.views import DealScored
from bot.present.i18n import translator
from tests.adapters.screens import publish_web
from tests.adapters.web.conftest import OUTPUT, chromium
from tests.adapters.web.harness import web_bed
from tests.adapters.web.test_web_browser import click_move, my_move, trix_seed_with_queen_for_seat0, wait_js

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]  # chromium

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = [pytest.param("ar", PHONE, id="ar-phone"), pytest.param("en", DESKTOP, id="en-desktop"),
         pytest.param("en", PHONE, id="en-phone"), pytest.param("ar", DESKTOP, id="ar-desktop")]
#: The most one card of the Trix layout may hide of the next (a fraction of its width).
MAX_OVERLAP = 0.45
PANEL_UP = "document.body.dataset.panel === 'deal'"


async def new_page(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    """A page as a phone (touch) or a desktop (mouse) opens it."""
    touch = viewport["width"] < 600
    context = await browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    await page.goto(url)
    await page.wait_for_selector("body[data-version]")
    return page


def size_name(viewport: dict[str, int]) -> str:
    return "phone" if viewport["width"] < 600 else "desktop"


async def shot(page: Any, name: str, *, full: bool = False) -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    await asyncio.sleep(0.5)  # the panel's rise and the trick's motion are over
    await page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=full)
    publish_web(name, OUTPUT / f"{name}.png")


async def no_overflow(page: Any) -> None:
    sizes = await page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert sizes[0] <= sizes[1], sizes


#: The middle x of each word of a seat's name (its text node), and of its face and its words block.
SEAT_X_JS = """(id) => {
  const box = document.getElementById(id);
  const node = box.querySelector(".name").firstChild;
  const words = [];
  const re = /\\S+/g;
  let m;
  while ((m = re.exec(node.textContent))) {
    const r = document.createRange();
    r.setStart(node, m.index);
    r.setEnd(node, m.index + m[0].length);
    const q = r.getBoundingClientRect();
    words.push(q.left + q.width / 2);
  }
  const mid = (e) => { const q = e.getBoundingClientRect(); return q.left + q.width / 2; };
  return {words, face: mid(box.querySelector(".face")), text: mid(box.querySelector(".words")),
          dir: getComputedStyle(box).direction};
}"""


@pytest.mark.parametrize(("lang", "viewport"), SIZES)
async def test_a_deal_ends_in_a_result_panel_with_the_figures_and_next_deal_goes_on(
        tmp_path: Path, lang: str, viewport: dict[str, int]) -> None:
    """Seed 3: an AI opens the second deal; the table waits (deal_pause) until Next deal."""
    scored: list[DealScored] = []
    async with web_bed(tmp_path, game="tarneeb41", seed=3, lang=lang, ai_delay=0.02, deal_pause=60.0,
                       digits="arabic" if lang == "ar" else "western") as bed, chromium() as browser:

        async def record(update: TableUpdate) -> None:
            scored.extend(e for e in update.events if e["type"] == "deal_scored")

        bed.manager.subscribe(record)
        page = await new_page(browser, bed.play_url(0), viewport)
        t = translator(lang, "arabic" if lang == "ar" else "western")
        await my_move(page)
        await no_overflow(page)
        # the Arabic seats read from the right: «لاعب آلي ٢» draws its number to the left of its words,
        # and the face stands at the start of the line (the right)
        seat = await page.evaluate(SEAT_X_JS, "seat-2")
        if lang == "ar":
            assert seat["dir"] == "rtl" and seat["words"][0] > seat["words"][-1], seat
            assert seat["face"] > seat["text"], seat
        else:
            assert seat["dir"] == "ltr" and seat["words"][0] < seat["words"][-1], seat
            assert seat["face"] < seat["text"], seat
        pictured = False
        while not scored:
            assert await my_move(page) is not None
            if scored:
                break
            if not pictured and await page.locator("#hand.myturn .card.playable").count() \
                    and await page.locator("#trick .card").count() >= 2:
                await shot(page, f"table-{size_name(viewport)}-{lang}")  # your turn, cards on the table
                pictured = True
            await click_move(page)
        assert pictured
        await wait_js(page, PANEL_UP, 10_000)
        await no_overflow(page)
        ev = scored[0]
        bids, tricks = ev["summary"]["bids"], ev["summary"]["tricks"]
        deltas, totals = ev["deltas"]["players"], ev["scores"]["players"]
        rows = await page.evaluate("[...document.querySelectorAll('#paneltable tbody tr')].map((tr) =>"
                                   " [tr.dataset.seat, ...[...tr.cells].slice(1).map((c) => c.textContent)])")
        assert [r[0] for r in rows] == ["0", "1", "2", "3"]  # you first, then round the table
        for row in rows:
            s = int(row[0])
            assert row[1:] == [t.number(bids[s]), t.number(tricks[s]), t.signed(deltas[s]), t.number(totals[s])]
        title = await page.locator("#paneltitle").inner_text()
        assert title == t.gettext("Result of deal {n}", n=1)
        await shot(page, f"result-{size_name(viewport)}-{lang}")
        # the table waits under the panel: no AI has opened the next deal
        snap = bed.manager.get(bed.table_id)
        assert snap is not None and snap.to_act != 0
        version = snap.table.version
        await asyncio.sleep(0.5)
        assert bed.manager.get(bed.table_id).table.version == version  # type: ignore[union-attr]
        await page.locator("#nextdeal").click()
        await wait_js(page, "document.getElementById('panel').hidden", 2_000)
        await wait_js(page, f"Number(document.body.dataset.version) > {version}", 5_000)
        assert page.errors == []


@pytest.mark.parametrize("lang", ["ar", "en"])
async def test_a_tap_raises_a_card_a_second_tap_plays_it_and_a_card_that_may_not_be_played_says_why(
        tmp_path: Path, lang: str) -> None:
    async with web_bed(tmp_path, game="tarneeb41", seed=3, lang=lang) as bed, chromium() as browser:
        page = await new_page(browser, bed.play_url(0), PHONE)  # a touch screen
        t = translator(lang)
        refused = False
        raised = False
        for _ in range(60):
            assert await my_move(page) is not None
            if await page.locator("#actions button").count():  # bidding: not the hand's business
                await click_move(page)
                continue
            version = await page.evaluate("document.body.dataset.version")
            log = len(await bed.repo.actions(bed.table_id))
            barred = page.locator("#hand.myturn .card:not(.playable)")
            if not refused and await barred.count():
                await barred.first.tap(force=True)  # aria-disabled, yet a finger may tap it: told why
                await wait_js(page, "document.getElementById('error').textContent.length > 3", 5_000)
                reason = await page.locator("#error").inner_text()
                led = t.gettext("You must follow suit: play {suit}.", suit="").split("{")[0][:8]
                assert reason.startswith(led) or reason == t.gettext("You must follow the suit that was led."), reason
                assert await page.evaluate("document.body.dataset.version") == version
                assert len(await bed.repo.actions(bed.table_id)) == log
                refused = True
            card = page.locator("#hand.myturn .card.playable").first
            code = await card.get_attribute("data-code")
            box = await card.bounding_box()
            assert box["width"] >= 44 or raised, box  # a target a finger can hit
            await card.tap()
            assert await page.locator(f'#hand .card.raised[data-code="{code}"]').count() == 1
            assert await page.evaluate("document.body.dataset.version") == version  # raised, not played
            assert len(await bed.repo.actions(bed.table_id)) == log
            assert await page.locator("#playbtn").is_visible()
            await page.locator(f'#hand .card[data-code="{code}"]').tap()  # the second tap plays it
            await wait_js(page, f"document.body.dataset.version !== '{version}'", 5_000)
            assert (await bed.repo.actions(bed.table_id))[log].action == f"play {code}"
            raised = True
            if refused:
                break
        assert raised and refused
        # one tap, as a setting kept in the browser
        await page.locator("#onetapbox").check()
        assert await page.evaluate("localStorage.getItem('majlis.oneTap')") == "1"
        while await my_move(page) is not None and await page.locator("#actions button").count():
            await click_move(page)
        version = await page.evaluate("document.body.dataset.version")
        await page.locator("#hand.myturn .card.playable").first.tap()
        await wait_js(page, f"document.body.dataset.version !== '{version}'", 5_000)
        assert not await page.locator("#keys").is_visible()  # no keyboard hint on a touch screen
        assert page.errors == []


#: Each row of the Trix layout: its top and bottom, and the left edge and width of each card.
LAYOUT_JS = """() => [...document.querySelectorAll('#layout .layout-row')].map((row) => {
  const r = row.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, cards: [...row.querySelectorAll('.card')].map((c) => {
    const q = c.getBoundingClientRect(); return [q.left, q.width]; })};
})"""


@pytest.mark.parametrize(("lang", "viewport"), SIZES)
async def test_the_trix_layout_is_four_rows_of_cards_each_card_mostly_visible(
        tmp_path: Path, lang: str, viewport: dict[str, int]) -> None:
    seed = trix_seed_with_queen_for_seat0()
    async with web_bed(tmp_path, game="trix", seed=seed, lang=lang) as bed, chromium() as browser:
        page = await new_page(browser, bed.play_url(0), viewport)
        await my_move(page)
        await click_move(page, prefer="contract trix")
        longest = 0
        for _ in range(200):
            if await my_move(page) is None:
                break
            rows = await page.evaluate(LAYOUT_JS)
            longest = max([longest, *(len(r["cards"]) for r in rows)])
            if longest >= 5 and await page.evaluate("document.querySelector('#hand.myturn') !== null"):
                break
            if await page.evaluate(PANEL_UP):
                break
            await click_move(page)
        assert longest >= 5
        assert len(rows) == 4
        for upper, lower in pairwise(rows):
            assert upper["bottom"] <= lower["top"] + 0.5  # rows one under the other
        for row in rows:
            for (x0, w), (x1, _) in pairwise(row["cards"]):
                assert (x1 - x0) / w >= 1 - MAX_OVERLAP, row  # the rank and suit of every card show
            assert all(w >= 26 for _, w in row["cards"])
        await no_overflow(page)
        await shot(page, f"trix-{size_name(viewport)}-{lang}")
        assert page.errors == []


async def test_a_whole_local_match_ends_with_play_again_which_starts_a_new_one_the_page_follows(
        tmp_path: Path) -> None:
    """``majlis web`` (a LocalTable: its own chat, your seat's link), fast AI, a short target."""
    local = LocalTable(WebOptions(game="tarneeb41", lang="en", db=str(tmp_path / "web.sqlite3"), port=0,
                                  ai_delay=0.0, seed=3, target=6, ai_level="easy", open_browser=False),
                       lambda line: None)
    url = await local.start()
    try:
        async with chromium() as browser:
            page = await new_page(browser, url, DESKTOP)
            first = local.table_id
            for _ in range(400):
                if await my_move(page, 30_000) is None:
                    break
                await click_move(page)
            await wait_js(page, "document.body.dataset.panel === 'match'", 10_000)
            assert "win" in await page.locator("#panellines").inner_text()
            labels = await page.locator("#panelbtns button[data-rematch]").all_inner_texts()
            assert labels == ["Play again"]  # alone with the AI: no partners to swap
            await shot(page, "match-desktop-en")
            await page.locator('#panelbtns button[data-rematch="same"]').click()
            await wait_js(page, f"document.body.dataset.table !== '{first}' && document.body.dataset.table"
                                " !== undefined && document.querySelectorAll('#hand .card').length === 13", 10_000)
            snap = local.manager.table_in_chat(CHAT)
            assert snap is not None and snap.table_id != first and snap.table.status == "playing"
            assert await page.evaluate("document.body.dataset.table") == str(snap.table_id)
            assert await page.evaluate("document.getElementById('panel').hidden")
            assert snap.table.seats[0].player_id == local.person.player_id  # the same seat
            # the page's address now carries the new table's credential (a reload stays there)
            await page.reload()
            await page.wait_for_selector("body[data-version]")
            assert await page.evaluate("document.body.dataset.table") == str(snap.table_id)
            assert page.errors == []
    finally:
        await local.close()
