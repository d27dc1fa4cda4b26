"""The Telegram Transport against the fake Bot API: sends, edits, deletes and error mapping."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from bot.adapters.telegram.transport import (
    NOOP,
    TelegramTransport,
    dm_dest,
    group_dest,
    parse_dest,
    player_id,
    user_of,
)
from bot.present.outbox import Forbidden, MessageGone, PermanentError, RetryAfter, TransientError
from bot.present.render.message import Button, OutMessage
from tests.adapters.telegram.fake_server import FakeTelegram

GROUP = -100500


@pytest.fixture
async def transport(tg: FakeTelegram) -> AsyncIterator[TelegramTransport]:
    tg.add_group(GROUP)
    tg.add_group(-100600, forum=True)
    bot = Bot("123:TEST", base_url=tg.base_url, base_file_url=tg.base_file_url)
    async with bot:
        yield TelegramTransport(bot)


def test_destinations_round_trip() -> None:
    assert parse_dest(group_dest(-100123)) == (-100123, None)
    assert parse_dest(group_dest(-100123, 7)) == (-100123, 7)
    assert parse_dest(dm_dest(42)) == (42, None)
    assert user_of(player_id(42)) == 42
    assert user_of("dc:42") is None
    with pytest.raises(ValueError):
        parse_dest("dc:1")


@pytest.mark.slow
async def test_budget_and_start_link(transport: TelegramTransport) -> None:
    group = transport.budget("tg:-100500")
    assert (group.ops, group.per_seconds) == (20, 60.0) and group.interval >= 3.0 and group.window > 60.0
    assert transport.budget("tg:-100500/3") == group
    dm = transport.budget("dm:tg:42")
    assert (dm.ops, dm.per_seconds) == (1, 1.0)
    assert transport.start_link("j12") == "https://t.me/majlis_bot?start=j12"


@pytest.mark.slow
async def test_send_edit_delete_with_buttons(tg: FakeTelegram, transport: TelegramTransport) -> None:
    msg = OutMessage("table", ((Button("Join", payload="mj1:j:1:-:"), Button("Off", disabled=True)),
                               (Button("Start", url="https://t.me/majlis_bot?start=x"),)), notify=False)
    mid = await transport.send(group_dest(GROUP), msg)
    sent = tg.messages[GROUP][int(mid)]
    assert sent.text == "table" and not sent.notify
    assert [b.get("callback_data") for b in sent.buttons] == ["mj1:j:1:-:", NOOP, None]
    assert sent.buttons[2]["url"] == "https://t.me/majlis_bot?start=x"
    await transport.edit(group_dest(GROUP), mid, OutMessage("table v2"))
    assert sent.text == "table v2" and sent.buttons == []
    await transport.edit(group_dest(GROUP), mid, OutMessage("table v2"))  # not modified: success
    assert sent.history == ["table", "table v2"]
    await transport.delete(group_dest(GROUP), mid)
    assert sent.deleted
    with pytest.raises(MessageGone):
        await transport.edit(group_dest(GROUP), mid, OutMessage("v3"))
    with pytest.raises(MessageGone):
        await transport.delete(group_dest(GROUP), mid)


async def test_forum_topic_carries_thread_id(tg: FakeTelegram, transport: TelegramTransport) -> None:
    mid = await transport.send(group_dest(-100600, 7), OutMessage("in topic"))
    assert tg.messages[-100600][int(mid)].thread_id == 7


async def test_dm_to_user_who_never_started_is_forbidden(tg: FakeTelegram,
                                                         transport: TelegramTransport) -> None:
    tg.add_user(42, "Ali", started=False)
    with pytest.raises(Forbidden) as info:
        await transport.send(dm_dest(42), OutMessage("your hand"))
    assert info.value.dest == "dm:tg:42"
    await tg.start_bot(tg.users[42])
    mid = await transport.send(dm_dest(42), OutMessage("your hand"))
    assert tg.messages[42][int(mid)].text == "your hand"
    tg.block(42)
    with pytest.raises(Forbidden):
        await transport.send(dm_dest(42), OutMessage("again"))


async def test_429_and_5xx_are_typed(tg: FakeTelegram, transport: TelegramTransport) -> None:
    tg.fail_next(GROUP, retry_after=3)
    with pytest.raises(RetryAfter) as info:
        await transport.send(group_dest(GROUP), OutMessage("x"))
    assert info.value.retry_after == 3.0
    tg.fail_next(GROUP, status=502)
    with pytest.raises(TransientError):
        await transport.send(group_dest(GROUP), OutMessage("x"))
    tg.fail_next(GROUP, status=500)
    with pytest.raises(TransientError):
        await transport.edit(group_dest(GROUP), "1", OutMessage("x"))
    mid = await transport.send(group_dest(GROUP), OutMessage("x"))
    assert tg.texts(GROUP) == ["x"] and mid == "1"


async def test_a_bad_request_on_send_is_permanent_not_retried(tg: FakeTelegram,
                                                              transport: TelegramTransport) -> None:
    tg.fail_next(GROUP, status=400, description="Bad Request: can't parse entities")
    with pytest.raises(PermanentError):
        await transport.send(group_dest(GROUP), OutMessage("x"))
    assert tg.texts(GROUP) == []


async def test_unknown_chat_is_forbidden(transport: TelegramTransport) -> None:
    with pytest.raises(Forbidden):
        await transport.send(group_dest(-100999), OutMessage("x"))
