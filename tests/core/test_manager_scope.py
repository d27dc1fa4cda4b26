"""A manager restores only the tables of the chats it serves (one database, several bots)."""

from __future__ import annotations

from pathlib import Path

from bot.core.model import Person
from storage.sqlite import SQLiteRepository
from tests.core.test_manager_helpers import ALICE, make_manager


async def test_restore_only_the_served_platforms_tables(tmp_path: Path) -> None:
    repo = SQLiteRepository(tmp_path / "m.db")
    await repo.open()
    try:
        first = make_manager(repo)
        await first.manager.create("tg:-1", ALICE, "trix")
        await first.manager.create("dc:55", Person("dc:9", "Dina"), "tarneeb")
        await first.manager.create("cli:local", Person("cli:you", "You"), "tarneeb41")
        await first.manager.close()

        telegram = make_manager(repo, chat_prefixes=("tg:",))
        await telegram.manager.start()
        assert telegram.manager.table_in_chat("tg:-1") is not None
        assert telegram.manager.table_in_chat("dc:55") is None
        assert telegram.manager.table_in_chat("cli:local") is None
        await telegram.manager.close()

        everything = make_manager(repo)
        await everything.manager.start()
        assert all(everything.manager.table_in_chat(c) is not None for c in ("tg:-1", "dc:55", "cli:local"))
        await everything.manager.close()
    finally:
        await repo.close()
