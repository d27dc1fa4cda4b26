"""The fake Discord itself, driven by a bare discord.py client: login, sync, responses, limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

from tests.adapters.discord.fake_discord import FakeDiscord


class Bare(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        group = app_commands.Group(name="majlis", description="Majlis")

        @group.command(name="ping", description="ping")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        @group.command(name="slow", description="slow")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(content="done")

        @group.command(name="twice", description="twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("one")
            try:
                await interaction.response.send_message("two")
            except discord.InteractionResponded:
                await interaction.followup.send("two", ephemeral=True)

        @group.command(name="dm", description="dm")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            try:
                await interaction.user.send("hello")
                await interaction.followup.send("sent", ephemeral=True)
            except discord.Forbidden as e:
                await interaction.followup.send(f"forbidden {e.code}", ephemeral=True)

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    f = FakeDiscord()
    await f.start()
    yield f
    await f.close()


@pytest.fixture
async def bare(fake: FakeDiscord) -> AsyncIterator[Bare]:
    with fake.patched():
        client = Bare()
        task = asyncio.create_task(client.start("fake-token"))
        await fake.wait_connected()
        await asyncio.wait_for(client.wait_until_ready(), 10)
        yield client
        await client.close()
        await task


async def test_login_and_command_sync(fake: FakeDiscord, bare: Bare) -> None:
    assert bare.user is not None and bare.user.id == fake.bot_id
    assert [c["name"] for c in fake.commands[None]] == ["majlis"]
    assert bare.get_guild(fake.guild_id) is not None


async def test_ephemeral_reply_is_seen_only_by_its_user(fake: FakeDiscord, bare: Bare) -> None:
    alice, bob = fake.add_member("Alice"), fake.add_member("Bob")
    ix = await (await fake.slash(alice, None, "ping")).answered()
    assert ix.response_type == 4 and ix.ephemeral
    assert [s.content for s in fake.seen_by(alice)] == ["pong"]
    assert fake.seen_by(bob) == [] and fake.public() == []


async def test_defer_then_edit(fake: FakeDiscord, bare: Bare) -> None:
    alice = fake.add_member("Alice")
    ix = await fake.slash(alice, None, "slow")
    await fake.wait_until(lambda: ix.edits == 1)
    assert ix.response_type == 5
    assert fake.messages[ix.original_id].content == "done"


async def test_second_response_is_refused_with_40060(fake: FakeDiscord, bare: Bare) -> None:
    alice = fake.add_member("Alice")
    ix = await fake.slash(alice, None, "twice")
    await fake.wait_until(lambda: ix.followups)
    assert [s.content for s in fake.public()] == ["one"]
    assert [s.content for s in fake.seen_by(alice)] == ["two"]


async def test_late_response_gets_10062(fake: FakeDiscord, bare: Bare) -> None:
    alice = fake.add_member("Alice")
    fake.clock_offset = 0.0
    ix = await fake.slash(alice, None, "ping")
    ix.created -= 5  # as if the bot took five seconds
    await fake.wait_until(lambda: ix.errors)
    assert ix.errors == [10062] and ix.response_type is None


async def test_closed_dm_is_50007(fake: FakeDiscord, bare: Bare) -> None:
    alice = fake.add_member("Alice", dm_open=False)
    bob = fake.add_member("Bob")
    await fake.wait_until(lambda: True)
    ix = await fake.slash(alice, None, "dm")
    await fake.wait_until(lambda: ix.followups)
    assert fake.messages[ix.followups[0]].content == "forbidden 50007"
    ix = await fake.slash(bob, None, "dm")
    await fake.wait_until(lambda: ix.followups)
    assert [m.content for m in fake.dms(bob)] == ["hello"]


async def test_429_with_via_is_retried_by_discord_py(fake: FakeDiscord, bare: Bare) -> None:
    channel = bare.get_partial_messageable(fake.channel_id)
    fake.fail_next("POST", f"/channels/{fake.channel_id}/messages", 429, 0.05)
    msg = await channel.send("after a 429")
    assert fake.messages[msg.id].content == "after a 429"
    path = f"/api/v10/channels/{fake.channel_id}/messages"
    assert [r for r in fake.requests if r[1].endswith("/messages")] == [("POST", path)] * 2


async def test_component_limits(fake: FakeDiscord, bare: Bare) -> None:
    channel = bare.get_partial_messageable(fake.channel_id)
    view = discord.ui.View()
    for i in range(6):
        view.add_item(discord.ui.Button(label=str(i), custom_id=f"b{i}", row=0 if i < 5 else 1))
    await channel.send("ok", view=view)
    too_long = discord.ui.View()
    too_long.add_item(discord.ui.Button(label="x", custom_id="x" * 100))
    await channel.send("ok", view=too_long)
    assert fake.violations == []
    assert fake._check_components([{"type": 1, "components": [{"type": 2, "custom_id": "y" * 101}]}])
    assert fake._check_components([{"type": 1, "components": []}] * 6)
