"""The Discord side of opt-in notifications: a call names people as ``<@id>`` and lets only them be
pinged (``allowed_mentions``), in Arabic and English, as the fake Discord reads it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.adapters.discord.transport import MAX_TEXT, message_payload
from bot.present.i18n import translator
from bot.present.render.notify import render_table_call, render_turn_mention
from tests.adapters.discord.fake_discord import FakeDiscord, Message, pinged
from tests.adapters.discord.harness import Bot, Member, Table


def test_a_turn_mention_pings_only_its_person_and_any_other_message_nobody() -> None:
    for lang in ("ar", "en"):
        msg = render_turn_mention(("dc:77", "سارة"), 4, "trix", translator(lang))
        body = message_payload(msg, new=True)
        assert "<@77>" in body["content"] and "سارة" not in body["content"]
        assert pinged(body["content"], body["allowed_mentions"]) == [77]
        plain = message_payload(type(msg)(text="<@88> wrote <@77>"), new=True)
        assert pinged(plain["content"], plain["allowed_mentions"]) == []


def test_a_call_of_a_hundred_subscribers_is_one_message_within_discords_limits() -> None:
    people = [(f"dc:{10**17 + i}", f"Player {i}") for i in range(100)]
    for lang in ("ar", "en"):
        msg = render_table_call("lobby", "tarneeb41", people, translator(lang), max_chars=1800)
        body = message_payload(msg, new=True)
        assert len(body["content"]) <= MAX_TEXT
        users = pinged(body["content"], body["allowed_mentions"])
        assert users and len(users) <= 100 and len(set(users)) == len(users)
        assert set(users) <= {10**17 + i for i in range(100)}
        assert users == [10**17 + i for i in range(len(users))]  # the oldest subscribers first


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_in_a_match_only_the_member_who_asked_is_mentioned_at_their_turn(patched: FakeDiscord, tmp_path: Path,
                                                                              lang: str) -> None:
    """Through discord.py and the fake: Bob asks for a mention after half his turn, Alice does not; in
    a real match on an 8-second turn timer Bob is pinged at his turn and nobody else ever is (a shorter
    timer is no test: the channel's budget, busy with the table's edits, lets the mention out only after
    the turn has passed, and a mention of a passed turn is rightly never sent)."""
    fake = patched
    bot = await Bot(fake, tmp_path / "majlis.sqlite3").start()
    try:
        alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
        bob = Member(fake.add_member("Bob"), "Bob")
        table = Table(fake, bot, fake.channel_id, [alice, bob], seed=3)
        said = table.text_of(await table.slash(alice, "lang", language=lang))
        assert bot.manager is not None
        await bot.manager.update_chat(f"dc:{fake.channel_id}", turn_seconds=8)
        asked = table.text_of(await table.slash(bob, "notify", turn="50"))
        assert "50" in asked, (said, asked)
        await table.open("tarneeb41", target=5)
        begin = next(c for c in table.table_message().custom_ids() if c.startswith("mj1:b:"))
        await table.click(alice, table.table_message().id, begin)  # two people, two AI seats
        assert table.status() == "playing"

        def pings() -> list[Message]:  # every channel message that notified someone, deleted ones too
            return [m for m in fake.messages.values() if m.channel_id == fake.channel_id and not m.only_for
                    and m.pinged]

        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and table.status() == "playing" and not pings():
            await asyncio.sleep(0.1)  # nobody plays: every turn runs out (after the mention at half)
        seen = pings()
        assert seen, ("Bob was never mentioned", table.status(), [m.content[:80] for m in fake.messages.values()
                                                                     if m.channel_id == fake.channel_id])
        assert all(m.pinged == [bob.user_id] for m in seen)  # only Bob, never Alice
        assert f"<@{bob.user_id}>" in seen[0].content and f"<@{alice.user_id}>" not in seen[0].content
    finally:
        await bot.stop()
