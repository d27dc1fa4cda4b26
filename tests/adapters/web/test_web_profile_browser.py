"""The profile page in real chromium (issue 30), on a phone and a desktop, in Arabic and English: nothing
wider than the screen, a chart point for each rating of the person's series, the chart's time reading
from the left (oldest) to the right (latest) in both languages, Arabic text laid out right to left.
Screenshots for the README when ``MAJLIS_SCREENS`` is set (tests/adapters/screens.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.adapters.web.profile import profile_page
from tests.adapters.web.conftest import chromium
from tests.adapters.web.profile_data import CHAT, SARA, profile_bed, sara_history
from tests.adapters.web.test_web_table_ui import DESKTOP, PHONE, no_overflow, shot, size_name

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(180)]  # chromium

#: The middle x of each word of the page's title, the x of the chart's ends' words and of its points.
LAYOUT_JS = """() => {
  const node = document.getElementById("title").firstChild;
  const words = [];
  const re = /\\S+/g;
  let m;
  while ((m = re.exec(node.textContent))) {
    if (!/[\\p{L}]/u.test(m[0])) continue;  // the separator
    const r = document.createRange();
    r.setStart(node, m.index);
    r.setEnd(node, m.index + m[0].length);
    const q = r.getBoundingClientRect();
    words.push(q.left + q.width / 2);
  }
  const mid = (e) => { const q = e.getBoundingClientRect(); return q.left + q.width / 2; };
  const points = [...document.querySelectorAll("#chart circle.pt")];
  return {words, dir: getComputedStyle(document.getElementById("title")).direction,
          oldest: mid(document.querySelector("#chart .end-oldest")),
          latest: mid(document.querySelector("#chart .end-latest")),
          points: points.map(mid), values: points.map((p) => Number(p.dataset.value)),
          chart: document.querySelector("#chart svg").getBoundingClientRect().width,
          labels: [...document.querySelectorAll("#chart text")].map((t) => t.textContent)};
}"""


@pytest.mark.parametrize(("lang", "viewport"), [pytest.param("ar", PHONE, id="ar-phone"),
                                                pytest.param("en", DESKTOP, id="en-desktop"),
                                                pytest.param("en", PHONE, id="en-phone"),
                                                pytest.param("ar", DESKTOP, id="ar-desktop")])
async def test_the_profile_page_draws_the_figures_and_the_rating_chart_at_both_sizes(
        tmp_path: Path, lang: str, viewport: dict[str, int]) -> None:
    async with profile_bed(tmp_path) as (manager, server), chromium() as browser:
        await sara_history(manager, lang)
        expected = await profile_page(manager, SARA, CHAT)
        touch = viewport["width"] < 600
        context = await browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        page: Any = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(server.links.profile_url(SARA, CHAT, manager.clock.now()))
        await page.wait_for_selector("body[data-ready]")
        await no_overflow(page)
        got = await page.evaluate(LAYOUT_JS)
        series = expected["chart"]["points"]
        assert got["values"] == series  # a point for each rating of the series, in order
        assert got["points"] == sorted(got["points"])  # oldest on the left in both languages
        assert got["oldest"] < got["latest"]
        assert got["chart"] <= viewport["width"]
        assert len(got["words"]) >= 2, got
        if lang == "ar":  # «بطاقة اللاعب · سارة»: the first word rightmost
            assert got["dir"] == "rtl" and got["words"] == sorted(got["words"], reverse=True), got
            assert "١٬" not in "".join(got["labels"]) and any("٠" <= c <= "٩" for c in "".join(got["labels"]))
        else:
            assert got["dir"] == "ltr" and got["words"] == sorted(got["words"]), got
        title = await page.text_content("#title")
        assert title == expected["title"]
        assert await page.locator("#games article").count() == len(expected["games"])
        assert await page.text_content("#bestdeal") == expected["best_deal"]
        assert await page.locator("#badges li").all_text_contents() == expected["badges"]
        await shot(page, f"profile-{size_name(viewport)}-{lang}", full=True)
        assert errors == []
        await context.close()


async def test_a_forged_profile_link_shows_why_and_no_figures(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server), chromium() as browser:
        page: Any = await browser.new_page()
        good = server.links.profile_url(SARA, CHAT, manager.clock.now())
        await page.goto(good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB"))
        await page.wait_for_selector("body[data-denied]")
        assert "link" in (await page.text_content("#title") or "")
        assert await page.locator("#chart circle").count() == 0
