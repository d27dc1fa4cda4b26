"""Hands in the group, each to its player only (Bot API 10.2 ephemeral messages), through the real
python-telegram-bot against the fake Bot API, which shows each ephemeral message to its receiver only."""

from __future__ import annotations

import random

import pytest

from tests.adapters.telegram.fake_server import FakeEphemeral
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, choose, join_url_payload
from tests.adapters.telegram.test_tg_match import assert_group_budget, buttons

NAMES = ["Ali", "Huda", "Omar", "Sara"]


async def seat_four(bed: Bed, *, hands: str | None = None) -> tuple[int, list[Player]]:
    """Ali opens a Tarneeb 41 table (target 1); Huda joins through the deep link (she started the bot);
    Omar and Sara never started the bot and sit down with /join in the group."""
    tg = bed.tg
    started = bed.people(NAMES[:2], "en")
    strangers = bed.people(NAMES[2:], "en", started=False, first_id=503)
    people = started + strangers
    tg.add_group(GROUP, admins=[people[0].user_id])
    if hands is not None:
        await tg.say(people[0].user, GROUP, f"/settings hands={hands}")
        await tg.wait_for(lambda: any("Hands:" in m.text for m in tg.bot_messages(GROUP)))
    await tg.say(people[0].user, GROUP, "/new tarneeb41 target=1")
    snap = await tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
    tid = snap.table_id
    lobby = await tg.wait_for(lambda: bed.table_message(tid))
    if hands == "group":  # nobody needs the private chat: the lobby's Join is a button of the group
        join = next(data for data in buttons(lobby).values() if data.startswith("mj1:j:"))
        for p in people[1:]:
            await tg.press(p.user, lobby, join)
    else:
        await tg.start_bot(people[1].user, join_url_payload(lobby))
        for p in strangers:
            await tg.say(p.user, GROUP, "/join")
    await tg.wait_for(lambda: (s := bed.manager.get(tid)) is not None and s.table.status == "playing")
    return tid, people


def my_hand(bed: Bed, p: Player) -> FakeEphemeral | None:
    """The newest ephemeral message ``p`` sees in the group."""
    seen = bed.tg.visible_ephemerals(p.user_id, GROUP)
    return seen[-1] if seen else None


async def press_my_hand(bed: Bed, tid: int, p: Player) -> None:
    def shown() -> tuple[object, str] | None:  # the table message, once it shows the match (My hand)
        table = bed.table_message(tid)
        mine = [data for data in buttons(table).values() if data.startswith("mj1:h:")] if table else []
        return (table, mine[0]) if mine else None

    table, mine = await bed.tg.wait_for(shown)
    answer = await bed.tg.press(p.user, table, mine)
    assert not answer.show_alert, answer.text  # answered with the ephemeral hand, not an alert


def moves(message: object, tid: int) -> list[str]:
    prefix = f"mj1:a:{tid}:"
    return [str(b["callback_data"]) for b in getattr(message, "buttons", [])
            if str(b.get("callback_data", "")).startswith(prefix)]


async def play_mixed(bed: Bed, tid: int, dm_players: list[Player], group_players: list[Player],
                     rng: random.Random) -> dict[str, int]:
    """Everyone presses a move whenever their hand offers some: in the private chat for the first, on
    their ephemeral hand in the group for the others (fetched with My hand when they see none)."""
    tally: dict[str, int] = {}
    pressed: set[tuple[int, int, int]] = set()
    for _ in range(20_000):
        snap = bed.manager.get(tid)
        if snap is None or snap.table.status != "playing":
            return tally
        acted = False
        for p in dm_players:
            m = bed.hand_message(p, tid)
            if m is None or not moves(m, tid) or (key := (p.user_id, m.message_id, len(m.history))) in pressed:
                continue
            pressed.add(key)
            answer = await bed.tg.press(p.user, m, choose("tarneeb41", moves(m, tid), rng))
            tally[answer.text or "ok"] = tally.get(answer.text or "ok", 0) + 1
            acted = True
        for p in group_players:
            e = my_hand(bed, p)
            if e is None:
                await press_my_hand(bed, tid, p)
                await bed.tg.wait_for(lambda p=p: my_hand(bed, p) is not None)
                acted = True
                continue
            if not moves(e, tid) or (key := (p.user_id, -e.ephemeral_id, len(e.history))) in pressed:
                continue
            pressed.add(key)
            answer = await bed.tg.press_ephemeral(p.user, e, choose("tarneeb41", moves(e, tid), rng))
            tally[answer.text or "ok"] = tally.get(answer.text or "ok", 0) + 1
            acted = True
        if not acted:
            before = bed.tg.requests
            await bed.tg.wait_for(lambda b=before: bed.tg.requests > b or bed.manager.get(tid) is None
                                  or bed.manager.get(tid).table.status != "playing", timeout=20)  # type: ignore[union-attr]
    raise AssertionError("the match does not end")


