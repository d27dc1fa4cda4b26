"""Where a chat's hands go (``ChatRecord.hands``): stored, migrated, exported and read back."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.errors import TableError
from bot.core.prefs import Prefs
from storage.memory import MemoryRepository
from storage.records import ChatRecord
from storage.sqlite import SQLiteRepository, migrate, migrations
from storage.transfer import FORMAT, TABLES, VERSION, read_export


async def test_a_chats_choice_of_where_hands_go_is_stored_and_read_back(tmp_path: Path) -> None:
    chat = ChatRecord("tg:-5", lang="ar", hands="group")
    async with SQLiteRepository(tmp_path / "m.db") as repo:
        await repo.save_chat(chat)
        assert await repo.get_chat("tg:-5") == chat
        await repo.save_chat(replace(chat, hands="dm"))
        stored = await repo.get_chat("tg:-5")
        assert stored is not None and stored.hands == "dm"
    memory = MemoryRepository()
    await memory.save_chat(chat)
    assert await memory.get_chat("tg:-5") == chat


async def test_upgrading_gives_every_stored_chat_both_kinds_of_hands(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, migrations()[:7]) == 7  # before 0008: no hands column
    conn.execute("INSERT INTO chats (chat_id, lang, turn_seconds, digits, default_options, ai_level) "
                 "VALUES ('tg:-9', 'en', 30, 'arabic', '{}', 'easy')")
    conn.close()
    async with SQLiteRepository(path) as repo:
        assert repo.schema_version == len(migrations()) >= 8
        assert await repo.get_chat("tg:-9") == ChatRecord("tg:-9", "en", 30, "arabic", {}, "easy", "both")


def test_an_export_written_before_hands_existed_is_read_with_the_default() -> None:
    header = json.dumps({"format": FORMAT, "version": VERSION, "schema": 7})
    [(name, row)] = list(read_export([header, json.dumps(["chats", ["tg:-1", "ar", 60, "western", "{}", "normal"]])]))
    assert name == "chats" and dict(zip(TABLES["chats"], row, strict=True))["hands"] == "both"


async def test_only_both_group_or_dm_may_be_chosen() -> None:
    prefs = Prefs(MemoryRepository())
    assert (await prefs.update_chat("tg:-1", hands="group")).hands == "group"
    assert prefs.hands("tg:-1") == "group" and prefs.hands("tg:-2") == "both"
    with pytest.raises(TableError):
        await prefs.update_chat("tg:-1", hands="everywhere")
    assert (await prefs.chat("tg:-1")).hands == "group"
