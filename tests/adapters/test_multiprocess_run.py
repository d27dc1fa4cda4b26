"""Two real ``majlis run --discord`` processes, one PostgreSQL, Discord's shards split between them.

The fake Discord has two servers, one on each of two shards; process p0 runs shard 0 (it also gets
every direct message), p1 runs shard 1. Bob opens a table in p1's server, so p1 holds it; his hand
is in his DMs, so every press of his reaches p0 and is forwarded to p1 (bot/core/cluster/routing.py). Alice's
table is p0's own. Mid-match p1 is killed with SIGKILL: p0 takes Bob's table over within the lease
(3 s here), its turn timer included (Bob stops pressing: his turn times out, then the AI plays his
seat), and both matches finish. Every press Bob saw acknowledged without an error is in the log
exactly once, at its seq; no press is stored twice; both logs replay to their recorded ends.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.app.config import home_shard
from bot.core.tables.restore import replay
from storage.postgres import PostgresRepository
from tests.adapters.discord.fake_discord import FakeDiscord, Interaction
from tests.adapters.processes import start_run, stop_pair

pytestmark = pytest.mark.slow  # majlis run as real processes

DC_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GAbCdE.fakefakefakefakefakefakefakefake12"


async def table_of(url: str, chat: str) -> tuple[int, int, str, str | None] | None:
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow("SELECT table_id, version, status, owner FROM tables WHERE chat_id = $1 "
                                  "ORDER BY table_id DESC LIMIT 1", chat)
    finally:
        await conn.close()
    return None if row is None else (int(row[0]), int(row[1]), str(row[2]), row[3])


async def until(check: Any, seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = await check()
        if got:
            return got
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {what} within {seconds} s")


class Player:
    """One person who presses the moves of the hand in their DMs, and what came of each press."""

    def __init__(self, fake: FakeDiscord, url: str, user_id: int, chat: str, seed: int) -> None:
        self.fake, self.url, self.user_id, self.chat = fake, url, user_id, chat
        self.rng = random.Random(seed)
        self.presses: list[tuple[Interaction, int, int, str]] = []  # (interaction, table, version, code)

    async def my_turn(self) -> tuple[int, int, Any, list[str]] | None:
        row = await table_of(self.url, self.chat)
        if row is None or row[2] != "playing":
            return None
        table_id, version = row[0], row[1]
        prefix = f"mj1:a:{table_id}:{version}:"
        for m in reversed(self.fake.dms(self.user_id)):
            found = [c for c in m.custom_ids() if c.split("|", 1)[-1].startswith(prefix)]
            if found:
                return table_id, version, m, found
        return None

    async def press(self, wait: float = 20.0) -> None:
        """Press one move of the hand in DM once it is this person's turn; wait for its outcome."""
        table_id, version, message, found = await until(self.my_turn, 60, "turn of this player")
        choice = self.rng.choice(found)
        code = choice.split("|", 1)[-1].split(":", 4)[4].replace("_", " ")
        ix = await self.fake.click(self.user_id, message.id, choice)
        self.presses.append((ix, table_id, version, code))

        async def outcome() -> bool:
            row = await table_of(self.url, self.chat)
            return bool(ix.followups) or (row is not None and (row[1] > version or row[2] != "playing"))

        await until(outcome, wait, "outcome of the press")


def env(fake: FakeDiscord, url: str, shards: str) -> dict[str, str]:
    return {"MAJLIS_DB": url, "MAJLIS_DISCORD_TOKEN": DC_TOKEN, "MAJLIS_DISCORD_API_BASE": fake.api_base,
            "MAJLIS_DISCORD_GATEWAY": fake.gateway_url, "MAJLIS_DISCORD_SHARDS": shards,
            "MAJLIS_LEASE_SECONDS": "3", "MAJLIS_TURN_SECONDS": "4", "MAJLIS_LANG": "en",
            "MAJLIS_AI_LEVEL": "easy"}  # the rule player, in the process itself: no AI worker outlives a kill


