"""The per-person command limit and the press flood cap, through discord.py against the fake
(issue 13). Every interaction must be answered, so each one over the limit gets the same short
ephemeral line (one request, no defer) and changes nothing; the person is served again after the
window; others in the channel are not held back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.throttle import CommandLimits
from bot.core.clock import FakeClock
from bot.present import codec
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table

SLOW = "Slow down: try again in"


def members(fake: FakeDiscord, names: str) -> list[Member]:
    return [Member(fake.add_member(n, manage_guild=n == "Alice"), n) for n in names.split()]


async def test_a_burst_of_slash_commands_is_answered_ephemerally_and_changes_nothing(
        patched: FakeDiscord, tmp_path: Path) -> None:
    fake = patched
    clock = FakeClock()
    bot = await Bot(fake, tmp_path / "majlis.sqlite3", limits=CommandLimits(press_burst=0),
                    limits_clock=clock).start()
    try:
        alice, bob = members(fake, "Alice Bob")
        table = Table(fake, bot, fake.channel_id, [alice, bob])
        await table.slash(alice, "lang", language="en")
        for _ in range(4):  # five commands at once are served
            assert "/majlis new" in table.text_of(await table.slash(alice, "help"))
        sent = len(fake.log)
        over = [await table.slash(alice, "new", game="trix"), await table.slash(alice, "help")]
        for ix in over:  # answered at once (type 4, no defer), only for her, and not run
            assert ix.response_type == 4 and ix.ephemeral and ix.edits == 0 and not ix.followups
            assert table.text_of(ix) == "Slow down: try again in 3 seconds."
            assert fake.messages[ix.original_id or 0].only_for == alice.user_id
        assert len(fake.log) == sent + 2  # nothing else was sent anywhere
        assert table.manager.table_in_chat(f"dc:{fake.channel_id}") is None
        # Bob, in the same channel, is served: his table opens.
        await table.slash(bob, "new", game="trix")
        snap = table.manager.table_in_chat(f"dc:{fake.channel_id}")
        assert snap is not None and snap.table.creator == f"dc:{bob.user_id}"
        # After the window Alice is served again.
        clock.advance(3)
        ix = await table.slash(alice, "join")
        assert SLOW not in table.text_of(ix)
        assert table.manager.get(snap.table_id).seat_of(f"dc:{alice.user_id}") is not None  # type: ignore[union-attr]
        assert not fake.violations
    finally:
        await bot.stop()


@pytest.mark.slow
async def test_a_flood_of_presses_is_capped_and_each_press_answered(patched: FakeDiscord, tmp_path: Path) -> None:
    fake = patched
    clock = FakeClock()
    bot = await Bot(fake, tmp_path / "majlis.sqlite3", limits=CommandLimits(press_burst=3, press_every=1.0),
                    limits_clock=clock).start()
    try:
        alice, bob = members(fake, "Alice Bob")
        table = Table(fake, bot, fake.channel_id, [alice, bob])
        await table.slash(alice, "lang", language="en")
        await table.open("trix")
        tid = table.table_id
        assert tid is not None
        message = table.table_message()
        begin = next(c for c in message.custom_ids() if c.startswith(f"mj1:b:{tid}:"))
        old = codec.encode("b", tid + 7, None)  # a button of a table this channel does not have
        for _ in range(3):
            assert SLOW not in table.text_of(await table.click(alice, message.id, old))
        for _ in range(2):  # over the cap: an ephemeral "slow down" each time, the match not begun
            ix = await table.click(alice, message.id, begin)
            assert ix.response_type == 4 and ix.ephemeral and table.text_of(ix) == "Slow down: try again in 1 second."
        assert table.status() == "lobby"
        # Bob's press is served meanwhile: he leaves.
        leave = next(c for c in message.custom_ids() if c.startswith(f"mj1:l:{tid}:"))
        await table.click(bob, message.id, leave)
        assert table.manager.get(tid).seat_of(f"dc:{bob.user_id}") is None  # type: ignore[union-attr]
        clock.advance(1)
        await table.click(alice, message.id, begin)
        assert table.status() == "playing"
        assert not fake.violations
    finally:
        await bot.stop()
