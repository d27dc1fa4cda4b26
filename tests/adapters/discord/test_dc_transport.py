"""The Discord Transport against the fake: sends, edits, DMs and every error mapping."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from bot.adapters.discord.transport import DiscordTransport, channel_dest, dm_dest
from bot.present.outbox import Forbidden, MessageGone, RetryAfter, TransientError
from bot.present.render.message import Button, OutMessage
from tests.adapters.discord.fake_discord import FakeDiscord


@pytest.fixture
async def transport(patched: FakeDiscord) -> AsyncIterator[DiscordTransport]:
    client = discord.Client(intents=discord.Intents.default())
    await client.login("fake-token")
    yield DiscordTransport(client)
    await client.close()


HAND = OutMessage("your hand", ((Button("A♠", payload="mj1:a:1:4:play_AS", style="primary"),
                                 Button("K♠", payload="mj1:a:1:4:play_KS", disabled=True)),))


async def test_send_edit_delete_in_a_channel(fake: FakeDiscord, transport: DiscordTransport) -> None:
    dest = channel_dest(fake.channel_id)
    mid = await transport.send(dest, OutMessage("table 1", ((Button("Join", payload="mj1:j:1:-:"),),)))
    msg = fake.messages[int(mid)]
    assert msg.channel_id == fake.channel_id and msg.only_for is None
    assert msg.custom_ids() == ["mj1:j:1:-:"]
    await transport.edit(dest, mid, OutMessage("table 1, edited"))
    assert msg.content == "table 1, edited" and msg.components == []
    await transport.delete(dest, mid)
    assert msg.deleted
    with pytest.raises(MessageGone):
        await transport.edit(dest, mid, OutMessage("again"))


async def test_dm_reaches_only_its_user(fake: FakeDiscord, transport: DiscordTransport) -> None:
    alice = fake.add_member("Alice")
    mid = await transport.send(dm_dest(alice), HAND)
    await transport.edit(dm_dest(alice), mid, HAND)
    assert [m.id for m in fake.dms(alice)] == [int(mid)]
    assert fake.messages[int(mid)].custom_ids() == ["mj1:a:1:4:play_AS"]  # the disabled one is not pressable
    assert {s.user_id for s in fake.log} == {alice}
    assert [r for r in fake.requests if r[1].endswith("/users/@me/channels")] == [
        ("POST", "/api/v10/users/@me/channels")]


async def test_closed_dm_is_forbidden(fake: FakeDiscord, transport: DiscordTransport) -> None:
    bob = fake.add_member("Bob", dm_open=False)
    with pytest.raises(Forbidden) as info:
        await transport.send(dm_dest(bob), HAND)
    assert info.value.dest == dm_dest(bob)
    assert fake.dms(bob) == []


async def test_429_with_via_is_retried_and_delivered(fake: FakeDiscord, transport: DiscordTransport) -> None:
    fake.fail_next("POST", f"/channels/{fake.channel_id}/messages", 429, 0.05)
    mid = await transport.send(channel_dest(fake.channel_id), OutMessage("after a 429"))
    assert fake.messages[int(mid)].content == "after a 429"


async def test_429_without_via_is_retry_after(fake: FakeDiscord, transport: DiscordTransport) -> None:
    fake.fail_next("POST", f"/channels/{fake.channel_id}/messages", 429, -1.0)  # no Via header
    with pytest.raises(RetryAfter):
        await transport.send(channel_dest(fake.channel_id), OutMessage("blocked"))


@pytest.mark.slow
async def test_5xx_is_retried_by_the_http_client(fake: FakeDiscord, transport: DiscordTransport) -> None:
    fake.fail_next("PATCH", "/messages/", 502)
    dest = channel_dest(fake.channel_id)
    mid = await transport.send(dest, OutMessage("one"))
    await transport.edit(dest, mid, OutMessage("two"))
    assert fake.messages[int(mid)].content == "two"


async def test_400_and_network_errors_are_transient(fake: FakeDiscord, transport: DiscordTransport) -> None:
    fake.fail_next("POST", "/messages", 400)
    with pytest.raises(TransientError):
        await transport.send(channel_dest(fake.channel_id), OutMessage("x"))
    await fake.close()
    with pytest.raises(TransientError):
        await transport.send(channel_dest(fake.channel_id), OutMessage("x"))


async def test_unknown_channel_is_forbidden(fake: FakeDiscord, transport: DiscordTransport) -> None:
    with pytest.raises(Forbidden):
        await transport.send(channel_dest(42), OutMessage("x"))


async def test_budgets(transport: DiscordTransport) -> None:
    assert transport.budget("dc:1").ops == 5 and transport.budget("dc:1").per_seconds >= 5
    assert transport.budget("dm:dc:1").ops == 5


async def test_too_many_buttons_become_a_select(fake: FakeDiscord, transport: DiscordTransport) -> None:
    rows = tuple(tuple(Button(f"b{r}{c}", payload=f"mj1:a:1:1:bid_{r * 10 + c}") for c in range(7))
                 for r in range(2))
    mid = await transport.send(channel_dest(fake.channel_id), OutMessage("many", rows))
    msg = fake.messages[int(mid)]
    assert msg.components[0]["components"][0]["type"] == 3
    assert len(msg.custom_ids()) == 14 and fake.violations == []
