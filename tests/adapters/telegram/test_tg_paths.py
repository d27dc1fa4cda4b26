"""When things go wrong on Telegram: 403 (cannot DM), 429, stale and foreign presses, a restart."""

from __future__ import annotations

import random

import pytest

from bot.present.i18n import translator
from bot.present.render.errors import render_error
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, join_url_payload, play_out


async def lobby(bed: Bed, people: list[Player], game: str = "tarneeb41", options: str = "target=1") -> int:
    tg = bed.tg
    tg.add_group(GROUP, admins=[people[0].user_id])
    await tg.say(people[0].user, GROUP, "/lang en")
    await tg.say(people[0].user, GROUP, f"/new {game} {options}")
    snap = await tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
    await tg.wait_for(lambda: bed.table_message(snap.table_id))
    return snap.table_id


async def seated_table(bed: Bed, names: list[str] | None = None) -> tuple[int, list[Player]]:
    people = bed.people(names or ["Ali", "Huda", "Omar", "Sara"], "en")
    tid = await lobby(bed, people)
    payload = join_url_payload(bed.table_message(tid))  # type: ignore[arg-type]
    for p in people[1:]:
        await bed.tg.start_bot(p.user, payload)
    await bed.tg.wait_for(lambda: bed.manager.get(tid).table.status == "playing")  # type: ignore[union-attr]
    return tid, people


def version(bed: Bed, tid: int) -> int:
    snap = bed.manager.get(tid)
    assert snap is not None
    return snap.table.version


@pytest.mark.slow
async def test_dm_forbidden_keeps_seat_and_times_out_then_start_restores(bed: Bed) -> None:
    tg = bed.tg
    people = bed.people(["Ali", "Huda", "Omar"], "en") + bed.people(["Zaid"], "en", started=False, first_id=600)
    tid = await lobby(bed, people)
    payload = join_url_payload(bed.table_message(tid))  # type: ignore[arg-type]
    for p in people[1:3]:
        await tg.start_bot(p.user, payload)
    zaid = people[3]
    await tg.say(zaid.user, GROUP, "/join")  # a plain join: Zaid never opened the private chat
    notice = await tg.wait_for(lambda: tg.last_bot_message(
        GROUP, lambda m: any("url" in b for b in m.buttons) and "Zaid" in m.text and "privately" in m.text))
    assert notice.buttons[0]["url"] == "https://t.me/majlis_bot"
    assert tg.bot_messages(zaid.user_id) == []
    snap = bed.manager.get(tid)
    assert snap is not None and snap.table.status == "playing"
    seat = snap.seat_of(f"tg:{zaid.user_id}")
    assert seat is not None

    # Zaid's turns time out as usual: nothing is stuck.
    others = people[:3]
    for _ in range(2):
        await play_out(bed, tid, others, random.Random(1),
                       stop=lambda: bed.manager.get(tid).to_act == seat)  # type: ignore[union-attr]
        before = version(bed, tid)
        bed.clock.advance(3600)
        await bed.manager.run_due()
        await tg.wait_for(lambda b=before: version(bed, tid) > b)  # type: ignore[misc]
    snap = bed.manager.get(tid)
    assert snap is not None and snap.seat_of(f"tg:{zaid.user_id}") == seat  # still his seat

    # He opens the private chat and presses Start: his hand arrives.
    await tg.start_bot(zaid.user)
    hand = await tg.wait_for(lambda: tg.last_bot_message(zaid.user_id, lambda m: m.text.startswith("Your hand")))
    key = f"hand:{tid}:tg:{zaid.user_id}"
    stored = await tg.wait_for(lambda: bed.manager.get(tid).table.message_ids.get(key))  # type: ignore[union-attr]
    assert stored == str(hand.message_id)
    assert bed.checker.violations == []


@pytest.mark.slow
async def test_429_waits_and_retries_only_that_chat(bed: Bed) -> None:
    tg = bed.tg
    tid, people = await seated_table(bed)
    await play_out(bed, tid, people, random.Random(2), stop=lambda: version(bed, tid) >= 8)
    await bed.drain()
    tg.fail_next(GROUP, retry_after=5)
    await play_out(bed, tid, people, random.Random(2))
    await bed.drain()
    errors = [op for op in tg.ops[GROUP] if op.kind == "error"]
    assert [op.text for op in errors] == ["429"]
    after = [op for op in tg.ops[GROUP] if op.kind in ("send", "edit") and op.at > errors[0].at]
    assert after, "the group's messages were retried"
    assert after[0].at >= errors[0].at + 5 - 1.0  # waited retry_after (scaled seconds, latency allowance)
    dm_during = [op for p in people for op in tg.ops[p.user_id] if errors[0].at < op.at < after[0].at]
    assert dm_during, "private chats went on while the group waited"
    # The final state of the table message was delivered.
    table = bed.table_message(tid) or tg.last_bot_message(GROUP, lambda m: m.text.startswith("Syrian"))
    assert table is not None
    assert table.text == bed.checker.last_put[(CHAT, f"table:{tid}")]
    assert (await bed.manager.table_results(tid)) is not None


