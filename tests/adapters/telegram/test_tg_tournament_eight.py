"""Issue 31's proof of a whole knockout: eight pair slots of Tarneeb 41 in a Telegram group through the
real python-telegram-bot and the fake Bot API, on the fake clock, in English (drawn pairs) and Arabic
(fixed pairs). Sixteen people register by the message's buttons, one never checks in (a no-show), so
seven pairs play and the eighth slot is an AI pair (``ai=on``). Round 1: the AI pair's opponents
never come, and the AI pair wins by forfeit but cannot go on; a match is played through the table's
buttons, its result goes into review, a player flags it and the organiser upholds it; a second match
is played and its window ends unflagged; the fourth is decided by the forfeit rule. Round 2: a bye
(nobody came through the AI pair's slot) and a forfeit; the final by forfeit; the champion.
"""

from __future__ import annotations

import random

import pytest

from bot.core.tournaments import champion, people_of
from storage.tournaments import How, MatchStatus, Tournament, TourneyStatus
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, play_out
from tests.adapters.telegram.test_tg_tournament import SHORT, WORDS, Run, plain, wait_until
from tests.adapters.telegram.test_tg_tournament_review import WORDS as REVIEW

MINUTE = 60.0
NAMES = {
    "en": ["Organiser", "Ali", "Huda", "Omar", "Sara", "Zaid", "Rana", "Karim", "Maya", "Nour", "Hadi", "Dana",
           "Fadi", "Lina", "Tariq", "Reem", "Sami"],
    "ar": ["المنظّم", "علي", "هدى", "عمر", "سارة", "زيد", "رنا", "كريم", "مايا", "نور", "هادي", "دانة", "فادي",
           "لينا", "طارق", "ريم", "سامي"],
}
AI_WORDS = {"en": "🤖 AI pair", "ar": "🤖 زوج ذكاء اصطناعي"}


async def play_match(bed: Bed, run: Run, t: Tournament, slot: int, seed: int) -> None:
    """Match ``slot`` of round 1 is at the group's table: its four people play it out by buttons."""
    m = t.match(1, slot)
    assert m is not None and m.status == MatchStatus.PLAYING and m.table_id is not None
    snap = bed.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table_id == m.table_id
    a, b = people_of(t, m)
    await play_out(bed, m.table_id, [run.by_id(pid) for pid in (*a, *b)], random.Random(seed))
    await bed.manager.drain()
    await bed.manager.tournaments.settle()

    async def in_review() -> bool:
        x = (await run.stored()).match(1, slot)
        return x is not None and x.status == MatchStatus.REVIEW

    await wait_until(in_review)


