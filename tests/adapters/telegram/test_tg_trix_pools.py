"""A Trix tournament in pools of four in a Telegram group, in English, through the real
python-telegram-bot and the fake Bot API on the manager's fake clock: ``/tournament new trix rounds=2
ai=on``; six people register alone, one does not check in and is dropped at the organiser's start;
the five left make a pool of four people and a pool of one person with three labelled AI seats.
Round 1: the pool of four plays a whole Trix game through the table's buttons, the other pool nobody
readies and is decided by the forfeit rule at the deadline. Round 2 is seated by the standings
without repeating round 1's table of four; two of a pool press Ready and score as the table's top
two, the others nothing. The standings (points and the Trix score) are shown after each round and
the champion at the top; the AI seats never rank. The message is one message edited in place; a
stranger's Ready is refused and changes nothing.
"""

from __future__ import annotations

import random

import pytest

from bot.core import pools
from bot.core.tournaments import champion, people_of
from storage.tournaments import How, MatchStatus, TourneyStatus
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, play_out
from tests.adapters.telegram.test_tg_tournament import Run, plain, wait_until

MINUTE = 60.0
NAMES = ["Organiser", "Ali", "Huda", "Omar", "Sara", "Zaid", "Rana"]
WORDS = {"title": "Trix tournament: pools of four, each player alone", "register": "Register",
         "checkin": "Check in", "start": "Start now (organiser)", "ready": "Ready", "round1": "Round 1 of 2",
         "after1": "Standings after round 1:", "round2": "Round 2 of 2", "champion": "Champion:",
         "final": "Final standings:", "ai": "🤖 AI", "forfeit": "not played by the deadline",
         "filled": "filled with AI players", "no_match": "You have no match waiting for you in this round."}


@pytest.mark.slow  # a whole Trix game through the real library: 35 to 50 s
async def test_a_trix_tournament_of_five_in_pools_runs_in_english_to_its_champion(bed: Bed) -> None:
    tg, clock = bed.tg, bed.clock
    run = Run(bed, "en")
    people = bed.people(NAMES, "en", first_id=701)
    run.organiser, run.players = people[0], people[1:]
    run.words = {**run.words, **WORDS}
    w = run.words
    await run.in_group()
    first = await run.opens("/tournament new trix rounds=2 start=10 checkin=5 round=5 review=0 ai=on")
    assert w["title"] in plain(first.text) and w["filled"] in plain(first.text)
    t = await run.stored()
    assert (t.game, t.format, t.review_minutes, t.ai_allowed) == ("trix", "pools:2", 0, True)

    for p in run.players:
        await run.accepted(p, w["register"])
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    absent = run.players[4]  # Zaid registers but never checks in
    for p in run.players:
        if p is not absent:
            await run.accepted(p, w["checkin"])
    await run.accepted(run.organiser, w["start"])
    t = await run.stored()
    assert t.status == TourneyStatus.RUNNING
    assert len([e for e in t.entries if not e.ai]) == 5 and len([e for e in t.entries if e.ai]) == 3
    assert f"tg:{absent.user_id}" not in {pid for e in t.entries for pid in e.players}
    r1 = [m for m in t.matches if m.round == 1]
    assert [len(people_of(t, m)[0]) for m in r1] == [4, 1] and all(m.status == MatchStatus.CALLED for m in r1)
    shown = plain((await run.says(w["round1"])).text)
    assert "0 of 4 ready" in shown and "0 of 1 ready" in shown and w["ai"] in shown

    # a stranger's Ready is refused and changes nothing
    stranger = bed.people(["Stranger"], "en", first_id=990)[0]
    msg = await run.shows(w["ready"])
    data = next(b["callback_data"] for b in msg.buttons if plain(b.get("text", "")) == w["ready"])
    await run.refused(stranger, data, w["no_match"])

    # round 1: the pool of four plays a whole Trix game at the table, seated in the pool's order
    pool = r1[0]
    for pid in people_of(t, pool)[0]:
        await run.accepted(run.by_id(pid), w["ready"])
    t = await run.stored()
    pool = t.match(1, 0)  # type: ignore[assignment]
    assert pool is not None and pool.status == MatchStatus.PLAYING and pool.table_id is not None
    snap = bed.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table.game == "trix"
    assert [s.player_id for s in snap.table.seats] == list(people_of(t, pool)[0])
    await play_out(bed, pool.table_id, [run.by_id(pid) for pid in people_of(t, pool)[0]], random.Random(5),
                   max_presses=60_000)
    await bed.manager.drain()
    await bed.manager.tournaments.settle()
    await wait_until(lambda: _decided(run, 1, 0))
    t = await run.stored()
    played = t.match(1, 0)
    assert played is not None and played.how == How.PLAYED
    result = await bed.manager.repo.table_results(played.table_id or 0)
    assert result is not None
    assert played.scores == tuple(next(r.score for r in result.results if r.seat == s and not r.left)
                                  for s in range(4))
    assert played.points == pools.halves_by_rank(played.scores) and sum(played.points) == 20
    # the other pool: its one person never presses Ready; at the deadline nobody scores
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    lone = t.match(1, 1)
    assert lone is not None and lone.how == How.FORFEIT and lone.points == (0, 0, 0, 0)
    assert len(t.rounds) == 2
    shown = plain((await run.says(w["after1"])).text)
    assert shown.index(w["after1"]) < shown.index(w["round2"]) and "Trix score" in shown
    assert w["ai"] not in shown.split(w["after1"])[1].split(w["round2"])[0]  # the AI never ranks

    # round 2, seated by the standings: the top four would repeat round 1's table, so the fourth changes
    # places with the fifth; two of the first pool press Ready and score
    r2 = [m for m in t.matches if m.round == 2]
    ranked = [s.entry for s in pools.table(t)]
    assert set(ranked[:4]) == set(played.pool)
    assert set(r2[0].pool) == {*ranked[:3], ranked[4]} and r2[1].pool[0] == ranked[3]
    came = people_of(t, r2[0])[0][:2]
    for pid in came:
        await run.accepted(run.by_id(pid), w["ready"])
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    assert t.status == TourneyStatus.FINISHED and t.next_at is None
    decided = t.match(2, 0)
    assert decided is not None and decided.how == How.FORFEIT and decided.points == (7, 7, 0, 0)
    table = pools.table(t)
    assert len(table) == 5 and not any((t.entry(s.entry) or t.entries[0]).ai for s in table)
    won = champion(t)
    assert won is not None and won.number == table[0].entry
    final = plain((await run.says(w["champion"])).text)
    name = run.by_id(won.players[0]).user.first_name
    assert f"{w['champion']} {name}" in final and w["final"] in final and w["forfeit"] in final
    assert run.message().buttons == []
    await bed.drain()
    ops = [op for op in tg.ops[GROUP] if op.kind in ("send", "edit") and w["title"] in plain(op.text)]
    assert {op.message_id for op in ops} == {run.message_id} and [op.kind for op in ops].count("send") == 1
    assert bed.checker.violations == []


async def _decided(run: Run, round_: int, slot: int) -> bool:
    m = (await run.stored()).match(round_, slot)
    return m is not None and m.status == MatchStatus.DONE
