"""Two ``majlis run --telegram --webhook`` workers behind one load balancer, on one PostgreSQL
(bot/core/cluster/routing.py forwards, bot/adapters/telegram/app.py receives).

The balancer (this test's own HTTP server, at the address both workers give ``setWebhook``) sends
each update the fake Bot API posts to the worker the test names. The table is opened through
worker A, so A holds it; the joins and a press then all reach worker B, which holds nothing: each
is forwarded to A and applied there once (A's metrics count the move, B's do not; the action log
holds it once), and B answers the person. Telegram's retry of the same press, sent to B again,
changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import asyncpg
import pytest
from aiohttp import web

from tests.adapters.processes import free_port, start_run, stop_run, wait_listening
from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram
from tests.adapters.telegram.harness import join_url_payload

pytestmark = pytest.mark.slow  # majlis run as real processes

GROUP = -100444
HEADER = "X-Telegram-Bot-Api-Secret-Token"


class Balancer:
    """Forwards each POST to the backend named by :attr:`target` (the path kept)."""

    def __init__(self) -> None:
        self.backends: dict[str, str] = {}
        self.target = ""
        #: (backend, seconds): each update also goes to that backend this long after the target (a retry)
        self.twice: tuple[str, float] | None = None
        self.routed: list[tuple[str, int, int]] = []  # (backend, update_id, status)
        self.last: dict[str, Any] = {}
        self.port = free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession()

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def post(self, name: str, body: bytes, headers: dict[str, str]) -> int:
        """POST to a backend once it listens (PTB calls setWebhook before its server listens)."""
        assert self._session is not None
        url = self.backends[name]
        port = urlsplit(url).port
        assert port is not None
        await wait_listening(port, timeout=30)
        async with self._session.post(url, data=body, headers=headers) as r:
            return r.status

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() in ("content-type", HEADER.lower())}
        update = json.loads(body)
        if self.twice is not None:  # the same update to two workers, a few ms apart
            other, delay = self.twice

            async def later() -> int:
                await asyncio.sleep(delay)
                return await self.post(other, body, headers)

            first, second = await asyncio.gather(self.post(self.target, body, headers), later())
            self.routed.append((other, int(update["update_id"]), second))
            status = first
        else:
            status = await self.post(self.target, body, headers)
        self.routed.append((self.target, int(update["update_id"]), status))
        self.last = {"body": body, "headers": headers}
        return web.Response(status=status)


@pytest.fixture
async def balancer() -> AsyncIterator[Balancer]:
    lb = Balancer()
    await lb.start()
    try:
        yield lb
    finally:
        await lb.stop()


async def metric(port: int, name: str) -> float:
    async with aiohttp.ClientSession() as s, s.get(f"http://127.0.0.1:{port}/metrics") as r:
        text = await r.text()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name))


async def test_an_update_that_reaches_the_worker_not_holding_the_table_is_applied_once_by_its_holder(
        tg: FakeTelegram, balancer: Balancer, pg_url: str, tmp_path: Path) -> None:
    people = [tg.add_user(701 + i, name, "en") for i, name in enumerate(["Ali", "Huda", "Omar", "Sara"])]
    tg.add_group(GROUP, admins=[people[0].user_id])
    hook, scrape = {"a": free_port(), "b": free_port()}, {"a": free_port(), "b": free_port()}
    procs: dict[str, asyncio.subprocess.Process] = {}
    for name in ("a", "b"):
        balancer.backends[name] = f"http://127.0.0.1:{hook[name]}/hook"
        folder = tmp_path / name
        folder.mkdir()
        procs[name] = await start_run("telegram", folder, {
            "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url, "MAJLIS_DB": pg_url,
            "PTB_TIMEDELTA": "1", "MAJLIS_TELEGRAM_WEBHOOK_URL": balancer.url,
            "MAJLIS_TELEGRAM_WEBHOOK_PORT": str(hook[name]), "MAJLIS_METRICS_PORT": str(scrape[name])},
            ["--webhook"])
    try:
        await tg.wait_for(lambda: len(tg.webhook_calls) == 2, timeout=90)  # both listen (same secret)
        assert len({str(params["secret_token"]) for _, params in tg.webhook_calls}) == 1
        balancer.target = "a"  # A opens the table, so A holds it
        await tg.say(people[0], GROUP, "/lang en")
        await tg.say(people[0], GROUP, "/new tarneeb41 target=1")
        lobby = await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: "waiting for players" in m.text),
                                  timeout=30)
        balancer.target = "b"  # from now on every update reaches B
        payload = join_url_payload(lobby)
        for p in people[1:]:
            await tg.start_bot(p, payload)

        def mover() -> Any:
            for p in people:
                m = tg.last_bot_message(p.user_id, lambda m: any(
                    str(b.get("callback_data", "")).startswith("mj1:a:") for b in m.buttons))
                if m is not None:
                    return p, m
            return None

        person, hand = await tg.wait_for(mover, timeout=60)
        move = next(b["callback_data"] for b in hand.buttons if str(b.get("callback_data", "")).startswith("mj1:a:"))
        edits = len(lobby.history)
        answer = await tg.press(person, hand, move, timeout=30)  # answered by B, with A's result
        assert not answer.text or answer.text.startswith("Your turn"), answer.text
        await tg.wait_for(lambda: len(lobby.history) > edits, timeout=30)  # A's outbox shows the move
        retry = balancer.last
        assert await balancer.post("b", retry["body"], retry["headers"]) == 200  # Telegram sends it again
        await asyncio.sleep(1.0)
        assert {name for name, _, _ in balancer.routed[:2]} == {"a"}
        assert {name for name, _, _ in balancer.routed[2:]} == {"b"}
        assert {status for _, _, status in balancer.routed} == {200}
        assert await metric(scrape["a"], 'majlis_actions_total{reason="person"}') == 1
        assert await metric(scrape["b"], "majlis_actions_total") == 0
        conn = await asyncpg.connect(pg_url)
        try:
            actions = await conn.fetch("SELECT seq, actor FROM actions")
            owner = await conn.fetchval("SELECT owner FROM tables")
            inbox = await conn.fetch("SELECT sender, taker, state FROM inbox ORDER BY entry_id")
        finally:
            await conn.close()
        assert [r["seq"] for r in actions] == [1] and actions[0]["actor"] == f"tg:{person.user_id}"
        assert f":{procs['a'].pid}:" in owner
        assert len(inbox) == 4  # three joins and the press; the retry is the same entry (key: the query's id)
        assert all(f":{procs['b'].pid}:" in r["sender"] and f":{procs['a'].pid}:" in (r["taker"] or "")
                   and r["state"] == "done" for r in inbox)
    finally:
        codes = {}
        for name, proc in procs.items():
            codes[name] = await stop_run(proc, signal.SIGTERM)
    for code, err in codes.values():
        assert code == 0, err.decode()[-3000:]


async def test_a_press_delivered_to_both_workers_ms_apart_is_answered_as_the_press_and_applied_once(
        tg: FakeTelegram, balancer: Balancer, pg_url: str, tmp_path: Path) -> None:
    """Issue 29: Telegram delivers one press to the worker holding the table and, 2 ms later, to the
    other (and the other way round). The holder applies one copy; the other, forwarded to the holder or
    received by it, gets the same answer instead of "That button is out of date". Both workers answer
    the press (Telegram refuses the second with "query is too old"), so whichever answer reaches it
    first, the person sees the press's answer; the table changed once per press."""
    people = [tg.add_user(711 + i, name, "en") for i, name in enumerate(["Ali", "Huda", "Omar", "Sara"])]
    tg.add_group(GROUP, admins=[people[0].user_id])
    hook, scrape = {"a": free_port(), "b": free_port()}, {"a": free_port(), "b": free_port()}
    procs: dict[str, asyncio.subprocess.Process] = {}
    for name in ("a", "b"):
        balancer.backends[name] = f"http://127.0.0.1:{hook[name]}/hook"
        folder = tmp_path / name
        folder.mkdir()
        procs[name] = await start_run("telegram", folder, {
            "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url, "MAJLIS_DB": pg_url,
            "PTB_TIMEDELTA": "1", "MAJLIS_TELEGRAM_WEBHOOK_URL": balancer.url,
            "MAJLIS_TELEGRAM_WEBHOOK_PORT": str(hook[name]), "MAJLIS_METRICS_PORT": str(scrape[name])},
            ["--webhook"])
    try:
        await tg.wait_for(lambda: len(tg.webhook_calls) == 2, timeout=90)
        balancer.target = "a"  # A opens the table and holds it; the joins reach A too
        await tg.say(people[0], GROUP, "/lang en")
        await tg.say(people[0], GROUP, "/new tarneeb41 target=1")
        lobby = await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: "waiting for players" in m.text),
                                  timeout=30)
        payload = join_url_payload(lobby)
        for p in people[1:]:
            await tg.start_bot(p, payload)

        def next_move(after: int) -> Any:
            """A person's hand message offering a move at a version above ``after``, and that move."""
            for p in people:
                m = tg.last_bot_message(p.user_id, lambda m: any(
                    str(b.get("callback_data", "")).startswith("mj1:a:") for b in m.buttons))
                moves = [str(b["callback_data"]) for b in (m.buttons if m is not None else [])
                         if str(b.get("callback_data", "")).startswith("mj1:a:")]
                moves = [c for c in moves if int(c.split(":")[3]) > after]
                if m is not None and moves:
                    return p, m, moves[0]
            return None

        version = -1
        # the holder first, then the other worker first, its copy applied (through the inbox) before the
        # holder's own copy arrives, whose refusal would be answered at once, ahead of the press's answer
        rounds = (("a", "b", 0.002), ("b", "a", 0.002), ("b", "a", 0.02), ("b", "a", 0.05), ("b", "a", 0.1))
        for first, second, delay in rounds:
            person, hand, move = await tg.wait_for(lambda v=version: next_move(v), timeout=60)
            version = int(move.split(":")[3])
            balancer.target, balancer.twice = first, (second, delay)
            before = len(balancer.routed)
            answer = await tg.press(person, hand, move, timeout=30)
            await tg.wait_for(lambda n=before + 2: len(balancer.routed) >= n, timeout=30)
            assert {name for name, _, _ in balancer.routed[before:]} == {"a", "b"}
            late = await tg.wait_for(lambda q=answer.query_id: [x for x in tg.late_answers if x.query_id == q],
                                     timeout=30)  # the other worker's answer came too, and was refused
            for given in (answer, *late):  # each worker answered with the press's own answer
                assert not given.text or given.text.startswith("Your turn"), (first, delay, given.text)
                assert not given.show_alert, (first, delay, given.text)
        balancer.twice = None
        assert {status for _, _, status in balancer.routed} == {200}
        assert await metric(scrape["a"], 'majlis_actions_total{reason="person"}') == len(rounds)
        assert await metric(scrape["b"], "majlis_actions_total") == 0
        conn = await asyncpg.connect(pg_url)
        try:
            actions = await conn.fetch("SELECT seq, actor FROM actions ORDER BY seq")
        finally:
            await conn.close()
        assert [r["seq"] for r in actions] == list(range(1, len(rounds) + 1))  # each press applied once
    finally:
        codes = {}
        for name, proc in procs.items():
            codes[name] = await stop_run(proc, signal.SIGTERM)
    for code, err in codes.values():
        assert code == 0, err.decode()[-3000:]
