"""The per-person command limit and the press flood cap, through the real Application and the fake
(issue 13): a burst beyond the limit gets one "slow down" and changes nothing, the person is served
again after the window, and nobody else in the chat is held back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.throttle import CommandLimits
from bot.present import codec
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player

SLOW = "Slow down: try again in"


async def said(bed: Bed, who: Player, text: str, chat: int = GROUP) -> str:
    """``who`` types ``text``; the bot's next new message there."""
    before = len(bed.tg.bot_messages(chat))
    await bed.tg.say(who.user, chat, text)
    msgs = await bed.tg.wait_for(lambda: bed.tg.bot_messages(chat)[before:])
    return str(msgs[0].text)


@pytest.mark.slow
async def test_a_burst_of_commands_gets_one_slow_down_and_changes_nothing(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    assert bed.limits.burst == 5 and bed.limits.every == 3.0  # the configured defaults
    await said(bed, ali, "/lang en")
    for _ in range(4):  # five commands at once are served
        help_text = await said(bed, ali, "/help")
        assert "/new" in help_text
    start = len(bed.tg.bot_messages(GROUP))
    # The sixth is answered once, "slow down", and not run; the seventh and eighth get no answer.
    assert await said(bed, ali, "/new trix") == "Slow down: try again in 3 seconds."
    await bed.tg.say(ali.user, GROUP, "/new tarneeb")
    await bed.tg.say(ali.user, GROUP, "/help")
    # Huda, in the same group, is served at once: her table is the one that opens.
    await bed.tg.say(huda.user, GROUP, "/new trix")
    snap = await bed.tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
    await bed.drain()
    assert snap.table.creator == f"tg:{huda.user_id}" and snap.table.game == "trix"
    texts = [m.text for m in bed.tg.bot_messages(GROUP)[start:]]
    assert sum(SLOW in t for t in texts) == 1, texts
    assert help_text not in texts  # no /help for Ali
    assert bed.manager.table_in_chat(CHAT).seat_of(f"tg:{ali.user_id}") is None  # type: ignore[union-attr]

    # After the window he is served again (one command every 3 s, then the burst refills).
    bed.clock.advance(3)
    await bed.tg.say(ali.user, GROUP, "/join")
    await bed.tg.wait_for(lambda: bed.manager.table_in_chat(CHAT).seat_of(f"tg:{ali.user_id}") is not None)  # type: ignore[union-attr]
    await bed.tg.say(ali.user, GROUP, "/leave")  # the next one in that window is refused (and told) again
    assert await said(bed, huda, "/help")
    assert bed.manager.table_in_chat(CHAT).seat_of(f"tg:{ali.user_id}") is not None  # type: ignore[union-attr]
    assert sum(SLOW in m.text for m in bed.tg.bot_messages(GROUP)[start:]) == 2  # one per window
    # The limit is per chat: in his private chat he is not held back.
    assert "Welcome" in await said(bed, ali, "/start", chat=ali.user_id)


async def test_the_slow_down_answer_in_arabic_counts_its_seconds(tmp_path: Path) -> None:
    bed = Bed(tmp_path, limits=CommandLimits(burst=1, every=11.0, press_burst=0))
    await bed.open()
    try:
        (sara,) = bed.people(["Sara"], "ar")
        bed.tg.add_group(GROUP, admins=[sara.user_id])
        await said(bed, sara, "/help")
        answer = await said(bed, sara, "/help")
        assert answer == "على مهلك: حاول مرة أخرى بعد \u206811\u2069 ثانية."  # the number isolated
    finally:
        await bed.close()


@pytest.mark.slow
async def test_a_flood_of_presses_is_capped_and_others_are_not(tmp_path: Path) -> None:
    bed = Bed(tmp_path, limits=CommandLimits(press_burst=3, press_every=1.0))
    await bed.open()
    try:
        ali, huda = bed.people(["Ali", "Huda"], "en")
        bed.tg.add_group(GROUP, admins=[ali.user_id])
        await bed.tg.say(ali.user, GROUP, "/new trix")
        snap = await bed.tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
        tid = snap.table_id
        await bed.tg.say(huda.user, GROUP, "/join")
        await bed.tg.wait_for(lambda: len(bed.manager.get(tid).table.seats) and  # type: ignore[union-attr]
                              bed.manager.get(tid).seat_of(f"tg:{huda.user_id}") is not None)  # type: ignore[union-attr]
        lobby = await bed.tg.wait_for(lambda: bed.table_message(tid))
        begin = lobby.button(data_prefix=f"mj1:b:{tid}:")["callback_data"]
        leave = lobby.button(data_prefix=f"mj1:l:{tid}:")["callback_data"]
        old = codec.encode("b", tid + 7, None)  # a button of a table this chat does not have
        for _ in range(3):  # three presses at once are served (and refused by the table)
            assert (await bed.tg.press(ali.user, lobby, old)).show_alert
        # Over the cap: answered (no spinner left), "slow down" once, then silently; not begun.
        first = await bed.tg.press(ali.user, lobby, begin)
        assert first.text == "Slow down: try again in 1 second." and not first.show_alert
        again = await bed.tg.press(ali.user, lobby, begin)
        assert again.text is None
        assert bed.manager.get(tid).table.status == "lobby"  # type: ignore[union-attr]
        # Huda's press is served meanwhile: she leaves.
        await bed.tg.press(huda.user, lobby, leave)
        assert bed.manager.get(tid).seat_of(f"tg:{huda.user_id}") is None  # type: ignore[union-attr]
        # A second later Ali's press is served: the match begins.
        bed.clock.advance(1)
        await bed.tg.press(ali.user, lobby, begin)
        assert bed.manager.get(tid).table.status == "playing"  # type: ignore[union-attr]
    finally:
        await bed.close()
