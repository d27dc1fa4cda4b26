"""A tournament in a Telegram forum group through the real python-telegram-bot and the fake Bot API
(bot/core/venues.py, bot/adapters/telegram/venues.py), in Arabic: round 1's two matches are called
and their players told in private (but the one who typed ``/notify matches off``), and the one who
asked for table calls mentioned in the group, nobody else; all press Ready;
each match gets a forum topic named after it and its table opens there at once, while the tournament's
message stays in the group and names each topic; both matches are played through their tables'
buttons and recorded (the tables' chats are the topics); the final is called. A forum where the bot
may not manage topics plays in the group, one match after another, and says so once. (A group that is
not a forum plays one match after another as before: tests/adapters/telegram/test_tg_tournament.py.)
"""

from __future__ import annotations

import random

import pytest

from bot.core.tournaments import people_of
from storage.tournaments import How, MatchStatus
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, play_out
from tests.adapters.telegram.test_tg_tournament import SHORT, Run, plain, wait_until


async def started(bed: Bed, lang: str, quiet: int | None = None, caller: int | None = None) -> Run:
    """The group's knockout of eight, everyone registered, started by the organiser (before check-in);
    player number ``quiet`` turned their match pings off first; with ``caller``, the group allows table
    calls and that player asked for them."""
    tg = bed.tg
    run = Run(bed, lang)
    w = run.words
    await run.lang_set()
    if quiet is not None:
        who = run.players[quiet]
        await tg.say(who.user, GROUP, "/notify matches off")
        await tg.wait_for(lambda: any("in private: off" in plain(m.text) or "على الخاص: متوقف" in m.text
                                      for m in tg.bot_messages(GROUP)))
    if caller is not None:
        await tg.say(run.organiser.user, GROUP, "/settings notify=on")
        await tg.say(run.players[caller].user, GROUP, "/notify tables on")
        await tg.wait_for(lambda: any("نداء الطاولات في هذه المجموعة: مفعّل" in m.text or "Table calls in this chat: on"
                                      in m.text for m in tg.bot_messages(GROUP)))
    await run.opens(f"/tournament new tarneeb41 draw start=30 checkin=10 review=0 {SHORT}")
    for p in run.players[:8]:
        await run.accepted(p, w["register"])
    await run.accepted(run.organiser, w["start"])
    return run


def pings(bed: Bed, who: Player) -> list[str]:
    """What ``who`` was told in private of their tournament matches (Arabic or English)."""
    return [plain(m.text) for m in bed.tg.messages[who.user_id].values() if m.from_bot and any(
        k in m.text for k in ("نودي على مباراتك", "فُتحت طاولة مباراتك", "Your match", "The table of your match"))]


