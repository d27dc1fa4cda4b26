"""After a chat moves (ChatMigrated), its tables in memory are at the stored rev: the next writes work."""

from __future__ import annotations

from test_manager_helpers import ALICE, CHAT, make_manager, started_table

from storage.memory import MemoryRepository


async def test_a_moved_tables_next_writes_are_not_refused_as_stale() -> None:
    h = make_manager(MemoryRepository())
    snap = await started_table(h, ALICE)
    assert await h.manager.move_chat(CHAT, "tg:-1009") == 1
    await h.manager.set_message_id(snap.table_id, "table", "77")  # a write of the moved row
    stored = await h.repo.get_table(snap.table_id)
    assert stored is not None and stored.chat_id == "tg:-1009" and stored.message_ids["table"] == "77"
    assert h.manager._tables[snap.table_id].record.rev == stored.rev
