"""A round robin of three fixed pairs of Tarneeb 41 in a Telegram group, in Arabic, through the real
python-telegram-bot and the fake Bot API on the manager's fake clock: ``/tournament new … roundrobin``;
the pairs register, check in and are started by the organiser on the tournament's one message; each
round one pair has a bye (a win); round 1's match is played through the table's buttons, round 2's is
won by forfeit by the pair that came, round 3's nobody comes to (no points); the standings are shown
after each round and the pair at the top of the final standings is the champion. The message is one
message edited in place; ``/tournament new`` with a bad rounds count is refused.
"""

from __future__ import annotations

import random

import pytest

from bot.adapters.telegram.tournaments import parse_new
from bot.core import leagues
from bot.core.commands import NewTournament
from bot.core.tournaments import champion, people_of
from storage.tournaments import How, MatchStatus, TourneyStatus
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, play_out
from tests.adapters.telegram.test_tg_tournament import SHORT, Run, plain, wait_until

MINUTE = 60.0
NAMES = ["المنظّم", "علي", "هدى", "عمر", "سارة", "زيد", "رنا"]
WORDS = {"title": "دوري الأزواج", "register": "سجّلني", "checkin": "أكّد حضورك", "start": "ابدأ الآن (للمنظّم)",
         "ready": "جاهز", "partner": "شارك {name}", "champions": "الأبطال:", "final": "الترتيب النهائي:",
         "after1": "الترتيب بعد الدور 1:", "after2": "الترتيب بعد الدور 2:", "bye": "استراحة تُحتسب فوزاً",
         "round3": "الدور 3 من 3", "forfeit": "لغياب الخصم", "nobody": "لم يحضر أحد، ولا نقاط لأي منهما",
         "rounds": "عدد أدوار البطولة السويسرية"}


def test_tournament_new_reads_the_format_and_a_swiss_rounds_count() -> None:
    assert parse_new(["41", "swiss", "rounds=4", "draw", "ai=on", "target=31"]) == NewTournament(
        "tarneeb41", pairing="draw", format="swiss", rounds=4, ai=True, options={"target": 31})
    assert parse_new(["tarneeb", "round-robin"]) == NewTournament("tarneeb", format="roundrobin")
    assert parse_new(["tarneeb", "swiss", "rounds=many"]) == NewTournament("tarneeb", format="swiss", rounds=-1)


@pytest.mark.slow  # one whole match through the real library: 6 to 8 s
async def test_a_round_robin_of_three_pairs_runs_in_arabic_to_the_top_of_its_standings(bed: Bed) -> None:
    tg, clock = bed.tg, bed.clock
    run = Run(bed, "ar")
    people = bed.people(NAMES, "ar", first_id=601)
    run.organiser, run.players = people[0], people[1:]
    run.words = {**run.words, **WORDS}
    w = run.words
    await run.in_group()
    await tg.say(run.organiser.user, GROUP, f"/tournament new tarneeb41 knockout rounds=3 fixed {SHORT}")
    refusal = await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: w["rounds"] in plain(m.text)))
    assert refusal.buttons == []  # rounds= is for a Swiss only: nothing made
    assert await bed.manager.repo.chat_tournament(CHAT) is None
    first = await run.opens(f"/tournament new tarneeb41 roundrobin fixed start=10 checkin=5 round=5 review=0 {SHORT}")
    assert w["title"] in plain(first.text)
    t = await run.stored()
    assert (t.format, t.pairing, t.options["target"]) == ("roundrobin", "fixed", 1)

    for opener, partner in zip(run.players[::2], run.players[1::2], strict=True):
        await run.accepted(opener, w["register"])
        await run.accepted(partner, w["partner"].format(name=opener.user.first_name))
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    for p in run.players:
        await run.accepted(p, w["checkin"])
    await run.accepted(run.organiser, w["start"])
    t = await run.stored()
    assert t.status == TourneyStatus.RUNNING and len(t.entries) == 3 and not any(e.ai for e in t.entries)
    assert {m.round for m in t.matches} == {1, 2, 3}

    # round 1: a bye, and a match played through the table's buttons
    bye = next(m for m in t.matches if m.round == 1 and m.how == How.BYE)
    m = next(m for m in t.matches if m.round == 1 and m.status == MatchStatus.CALLED)
    assert bye.winner == bye.a
    await run.says(w["bye"])
    a, b = people_of(t, m)
    for pid in (*a, *b):
        await run.accepted(run.by_id(pid), w["ready"])
    t = await run.stored()
    m = t.match(1, m.slot)  # type: ignore[assignment]
    assert m is not None and m.status == MatchStatus.PLAYING and m.table_id is not None
    snap = bed.manager.table_in_chat(CHAT)
    assert snap is not None and [s.player_id for s in snap.table.seats] == [a[0], b[0], a[1], b[1]]
    await play_out(bed, m.table_id, [run.by_id(pid) for pid in (*a, *b)], random.Random(3))
    await bed.manager.drain()
    await bed.manager.tournaments.settle()

    async def round_open(n: int) -> bool:
        return len((await run.stored()).rounds) == n

    await wait_until(lambda: round_open(2))
    t = await run.stored()
    played = t.match(1, m.slot)
    assert played is not None and played.how == How.PLAYED and played.winner in (played.a, played.b)
    shown = plain((await run.says(w["after1"])).text)
    assert shown.index(w["after1"]) < shown.index("الدور 2 من 3")  # the standings, then the round being played

    # round 2: one pair comes whole, the other does not: a win by forfeit at the deadline
    m2 = next(m for m in t.matches if m.round == 2 and m.status == MatchStatus.CALLED)
    came = people_of(t, m2)[0]
    for pid in came:
        await run.accepted(run.by_id(pid), w["ready"])
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    m2 = t.match(2, m2.slot)  # type: ignore[assignment]
    assert m2 is not None and (m2.winner, m2.how) == (m2.a, How.FORFEIT) and len(t.rounds) == 3
    await run.says(w["after2"])

    # round 3: nobody comes; neither side scores; the round robin is over
    await run.says(w["round3"])
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    m3 = next(m for m in t.matches if m.round == 3 and m.how == How.FORFEIT)
    assert m3.winner is None
    assert t.status == TourneyStatus.FINISHED and t.next_at is None
    met = [frozenset((x.a, x.b)) for x in t.matches if x.b is not None]
    assert len(met) == len(set(met)) == 3  # everyone met everyone once
    assert sorted(x.a for x in t.matches if x.how == How.BYE) == [1, 2, 3]  # a bye each
    table = leagues.table(t)
    won = champion(t)
    assert won is not None and won.number == table[0].entry and table[0].points == 2
    final = plain((await run.says(w["champions"])).text)
    assert w["final"] in final and w["nobody"] in final
    assert all(run.by_id(pid).user.first_name in final.split("\n")[final.split("\n").index(w["final"]) + 1]
               for pid in won.players)  # the champions head the final standings
    assert run.message().buttons == []
    await bed.drain()
    ops = [op for op in tg.ops[GROUP] if op.kind in ("send", "edit") and w["title"] in plain(op.text)]
    assert {op.message_id for op in ops} == {run.message_id} and [op.kind for op in ops].count("send") == 1
    assert bed.checker.violations == []
