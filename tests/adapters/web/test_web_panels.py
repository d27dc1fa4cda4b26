"""The result panels' words and figures, the hand's order and the seats' faces; Next deal and Play
again over a real WebSocket: who may press them, and what a refused press changes (nothing)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.adapters.web.view import alternating, deal_panel, initials, match_panel, thrown_panel
from bot.core.model import TableSnapshot
from bot.core.views import DealScored, DealThrownIn
from bot.present.i18n import translator
from storage.records import Seat, TableRecord
from tests.adapters.web.harness import Page, settle, web_bed

pytestmark = pytest.mark.timeout(60)


def snapshot(game: str, *, lang: str = "en") -> TableSnapshot:
    seats = (Seat(player_id="tg:1", name="Sara"), Seat(player_id="ai:easy:1", is_ai=True),
             Seat(player_id="tg:2", name="Omar Ali"), Seat(player_id="ai:easy:3", is_ai=True))
    return TableSnapshot(table=TableRecord(table_id=4, chat_id="tg:-1", game=game, options={}, seed=1, dealer=0,
                                           creator="tg:1", status="finished", seats=seats, lang=lang))


def test_a_hand_alternates_black_and_red_suits_where_it_can() -> None:
    colours = ["r" if c[1] in "HD" else "b" for c in alternating(["2H", "AD", "KH", "3D", "5S", "QC", "7C"])]
    assert [k for i, k in enumerate(colours) if i == 0 or colours[i - 1] != k] == ["b", "r", "b", "r"]
    assert alternating(["2H", "AH", "3D", "9S"]) == ["AH", "2H", "9S", "3D"]  # red, black, red: one red more
    assert alternating(["5D", "KD"]) == ["KD", "5D"]


def test_a_face_shows_initials_and_the_number_of_an_ai_seat() -> None:
    assert initials("Sara") == "S"
    assert initials("Omar Ali") == "OA"
    assert initials("AI 2") == "A2"
    assert initials("لاعب آلي ٢") == "ل٢"
    assert initials("") == "?"


def test_a_tarneeb41_deal_panel_has_each_seats_bid_tricks_change_and_total_the_reader_first() -> None:
    ev: DealScored = {"type": "deal_scored", "deltas": {"players": [-2, 3, 6, 2], "teams": [4, 5]},
                      "scores": {"players": [-2, 3, 6, 2], "teams": [4, 5]},
                      "summary": {"bids": [2, 3, 6, 2], "tricks": [0, 3, 7, 3]}}
    t = translator("ar", "arabic")
    panel = deal_panel(snapshot("tarneeb41", lang="ar"), ev, t, me=2, deal_no=1, seconds=12.0)
    assert panel["title"] == t.gettext("Result of deal {n}", n=1) and "١" in panel["title"]
    assert [r["seat"] for r in panel["rows"]] == [2, 3, 0, 1]
    assert panel["rows"][0]["name"] == "أنت" and panel["rows"][0]["cells"] == ["٦", "٧", "+٦", "٦"]
    assert panel["rows"][2]["cells"] == ["٢", "٠", "\u2212٢", "\u2212٢"] and not panel["rows"][2]["made"]
    assert panel["mood"] == "good" and panel["seconds"] == 12.0 and panel["next"] == "التوزيعة التالية"


def test_a_classic_tarneeb_panel_is_by_team_and_says_whether_the_contract_was_made() -> None:
    ev: DealScored = {"type": "deal_scored", "deltas": {"teams": [0, 9]}, "scores": {"teams": [0, 9]},
                      "summary": {"declarer": 0, "bid": 8, "trump": "S", "tricks": [6, 7]}}
    panel = deal_panel(snapshot("tarneeb"), ev, translator("en"), me=0, deal_no=3, seconds=5.0)
    assert [r["name"] for r in panel["rows"]] == ["Us", "Them"]
    assert panel["rows"][1]["cells"] == ["7", "+9", "9"]
    assert panel["lines"][1] == "Us took 6 tricks: the contract is broken." and panel["mood"] == "bad"


def test_a_thrown_in_deal_says_so_and_scores_nothing() -> None:
    ev: DealThrownIn = {"type": "deal_thrown_in", "reason": "low_total", "total": 9, "next_dealer": 1}
    panel = thrown_panel(snapshot("tarneeb41"), ev, translator("en"), me=0, seconds=5.0)
    assert panel["title"] == "Deal thrown in" and panel["rows"] == []
    assert panel["lines"] == ["The bids total only 9, so the deal is thrown in. AI 1 deals again."]


def test_the_match_panel_offers_play_again_with_partners_swapped_only_where_partners_play() -> None:
    t = translator("en")
    pairs = match_panel(snapshot("tarneeb41"), {"winner": [1, 3], "scores": {"players": [1, 42, 3, 9],
                                                                            "teams": [4, 51]}},
                        t, me=0, can_rematch=True)
    assert [a["label"] for a in pairs["again"]] == ["Play again", "Play again, partners swapped"]
    assert pairs["lines"] == ["They win the match (AI 1 & AI 3)."] and pairs["mood"] == "bad"
    alone = match_panel(snapshot("trix"), {"winner": [0], "scores": {"players": [10, -50, -20, 0]}}, t, me=0,
                        can_rematch=True)
    assert [a["swap"] for a in alone["again"]] == [False] and alone["rows"][0]["won"]
    watching = match_panel(snapshot("trix"), {"winner": [0], "scores": {"players": [10, -50, -20, 0]}}, t,
                           me=None, can_rematch=False)
    assert watching["again"] == []


async def test_next_deal_and_play_again_from_a_spectator_or_too_early_are_refused_and_change_nothing(
        tmp_path: Any) -> None:
    async with web_bed(tmp_path, seed=3) as bed, aiohttp.ClientSession() as s:
        await settle(bed)
        version = bed.manager.get(bed.table_id).table.version  # type: ignore[union-attr]
        watch = bed.watch_url().split("#k=")[1]
        async with s.ws_connect(bed.ws_url(watch), origin=bed.base) as ws:
            page = Page(ws)
            await page.next()
            await page.next()
            for msg in ({"type": "next"}, {"type": "rematch", "swap": False}):
                await ws.send_json(msg)
                err = await page.next()
                assert err["type"] == "error" and err["code"] == "not_seated"
        async with s.ws_connect(bed.ws_url(bed.play_token(0)), origin=bed.base) as ws:
            page = Page(ws)
            await page.next()
            await page.next()
            await ws.send_json({"type": "rematch", "swap": False})  # the match is not over
            err = await page.next()
            assert err["type"] == "error" and err["text"]
            await ws.send_json({"type": "rematch", "swap": "yes"})
            err = await page.next()
            assert err["type"] == "error" and err["code"] == "bad_action"
            await ws.send_json({"type": "next"})  # nothing to end: answered by silence, nothing changes
            await ws.send_json({"type": "act", "action": "bid 99", "version": version})
            err = await page.next()
            assert err["code"] == "illegal"
        assert bed.manager.get(bed.table_id).table.version == version  # type: ignore[union-attr]
        assert bed.manager.table_in_chat("tg:-100500").table_id == bed.table_id  # type: ignore[union-attr]
