"""Turn timers, the warning, automatic moves, AI takeover and reclaim, the lobby timeout, leaving."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.errors import TableError
from bot.core.model import TableSnapshot
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import (
    ALICE,
    BOB,
    CAROL,
    CHAT,
    DAN,
    Harness,
    make_manager,
    play_to_end,
    replayed,
    started_table,
    turn,
)


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    harness = make_manager(MemoryRepository(), ai_delay=1.0)
    await harness.manager.start()
    yield harness
    await harness.manager.close()


async def until_turn_of(h: Harness, table_id: int, seat: int, limit: int = 400) -> TableSnapshot:
    """Advance one second at a time (AI moves are paced at 1 s) until ``seat`` is to act."""
    for _ in range(limit):
        snap = h.manager.get(table_id)
        assert snap is not None and snap.table.status == "playing"
        if turn(h, snap) == seat:
            return snap
        h.clock.advance(1)
        await h.manager.run_due()
    raise AssertionError(f"seat {seat} never came to act")


async def test_deadline_is_stored_warning_at_half_time_then_the_automatic_move(h: Harness) -> None:
    snap = await started_table(h, ALICE)
    snap = await until_turn_of(h, snap.table_id, 0)
    t0 = h.clock.now()
    assert snap.table.deadline == pytest.approx(t0 + 60)
    assert (await h.repo.get_table(snap.table_id)).deadline == snap.table.deadline  # type: ignore[union-attr]
    expected_auto = h.manager._tables[snap.table_id].game.auto()  # type: ignore[union-attr]

    h.clock.advance(29.5)
    await h.manager.run_due()
    assert h.events("turn_warning") == []
    h.clock.advance(0.5)
    await h.manager.run_due()
    [warning] = h.events("turn_warning")
    assert warning["seat"] == 0 and warning["seconds_left"] == 30
    assert (await h.repo.get_table(snap.table_id)).warned  # type: ignore[union-attr]
    assert h.manager.get(snap.table_id).table.version == snap.table.version  # type: ignore[union-attr]

    h.clock.advance(29.9)
    await h.manager.run_due()
    assert h.events("auto_played") == []
    h.clock.advance(0.1)
    await h.manager.run_due()
    [auto] = h.events("auto_played")
    assert auto["seat"] == 0 and auto["action"] == expected_auto
    log = await h.repo.actions(snap.table_id)
    assert log[-1].actor == "timer" and log[-1].action == expected_auto and log[-1].seat == 0
    seat = h.manager.get(snap.table_id).table.seats[0]  # type: ignore[union-attr]
    assert seat.auto_streak == 1 and not seat.away
    assert [u.reason for u in h.updates if u.action is not None and u.action.actor == "timer"] == ["timeout"]


async def time_out_twice(h: Harness, snap: TableSnapshot) -> TableSnapshot:
    """Let seat 0's turn time out twice in a row (what hands a seat to the AI)."""
    for _ in range(2):
        snap = await until_turn_of(h, snap.table_id, 0)
        h.clock.advance(60)
        await h.manager.run_due()
    return snap


async def test_two_timeouts_in_a_row_hand_the_seat_to_the_ai_until_its_owner_acts(h: Harness) -> None:
    snap = await started_table(h, ALICE)
    snap = await time_out_twice(h, snap)
    [to_ai] = h.events("seat_to_ai")
    assert to_ai == {"type": "seat_to_ai", "seat": 0, "reason": "timeouts"}
    seat = h.manager.get(snap.table_id).table.seats[0]  # type: ignore[union-attr]
    assert seat.away and seat.is_ai and seat.owner == ALICE.player_id
    assert h.manager.get(snap.table_id).seat_of(ALICE.player_id) == 0  # type: ignore[union-attr]

    # the AI now plays seat 0 after the pacing delay, without any timer running
    snap = await until_turn_of(h, snap.table_id, 0)
    assert snap.table.deadline is None
    version = snap.table.version
    h.clock.advance(1)
    await h.manager.run_due()
    log = await h.repo.actions(snap.table_id)
    assert log[version].seat == 0 and log[version].actor.startswith("ai:")

    # the owner comes back with any valid action
    snap = await until_turn_of(h, snap.table_id, 0)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    snap = await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
    assert h.events("seat_reclaimed") == [{"type": "seat_reclaimed", "seat": 0, "player": ALICE.player_id}]
    seat = snap.table.seats[0]
    assert seat.player_id == ALICE.player_id and not seat.away and not seat.is_ai and seat.auto_streak == 0


