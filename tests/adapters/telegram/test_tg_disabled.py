"""A card that may not be played now (Telegram has no disabled buttons): pressing it answers, only to
the presser, why not ("You must follow suit: play Hearts."), and changes nothing (issue 13)."""

from __future__ import annotations

import random

from bot.adapters.telegram.transport import DISABLED
from tests.adapters.telegram.fake_server import FakeMessage
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, join_url_payload, play_out


def disabled_move(bed: Bed, people: list[Player], tid: int) -> tuple[Player, FakeMessage, str] | None:
    """The person to act, their hand message and a move it shows disabled at the current version."""
    snap = bed.manager.get(tid)
    if snap is None or snap.to_act is None:
        return None
    prefix = f"{DISABLED}mj1:a:{tid}:{snap.table.version}:"
    for p in people:
        if snap.seat_of(f"tg:{p.user_id}") != snap.to_act:
            continue
        m = bed.hand_message(p, tid)
        found = [str(b["callback_data"]) for b in (m.buttons if m else [])
                 if str(b.get("callback_data", "")).startswith(prefix)]
        if m is not None and found:
            return p, m, found[0]
    return None


async def test_pressing_a_card_that_must_not_be_played_says_why_privately(bed: Bed) -> None:
    tg = bed.tg
    people = bed.people(["Ali", "Huda", "Omar", "Sara"], "en")
    tg.add_group(GROUP, admins=[people[0].user_id])
    await tg.say(people[0].user, GROUP, "/lang en")
    await tg.say(people[0].user, GROUP, "/new tarneeb41 target=31")
    snap = await tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
    tid = snap.table_id
    payload = join_url_payload(await tg.wait_for(lambda: bed.table_message(tid)))
    for p in people[1:]:
        await tg.start_bot(p.user, payload)
    await tg.wait_for(lambda: bed.manager.get(tid).table.status == "playing")  # type: ignore[union-attr]
    await play_out(bed, tid, people, random.Random(5), stop=lambda: disabled_move(bed, people, tid) is not None)
    found = disabled_move(bed, people, tid)
    assert found is not None, "no hand showed a card it may not play"
    who, message, data = found
    label = next(b["text"] for b in message.buttons if b.get("callback_data") == data)
    assert label.startswith("(") and message.chat_id == who.user_id  # shown disabled, in the private chat
    version = bed.manager.get(tid).table.version  # type: ignore[union-attr]
    await bed.drain()  # what the group was still owed (paced) is out before counting
    group_before = len(tg.bot_messages(GROUP))
    answer = await tg.press(who.user, message, data)
    assert answer.show_alert and answer.text is not None and answer.text.startswith("You must follow"), answer.text
    assert bed.manager.get(tid).table.version == version  # nothing was played
    await bed.drain()
    assert len(tg.bot_messages(GROUP)) == group_before  # nothing said in public
    assert bed.checker.violations == []
