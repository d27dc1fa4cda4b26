"""Opt-in notifications in storage (migration sqlite 0010 / postgres 0007): a chat's ``notify``, a
person's ``turn_ping`` and the chat subscriptions, on memory, SQLite and PostgreSQL; upgraded, moved
with a chat and carried by export and import."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

from storage.records import ChatRecord, PlayerRecord
from storage.sqlite import SQLiteRepository, migrate, migrations
from storage.transfer import FORMAT, TABLES, VERSION, export_database, import_database, read_export
from tests.storage.conftest import Repo


async def test_a_chat_and_a_person_keep_their_notification_choices(repo: Repo) -> None:
    await repo.save_chat(ChatRecord("tg:-5", notify=True))
    await repo.save_player(PlayerRecord("tg:7", "سارة", turn_ping=50))
    assert (await repo.get_chat("tg:-5")) == ChatRecord("tg:-5", notify=True)
    assert (await repo.get_player("tg:7")) == PlayerRecord("tg:7", "سارة", turn_ping=50)
    await repo.save_player(PlayerRecord("tg:7", "سارة"))
    stored = await repo.get_player("tg:7")
    assert stored is not None and stored.turn_ping is None


async def test_subscribers_are_listed_oldest_first_once_each_and_only_in_their_chat(repo: Repo) -> None:
    await repo.save_player(PlayerRecord("dc:2", "Omar"))
    assert await repo.subscribe("dc:9", "dc:2", True, 20.0)
    assert await repo.subscribe("dc:9", "dc:1", True, 10.0)
    assert not await repo.subscribe("dc:9", "dc:2", True, 30.0)  # already: keeps its first time
    assert await repo.subscribe("dc:8", "dc:3", True, 5.0)
    assert await repo.subscribers("dc:9") == [("dc:1", ""), ("dc:2", "Omar")]
    assert await repo.subscribers("dc:9", limit=1) == [("dc:1", "")]
    assert await repo.subscribe("dc:9", "dc:1", False, 40.0)
    assert not await repo.subscribe("dc:9", "dc:1", False, 41.0)
    assert await repo.subscribers("dc:9") == [("dc:2", "Omar")]
    assert await repo.subscribers("dc:7") == []


async def test_a_group_that_became_a_supergroup_keeps_its_subscribers(repo: Repo) -> None:
    await repo.subscribe("tg:-1", "tg:5", True, 1.0)
    await repo.subscribe("tg:-1", "tg:6", True, 2.0)
    await repo.subscribe("tg:-100", "tg:6", True, 3.0)  # in both: kept once, with the new chat's time
    await repo.move_chat("tg:-1", "tg:-100")
    assert await repo.subscribers("tg:-1") == []
    assert [pid for pid, _ in await repo.subscribers("tg:-100")] == ["tg:5", "tg:6"]


async def test_upgrading_turns_every_notification_off(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, migrations()[:9]) == 9  # before 0010
    conn.execute("INSERT INTO chats (chat_id, lang, turn_seconds, digits, default_options, ai_level, hands) "
                 "VALUES ('tg:-9', 'en', 30, 'western', '{}', 'easy', 'dm')")
    conn.execute("INSERT INTO players VALUES ('tg:1', 'Ali', 'ar', 1)")
    conn.close()
    async with SQLiteRepository(path) as repo:
        assert repo.schema_version == len(migrations()) >= 10
        chat = await repo.get_chat("tg:-9")
        assert chat is not None and chat.notify is False and chat.hands == "dm"
        assert await repo.get_player("tg:1") == PlayerRecord("tg:1", "Ali", "ar", True, None)
        assert await repo.subscribers("tg:-9") == []


async def test_an_export_carries_subscriptions_and_older_exports_read_with_everything_off(tmp_path: Path) -> None:
    async with SQLiteRepository(tmp_path / "a.db") as a:
        await a.save_chat(ChatRecord("tg:-2", notify=True))
        await a.save_player(PlayerRecord("tg:3", "Lina", turn_ping=75))
        await a.subscribe("tg:-2", "tg:3", True, 12.5)
        out = io.StringIO()
        counts = await export_database(a, out)
    assert counts["subscriptions"] == 1
    async with SQLiteRepository(tmp_path / "b.db") as b:
        await import_database(b, read_export(out.getvalue().splitlines()))
        assert (await b.get_chat("tg:-2")) == ChatRecord("tg:-2", notify=True)
        assert (await b.get_player("tg:3")) == PlayerRecord("tg:3", "Lina", turn_ping=75)
        assert await b.subscribers("tg:-2") == [("tg:3", "Lina")]
    header = json.dumps({"format": FORMAT, "version": VERSION, "schema": 9})
    old = [header, json.dumps(["chats", ["tg:-1", "ar", 60, "western", "{}", "normal", "group"]]),
           json.dumps(["chats", ["tg:-4", "ar", 60, "western", "{}", "normal"]]),
           json.dumps(["players", ["tg:1", "Ali", None, None]])]
    rows = list(read_export(old))
    chats = [dict(zip(TABLES["chats"], row, strict=True)) for name, row in rows if name == "chats"]
    assert [(c["hands"], c["notify"]) for c in chats] == [("group", 0), ("both", 0)]
    [player] = [dict(zip(TABLES["players"], row, strict=True)) for name, row in rows if name == "players"]
    assert player["turn_ping"] is None
