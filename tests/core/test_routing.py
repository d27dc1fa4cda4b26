"""Any process may receive any command (bot/core/cluster/routing.py): two managers on one database, each with its
own repository connection, as two processes; a command reaching the one that does not hold the
table is forwarded to the holder, applied there once, and its answer (or refusal) comes back. On
memory and a shared SQLite file (the inbox polled) and a real PostgreSQL (LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.cluster.wire import decode_answer, encode_answer
from bot.core.commands import (
    Act,
    Actor,
    Begin,
    ChangeNotify,
    ChangeSettings,
    Join,
    NewTable,
    SetLanguage,
    ShowHand,
    ShowLeaderboard,
    ShowScores,
    Stop,
)
from bot.core.errors import TableError
from bot.core.identity import dm_dest
from bot.core.model import TableSnapshot
from bot.core.service import Service
from bot.present.i18n import translator
from bot.present.render import render_error
from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.records import Seat, TableRecord
from storage.repository import Repository
from storage.sqlite import SQLiteRepository
from tests.core.test_manager_helpers import ALICE, BOB, CAROL, CHAT, Harness, make_manager, replayed, turn
from tests.pg import POSTGRES

LEASE = 30.0


@pytest.fixture(params=["memory", "sqlite", POSTGRES])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return ":memory:" if request.param == "memory" else str(tmp_path / "shared.db")


@pytest.fixture
async def repos(database: str) -> AsyncIterator[Callable[[], Repository]]:
    opened: list[Repository] = []
    shared = MemoryRepository()

    def make() -> Repository:
        repo: Repository
        if database == ":memory:":
            repo = shared
        elif database.startswith("postgresql://"):
            repo = PostgresRepository(database, pool_size=3)
        else:
            repo = SQLiteRepository(database)
        opened.append(repo)
        return repo

    yield make
    for repo in opened:
        await repo.close()


@pytest.fixture
async def pair(repos: Callable[[], Repository]) -> AsyncIterator[tuple[Harness, Harness]]:
    """Process a (holds the table made in it) and process b (receives the commands)."""
    clock = FakeClock()
    made = []
    for name in ("a", "b"):
        repo = repos()
        await repo.open()
        h = make_manager(repo, clock, owner=name, lease_seconds=LEASE, heartbeat_seconds=10.0,
                         background=False, route_wait=3.0)
        await h.manager.start()
        made.append(h)
    yield made[0], made[1]
    for h in made:
        await h.manager.close()


def dm(person: object) -> Actor:
    return Actor(person, dm_dest(person.player_id))  # type: ignore[arg-type, attr-defined]


async def admin() -> bool:
    return True


async def table_at_a(a: Harness) -> TableSnapshot:
    await a.manager.create(CHAT, ALICE, "tarneeb41")
    await a.manager.join(CHAT, BOB)
    snap = await a.manager.begin(CHAT, ALICE)
    await a.manager.run_due()
    now = a.manager.get(snap.table_id)
    assert now is not None
    return now


async def test_a_press_reaching_the_other_process_is_applied_once_by_the_holder(pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    seat = turn(a, snap)
    assert seat is not None
    person = ALICE if snap.table.seats[seat].player_id == ALICE.player_id else BOB
    code = a.manager.view(snap.table_id, seat)["legal"][0]
    press = Act(snap.table_id, snap.table.version, code)
    assert b.manager.get(snap.table_id) is None  # b does not run the table
    started = time.perf_counter()
    answer = await Service(b.manager).dispatch(press, dm(person))
    took = time.perf_counter() - started
    assert isinstance(answer, TableSnapshot) and answer.table.version == snap.table.version + 1
    again = await Service(b.manager).dispatch(press, dm(person))  # the same press retried: the same answer
    assert again == answer
    log = await a.repo.actions(snap.table_id)
    assert len(log) == snap.table.version + 1  # applied once
    assert log[-1].actor == person.player_id
    assert b.manager.router is not None and b.manager.router.stats["forwarded"] == 2
    assert a.manager.router is not None and a.manager.router.stats["served"] == 1
    assert b.manager.get(snap.table_id) is None  # it stays a's
    assert took < 3.0


async def test_a_press_delivered_to_both_processes_at_once_gets_its_own_answer_from_each(
        pair: tuple[Harness, Harness]) -> None:
    """Issue 29: the platform delivers one press twice, to the holder and to the other process; the
    holder applies its copy, the other's comes through the inbox: both are answered with the press's
    answer (not "out of date"), and the table changed once. The same event twice to the holder alike."""
    a, b = pair
    snap = await table_at_a(a)
    seat = turn(a, snap)
    assert seat is not None
    person = ALICE if snap.table.seats[seat].player_id == ALICE.player_id else BOB
    code = a.manager.view(snap.table_id, seat)["legal"][0]
    press = Act(snap.table_id, snap.table.version, code)
    event = Actor(person, dm_dest(person.player_id), event_id="tg:q:77")
    here, there = await asyncio.gather(Service(a.manager).dispatch(press, event),
                                       Service(b.manager).dispatch(press, event))
    assert isinstance(here, TableSnapshot) and here.table.version == snap.table.version + 1
    assert isinstance(there, TableSnapshot) and there.table.version == here.table.version
    again = await Service(a.manager).dispatch(press, event)  # later still, to the holder itself
    assert again.table.version == here.table.version
    assert len(await a.repo.actions(snap.table_id)) == snap.table.version + 1  # applied once
    assert a.manager.router is not None and a.manager.router.stats["repeated"] == 2
    other = Actor(person, dm_dest(person.player_id), event_id="tg:q:78")  # another press of the same button
    with pytest.raises(TableError) as stale:
        await Service(b.manager).dispatch(press, other)
    assert stale.value.code == "stale"


async def test_a_refusal_delivered_twice_is_the_same_refusal_and_a_crash_is_not_remembered(
        pair: tuple[Harness, Harness]) -> None:
    a, _ = pair
    snap = await table_at_a(a)
    seat = turn(a, snap)
    assert seat is not None
    other = BOB if snap.table.seats[seat].player_id == ALICE.player_id else ALICE
    code = a.manager.view(snap.table_id, seat)["legal"][0]
    event = Actor(other, dm_dest(other.player_id), event_id="tg:q:90")
    for _ in range(2):
        with pytest.raises(TableError) as refused:
            await Service(a.manager).dispatch(Act(snap.table_id, snap.table.version, code), event)
        assert refused.value.code == "not_your_turn"
    router = a.manager.router
    assert router is not None
    calls = []

    async def crashes() -> TableSnapshot:
        calls.append(1)
        raise RuntimeError("the database went away")

    for _ in range(2):  # not an answer: the retry runs again
        with pytest.raises(RuntimeError):
            await router.once(Begin(), Actor(ALICE, CHAT, event_id="tg:m:1"), crashes)
    assert len(calls) == 2


async def test_a_refusal_comes_back_as_the_holders_refusal(pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    seat = turn(a, snap)
    assert seat is not None
    other = BOB if snap.table.seats[seat].player_id == ALICE.player_id else ALICE
    code = a.manager.view(snap.table_id, seat)["legal"][0]
    with pytest.raises(TableError) as refused:
        await Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code), dm(other))
    assert refused.value.code == "not_your_turn"
    with pytest.raises(TableError) as outsider:  # not seated at that table: refused by the holder's rules
        await Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code), dm(CAROL))
    assert outsider.value.code == "not_seated"
    with pytest.raises(TableError) as begun:  # a group command for the chat whose table a holds
        await Service(b.manager).dispatch(Begin(), Actor(ALICE, CHAT))
    assert begun.value.code == "already_started"
    assert (await a.repo.get_table(snap.table_id)).version == snap.table.version  # type: ignore[union-attr]


async def test_a_group_lobby_held_elsewhere_is_joined_through_its_holder(pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    lobby = await a.manager.create(CHAT, ALICE, "trix")
    joined = await Service(b.manager).dispatch(Join(lobby.table_id), Actor(BOB, CHAT))
    assert isinstance(joined, TableSnapshot) and joined.seat_of(BOB.player_id) is not None
    assert a.manager.get(lobby.table_id).seat_of(BOB.player_id) is not None  # type: ignore[union-attr]
    with pytest.raises(TableError) as early:
        await Service(b.manager).dispatch(ShowHand(lobby.table_id), Actor(BOB, CHAT))
    assert early.value.code == "not_started"


async def test_a_hand_asked_of_the_other_process_is_the_holders_private_view(pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    got, seat, view = await Service(b.manager).dispatch(ShowHand(snap.table_id), dm(BOB))
    assert seat == snap.table.seats.index(next(s for s in snap.table.seats if s.player_id == BOB.player_id))
    assert view == a.manager.view(snap.table_id, seat)
    assert got.table == a.manager.get(snap.table_id).table  # type: ignore[union-attr]


async def test_scores_come_from_the_holder_and_leaderboards_from_storage_here(pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    got = await Service(b.manager).dispatch(ShowScores(), Actor(BOB, CHAT))  # b does not hold the table
    assert isinstance(got, TableSnapshot) and got.table == a.manager.get(snap.table_id).table  # type: ignore[union-attr]
    assert got.public == a.manager.get(snap.table_id).public  # type: ignore[union-attr]
    boards = await Service(b.manager).dispatch(ShowLeaderboard(("tarneeb41", "trix")), Actor(BOB, CHAT))
    assert boards == {"tarneeb41": [], "trix": []}  # no finished match yet; read here, not forwarded


async def test_stop_by_an_admin_is_forwarded_with_what_the_receiver_asked_the_platform(
        pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    with pytest.raises(TableError) as refused:
        await Service(b.manager).dispatch(Stop(), Actor(CAROL, CHAT))
    assert refused.value.code == "not_allowed"
    stopped = await Service(b.manager).dispatch(Stop(), Actor(CAROL, CHAT, is_admin=admin))
    assert stopped.table.status == "stopped"
    assert (await a.repo.get_table(snap.table_id)).status == "stopped"  # type: ignore[union-attr]


async def test_a_new_table_in_a_chat_without_one_is_the_receivers(pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await Service(b.manager).dispatch(NewTable("trix"), Actor(ALICE, CHAT))
    assert (await b.repo.table_lease(snap.table_id))[0] == "b"  # type: ignore[index]
    assert b.manager.get(snap.table_id) is not None and a.manager.get(snap.table_id) is None
    with pytest.raises(TableError) as exists:  # and a's receives are now forwarded to b
        await Service(a.manager).dispatch(NewTable("trix"), Actor(BOB, CHAT))
    assert exists.value.code == "table_exists"
    assert a.manager.router is not None and a.manager.router.stats["forwarded"] == 1


@pytest.mark.parametrize("database", ["sqlite", POSTGRES], indirect=True)
async def test_a_chats_first_new_reaching_both_processes_at_once_opens_one_table(
        pair: tuple[Harness, Harness]) -> None:
    """Two webhook workers get a group's very first /new at the same moment: storage keeps one
    table per chat, so one process opens it and the other answers ``table_exists``, as in one process."""
    a, b = pair
    by_storage = 0
    for round_ in range(4):
        chat = f"tg:-77{round_}"
        forwarded = {h.manager.settings.owner: h.manager.router.stats["forwarded"]  # type: ignore[union-attr]
                     for h in (a, b)}
        got = await asyncio.gather(Service(a.manager).dispatch(NewTable("trix"), Actor(ALICE, chat)),
                                   Service(b.manager).dispatch(NewTable("trix"), Actor(BOB, chat)),
                                   return_exceptions=True)
        opened = [(h, g) for h, g in zip((a, b), got, strict=True) if isinstance(g, TableSnapshot)]
        refused = [(h, g) for h, g in zip((a, b), got, strict=True) if isinstance(g, TableError)]
        assert len(opened) == 1 and len(refused) == 1, got
        (winner, snap), (loser, error) = opened[0], refused[0]
        assert error.code == "table_exists" and error.params.get("table_id") == snap.table_id
        if loser.manager.router.stats["forwarded"] == forwarded[loser.manager.settings.owner]:  # type: ignore[union-attr]
            by_storage += 1  # refused by the database's index, not by the holder's memory
        live = [t for t in await a.repo.live_tables() if t.chat_id == chat]
        assert [t.table_id for t in live] == [snap.table_id]
        holder = (snap.table_id, winner.manager.settings.owner, winner.clock.now() + LEASE)
        assert await a.repo.chat_lease(chat) == await b.repo.chat_lease(chat) == holder  # both agree
        assert winner.manager.get(snap.table_id) is not None
        assert loser.manager.get(snap.table_id) is None and loser.manager.table_in_chat(chat) is None
        assert all(u.snapshot.table.chat_id != chat for u in loser.updates)  # nothing half-made was published
        joined = await Service(loser.manager).dispatch(Join(), Actor(CAROL, chat))  # forwarded to the holder
        assert joined.table.table_id == snap.table_id and joined.table.seats[1].player_id == CAROL.player_id
        assert loser.manager.get(snap.table_id) is None
    assert by_storage >= 1  # the race reached storage (both processes found no table and created one)


async def test_a_holder_that_does_not_answer_leaves_the_command_unapplied(pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    seat = turn(a, snap)
    assert seat is not None and a.manager.router is not None
    person = ALICE if snap.table.seats[seat].player_id == ALICE.player_id else BOB
    code = a.manager.view(snap.table_id, seat)["legal"][0]
    await a.manager.router.close()  # a is alive (it renews its lease) but does not serve its inbox
    assert b.manager.router is not None
    sent = asyncio.create_task(Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code), dm(person)))
    await _until(lambda: b.manager.router.waiting == 1)  # type: ignore[union-attr]  # posted, b waits
    a.clock.advance(b.manager.router.wait)  # b's wait runs out
    with pytest.raises(TableError) as late:
        await asyncio.wait_for(sent, 5)
    assert late.value.code == "route_timeout"
    assert "nothing was changed" in render_error("route_timeout", {}, translator("en"))
    assert "لم يتغيّر شيء" in render_error("route_timeout", {}, translator("ar"))
    await a.manager.router.start()
    assert await a.manager.router.serve() == 0  # expired: never applied, even once a serves again
    await a.manager.router.settle()  # nor by a's own serving loop
    assert (await a.repo.get_table(snap.table_id)).version == snap.table.version  # type: ignore[union-attr]
    answer = await Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code), dm(person))
    assert answer.table.version == snap.table.version + 1  # the person's retry goes through


async def test_a_command_for_a_dead_holders_table_makes_the_receiver_take_it_over(
        pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    seat = turn(a, snap)
    assert seat is not None and a.manager.leases is not None and a.manager.router is not None
    person = ALICE if snap.table.seats[seat].player_id == ALICE.player_id else BOB
    code = a.manager.view(snap.table_id, seat)["legal"][0]
    await a.manager.router.close()  # a dies: no more serving, no more renewing
    a.manager.clock.advance(LEASE + 1)  # type: ignore[attr-defined]
    answer = await Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code), dm(person))
    assert answer.table.version == snap.table.version + 1
    assert b.manager.get(snap.table_id) is not None  # b runs it now, timers and all
    assert (await b.repo.table_lease(snap.table_id))[0] == "b"  # type: ignore[index]
    game = await replayed(b.repo, snap.table_id)
    assert game.to_json() == b.manager._tables[snap.table_id].game.to_json()  # type: ignore[union-attr]


def test_answers_keep_views_whose_keys_are_seats() -> None:
    view = {"exposed_twos": {0: ["2S"], 2: []}, "hand": ["AS"], "legal": []}
    seats = (Seat("tg:1", "A"), Seat(), Seat("ai:easy:2", "AI", is_ai=True), Seat())
    snap = TableSnapshot(table=TableRecord(table_id=1, chat_id=CHAT, game="trix", options={"a": 1}, seed=1,
                                           dealer=0, creator="x", status="playing", seats=seats),
                         public=view, to_act=0)
    back = decode_answer(encode_answer((snap, 2, view)))
    assert back == (snap, 2, view)


async def _until(check: Callable[[], object], seconds: float = 5.0) -> float:
    started = time.perf_counter()
    while not check():
        assert time.perf_counter() - started < seconds, "the other process did not see the change"
        await asyncio.sleep(0.005)
    return time.perf_counter() - started


async def test_settings_and_languages_changed_in_one_process_are_seen_by_the_other(
        pair: tuple[Harness, Harness], database: str) -> None:
    a, b = pair
    if not database.startswith("postgresql://"):
        assert not await b.manager.prefs.listen()  # memory, SQLite: the time bound only (one process there)
        return
    assert (await b.manager.chat_settings(CHAT)).lang is None  # b holds the chat's settings in its cache
    assert (await b.manager.prefs.private_lang(BOB.player_id, CHAT))[0] == "ar"
    await b.manager.player(BOB)
    await Service(a.manager).dispatch(SetLanguage("en"), Actor(ALICE, CHAT, is_admin=admin))
    def cached_lang() -> str | None:
        hit = b.manager.prefs._chats.peek(CHAT)  # what b holds, without reading storage
        return hit[0].lang if hit is not None and hit[0] is not None else None

    await _until(lambda: cached_lang() == "en")
    assert (await b.manager.chat_settings(CHAT)).lang == "en"
    await Service(a.manager).dispatch(ChangeSettings({"turn_seconds": 17}), Actor(ALICE, CHAT, is_admin=admin))
    await _until(lambda: b.manager.prefs.turn_seconds(CHAT) == 17.0)  # the timer b gives its next turn
    await Service(a.manager).dispatch(SetLanguage("ar", "me"), dm(BOB))
    await _until(lambda: (b.manager.prefs._players.peek(BOB.player_id) or BOB).lang == "ar")
    assert b.manager.prefs.refreshed >= 3


async def test_notifications_asked_for_in_one_process_are_honoured_by_the_other(
        pair: tuple[Harness, Harness], database: str) -> None:
    """A turn mention and a table call asked for through one process are what the process that holds the
    table reads: the prefs' caches hear each other's writes on PostgreSQL."""
    a, b = pair
    if not database.startswith("postgresql://"):
        return  # one process per database there (the time bound of the caches, as above)
    assert await b.manager.prefs.subscribers(CHAT) == ()  # b holds the empty list in its cache
    await b.manager.player(BOB)  # b holds Bob's record (no turn mention) in its cache too
    await Service(a.manager).dispatch(ChangeSettings({"notify": True}), Actor(ALICE, CHAT, is_admin=admin))
    await Service(a.manager).dispatch(ChangeNotify("tables", on=True), Actor(BOB, CHAT))
    await Service(a.manager).dispatch(ChangeNotify("turn", share=40), Actor(BOB, CHAT))

    async def seen(read: Callable[[], Awaitable[object]], want: object) -> None:
        started = time.perf_counter()
        while await read() != want:  # through b's cache: stale until b hears a's write
            assert time.perf_counter() - started < 5.0, "the other process did not see the change"
            await asyncio.sleep(0.005)

    async def subscribers() -> list[str]:
        return [pid for pid, _ in await b.manager.prefs.subscribers(CHAT)]

    async def turn_ping() -> int | None:
        record = await b.manager.prefs.player_record(BOB.player_id)
        return record.turn_ping if record is not None else None

    await seen(subscribers, [BOB.player_id])
    await seen(turn_ping, 40)
    await Service(a.manager).dispatch(ChangeNotify("tables", on=False), Actor(BOB, CHAT))
    await seen(subscribers, [])


async def test_a_pending_command_is_served_by_the_process_that_takes_the_table_over(
        pair: tuple[Harness, Harness], repos: Callable[[], Repository]) -> None:
    a, b = pair
    repo = repos()
    await repo.open()
    c = make_manager(repo, a.clock, owner="c", lease_seconds=LEASE, heartbeat_seconds=10.0, background=False,
                     route_wait=LEASE * 2)  # c still waits when a's lease has run out
    await c.manager.start()
    try:
        snap = await table_at_a(a)
        seat = turn(a, snap)
        assert seat is not None and a.manager.router is not None
        person = ALICE if snap.table.seats[seat].player_id == ALICE.player_id else BOB
        code = a.manager.view(snap.table_id, seat)["legal"][0]
        await a.manager.router.close()  # a dies with its lease still running
        press = Act(snap.table_id, snap.table.version, code)
        sent = asyncio.create_task(Service(c.manager).dispatch(press, dm(person)))
        await _until(lambda: c.manager.router.waiting == 1)  # type: ignore[union-attr]  # c's command waits in the inbox for a
        assert not sent.done()
        a.clock.advance(LEASE + 1)
        await b.manager.heartbeat()  # b takes a's table over, and with it what waits for the table
        answer = await asyncio.wait_for(sent, 8)
        assert answer.table.version == snap.table.version + 1
        assert b.manager.router is not None and b.manager.router.stats["served"] == 1
        assert len(await b.repo.actions(snap.table_id)) == snap.table.version + 1
    finally:
        await c.manager.close()


async def test_a_holder_that_took_the_command_but_did_not_answer_is_reported_as_unknown(
        pair: tuple[Harness, Harness]) -> None:
    a, b = pair
    snap = await table_at_a(a)
    seat = turn(a, snap)
    assert seat is not None and b.manager.router is not None
    person = ALICE if snap.table.seats[seat].player_id == ALICE.player_id else BOB
    code = a.manager.view(snap.table_id, seat)["legal"][0]
    assert a.manager.router is not None
    table = a.manager.registry.table(snap.table_id)
    async with table.lock:  # a takes the command but is stuck on it past the sender's wait
        sent = asyncio.create_task(Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code),
                                                               dm(person)))
        await _until(lambda: a.manager.router._running)  # type: ignore[union-attr]  # a took it, waits for the lock
        a.clock.advance(b.manager.router.wait)  # b's wait runs out
        with pytest.raises(TableError) as unsure:
            await asyncio.wait_for(sent, 5)
    assert unsure.value.code == "route_unknown"
    assert "look at the table" in render_error("route_unknown", {}, translator("en")).lower()
    await a.manager.drain()
    await a.manager.router.settle()  # a went on once unstuck: the move was made, once
    assert (await a.repo.get_table(snap.table_id)).version == snap.table.version + 1  # type: ignore[union-attr]
    retry = await Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code), dm(person))
    assert retry.table.version == snap.table.version + 1  # the same press again: the answer it got, no new move
    assert len(await a.repo.actions(snap.table_id)) == snap.table.version + 1
    other = Actor(person, dm_dest(person.player_id), event_id="dc:99")  # a new press of the old button
    with pytest.raises(TableError) as again:
        await Service(b.manager).dispatch(Act(snap.table_id, snap.table.version, code), other)
    assert again.value.code in ("stale", "not_your_turn")  # meets the table's own check


async def test_one_process_without_leases_has_no_router_and_no_inbox_work() -> None:
    h = make_manager(MemoryRepository(), background=False)
    await h.manager.start()
    try:
        assert h.manager.router is None  # Service.dispatch runs today's path, not one query more
        snap = await Service(h.manager).dispatch(NewTable("trix"), Actor(ALICE, CHAT))
        assert await h.repo.table_lease(snap.table_id) == (None, None)
    finally:
        await h.manager.close()