@pytest.mark.slow  # two whole matches through the real library, sixteen people on one message
@pytest.mark.parametrize(("lang", "pairing"), [("en", "draw"), ("ar", "fixed")])
async def test_an_eight_slot_knockout_with_a_no_show_an_ai_fill_in_a_flag_and_forfeits_reaches_its_champion(
        bed: Bed, lang: str, pairing: str) -> None:
    tg, clock = bed.tg, bed.clock
    w, r = WORDS[lang], REVIEW[lang]
    run = Run(bed, lang)
    people = bed.people(NAMES[lang], lang, first_id=701)
    run.organiser, run.players = people[0], people[1:]
    await run.in_group()
    await run.opens(f"/tournament new tarneeb41 {pairing} start=20 checkin=10 round=5 review=10 ai=on {SHORT}")

    # sixteen register by buttons (fixed pairs: an opener, then their partner's "Partner <name>")
    if pairing == "draw":
        for p in run.players:
            await run.accepted(p, w["register"])
    else:
        for opener, partner in zip(run.players[::2], run.players[1::2], strict=True):
            await run.accepted(opener, w["register"])
            await run.accepted(partner, w["partner"].format(name=opener.user.first_name))
    assert len((await run.stored()).players) == 16

    # check-in; the last one never checks in (drawn pairs: 15 left, one more is dropped by the draw;
    # fixed pairs: the no-show's pair is out); seven pairs, and an AI pair in the eighth slot
    clock.advance(10 * MINUTE)
    await bed.manager.tournaments.tick()
    no_show = run.players[-1]
    for p in run.players[:-1]:
        await run.accepted(p, w["checkin"])
    clock.advance(10 * MINUTE)  # the start, on the clock
    await bed.manager.tournaments.tick()
    t = await run.stored()
    assert t.status == TourneyStatus.RUNNING
    people_pairs = [e for e in t.entries if not e.ai]
    ai_pairs = [e for e in t.entries if e.ai]
    assert len(people_pairs) == 7 and len(ai_pairs) == 1
    assert f"tg:{no_show.user_id}" not in {pid for e in people_pairs for pid in e.players}
    round1 = sorted((m for m in t.matches if m.round == 1), key=lambda m: m.slot)
    assert [m.status for m in round1] == [MatchStatus.CALLED] * 4
    vs_ai = next(m for m in round1 if m.b == ai_pairs[0].number)
    others = [m for m in round1 if m is not vs_ai]
    await run.says(AI_WORDS[lang])  # labelled, in the message (its edits are paced by the group budget)

    # round 1: two matches whose four are ready (played in turn at the group's one table), one whose
    # second pair sends one person only; the AI pair's opponents never come
    played, forfeited = others[:2], others[2]
    for m in played:
        a, b = people_of(t, m)
        for pid in (*a, *b):
            await run.accepted(run.by_id(pid), w["ready"])
    fa, fb = people_of(t, forfeited)
    for pid in (*fa, fb[0]):
        await run.accepted(run.by_id(pid), w["ready"])
    await play_match(bed, run, await run.stored(), played[0].slot, seed=11)
    await play_match(bed, run, await run.stored(), played[1].slot, seed=12)  # opened when the first ended

    # the first played match: a player of the losing pair flags it in its window
    t = await run.stored()
    flagged = t.match(1, played[0].slot)
    assert flagged is not None and flagged.winner is not None and flagged.review_until is not None
    label = f"1-{flagged.slot + 1}"
    loser = flagged.b if flagged.winner == flagged.a else flagged.a
    losers = people_of(t, flagged)[0 if loser == flagged.a else 1]
    flagger = run.by_id(losers[0])
    await tg.say(flagger.user, GROUP, "/tournament flag a card was played twice")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: r["flagged_reply"] in plain(m.text)))
    notice = await tg.wait_for(lambda: tg.last_bot_message(
        run.organiser.user_id, lambda x: "a card was played twice" in x.text), timeout=30)
    assert r["deal"] in plain(notice.text)  # the organiser sees the recorded deals

    # the deadline and the windows' ends: the forfeit rule decides two matches, the unflagged window
    # closes, the flagged match waits for the organiser
    clock.advance(11 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    x = t.match(1, vs_ai.slot)
    assert x is not None and (x.status, x.how, x.winner) == (MatchStatus.DONE, How.FORFEIT, None)  # AI cannot go on
    x = t.match(1, forfeited.slot)
    assert x is not None and (x.status, x.how, x.winner) == (MatchStatus.DONE, How.FORFEIT, forfeited.a)
    x = t.match(1, played[1].slot)
    assert x is not None and x.status == MatchStatus.DONE and x.how == How.PLAYED
    x = t.match(1, flagged.slot)
    assert x is not None and x.status == MatchStatus.REVIEW and x.flagged_by == f"tg:{flagger.user_id}"
    assert current_round_number(t) == 1  # round 2 waits for the organiser's decision

    await tg.say(run.organiser.user, GROUP, f"/tournament decide {label} uphold")
    await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: r["decided"] in plain(m.text)))
    t = await run.stored()
    x = t.match(1, flagged.slot)
    assert x is not None and x.status == MatchStatus.DONE and x.winner == flagged.winner
    assert current_round_number(t) == 2

    # round 2: the slot fed by the AI pair's match is a bye; the other match and the final are
    # decided by the forfeit rule (one side comes whole, the other not at all)
    for _ in range(2):
        t = await run.stored()
        number = current_round_number(t)
        for m in (m for m in t.matches if m.round == number and m.status == MatchStatus.CALLED):
            for pid in people_of(t, m)[0]:
                await run.accepted(run.by_id(pid), w["ready"])
        clock.advance(6 * MINUTE)
        await bed.manager.tournaments.tick()
    t = await run.stored()
    assert any(m.round == 2 and m.how == How.BYE for m in t.matches)
    final = t.match(3, 0)
    assert final is not None and final.how == How.FORFEIT and final.winner == final.a
    assert t.status == TourneyStatus.FINISHED and champion(t) == t.entry(final.a)
    shown = plain((await run.says(w["champions"])).text)
    assert all(run.by_id(pid).user.first_name in shown for pid in people_of(t, final)[0])
    actions = [a.action for a in t.audit]
    assert actions.count("champion") == 1 and "flag" in actions and "uphold" in actions and "dropped" in actions
    assert bed.manager.table_in_chat(CHAT) is None
    await bed.drain()
    assert bed.checker.violations == [], [(v.dest, v.card, v.text[:60]) for v in bed.checker.violations]


def current_round_number(t: Tournament) -> int:
    return t.rounds[-1].number if t.rounds else 0
