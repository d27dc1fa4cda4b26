"""The runner's pieces (bot/app/runner.py): the configured chat defaults and the shared start."""

from __future__ import annotations

import asyncio

from bot.app.config import load_config
from bot.app.runner import StartGate, manager_settings
from bot.core.manager import TableManager
from bot.core.model import Person
from bot.core.service import routed
from storage.memory import MemoryRepository


async def test_the_environments_ai_level_digits_and_timer_are_the_chat_bots_defaults() -> None:
    cfg = load_config({"MAJLIS_AI_LEVEL": "strong", "MAJLIS_DIGITS": "arabic", "MAJLIS_TURN_SECONDS": "45",
                       "HOME": "/nonexistent"})
    settings = manager_settings(cfg, ("tg:", "dc:"))
    assert settings.chat_prefixes == ("tg:", "dc:")
    repo = MemoryRepository()
    await repo.open()
    manager = TableManager(repo, router=routed, settings=settings)
    chat = await manager.chat_settings("tg:-1001")
    assert (chat.ai_level, chat.digits, chat.turn_seconds) == ("strong", "arabic", 45)
    snap = await manager.create("dc:77", Person("dc:1", "Alice"), "tarneeb41")
    assert snap.table.ai_level == "strong"
    # a stored choice of the chat still wins over the default
    await manager.update_chat("tg:-1002", ai_level="easy")
    manager2 = TableManager(repo, router=routed, settings=settings)
    assert (await manager2.chat_settings("tg:-1002")).ai_level == "easy"
    await manager.close()
    await repo.close()


async def test_the_gate_starts_the_shared_manager_once_after_every_bot_arrived() -> None:
    repo = MemoryRepository()
    await repo.open()
    manager = TableManager(repo, router=routed)
    starts: list[int] = []
    original = manager.start

    async def counting_start() -> None:
        starts.append(len(starts))
        await original()

    manager.start = counting_start  # type: ignore[method-assign]
    gate = StartGate(manager, parties=2)
    first = asyncio.ensure_future(gate.arrive())
    await asyncio.sleep(0.05)
    assert not first.done() and starts == []  # the first bot waits for the second one's presenter
    await asyncio.gather(first, gate.arrive())
    assert starts == [0] and gate.started
    await manager.close()
    await repo.close()
