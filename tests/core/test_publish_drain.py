"""Publisher.drain while another task delivers a table's last update (found as a 300 s hang of a
Discord tournament test under load): drain waits for that delivery instead of spinning."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.model import TableUpdate
from bot.core.table import Table
from bot.core.tables.publish import Publisher
from storage.records import LOBBY, Seat, TableRecord

pytestmark = pytest.mark.timeout(10)  # the bug spun forever without yielding


async def test_drain_waits_for_a_delivery_in_flight_whose_queue_is_already_empty() -> None:
    publisher = Publisher()
    release = asyncio.Event()
    heard: list[str] = []

    async def slow_listener(update: TableUpdate) -> None:
        heard.append(update.reason)
        await release.wait()

    publisher.subscribe(slow_listener)
    table = Table(record=TableRecord(7, "tg:1", "tarneeb41", {}, 1, 0, "tg:2", LOBBY,
                                     (Seat("tg:2", "Sara"), Seat(), Seat(), Seat())))
    publisher.post(table, [], "joined")
    delivering = asyncio.create_task(publisher.flush(7))
    await asyncio.sleep(0)  # it took the update and waits in the listener: the queue is empty, still listed
    assert heard == ["joined"]
    asyncio.get_running_loop().call_later(0.05, release.set)
    await asyncio.wait_for(publisher.drain(), timeout=10)
    assert delivering.done()