async def test_stale_press_is_refused_with_an_alert(bed: Bed) -> None:
    tg = bed.tg
    tid, people = await seated_table(bed)
    snap = bed.manager.get(tid)
    assert snap is not None and snap.to_act is not None
    actor = next(p for p in people if snap.seat_of(f"tg:{p.user_id}") == snap.to_act)
    hand = await tg.wait_for(lambda: bed.hand_message(actor, tid))
    moves = [b["callback_data"] for b in hand.buttons if str(b.get("callback_data", "")).startswith(f"mj1:a:{tid}:")]
    first = await tg.press(actor.user, hand, moves[0])
    assert first.text is None and not first.show_alert
    v = version(bed, tid)
    again = await tg.press(actor.user, hand, moves[-1])  # the same, now old, message
    assert again.show_alert
    assert again.text == render_error("stale", {}, translator("en"))
    assert version(bed, tid) == v


@pytest.mark.slow
async def test_press_by_someone_not_seated(bed: Bed) -> None:
    tg = bed.tg
    tid, people = await seated_table(bed)
    stranger = bed.people(["Nour"], "en", first_id=700)[0]
    table = await tg.wait_for(lambda: bed.table_message(tid))
    my_hand = f"mj1:h:{tid}:-:"
    await tg.wait_for(lambda: any(b.get("callback_data") == my_hand for b in table.buttons))
    v = version(bed, tid)
    mine = await tg.press(stranger.user, table, my_hand)
    assert mine.show_alert and mine.text == render_error("not_seated", {}, translator("en"))
    snap = bed.manager.get(tid)
    assert snap is not None
    actor = next(p for p in people if snap.seat_of(f"tg:{p.user_id}") == snap.to_act)
    hand = await tg.wait_for(lambda: bed.hand_message(actor, tid))
    forged = next(b["callback_data"] for b in hand.buttons if str(b.get("callback_data", "")).startswith("mj1:a:"))
    answer = await tg.press(stranger.user, hand, forged)
    assert answer.show_alert and answer.text == render_error("not_seated", {}, translator("en"))
    assert version(bed, tid) == v
    # A seated person's "My hand" shows their hand in the group, to them only (Bot API 10.2).
    own = await tg.press(actor.user, table, my_hand)
    assert not own.show_alert
    shown = await tg.wait_for(lambda: tg.visible_ephemerals(actor.user_id, GROUP))
    assert shown[-1].text.startswith("Your hand") and not tg.visible_ephemerals(stranger.user_id)


@pytest.mark.slow
@pytest.mark.parametrize("delete_table_message", [False, True])
async def test_restart_mid_deal_continues_the_same_messages(bed: Bed, delete_table_message: bool) -> None:
    tg = bed.tg
    tid, people = await seated_table(bed)
    await play_out(bed, tid, people, random.Random(3), stop=lambda: version(bed, tid) >= 12)
    await bed.drain()
    snap = bed.manager.get(tid)
    assert snap is not None and snap.public is not None and snap.public["phase"] == "play"
    table_mid = int(snap.table.message_ids[f"table:{tid}"])
    hand_mids = {p.user_id: int(snap.table.message_ids[f"hand:{tid}:tg:{p.user_id}"]) for p in people}
    edits_before = len(tg.messages[GROUP][table_mid].history)
    if delete_table_message:
        tg.delete_message(GROUP, table_mid)

    await bed.restart()
    await tg.wait_for(lambda: bed.manager.get(tid) is not None)
    assert version(bed, tid) == snap.table.version
    await play_out(bed, tid, people, random.Random(4))
    await bed.drain()

    assert (await bed.manager.table_results(tid)) is not None
    tables = [m for m in tg.bot_messages(GROUP) if m.text.startswith(f"Syrian Tarneeb 41 · table {tid} ·")]
    if delete_table_message:
        assert tg.messages[GROUP][table_mid].deleted
        assert [m.message_id for m in tables] != [table_mid] and len(tables) == 1
    else:
        assert [m.message_id for m in tables] == [table_mid]
        # the restored bot goes on editing the same message (how often depends on the even pace,
        # which coalesces a burst of moves into one edit, so count only that it went on)
        assert len(tg.messages[GROUP][table_mid].history) > edits_before
    for p in people:
        later = [op for op in tg.ops[p.user_id] if op.message_id == hand_mids[p.user_id] and op.kind == "edit"]
        assert later, "the private hand is edited in place after the restart"
    assert bed.checker.violations == []


@pytest.mark.slow
async def test_5xx_and_network_errors_are_retried_with_backoff(bed: Bed) -> None:
    tg = bed.tg
    tid, people = await seated_table(bed)
    await play_out(bed, tid, people, random.Random(5), stop=lambda: version(bed, tid) >= 6)
    await bed.drain()
    tg.fail_next(GROUP, status=502, count=2)
    await play_out(bed, tid, people, random.Random(5), stop=lambda: version(bed, tid) >= 14)
    await bed.drain()
    assert [op.text for op in tg.ops[GROUP] if op.kind == "error"] == ["502", "502"]
    table = bed.table_message(tid)
    assert table is not None and table.text == bed.checker.last_put[(CHAT, f"table:{tid}")]
