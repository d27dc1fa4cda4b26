"""The web adapter over a real socket: credentials, origins, live updates, moves, spectators."""

from __future__ import annotations

import json
import re
from typing import Any

import aiohttp
import pytest

from bot.adapters.web.tokens import Grant, sign
from tests.adapters.web.harness import Page, settle, web_bed

pytestmark = pytest.mark.timeout(60)

CODE = re.compile(r'"code":"([2-9TJQKA][SHDC])"')


async def status_of(url: str, **headers: str) -> int:
    async with aiohttp.ClientSession() as s, s.get(url, headers=headers) as r:
        return r.status


async def test_ws_refuses_missing_expired_forged_and_foreign_credentials(tmp_path: Any) -> None:
    async with web_bed(tmp_path) as bed:
        await settle(bed)
        before = bed.manager.get(bed.table_id)
        now = bed.manager.clock.now()
        ws = bed.base + "/ws?k="
        assert await status_of(bed.base + "/ws") == 401
        expired = bed.server.links.token("play", bed.table_id, now - 100, seat=0, player_id="tg:11", ttl=10)
        assert await status_of(ws + expired) == 401
        good = bed.play_token(0)
        forged = good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB")
        assert await status_of(ws + forged) == 403
        other_key = sign(b"x" * 32, Grant("play", bed.table_id, 0, "tg:11", now + 60))
        assert await status_of(ws + other_key) == 403
        # a genuine credential for a seat that is not the person's
        wrong_seat = bed.server.links.token("play", bed.table_id, now, seat=1, player_id="tg:11")
        assert await status_of(ws + wrong_seat) == 403
        replay = bed.server.links.token("replay", bed.table_id, now)
        assert await status_of(ws + replay) == 403
        assert await status_of(ws + good, Origin="https://evil.example") == 403
        assert await status_of(ws + "v1.\u2069.x") == 403
        after = bed.manager.get(bed.table_id)
        assert before is not None and after is not None
        assert after.table.version == before.table.version
        assert len(await bed.repo.actions(bed.table_id)) == before.table.version


async def test_ws_page_gets_own_hand_and_moves_carry_the_version(tmp_path: Any) -> None:
    async with web_bed(tmp_path) as bed, aiohttp.ClientSession() as s, \
            s.ws_connect(bed.ws_url(bed.play_token(0)), origin=bed.base) as ws:
        page = Page(ws)
        hello = await page.next()
        assert hello["type"] == "hello" and hello["ui"]["last_trick"] == "Last trick"
        state = await page.until(lambda st: bool(st["actions"]) or any(c["playable"] for c in st["hand"]))
        assert state["me"] == 0 and len(state["hand"]) == 13
        view = bed.manager.view(bed.table_id, 0)
        assert sorted(c["code"] for c in state["hand"]) == sorted(view["hand"])
        version = state["version"]
        legal = view["legal"]
        await page.act(legal[0], version=version - 1)  # a stale press
        err = await page.next()
        assert err["type"] == "error" and err["code"] == "stale"
        assert err["text"] == "That button is out of date; use the newest message."
        assert bed.manager.get(bed.table_id).table.version == version
        await page.act("play ZZ")
        err = await page.next()
        assert err["type"] == "error" and err["code"] == "illegal"
        await page.act(legal[0])
        after = await page.until(lambda st: st["version"] > version)
        assert after["version"] > version and not page.errors[2:]
        assert bed.manager.get(bed.table_id).table.version > version


async def test_spectator_never_receives_a_private_card_and_a_player_only_their_own(tmp_path: Any) -> None:
    async with web_bed(tmp_path, seed=11) as bed, aiohttp.ClientSession() as s:
        watch = bed.watch_url().split("#k=")[1]
        async with s.ws_connect(bed.ws_url(watch)) as spectator_ws, \
                s.ws_connect(bed.ws_url(bed.play_token(0))) as player_ws:
            spectator, player = Page(spectator_ws), Page(player_ws)
            await spectator.next()
            await player.next()
            moves = 0
            while moves < 30:
                st = await player.until(lambda st: bool(st["actions"]) or any(c["playable"] for c in st["hand"]))
                code = st["actions"][0]["code"] if st["actions"] else \
                    "play " + next(c["code"] for c in st["hand"] if c["playable"])
                await player.act(code)
                await player.until(lambda st, v=st["version"]: st["version"] > v)
                moves += 1
            await spectator.until(lambda st: st["version"] >= player.state["version"])
        assert len(spectator.texts) > 30
        for text in spectator.texts:
            data = json.loads(text)
            if data["type"] != "state":
                continue
            st = data["state"]
            assert st["hand"] == [] and st["me"] is None and st["watching"]
            public = {p["code"] for p in st["trick"]}
            public |= {p["code"] for p in (st["last_trick"] or {}).get("cards", [])}
            if st["exposed"]:
                public.add(st["exposed"]["code"])
            assert set(CODE.findall(text)) <= public, st["version"]
        for text in player.texts:  # the player's page: their own hand, and nothing of the others'
            data = json.loads(text)
            if data["type"] != "state":
                continue
            st = data["state"]
            mine = {c["code"] for c in st["hand"]}
            public = {p["code"] for p in st["trick"]} | {p["code"] for p in (st["last_trick"] or {}).get("cards", [])}
            if st["exposed"]:
                public.add(st["exposed"]["code"])
            assert st["me"] == 0 and set(CODE.findall(text)) <= mine | public, st["version"]


