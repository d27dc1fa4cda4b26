"""The fake's ephemeral messages (Bot API 10.2/10.3) through the real python-telegram-bot and the
Telegram transport: who receives them, their errors, edits, deletes and 10.3's parameters."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot
from telegram import error as tg_error

from bot.adapters.telegram.transport import TelegramTransport, eph_dest, group_dest, parse_eph
from bot.present.outbox import MessageGone, PermanentError
from bot.present.render.message import Button, OutMessage
from tests.adapters.telegram.fake_server import FakeTelegram

GROUP = -100700


@pytest.fixture
async def transport(tg: FakeTelegram) -> AsyncIterator[TelegramTransport]:
    tg.add_group(GROUP).members = {7, 8}
    tg.add_user(7, "Huda", started=False)
    tg.add_user(8, "Omar", started=False)
    tg.add_user(9, "Sara")
    bot = Bot("123:TEST", base_url=tg.base_url, base_file_url=tg.base_file_url)
    async with bot:
        yield TelegramTransport(bot)


def test_an_ephemeral_destination_names_the_group_and_the_member() -> None:
    assert parse_eph(eph_dest(group_dest(-100123, 7), 42)) == ("tg:-100123/7", 42)
    assert parse_eph("tg:-100123") is None and parse_eph("dm:tg:5") is None


async def test_an_ephemeral_message_reaches_its_member_only_even_one_who_never_started_the_bot(
        tg: FakeTelegram, transport: TelegramTransport) -> None:
    dest = eph_dest(group_dest(GROUP), 7)
    mid = await transport.send(dest, OutMessage("hand of Huda", ((Button("A♠", payload="mj1:a:1:1:play_AS"),),)))
    [sent] = tg.visible_ephemerals(7, GROUP)
    assert str(sent.ephemeral_id) == mid and sent.text == "hand of Huda"
    assert tg.visible_ephemerals(8, GROUP) == [] and "hand of Huda" not in tg.seen_by(8, GROUP)
    assert tg.texts(GROUP) == []  # out of the chat's history, and of its 20 a minute
    assert tg.ops[7] == []  # nothing went to a private chat


async def test_a_non_member_or_a_private_chat_cannot_receive_one(tg: FakeTelegram,
                                                                  transport: TelegramTransport) -> None:
    with pytest.raises(PermanentError, match="not a member"):
        await transport.send(eph_dest(group_dest(GROUP), 9), OutMessage("x"))
    with pytest.raises(PermanentError):
        await transport.send(eph_dest(group_dest(-100999), 7), OutMessage("x"))
    with pytest.raises(tg_error.BadRequest, match="only to groups"):
        await transport.bot.send_message(9, "x", api_kwargs={"ephemeral_message_parameters": {"receiver_user_id": 9}})


async def test_edits_and_deletes_of_an_ephemeral_message(tg: FakeTelegram, transport: TelegramTransport) -> None:
    dest = eph_dest(group_dest(GROUP), 8)
    mid = await transport.send(dest, OutMessage("one"))
    await transport.edit(dest, mid, OutMessage("two", ((Button("wait"),),)))
    await transport.edit(dest, mid, OutMessage("two", ((Button("wait"),),)))  # not modified: fine
    [e] = tg.visible_ephemerals(8)
    assert e.history == ["one", "two"] and e.buttons == [{"text": "wait", "disabled": {}}]  # 10.3 disabled
    with pytest.raises(MessageGone):  # another member's id: not theirs to edit
        await transport.edit(eph_dest(group_dest(GROUP), 7), mid, OutMessage("three"))
    await transport.delete(dest, mid)
    assert tg.visible_ephemerals(8) == []
    with pytest.raises(MessageGone):
        await transport.edit(dest, mid, OutMessage("three"))


async def test_the_10_3_parameters_are_checked(tg: FakeTelegram, transport: TelegramTransport) -> None:
    bot = transport.bot
    with pytest.raises(tg_error.BadRequest, match="query id is invalid"):  # a query nobody pressed
        await bot.send_message(GROUP, "x", api_kwargs={"ephemeral_message_parameters": {
            "receiver_user_id": 7, "callback_query_id": "404"}})
    tg.queries["q1"] = (8, GROUP, None, 3)  # Omar pressed a button of group message 3
    with pytest.raises(tg_error.BadRequest, match="query id is invalid"):  # it answers Omar's press only
        await bot.send_message(GROUP, "x", api_kwargs={"ephemeral_message_parameters": {
            "receiver_user_id": 7, "callback_query_id": "q1"}})
    await bot.send_message(GROUP, "in place", api_kwargs={"ephemeral_message_parameters": {
        "receiver_user_id": 8, "callback_query_id": "q1", "replace_callback_query_message": True}})
    assert tg.visible_ephemerals(8)[-1].replaces == 3
    tg.queries["q2"] = (8, GROUP, 1, None)  # a press on an ephemeral message
    with pytest.raises(tg_error.BadRequest, match=r"(?i)must be false"):
        await bot.send_message(GROUP, "x", api_kwargs={"ephemeral_message_parameters": {
            "receiver_user_id": 8, "callback_query_id": "q2", "replace_callback_query_message": True}})
    with pytest.raises(tg_error.BadRequest, match=r"(?i)button_type_invalid"):  # disabled is one kind of button
        await bot.send_message(GROUP, "x", reply_markup={"inline_keyboard": [[  # type: ignore[arg-type]
            {"text": "A", "callback_data": "a", "disabled": {}}]]})


async def test_a_dropped_ephemeral_message_answers_as_a_success_but_never_arrives(
        tg: FakeTelegram, transport: TelegramTransport) -> None:
    dest = eph_dest(group_dest(GROUP), 7)
    tg.drop_ephemeral(7)
    mid = await transport.send(dest, OutMessage("lost"))
    await transport.edit(dest, mid, OutMessage("lost, edited"))
    assert tg.visible_ephemerals(7) == [] and "lost, edited" not in tg.seen_by(7, GROUP)
    await transport.send(dest, OutMessage("found"))
    assert [e.text for e in tg.visible_ephemerals(7)] == ["found"]
