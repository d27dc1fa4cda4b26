""""Open table" on a Discord table message launches the web table inside Discord (an Activity):
the press is answered with LAUNCH_ACTIVITY, once, within the deadline; a stale button is refused in
words; and the command sync keeps the Entry Point command Discord makes for an Activity."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.adapters.discord.components import activity_button
from tests.adapters.discord.fake_discord import LAUNCH_ACTIVITY, PRIMARY_ENTRY_POINT, FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table, check_delivery

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    f = FakeDiscord(activities=True)
    await f.start()
    yield f
    await f.close()


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    with fake.patched():
        b = await Bot(fake, tmp_path / "majlis.sqlite3", table_link=activity_button).start()
        yield b
        await b.stop()


def open_table(table: Table) -> str:
    return next(c for c in table.table_message().custom_ids() if c.startswith("mja:"))


@pytest.mark.slow
async def test_open_table_launches_the_activity_for_a_player_and_for_a_spectator(fake: FakeDiscord,
                                                                                  bot: Bot) -> None:
    alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
    bob = Member(fake.add_member("Bob"), "Bob")
    table = Table(fake, bot, fake.channel_id, [alice])
    await table.slash(alice, "lang", language="en")
    await table.open("tarneeb41")
    await table.slash(alice, "begin")
    button = await fake.wait_until(lambda: next((c for c in table.table_message().custom_ids()
                                                 if c.startswith("mja:")), None), timeout=20)
    assert button == f"mja:{table.table_id}"
    row = next(c for r in table.table_message().components for c in r["components"] if c.get("custom_id") == button)
    assert (row["label"], row["style"]) == ("Open table", 1)  # a primary button under the table
    launched = []
    for member in (alice, bob):  # seated or not, the press opens the Activity; the page tells them apart
        ix = await fake.click(member.user_id, table.table_message().id, button)
        await ix.answered()
        assert ix.response_type == LAUNCH_ACTIVITY and ix.instance_id is not None
        launched.append(ix)
    instance = fake.instances[launched[0].instance_id or ""]
    assert launched[0].instance_id == launched[1].instance_id and instance["users"] == {alice.user_id, bob.user_id}
    assert instance["channel_id"] == fake.channel_id
    check_delivery(fake, bot, [fake.channel_id], table.interactions + launched)


@pytest.mark.slow
async def test_a_stale_open_table_is_refused_in_words_and_launches_nothing(fake: FakeDiscord, bot: Bot) -> None:
    alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
    table = Table(fake, bot, fake.channel_id, [alice])
    await table.slash(alice, "lang", language="en")
    await table.open("tarneeb41")
    await table.slash(alice, "begin")
    await fake.wait_until(lambda: any(c.startswith("mja:") for c in table.table_message().custom_ids()), timeout=20)
    ix = await table.click(alice, table.table_message().id, "mja:999")  # a table that is not this channel's
    assert ix.response_type == 5 and ix.instance_id is None and fake.instances == {}
    assert "no table" in table.text_of(ix).lower()
    check_delivery(fake, bot, [fake.channel_id], table.interactions)


async def test_the_command_sync_keeps_discords_entry_point_command(fake: FakeDiscord, bot: Bot) -> None:
    commands = fake.commands[None]
    assert [c["name"] for c in commands if c.get("type") == PRIMARY_ENTRY_POINT] == ["launch"]
    assert any(c["name"] == "majlis" for c in commands)
    assert fake.violations == []  # no bulk overwrite without it (Discord's error 50240)
