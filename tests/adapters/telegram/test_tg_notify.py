"""Opt-in notifications through the real Application and the fake Bot API (bot/core/notify.py): a
turn mention for whoever asked, nobody else; a chat's table call in one message within its budget."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, choose, max_in_window


async def said(bed: Bed, who: Player, text: str, chat: int = GROUP) -> str:
    before = len(bed.tg.bot_messages(chat))
    await bed.tg.say(who.user, chat, text)
    msgs = await bed.tg.wait_for(lambda: bed.tg.bot_messages(chat)[before:])
    return str(msgs[0].text)


def mentions(bed: Bed) -> list[int]:
    """Everyone any message of the bot in the group ever mentioned (deleted ones too)."""
    return [uid for m in bed.tg.messages[GROUP].values() if m.from_bot for uid in m.mentioned]


async def settle(bed: Bed) -> None:
    """Let what a timer started run, then deliver what it queued."""
    await asyncio.sleep(0.05)
    await bed.drain()


async def human_turn(bed: Bed, tid: int) -> tuple[int, str]:
    """Wait until a person is to act; (seat, their player id)."""
    def person() -> tuple[int, str] | None:
        snap = bed.manager.get(tid)
        seat = snap.to_act if snap is not None else None
        if seat is None or snap is None or snap.table.seats[seat].is_ai:
            return None
        return seat, str(snap.table.seats[seat].player_id)
    found: tuple[int, str] = await bed.tg.wait_for(person)
    return found


@pytest.mark.slow
async def test_only_the_person_who_asked_is_mentioned_after_their_share_of_the_turn(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "هدى"], "ar")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    assert "25" in await said(bed, huda, "/notify turn 25%")
    assert "متوقف" in await said(bed, ali, "/notify")  # Ali asked for nothing
    await said(bed, ali, "/new tarneeb41")
    await bed.tg.say(huda.user, GROUP, "/join")
    huda_id = f"tg:{huda.user_id}"
    await bed.tg.wait_for(lambda: (s := bed.manager.table_in_chat(CHAT)) and s.seat_of(huda_id) is not None)
    await bed.tg.say(ali.user, GROUP, "/begin")
    tid = await bed.tg.wait_for(lambda: (s := bed.manager.table_in_chat(CHAT)) and s.table.status == "playing"
                                and s.table_id)
    people = {f"tg:{p.user_id}": p for p in (ali, huda)}
    rng = random.Random(3)
    huda_turns = 0
    for turn in range(8):
        if turn == 5:  # she stops asking: never mentioned again
            assert "متوقف" in await said(bed, huda, "/notify turn off")
        _, pid = await human_turn(bed, tid)
        shown = len(mentions(bed))
        bed.clock.advance(0.2 * 3600)  # 20%: too early for anyone
        await settle(bed)
        assert len(mentions(bed)) == shown
        bed.clock.advance(0.1 * 3600)  # 30%
        await settle(bed)
        if pid == f"tg:{huda.user_id}" and turn < 5:
            huda_turns += 1
            [m] = [m for m in bed.tg.bot_messages(GROUP) if m.mentioned and not m.deleted]
            assert m.mentioned == [huda.user_id] and m.mention_texts() == ["هدى"]
            assert "دورك" in m.text
        assert len(mentions(bed)) == shown + (pid == f"tg:{huda.user_id}" and turn < 5)
        hand = await bed.tg.wait_for(lambda p=people[pid]: bed.hand_message(p, tid))
        moves = [b["callback_data"] for b in hand.buttons
                 if str(b.get("callback_data", "")).startswith(f"mj1:a:{tid}:")]
        version = bed.manager.get(tid).table.version
        await bed.tg.press(people[pid].user, hand, choose("tarneeb41", moves, rng))
        await bed.tg.wait_for(lambda v=version: bed.manager.get(tid).table.version > v)
        await bed.drain()
        assert not [m for m in bed.tg.bot_messages(GROUP) if m.mentioned and not m.deleted]  # the turn passed
    assert huda_turns >= 1
    assert set(mentions(bed)) == {huda.user_id}  # Ali never


@pytest.mark.slow
async def test_fifty_subscribers_are_called_in_one_message_within_the_groups_budget(bed: Bed) -> None:
    ali, omar, lina = bed.people(["Ali", "Omar", "Lina"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    assert "Only the group's admins" in await said(bed, omar, "/settings notify=on")
    assert "table calls off" in await said(bed, lina, "/notify tables on")  # not allowed yet: nothing stored
    await said(bed, ali, "/settings notify=on")
    assert "Table calls in this chat: on." in await said(bed, lina, "/notify tables on")
    assert "in a group" in await said(bed, lina, "/notify tables on", chat=lina.user_id)
    crowd = bed.people([f"P{i}" for i in range(49)], "en", first_id=900)
    for i, p in enumerate(crowd):  # as /notify tables on stores them (the replies would take minutes)
        await bed.manager.prefs.subscribe(CHAT, f"tg:{p.user_id}", True, float(i))
    await said(bed, omar, "/new trix")
    seated = lambda: (s := bed.manager.table_in_chat(CHAT)) and s.seat_of(f"tg:{ali.user_id}")  # noqa: E731
    await bed.tg.say(ali.user, GROUP, "/join")
    await bed.tg.wait_for(lambda: seated() is not None)
    await bed.tg.say(ali.user, GROUP, "/leave")
    await bed.tg.wait_for(lambda: seated() is None)
    await bed.drain()
    calls = [m for m in bed.tg.bot_messages(GROUP) if m.mentioned]
    assert len(calls) == 1  # once for the lobby, whoever joins or leaves it
    called = set(calls[0].mentioned)
    assert called == {p.user_id for p in crowd} | {lina.user_id}  # 50: Telegram's cap, all of them
    assert omar.user_id not in called and ali.user_id not in called
    assert all(text for text in calls[0].mention_texts())
    assert max_in_window(bed.sent_at[CHAT]) <= 20
