"""Hypothesis throws random, stale, foreign, out-of-turn and malformed actions at the manager.

Nothing illegal is ever applied, nothing but ``TableError`` is raised, and the action log
always replays to the live state.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bot.core.errors import CODES, TableError
from bot.core.model import Person, TableSnapshot
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, BOB, CAROL, CHAT, EVE, make_manager, replayed

pytestmark = pytest.mark.slow  # a long hypothesis state machine

PEOPLE = (ALICE, BOB, CAROL, EVE)
GARBAGE = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["play", "play AS KS", "bid", "bid 99", "contract chess", "double", "pass", "done",
                     "play 1S", " play AS", "trump X", "\x00", "play\tAS"]),
    st.none(), st.integers(), st.binary(max_size=5),
)


class ManagerMachine(RuleBasedStateMachine):
    """One trix table: Alice and Bob seated (two AI seats), Carol and Eve watching."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.repo = MemoryRepository()
        # background=False: timers and AI moves run only in run_due(), so every step sees a
        # table that moves only when the step moves it
        self.h = make_manager(self.repo, ai_delay=1.0, background=False)
        self.run(self.h.manager.start())
        self.run(self.h.manager.create(CHAT, ALICE, "trix"))
        self.run(self.h.manager.join(CHAT, BOB))
        snap = self.run(self.h.manager.begin(CHAT, ALICE))
        self.table_id = snap.table_id
        self.applied = 0
        self.refused: dict[str, int] = {}

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def snap(self) -> TableSnapshot:
        snap = self.h.manager.get(self.table_id)
        assert snap is not None
        return snap

    def state(self) -> tuple[int, Any]:
        game = self.h.manager._tables[self.table_id].game
        assert game is not None
        return self.snap().table.version, game.to_json()

    def press(self, person: Person, version: Any, action: Any, *, current: bool = False) -> bool:
        """Send one action; check that a refusal changed nothing and an acceptance was allowed."""
        before_version, before = self.state()
        snap = self.snap()
        game = self.h.manager._tables[self.table_id].game
        assert game is not None
        to_act = game.to_act
        legal = {a.lower() for a in game.legal()} if to_act is not None else set()
        seat = snap.seat_of(person.player_id)
        try:
            if current:
                self.run(self.h.manager.act_current(self.table_id, person, action))
            else:
                self.run(self.h.manager.act(self.table_id, person, version, action))
        except TableError as e:
            assert e.code in CODES
            self.refused[e.code] = self.refused.get(e.code, 0) + 1
            assert self.state() == (before_version, before), f"refused {e.code} but the table changed"
            return False
        assert snap.table.status == "playing"
        assert seat is not None and seat == to_act, "a press from outside the seat to act was applied"
        assert current or version == before_version, "a stale press was applied"
        assert isinstance(action, str) and action.strip().lower() in legal, f"{action!r} was not legal"
        log = self.run(self.repo.actions(self.table_id))
        assert log[before_version].action.lower() == action.strip().lower()  # logged in canonical form
        assert log[before_version].seat == seat
        self.applied += 1
        return True

    def playing(self) -> bool:
        return self.snap().table.status == "playing"

    @precondition(playing)
    @rule(data=st.data())
    def legal_press(self, data: st.DataObject) -> None:
        snap = self.snap()
        seat = self.h.manager._tables[self.table_id].to_act
        assert seat is not None
        s = snap.table.seats[seat]
        owner = s.owner if s.away else s.player_id
        person = next((p for p in PEOPLE if p.player_id == owner), None)
        if person is None:  # an AI's turn: let it move
            self.h.clock.advance(1)
            self.run(self.h.manager.run_due())
            return
        game = self.h.manager._tables[self.table_id].game
        assert game is not None
        action = data.draw(st.sampled_from(game.legal()))
        if data.draw(st.booleans()):
            action = action.lower()
        assert self.press(person, snap.table.version, action)

    @precondition(playing)
    @rule(who=st.sampled_from(PEOPLE), delta=st.integers(-3, 3), data=st.data())
    def any_press(self, who: Person, delta: int, data: st.DataObject) -> None:
        snap = self.snap()
        game = self.h.manager._tables[self.table_id].game
        assert game is not None
        choices = game.legal() or ["done"]
        action = data.draw(st.one_of(st.sampled_from(choices), GARBAGE))
        self.press(who, snap.table.version + delta, action)

    @precondition(playing)
    @rule(who=st.sampled_from(PEOPLE), action=GARBAGE)
    def typed(self, who: Person, action: Any) -> None:
        self.press(who, None, action, current=True)

    @precondition(playing)
    @rule(who=st.sampled_from(PEOPLE), version=st.one_of(st.none(), st.text(max_size=3), st.floats()))
    def malformed_version(self, who: Person, version: Any) -> None:
        game = self.h.manager._tables[self.table_id].game
        assert game is not None
        self.press(who, version, (game.legal() or ["done"])[0])

    @rule(seconds=st.sampled_from([0.5, 1, 5, 29, 30, 31, 60]))
    def time_passes(self, seconds: float) -> None:
        self.h.clock.advance(seconds)
        self.run(self.h.manager.run_due())

    def seat_change(self, call: Any) -> None:
        before = self.state()
        try:
            self.run(call)
        except TableError:
            assert self.state() == before
        assert self.state()[0] == before[0]  # a seat change is never an action

    @precondition(playing)
    @rule(who=st.sampled_from((BOB, CAROL, EVE)))  # Alice stays, so the table is never unwatched
    def leave(self, who: Person) -> None:
        self.seat_change(self.h.manager.leave(CHAT, who))

    @precondition(playing)
    @rule(who=st.sampled_from(PEOPLE), seat=st.integers(-1, 4))
    def claim(self, who: Person, seat: int) -> None:
        self.seat_change(self.h.manager.claim(CHAT, who, seat))

    @rule()
    def restart(self) -> None:
        """The process restarts: a new manager restores the table from storage, equal to the old."""
        _, live = self.state()
        before = self.snap()
        self.run(self.h.manager.close())
        fresh = make_manager(self.repo, self.h.clock, ai_delay=1.0, background=False)
        self.run(fresh.manager.start())
        after = fresh.manager.get(self.table_id)
        if before.table.status == "playing":
            assert after is not None
            assert after.table == before.table
            assert fresh.manager._tables[self.table_id].game.to_json() == live  # type: ignore[union-attr]
        else:
            assert after is None  # finished tables are not restored
            fresh.manager._tables[self.table_id] = self.h.manager._tables[self.table_id]
        self.h = fresh

    @invariant()
    def log_replays_to_the_live_state(self) -> None:
        version, live = self.state()
        rebuilt = self.run(replayed(self.repo, self.table_id))
        assert rebuilt.to_json() == live
        stored = self.run(self.repo.get_table(self.table_id))
        assert stored is not None and stored.version == version

    def teardown(self) -> None:
        self.run(self.h.manager.close())
        self.loop.close()


ManagerMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestManagerMachine = ManagerMachine.TestCase
