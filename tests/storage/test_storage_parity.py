"""Memory, SQLite and PostgreSQL answer alike: the same random calls give the same results and refusals."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.records import (
    FINISHED,
    LOBBY,
    PLAYING,
    ActionRecord,
    MatchResult,
    PlayerRecord,
    PlayerResult,
    Seat,
    TableRecord,
)
from storage.sqlite import SQLiteRepository

Repo = MemoryRepository | SQLiteRepository | PostgresRepository
PEOPLE = [f"tg:{i}" for i in range(1, 9)]
GAMES = ["tarneeb", "tarneeb41", "trix"]
CHATS = ["tg:-1", "dc:2"]


def random_table(rng: random.Random) -> TableRecord:
    players = rng.sample(PEOPLE, 4)
    for seat in rng.sample(range(4), rng.randint(0, 2)):
        players[seat] = f"ai:easy:{seat}"
    seats = tuple(Seat(p, p.upper(), is_ai=p.startswith("ai:")) for p in players)
    return TableRecord(0, rng.choice(CHATS), rng.choice(GAMES), {"target": rng.choice([31, 41])},
                       rng.randrange(1 << 30), rng.randrange(4), players[0], rng.choice([LOBBY, PLAYING]),
                       seats)  # type: ignore[arg-type]


def random_result(rng: random.Random, t: TableRecord) -> MatchResult:
    scores = [rng.randint(-50, 60) for _ in range(4)]
    if t.game == "trix":
        winners = {i for i in range(4) if scores[i] == max(scores)}
    else:
        team = rng.randrange(2)
        winners = {team, team + 2}
    left = {i for i in range(4) if rng.random() < 0.15 and not (t.seats[i].player_id or "").startswith("ai:")}
    results = tuple(PlayerResult(t.seats[i].player_id or "", i, scores[i], i in winners, i in left)
                    for i in range(4))
    return MatchResult(t.table_id, t.chat_id, t.game, 1.0, results, {"players": scores})


async def step(repo: Repo, rng: random.Random, tables: dict[int, TableRecord]) -> Any:
    """One random call; returns what it gave back or the name of what it raised."""
    try:
        op = rng.choice(["create", "append", "append", "append", "stale", "snapshot", "finish", "player",
                         "save", "stale_save"])
        if op == "create" or not tables:
            table_id = await repo.create_table(random_table(rng))
            got = await repo.get_table(table_id)
            assert got is not None
            tables[table_id] = got
            return ("created", table_id)
        table_id = rng.choice(sorted(tables))
        t = tables[table_id]
        if op in ("append", "stale"):
            seq = t.version + 1 if op == "append" else rng.randint(1, t.version + 3)
            moved = replace(t, version=seq, deadline=float(seq), warned=rng.random() < 0.5)
            tables[table_id] = await repo.append_action(
                ActionRecord(table_id, seq, seq % 4, f"play {seq}", "tg:1", 0.5), moved)
            return ("appended", seq)
        if op in ("save", "stale_save"):
            rev = t.rev if op == "save" else t.rev - rng.randint(1, 2)
            saved = await repo.save_table(replace(t, rev=rev, message_ids={"table": str(rng.randrange(99))}))
            tables[table_id] = saved
            return ("saved", saved.rev)
        if op == "snapshot":
            seq = rng.randint(0, t.version + 1)
            await repo.save_snapshot(table_id, seq, {"seq": seq, "hands": [[1, 2], [3]]})
            return ("snapshot", seq)
        if op == "finish":
            done = replace(t, status=FINISHED)
            tables[table_id] = await repo.record_match(random_result(rng, t), done)
            return ("finished", table_id)
        player = rng.choice(PEOPLE)
        await repo.save_player(PlayerRecord(player, player.upper() + "!", rng.choice(["ar", "en", None])))
        return ("player", player)
    except Exception as exc:
        return ("raised", type(exc).__name__)


async def observe(repo: Repo, tables: dict[int, TableRecord]) -> list[Any]:
    seen: list[Any] = [await repo.live_tables(), await repo.live_tables_with_logs()]
    for table_id in sorted(tables):
        seen += [await repo.get_table(table_id), await repo.actions(table_id),
                 await repo.latest_snapshot(table_id), await repo.table_results(table_id)]
    for chat in CHATS:
        for game in GAMES:
            seen.append(await repo.leaderboard(chat, game, limit=20))
    for person in PEOPLE:
        seen += [await repo.player_stats(person), await repo.player_stats(person, CHATS[0])]
    return seen


async def agree(memory: MemoryRepository, other: Repo, seed: int, steps: int = 150) -> None:
    await memory.open()
    await other.open()
    try:
        rng_m, rng_o = random.Random(seed), random.Random(seed)
        tables_m: dict[int, TableRecord] = {}
        tables_o: dict[int, TableRecord] = {}
        outcomes = set()
        for _ in range(steps):
            got_m, got_o = await step(memory, rng_m, tables_m), await step(other, rng_o, tables_o)
            assert got_m == got_o
            outcomes.add(got_m[0] if got_m[0] != "raised" else got_m)
        assert {"created", "appended", "finished", "saved"} <= outcomes
        assert {("raised", "VersionConflict"), ("raised", "TableConflict")} <= outcomes
        assert await observe(memory, tables_m) == await observe(other, tables_o)
    finally:
        await memory.close()
        await other.close()


@pytest.mark.parametrize("seed", range(4))
async def test_memory_and_sqlite_agree_on_random_calls(tmp_path: Path, seed: int) -> None:
    await agree(MemoryRepository(), SQLiteRepository(tmp_path / "p.db"), seed)


@pytest.mark.slow  # PostgreSQL
@pytest.mark.parametrize("seed", range(2))
async def test_memory_and_postgres_agree_on_random_calls(pg_url: str, seed: int) -> None:
    await agree(MemoryRepository(), PostgresRepository(pg_url), seed)
