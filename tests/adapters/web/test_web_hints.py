"""Hint and Review on the web table (docs/ai.md, "Hints and reviews") over a real WebSocket on a real
manager and SQLite file: the answer goes to the page that asked and no other (not another seat's
page, not a spectator's), a table with hints off refuses both, and a stale, out-of-turn or foreign
question is refused in words and changes nothing. ``majlis web`` opens its table with hints on."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.adapters.web.local import LocalTable, WebOptions
from bot.core.advice import HINTS, hints_on
from bot.core.tables import ai_runner
from tests.adapters.web.harness import Bed, Page, settle, web_bed

pytestmark = [pytest.mark.slow, pytest.mark.timeout(90)]  # real sockets, a whole deal, the advice's search

CASUAL = "Casual table: hints and deal reviews are on."


@pytest.fixture(autouse=True)
def in_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The advice in a worker thread (the process pool has tests of its own), under a cap no loaded
    machine reaches: what is tested here is where the answer goes, never how fast it comes."""
    monkeypatch.setattr(ai_runner, "POOL", False)
    monkeypatch.setattr(ai_runner, "HARD_CAP", 20.0)
    monkeypatch.setattr(ai_runner, "deadline_in", lambda: time.monotonic() + 19.0)
    yield


async def opened(s: aiohttp.ClientSession, bed: Bed, token: str) -> Page:
    """A page on the table, its words and first state read."""
    ws = await s.ws_connect(bed.ws_url(token), origin=bed.base)
    page = Page(ws)
    assert (await page.next())["type"] == "hello"
    assert (await page.next())["type"] == "state"
    return page


async def step(bed: Bed, rng: random.Random) -> None:
    """The person whose turn it is (once the AI seats have moved) makes a random legal move."""
    await settle(bed)
    snap = bed.manager.get(bed.table_id)
    assert snap is not None and snap.table.status == "playing" and snap.to_act is not None
    legal = bed.manager.view(bed.table_id, snap.to_act)["legal"]
    await bed.manager.act(bed.table_id, bed.people[snap.to_act], snap.table.version, rng.choice(legal))


async def turn_of(bed: Bed, seat: int, rng: random.Random, *, card_play: bool = False) -> int:
    """Let the people move at random until ``seat`` is to act (in the card play if asked); its version."""
    for _ in range(400):
        await settle(bed)
        snap = bed.manager.get(bed.table_id)
        assert snap is not None and snap.table.status == "playing" and snap.to_act is not None
        if snap.to_act == seat and (not card_play or bed.manager.view(bed.table_id, seat).get("phase") == "play"):
            return snap.table.version
        await step(bed, rng)
    raise AssertionError(f"seat {seat} never came to act")


async def heard(page: Page, seconds: float = 0.4) -> list[str]:
    """What arrives on this page for a while (the table's states, if it moves on meanwhile)."""
    seen = len(page.texts)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    with contextlib.suppress(asyncio.TimeoutError):
        while (left := end - loop.time()) > 0:
            await page.next(left)
    return page.texts[seen:]


def told(texts: list[str], words: str) -> bool:
    """Whether any of these messages is advice, or says ``words`` anywhere in it."""

    def strings(obj: Any) -> Iterator[str]:
        if isinstance(obj, str):
            yield obj
        elif isinstance(obj, dict):
            for v in obj.values():
                yield from strings(v)
        elif isinstance(obj, list):
            for v in obj:
                yield from strings(v)

    messages = [json.loads(text) for text in texts]
    return any(m["type"] == "advice" or any(words in x for x in strings(m)) for m in messages)


async def answer(page: Page, timeout: float = 10.0) -> dict[str, Any]:
    """The next advice or refusal on this page (states that arrive meanwhile are read past)."""
    while True:
        msg = await page.next(timeout)
        if msg["type"] == "advice" or (msg["type"] == "error" and msg.get("about")):
            return msg


async def ask(page: Page, msg: dict[str, Any]) -> dict[str, Any]:
    """Send a hint or review and read its answer; asked again, as the person is told to, while the
    search cannot finish within its cap (``ai_busy``: a loaded machine)."""
    for _ in range(8):
        await page.ws.send_json(msg)
        got = await answer(page)
        if got.get("code") != "ai_busy":
            return got
        await asyncio.sleep(0.5)
    raise AssertionError("the AI was busy every time")


async def test_a_hint_goes_to_the_page_that_asked_and_to_no_other_page_and_changes_nothing(tmp_path: Path) -> None:
    async with web_bed(tmp_path, seed=3, humans=(0, 2), options={HINTS: True}) as bed, \
            aiohttp.ClientSession() as s:
        version = await turn_of(bed, 0, random.Random(1), card_play=True)
        sara, omar = await opened(s, bed, bed.play_token(0)), await opened(s, bed, bed.play_token(2))
        watcher = await opened(s, bed, bed.watch_url().split("#k=")[1])
        assert sara.state is not None and omar.state is not None and watcher.state is not None
        assert sara.state["casual"] == CASUAL and watcher.state["casual"] == CASUAL
        assert sara.state["can_hint"] and not omar.state["can_hint"] and not watcher.state["can_hint"]
        got = await ask(sara, {"type": "hint", "version": version})
        assert got["type"] == "advice" and got["kind"] == "hint" and got["version"] == version, got
        legal = bed.manager.view(bed.table_id, 0)["legal"]
        assert got["action"] in legal and got["action"].startswith("play ")
        assert got["text"].startswith("Hint: ")
        assert await heard(omar) == [] and await heard(watcher) == []  # the table stood still: not a word
        snap = bed.manager.get(bed.table_id)
        assert snap is not None and snap.table.version == version  # nothing moved, nothing was published
        # the next state everyone gets: still no word of the hint on the other pages
        await sara.act(got["action"])
        for page in (omar, watcher):
            await page.until(lambda st: st["version"] > version)
            assert not told(page.texts, got["text"])
        for page in (sara, omar, watcher):
            await page.ws.close()