async def test_telegram_init_data_valid_expired_forged(tmp_path: Any) -> None:
    from tests.adapters.web.harness import BOT_TOKEN
    from tests.adapters.web.telegram_data import init_data

    async with web_bed(tmp_path) as bed, aiohttp.ClientSession() as s:
        now = int(bed.manager.clock.now())

        async def post(data: str | None, table: Any = None) -> tuple[int, dict[str, Any]]:
            async with s.post(bed.base + "/api/telegram",
                              json={"init_data": data, "table": table or bed.table_id}) as r:
                return r.status, await r.json()

        code, body = await post(init_data(11, "Sara", now, BOT_TOKEN))
        assert code == 200 and body["token"].startswith("v1.")
        async with s.ws_connect(bed.ws_url(body["token"])) as ws:
            page = Page(ws)
            await page.next()
            st = await page.until(lambda st: True)
            assert st["me"] == 0 and len(st["hand"]) == 13
        assert (await post(init_data(11, "Sara", now - 7200, BOT_TOKEN)))[0] == 401
        assert (await post(init_data(11, "Sara", now, "654321:another-bot")))[0] == 403
        tampered = init_data(11, "Sara", now, BOT_TOKEN).replace("%22id%22%3A11", "%22id%22%3A12")
        assert (await post(tampered))[0] == 403
        assert (await post(None))[0] == 401
        assert (await post(init_data(99, "Stranger", now, BOT_TOKEN)))[0] == 403  # not seated here
        for odd in ("²", "①", "1.5", "٣"):  # digits int() refuses, or not ASCII: no table, never a 500
            assert (await post(init_data(11, "Sara", now, BOT_TOKEN), odd))[0] == 404


async def test_reconnect_resynchronizes_from_the_current_state(tmp_path: Any) -> None:
    async with web_bed(tmp_path, humans=(0, 2)) as bed, aiohttp.ClientSession() as s:
        async with s.ws_connect(bed.ws_url(bed.play_token(0))) as ws:
            first = Page(ws)
            await first.next()
            st = await first.until(lambda st: True)
        # moves happen while seat 0's page is closed
        for _ in range(6):
            await settle(bed)
            snap = bed.manager.get(bed.table_id)
            seat = snap.to_act
            view = bed.manager.view(bed.table_id, seat)
            await bed.manager.act(bed.table_id, bed.people[seat], snap.table.version, view["legal"][0])
        await settle(bed)
        async with s.ws_connect(bed.ws_url(bed.play_token(0))) as ws:
            again = Page(ws)
            await again.next()
            st2 = await again.until(lambda st: True)
            now = bed.manager.get(bed.table_id)
            assert st2["version"] == now.table.version > st["version"]
            assert sorted(c["code"] for c in st2["hand"]) == sorted(bed.manager.view(bed.table_id, 0)["hand"])


async def test_replay_needs_its_signed_link_and_a_finished_table(tmp_path: Any) -> None:
    async with web_bed(tmp_path, seed=4, options={"target": 5}) as bed, aiohttp.ClientSession() as s:
        now = bed.manager.clock.now()
        url = f"{bed.base}/api/replay/{bed.table_id}?k="
        replay = bed.server.links.token("replay", bed.table_id, now)
        assert await status_of(url + replay) == 409  # still being played: the hands are secret
        while True:
            await settle(bed)
            snap = bed.manager.get(bed.table_id)
            if snap.table.status != "playing":
                break
            view = bed.manager.view(bed.table_id, 0)
            await bed.manager.act(bed.table_id, bed.people[0], snap.table.version, view["legal"][0])
        assert await status_of(url + bed.server.links.token("watch", bed.table_id, now)) == 403
        assert await status_of(url + bed.server.links.token("replay", bed.table_id + 1, now)) == 403
        assert await status_of(url) == 401
        async with s.get(url + replay) as r:
            assert r.status == 200
            story = await r.json()
        tricks = [f for f in story["frames"] if f["trick"]]
        assert len(tricks) >= 13 and all(len(f["trick"]) == 4 for f in tricks)
        assert sum(len(h) for h in tricks[0]["hands"]) == 52
        assert story["frames"][-1]["text"].startswith("Match over")


async def test_a_flooding_page_is_told_to_wait_then_cut_off_and_nothing_it_sent_is_applied(tmp_path: Any) -> None:
    async with web_bed(tmp_path) as bed, aiohttp.ClientSession() as s, \
            s.ws_connect(bed.ws_url(bed.play_token(0)), origin=bed.base) as ws:
        page = Page(ws)
        await page.next()  # hello
        state = await page.until(lambda st: bool(st["actions"]) or any(c["playable"] for c in st["hand"]))
        version = state["version"]
        actions_before = len(await bed.repo.actions(bed.table_id))
        limits = bed.server.settings
        # Stale presses: each one that passes the bucket is answered "stale"; none is applied.
        for _ in range(limits.ws_flood_close + limits.ws_burst + 5):
            await ws.send_json({"type": "act", "action": "play ZZ", "version": version - 1})
        codes: list[str] = []
        while True:
            msg = await ws.receive(timeout=10)
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data["type"] == "error":
                codes.append(data["code"])
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        assert ws.close_code == 1008
        assert "web_flood" in codes and "stale" in codes
        flood = [c for c in codes if c == "web_flood"]
        assert len(flood) < limits.ws_flood_close // 2  # told, not answered message for message
        snap = bed.manager.get(bed.table_id)
        assert snap is not None and snap.table.version == version
        assert len(await bed.repo.actions(bed.table_id)) == actions_before
        # The person may open the page again and play at once.
        async with s.ws_connect(bed.ws_url(bed.play_token(0)), origin=bed.base) as ws2:
            again = Page(ws2)
            await again.next()
            st = await again.until(lambda st: st["version"] == version)
            legal = bed.manager.view(bed.table_id, 0)["legal"]
            await again.act(legal[0])
            await again.until(lambda st2: st2["version"] > version)
        assert st["version"] == version
