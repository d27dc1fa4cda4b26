"""A tournament's web page (issue 31): its JSON from the signed link under the group's message, in the
group's language, the same tournament as the message (names, pairs, results); a link of another
kind, a forged one or none refused; the button only where the web table runs."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.adapters.web.links import WebLinks
from bot.adapters.web.service import WebConfig, WebFront
from bot.adapters.web.tables import ManagerSet
from bot.present.i18n import translator
from bot.present.render.tournament_page import tournament_view
from bot.present.render.tournaments import render_tournament
from tests.adapters.web.profile_data import profile_bed
from tests.adapters.web.tournament_data import NAMES, stored_tournament


def plain(text: str) -> str:
    """Words without the isolates the catalogs put around each value."""
    return text.replace("\u2068", "").replace("\u2069", "")


async def test_the_page_shows_round_one_in_the_groups_language_with_who_went_on(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server), aiohttp.ClientSession() as http:
        t = await stored_tournament(manager, "ar")
        url = server.links.tournament_url(t.tournament_id, t.created_at)
        assert url.startswith(f"{server.base_url}/tournament#k=")
        token = url.split("#k=", 1)[1]
        async with http.get(f"{server.base_url}/api/tournament", params={"k": token}) as r:
            assert r.status == 200
            body = await r.json()
        assert body["lang"] == "ar" and body["rtl"] is True and body["open"] is True
        assert body["title"].startswith("🏆") and "طرنيب" in body["title"]
        assert [plain(r["title"]) for r in body["rounds"]] == ["الدور 1 من 2", "النهائي"]
        first = body["rounds"][0]
        assert first["now"] is True and len(first["matches"]) == 2
        bye, other = first["matches"]
        # the people beat the AI pair: their win stands once the review window (10 minutes) is over
        assert bye["review"] and bye["a"]["won"] and not bye["b"]["won"] and bye["b"]["ai"]
        assert plain(bye["state"]).startswith("النتيجة قيد المراجعة حتى الساعة") and bye["label"] == "\u20681-1\u2069"
        assert bye["b"]["name"] == "🤖 زوج ذكاء اصطناعي"
        assert other["live"] and other["state"] == "تُلعب الآن"
        shown = " ".join(s["name"] for m in first["matches"] for s in (m["a"], m["b"]))
        assert all(name in shown for name in NAMES["ar"])  # the six people, by name
        final = body["rounds"][1]["matches"][0]
        # nobody is in the final yet: the bye's winner goes on only when its review ends
        assert final["a"]["name"] == final["b"]["name"] == "" and final["state"] == "بانتظار الطرفين"
        # the page's figures are the renderer's, nothing more
        assert body == tournament_view(t, translator("ar"), manager.clock.now())


async def test_registration_lists_who_registered_and_who_checked_in(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, _server):
        t = await stored_tournament(manager, "en", running=False)
        view = tournament_view(t, translator("en"), manager.clock.now())
        assert view["rounds"] == [] and view["registered"] is not None
        assert view["registered"]["title"] == "6 players registered:"
        assert [i["name"] for i in view["registered"]["items"]] == NAMES["en"]
        assert view["status"] == "Registration is open. Check-in opens in 20 minutes."


async def test_a_link_of_another_kind_a_forged_one_or_none_is_refused(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server), aiohttp.ClientSession() as http:
        t = await stored_tournament(manager, "en")
        good = server.links.tournament_url(t.tournament_id, t.created_at).split("#k=", 1)[1]
        watch = server.links.watch_url(t.tournament_id, manager.clock.now()).split("#k=", 1)[1]
        forged = WebLinks(server.base_url, b"x" * 32).tournament_url(t.tournament_id, t.created_at).split("#k=")[1]
        for token, status in ((watch, 403), (forged, 403), (good[:-2] + "AA", 403), (None, 401)):
            params = {"k": token} if token is not None else {}
            async with http.get(f"{server.base_url}/api/tournament", params=params) as r:
                assert r.status == status, token
                assert "Sara" not in await r.text()
        async with http.get(f"{server.base_url}/tournament") as r:  # the page itself is only a page
            assert r.status == 200 and "tournament.js" in await r.text()


async def test_the_groups_message_carries_the_pages_button_only_where_the_web_runs(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server):
        t = await stored_tournament(manager, "en")
        en = translator("en")
        on = WebFront(server, ManagerSet(manager), WebConfig(url="https://majlis.example"))
        off = WebFront(server, ManagerSet(manager), WebConfig(url=None))
        button = on.tournament_button(t, en)
        assert button is not None and button.label == "Bracket on the web"
        assert button.url is not None and "/tournament#k=" in button.url
        assert off.tournament_button(t, en) is None
        msg = render_tournament(t, en, manager.clock.now(), button)
        assert msg.buttons[-1] == (button,)  # last, under the step's buttons
        plain = render_tournament(t, en, manager.clock.now())
        assert all(b.url is None for row in plain.buttons for b in row)


async def test_a_swiss_page_shows_its_standings_and_numbers_every_round(tmp_path: Path) -> None:
    from bot.core.model import Person
    from bot.core.tournaments import new, register, start

    async with profile_bed(tmp_path) as (manager, _server):
        now = manager.clock.now()
        t = new("tg:-100701", Person("tg:1", "Organiser"), "tarneeb", pairing="draw", now=now, start_minutes=30,
                checkin_minutes=10, round_minutes=20, ai=False, options={}, lang="en", fmt="swiss", rounds=2)
        for i, name in enumerate(NAMES["en"]):
            t = register(t, Person(f"tg:{11 + i}", name), now)
        view = tournament_view(start(t, now, "tg:1"), translator("en"), now)
        assert "pair Swiss" in view["title"]
        assert [plain(r["title"]) for r in view["rounds"]] == ["Round 1 of 2", "Round 2 of 2"]  # no "final"
        standings = view["standings"]
        assert standings is not None and standings["head"] == ["Pair", "Points", "Buchholz"]
        # three pairs: round 1's bye is scored as a win at once, the others have played nothing yet
        assert len(standings["rows"]) == 3 and [r["points"] for r in standings["rows"]] == ["1", "0", "0"]
        shown = " ".join(r["pair"] for r in standings["rows"])
        assert all(name in shown for name in NAMES["en"])  # three pairs, no AI pair among them
