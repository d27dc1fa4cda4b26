"""After a chat moves (ChatMigrated), its tables in memory are at the stored rev: the next writes work."""

from __future__ import annotations

import pytest

from bot.core.errors import TableError
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, make_manager, started_table


async def test_a_moved_tables_next_writes_are_not_refused_as_stale() -> None:
    h = make_manager(MemoryRepository())
    snap = await started_table(h, ALICE)
    assert await h.manager.move_chat(CHAT, "tg:-1009") == 1
    await h.manager.set_message_id(snap.table_id, "table", "77")  # a write of the moved row
    stored = await h.repo.get_table(snap.table_id)
    assert stored is not None and stored.chat_id == "tg:-1009" and stored.message_ids["table"] == "77"
    assert h.manager._tables[snap.table_id].record.rev == stored.rev


async def test_a_chat_moving_onto_an_id_with_its_own_table_keeps_one_live_table() -> None:
    h = make_manager(MemoryRepository())
    old = await started_table(h, ALICE)
    new = await h.manager.create("tg:-1010", BOB, "trix")  # opened in the supergroup before the move came
    assert await h.manager.move_chat(CHAT, "tg:-1010") == 0
    stopped = h.manager.get(old.table_id)
    assert stopped is not None and stopped.table.status == "stopped" and stopped.table.chat_id == "tg:-1010"
    stored = await h.repo.get_table(old.table_id)
    assert stored is not None and stored.status == "stopped"
    assert stored.rev == h.manager._tables[old.table_id].record.rev
    assert h.manager.table_in_chat("tg:-1010").table_id == new.table_id  # type: ignore[union-attr]
    assert [t.table_id for t in await h.repo.live_tables()] == [new.table_id]
    assert {"type": "table_cancelled", "reason": "chat_moved"} in h.events("table_cancelled")
    with pytest.raises(TableError) as e:
        await h.manager.create("tg:-1010", ALICE, "trix")
    assert e.value.code == "table_exists"