def assert_ephemerals_private(bed: Bed, people: list[Player]) -> None:
    """Each ephemeral message went to one seated member and showed no card but theirs (the privacy
    checker, which reads every one of them against the engine's hands when it is rendered); what each
    member sees of the group holds no one's hand: no ephemeral text was ever a message of the group."""
    ids = {p.user_id for p in people}
    group_texts = set(bed.tg.texts(GROUP))
    for e in bed.tg.ephemerals.values():
        assert e.chat_id == GROUP and e.receiver in ids
        assert not group_texts & set(e.history)
    for p in people:
        assert all(e.receiver == p.user_id for e in bed.tg.visible_ephemerals(p.user_id))
        mine = {text for e in bed.tg.ephemerals.values() if e.receiver == p.user_id and e.delivered
                for text in e.history}
        assert set(bed.tg.seen_by(p.user_id, GROUP)) <= group_texts | mine


@pytest.mark.slow
async def test_a_whole_match_where_two_players_never_started_the_bot(bed: Bed) -> None:
    tid, people = await seat_four(bed)
    dm_players, strangers = people[:2], people[2:]
    tally = await play_mixed(bed, tid, dm_players, strangers, random.Random(5))
    await bed.drain()
    result = await bed.manager.table_results(tid)
    assert result is not None and result.game == "tarneeb41"
    assert tally.get("ok", 0) > 40
    assert bed.checker.violations == []
    assert_ephemerals_private(bed, people)
    assert_group_budget(bed)  # the ephemeral hands are not the group's messages
    for p in strangers:
        mine = [e for e in bed.tg.ephemerals.values() if e.receiver == p.user_id]
        assert mine and sum(len(e.history) for e in mine) > 10  # sent, then kept current by editing
        assert bed.tg.ops[p.user_id] == []  # nothing ever reached a private chat they never opened
    for p in dm_players:
        assert not [e for e in bed.tg.ephemerals.values() if e.receiver == p.user_id]
        assert len([op for op in bed.tg.ops[p.user_id] if op.kind == "edit"]) > 10


async def test_a_hand_that_was_not_delivered_is_fetched_again_with_my_hand(bed: Bed) -> None:
    tid, people = await seat_four(bed)
    omar = people[2]
    bed.tg.drop_ephemeral(omar.user_id)  # Omar is offline when his hand is sent
    await press_my_hand(bed, tid, omar)
    await bed.tg.wait_for(lambda: [e for e in bed.tg.ephemerals.values() if e.receiver == omar.user_id])
    lost = next(e for e in bed.tg.ephemerals.values() if e.receiver == omar.user_id)
    assert not lost.delivered and my_hand(bed, omar) is None
    await press_my_hand(bed, tid, omar)  # he sees nothing, so he presses My hand again
    hand = await bed.tg.wait_for(lambda: my_hand(bed, omar))
    assert hand.ephemeral_id != lost.ephemeral_id and hand.text.startswith("Your hand")
    assert lost.deleted  # the lost one is gone; the newest state replaces it
    assert bed.checker.violations == []
    with pytest.raises(LookupError):  # nobody else sees it, so nobody else can press on it
        await bed.tg.press_ephemeral(people[3].user, hand, "mj1:h:1")


async def test_a_refused_press_on_an_ephemeral_hand_says_why_and_shows_the_newest_state(bed: Bed) -> None:
    tid, people = await seat_four(bed, hands="group")
    assert all(not bed.tg.ops[p.user_id] for p in people)  # no private chat at all
    for p in people:
        await press_my_hand(bed, tid, p)
    hands = {p.user_id: await bed.tg.wait_for(lambda p=p: my_hand(bed, p)) for p in people}
    snap = bed.manager.get(tid)
    assert snap is not None and snap.to_act is not None
    mover = next(p for p in people if f"tg:{p.user_id}" == snap.table.seats[snap.to_act].player_id)
    waiting = next(p for p in people if p is not mover)
    assert not moves(hands[waiting.user_id], tid)  # not their turn: no moves shown
    version = snap.table.version
    first = hands[mover.user_id]
    answer = await bed.tg.press_ephemeral(mover.user, first, moves(first, tid)[0])
    assert not answer.show_alert, answer.text
    await bed.tg.wait_for(lambda: bed.manager.get(tid).table.version > version)  # type: ignore[union-attr]
    again = await bed.tg.press_ephemeral(mover.user, first, moves(first, tid)[0])  # the same button twice
    assert again.show_alert and again.text
    after = bed.manager.get(tid)
    assert after is not None and after.table.version == version + 1  # the second press changed nothing
    await bed.drain()
    assert not moves(first, tid)  # edited to the newest state: no longer their turn
    assert bed.tg.max_ops_in_window(GROUP, 60.0) <= 20
    assert all(not bed.tg.ops[p.user_id] for p in people)


async def test_with_hands_in_private_chats_only_my_hand_answers_with_an_alert(bed: Bed) -> None:
    tid, people = await seat_four(bed, hands="dm")
    huda = people[1]
    table = await bed.tg.wait_for(lambda: (m := bed.table_message(tid)) is not None
                                  and any(d.startswith("mj1:h:") for d in buttons(m).values()) and m)
    mine = next(data for data in buttons(table).values() if data.startswith("mj1:h:"))
    answer = await bed.tg.press(huda.user, table, mine)
    assert answer.show_alert and answer.text
    assert bed.tg.ephemerals == {}