async def test_an_own_move_between_timeouts_resets_the_streak(h: Harness) -> None:
    snap = await started_table(h, ALICE)
    snap = await until_turn_of(h, snap.table_id, 0)
    h.clock.advance(60)
    await h.manager.run_due()
    snap = await until_turn_of(h, snap.table_id, 0)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    snap = await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
    assert snap.table.seats[0].auto_streak == 0
    snap = await until_turn_of(h, snap.table_id, 0)
    h.clock.advance(60)
    await h.manager.run_due()
    assert h.events("seat_to_ai") == []
    assert len(h.events("auto_played")) == 2


async def test_the_turn_timer_follows_the_chat_setting(h: Harness) -> None:
    await h.manager.update_chat(CHAT, turn_seconds=20)
    snap = await started_table(h, ALICE)
    snap = await until_turn_of(h, snap.table_id, 0)
    assert snap.table.deadline == pytest.approx(h.clock.now() + 20)
    h.clock.advance(10)
    await h.manager.run_due()
    assert h.events("turn_warning")[0]["seconds_left"] == 10


async def test_an_unstarted_lobby_is_cancelled_after_the_timeout(h: Harness) -> None:
    snap = await h.manager.create(CHAT, ALICE, "trix")
    assert snap.table.lobby_deadline == pytest.approx(h.clock.now() + 600)
    h.clock.advance(599)
    await h.manager.run_due()
    assert h.manager.table_in_chat(CHAT) is not None
    h.clock.advance(1)
    await h.manager.run_due()
    assert h.manager.table_in_chat(CHAT) is None
    assert h.events("table_cancelled") == [{"type": "table_cancelled", "reason": "lobby_timeout"}]
    assert (await h.repo.get_table(snap.table_id)).status == "cancelled"  # type: ignore[union-attr]


async def test_a_started_table_has_no_lobby_timeout(h: Harness) -> None:
    snap = await started_table(h, ALICE)
    h.clock.advance(700)
    await h.manager.run_due()
    assert h.manager.get(snap.table_id).table.status == "playing"  # type: ignore[union-attr]


async def test_leaving_mid_match_hands_the_seat_to_an_ai_anyone_may_claim_and_counts_as_a_loss() -> None:
    h = make_manager(MemoryRepository())
    snap = await started_table(h, ALICE, BOB)
    snap = await h.manager.leave(CHAT, BOB)
    assert h.events("seat_to_ai") == [{"type": "seat_to_ai", "seat": 1, "reason": "left"}]
    assert h.events("player_left")[-1] == {"type": "player_left", "seat": 1, "player": BOB.player_id}
    seat = snap.table.seats[1]
    assert seat.is_ai and not seat.away and seat.owner is None
    assert snap.seat_of(BOB.player_id) is None
    with pytest.raises(TableError) as e:
        await h.manager.claim(CHAT, ALICE, 1)
    assert e.value.code == "already_seated"
    with pytest.raises(TableError) as e:
        await h.manager.claim(CHAT, CAROL, 0)
    assert e.value.code == "seat_taken"
    await h.manager.run_due()
    snap = await h.manager.claim(CHAT, CAROL, 1)
    assert snap.table.seats[1].player_id == CAROL.player_id
    assert h.events("seat_reclaimed") == [{"type": "seat_reclaimed", "seat": 1, "player": CAROL.player_id}]
    with pytest.raises(TableError) as e:
        await h.manager.claim(CHAT, DAN, 1)
    assert e.value.code == "seat_taken"

    end = await play_to_end(h, snap.table_id, [ALICE, CAROL])
    assert end.table.status == "finished"
    result = await h.repo.table_results(snap.table_id)
    assert result is not None
    by_player = {(r.player_id, r.seat): r for r in result.results}
    assert by_player[(BOB.player_id, 1)].left and not by_player[(BOB.player_id, 1)].won
    assert (CAROL.player_id, 1) in by_player and not by_player[(CAROL.player_id, 1)].left
    game = await replayed(h.repo, snap.table_id)
    assert sorted(r.seat for r in result.results if r.won and not r.left) == game.winner


