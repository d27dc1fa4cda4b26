"""The duplicate challenge in a Discord channel through the real discord.py and the fake Discord: a
member without Manage Server may not start one; one with it starts a Trix challenge of one deal, counted in
the season (``season:True``), with
``/majlis challenge action:new``, and the channel gets its message; a member plays with
``action:play``: the deal is dealt in their direct messages and played there by its buttons (a
direct message carries the table and the hand, about one edit a second, so one deal is what the test
affords; the next deal dealt when one ends is tested in tests/core/test_challenges.py); then
``/majlis challenge`` posts the channel's message anew (naming who finished, no scores) and shows the
asker alone their deals against the field; playing again is refused. Every interaction is answered in
time and no private card is shown in public."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord, Message
from tests.adapters.discord.harness import Bot, Member, Table, check_delivery, moves
from tests.adapters.discord.test_dc_tournament import plain

#: What the channel and the person read (the test speaks Arabic: the longer words, the right-to-left marks)
W = {"title": "تحدي التوزيعات الموحّدة · تركس · توزيعة واحدة", "admins": "مشرفو المجموعة فقط يمكنهم تغيير هذا.",
     "none": "لا يوجد تحدٍّ مفتوح هنا.", "waiting": "توزيعتك تنتظرك في رسائلنا الخاصة.", "finished": "أنهوا اللعب: Bob",
     "field": "توزيعاتك مقارنةً بالآخرين:", "king": "التوزيعة 1 (شايب الكبة):",
     "again": "لعبت كل توزيعات هذا التحدي. أرسل /majlis challenge لترى توزيعاتك مقارنةً بالآخرين."}


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3").start()
    yield b
    await b.stop()


def _moved(bot: Bot, table_id: int, version: int) -> bool:
    assert bot.manager is not None
    snap = bot.manager.get(table_id)
    return snap is None or snap.table.version > version or snap.table.status != "playing"


async def _play_in_dm(fake: FakeDiscord, bot: Bot, table: Table, member: Member, boards: int) -> int:
    """``member`` plays their boards by the buttons of their DM (the AI moves by itself); the presses."""
    assert bot.manager is not None
    dm = f"dm:dc:{member.user_id}"
    rng = random.Random(3)
    presses = 0
    for _ in range(2000):
        rows = await bot.manager.repo.challenge_boards(1)
        if sum(1 for b in rows if b.player_id == f"dc:{member.user_id}" and b.done_at is not None) == boards:
            return presses
        snap = bot.manager.table_in_chat(dm)
        if snap is None or snap.to_act != 0:
            await asyncio.sleep(0.02)
            continue
        tid, version = snap.table_id, snap.table.version

        def buttons(tid: int = tid, version: int = version) -> tuple[Message, list[str]] | None:
            for m in reversed(fake.dms(member.user_id)):
                found = moves(m, tid, version)
                if found:
                    return m, found
            return None

        got = await fake.wait_until(buttons, timeout=20)
        assert got is not None
        message, found = got
        await table.click(member, message.id, rng.choice(found))
        await fake.wait_until(partial(_moved, bot, tid, version), timeout=20)
        presses += 1
    raise AssertionError("the boards did not end")


@pytest.mark.slow  # a Trix deal played in a DM through discord.py: some 20 s (the DM's budget)
async def test_a_trix_challenge_is_started_in_a_channel_and_played_by_buttons_in_direct_messages(
        fake: FakeDiscord, bot: Bot) -> None:
    w = W
    alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
    bob = Member(fake.add_member("Bob"), "Bob")
    table = Table(fake, bot, fake.channel_id, [alice, bob])
    assert bot.manager is not None
    await table.slash(alice, "lang", language="ar")
    ix = await table.slash(bob, "challenge", action="new", game="trix", deals=1, days=1)
    assert ix.ephemeral and plain(table.text_of(ix)) == w["admins"]
    assert await bot.manager.repo.chat_challenge(f"dc:{fake.channel_id}") is None
    ix = await table.slash(bob, "challenge", action="play")  # nothing to play yet
    assert ix.ephemeral and plain(table.text_of(ix)) == w["none"]

    await table.slash(alice, "challenge", action="new", game="trix", deals=1, days=1, season=True)
    challenge = await bot.manager.repo.chat_challenge(f"dc:{fake.channel_id}")
    assert challenge is not None and (challenge.game, challenge.boards, challenge.season) == ("trix", 1, True)
    first: Message = await fake.wait_until(lambda: next(
        (m for m in fake.channel_messages(fake.channel_id) if w["title"] in plain(m.content)), None), timeout=20)
    assert "/majlis challenge action:play" in first.content

    ix = await table.slash(bob, "challenge", action="play")
    assert plain(table.text_of(ix)) == w["waiting"]
    snap = bot.manager.table_in_chat(f"dm:dc:{bob.user_id}")
    assert snap is not None and snap.table.game == "trix" and snap.table.seats[0].player_id == f"dc:{bob.user_id}"
    presses = await _play_in_dm(fake, bot, table, bob, 1)
    assert presses > 0
    rows = await bot.manager.repo.challenge_boards(challenge.challenge_id)
    assert [(b.board, b.score is not None) for b in rows] == [(0, True)]
    tables = [await bot.manager.repo.get_table(b.table_id) for b in rows]
    assert [(t.options or {}).get("only_contract") for t in tables if t is not None] == ["king"]
    assert bot.manager.table_in_chat(f"dm:dc:{bob.user_id}") is None  # its one deal played: the table ended

    ix = await table.slash(bob, "challenge")  # the channel's message anew; the field to Bob alone
    told = plain(table.text_of(ix))
    assert ix.ephemeral and w["field"] in told and w["king"] in told
    again: Message = await fake.wait_until(lambda: next(
        (m for m in fake.channel_messages(fake.channel_id)
         if w["title"] in plain(m.content) and m.id != first.id and w["finished"] in plain(m.content)), None),
        timeout=20)
    assert w["field"] not in plain(again.content)  # no scores in public while it is open
    await fake.wait_until(lambda: fake.messages[first.id].deleted, timeout=20)
    ix = await table.slash(bob, "challenge", action="play")
    assert plain(table.text_of(ix)) == w["again"]
    await bot.drain([fake.channel_id])
    check_delivery(fake, bot, [fake.channel_id], table.interactions)