@pytest.mark.slow  # two whole matches through the real library: about 15 s
async def test_a_forum_group_gets_a_topic_per_match_and_its_matches_are_played_at_once(bed: Bed) -> None:
    tg = bed.tg
    chat = tg.add_group(GROUP, forum=True, admins=[501])
    run = await started(bed, "ar", quiet=7, caller=0)  # the organiser is user 501, an admin
    quiet, caller = run.players[7], run.players[0]
    t = await run.stored()
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None and (m0.status, m1.status) == (MatchStatus.CALLED,) * 2
    playing = [run.by_id(pid) for m in (m0, m1) for side in people_of(t, m) for pid in side]
    assert quiet in playing

    # called: each told in private, in Arabic, but the one who turned it off
    for p in playing:
        if p is not quiet:
            await tg.wait_for(lambda p=p: any("نودي على مباراتك" in x for x in pings(bed, p)), timeout=30)
    assert pings(bed, quiet) == []
    # in public, only the one who asked for table calls is mentioned, in the group, at the call
    called = await tg.wait_for(lambda: next((m for m in tg.bot_messages(GROUP) if m.mentioned), None), timeout=30)
    assert called.mentioned == [caller.user_id] and called.thread_id is None and "نودي على مباراتكم" in called.text

    for p in playing:
        await run.accepted(p, run.words["ready"])

    async def both_playing() -> bool:
        t = await run.stored()
        return all((x := t.match(1, s)) is not None and x.status == MatchStatus.PLAYING for s in (0, 1))

    await wait_until(both_playing)
    t = await run.stored()
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None
    # a topic per match, named after it; each topic is its own chat with its live table, both at once
    assert len(chat.topics) == 2 and bed.manager.table_in_chat(CHAT) is None
    for (thread, name), m in zip(chat.topics.items(), (m0, m1), strict=True):
        a, b = people_of(t, m)
        assert name.startswith("الدور ") and " ضد " in name
        assert all(run.by_id(pid).user.first_name in name for pid in (*a, *b))
        snap = bed.manager.table_in_chat(f"{CHAT}/{thread}")
        assert snap is not None and snap.table_id == m.table_id and snap.table.status == "playing"
        assert snap.table.lang == "ar"  # the topic speaks its group's language
        await tg.wait_for(lambda thread=thread: tg.bot_messages(GROUP, thread_id=thread), timeout=30)
    # the tournament's message stays in the group (not in a topic) and names each match's topic
    assert run.message().thread_id is None
    await run.says(f"«{next(iter(chat.topics.values()))}»")
    await run.says(f"«{list(chat.topics.values())[1]}»")
    # the table opened: each player told where, with the topic's link
    for (thread, name), m in zip(chat.topics.items(), (m0, m1), strict=True):
        for pid in (*people_of(t, m)[0], *people_of(t, m)[1]):
            p = run.by_id(pid)
            if p is quiet:
                continue
            told = await tg.wait_for(lambda p=p: next((x for x in pings(bed, p) if "فُتحت طاولة مباراتك" in x), None),
                                     timeout=30)
            assert f"«{name}»" in told and f"https://t.me/c/{str(GROUP)[4:]}/{thread}" in told
    assert pings(bed, quiet) == []
    # the caller is mentioned again in the topic of their match, when its table opens
    mine = next(thread for thread, m in zip(chat.topics, (m0, m1), strict=True)
                if f"tg:{caller.user_id}" in (*people_of(t, m)[0], *people_of(t, m)[1]))
    there = await tg.wait_for(lambda: next((m for m in tg.bot_messages(GROUP, thread_id=mine) if m.mentioned), None),
                              timeout=30)
    assert there.mentioned == [caller.user_id]
    assert {uid for m in tg.messages[GROUP].values() if m.from_bot for uid in m.mentioned} == {caller.user_id}

    # both played through their tables' buttons (the hands come in private); both recorded
    rng = random.Random(3)
    for m in (m0, m1):
        a, b = people_of(t, m)
        assert m.table_id is not None
        tally = await play_out(bed, m.table_id, [run.by_id(pid) for pid in (*a, *b)], rng)
        assert tally.get("ok", 0) > 10
    await bed.manager.drain()
    await bed.manager.tournaments.settle()

    async def recorded() -> bool:
        t = await run.stored()
        return all((x := t.match(1, s)) is not None and x.status == MatchStatus.DONE for s in (0, 1))

    await wait_until(recorded)
    t = await run.stored()
    for thread, slot in zip(chat.topics, (0, 1), strict=True):
        m = t.match(1, slot)
        assert m is not None and m.how == How.PLAYED and m.table_id is not None
        record = await bed.manager.repo.get_table(m.table_id)
        assert record is not None and record.chat_id == f"{CHAT}/{thread}"
    final = t.match(2, 0)
    assert final is not None and final.status == MatchStatus.CALLED
    assert pings(bed, quiet) == []


@pytest.mark.slow  # a tournament through the real library: about 4 s
async def test_a_forum_where_the_bot_may_not_manage_topics_plays_in_the_group_and_says_so_once(bed: Bed) -> None:
    tg = bed.tg
    chat = tg.add_group(GROUP, forum=True, admins=[501])
    chat.bot_manages_topics = False
    run = await started(bed, "en")
    t = await run.stored()
    for m in (t.match(1, 0), t.match(1, 1)):
        assert m is not None
        for pid in (*people_of(t, m)[0], *people_of(t, m)[1]):
            await run.accepted(run.by_id(pid), run.words["ready"])
    t = await run.stored()
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None
    assert (m0.status, m1.status) == (MatchStatus.PLAYING, MatchStatus.CALLED) and chat.topics == {}
    snap = bed.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table_id == m0.table_id
    assert [a.action for a in t.audit].count("venues_off") == 1
    said = "The bot may not open a thread or topic per match here"
    msg = await run.says(said)
    assert plain(msg.text).count(said) == 1
