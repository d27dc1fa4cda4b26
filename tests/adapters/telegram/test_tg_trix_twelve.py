"""Issue 31's proof of a whole Trix tournament in pools of four: twelve people in a Telegram group
through the real python-telegram-bot and the fake Bot API, on the fake clock, in English and Arabic.
Thirteen register by the message's buttons and one never checks in, so twelve play in three pools
and no AI is needed. Round 1: one pool plays a whole Trix game through the table's buttons (the only
game of the test: about 40 s through the library); its points go into review with **Flag the
result**; a person of another pool pressing it is refused; one of its people flags it with a reason,
the organiser is told in private with the pool's four people and their Trix scores; a second flag is
refused; the other two pools are decided by the forfeit rule at the deadline (two and three of
four ready); the round waits for the organiser, whose `winner` is refused for a pool and whose
`uphold` opens round 2. Round 2 is decided by the forfeit rule; the champion tops the standings.
"""

from __future__ import annotations

import random

import pytest

from bot.core import pools
from bot.core.tournaments import champion, people_of
from storage.tournaments import How, MatchStatus, TourneyStatus
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, play_out
from tests.adapters.telegram.test_tg_tournament import Run, plain, wait_until
from tests.adapters.telegram.test_tg_tournament_review import WORDS as REVIEW

MINUTE = 60.0
NAMES = {
    "en": ["Organiser", "Ali", "Huda", "Omar", "Sara", "Zaid", "Rana", "Karim", "Maya", "Nour", "Hadi", "Dana",
           "Fadi", "Lina"],
    "ar": ["المنظّم", "علي", "هدى", "عمر", "سارة", "زيد", "رنا", "كريم", "مايا", "نور", "هادي", "دانة", "فادي",
           "لينا"],
}
WORDS = {
    "en": {"title": "Trix tournament: pools of four, each player alone", "register": "Register",
           "checkin": "Check in", "in_review": "in review until", "after1": "Standings after round 1:",
           "champion": "Champion:", "final": "Final standings:", "trix_score": "Trix score",
           "pool_winner": "A trix pool has no winner to set", "forfeit": "not played by the deadline",
           "notice": "flagged pool 1-1", "log_uphold": "upheld the result of pool 1-1"},
    "ar": {"title": "مجموعات من أربعة، كل لاعب لنفسه", "register": "سجّلني", "checkin": "أكّد حضورك",
           "in_review": "قيد المراجعة حتى الساعة", "after1": "الترتيب بعد الدور 1:", "champion": "البطل:",
           "final": "الترتيب النهائي:", "trix_score": "رصيد التركس",
           "pool_winner": "ليس لمجموعة التركس فائز يُعيَّن", "forfeit": "لم تُلعب قبل انتهاء المهلة",
           "notice": "على المجموعة 1-1", "log_uphold": "أقرّ نتيجة المجموعة 1-1"},
}


