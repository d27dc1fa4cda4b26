"""Who may do what, through the real Application against the fake Bot API (issue 12): every refusal is
a clear localized answer and changes no table (version, log, seats)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.present import codec
from bot.present.i18n import translator
from bot.present.render.errors import render_error
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, join_url_payload

OTHER = GROUP - 1  # a second group
OTHER_CHAT = f"tg:{OTHER}"


async def said(bed: Bed, who: Player, text: str, chat: int = GROUP, *, as_group: bool = False) -> str:
    """``who`` types ``text``; the bot's next new message there."""
    before = len(bed.tg.bot_messages(chat))
    await bed.tg.say(who.user, chat, text, as_group=as_group)
    msgs = await bed.tg.wait_for(lambda: bed.tg.bot_messages(chat)[before:])
    return str(msgs[0].text)


async def state(bed: Bed) -> list[tuple[Any, ...]]:
    """Every table as stored: id, status, version, log length, seats."""
    assert bed.repo is not None
    out = []
    for tid in sorted(bed.manager._tables):
        rec = await bed.repo.get_table(tid)
        assert rec is not None
        out.append((tid, rec.status, rec.version, len(await bed.repo.actions(tid)), rec.seats))
    return out


async def open_lobby(bed: Bed, opener: Player, group: int = GROUP) -> int:
    await bed.tg.say(opener.user, group, "/new trix")
    snap = await bed.tg.wait_for(lambda: bed.manager.table_in_chat(f"tg:{group}"))
    await bed.tg.wait_for(lambda: bed.table_message(snap.table_id, group))
    return int(snap.table_id)


async def test_a_strangers_deep_link_is_refused(bed: Bed) -> None:
    ali, stranger = bed.people(["Ali", "Zed"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id]).members = {ali.user_id}
    tid = await open_lobby(bed, ali)
    payload = join_url_payload(bed.table_message(tid))  # type: ignore[arg-type]
    before = await state(bed)
    assert "Only members of the table's group" in await said(bed, stranger, f"/start {payload}",
                                                             chat=stranger.user_id)
    assert await state(bed) == before


