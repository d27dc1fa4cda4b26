"""Four simulated people play whole matches through the real PTB Application and the fake Bot API."""

from __future__ import annotations

import random

import pytest

from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, join_url_payload, max_in_window, play_out

NAMES = {"en": ["Ali", "Huda", "Omar", "Sara"], "ar": ["علي", "هدى", "عمر", "سارة"]}
LATENCY_ALLOWANCE = 5.0
OPTIONS = {"tarneeb41": "target=1", "tarneeb": "target=31", "trix": "mode=complex"}


async def open_table(bed: Bed, game: str, lang: str) -> tuple[int, list[Player]]:
    """The first person opens a table with /new; the three others join through the deep link."""
    tg = bed.tg
    people = bed.people(NAMES[lang], lang)
    tg.add_group(GROUP, admins=[people[0].user_id])
    await tg.say(people[0].user, GROUP, f"/lang {lang}")
    await tg.wait_for(lambda: tg.bot_messages(GROUP))
    await tg.say(people[0].user, GROUP, f"/new {game} {OPTIONS[game]}")
    snap = await tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
    tid = snap.table_id
    lobby = await tg.wait_for(lambda: bed.table_message(tid))
    payload = join_url_payload(lobby)
    for p in people[1:]:
        await tg.start_bot(p.user, payload)
    await tg.wait_for(lambda: (s := bed.manager.get(tid)) is not None and s.table.status == "playing")
    return tid, people


def assert_group_budget(bed: Bed) -> None:
    """At most 20 sends+edits reached the group in any minute.

    Exactly by the times the outbox sent them; by the fake's arrival times with an allowance of
    ``LATENCY_ALLOWANCE`` scaled seconds, because the request latency (same event loop, a loaded
    machine) varied by up to ~150 ms real here, i.e. 1.5 scaled seconds at speed 10; 5 s leaves room.
    """
    assert max_in_window(bed.sent_at[CHAT], 60.0) <= 20
    assert bed.tg.max_ops_in_window(GROUP, 60.0 - LATENCY_ALLOWANCE) <= 20
    assert len(bed.sent_at[CHAT]) >= len(bed.tg.texts(GROUP))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("game", ["tarneeb41", "tarneeb", "trix"])
async def test_full_match_through_buttons(bed: Bed, game: str, lang: str) -> None:
    tid, people = await open_table(bed, game, lang)
    tally = await play_out(bed, tid, people, random.Random(7))
    await bed.drain()
    result = await bed.manager.table_results(tid)
    assert result is not None and result.game == game
    assert tally.get("ok", 0) > 40
    assert bed.checker.violations == []
    group_texts = bed.tg.texts(GROUP)
    assert set(group_texts) <= bed.checker.checked[CHAT]
    assert_group_budget(bed)
    assert {chat for chat, ops in bed.tg.ops.items() if ops} == {GROUP} | {p.user_id for p in people}
    for p in people:
        assert bed.checker.hands_seen.get(p.dm, 0) > 0
        assert set(bed.tg.texts(p.user_id)) <= bed.checker.checked[p.dm]
        sends = [op for op in bed.tg.ops[p.user_id] if op.kind == "send"]
        edits = [op for op in bed.tg.ops[p.user_id] if op.kind == "edit"]
        # the hand is sent once and edited in place; whether a "your turn" notice is ever sent here is
        # a race (it is withdrawn when the person acts before the DM budget lets it out, and this test
        # presses at once), so the fresh notice is checked where the person waits for it:
        # test_a_person_who_takes_time_gets_a_fresh_turn_message
        assert len(sends) >= 1 and len(edits) > 10
    await press_play_again(bed, tid, people, lang, swap=game != "trix")


def buttons(message: object) -> dict[str, str]:
    """A message's inline buttons: label -> callback data."""
    markup = getattr(message, "markup", None) or {}
    return {b["text"]: b.get("callback_data", "") for row in markup.get("inline_keyboard", []) for b in row}


async def press_play_again(bed: Bed, tid: int, people: list[Player], lang: str, *, swap: bool) -> None:
    """The match result offers Play again (and Swap partners where partners play); a press opens a lobby
    with the same four, which one of them starts."""
    tg = bed.tg
    again, swapped = ("مباراة جديدة", "مباراة بتبديل الشركاء") if lang == "ar" else ("Play again", "Swap partners")
    result = tg.last_bot_message(GROUP, lambda m: again in buttons(m))
    assert result is not None and str(tid) in result.text
    # four people, no AI seat: the match counts in the season, and its result says what it did to each rating
    arrow, season = ("←", "تقييمات الموسم:") if lang == "ar" else ("→", "Season ratings:")
    assert season in result.text
    assert sum(1 for line in result.text.split("\n") if arrow in line and "(" in line) == 4  # provisional, new
    assert (swapped in buttons(result)) == swap
    label = swapped if swap else again
    answer = await tg.press(people[1].user, result, buttons(result)[label])
    assert not answer.show_alert, answer.text
    new = await tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
    assert new.table_id != tid and new.table.status == "lobby" and new.table.lang == lang
    order = [people[0], people[2], people[1], people[3]] if swap else people
    assert [s.player_id for s in new.table.seats] == [f"tg:{p.user_id}" for p in order]
    lobby = await tg.wait_for(lambda: bed.table_message(new.table_id))
    again_answer = await tg.press(people[2].user, result, buttons(result)[label])  # pressed again: no second
    assert not again_answer.show_alert and bed.manager.table_in_chat(CHAT).table_id == new.table_id  # type: ignore[union-attr]
    begin = next(data for text, data in buttons(lobby).items() if data.startswith("mj1:b:"))
    await tg.press(people[3].user, lobby, begin)
    await tg.wait_for(lambda: (s := bed.manager.get(new.table_id)) is not None and s.table.status == "playing")


@pytest.mark.slow
async def test_a_person_who_takes_time_gets_a_fresh_turn_message(bed: Bed) -> None:
    """Between two of a person's turns a new message (a notification) reaches their private chat."""
    tid, people = await open_table(bed, "tarneeb41", "en")
    prefix = f"mj1:a:{tid}:"
    rng = random.Random(3)

    def sends(user_id: int) -> int:
        return len([op for op in bed.tg.ops[user_id] if op.kind == "send"])

    at_press: dict[int, int] = {}
    last = None
    turns = 0
    while turns < 12:
        mover = next((p for p in people if (m := bed.hand_message(p, tid)) is not None
                      and any(str(b.get("callback_data", "")).startswith(prefix) for b in m.buttons)), None)
        if mover is None:
            before = bed.tg.requests
            await bed.tg.wait_for(lambda b=before: bed.tg.requests > b, timeout=20)
            continue
        if mover.user_id in at_press and mover is not last:  # their turn came back: a fresh message
            await bed.tg.wait_for(lambda u=mover.user_id: sends(u) > at_press[u], timeout=20)
        m = bed.hand_message(mover, tid)
        assert m is not None
        moves = [b["callback_data"] for b in m.buttons if str(b.get("callback_data", "")).startswith(prefix)]
        at_press[mover.user_id] = sends(mover.user_id)
        version = bed.manager.get(tid).table.version  # type: ignore[union-attr]
        answer = await bed.tg.press(mover.user, m, rng.choice(moves))
        assert not answer.text or answer.text.startswith("Your turn"), answer.text  # accepted
        await bed.tg.wait_for(lambda v=version: bed.manager.get(tid).table.version > v)  # type: ignore[union-attr]
        await bed.drain()  # every hand shows the new state before the next person looks
        last = mover
        turns += 1
    assert len(at_press) == 4
