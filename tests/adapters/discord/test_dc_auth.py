"""Who may do what, through the real discord.py client against the fake Discord (issue 12), and the
server-wide settings (issue 14): every refusal is a clear localized answer and changes no table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.present import codec
from bot.present.i18n import translator
from bot.present.render.errors import render_error
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table


@pytest.fixture
async def world(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[tuple[Bot, int]]:
    other = patched.add_channel("other")  # before the client connects, so it is in its cache
    b = await Bot(patched, tmp_path / "majlis.sqlite3").start()
    yield b, other
    await b.stop()


def people(fake: FakeDiscord, names: str = "Alice Bob", locale: str = "en-US") -> list[Member]:
    return [Member(fake.add_member(n, manage_guild=n == "Alice", locale=locale), n) for n in names.split()]


async def state(table: Table) -> list[tuple[Any, ...]]:
    """Every table as stored: id, status, version, log length, seats."""
    repo = table.bot._repo
    out = []
    for tid in sorted(table.manager._tables):
        rec = await repo.get_table(tid)
        out.append((tid, rec.status, rec.version, len(await repo.actions(tid)), rec.seats))
    return out


@pytest.mark.slow
async def test_a_press_from_another_channel_is_refused(fake: FakeDiscord, world: tuple[Bot, int]) -> None:
    bot, other = world
    alice, bob = people(fake)
    here = Table(fake, bot, fake.channel_id, [alice])
    await here.slash(alice, "lang", language="en")
    await here.open("trix")
    there = Table(fake, bot, other, [bob])
    await there.open("trix")
    assert here.table_id is not None and there.table_id is not None
    before = await state(here)
    for verb, arg in (("j", ""), ("b", ""), ("l", ""), ("x", ""), ("c", "1"), ("h", "")):
        # a button naming the other channel's table, pressed on a message of this channel
        ix = await here.click(alice, here.table_message().id, codec.encode(verb, there.table_id, None, arg))
        assert "another chat" in here.text_of(ix), (verb, here.text_of(ix))
    assert await state(here) == before
    assert here.manager.get(there.table_id).seat_of(f"dc:{alice.user_id}") is None  # type: ignore[union-attr]


async def test_a_forged_or_malformed_payload_is_refused(fake: FakeDiscord, world: tuple[Bot, int]) -> None:
    bot, _ = world
    alice, bob = people(fake)
    here = Table(fake, bot, fake.channel_id, [alice])
    await here.slash(alice, "lang", language="en")
    await here.open("trix")
    tid = here.table_id
    assert tid is not None
    before = await state(here)
    stale = render_error("stale", {}, translator("en"))  # what Telegram tells an out-of-date button
    for forged in (f"mj1:z:{tid}:-:", f"mj1:q:{tid}:-:2", f"mj1:zz:{tid}:-:", f"mj1::{tid}:-:"):
        ix = await here.click(bob, here.table_message().id, forged)  # a verb this bot does not know
        assert here.text_of(ix) == stale, (forged, here.text_of(ix))
    bad = render_error("bad_action", {}, translator("en"))
    for forged in (f"mj1:j:{tid}:-:abc", f"mj1:c:{tid}:-:", f"mj1:c:{tid}:-:x", "mj1:j:x:-:"):
        ix = await here.click(bob, here.table_message().id, forged)  # a known verb, malformed
        assert here.text_of(ix) == bad, (forged, here.text_of(ix))
    assert await state(here) == before
    assert here.manager.get(tid).seat_of(f"dc:{bob.user_id}") is None  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_leaver_may_take_back_only_the_seat_they_left(fake: FakeDiscord, world: tuple[Bot, int]) -> None:
    bot, _ = world
    alice, bob = people(fake)
    table = Table(fake, bot, fake.channel_id, [alice, bob])
    await table.slash(alice, "lang", language="en")
    await table.open("trix")
    await table.slash(alice, "begin")
    await table.slash(bob, "leave")
    assert table.table_id is not None
    await table.manager.drain()
    before = [row[:2] + row[4:] for row in await state(table)]
    ix = await table.click(bob, table.table_message().id, codec.encode("c", table.table_id, None, "3"))
    assert "you may only take that seat back" in table.text_of(ix)
    assert [row[:2] + row[4:] for row in await state(table)] == before
    ix = await table.click(bob, table.table_message().id, codec.encode("c", table.table_id, None, "1"))
    assert table.manager.get(table.table_id).seat_of(f"dc:{bob.user_id}") == 1  # type: ignore[union-attr]


async def test_a_non_admin_cannot_change_settings_or_the_language(fake: FakeDiscord,
                                                                   world: tuple[Bot, int]) -> None:
    bot, _ = world
    alice, bob = people(fake)
    table = Table(fake, bot, fake.channel_id, [alice, bob])
    await table.slash(alice, "lang", language="en")
    await table.open("trix")
    chat = await table.manager.chat_settings(f"dc:{fake.channel_id}")
    before = await state(table)
    assert "Only the group's admins" in table.text_of(await table.slash(bob, "settings", turn=30))
    assert "Only the group's admins" in table.text_of(await table.slash(bob, "lang", language="ar"))
    assert "Only the group's admins" in table.text_of(
        await table.slash(bob, "settings", turn=30, scope="channel"))
    assert await table.manager.chat_settings(f"dc:{fake.channel_id}") == chat
    assert "creator or an admin" in table.text_of(
        await table.click(bob, table.table_message().id, codec.encode("x", table.table_id or 0, None)))
    assert await state(table) == before


async def test_settings_apply_to_the_whole_server_with_a_channel_override(fake: FakeDiscord,
                                                                          world: tuple[Bot, int]) -> None:
    bot, other = world
    alice, _ = people(fake)
    here = Table(fake, bot, fake.channel_id, [alice])
    there = Table(fake, bot, other, [alice])
    await there.slash(alice, "help")  # the bot learns that this channel belongs to the server
    text = here.text_of(await here.slash(alice, "settings", turn=45))
    assert "whole server" in text and "45" in text
    assert (await here.manager.chat_settings(f"dc:{other}")).turn_seconds == 45
    text = there.text_of(await there.slash(alice, "settings", turn=90, scope="channel"))
    assert "this channel only" in text and "90" in text
    assert (await here.manager.chat_settings(f"dc:{other}")).turn_seconds == 90
    assert (await here.manager.chat_settings(f"dc:{fake.channel_id}")).turn_seconds == 45
    # the server's language reaches a channel that has no override
    await here.slash(alice, "lang", language="ar")
    assert (await here.manager.chat_settings(f"dc:{fake.channel_id}")).lang == "ar"


async def test_a_channel_override_is_cleared_by_an_admin_and_the_channel_follows_the_server(
        fake: FakeDiscord, world: tuple[Bot, int]) -> None:
    bot, other = world
    alice, bob = people(fake)
    here = Table(fake, bot, fake.channel_id, [alice, bob])
    there = Table(fake, bot, other, [alice, bob])
    await there.slash(alice, "help")
    await here.slash(alice, "lang", language="en")
    await here.slash(alice, "settings", turn=45)
    await there.slash(alice, "settings", turn=90, ai="easy", scope="channel")
    chat = f"dc:{other}"
    # only an admin may clear it, and a refusal changes nothing
    assert "Only the group's admins" in there.text_of(await there.slash(bob, "settings", scope="reset"))
    assert (await there.manager.chat_settings(chat)).turn_seconds == 90
    text = there.text_of(await there.slash(alice, "settings", scope="reset"))
    assert "whole server" in text and "45" in text
    assert await there.manager.prefs.has_override(chat) is False
    assert await there.manager.repo.get_chat(chat) is None  # forgotten in storage, not copied
    # the server's later changes reach the channel again
    await here.slash(alice, "settings", turn=120)
    assert (await there.manager.chat_settings(chat)).turn_seconds == 120
    # a reset with values clears the override and changes the server
    await there.slash(alice, "settings", turn=30, scope="channel")
    text = there.text_of(await there.slash(alice, "settings", turn=60, scope="reset"))
    assert "whole server" in text and "60" in text
    assert (await here.manager.chat_settings(f"dc:{fake.channel_id}")).turn_seconds == 60


async def test_a_language_confirmation_names_the_language_chosen(fake: FakeDiscord,
                                                                 world: tuple[Bot, int]) -> None:
    bot, _ = world
    alice, _ = people(fake)
    table = Table(fake, bot, fake.channel_id, [alice])
    assert table.text_of(await table.slash(alice, "lang", language="en")) == "From now on I speak English here."
    arabic = table.text_of(await table.slash(alice, "lang", language="ar"))
    assert "العربية" in arabic and "الإنجليزية" not in arabic


async def test_an_untouched_channel_speaks_one_language(fake: FakeDiscord, world: tuple[Bot, int]) -> None:
    bot, _ = world
    alice = people(fake, "Alice", locale="en-US")[0]
    bob = people(fake, "Bob", locale="fr")[0]  # a locale Majlis does not speak: Arabic on its own
    table = Table(fake, bot, fake.channel_id, [alice, bob])
    await table.open("trix")  # Alice opens the server's first table: its language is hers
    assert (await table.manager.chat_settings(f"dc:{fake.channel_id}")).lang == "en"
    assert "Majlis hosts" in table.text_of(await table.slash(bob, "help"))  # English, not his Arabic
    assert "Seat 1" in "\n".join(table.text_of(ix) for ix in table.interactions[-2:])
