"""``majlis db``: migrate, export and import, SQLite → SQLite and SQLite → a real PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from storage import open_repository
from storage.postgres import migrations as postgres_migrations
from storage.records import (
    FINISHED,
    LOBBY,
    PLAYING,
    ActionRecord,
    ChatRecord,
    MatchResult,
    PlayerRecord,
    PlayerResult,
    Seat,
    TableRecord,
)
from storage.sqlite import migrations

pytestmark = pytest.mark.slow  # every test runs `majlis db` as a process

ROOT = Path(__file__).resolve().parents[2]
SEATS = (Seat("tg:1", "One"), Seat("tg:2", "Two"), Seat("ai:easy:2", "AI", is_ai=True), Seat("tg:4", "Four"))


def majlis(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env["MAJLIS_LANG"] = "en"
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, input=stdin, timeout=120, check=False)


async def fill(db: str) -> None:
    repo = await open_repository(db)
    try:
        await repo.set_meta_if_absent("hmac_secret", "s3")
        await repo.save_chat(ChatRecord("tg:-1", lang="ar", default_options={"trix": {"doubling": True}}))
        await repo.save_player(PlayerRecord("tg:1", "سامي", "ar", True))
        base = TableRecord(0, "tg:-1", "tarneeb", {"target": 31}, 7, 0, "tg:1", PLAYING, SEATS,
                           message_ids={"table": "55"}, created_at=1.5)
        live = await repo.get_table(await repo.create_table(base, owner="p1", lease_until=99.0))
        assert live is not None
        for seq in (1, 2, 3):
            live = await repo.append_action(ActionRecord(live.table_id, seq, seq % 4, f"bid {seq}", "tg:1", 2.0 + seq),
                                            replace(live, version=seq, deadline=9.5))
        await repo.save_snapshot(live.table_id, 2, {"deal": [1, 2]})
        ended = await repo.get_table(await repo.create_table(replace(base, status=FINISHED)))  # one live per chat
        assert ended is not None
        results = tuple(PlayerResult(s.player_id or "", i, 10 * (i % 2), i % 2 == 1) for i, s in enumerate(SEATS))
        result = MatchResult(ended.table_id, "tg:-1", "tarneeb", 5.0, results, {"teams": [0, 31]})
        await repo.record_match(result, replace(ended, status=FINISHED))
        await repo.create_table(replace(base, chat_id="tg:-2", status=LOBBY))
    finally:
        await repo.close()


async def everything(db: str) -> list[Any]:
    repo = await open_repository(db)
    try:
        tables = [await repo.get_table(i) for i in (1, 2, 3)]
        seen: list[Any] = [await repo.get_meta("hmac_secret"), await repo.get_chat("tg:-1"),
                           await repo.get_player("tg:1"), tables, await repo.actions(1),
                           await repo.latest_snapshot(1), await repo.table_results(2),
                           await repo.leaderboard("tg:-1", "tarneeb"), await repo.player_stats("tg:2"),
                           await repo.table_lease(1)]
        new_id = await repo.create_table(replace(tables[0] or SEATS, table_id=0, chat_id="tg:-3"))  # type: ignore[arg-type]
        seen.append(new_id > 3)
        return seen
    finally:
        await repo.close()


async def test_export_then_import_into_sqlite_keeps_every_row(tmp_path: Path) -> None:
    src, dst, dump = str(tmp_path / "old.db"), str(tmp_path / "new.db"), tmp_path / "all.jsonl"
    await fill(src)
    out = majlis("db", "export", str(dump), "--db", src)
    assert out.returncode == 0, out.stderr
    assert "Exported" in out.stdout and "3 tables" in out.stdout
    out = majlis("db", "import", str(dump), "--db", dst)
    assert out.returncode == 0, out.stderr
    assert await everything(dst) == await everything(src)
    again = majlis("db", "import", str(dump), "--db", dst)  # into a database that is not empty
    assert again.returncode == 1 and "not empty" in again.stderr and again.stderr.count("\n") == 1


async def test_sqlite_moves_to_postgresql(tmp_path: Path, pg_url: str) -> None:
    src = str(tmp_path / "old.db")
    await fill(src)
    exported = majlis("db", "export", "-", "--db", src)
    assert exported.returncode == 0, exported.stderr
    migrated = majlis("db", "migrate", "--db", pg_url)
    latest = len(postgres_migrations())
    assert migrated.returncode == 0 and f"schema version {latest}," in migrated.stdout, migrated.stderr
    imported = majlis("db", "import", "-", "--db", pg_url, stdin=exported.stdout)
    assert imported.returncode == 0, imported.stderr
    assert await everything(pg_url) == await everything(src)


def test_migrate_reports_the_version_and_bad_input_is_one_line(tmp_path: Path) -> None:
    out = majlis("db", "migrate", "--db", str(tmp_path / "m.db"))
    assert out.returncode == 0 and f"schema version {len(migrations())}," in out.stdout, out.stderr
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all\n" * 50)
    out = majlis("db", "migrate", "--db", str(junk))
    assert out.returncode == 1 and "not a Majlis database" in out.stderr and out.stderr.count("\n") == 1
    notes = tmp_path / "notes.jsonl"
    notes.write_text("hello\n")
    out = majlis("db", "import", str(notes), "--db", str(tmp_path / "m.db"))
    assert out.returncode == 1 and "not a Majlis export" in out.stderr


def test_an_older_export_is_read_with_the_tables_own_state_out_of_its_message_ids() -> None:
    import json

    from storage.transfer import FORMAT, TABLES, VERSION, read_export

    header = json.dumps({"format": FORMAT, "version": VERSION, "schema": 6})
    ids = {"table:1": "5", "parked": "2", "left:tg:9": "1", "shown:table:1": "3:x"}
    old = [1, "tg:-1", "trix", "{}", 1, 0, "tg:1", "playing", "[]", 3, None, 0, None, json.dumps(ids), None,
           "normal", 0.5, 4, "proc-a", 9.5]  # before schema 7 (SQLite) / 4 (PostgreSQL): 20 columns
    [(name, row)] = list(read_export([header, json.dumps(["tables", old])]))
    got = dict(zip(TABLES["tables"], row, strict=True))
    assert name == "tables" and json.loads(got["message_ids"]) == {"table:1": "5"}
    state = (got["parked"], json.loads(got["left_seats"]), json.loads(got["shown"]))
    assert state == (2, {"tg:9": 1}, {"table:1": "3:x"})
    assert (got["created_at"], got["rev"], got["owner"], got["lease_until"]) == (0.5, 4, "proc-a", 9.5)
