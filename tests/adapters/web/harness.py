"""A real table manager on a real SQLite file with the web adapter listening on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.adapters.web.server import WebServer, WebSettings
from bot.adapters.web.tokens import install_secret
from bot.core.manager import TableManager
from bot.core.model import Person
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from storage import open_repository

CHAT = "tg:-100500"
SARA = Person("tg:11", "Sara", lang_hint="en")
OMAR = Person("tg:12", "Omar", lang_hint="en")
BOT_TOKEN = "123456:TEST-not-a-real-token"


@dataclass
class Bed:
    """The running pieces of one web test."""

    manager: TableManager
    server: WebServer
    base: str
    table_id: int
    repo: Any
    people: dict[int, Person] = field(default_factory=dict)

    def play_token(self, seat: int) -> str:
        person = self.people[seat]
        return self.server.links.token("play", self.table_id, self.manager.clock.now(), seat=seat,
                                       player_id=person.player_id)

    def play_url(self, seat: int) -> str:
        return f"{self.base}/#k={self.play_token(seat)}"

    def watch_url(self) -> str:
        return self.server.links.watch_url(self.table_id, self.manager.clock.now())

    def ws_url(self, token: str) -> str:
        return self.base.replace("http://", "ws://") + "/ws?k=" + token


@contextlib.asynccontextmanager
async def web_bed(tmp_path: Path, *, game: str = "tarneeb41", seed: int = 7, humans: tuple[int, ...] = (0,),
                  options: dict[str, Any] | None = None, ai_delay: float = 0.0, lang: str = "en",
                  digits: str = "western", telegram: bool = True, turn_seconds: int = 0,
                  deal_pause: float = 0.0) -> AsyncIterator[Bed]:
    """A table in ``CHAT`` with Sara (and Omar) seated, AI players in the other seats, started."""
    repo = await open_repository(str(tmp_path / "web.sqlite3"))
    settings = ManagerSettings(ai_delay=ai_delay, deal_pause=deal_pause, default_turn_seconds=turn_seconds,
                               seed_source=lambda: seed,
                               lobby_timeout=3600.0)
    manager = TableManager(repo, router=routed, settings=settings)
    secret = await install_secret(repo)
    server = WebServer(manager, secret, WebSettings(port=0, telegram_token=BOT_TOKEN if telegram else None))
    await manager.start()
    try:
        await manager.update_chat(CHAT, ai_level="easy", lang=lang, digits=digits, turn_seconds=turn_seconds)
        people = {0: SARA, 2: OMAR}
        for seat in humans:
            await manager.update_player(people[seat].player_id, name=people[seat].name, lang=lang)
        snap = await manager.create(CHAT, people[humans[0]], game, options or {})
        for seat in humans[1:]:
            await manager.join(CHAT, people[seat], seat)
        await manager.begin(CHAT, people[humans[0]])
        base = await server.start()
        yield Bed(manager=manager, server=server, base=base, table_id=snap.table_id, repo=repo,
                  people={s: people[s] for s in humans})
    finally:
        await server.close()
        await manager.close()
        await repo.close()


async def settle(bed: Bed, timeout: float = 10.0) -> None:
    """Wait until a person is to act (the AI seats have moved) or the match is over."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        snap = bed.manager.get(bed.table_id)
        assert snap is not None
        if snap.table.status != "playing" or snap.to_act in bed.people:
            return
        assert loop.time() < end, "the AI seats did not move"
        await asyncio.sleep(0.005)


class Page:
    """A WebSocket client of the web table (what a browser page does, without the drawing)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.texts: list[str] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=timeout)
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
        self.texts.append(msg.data)
        data: dict[str, Any] = json.loads(msg.data)
        if data["type"] == "state":
            self.state = data["state"]
        elif data["type"] == "error":
            self.errors.append(data)
        return data

    async def until(self, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Read messages until ``pred(state)`` holds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.state is None or not pred(self.state):
            left = end - loop.time()
            assert left > 0, f"timed out; last state {self.state and self.state.get('version')}"
            await self.next(left)
        return self.state

    async def act(self, action: str, version: int | None = None) -> None:
        assert self.state is not None
        await self.ws.send_json({"type": "act", "action": action,
                                 "version": self.state["version"] if version is None else version})