@pytest.mark.slow  # one whole Trix game through the real library: 40 to 70 s a language
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_twelve_people_play_a_trix_tournament_with_a_no_show_forfeits_a_flagged_pool_and_a_champion(
        bed: Bed, lang: str) -> None:
    tg, clock = bed.tg, bed.clock
    w, r = WORDS[lang], REVIEW[lang]
    run = Run(bed, lang)
    people = bed.people(NAMES[lang], lang, first_id=801)
    run.organiser, run.players = people[0], people[1:]
    await run.in_group()
    first = await run.opens("/tournament new trix rounds=2 start=10 checkin=5 round=5 review=10")
    assert w["title"] in plain(first.text)
    t = await run.stored()
    assert (t.game, t.format, t.review_minutes, t.ai_allowed) == ("trix", "pools:2", 10, False)

    # thirteen register by the button; check-in opens on the clock; the last never checks in
    for p in run.players:
        await run.accepted(p, w["register"])
    assert len((await run.stored()).players) == 13
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    absent = run.players[-1]
    for p in run.players[:-1]:
        await run.accepted(p, w["checkin"])
    clock.advance(5 * MINUTE)  # the start, on the clock
    await bed.manager.tournaments.tick()
    t = await run.stored()
    assert t.status == TourneyStatus.RUNNING
    assert len(t.entries) == 12 and not any(e.ai for e in t.entries)  # twelve: three whole pools, no AI
    assert f"tg:{absent.user_id}" not in {pid for e in t.entries for pid in e.players}
    r1 = sorted((m for m in t.matches if m.round == 1), key=lambda m: m.slot)
    assert [len(m.pool) for m in r1] == [4, 4, 4] and all(m.status == MatchStatus.CALLED for m in r1)
    played, two, three = r1

    # two of the second pool and three of the third press Ready (forfeits at the deadline); the first
    # pool's four press Ready and its table opens in the group
    for m, n in ((two, 2), (three, 3), (played, 4)):
        for pid in people_of(t, m)[0][:n]:
            await run.accepted(run.by_id(pid), r["ready"])
    t = await run.stored()
    m = t.match(1, played.slot)
    assert m is not None and m.status == MatchStatus.PLAYING and m.table_id is not None
    snap = bed.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table.game == "trix"
    assert [s.player_id for s in snap.table.seats] == list(people_of(t, m)[0])  # the pool's seat order
    pool_people = [run.by_id(pid) for pid in people_of(t, m)[0]]
    await play_out(bed, m.table_id, pool_people, random.Random(7), max_presses=60_000)
    await bed.manager.drain()
    await bed.manager.tournaments.settle()

    async def in_review() -> bool:
        x = (await run.stored()).match(1, played.slot)
        return x is not None and x.status == MatchStatus.REVIEW

    await wait_until(in_review)
    t = await run.stored()
    m = t.match(1, played.slot)
    assert m is not None and m.review_until == clock.now() + 10 * MINUTE
    result = await bed.manager.repo.table_results(m.table_id or 0)
    assert result is not None
    assert m.scores == tuple(next(x.score for x in result.results if x.seat == s and not x.left) for s in range(4))
    assert m.points == pools.halves_by_rank(m.scores)
    assert all(s.halves == 0 for s in pools.table(t))  # provisional: not in the standings yet
    shown = plain((await run.says(w["in_review"])).text)
    assert all(p.user.first_name in shown for p in pool_people)

    # Flag the result: refused to a person of another pool; one of the pool flags it with the command
    msg = await run.shows(r["flag"])
    data = next(b["callback_data"] for b in msg.buttons if plain(b.get("text", "")) == r["flag"])
    await run.refused(run.by_id(people_of(t, two)[0][0]), data, r["no_review"])
    flagger = pool_people[3]
    await tg.say(flagger.user, GROUP, "/tournament flag the scores look wrong")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda x: r["flagged_reply"] in plain(x.text)))
    notice = await tg.wait_for(lambda: tg.last_bot_message(
        run.organiser.user_id, lambda x: "the scores look wrong" in x.text), timeout=30)
    text = plain(notice.text)
    assert w["notice"] in text and r["deal"] in text  # the pool by its label, each deal's result
    assert all(p.user.first_name in text for p in pool_people) and text.count(w["trix_score"]) == 4
    await run.refused(pool_people[0], data, r["flagged"])  # flagged already

    # the deadline: the forfeit rule decides the other two pools; the flagged pool waits
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    x = t.match(1, two.slot)
    assert x is not None and (x.how, x.points) == (How.FORFEIT, (7, 7, 0, 0))
    x = t.match(1, three.slot)
    assert x is not None and (x.how, x.points) == (How.FORFEIT, (6, 6, 6, 0))
    x = t.match(1, played.slot)
    assert x is not None and x.status == MatchStatus.REVIEW and x.flagged_by == f"tg:{flagger.user_id}"
    assert len(t.rounds) == 1 and t.next_at is None  # no timeout: the organiser decides
    await run.says(w["forfeit"])

    # the organiser: a winner is refused for a pool (nothing changes), then the result is upheld
    before = await run.stored()
    await tg.say(run.organiser.user, GROUP, f"/tournament decide 1-{played.slot + 1} winner {played.pool[0]}")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda x: w["pool_winner"] in plain(x.text)))
    assert await run.stored() == before
    await tg.say(run.organiser.user, GROUP, f"/tournament decide 1-{played.slot + 1} uphold")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda x: r["decided"] in plain(x.text)))
    t = await run.stored()
    x = t.match(1, played.slot)
    assert x is not None and x.status == MatchStatus.DONE and x.points == m.points and len(t.rounds) == 2
    assert {s.entry: s.halves for s in pools.table(t)}[played.pool[0]] == m.points[0]
    await run.says(w["after1"])

    # round 2: one ready in the first pool, two in the second, nobody in the third; the deadline decides
    r2 = sorted((m for m in t.matches if m.round == 2), key=lambda m: m.slot)
    for m2, n in zip(r2, (1, 2, 0), strict=True):
        for pid in people_of(t, m2)[0][:n]:
            await run.accepted(run.by_id(pid), r["ready"])
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    assert t.status == TourneyStatus.FINISHED and t.next_at is None
    assert [x.points for x in sorted((x for x in t.matches if x.round == 2), key=lambda x: x.slot)] == [
        (8, 0, 0, 0), (7, 7, 0, 0), (0, 0, 0, 0)]
    table = pools.table(t)
    won = champion(t)
    assert won is not None and won.number == table[0].entry and len(table) == 12
    final = plain((await run.says(w["champion"])).text)
    assert f"{w['champion']} {run.by_id(won.players[0]).user.first_name}" in final and w["final"] in final
    assert run.message().buttons == []
    actions = [a.action for a in t.audit]
    for one in ("result", "flag", "uphold", "champion", "dropped"):
        assert actions.count(one) == 1, one
    await tg.say(run.organiser.user, GROUP, "/tournament audit")
    log = await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda x: r["log"] in plain(x.text)))
    assert w["log_uphold"] in plain(log.text)
    assert bed.manager.table_in_chat(CHAT) is None
    await bed.drain()
    assert bed.checker.violations == [], [(v.dest, v.card, v.text[:60]) for v in bed.checker.violations]