async def test_a_forged_or_guessed_or_old_deep_link_is_refused(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    tid = await open_lobby(bed, ali)
    payload = join_url_payload(bed.table_message(tid))  # type: ignore[arg-type]
    assert payload.startswith(f"j{tid}_") and len(payload) <= 64
    before = await state(bed)
    for forged in (f"j{tid}", f"j{tid}_{'A' * 22}", f"j{tid + 1}{payload[len(str(tid)) + 1:]}", "j²", "j¹_x"):
        assert "invitation link is not valid" in await said(bed, huda, f"/start {forged}", chat=huda.user_id)
    assert await state(bed) == before
    await bed.tg.say(ali.user, GROUP, "/stop")
    await bed.tg.wait_for(lambda: bed.manager.table_in_chat(CHAT) is None)
    before = await state(bed)
    bed.clock.advance(3)  # Huda tried five links in a row: her command limit (5 at once) refills
    assert "no longer open" in await said(bed, huda, f"/start {payload}", chat=huda.user_id)
    assert await state(bed) == before


async def test_a_payload_from_another_chat_is_refused(bed: Bed) -> None:
    ali, omar = bed.people(["Ali", "Omar"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    bed.tg.add_group(OTHER, admins=[omar.user_id])
    mine = await open_lobby(bed, ali)
    theirs = await open_lobby(bed, omar, OTHER)
    here = bed.table_message(mine)
    assert here is not None
    before = await state(bed)
    for verb, arg in (("j", ""), ("b", ""), ("l", ""), ("x", ""), ("c", "1")):
        forged = codec.encode(verb, theirs, None, arg)  # a modified client sends another group's table
        answer = await bed.tg.press(ali.user, here, forged)
        assert answer.show_alert and "another chat" in str(answer.text), (verb, answer.text)
    assert await state(bed) == before
    assert bed.manager.get(theirs).seat_of(f"tg:{ali.user_id}") is None  # type: ignore[union-attr]


async def test_a_forged_or_malformed_payload_is_refused(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    tid = await open_lobby(bed, ali)
    here = bed.table_message(tid)
    assert here is not None
    before = await state(bed)
    stale = render_error("stale", {}, translator("en"))  # what an out-of-date button is told
    for forged in (f"mj1:z:{tid}:-:", f"mj1:q:{tid}:-:2", f"mj1:zz:{tid}:-:", f"mj1::{tid}:-:"):
        answer = await bed.tg.press(huda.user, here, forged)  # a verb this bot does not know
        assert answer.show_alert and answer.text == stale, (forged, answer.text)
    bad = render_error("bad_action", {}, translator("en"))
    for forged in (f"mj1:j:{tid}:-:abc", f"mj1:c:{tid}:-:", f"mj1:c:{tid}:-:x", "mj1:j:x:-:"):
        answer = await bed.tg.press(huda.user, here, forged)  # a known verb, malformed
        assert answer.show_alert and answer.text == bad, (forged, answer.text)
    assert await state(bed) == before
    assert bed.manager.get(tid).seat_of(f"tg:{huda.user_id}") is None  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_press_on_another_tables_message_is_refused(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    old = await open_lobby(bed, ali)
    old_message = bed.table_message(old)
    assert old_message is not None
    await bed.tg.say(ali.user, GROUP, "/stop")
    await bed.tg.wait_for(lambda: bed.manager.table_in_chat(CHAT) is None)
    new = await open_lobby(bed, ali)
    before = await state(bed)
    answer = await bed.tg.press(huda.user, old_message, codec.encode("j", old, None))
    assert answer.show_alert and "out of date" in str(answer.text)
    assert await state(bed) == before
    assert bed.manager.get(new).seat_of(f"tg:{huda.user_id}") is None  # type: ignore[union-attr]


@pytest.mark.slow
async def test_a_leaver_may_take_back_only_the_seat_they_left(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    await said(bed, ali, "/lang en")
    tid = await open_lobby(bed, ali)
    await bed.tg.start_bot(huda.user, join_url_payload(bed.table_message(tid)))  # type: ignore[arg-type]
    await bed.tg.wait_for(lambda: bed.manager.get(tid).seat_of(f"tg:{huda.user_id}") == 1)  # type: ignore[union-attr]
    await bed.tg.say(ali.user, GROUP, "/begin")
    await bed.tg.wait_for(lambda: bed.manager.get(tid).table.status == "playing")  # type: ignore[union-attr]
    await bed.tg.say(huda.user, GROUP, "/leave")
    await bed.tg.wait_for(lambda: bed.manager.get(tid).seat_of(f"tg:{huda.user_id}") is None)  # type: ignore[union-attr]
    await bed.manager.drain()
    message = await bed.tg.wait_for(lambda: bed.table_message(tid))
    before = [row[:2] + row[4:] for row in await state(bed)]
    answer = await bed.tg.press(huda.user, message, codec.encode("c", tid, None, "3"))
    assert answer.show_alert and "you may only take that seat back" in str(answer.text)
    assert [row[:2] + row[4:] for row in await state(bed)] == before
    rec = await bed.repo.get_table(tid)  # type: ignore[union-attr]
    assert rec is not None and rec.left_seats[f"tg:{huda.user_id}"] == 1  # the leave (and loss) stands
    answer = await bed.tg.press(huda.user, message, codec.encode("c", tid, None, "1"))
    assert not answer.show_alert
    assert bed.manager.get(tid).seat_of(f"tg:{huda.user_id}") == 1  # type: ignore[union-attr]


@pytest.mark.slow
async def test_an_anonymous_admin_may_change_settings_but_cannot_sit(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    await said(bed, ali, "/lang en")
    assert "Turn timer: 45 s" in await said(bed, huda, "/settings turn=45", as_group=True)
    assert (await bed.manager.chat_settings(CHAT)).turn_seconds == 45
    assert "anonymous admin" in await said(bed, huda, "/new trix", as_group=True)
    assert bed.manager.table_in_chat(CHAT) is None
    tid = await open_lobby(bed, ali)
    before = await state(bed)
    assert "anonymous admin" in await said(bed, huda, "/join", as_group=True)
    assert await state(bed) == before
    await bed.tg.say(huda.user, GROUP, "/stop", as_group=True)  # an admin of the group may stop it
    await bed.tg.wait_for(lambda: bed.manager.get(tid).table.status == "stopped")  # type: ignore[union-attr]


async def test_a_non_admin_cannot_change_settings_or_the_language(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    await said(bed, ali, "/lang en")
    tid = await open_lobby(bed, ali)
    chat = await bed.manager.chat_settings(CHAT)
    before = await state(bed)
    assert "Only the group's admins" in await said(bed, huda, "/settings turn=30")
    assert "Only the group's admins" in await said(bed, huda, "/lang ar")
    assert await bed.manager.chat_settings(CHAT) == chat
    message = bed.table_message(tid)
    assert message is not None
    answer = await bed.tg.press(huda.user, message, codec.encode("x", tid, None))
    assert answer.show_alert and "creator or an admin" in str(answer.text)
    assert await state(bed) == before


async def test_an_untouched_chat_speaks_one_language(bed: Bed) -> None:
    ali = bed.people(["Ali"], "ar")[0]
    huda = bed.people(["Huda"], "en", first_id=601)[0]
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    tid = await open_lobby(bed, ali)  # the opener's Telegram language becomes the group's
    assert (await bed.manager.chat_settings(CHAT)).lang == "ar"
    lobby = bed.table_message(tid)
    assert lobby is not None and not str(lobby.text).isascii()
    help_text = await said(bed, huda, "/help")  # an English-speaking member reads the group's language
    assert "/new" in help_text and not help_text.isascii()
    await bed.tg.start_bot(huda.user, join_url_payload(lobby))
    joined = await bed.tg.wait_for(lambda: [m for m in bed.tg.bot_messages(huda.user_id) if m.text])
    assert not str(joined[-1].text).isascii()
    assert "From now on I speak English here." in await said(bed, ali, "/lang en")


async def test_unicode_digits_and_storage_failures_are_answered(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    bed.tg.add_group(GROUP, admins=[ali.user_id])
    await said(bed, ali, "/lang en")
    tid = await open_lobby(bed, ali)
    await bed.tg.say(huda.user, GROUP, "/join ²")  # "²".isdigit() is True: int("²") raised before
    await bed.tg.wait_for(lambda: bed.manager.get(tid).seat_of(f"tg:{huda.user_id}") == 1)  # type: ignore[union-attr]
    message = bed.table_message(tid)
    assert message is not None
    assert bed.repo is not None

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk gone")

    bed.repo.save_table = broken  # type: ignore[method-assign]
    answer = await bed.tg.press(ali.user, message, codec.encode("b", tid, None))
    assert answer.show_alert and "something went wrong" in str(answer.text)
    assert "something went wrong" in await said(bed, ali, "/leave")


@pytest.mark.slow
async def test_admin_rights_are_asked_once_a_minute_and_a_promotion_counts_within_seconds(bed: Bed) -> None:
    ali, huda = bed.people(["Ali", "Huda"], "en")
    group = bed.tg.add_group(GROUP, admins=[ali.user_id])

    def asked() -> int:
        return sum(1 for m in bed.tg.calls if m.lower() == "getchatmember")

    start = asked()
    await said(bed, ali, "/lang en")
    assert "Turn timer: 30" in await said(bed, ali, "/settings turn=30")
    assert "Turn timer: 40" in await said(bed, ali, "/settings turn=40")
    assert asked() == start + 1  # the later commands used the answer to the first
    bed.clock.advance(61)
    assert "Turn timer: 50" in await said(bed, ali, "/settings turn=50")
    assert asked() == start + 2  # a minute later Telegram is asked again (a demotion counts)
    # a refusal is kept for a few seconds only: a new admin is one soon after the promotion
    assert "Only the group's admins" in await said(bed, huda, "/settings turn=20")
    group.admins.add(huda.user_id)
    assert "Only the group's admins" in await said(bed, huda, "/settings turn=20")
    bed.clock.advance(11)
    assert "Turn timer: 20" in await said(bed, huda, "/settings turn=20")
    assert (await bed.manager.chat_settings(CHAT)).turn_seconds == 20