async def test_when_everyone_has_left_the_ai_finishes_the_match_at_once() -> None:
    h = make_manager(MemoryRepository(), ai_delay=5.0)
    snap = await started_table(h, ALICE)
    await h.manager.leave(CHAT, ALICE)
    await h.manager.run_due()
    snap = h.manager.get(snap.table_id)  # type: ignore[assignment]
    assert snap.table.status == "finished"
    result = await h.repo.table_results(snap.table_id)
    assert result is not None
    [alice] = [r for r in result.results if r.player_id == ALICE.player_id]
    assert alice.left and not alice.won


async def test_claim_needs_a_running_match(h: Harness) -> None:
    await h.manager.create(CHAT, ALICE, "trix")
    with pytest.raises(TableError) as e:
        await h.manager.claim(CHAT, BOB, 1)
    assert e.value.code == "not_started"
    with pytest.raises(TableError) as e:
        await h.manager.claim(CHAT, BOB, 7)
    assert e.value.code == "bad_action"


async def test_a_pressed_button_and_a_timeout_never_both_apply(h: Harness) -> None:
    snap = await started_table(h, ALICE)
    snap = await until_turn_of(h, snap.table_id, 0)
    version = snap.table.version
    h.clock.advance(60)
    await h.manager.run_due()
    legal = h.manager.view(snap.table_id, turn(h, h.manager.get(snap.table_id)) or 0)["legal"]  # type: ignore[arg-type]
    with pytest.raises(TableError) as e:
        await h.manager.act(snap.table_id, ALICE, version, legal[0] if legal else "done")
    assert e.value.code in ("stale", "not_your_turn")
    log = await h.repo.actions(snap.table_id)
    assert [a.seq for a in log] == list(range(1, len(log) + 1))
    assert sum(1 for a in log if a.seq == version + 1) == 1
    assert (await replayed(h.repo, snap.table_id)).to_json() == \
        h.manager._tables[snap.table_id].game.to_json()  # type: ignore[union-attr]


async def test_an_away_owner_may_also_come_back_by_claiming_the_seat(h: Harness) -> None:
    snap = await started_table(h, ALICE)
    snap = await time_out_twice(h, snap)
    assert h.manager.get(snap.table_id).table.seats[0].away  # type: ignore[union-attr]
    with pytest.raises(TableError) as e:
        await h.manager.claim(CHAT, BOB, 0)
    assert e.value.code == "seat_taken"
    snap = await h.manager.claim(CHAT, ALICE, 0)
    seat = snap.table.seats[0]
    assert seat.player_id == ALICE.player_id and not seat.away and not seat.is_ai
    assert h.events("seat_reclaimed")[-1] == {"type": "seat_reclaimed", "seat": 0, "player": ALICE.player_id}


async def test_a_move_without_a_streak_keeps_the_seats_as_they_are(h: Harness) -> None:
    """A person's move at a seat with no timeouts to forget leaves the seats tuple itself in the
    record (what is kept per seats tuple, names and buttons, stays good); one after a timeout
    resets the streak in a new tuple."""
    snap = await started_table(h, ALICE)
    snap = await until_turn_of(h, snap.table_id, 0)
    seats = snap.table.seats
    legal = h.manager.view(snap.table_id, 0)["legal"]
    snap = await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
    assert snap.table.seats is seats
    snap = await until_turn_of(h, snap.table_id, 0)
    h.clock.advance(60)
    await h.manager.run_due()
    snap = await until_turn_of(h, snap.table_id, 0)
    assert snap.table.seats[0].auto_streak == 1
    before = snap.table.seats
    legal = h.manager.view(snap.table_id, 0)["legal"]
    snap = await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])
    assert snap.table.seats[0].auto_streak == 0 and snap.table.seats is not before
    assert snap.table.seats[1:] == before[1:]
