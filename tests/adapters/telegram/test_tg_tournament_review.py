"""A tournament match's review window in a Telegram group through the real python-telegram-bot and the
fake Bot API, in English and Arabic: the final is played through the table's buttons; its result is in
review (the message says until when, with a Flag button); a stranger's Flag is refused and changes
nothing; a player of the match flags it with ``/tournament flag <reason>`` and the organiser is told
in private, with each deal's result; a second flag is refused; the window's end does not decide a
flagged match; a player's ``/tournament decide`` is refused; the organiser sets the other pair as the
winner; the champion and ``/tournament audit`` show it.
"""

from __future__ import annotations

import random

import pytest

from bot.core.tournaments import champion, people_of
from storage.tournaments import How, MatchStatus, TourneyStatus
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, play_out
from tests.adapters.telegram.test_tg_tournament import SHORT, Run, plain, wait_until

MINUTE = 60.0
WORDS = {
    "en": {"register": "Register", "start": "Start now (organiser)", "ready": "Ready", "flag": "Flag the result",
           "in_review": "result in review until", "flagged_line": "the organiser decides",
           "no_review": "You played no match whose result is in review.",
           "flagged": "Your match is flagged already: the organiser decides.",
           "organiser_only": "Only the organiser or an admin may do that.", "notice": "flagged match 1-1",
           "deal": "Deal 1:", "decided": "Decided:", "champions": "Champions:",
           "by_organiser": "the organiser decided", "log": "The tournament's log", "log_flag": "flagged match 1-1",
           "log_winner": "set the winner of match 1-1", "flagged_reply": "Flagged:"},
    "ar": {"register": "سجّلني", "start": "ابدأ الآن (للمنظّم)", "ready": "جاهز", "flag": "اعتراض",
           "in_review": "قيد المراجعة حتى الساعة", "flagged_line": "والقرار للمنظّم",
           "no_review": "ليست لك مباراة نتيجتها قيد المراجعة.",
           "flagged": "اعتُرض على مباراتك من قبل، والقرار للمنظّم.",
           "organiser_only": "هذا للمنظّم أو لمشرف المجموعة فقط.", "notice": "على المباراة 1-1",
           "deal": "التوزيعة 1:", "decided": "تمّ القرار", "champions": "الأبطال:",
           "by_organiser": "قرّر المنظّم", "log": "سجلّ البطولة", "log_flag": "اعترض على المباراة 1-1",
           "log_winner": "حدّد الفائز في المباراة 1-1", "flagged_reply": "سُجّل اعتراضك"},
}
NAMES = {"en": ["Organiser", "Ali", "Huda", "Omar", "Sara"], "ar": ["المنظّم", "علي", "هدى", "عمر", "سارة"]}


@pytest.mark.slow  # a whole match through the real library: about 6 s
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_flag_in_the_review_window_waits_for_the_organiser_who_sets_the_winner(bed: Bed, lang: str) -> None:
    tg, clock = bed.tg, bed.clock
    w = WORDS[lang]
    run = Run(bed, lang)
    people = bed.people(NAMES[lang], lang, first_id=601)
    run.organiser, run.players = people[0], people[1:]
    await run.in_group()
    await run.opens(f"/tournament new tarneeb41 draw start=10 checkin=5 round=5 {SHORT}")
    assert (await run.stored()).review_minutes == 10  # the default window
    for p in run.players:
        await run.accepted(p, w["register"])
    await run.accepted(run.organiser, w["start"])  # before check-in: everyone registered plays
    t = await run.stored()
    final = t.match(1, 0)
    assert t.status == TourneyStatus.RUNNING and final is not None and final.status == MatchStatus.CALLED
    a, b = people_of(t, final)
    for pid in (*a, *b):
        await run.accepted(run.by_id(pid), w["ready"])
    t = await run.stored()
    final = t.match(1, 0)
    assert final is not None and final.status == MatchStatus.PLAYING and final.table_id is not None
    await play_out(bed, final.table_id, [run.by_id(pid) for pid in (*a, *b)], random.Random(3))
    await bed.manager.drain()
    await bed.manager.tournaments.settle()

    async def in_review() -> bool:
        m = (await run.stored()).match(1, 0)
        return m is not None and m.status == MatchStatus.REVIEW

    await wait_until(in_review)
    t = await run.stored()
    final = t.match(1, 0)
    assert final is not None and final.how == How.PLAYED and final.winner is not None
    assert t.status == TourneyStatus.RUNNING and t.next_at == final.review_until  # the window's end is due
    result = await bed.manager.repo.table_results(final.table_id or 0)
    assert result is not None
    assert final.winner == (final.a if any(r.won for r in result.results if r.seat in (0, 2)) else final.b)
    shown = plain((await run.shows(w["flag"])).text)
    assert w["in_review"] in shown

    # a stranger's Flag is refused; a player of the losing pair flags with a reason
    loser = final.b if final.winner == final.a else final.a
    losers = a if loser == final.a else b
    await run.refused(run.stranger, f"mj1:o:{run.tid}:-:flag", w["no_review"])
    flagger = run.by_id(losers[0])
    await tg.say(flagger.user, GROUP, "/tournament flag the bid was hidden")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: w["flagged_reply"] in plain(m.text)))
    t = await run.stored()
    m = t.match(1, 0)
    assert m is not None and (m.flagged_by, m.flag_reason) == (f"tg:{flagger.user_id}", "the bid was hidden")
    assert t.next_at is None  # no timeout: the organiser decides
    await run.says(w["flagged_line"])
    notice = await tg.wait_for(lambda: tg.last_bot_message(run.organiser.user_id,
                                                           lambda x: w["notice"] in plain(x.text)), timeout=30)
    assert "the bid was hidden" in notice.text and w["deal"] in plain(notice.text)
    assert flagger.user.first_name in notice.text
    await run.refused(run.by_id(losers[1]), f"mj1:o:{run.tid}:-:flag", w["flagged"])

    # the window's end does not decide a flagged match; a player may not decide; the organiser does
    clock.advance(11 * MINUTE)
    await bed.manager.tournaments.tick()
    assert (await run.stored()).match(1, 0).status == MatchStatus.REVIEW  # type: ignore[union-attr]
    before = await run.stored()
    await tg.say(flagger.user, GROUP, "/tournament decide 1-1 uphold")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda x: plain(x.text) == w["organiser_only"]))
    assert await run.stored() == before
    await tg.say(run.organiser.user, GROUP, f"/tournament decide 1-1 winner {loser}")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda x: w["decided"] in plain(x.text)))
    t = await run.stored()
    m = t.match(1, 0)
    assert m is not None and (m.winner, m.how) == (loser, How.ORGANISER)
    assert t.status == TourneyStatus.FINISHED and champion(t) == t.entry(loser)
    names = [run.by_id(pid).user.first_name for pid in losers]
    done = plain((await run.says(w["champions"])).text)
    assert all(n in done for n in names) and w["by_organiser"] in done
    assert [(x.actor, x.action) for x in t.audit if x.action in ("flag", "winner")] == [
        (f"tg:{flagger.user_id}", "flag"), (f"tg:{run.organiser.user_id}", "winner")]

    # the log, readable: names and what was done
    await tg.say(run.players[0].user, GROUP, "/tournament audit")
    log = await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda x: w["log"] in plain(x.text)))
    text = plain(log.text)
    assert w["log_flag"] in text and w["log_winner"] in text and "the bid was hidden" in text
    assert flagger.user.first_name in text and run.organiser.user.first_name in text and "tg:" not in text
    assert bed.manager.table_in_chat(CHAT) is None
    await bed.drain()
    assert bed.checker.violations == []
