"""The profile page's link and figures (issue 30): a signed link per person and league, a league's page
that shows that league's figures only, a page across every chat that shows only the person it was
signed for, and every other credential refused. Real SQLite file, real web server over a socket."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot.adapters.web import tokens
from bot.adapters.web.links import PROFILE_TTL, REPLAY_TTL, WebLinks
from bot.adapters.web.service import WebConfig, WebFront
from bot.adapters.web.tables import ManagerSet
from bot.adapters.web.tokens import Forged, Grant, sign, verify
from tests.adapters.web.profile_data import CHAT, OMAR, OTHER, SARA, profile_bed, sara_history

pytestmark = pytest.mark.timeout(120)

SECRET = b"s" * 32


def test_a_profile_credential_names_its_person_and_league_or_every_chat() -> None:
    here = sign(SECRET, Grant("profile", 0, player_id=SARA, league=CHAT, expires=2000.0))
    everywhere = sign(SECRET, Grant("profile", 0, player_id=SARA, league=None, expires=2000.0))
    assert verify(SECRET, here, 1000.0) == Grant("profile", 0, None, SARA, 2000.0, CHAT)
    assert verify(SECRET, everywhere, 1000.0) == Grant("profile", 0, None, SARA, 2000.0, None)
    with pytest.raises(ValueError):  # a profile is always somebody's
        sign(SECRET, Grant("profile", 0, league=CHAT, expires=2000.0))


def _signed(payload: dict[str, Any]) -> str:
    """A genuinely signed credential of any payload (what only a holder of the secret could make)."""
    body = "v1." + tokens._b64(json.dumps(payload, separators=(",", ":")).encode())
    return body + "." + tokens._sig(SECRET, body)


def test_a_profile_credential_without_its_league_or_a_table_credential_with_one_is_refused() -> None:
    """A league's page can never be read as one across every chat, nor a table's link carry a league."""
    assert verify(SECRET, _signed({"k": "f", "t": 0, "e": 2000, "p": SARA, "l": None}), 1000.0).league is None
    for payload in ({"k": "f", "t": 0, "e": 2000, "p": SARA},  # no league at all
                    {"k": "f", "t": 0, "e": 2000, "l": CHAT},  # nobody's
                    {"k": "f", "t": 0, "e": 2000, "p": SARA, "l": 5},
                    {"k": "f", "t": 0, "e": 2000, "p": SARA, "l": CHAT, "s": 0},
                    {"k": "w", "t": 3, "e": 2000, "l": CHAT}):
        with pytest.raises(Forged):
            verify(SECRET, _signed(payload), 1000.0)


def test_the_front_signs_a_profile_link_only_when_the_web_table_has_an_address(tmp_path: Path) -> None:
    class Clock:
        def now(self) -> float:
            return 1000.0

    class Managers(ManagerSet):
        clock = Clock()  # type: ignore[assignment]

    class Server:
        links = WebLinks("https://m.example", SECRET)

    front = WebFront(server=Server(), managers=Managers(), config=WebConfig(url="https://m.example"))  # type: ignore[arg-type]
    url = front.profile_link(SARA, CHAT)
    assert url is not None and url.startswith("https://m.example/profile#k=")
    grant = verify(SECRET, urlsplit(url).fragment.removeprefix("k="), 1000.0)
    assert (grant.kind, grant.player_id, grant.league, grant.expires) == ("profile", SARA, CHAT, 1000.0 + PROFILE_TTL)
    off = WebFront(server=Server(), managers=Managers(), config=WebConfig(url=None))  # type: ignore[arg-type]
    assert off.profile_link(SARA, None) is None


async def _get(s: aiohttp.ClientSession, url: str) -> tuple[int, Any]:
    async with s.get(url) as r:
        return r.status, await r.json()


@pytest.mark.slow  # a person's history on a real SQLite file
async def test_a_leagues_page_shows_its_figures_only_and_every_chat_only_the_persons_own(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server), aiohttp.ClientSession() as s:
        h = await sara_history(manager, "en")
        now = manager.clock.now()

        async def page(player: str, league: str | None) -> dict[str, Any]:
            url = server.links.profile_url(player, league, now)
            assert url.startswith(server.base_url + "/profile#k=")
            status, body = await _get(s, server.base_url + "/api/profile?k=" + url.split("#k=", 1)[1])
            assert status == 200, body
            return dict(body)

        here = await page(SARA, CHAT)
        assert here["title"] == "Profile · Sara" and here["summary"] == f"{h.matches_here} matches · 11 wins"
        assert here["best_deal"] == f"Best deal: +{h.best_here} in Tarneeb"  # not the other group's +{best_other}
        assert here["partner"] == "Favourite partner: Omar · 12 matches together"
        assert here["badges"] == ["Champion of season 1 · Tarneeb"]
        assert len(here["chart"]["points"]) == h.matches_here and here["chart"]["seasons"][0] == 1
        tiles = {t["label"]: t["value"] for t in here["games"][0]["tiles"]}
        assert tiles["Matches"] == str(h.matches_here) and tiles["Season 2 rank"] == "1 of 4"

        other = await page(SARA, OTHER)
        assert other["summary"] == "3 matches · 3 wins" and other["badges"] == []
        assert other["best_deal"] == f"Best deal: +{h.best_other} in Tarneeb"
        assert other["partner"] == "Favourite partner: Nour · 3 matches together"
        assert len(other["chart"]["points"]) == 3 and set(other["chart"]["seasons"]) == {1}

        everywhere = await page(SARA, None)
        assert everywhere["title"] == "Profile · Sara · every chat"
        assert everywhere["summary"] == f"{h.matches_here + h.matches_other} matches · 14 wins"
        assert everywhere["best_deal"] == f"Best deal: +{h.best_other} in Tarneeb"
        assert len(everywhere["badges"]) == 1 and "Season 2 rank" not in json.dumps(everywhere)

        omar = await page(OMAR, CHAT)  # his card's link: his figures, never Sara's
        assert omar["title"] == "Profile · Omar" and omar["summary"].startswith("12 matches")
        assert omar["badges"] == [] and "Omar" not in (omar["partner"] or "")


@pytest.mark.slow  # a person's history on a real SQLite file
async def test_the_page_speaks_the_groups_language_and_digits(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server), aiohttp.ClientSession() as s:
        await sara_history(manager, "ar")
        token = server.links.profile_url(SARA, CHAT, manager.clock.now()).split("#k=", 1)[1]
        # an English browser: the group chose Arabic (the browser's language only where nobody chose)
        status, body = await _get(s, server.base_url + "/api/profile?lang=en-US&k=" + token)
        assert status == 200 and body["lang"] == "ar" and body["rtl"] and body["digits"] == "arabic"
        assert "بطاقة اللاعب" in body["title"] and "سارة" in body["title"]
        tiles = {t["label"]: t["value"] for t in body["games"][0]["tiles"]}
        assert tiles["المباريات"] == "١٥" and body["chart"]["season_names"]["2"] == "الموسم \u2068٢\u2069"


async def test_a_missing_expired_forged_or_other_credential_gets_no_profile(tmp_path: Path) -> None:
    async with profile_bed(tmp_path) as (manager, server), aiohttp.ClientSession() as s:
        now = manager.clock.now()
        api = server.base_url + "/api/profile?k="
        good = server.links.profile_url(SARA, CHAT, now).split("#k=", 1)[1]
        assert (await _get(s, api + good))[0] == 200
        assert (await _get(s, server.base_url + "/api/profile"))[0] == 401
        old = sign(server.secret, Grant("profile", 0, player_id=SARA, league=CHAT, expires=now - 1))
        assert (await _get(s, api + old))[0] == 401
        payload = json.loads(tokens._unb64(good.split(".")[1]))
        payload["l"] = None  # a league's link turned into one across every chat
        tampered = "v1." + tokens._b64(json.dumps(payload).encode()) + "." + good.split(".")[2]
        assert (await _get(s, api + tampered))[0] == 403
        for kind in ("watch", "replay"):
            assert (await _get(s, api + server.links.token(kind, 1, now)))[0] == 403
        # and a profile's credential opens no table
        assert (await _get(s, server.base_url + "/ws?k=" + good))[0] == 403
        assert (await _get(s, server.base_url + "/api/replay/0?k=" + good))[0] == 403
        async with s.get(server.base_url + "/profile") as r:
            page = await r.text()
            assert r.status == 200 and "/static/profile.js" in page
            assert "default-src 'none'" in r.headers["Content-Security-Policy"]
        async with s.get(server.base_url + "/static/profile.html") as r:
            assert r.status == 404


def test_the_front_signs_a_replay_link_for_a_flagged_match_only_when_the_web_table_has_an_address() -> None:
    class Clock:
        def now(self) -> float:
            return 1000.0

    class Managers(ManagerSet):
        clock = Clock()  # type: ignore[assignment]

    class Server:
        links = WebLinks("https://m.example", SECRET)

    front = WebFront(server=Server(), managers=Managers(), config=WebConfig(url="https://m.example"))  # type: ignore[arg-type]
    url = front.replay_link(9)
    assert url is not None and url.startswith("https://m.example/replay/9#k=")
    grant = verify(SECRET, urlsplit(url).fragment.removeprefix("k="), 1000.0)
    assert (grant.kind, grant.table_id, grant.expires) == ("replay", 9, 1000.0 + REPLAY_TTL)
    off = WebFront(server=Server(), managers=Managers(), config=WebConfig(url=None))  # type: ignore[arg-type]
    assert off.replay_link(9) is None
