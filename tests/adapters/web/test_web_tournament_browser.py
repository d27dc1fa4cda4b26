"""A tournament's web page in real chromium (issue 31), on a phone and a desktop, in Arabic and English:
the rounds side by side in the reading direction (round 1 at the right in Arabic, at the left in
English), the page no wider than the screen, the pair that went on marked, every name shown.
Screenshots for the docs when ``MAJLIS_SCREENS`` is set (tests/adapters/screens.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.adapters.web.conftest import chromium
from tests.adapters.web.profile_data import profile_bed
from tests.adapters.web.test_web_table_ui import DESKTOP, PHONE, no_overflow, shot, size_name
from tests.adapters.web.tournament_data import NAMES, stored_tournament

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(180)]  # chromium

LAYOUT_JS = """() => {
  const mid = (e) => { const q = e.getBoundingClientRect(); return q.left + q.width / 2; };
  const rounds = [...document.querySelectorAll("#bracket .round")];
  return {dir: getComputedStyle(document.getElementById("title")).direction,
          rounds: rounds.map(mid), titles: rounds.map((r) => r.querySelector("h2").textContent),
          won: [...document.querySelectorAll(".side.won")].map((e) => e.textContent),
          live: document.querySelectorAll(".match.live").length,
          sides: [...document.querySelectorAll(".side")].map((e) => e.textContent).join(" ")};
}"""


@pytest.mark.parametrize(("lang", "viewport"), [pytest.param("ar", PHONE, id="ar-phone"),
                                                pytest.param("en", DESKTOP, id="en-desktop"),
                                                pytest.param("en", PHONE, id="en-phone"),
                                                pytest.param("ar", DESKTOP, id="ar-desktop")])
async def test_the_bracket_reads_in_the_groups_direction_at_both_sizes(
        tmp_path: Path, lang: str, viewport: dict[str, int]) -> None:
    async with profile_bed(tmp_path) as (manager, server), chromium() as browser:
        t = await stored_tournament(manager, lang)
        touch = viewport["width"] < 600
        context = await browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        page: Any = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(server.links.tournament_url(t.tournament_id, t.created_at))
        await page.wait_for_selector("body[data-ready]")
        await no_overflow(page)
        got = await page.evaluate(LAYOUT_JS)
        assert len(got["rounds"]) == 2 and got["live"] == 1
        if lang == "ar":  # round 1 at the right, the final to its left
            assert got["dir"] == "rtl" and got["rounds"][0] > got["rounds"][1], got
        else:
            assert got["dir"] == "ltr" and got["rounds"][0] < got["rounds"][1], got
        assert all(name in got["sides"] for name in NAMES[lang])
        # the people who beat the AI pair (their result in review, marked as the provisional winner)
        assert len(got["won"]) == 1 and got["won"][0] in got["sides"]
        await shot(page, f"tournament-{size_name(viewport)}-{lang}", full=True)
        assert errors == []


async def test_an_expired_or_forged_link_says_so_in_words(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server), chromium() as browser:
        await stored_tournament(manager, "en")
        page: Any = await browser.new_page(viewport=PHONE)
        await page.goto(f"{server.base_url}/tournament#k=v1.e30.AAAA")
        await page.wait_for_selector("body[data-denied]")
        assert "not valid any more" in (await page.text_content("#title") or "") or \
            "لم يعد هذا الرابط" in (await page.text_content("#title") or "")
