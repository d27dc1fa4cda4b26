"""The web table in a real browser (Debian's chromium driven by playwright), on a real manager.

Lean on purpose: one match, one Trix deal, a few pages. Screenshots go to ``tests/adapters/web/output``
(``MAJLIS_TEST_OUTPUT``); with ``MAJLIS_SCREENS=docs/images`` the README's three are copied there too.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from tests.adapters.screens import publish_web
from tests.adapters.web.conftest import OUTPUT, chromium
from tests.adapters.web.harness import BOT_TOKEN, web_bed
from tests.adapters.web.telegram_data import init_data

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(180)]  # chromium

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
CODE = re.compile(r'"code":"([2-9TJQKA][SHDC])"')


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
    publish_web(name, OUTPUT / f"{name}.png")  # the README's web images, when MAJLIS_SCREENS names a folder


async def next_deal(page: Any) -> None:
    """Close a deal's result panel with Next deal, if one is up (it covers the table)."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    up = "document.body.dataset.panel === 'deal' || document.body.dataset.panel === 'thrown'"
    if await page.evaluate(up):
        try:
            await page.locator("#nextdeal").click(timeout=5_000)
        except PlaywrightTimeout:
            if await page.evaluate(up):  # (it may close itself meanwhile: the table moved on)
                raise
        await wait_js(page, "document.getElementById('panel').hidden", 5_000)


async def my_move(page: Any, timeout: float = 20_000) -> str | None:
    """Wait until this page may act (or the match is over); None once over."""
    await next_deal(page)
    await wait_js(page,
        "document.body.dataset.over === '1' || document.querySelector('#hand.myturn .card.playable') !== null"
        " || document.querySelector('#actions button') !== null", timeout)
    if await page.evaluate("document.body.dataset.over === '1'"):
        return None
    return str(await page.evaluate("document.body.dataset.version"))


async def click_move(page: Any, prefer: str | None = None) -> str:
    """Click a legal choice: a raised card, else an action button (``prefer`` first if shown)."""
    await next_deal(page)
    version = await page.evaluate("document.body.dataset.version")
    if prefer and await page.locator(f'#actions button[data-action="{prefer}"]').count():
        what = prefer
        await page.locator(f'#actions button[data-action="{prefer}"]').click()
    elif await page.locator("#hand.myturn .card.playable").count():
        card = page.locator("#hand.myturn .card.playable").first
        what = "play " + str(await card.get_attribute("data-code"))
        await card.click()
        if await page.locator("#playbtn:not([hidden])").count():  # a touch screen: the tap raised it
            await page.locator("#playbtn").click()
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
                label = str(await page.locator("#hand .card").first.get_attribute("aria-label"))
                assert " of " in label  # "Queen of Spades" for screen readers
                await shot(page, "tarneeb41-desktop-en")
                shot_taken = True
                # keyboard play: the focused card is a playable one; arrows move, Enter plays
                version = await page.evaluate("document.body.dataset.version")
                card = page.locator('#hand .card[tabindex="0"]')
                code = await card.get_attribute("data-code")
                await card.focus()
                await page.keyboard.press("ArrowRight")
                await page.keyboard.press("ArrowLeft")
                assert await page.evaluate("document.activeElement.dataset.code") == code
                await page.keyboard.press("Enter")
                await wait_js(page, f"document.body.dataset.version !== '{version}'", 10_000)
                log = await bed.repo.actions(bed.table_id)
                assert any(a.action == f"play {code}" and a.seat == 0 for a in log)
                clicks += 1
                continue
            await click_move(page)
            clicks += 1
        assert clicks >= 14
        snap = bed.manager.get(bed.table_id)
        assert snap is not None and snap.table.status == "finished"
        result = await page.locator("#result").inner_text()
        assert "We win the match" in result or "They win the match" in result  # said to the reader's side
        rows = await page.locator("#sheet tbody tr").count()
        assert rows >= 1 and await page.locator("#sheet thead th").all_inner_texts() == ["Deal", "Us", "Them"]
        assert await page.evaluate("document.body.dataset.panel") == "match"  # the match's result panel
        await page.locator("#panelclose").click()
        await page.locator("#lastbtn").click()
        assert await page.locator("#lasttrick .card").count() == 4
        await shot(page, "tarneeb41-over-desktop-en")
        assert page.errors == []
        # the finished match replayed trick by trick from the link the page offers
        await page.locator("#replay-a").click()
        await page.wait_for_selector("body[data-frame='0']")
        assert await page.locator("#trick .card").count() == 4
        await page.locator("#next").click()
        await page.wait_for_selector("body[data-frame='1']")
        assert await page.locator(".replay-hand .card").count() > 0
        await shot(page, "replay-desktop-en")
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


