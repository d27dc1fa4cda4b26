"""When things go wrong: stale and doubled presses, strangers, 429/5xx, a slow table, a restart,
permissions, and the sharded client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table, check_delivery, choose


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3").start()
    yield b
    await b.stop()


def members(fake: FakeDiscord, names: str = "Alice Bob Carol Dan", guild_id: int | None = None) -> list[Member]:
    return [Member(fake.add_member(n, manage_guild=n == "Alice", guild_id=guild_id), n) for n in names.split()]


async def started(fake: FakeDiscord, bot: Bot, channel_id: int | None = None) -> Table:
    table = Table(fake, bot, channel_id or fake.channel_id, members(fake))
    await table.slash(table.members[0], "lang", language="en")
    await table.open("tarneeb41", target=5)
    return table


async def my_turn(table: Table) -> tuple[Member, int, int, str]:
    """The member to act, the version, their ephemeral hand message and the move they pick."""
    assert table.table_id is not None
    snap = table.manager.get(table.table_id)
    assert snap is not None and snap.to_act is not None
    member, version = table.member_at(snap.to_act), snap.table.version
    message, found = await table.controls(member, version, via_dm=False)
    codes = {c.split(":", 4)[4].replace("_", " "): c for c in found}
    code = choose(table.manager.view(table.table_id, snap.to_act), sorted(codes), table.rng)
    return member, version, message.id, codes[code]


@pytest.mark.slow
async def test_a_doubled_press_is_refused_with_a_reason(fake: FakeDiscord, bot: Bot) -> None:
    table = await started(fake, bot)
    member, version, message_id, custom_id = await my_turn(table)
    await table.click(member, message_id, custom_id)
    await fake.wait_until(lambda: table.manager.get(table.table_id or 0).table.version == version + 1)  # type: ignore[union-attr]
    again = await table.click(member, message_id, custom_id)
    await fake.wait_until(lambda: again.followups)
    assert "out of date" in table.text_of(again)
    assert fake.messages[again.followups[0]].only_for == member.user_id
    assert table.manager.get(table.table_id or 0).table.version == version + 1  # type: ignore[union-attr]
    # The ephemeral hand was refreshed: no move of the old version is left on it.
    assert not [c for c in fake.messages[message_id].custom_ids() if f":{version}:" in c]
    check_delivery(fake, bot, [fake.channel_id], table.interactions)


@pytest.mark.slow
async def test_someone_not_seated_is_told_so(fake: FakeDiscord, bot: Bot) -> None:
    table = await started(fake, bot)
    eve = Member(fake.add_member("Eve"), "Eve")
    before = table.manager.get(table.table_id or 0).table.version  # type: ignore[union-attr]
    hand = next(c for c in table.table_message().custom_ids() if c.startswith("mj1:h:"))
    ix = await table.click(eve, table.table_message().id, hand)
    assert "You are not seated at this table." in table.text_of(ix)
    assert fake.messages[ix.original_id or 0].only_for == eve.user_id
    ix = await table.slash(eve, "hand")
    assert "You are not seated at this table." in table.text_of(ix)
    ix = await table.slash(eve, "join")
    assert "already started" in table.text_of(ix)
    # A move pressed by someone else (a forged click on a hand's button) changes nothing.
    _, _, message_id, custom_id = await my_turn(table)
    ix = await table.click(eve, message_id, custom_id)
    await fake.wait_until(lambda: ix.followups)
    assert "You are not seated at this table." in table.text_of(ix)
    assert table.manager.get(table.table_id or 0).table.version == before  # type: ignore[union-attr]
    assert eve.user_id not in {s.user_id for s in fake.log if "mj1:a:" in str(s.components)}
    check_delivery(fake, bot, [fake.channel_id], table.interactions)


@pytest.mark.slow
async def test_429_and_5xx_are_retried_and_the_table_goes_on(fake: FakeDiscord, bot: Bot) -> None:
    table = await started(fake, bot)
    table_path = f"/channels/{fake.channel_id}/messages/{table.table_message().id}"
    fake.fail_next("PATCH", table_path, 429, 0.2)           # with Via: discord.py waits and retries
    fake.fail_next("PATCH", table_path, 429, -1.0)          # without Via: the outbox's RetryAfter
    fake.fail_next("PATCH", table_path, 502)                # a 5xx: retried
    await table.play_out(until_version=12)
    fake.fail_next("POST", "/messages", 429, 0.1)           # a notice or a DM
    await table.play_out()
    assert table.status() == "finished"
    await bot.drain([fake.channel_id])
    statuses = [r for r in fake.requests if r == ("PATCH", "/api/v10" + table_path)]
    assert len(statuses) >= 4 and fake.inject == []
    assert bot.client is not None and bot.client.presenter is not None
    box = bot.client.presenter.hubs["dc"].outboxes[f"dc:{fake.channel_id}"]
    assert table.table_message().content == box.last_sent[f"table:{table.table_id}"].text
    check_delivery(fake, bot, [fake.channel_id], table.interactions)


@pytest.mark.slow
async def test_a_slow_table_still_answers_within_three_seconds(fake: FakeDiscord, bot: Bot) -> None:
    table = await started(fake, bot)
    manager: Any = table.manager
    original = manager.act

    async def slow_act(*args: Any, **kw: Any) -> Any:
        await asyncio.sleep(3.3)
        return await original(*args, **kw)

    manager.act = slow_act
    member, version, message_id, custom_id = await my_turn(table)
    ix = await table.click(member, message_id, custom_id)
    assert ix.latency is not None and ix.latency < 3.0 and ix.response_type == 6
    await fake.wait_until(lambda: ix.edits >= 1, timeout=10)  # the hand edited after the move
    assert ix.errors == [] and fake.violations == []
    assert table.manager.get(table.table_id or 0).table.version == version + 1  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_restart_mid_deal_edits_the_same_messages(patched: FakeDiscord, tmp_path: Path) -> None:
    fake, db = patched, tmp_path / "majlis.sqlite3"
    first = await Bot(fake, db).start()
    table = await started(fake, first)
    await table.play_out(until_version=10)  # bids made, cards on the table: mid-deal
    message = table.table_message()
    version = table.manager.get(table.table_id or 0).table.version  # type: ignore[union-attr]
    await first.drain([fake.channel_id])
    await first.stop()
    edits = sum(1 for s in fake.log if s.message_id == message.id)
    # The pacing of a channel lives in memory: a process that comes back within 5 s of the last
    # edit could meet one 429 (retried, see the 429 test). A real restart takes longer than this:
    # Discord's 5-second window (the fake's clock) moves on, with no real wait.
    fake.clock_offset += 5.0

    second = await Bot(fake, db).start()
    table.bot = second
    await fake.wait_until(lambda: table.manager.get(table.table_id or 0) is not None)
    assert table.manager.get(table.table_id or 0).table.version == version  # type: ignore[union-attr]
    await second.drain([fake.channel_id])
    # The clean stop recorded what the message shows: restored, it is not edited to the same content.
    assert sum(1 for s in fake.log if s.message_id == message.id) == edits
    await table.play_out()  # the old table message's buttons still work
    tables = [m for m in fake.channel_messages() if any(c.startswith("mj1:h:") for c in m.custom_ids())]
    assert [m.id for m in tables] == [message.id]  # edited again, not posted anew
    assert sum(1 for s in fake.log if s.message_id == message.id) > edits
    assert table.status() == "finished"
    await second.drain([fake.channel_id])
    assert table.table_message().id == message.id
    for b in (first, second):
        assert b.privacy is not None
        assert b.privacy.leaks == []
    assert second.privacy is not None and first.privacy is not None
    second.privacy.public_texts |= first.privacy.public_texts
    for user, texts in first.privacy.private_texts.items():
        second.privacy.private_texts[user] |= texts
    check_delivery(fake, second, [fake.channel_id], table.interactions)
    await second.stop()


async def test_lang_and_settings_need_manage_server(fake: FakeDiscord, bot: Bot) -> None:
    people = members(fake)
    alice, bob = people[0], people[1]
    table = Table(fake, bot, fake.channel_id, people)
    ix = await table.slash(bob, "lang", language="en")
    assert "admins" in table.text_of(ix)
    assert (await table.manager.chat_settings(f"dc:{fake.channel_id}")).lang is None
    ix = await table.slash(bob, "lang", language="en", scope="me")
    assert table.text_of(ix) == "From now on I speak English here."
    ix = await table.slash(bob, "settings", turn=30)
    assert "admins" in table.text_of(ix)
    ix = await table.slash(alice, "settings", turn=30, digits="arabic", ai="easy")
    chat = await table.manager.chat_settings(f"dc:{fake.channel_id}")
    assert (chat.turn_seconds, chat.digits, chat.ai_level) == (30, "arabic", "easy")
    ix = await table.slash(alice, "lang", language="ar")
    assert (await table.manager.chat_settings(f"dc:{fake.channel_id}")).lang == "ar"
    ix = await table.slash(bob, "help")  # Bob chose English for himself
    assert "Majlis hosts" in table.text_of(ix)
    for sub in ("rules", "scores", "leaderboard", "stats"):
        ix = await table.slash(alice, sub)
        assert table.text_of(ix) and fake.messages[ix.original_id or 0].only_for == alice.user_id
    assert fake.public() == []  # none of this spent the channel's budget
    check_delivery(fake, bot, [fake.channel_id], table.interactions)


@pytest.mark.slow
async def test_the_sharded_client_serves_every_shard(tmp_path: Path) -> None:
    fake = FakeDiscord(guilds=2, shards=2)
    await fake.start()
    with fake.patched():
        bot = Bot(fake, tmp_path / "majlis.sqlite3", sharded=True)
        try:
            await bot.start()
            assert bot.client is not None and bot.client.shard_count == 2
            assert {fake._shard_of(g, 2) for g in fake.guilds} == {0, 1}
            for gid in fake.guilds:
                cid = next(c for c, ch in fake.channels.items() if ch.get("guild_id") == gid)
                alice = Member(fake.add_member("Alice", manage_guild=True, guild_id=gid), "Alice")
                table = Table(fake, bot, cid, [alice])
                await table.slash(alice, "settings", ai="easy")
                await table.open("tarneeb41", target=5)
                ix = await table.slash(alice, "begin")
                assert table.status() == "playing", table.text_of(ix)
                hand = await table.slash(alice, "hand")
                assert fake.messages[hand.original_id or 0].only_for == alice.user_id
                check_delivery(fake, bot, [cid], table.interactions)
        finally:
            await bot.stop()
            await fake.close()


@pytest.mark.slow
async def test_a_select_option_works_like_its_button(fake: FakeDiscord, bot: Bot) -> None:
    from bot.present.render.message import Button, OutMessage

    table = await started(fake, bot)
    alice = table.members[0]
    hand = f"mj1:h:{table.table_id}:-:"
    rows = tuple(tuple(Button(f"b{r}{c}", payload=hand if (r, c) == (5, 0) else f"mj1:x:9{r}{c}:-:")
                       for c in range(5)) for r in range(6))  # 30 buttons: more than Discord shows
    assert bot.client is not None
    mid = int(await bot.client.transport.send(f"dc:{fake.channel_id}", OutMessage("many", rows)))
    option = next(c for c in fake.messages[mid].custom_ids() if c.endswith("|" + hand))
    ix = await table.click(alice, mid, option)
    assert "Your hand" in table.text_of(ix)
    assert fake.messages[ix.original_id or 0].only_for == alice.user_id
