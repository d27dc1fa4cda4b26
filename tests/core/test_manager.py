"""The table manager's lobby and action path: every refusal changes nothing."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.commands import Actor, NewTable
from bot.core.errors import TableError
from bot.core.model import Person, TableSnapshot, TableUpdate
from bot.core.service import Service
from storage.memory import MemoryRepository
from storage.records import Seat, TableRecord
from storage.sqlite import SQLiteRepository
from tests.core.test_manager_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHAT,
    DAN,
    EVE,
    Harness,
    live_game,
    make_manager,
    person_to_act,
    play_one,
    replayed,
    started_table,
    turn,
)


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    repo = MemoryRepository()
    await repo.open()
    harness = make_manager(repo)
    await harness.manager.start()
    yield harness
    await harness.manager.close()
    await repo.close()


def code(exc: pytest.ExceptionInfo[TableError]) -> str:
    return exc.value.code


# ---------------------------------------------------------------- lobby


async def test_create_opens_a_lobby_with_the_creator_in_seat_0(h: Harness) -> None:
    snap = await h.manager.create(CHAT, ALICE, "trix")
    assert snap.table.status == "lobby"
    assert snap.table.seats[0].player_id == ALICE.player_id
    assert [s.player_id for s in snap.table.seats[1:]] == [None, None, None]
    assert snap.public is None and snap.to_act is None
    assert h.reasons() == ["created"]
    assert h.events("player_joined") == [{"type": "player_joined", "seat": 0, "player": "tg:1"}]
    stored = await h.repo.get_table(snap.table_id)
    assert stored is not None and stored.status == "lobby"
    assert (await h.repo.get_player(ALICE.player_id)).name == "Alice"  # type: ignore[union-attr]


async def test_one_live_table_per_chat(h: Harness) -> None:
    await h.manager.create(CHAT, ALICE, "trix")
    with pytest.raises(TableError) as e:
        await h.manager.create(CHAT, BOB, "tarneeb41")
    assert code(e) == "table_exists"
    other = await h.manager.create("tg:-200", BOB, "tarneeb41")
    assert other.table.chat_id == "tg:-200"


async def test_a_second_table_storage_refuses_is_table_exists_and_leaves_nothing_behind(h: Harness) -> None:
    # another process opened the chat's table a moment ago: this manager's memory does not know it
    other = await h.repo.create_table(TableRecord(
        table_id=0, chat_id=CHAT, game="trix", options={}, seed=1, dealer=None, creator=BOB.player_id,
        status="lobby", seats=(Seat(BOB.player_id, BOB.name), Seat(), Seat(), Seat())), owner="p2",
        lease_until=h.clock.now() + 30)
    with pytest.raises(TableError) as e:
        await h.manager.create(CHAT, ALICE, "trix")
    assert code(e) == "table_exists" and e.value.params == {"table_id": other}
    assert h.manager.table_in_chat(CHAT) is None and h.manager.registry.tables == {}
    assert h.updates == [] and h.manager.turns.sched._when == {}
    assert [t.table_id for t in await h.repo.live_tables()] == [other]
    assert await h.repo.chat_lease(CHAT) == (other, "p2", h.clock.now() + 30)
    in_memory = await h.manager.create("tg:-200", ALICE, "trix")  # the refusal left the manager sound
    with pytest.raises(TableError) as e:
        await h.manager.create("tg:-200", BOB, "trix")
    assert code(e) == "table_exists" and e.value.params == {"table_id": in_memory.table_id}


async def test_unknown_game_and_bad_options_are_refused(h: Harness) -> None:
    with pytest.raises(TableError) as e:
        await h.manager.create(CHAT, ALICE, "poker")
    assert code(e) == "unknown_game"
    with pytest.raises(TableError) as e:
        await h.manager.create(CHAT, ALICE, "trix", {"no_such_option": 1})
    assert code(e) == "bad_option" and "no_such_option" in e.value.params["detail"]
    with pytest.raises(TableError) as e:
        await h.manager.create(CHAT, ALICE, "trix", {"doubling": "sometimes"})
    assert code(e) == "bad_option"
    assert h.manager.table_in_chat(CHAT) is None
    assert await h.repo.live_tables() == []


async def test_a_refused_new_leaves_the_database_byte_for_byte_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "majlis.sqlite3"
    repo = SQLiteRepository(db)
    await repo.open()
    harness = make_manager(repo)
    await harness.manager.start()
    service = Service(harness.manager)
    newcomer = Person("tg:9", "Zed", lang_hint="en")  # a new chat would adopt the language of its first /new
    watcher = sqlite3.connect(db)  # another connection: PRAGMA data_version moves on every commit of ours
    try:
        version, rows = watcher.execute("PRAGMA data_version").fetchone(), list(watcher.iterdump())
        for options in ({"no_such_option": 1}, {"doubling": "sometimes"}):
            with pytest.raises(TableError) as e:
                await service.dispatch(NewTable("trix", options), Actor(newcomer, CHAT))
            assert code(e) == "bad_option"
        with pytest.raises(TableError) as e:
            await service.dispatch(NewTable("poker"), Actor(newcomer, CHAT))
        assert code(e) == "unknown_game"
        assert watcher.execute("PRAGMA data_version").fetchone() == version
        assert list(watcher.iterdump()) == rows
        assert await repo.get_chat(CHAT) is None and await repo.get_player(newcomer.player_id) is None
        accepted = await service.dispatch(NewTable("trix"), Actor(newcomer, CHAT))  # and a good one is stored
        assert accepted.table.lang == "en" and (await repo.get_chat(CHAT)).lang == "en"  # type: ignore[union-attr]
        assert watcher.execute("PRAGMA data_version").fetchone() != version
    finally:
        watcher.close()
        await harness.manager.close()
        await repo.close()


async def test_chat_default_options_merge_under_the_given_ones(h: Harness) -> None:
    await h.manager.update_chat(CHAT, default_options={"trix": {"doubling": "off", "early_end": False}})
    snap = await h.manager.create(CHAT, ALICE, "trix", {"early_end": True})
    assert snap.table.options["doubling"] == "off"
    assert snap.table.options["early_end"] is True
    assert snap.table.options["mode"] == "kingdoms"  # resolved defaults are stored too


async def test_join_takes_the_first_free_seat_or_the_asked_one(h: Harness) -> None:
    await h.manager.create(CHAT, ALICE, "trix")
    snap = await h.manager.join(CHAT, BOB, seat=2)
    assert snap.table.seats[2].player_id == BOB.player_id
    snap = await h.manager.join(CHAT, CAROL)
    assert snap.table.seats[1].player_id == CAROL.player_id
    for who, seat, expected in ((DAN, 2, "seat_taken"), (BOB, None, "already_seated"), (DAN, 9, "bad_action")):
        with pytest.raises(TableError) as e:
            await h.manager.join(CHAT, who, seat=seat)
        assert code(e) == expected
    with pytest.raises(TableError) as e:
        await h.manager.join("tg:-999", DAN)
    assert code(e) == "no_table"


async def test_a_full_table_refuses_and_four_people_start_it() -> None:
    repo = MemoryRepository()
    h = make_manager(repo, auto_begin_when_full=False)
    await h.manager.create(CHAT, ALICE, "trix")
    for p in (BOB, CAROL, DAN):
        await h.manager.join(CHAT, p)
    with pytest.raises(TableError) as e:
        await h.manager.join(CHAT, EVE)
    assert code(e) == "table_full"

    h2 = make_manager(MemoryRepository())
    await h2.manager.create(CHAT, ALICE, "trix")
    for p in (BOB, CAROL):
        await h2.manager.join(CHAT, p)
    snap = await h2.manager.join(CHAT, DAN)
    assert snap.table.status == "playing"
    assert not any(s.is_ai for s in snap.table.seats)
    assert h2.reasons()[-1] == "started"


async def test_leave_in_the_lobby_frees_the_seat_and_the_last_one_out_cancels(h: Harness) -> None:
    await h.manager.create(CHAT, ALICE, "trix")
    await h.manager.join(CHAT, BOB)
    snap = await h.manager.leave(CHAT, BOB)
    assert snap.table.seats[1].player_id is None
    with pytest.raises(TableError) as e:
        await h.manager.leave(CHAT, BOB)
    assert code(e) == "not_seated"
    snap = await h.manager.leave(CHAT, ALICE)
    assert snap.table.status == "cancelled"
    assert h.manager.table_in_chat(CHAT) is None
    assert h.events("table_cancelled")[-1]["reason"] == "empty"


async def test_begin_by_the_creator_or_a_seated_person_fills_with_ai(h: Harness) -> None:
    await h.manager.create(CHAT, ALICE, "trix")
    await h.manager.join(CHAT, BOB, seat=3)
    with pytest.raises(TableError) as e:
        await h.manager.begin(CHAT, CAROL)
    assert code(e) == "not_allowed"
    snap = await h.manager.begin(CHAT, BOB)
    assert snap.table.status == "playing"
    assert [s.is_ai for s in snap.table.seats] == [False, True, True, False]
    assert snap.table.seats[1].player_id == "ai:normal:1"
    assert snap.public is not None and "hand" not in snap.public
    with pytest.raises(TableError) as e:
        await h.manager.begin(CHAT, ALICE)
    assert code(e) == "already_started"
    with pytest.raises(TableError) as e:
        await h.manager.join(CHAT, CAROL)
    assert code(e) == "already_started"


async def test_stop_by_the_creator_or_an_admin_only(h: Harness) -> None:
    snap = await started_table(h, ALICE, BOB)
    with pytest.raises(TableError) as e:
        await h.manager.stop(CHAT, BOB)
    assert code(e) == "not_allowed"
    stopped = await h.manager.stop(CHAT, BOB, is_admin=True)
    assert stopped.table.status == "stopped"
    assert h.events("table_cancelled")[-1]["reason"] == "stopped"
    assert h.manager.table_in_chat(CHAT) is None
    assert (await h.repo.get_table(snap.table_id)).status == "stopped"  # type: ignore[union-attr]
    with pytest.raises(TableError) as e:
        await h.manager.act_current(snap.table_id, ALICE, "done")
    assert code(e) == "finished"
    with pytest.raises(TableError) as e:
        await h.manager.stop(CHAT, ALICE)
    assert code(e) == "no_table"
    # the chat is free again
    await h.manager.create(CHAT, BOB, "trix")
    assert (await h.manager.stop(CHAT, BOB)).table.status == "stopped"


async def test_a_person_may_sit_at_tables_in_several_chats(h: Harness) -> None:
    a = await h.manager.create("tg:-1", ALICE, "trix")
    b = await h.manager.create("dc:2", ALICE, "tarneeb41")
    assert a.table_id != b.table_id
    assert h.manager.table_in_chat("tg:-1").seat_of(ALICE.player_id) == 0  # type: ignore[union-attr]
    assert h.manager.table_in_chat("dc:2").seat_of(ALICE.player_id) == 0  # type: ignore[union-attr]


# ---------------------------------------------------------------- the action path


async def test_a_legal_press_is_logged_before_anyone_hears_of_it(h: Harness) -> None:
    seen: list[tuple[int, int]] = []

    async def check(update: TableUpdate) -> None:
        if update.action is not None:
            log = await h.repo.actions(update.snapshot.table_id)
            seen.append((update.action.seq, len(log)))

    h.manager.subscribe(check)
    snap = await started_table(h, ALICE)
    snap = await play_one(h, snap, ALICE, random.Random(3))
    assert seen and all(seq == length for seq, length in seen)
    assert (await h.repo.get_table(snap.table_id)).version == snap.table.version  # type: ignore[union-attr]
    assert (await replayed(h.repo, snap.table_id)).to_json() == live_game(h, snap.table_id).to_json()


async def test_a_doubled_press_is_refused_as_stale_and_applied_once(h: Harness) -> None:
    snap = await started_table(h, ALICE, BOB)
    person = person_to_act(h, snap, [ALICE, BOB])
    assert person is not None
    legal = h.manager.view(snap.table_id, turn(h, snap))["legal"]
    version = snap.table.version
    await h.manager.act(snap.table_id, person, version, legal[0])
    log_len = len(await h.repo.actions(snap.table_id))
    with pytest.raises(TableError) as e:
        await h.manager.act(snap.table_id, person, version, legal[0])
    assert code(e) == "stale" and e.value.params["version"] == version + 1
    assert len(await h.repo.actions(snap.table_id)) == log_len
    with pytest.raises(TableError) as e:
        await h.manager.act(snap.table_id, person, "7", legal[0])  # type: ignore[arg-type]
    assert code(e) == "stale"


async def test_foreign_out_of_turn_illegal_and_malformed_presses_change_nothing(h: Harness) -> None:
    snap = await started_table(h, ALICE, BOB)
    before = live_game(h, snap.table_id).to_json()
    version = snap.table.version
    to_act = person_to_act(h, snap, [ALICE, BOB])
    other = BOB if to_act == ALICE else ALICE
    assert to_act is not None
    legal = h.manager.view(snap.table_id, turn(h, snap))["legal"]
    cases: list[tuple[Person, object, str]] = [
        (EVE, legal[0], "not_seated"),
        (other, legal[0], "not_your_turn"),
        (to_act, "play ZZ", "illegal"),
        (to_act, "bid 99 now", "illegal"),
        (to_act, None, "bad_action"),
        (to_act, "", "bad_action"),
        (to_act, "x" * 200, "bad_action"),
    ]
    for who, action, expected in cases:
        with pytest.raises(TableError) as e:
            await h.manager.act(snap.table_id, who, version, action)  # type: ignore[arg-type]
        assert code(e) == expected, (who, action)
    with pytest.raises(TableError) as e:
        await h.manager.act(snap.table_id, to_act, version, "play ZZ")
    assert e.value.params["reason"] == "unknown_action"
    with pytest.raises(TableError) as e:
        await h.manager.act(12345, to_act, version, legal[0])
    assert code(e) == "no_table"
    assert live_game(h, snap.table_id).to_json() == before
    assert h.manager.get(snap.table_id).table.version == version  # type: ignore[union-attr]


async def test_act_current_needs_no_version(h: Harness) -> None:
    snap = await started_table(h, ALICE)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    out = await h.manager.act_current(snap.table_id, ALICE, f"  {legal[0].lower()} ")
    assert out.table.version > snap.table.version
    logged = (await h.repo.actions(snap.table_id))[snap.table.version]
    assert logged.action == legal[0]  # stored in the engine's canonical spelling


async def test_acting_in_the_lobby_is_refused(h: Harness) -> None:
    snap = await h.manager.create(CHAT, ALICE, "trix")
    with pytest.raises(TableError) as e:
        await h.manager.act(snap.table_id, ALICE, 0, "done")
    assert code(e) == "not_started"
    with pytest.raises(TableError) as e:
        h.manager.view(snap.table_id, 0)
    assert code(e) == "not_started"


async def test_private_views_go_to_seated_people_only(h: Harness) -> None:
    snap = await started_table(h, ALICE, BOB)
    update = h.updates[-1]
    assert set(update.private) == {0, 1}
    assert update.private[0]["hand"] == live_game(h, snap.table_id).hand(0)
    assert "hand" not in update.snapshot.public  # type: ignore[operator]
    assert [s.is_ai for s in snap.table.seats] == [False, False, True, True]


async def test_private_views_are_made_when_read_and_show_the_state_of_their_update(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    snap = await started_table(h, ALICE, BOB)
    person = person_to_act(h, snap, (ALICE, BOB))
    seat = turn(h, snap)
    assert person is not None and seat is not None
    game_class = type(live_game(h, snap.table_id))
    made: list[int | None] = []
    real_view = game_class.view

    def counted(self: object, s: int | None) -> dict[str, object]:
        made.append(s)
        return real_view(self, s)  # type: ignore[arg-type]

    monkeypatch.setattr(game_class, "view", counted)
    legal = h.manager.view(snap.table_id, seat)["legal"]
    made.clear()
    count = len(h.updates)
    await h.manager.act(snap.table_id, person, snap.table.version, legal[0])
    posted_game = live_game(h, snap.table_id)  # the state the act's update was posted with
    expected = {s: real_view(posted_game, s) for s in (0, 1)}  # type: ignore[arg-type]
    await h.manager.run_due()  # the AI seats move on
    posted = h.updates[count:]
    assert posted and all(set(u.private) == {0, 1} for u in posted)
    assert [s for s in made if s in (0, 1, None)] == []  # no person's view, no public one: nobody read them
    first = posted[0]
    assert first.snapshot.table.version == snap.table.version + 1
    assert {s: first.private[s] for s in (0, 1)} == expected  # made on reading, from its own state
    assert first.private[seat] is first.private[seat] and made.count(seat) == 1  # and made once
    assert first.snapshot.public == real_view(posted_game, None) and made.count(None) == 1  # type: ignore[arg-type]
    assert first.snapshot == TableSnapshot(first.snapshot.table, real_view(posted_game, None),  # type: ignore[arg-type]
                                           first.snapshot.to_act)


async def test_ai_seats_play_through_the_player_interface_with_their_view_only() -> None:
    seen: list[dict[str, object]] = []

    class Spy:
        heavy = False

        def decide(self, view: dict[str, object], game: str, rng: random.Random) -> str:
            seen.append(view)
            legal = view["legal"]
            assert isinstance(legal, list)
            return str(legal[-1])

    h = make_manager(MemoryRepository(), ai=lambda level: Spy())
    snap = await started_table(h, ALICE)
    assert seen
    for view in seen:
        assert view["seat"] in (1, 2, 3)
        assert view["legal"]
    assert all(a.actor.startswith("ai:") or a.actor == ALICE.player_id
               for a in await h.repo.actions(snap.table_id))


async def test_a_heavy_ai_thinks_in_a_worker_thread() -> None:
    import threading

    threads: set[int] = set()

    class Heavy:
        heavy = True

        def decide(self, view: dict[str, object], game: str, rng: random.Random) -> str:
            threads.add(threading.get_ident())
            legal = view["legal"]
            assert isinstance(legal, list)
            return str(legal[0])

    h = make_manager(MemoryRepository(), ai=lambda level: Heavy())
    await started_table(h, ALICE)
    assert threads and threading.get_ident() not in threads


async def test_an_ai_that_answers_nonsense_plays_the_automatic_move() -> None:
    class Broken:
        heavy = False

        def decide(self, view: dict[str, object], game: str, rng: random.Random) -> str:
            return "play ZZ"

    h = make_manager(MemoryRepository(), ai=lambda level: Broken())
    snap = await started_table(h, ALICE)
    ai_actions = [a for a in await h.repo.actions(snap.table_id) if a.actor.startswith("ai:")]
    assert ai_actions or turn(h, snap) == 0
    assert all(a.action != "play ZZ" for a in ai_actions)


@pytest.mark.expected_hidden_errors
async def test_a_subscriber_that_fails_does_not_break_the_table(h: Harness) -> None:
    async def boom(update: TableUpdate) -> None:
        raise RuntimeError("renderer bug")

    h.manager.subscribe(boom)
    snap = await started_table(h, ALICE)
    snap = await play_one(h, snap, ALICE, random.Random(1))
    assert snap.table.version >= 1


async def test_settings_and_players_pass_through_to_storage(h: Harness) -> None:
    chat = await h.manager.update_chat(CHAT, turn_seconds=90, lang="ar")
    assert (await h.repo.get_chat(CHAT)) == chat
    with pytest.raises(TableError) as e:
        await h.manager.update_chat(CHAT, turn_seconds=-1)
    assert code(e) == "bad_option"
    with pytest.raises(TableError) as e:
        await h.manager.update_chat(CHAT, colour="blue")
    assert code(e) == "bad_option"
    with pytest.raises(TableError) as e:
        await h.manager.update_chat(CHAT, default_options={"trix": {"doubling": 3}})
    assert code(e) == "bad_option"
    rec = await h.manager.player(ALICE)
    assert rec.name == "Alice"
    rec = await h.manager.player(Person(ALICE.player_id, "Alice B."))
    assert (await h.repo.get_player(ALICE.player_id)).name == "Alice B."  # type: ignore[union-attr]
    rec = await h.manager.update_player(ALICE.player_id, lang="en")
    assert rec.lang == "en" and rec.name == "Alice B."
    assert await h.manager.leaderboard(CHAT, "trix") == []
    with pytest.raises(TableError):
        await h.manager.leaderboard(CHAT, "chess")


async def test_message_ids_are_stored(h: Harness) -> None:
    snap = await h.manager.create(CHAT, ALICE, "trix")
    await h.manager.set_message_id(snap.table_id, "table", "555")
    assert (await h.repo.get_table(snap.table_id)).message_ids == {"table": "555"}  # type: ignore[union-attr]
    assert h.manager.get(snap.table_id).table.message_ids == {"table": "555"}  # type: ignore[union-attr]
    await h.manager.set_message_id(snap.table_id, "table", None)
    assert (await h.repo.get_table(snap.table_id)).message_ids == {}  # type: ignore[union-attr]
    with pytest.raises(TableError):
        await h.manager.set_message_id(999, "table", "1")


async def test_the_public_snapshot_never_names_who_is_asked_in_the_doubling_window(h: Harness) -> None:
    snap = await started_table(h, ALICE, BOB, CAROL)
    rng = random.Random(4)
    game = live_game(h, snap.table_id)
    for _ in range(300):
        if game.phase == "double":
            break
        person = person_to_act(h, snap, [ALICE, BOB, CAROL])
        assert person is not None
        snap = await play_one(h, snap, person, rng)
        game = live_game(h, snap.table_id)
    assert game.phase == "double" and game.to_act is not None
    assert snap.public_to_act is None and snap.public["to_act"] is None  # type: ignore[index]
    asked = game.to_act
    last = h.updates[-1]
    assert last.snapshot.public_to_act is None
    assert snap.to_act == asked  # the engine's seat, for the manager's own callers
    if asked in last.private:
        assert last.private[asked]["to_act"] == asked


class FlakyRepo(MemoryRepository):
    """Fails the next ``append_action``: before storing it (``"before"``) or after (``"after"``)."""

    def __init__(self) -> None:
        super().__init__()
        self.fail: str | None = None

    async def append_action(self, action, table):  # type: ignore[no-untyped-def]
        mode, self.fail = self.fail, None
        if mode == "before":
            raise OSError("disk full")
        stored = await super().append_action(action, table)
        if mode == "after":
            raise OSError("connection lost after the commit")
        return stored


@pytest.mark.parametrize("mode", ["before", "after"])
async def test_a_storage_failure_leaves_memory_equal_to_the_log(mode: str) -> None:
    repo = FlakyRepo()
    h = make_manager(repo)
    snap = await started_table(h, ALICE)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    repo.fail = mode
    with pytest.raises(OSError):
        await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
    now = h.manager.get(snap.table_id)
    assert now is not None
    expected = snap.table.version + (1 if mode == "after" else 0)
    assert now.table.version == expected
    assert (await replayed(repo, snap.table_id)).to_json() == live_game(h, snap.table_id).to_json()
    if mode == "before":  # the same press works once storage is back
        await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
        assert h.manager.get(snap.table_id).table.version > expected  # type: ignore[union-attr]


async def test_an_ai_move_that_cannot_be_stored_is_retried() -> None:
    repo = FlakyRepo()
    h = make_manager(repo)
    await h.manager.start()
    snap = await started_table(h, ALICE)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    before = len(await repo.actions(snap.table_id))
    await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
    assert turn(h, h.manager.get(snap.table_id)) != 0  # type: ignore[arg-type]  # (seed 7) an AI is next
    repo.fail = "before"
    await h.manager.run_due()
    assert len(await repo.actions(snap.table_id)) == before + 1  # the AI's move failed
    h.clock.advance(1)
    await h.manager.run_due()
    assert len(await repo.actions(snap.table_id)) > before + 1
    assert (await replayed(repo, snap.table_id)).to_json() == live_game(h, snap.table_id).to_json()
    await h.manager.close()


class FailingSaves(MemoryRepository):
    """``save_table`` fails while ``broken`` is set."""

    broken = False

    async def save_table(self, table):  # type: ignore[no-untyped-def]
        if self.broken:
            raise OSError("disk full")
        return await super().save_table(table)


async def test_a_failed_save_undoes_the_lobby_change_in_memory() -> None:
    repo = FailingSaves()
    h = make_manager(repo)
    snap = await h.manager.create(CHAT, ALICE, "trix")
    repo.broken = True
    for call in (h.manager.join(CHAT, BOB), h.manager.begin(CHAT, ALICE), h.manager.stop(CHAT, ALICE)):
        with pytest.raises(OSError):
            await call
        assert h.manager.get(snap.table_id) == snap
    assert await repo.get_table(snap.table_id) == snap.table
    repo.broken = False
    assert (await h.manager.join(CHAT, BOB)).table.seats[1].player_id == BOB.player_id
