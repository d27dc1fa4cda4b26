"""Tournaments through the one dispatch on the fake clock: registration, check-in, the draw, byes and
played byes against an AI pair, a no-show's forfeit, match tables played and recorded from their
results, the champion, and who may do what from where (a refused press changes nothing)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.core.clock import FakeClock
from bot.core.commands import Actor, NewTournament, TournamentAction
from bot.core.errors import Refusal, TableError
from bot.core.model import Person
from bot.core.service import Service
from bot.core.tournaments import (
    FLAG_REASON_CHARS,
    MINUTE,
    champion,
    deadline,
    decide,
    flag,
    parse_match,
    people_of,
    register,
    seed_order,
    start,
    table_ended,
)
from storage.memory import MemoryRepository
from storage.sqlite import SQLiteRepository
from storage.tournaments import How, MatchStatus, TEntry, TMatch, Tournament, TourneyStatus
from tests.core.test_manager_helpers import CHAT, Harness, make_manager, person_to_act, turn

PEOPLE = [Person(f"tg:{i}", name) for i, name in enumerate(
    ["Sara", "Omar", "Lina", "Hadi", "Maya", "Karim", "Rana", "Ziad", "Nour", "Tariq"], start=11)]
ORGANISER = Person("tg:1", "Organiser")
#: A short Tarneeb 41 (random bids rarely reach the usual total of 11, which deals again).
SHORT = {"target": 1, "min_total": 4, "partner_rule": "non_negative"}


async def play_short(h: Harness, table_id: int, seed: int = 1) -> None:
    """The people play the match out: the lowest bid, then random legal cards (a short target ends it)."""
    rng = random.Random(seed)
    for _ in range(3000):
        snap = h.manager.get(table_id)
        assert snap is not None
        if snap.table.status != "playing":
            return
        person = person_to_act(h, snap, PEOPLE)
        assert person is not None
        legal = h.manager.view(table_id, turn(h, snap))["legal"]
        bids = [a for a in legal if a.startswith("bid")]
        await h.manager.act(table_id, person, snap.table.version,
                            min(bids, key=lambda a: int(a.split()[1])) if bids else rng.choice(legal))
        await h.manager.run_due()
    raise AssertionError("the match did not end")


async def yes() -> bool:
    return True


def admin(p: Person) -> Actor:
    return Actor(p, CHAT, is_admin=yes)


def a_tournament(**changes: object) -> Tournament:
    t = Tournament(1, CHAT, "tarneeb41", "knockout", "fixed", ORGANISER.player_id, ORGANISER.name,
                   TourneyStatus.REGISTRATION, 0.0, 300.0, 600.0, 5)
    return replace(t, **changes)  # type: ignore[arg-type]


def with_pairs(n: int, **changes: object) -> Tournament:
    """A fixed-pair tournament in registration with ``n`` whole pairs (Sara and Omar are pair 1 ...)."""
    t = a_tournament(**changes)
    for i, p in enumerate(PEOPLE[:2 * n]):
        t = register(t, p, float(i), None if i % 2 == 0 else i // 2 + 1)
    return t


def test_the_bracket_keeps_the_first_seeds_apart_and_gives_them_the_byes() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_three_fixed_pairs_make_a_bracket_of_four_with_one_bye_and_a_played_bye_where_ai_is_allowed() -> None:
    t = a_tournament()
    for i, p in enumerate(PEOPLE[:6]):
        t = register(t, p, float(i), None if i % 2 == 0 else i // 2 + 1)
    assert [e.players for e in t.entries] == [("tg:11", "tg:12"), ("tg:13", "tg:14"), ("tg:15", "tg:16")]
    plain = start(t, 10.0)
    r1 = [m for m in plain.matches if m.round == 1]
    assert (r1[0].a, r1[0].b, r1[0].how, r1[0].winner) == (1, None, How.BYE, 1)  # the first pair's bye
    assert (r1[1].a, r1[1].b, r1[1].status) == (2, 3, MatchStatus.CALLED)
    assert plain.match(2, 0) is not None and plain.match(2, 0).a == 1  # type: ignore[union-attr]
    with_ai = start(replace(t, ai_allowed=True), 10.0)
    m = with_ai.match(1, 0)
    assert m is not None and m.status == MatchStatus.CALLED and with_ai.entry(m.b) == TEntry(4, (), ai=True)
    assert people_of(with_ai, m) == (("tg:11", "tg:12"), ())


def test_an_ai_pair_that_wins_does_not_go_on_and_its_next_opponent_has_a_bye() -> None:
    t = start(with_pairs(3, ai_allowed=True), 10.0)
    m = t.match(1, 0)
    assert m is not None
    t = table_ended(replace(t, matches=tuple(replace(x, status=MatchStatus.PLAYING, table_id=9) if x == m else x
                                             for x in t.matches)), replace(m, status=MatchStatus.PLAYING,
                                                                           table_id=9), {1, 3}, 20.0)
    done = t.match(1, 0)
    assert done is not None and done.winner is None and done.how == How.AI_BYE
    nxt = t.match(2, 0)
    assert nxt is not None and nxt.a is None  # nobody came through: pair 2 or 3 will have a bye in the final


def test_the_forfeit_rule_more_ready_goes_on_a_tie_puts_both_out() -> None:
    t = start(with_pairs(4), 10.0)
    t = replace(t, matches=tuple(replace(m, ready=("tg:11",)) if (m.round, m.slot) == (1, 0) else m
                                 for m in t.matches))
    assert deadline(t, 10.0 + 4 * MINUTE) is t  # not due yet
    after = deadline(t, 10.0 + 5 * MINUTE)
    first, second = after.match(1, 0), after.match(1, 1)
    assert first is not None and (first.winner, first.how) == (1, How.FORFEIT)  # 1 ready against 0
    assert second is not None and (second.winner, second.how) == (None, How.FORFEIT)  # nobody came
    assert after.status == TourneyStatus.FINISHED and champion(after) == after.entry(1)  # the final was a bye
    assert [a.action for a in after.audit][-4:] == ["forfeit", "forfeit", "bye", "champion"]


async def test_a_drawn_knockout_runs_from_registration_to_its_champion(tmp_path: object) -> None:
    from pathlib import Path

    repo = SQLiteRepository(Path(str(tmp_path)) / "t.db")
    await repo.open()
    clock = FakeClock(1_800_000_000.0)
    h = make_manager(repo, clock, seed_source=lambda: 7)
    try:
        await run_a_whole_knockout(h)
    finally:
        await h.manager.close()
        await repo.close()


async def run_a_whole_knockout(h: Harness) -> None:
    service, tours = Service(h.manager), h.manager.tournaments
    t = await service.dispatch(NewTournament("tarneeb41", start_minutes=10, checkin_minutes=5, round_minutes=5,
                                             options=SHORT, review_minutes=0), admin(ORGANISER))
    assert t.status == TourneyStatus.REGISTRATION and t.next_at == h.clock.now() + 5 * MINUTE
    for p in PEOPLE:
        await service.dispatch(TournamentAction("register", t.tournament_id), Actor(p, CHAT))
    await service.dispatch(TournamentAction("withdraw"), Actor(PEOPLE[9], CHAT))
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("checkin"), Actor(PEOPLE[0], CHAT))
    assert e.value.params["reason"] == "not_checkin"
    h.clock.advance(5 * MINUTE)
    await tours.tick()
    assert (await tours.in_chat(CHAT)).status == TourneyStatus.CHECKIN  # type: ignore[union-attr]
    for p in PEOPLE[:8]:  # Nour registered and never checked in
        await service.dispatch(TournamentAction("checkin"), Actor(p, CHAT))
    h.clock.advance(5 * MINUTE)
    await tours.tick()
    t = await tours.in_chat(CHAT)
    assert t is not None and t.status == TourneyStatus.RUNNING and len(t.entries) == 4
    assert "tg:19" not in {pid for e in t.entries for pid in e.players}
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None
    # match 0: all four ready, its table opens and is played; match 1: one side never comes
    a, b = people_of(t, m0)
    for pid in (*a, *b):
        await service.dispatch(TournamentAction("ready"), Actor(next(p for p in PEOPLE if p.player_id == pid), CHAT))
    t = await tours.in_chat(CHAT)
    m = t.match(1, 0) if t is not None else None
    assert m is not None and m.status == MatchStatus.PLAYING
    snap = h.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table.table_id == m.table_id and snap.table.status == "playing"
    assert {s.player_id for s in snap.table.seats} == {*a, *b}
    seated = [s.player_id for s in snap.table.seats]
    assert {seated[0], seated[2]} == set(a)  # a pair sits as partners
    ready_side = people_of(t, m1)[0]
    for pid in ready_side:
        await service.dispatch(TournamentAction("ready"), Actor(next(p for p in PEOPLE if p.player_id == pid), CHAT))
    stranger = Person("tg:99", "Stranger")
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("ready"), Actor(stranger, CHAT))
    assert e.value.params["reason"] == "no_match"
    await play_short(h, m.table_id or 0)
    await h.manager.drain()
    await tours.settle()
    t = await tours.in_chat(CHAT)
    done = t.match(1, 0) if t is not None else None
    assert done is not None and done.status == MatchStatus.DONE
    result = await h.repo.table_results(m.table_id or 0)
    assert result is not None
    won_a = any(r.won for r in result.results if r.seat in (0, 2))
    assert done.winner == (m0.a if won_a else m0.b) and done.how == How.PLAYED
    h.clock.advance(5 * MINUTE)
    await tours.tick()  # the deadline: match 1 goes to the side that came
    t = await tours.in_chat(CHAT)
    f = t.match(1, 1) if t is not None else None
    assert t is not None and f is not None and (f.winner, f.how) == (m1.a, How.FORFEIT)
    final = t.match(2, 0)
    assert final is not None and final.status == MatchStatus.CALLED and len(t.rounds) == 2
    a, b = people_of(t, final)
    for pid in (*a, *b):
        await service.dispatch(TournamentAction("ready", t.tournament_id),
                               Actor(next(p for p in PEOPLE if p.player_id == pid), CHAT))
    t = await tours.in_chat(CHAT)
    final = t.match(2, 0) if t is not None else None
    assert final is not None and final.table_id is not None
    await play_short(h, final.table_id, seed=2)
    await h.manager.drain()
    await tours.settle()
    t = await tours.in_chat(CHAT)
    assert t is not None and t.status == TourneyStatus.FINISHED and champion(t) is not None
    assert [x.action for x in t.audit].count("played") == 2 and "forfeit" in [x.action for x in t.audit]
    assert t.audit[-1].action == "champion" and t.next_at is None


async def test_who_may_do_what_and_a_refused_press_changes_nothing() -> None:
    h = make_manager(MemoryRepository(), FakeClock())
    service = Service(h.manager)
    with pytest.raises(TableError) as e:
        await service.dispatch(NewTournament("tarneeb41"), Actor(PEOPLE[0], CHAT))
    assert e.value.code == Refusal.ADMINS_ONLY
    with pytest.raises(TableError) as e:
        await service.dispatch(NewTournament("baloot"), admin(ORGANISER))
    assert e.value.params["reason"] == "game"
    with pytest.raises(TableError) as e:
        await service.dispatch(NewTournament("tarneeb41", start_minutes=5, checkin_minutes=10), admin(ORGANISER))
    assert e.value.params["reason"] == "times"
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("show"), Actor(PEOPLE[0], CHAT))
    assert e.value.params["reason"] == "none"
    t = await service.dispatch(NewTournament("tarneeb41", pairing="fixed"), admin(ORGANISER))
    with pytest.raises(TableError) as e:
        await service.dispatch(NewTournament("tarneeb"), admin(ORGANISER))
    assert e.value.params["reason"] == "exists"
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("register"), Actor(PEOPLE[0], f"dm:{PEOPLE[0].player_id}"))
    assert e.value.code == Refusal.GROUP_ONLY
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("register", t.tournament_id), Actor(PEOPLE[0], "tg:-999"))
    assert e.value.code == Refusal.WRONG_TABLE
    await service.dispatch(TournamentAction("register"), Actor(PEOPLE[0], CHAT))
    for verb, who, reason in (("register", PEOPLE[0], "registered"), ("start", PEOPLE[0], "organiser_only"),
                              ("cancel", PEOPLE[1], "organiser_only")):
        with pytest.raises(TableError) as e:
            await service.dispatch(TournamentAction(verb), Actor(who, CHAT))
        assert e.value.params["reason"] == reason
    await service.dispatch(TournamentAction("register", pair=1), Actor(PEOPLE[1], CHAT))
    before = await h.repo.get_tournament(t.tournament_id)
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("register", pair=1), Actor(PEOPLE[2], CHAT))
    assert e.value.params["reason"] == "pair_full"
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("register", pair=7), Actor(PEOPLE[2], CHAT))
    assert e.value.params["reason"] == "no_pair"
    assert await h.repo.get_tournament(t.tournament_id) == before
    # one pair only: the organiser's start cancels it
    t = await service.dispatch(TournamentAction("start"), Actor(ORGANISER, CHAT))
    assert t.status == TourneyStatus.CANCELLED and t.audit[-1].detail == "too_few"


async def test_two_processes_applying_one_deadline_decide_it_once(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "t.db"
    repos = [SQLiteRepository(path), SQLiteRepository(path)]
    for r in repos:
        await r.open()
    clock = FakeClock(1_800_000_000.0)
    hs = [make_manager(r, clock) for r in repos]
    try:
        service = Service(hs[0].manager)
        t = await service.dispatch(NewTournament("tarneeb41", start_minutes=1, checkin_minutes=1, round_minutes=5),
                                   admin(ORGANISER))
        await hs[0].manager.tournaments.tick()  # check-in opens at once: registering now is checking in
        for p in PEOPLE[:8]:
            await service.dispatch(TournamentAction("register"), Actor(p, CHAT))
        clock.advance(MINUTE)
        await hs[1].manager.tournaments.tick()  # the other process starts it
        assert (await repos[0].get_tournament(t.tournament_id)).status == TourneyStatus.RUNNING  # type: ignore[union-attr]
        clock.advance(5 * MINUTE)
        import asyncio
        await asyncio.gather(*(h.manager.tournaments.tick() for h in hs))
        stored = await repos[1].get_tournament(t.tournament_id)
        assert stored is not None and stored.status == TourneyStatus.FINISHED and champion(stored) is None
        assert [a.action for a in stored.audit].count("forfeit") == 2  # each no-show decided once
    finally:
        for h in hs:
            await h.manager.close()
        for r in repos:
            await r.close()


# ---------------------------------------------------------------------- the review window, flags, decisions

def played(t: Tournament, round_: int, slot: int, winners: set[int], now: float, table_id: int = 9) -> Tournament:
    """Match ``round_``:``slot`` was played at ``table_id`` and its table ended with ``winners`` (seats)."""
    m = t.match(round_, slot)
    assert m is not None and m.status == MatchStatus.CALLED
    m = replace(m, status=MatchStatus.PLAYING, table_id=table_id)
    t = replace(t, matches=tuple(m if (x.round, x.slot) == (round_, slot) else x for x in t.matches))
    return table_ended(t, m, winners, now)


def refused(reason: str, fn: object, *args: object) -> None:
    with pytest.raises(TableError) as e:
        fn(*args)  # type: ignore[operator]
    assert e.value.params["reason"] == reason


def test_a_played_result_stays_in_review_and_becomes_final_once_when_its_window_ends() -> None:
    t = start(with_pairs(4, review_minutes=10), 10.0)
    t = played(t, 1, 0, {0, 2}, 100.0)
    m = t.match(1, 0)
    assert m is not None and (m.status, m.winner, m.how, m.review_until) == (MatchStatus.REVIEW, 1, How.PLAYED, 700.0)
    assert t.match(2, 0).a is None  # type: ignore[union-attr]  # the winner does not go on yet
    assert t.next_at == 310.0  # round 1's deadline comes first (match 1 is still called)
    t = played(t, 1, 1, {1, 3}, 200.0, table_id=10)
    assert t.next_at == 700.0 and len(t.rounds) == 1  # both in review: the next round waits, due at the first end
    assert deadline(t, 699.0) is t
    t = deadline(t, 700.0)
    assert t.match(1, 0).status == MatchStatus.DONE and t.match(1, 1).status == MatchStatus.REVIEW  # type: ignore[union-attr]
    assert t.next_at == 800.0 and len(t.rounds) == 1
    assert deadline(t, 750.0) is t  # nothing due: the same tournament, nothing written
    t = deadline(t, 800.0)
    final = t.match(2, 0)
    assert final is not None and (final.a, final.b, final.status) == (1, 3, MatchStatus.CALLED) and len(t.rounds) == 2
    assert [a.action for a in t.audit].count("played") == 2 and [a.action for a in t.audit].count("result") == 2
    assert deadline(t, 800.0) is t  # a second tick at the same time finds nothing to do


def test_without_a_window_a_played_result_is_final_at_once() -> None:
    t = played(start(with_pairs(2, review_minutes=0), 10.0), 1, 0, {1, 3}, 100.0)
    assert t.status == TourneyStatus.FINISHED and champion(t) == t.entry(2)
    assert "result" not in [a.action for a in t.audit]


def test_a_player_of_the_match_flags_it_once_and_it_waits_for_the_organiser() -> None:
    t = played(start(with_pairs(2), 10.0), 1, 0, {0, 2}, 100.0)
    before = t
    refused("no_review", flag, t, "tg:99", 200.0)  # not in the match
    flagged = flag(t, "tg:13", 200.0, "  the  bid was\nnot shown  ")
    m = flagged.match(1, 0)
    assert m is not None and (m.flagged_by, m.flag_reason) == ("tg:13", "the bid was not shown")
    assert flagged.next_at is None  # no timeout: nothing due until the organiser decides
    assert flagged.audit[-1].actor == "tg:13" and flagged.audit[-1].action == "flag"
    refused("flagged", flag, flagged, "tg:11", 210.0)  # the other side flags too: once is enough
    assert deadline(flagged, 10_000.0).match(1, 0).status == MatchStatus.REVIEW  # type: ignore[union-attr]
    refused("review_over", flag, before, "tg:13", 700.0)  # the window is over (the tick may not have run)
    final = deadline(before, 700.0)
    refused("review_over", flag, final, "tg:13", 800.0)  # and once it is final
    long = flag(t, "tg:12", 200.0, "x" * 500)
    assert len(long.match(1, 0).flag_reason) == FLAG_REASON_CHARS  # type: ignore[union-attr]


def test_the_organiser_upholds_sets_a_winner_replays_or_disqualifies() -> None:
    t = played(start(with_pairs(4), 10.0), 1, 0, {0, 2}, 100.0)
    t = flag(t, "tg:17", 150.0, "")
    upheld = decide(t, "tg:1", 200.0, 1, 0, "uphold")
    m = upheld.match(1, 0)
    assert m is not None and (m.status, m.winner, m.how) == (MatchStatus.DONE, 1, How.PLAYED)
    assert upheld.match(2, 0).a == 1 and upheld.audit[-1].actor == "tg:1"  # type: ignore[union-attr]
    assert upheld.audit[-1].action == "uphold"
    won = decide(t, "tg:1", 200.0, 1, 0, "winner", 4)
    assert (won.match(1, 0).winner, won.match(1, 0).how, won.match(2, 0).a) == (4, How.ORGANISER, 4)  # type: ignore[union-attr]
    # a final result of the running round may still be changed: its winner has not played on
    again = decide(upheld, "tg:1", 210.0, 1, 0, "winner", 4)
    assert again.match(2, 0).a == 4  # type: ignore[union-attr]
    replayed = decide(upheld, "tg:1", 220.0, 1, 0, "replay")
    m = replayed.match(1, 0)
    assert m is not None and (m.status, m.winner, m.table_id, m.flagged_by) == (MatchStatus.CALLED, None, None, None)
    assert replayed.match(2, 0).a is None and replayed.rounds[0].deadline == 220.0 + 5 * MINUTE  # type: ignore[union-attr]
    assert replayed.next_at == 220.0 + 5 * MINUTE and replayed.audit[-1].action == "replay"
    out = decide(t, "tg:1", 230.0, 1, 0, "disqualify", 1)
    assert out.entry(1).disqualified and out.match(1, 0).winner == 4 and out.match(2, 0).a == 4  # type: ignore[union-attr]
    assert out.audit[-1].action == "disqualify"


def test_an_organiser_decision_that_cannot_be_taken_is_refused() -> None:
    t = played(start(with_pairs(4), 10.0), 1, 0, {0, 2}, 100.0)
    refused("decision", decide, t, "tg:1", 200.0, 1, 0, "dance")
    refused("no_such_match", decide, t, "tg:1", 200.0, 1, 5, "uphold")
    refused("no_such_match", decide, t, "tg:1", 200.0, 2, 0, "uphold")  # the final is not drawn yet
    refused("not_decidable", decide, t, "tg:1", 200.0, 1, 1, "replay")  # called, not played
    refused("bad_pair", decide, t, "tg:1", 200.0, 1, 0, "winner", 2)  # pair 2 plays in the other match
    refused("bad_pair", decide, t, "tg:1", 200.0, 1, 0, "winner", None)
    final = deadline(played(t, 1, 1, {0, 2}, 200.0, table_id=10), 700.0)
    refused("not_in_review", decide, final, "tg:1", 750.0, 1, 0, "uphold")
    nxt = deadline(final, 800.0)
    assert len(nxt.rounds) == 2
    refused("too_late", decide, nxt, "tg:1", 900.0, 1, 0, "winner", 4)  # its winner has played on
    over = deadline(nxt, 800.0 + 5 * MINUTE)  # nobody came to the final
    assert over.status == TourneyStatus.FINISHED
    refused("over", decide, over, "tg:1", 2000.0, 2, 0, "replay")
    with_ai = start(with_pairs(3, ai_allowed=True), 10.0)
    refused("ai_pair", decide, with_ai, "tg:1", 20.0, 1, 0, "winner", 4)
    assert parse_match("1-2") == (1, 1) and parse_match("2") is None and parse_match("0-1") is None


def test_a_disqualified_pair_still_listed_later_is_skipped_and_its_opponent_has_a_bye() -> None:
    t = played(start(with_pairs(4, review_minutes=0), 10.0), 1, 0, {0, 2}, 100.0)
    assert t.match(2, 0).a == 1  # type: ignore[union-attr]
    t = replace(t, entries=tuple(replace(e, disqualified=e.number == 1) for e in t.entries))  # as a format may
    t = played(t, 1, 1, {0, 2}, 200.0, table_id=10)
    final = t.match(2, 0)
    assert final is not None and (final.a, final.how, final.winner) == (None, How.BYE, 2)
    assert t.status == TourneyStatus.FINISHED and champion(t) == t.entry(2)


async def test_a_flag_and_a_decision_through_the_dispatch_are_checked_told_and_logged() -> None:
    h = make_manager(MemoryRepository(), FakeClock(1_800_000_000.0))
    service, tours = Service(h.manager), h.manager.tournaments
    told: list[tuple[int, str | None]] = []

    async def on_flag(t: Tournament, m: TMatch) -> None:
        told.append((m.slot, m.flagged_by))

    tours.on_flag(on_flag)
    t = await service.dispatch(NewTournament("tarneeb41", pairing="fixed", start_minutes=0, checkin_minutes=0),
                               admin(ORGANISER))
    for i, p in enumerate(PEOPLE[:4]):
        await service.dispatch(TournamentAction("register", pair=None if i % 2 == 0 else i // 2 + 1), Actor(p, CHAT))
    await service.dispatch(TournamentAction("start"), Actor(ORGANISER, CHAT))
    stored = await h.repo.get_tournament(t.tournament_id)
    assert stored is not None and stored.status == TourneyStatus.RUNNING
    now = h.clock.now()
    await h.repo.save_tournament(played(stored, 1, 0, {0, 2}, now))  # its table ended (as _record_if_match does)
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("flag", reason="x"), Actor(PEOPLE[5], CHAT))
    assert e.value.params["reason"] == "no_review"
    flagged = await service.dispatch(TournamentAction("flag", reason="a card was misplayed"), Actor(PEOPLE[2], CHAT))
    assert told == [(0, PEOPLE[2].player_id)] and flagged.match(1, 0).flagged_by == PEOPLE[2].player_id  # type: ignore[union-attr]
    with pytest.raises(TableError) as e:
        await service.dispatch(TournamentAction("flag"), Actor(PEOPLE[3], CHAT))
    assert e.value.params["reason"] == "flagged" and len(told) == 1
    before = await h.repo.get_tournament(t.tournament_id)
    for cmd, who, reason in ((TournamentAction("decide", match="1-1", decision="uphold"), PEOPLE[0], "organiser_only"),
                             (TournamentAction("decide", match="one", decision="uphold"), ORGANISER, "no_such_match"),
                             (TournamentAction("decide", match="1-1", decision="winner", pair=7), ORGANISER,
                              "bad_pair")):
        with pytest.raises(TableError) as e:
            await service.dispatch(cmd, Actor(who, CHAT))
        assert e.value.params["reason"] == reason
    assert await h.repo.get_tournament(t.tournament_id) == before
    h.clock.advance(60 * MINUTE)
    await tours.tick()  # flagged: no window ends
    assert (await h.repo.get_tournament(t.tournament_id)).status == TourneyStatus.RUNNING  # type: ignore[union-attr]
    done = await service.dispatch(TournamentAction("decide", match="1-1", decision="winner", pair=2), admin(PEOPLE[5]))
    assert done.status == TourneyStatus.FINISHED and champion(done) == done.entry(2)  # an admin may decide too
    assert [(a.actor, a.action) for a in done.audit][-2:] == [(PEOPLE[5].player_id, "winner"), ("bot", "champion")]
    audit = await service.dispatch(TournamentAction("audit"), Actor(PEOPLE[7], CHAT))
    assert [a.action for a in audit.audit].count("flag") == 1


async def test_two_processes_close_one_review_window_once(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "t.db"
    repos = [SQLiteRepository(path), SQLiteRepository(path)]
    for r in repos:
        await r.open()
    clock = FakeClock(1_800_000_000.0)
    hs = [make_manager(r, clock) for r in repos]
    try:
        t = await repos[0].create_tournament(start(with_pairs(2), clock.now()))
        t = await repos[0].save_tournament(played(t, 1, 0, {0, 2}, clock.now()))
        assert t.next_at == clock.now() + 10 * MINUTE
        clock.advance(10 * MINUTE)
        import asyncio
        await asyncio.gather(*(h.manager.tournaments.tick() for h in hs))
        stored = await repos[1].get_tournament(t.tournament_id)
        assert stored is not None and stored.status == TourneyStatus.FINISHED and champion(stored) == stored.entry(1)
        assert [a.action for a in stored.audit].count("played") == 1 and stored.next_at is None
    finally:
        for h in hs:
            await h.manager.close()
        for r in repos:
            await r.close()
