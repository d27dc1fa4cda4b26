"""The manager split (bot/core/tables/): updates delivered in order outside the table lock, the one
bounded preference cache, and imports that run one way."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.core.cache import TTLCache
from bot.core.model import TableUpdate
from bot.core.prefs import Prefs
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, make_manager, started_table

ROOT = Path(__file__).resolve().parents[2]


async def test_subscribers_hear_of_a_change_after_the_table_lock_is_released() -> None:
    h = make_manager(MemoryRepository())
    held: list[bool] = []
    stored: list[str] = []

    async def listener(update: TableUpdate) -> None:
        table = h.manager._tables[update.snapshot.table_id]
        held.append(table.lock.locked())
        # a call on the same table, inline: it would wait forever on the lock held by the caller before
        await asyncio.wait_for(h.manager.set_message_id(update.snapshot.table_id, "probe", update.reason), 5)
        stored.append(update.reason)

    h.manager.subscribe(listener)
    await started_table(h, ALICE, BOB)
    assert held and not any(held)
    assert stored[:2] == ["created", "lobby"]
    record = await h.repo.get_table(h.updates[0].snapshot.table_id)
    assert record is not None and record.message_ids["probe"] == stored[-1]


async def test_updates_of_one_table_arrive_in_version_order_under_concurrent_presses() -> None:
    h = make_manager(MemoryRepository())
    snap = await started_table(h, ALICE)
    versions = [u.snapshot.table.version for u in h.updates if u.snapshot.table_id == snap.table_id]
    assert versions == sorted(versions)

    async def slow(update: TableUpdate) -> None:
        await asyncio.sleep(0)

    h.manager.subscribe(slow)
    before = len(h.updates)
    await asyncio.gather(*(h.manager.set_message_id(snap.table_id, f"k{i}", str(i)) for i in range(5)),
                         h.manager.run_due())
    await h.manager.drain()
    later = [u.snapshot.table.version for u in h.updates[before:]]
    assert later == sorted(later)


async def test_a_subscriber_may_change_its_table_and_the_nested_update_comes_after() -> None:
    h = make_manager(MemoryRepository())
    order: list[str] = []

    async def leave_on_lobby(update: TableUpdate) -> None:
        order.append(update.reason)
        if update.reason == "lobby" and update.snapshot.seat_of(BOB.player_id) is not None:
            await h.manager.leave(CHAT, BOB)  # nested: delivered after this update, not inside it

    h.manager.subscribe(leave_on_lobby)
    await h.manager.create(CHAT, ALICE, "trix")
    await h.manager.join(CHAT, BOB)
    await h.manager.drain()
    assert order == ["created", "lobby", "lobby"]
    snap = h.manager.table_in_chat(CHAT)
    assert snap is not None and snap.seat_of(BOB.player_id) is None


def test_the_preference_cache_is_bounded_in_size_and_time() -> None:
    now = [0.0]
    cache: TTLCache[str, int] = TTLCache(3, 10.0, clock=lambda: now[0])
    for i in range(5):
        cache.put(f"k{i}", i)
    assert len(cache) == 3 and cache.get("k0") is None and cache.get("k4") == 4
    now[0] = 10.5
    assert cache.get("k4") is None and cache.peek("k4") == 4
    cache.discard("k4")
    assert "k4" not in cache and len(cache) == 2
    forever: TTLCache[int, int] = TTLCache(2, clock=lambda: now[0])  # no age bound: a bounded set or map
    forever.put(1, 1)
    now[0] = 1e9
    assert forever.get(1) == 1


async def test_one_preference_cache_is_shared_by_the_manager_and_the_presenter() -> None:
    from bot.present.presenter import Presenter

    repo = MemoryRepository()
    h = make_manager(repo)
    presenter = Presenter(h.manager, {})
    assert isinstance(h.manager.prefs, Prefs)
    await h.manager.update_player(ALICE.player_id, lang="en")
    assert (await presenter._player(ALICE.player_id))[0] == "en"
    await repo.save_player((await h.manager.player(ALICE)).__class__(player_id=ALICE.player_id, name="A", lang="ar"))
    assert (await presenter._player(ALICE.player_id))[0] == "en"  # cached ...
    presenter.forget_player(ALICE.player_id)
    assert (await presenter._player(ALICE.player_id))[0] == "ar"  # ... until forgotten