async def test_two_sharded_processes_forward_dm_presses_and_survive_a_kill(
        fake: FakeDiscord, pg_url: str, tmp_path: Path) -> None:
    guild = {home_shard(g, 2): g for g in fake.guilds}
    assert sorted(guild) == [0, 1]
    channel = {s: next(cid for cid, c in fake.channels.items() if c.get("guild_id") == g) for s, g in guild.items()}
    alice = fake.add_member("Alice", guild_id=guild[0], manage_guild=True)
    bob = fake.add_member("Bob", guild_id=guild[1], manage_guild=True)
    (tmp_path / "p0").mkdir()
    (tmp_path / "p1").mkdir()
    p0 = await start_run("discord", tmp_path / "p0", env(fake, pg_url, "0/2"))
    p1 = await start_run("discord", tmp_path / "p1", env(fake, pg_url, "1/2"))
    p1_err = b""
    try:
        await fake.wait_connected(shards=2, timeout=90)
        players = {}
        for who, shard, seed in ((bob, 1, 1), (alice, 0, 2)):
            chat = f"dc:{channel[shard]}"
            ix = await fake.slash(who, channel[shard], "new", game="tarneeb41", target=11)
            await ix.answered(60)
            await until(lambda c=chat: table_of(pg_url, c), 30, "table")
            begin = await fake.slash(who, channel[shard], "begin")
            await begin.answered(60)
            players[who] = Player(fake, pg_url, who, chat, seed)
        bob_table = await table_of(pg_url, players[bob].chat)
        alice_table = await table_of(pg_url, players[alice].chat)
        assert bob_table is not None and alice_table is not None
        assert bob_table[3] is not None and f":{p1.pid}:" in bob_table[3]  # opened in p1's server: p1's
        assert alice_table[3] is not None and f":{p0.pid}:" in alice_table[3]
        for _ in range(3):  # Bob's DM presses reach p0 (shard 0) and are applied by p1
            await players[bob].press()
            await players[alice].press()
        p1.send_signal(signal.SIGKILL)  # mid-match: nothing released
        _, p1_err = await asyncio.wait_for(p1.communicate(), 30)
        killed_at = time.time()
        for _ in range(2):  # presses right after the kill: forwarded to the dead holder, then p0's own
            await players[bob].press(wait=30)

        async def taken_over() -> bool:
            row = await table_of(pg_url, players[bob].chat)
            return row is not None and row[3] is not None and f":{p0.pid}:" in row[3]

        await until(taken_over, 30, "takeover by p0")

        async def finished() -> bool:  # nobody presses any more: the turn timers and then the AI play on
            rows = [await table_of(pg_url, p.chat) for p in players.values()]
            return all(r is not None and r[2] == "finished" for r in rows)

        await until(finished, 240, "the end of both matches")
    finally:
        code, log = await stop_pair(p0, p1)
    assert code == 0, log[-3000:]
    assert "taking over tables" in log
    assert "Traceback" not in log, log[-3000:]

    repo = PostgresRepository(pg_url, pool_size=2)
    await repo.open()
    try:
        assert await repo.live_tables() == []
        for p in players.values():
            row = await table_of(pg_url, p.chat)
            assert row is not None
            table_id = row[0]
            record = await repo.get_table(table_id)
            assert record is not None and record.status == "finished"
            assert await repo.table_results(table_id) is not None
            log_rows = await repo.actions(table_id)
            assert [x.seq for x in log_rows] == list(range(1, len(log_rows) + 1)) and record.version == len(log_rows)
            assert replay(record, log_rows).to_act is None  # the log plays the match to its end
            mine = [x for x in log_rows if x.actor == f"dc:{p.user_id}"]
            applied = [(ix, v) for ix, t, v, code in p.presses
                       if any(x.seq == v + 1 and x.action.lower() == code.lower() for x in mine)]
            for ix, _, version, code in p.presses:
                if not ix.followups:  # acknowledged without an error: stored, at its seq
                    assert any(x.seq == version + 1 and x.action.lower() == code.lower() for x in mine), (
                        version, code, [(x.seq, x.action) for x in mine])
            assert len(mine) == len(applied)  # each press once, nothing else in its name
            assert applied  # Bob's presses (all through p0) and Alice's were applied
            if p.user_id == bob:  # timers taken over: p0 timed out Bob's turn after p1 died
                assert any(x.actor == "timer" and x.at > killed_at for x in log_rows)
    finally:
        await repo.close()
    assert p1_err is not None