def trix_seed_with_queen_for_seat0() -> int:
    """A seed where seat 0 owns the first kingdom and holds a queen (so it may double)."""
    import engine

    for seed in range(1, 500):
        g = engine.new_game("trix", seed=seed)
        if g.to_act == 0 and any(c[0] == "Q" for c in g.hand(0)):
            return seed
    raise AssertionError("no seed")


async def test_browser_trix_deal_with_doubling_arabic_phone(tmp_path: Any) -> None:
    seed = trix_seed_with_queen_for_seat0()
    async with web_bed(tmp_path, game="trix", seed=seed, lang="ar") as bed, chromium() as browser:
        page = await open_page(browser, bed.play_url(0), PHONE)
        await my_move(page)
        assert await page.locator('#actions button[data-action="contract queens"]').count() == 1
        await click_move(page, prefer="contract queens")
        await my_move(page)
        doubles = page.locator('#actions button[data-action^="double Q"]')
        assert await doubles.count() >= 1
        await shot(page, "trix-doubling-phone-ar")
        doubled = str(await doubles.first.get_attribute("data-action")).split()[1]
        await click_move(page, prefer=f"double {doubled}")
        while True:  # finish doubling (Done), then play the deal out by clicking cards
            if await page.locator('#actions button[data-action="done"]').count():
                await click_move(page, prefer="done")
                continue
            if await page.locator("#sheet tbody tr").count() >= 1:
                break
            assert await my_move(page) is not None
            await click_move(page)
        snap = bed.manager.get(bed.table_id)
        assert snap is not None
        log = await bed.repo.actions(bed.table_id)
        assert any(a.action == f"double {doubled}" and a.seat == 0 for a in log)
        info = await page.locator("#info").inner_text()
        assert "البنات" in info or await page.locator("#sheet tbody tr").count() == 1
        assert await page.evaluate("document.documentElement.dir") == "rtl"
        await shot(page, "trix-scored-phone-ar")
        assert page.errors == []


async def test_browser_two_players_see_each_other_and_a_spectator_sees_no_hand(tmp_path: Any) -> None:
    async with web_bed(tmp_path, game="tarneeb41", seed=21, humans=(0, 2), turn_seconds=600) as bed, \
            chromium() as browser:
        frames: list[str] = []
        watcher = await browser.new_page(viewport=PHONE)
        watcher.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        await watcher.goto(bed.watch_url())
        await watcher.wait_for_selector("body[data-version]")
        pages = {0: await open_page(browser, bed.play_url(0)), 2: await open_page(browser, bed.play_url(2))}
        assert await pages[0].locator("#seat-2 .name").inner_text() == "Omar"  # the partner across
        assert await pages[2].locator("#seat-2 .name").inner_text() == "Sara"
        moves = 0
        while moves < 10:
            snap = bed.manager.get(bed.table_id)
            assert snap is not None
            seat = snap.to_act
            if seat not in pages:
                await asyncio.sleep(0.02)
                continue
            other = pages[2 - seat]
            await my_move(pages[seat])
            what = await click_move(pages[seat])
            version = bed.manager.get(bed.table_id).table.version
            # the other player's page follows within a second
            await wait_js(other, f"Number(document.body.dataset.version) >= {version}", 1_000)
            if what.startswith("play "):
                code = what.split()[1]
                on_table = await other.locator(f'#trick .card[data-code="{code}"]').count()
                last = str(await other.locator("#lastbtn").get_attribute("data-cards") or "")
                assert on_table == 1 or code in last.split()
            moves += 1
            if moves == 5:
                # the turn timer is shown to the seat to act
                assert re.search(r"\d", await pages[bed.manager.get(bed.table_id).to_act].locator("#timer")
                                 .inner_text()) if bed.manager.get(bed.table_id).to_act in pages else True
                # every connection drops (a restart of the proxy, say): the pages reconnect and resync
                await bed.server.hub.close()
                for p in (*pages.values(), watcher):
                    await wait_js(p, "document.body.dataset.conn === '2' && document.getElementById('app')"
                                     ".className === ''", 10_000)
        await wait_js(watcher, f"Number(document.body.dataset.version) >= {version}", 2_000)
        assert await watcher.locator("#hand .card").count() == 0
        assert frames
        for text in frames:
            data = json.loads(text)
            if data["type"] != "state":
                continue
            st = data["state"]
            assert st["hand"] == [] and st["me"] is None
            public = {p["code"] for p in st["trick"]} | {p["code"] for p in (st["last_trick"] or {}).get("cards", [])}
            if st["exposed"]:
                public.add(st["exposed"]["code"])
            assert set(CODE.findall(text)) <= public
        await shot(watcher, "spectator-phone-en")
        for p in pages.values():
            assert p.errors == []