async def test_a_stale_out_of_turn_or_spectators_hint_is_refused_in_words_and_changes_nothing(
        tmp_path: Path) -> None:
    async with web_bed(tmp_path, seed=3, humans=(0, 2), options={HINTS: True}) as bed, \
            aiohttp.ClientSession() as s:
        rng = random.Random(2)
        version = await turn_of(bed, 2, rng)
        sara, omar = await opened(s, bed, bed.play_token(0)), await opened(s, bed, bed.play_token(2))
        watcher = await opened(s, bed, bed.watch_url().split("#k=")[1])
        for page, msg, code in ((sara, {"type": "hint", "version": version}, "not_your_turn"),
                                (omar, {"type": "hint", "version": version - 1}, "stale"),
                                (omar, {"type": "hint", "version": str(version)}, "stale"),
                                (omar, {"type": "hint"}, "stale"),
                                (watcher, {"type": "hint", "version": version}, "not_seated"),
                                (watcher, {"type": "review"}, "not_seated")):
            await page.ws.send_json(msg)
            got = await answer(page)
            assert got["type"] == "error" and got["code"] == code and got["about"] == msg["type"], (msg, got)
            assert got["text"] and "{" not in got["text"]
        assert bed.manager.get(bed.table_id).table.version == version  # type: ignore[union-attr]
        assert await heard(sara) == []
        for page in (sara, omar, watcher):
            await page.ws.close()


async def test_hints_and_reviews_are_refused_where_the_table_has_them_off(tmp_path: Path) -> None:
    async with web_bed(tmp_path, seed=3) as bed, aiohttp.ClientSession() as s:
        version = await turn_of(bed, 0, random.Random(1))
        sara = await opened(s, bed, bed.play_token(0))
        assert sara.state is not None
        assert sara.state["casual"] == "" and not sara.state["can_hint"] and not sara.state["can_review"]
        for msg in ({"type": "hint", "version": version}, {"type": "review"}):
            await sara.ws.send_json(msg)
            got = await answer(sara)
            assert got["code"] == "hints_off" and got["about"] == msg["type"]
            assert got["text"] == "Hints and reviews are off at this table (rated play)."
        assert bed.manager.get(bed.table_id).table.version == version  # type: ignore[union-attr]
        await sara.ws.close()


async def test_a_review_after_a_deal_names_the_costliest_card_to_that_page_alone(tmp_path: Path) -> None:
    async with web_bed(tmp_path, seed=3, humans=(0, 2), options={HINTS: True}) as bed, \
            aiohttp.ClientSession() as s:
        rng = random.Random(4)
        await turn_of(bed, 0, rng, card_play=True)
        sara, omar = await opened(s, bed, bed.play_token(0)), await opened(s, bed, bed.play_token(2))
        assert sara.state is not None and not sara.state["can_review"]  # no deal scored yet
        got = await ask(sara, {"type": "review"})
        assert got["text"] == "Review: no deal of yours has finished yet at this table."
        deal = bed.manager.view(bed.table_id, None)["deal_no"]
        while bed.manager.view(bed.table_id, None)["deal_no"] == deal:
            await step(bed, rng)
        state = await sara.until(lambda st: st["can_review"])
        assert state["casual"] == CASUAL
        await settle(bed)  # a person's turn: the table stands still
        version = bed.manager.get(bed.table_id).table.version  # type: ignore[union-attr]
        omar_seen = len(omar.texts)
        got = await ask(sara, {"type": "review"})
        assert got["type"] == "advice" and got["kind"] == "review" and got["action"] is None
        assert got["text"].startswith(f"Review of deal {deal}: "), got["text"]
        await heard(omar)
        assert not told(omar.texts[omar_seen:], got["text"])
        assert bed.manager.get(bed.table_id).table.version == version  # type: ignore[union-attr]
        for page in (sara, omar):
            await page.ws.close()


async def test_majlis_web_opens_its_table_with_hints_and_reviews_on(tmp_path: Path) -> None:
    local = LocalTable(WebOptions(lang="en", db=str(tmp_path / "web.sqlite3"), port=0, ai_delay=0.0, seed=4,
                                  open_browser=False), lambda line: None)
    try:
        await local.start()
        assert local.table_id is not None
        snap = local.manager.get(local.table_id)
        assert snap is not None and hints_on(snap.table.options)
    finally:
        await local.close()