async def test_browser_mini_app_valid_expired_forged(tmp_path: Any) -> None:
    from urllib.parse import quote

    async with web_bed(tmp_path, game="tarneeb41", seed=8) as bed, chromium() as browser:
        now = int(bed.manager.clock.now())
        theme = json.dumps({"bg_color": "#17212b", "button_color": "#5288c1", "text_color": "#f5f5f5"})

        def url(data: str) -> str:
            return f"{bed.base}/tg?table={bed.table_id}#tgWebAppData={quote(data)}&tgWebAppVersion=7.0" \
                   f"&tgWebAppThemeParams={quote(theme)}"

        page = await open_page(browser, url(init_data(11, "Sara", now, BOT_TOKEN)), PHONE)
        assert await page.locator("#hand .card").count() == 13
        bg = await page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()")
        assert bg == "#17212b"
        await shot(page, "mini-app-phone-en")
        for data in (init_data(11, "Sara", now - 2 * 3600, BOT_TOKEN), init_data(11, "Sara", now, "1:not-ours")):
            refused = await browser.new_page(viewport=PHONE)
            await refused.goto(url(data))
            await refused.wait_for_selector("body[data-denied='1']")
            await wait_js(refused, "document.getElementById('banner').textContent.length > 5", 5_000)
            assert "not valid" in await refused.locator("#banner").inner_text()
            assert await refused.locator("#hand .card").count() == 0


#: The middle x of each [start, end) range (UTF-16 offsets) of the first ``#info`` line that holds ``word``.
INFO_ITEM_X_JS = """([word, ranges]) => {
  const li = [...document.querySelectorAll("#info li")].find((e) => e.textContent.includes(word));
  return ranges.map(([a, b]) => {
    const r = document.createRange();
    r.setStart(li.firstChild, a);
    r.setEnd(li.firstChild, b);
    const q = r.getBoundingClientRect();
    return q.left + q.width / 2;
  });
}"""


async def test_browser_arabic_bids_line_reads_from_the_right(tmp_path: Any) -> None:
    """Issue 29: «الطلبات: لاعب آلي 1: 2، لاعب آلي 2: 4، لاعب آلي 3: 3» drew its names at x = 116, 213,
    310 px, AI 3's bid read first. Seed 2: seats 1, 2 and 3 bid before Sara (seat 0)."""
    async with web_bed(tmp_path, game="tarneeb41", seed=2, lang="ar") as bed, chromium() as browser:
        page = await open_page(browser, bed.play_url(0), PHONE)
        await my_move(page)
        word = "الطلبات"
        line = str(await page.evaluate(
            "(w) => [...document.querySelectorAll('#info li')].find((e) => e.textContent.includes(w)).textContent",
            word))
        start = line.index(": ", line.index(word)) + 2
        items, at = [], start
        for item in line[start:].split("، "):
            items.append((len(line[:at].encode("utf-16-le")) // 2, len(line[:at + len(item)].encode("utf-16-le")) // 2))
            at += len(item) + 2
        assert len(items) == 3, line  # AI 1, AI 2, AI 3
        xs = await page.evaluate(INFO_ITEM_X_JS, [word, items])
        assert xs[0] > xs[1] > xs[2], (xs, line)  # the first bid is the rightmost
        assert page.errors == []
