"""Shared pieces of the table manager tests (a harness on a FakeClock); no tests of its own."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import engine
from ai import LegalPlayer
from bot.core.clock import FakeClock
from bot.core.manager import TableManager
from bot.core.model import Person, TableSnapshot, TableUpdate
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from bot.core.tables.restore import replay
from storage.repository import Repository

ALICE = Person("tg:1", "Alice")
BOB = Person("tg:2", "Bob")
CAROL = Person("tg:3", "Carol")
DAN = Person("tg:4", "Dan")
EVE = Person("tg:5", "Eve")
CHAT = "tg:-100"

PLAYER = LegalPlayer()


@dataclass
class Harness:
    """A manager on a fake clock, recording every update it publishes."""

    repo: Repository
    clock: FakeClock
    manager: TableManager
    updates: list[TableUpdate] = field(default_factory=list)

    def events(self, kind: str) -> list[dict[str, Any]]:
        """Every published event of ``kind``, in order."""
        return [e for u in self.updates for e in u.events if e["type"] == kind]

    def reasons(self) -> list[str]:
        """The reasons of the published updates, in order."""
        return [u.reason for u in self.updates]


def make_manager(repo: Repository, clock: FakeClock | None = None, **settings: Any) -> Harness:
    """A manager with no AI pacing, a fixed seed, and random legal AI moves (unless overridden)."""
    clock = clock or FakeClock()
    settings.setdefault("ai_delay", 0.0)
    settings.setdefault("seed_source", lambda: 7)
    ai = settings.pop("ai", lambda level: PLAYER)
    manager = TableManager(repo, router=routed, clock=clock, settings=ManagerSettings(**settings), ai=ai)
    harness = Harness(repo, clock, manager)

    async def record(update: TableUpdate) -> None:
        harness.updates.append(update)

    manager.subscribe(record)
    return harness


async def started_table(h: Harness, *people: Person, game: str = "trix",
                        options: dict[str, Any] | None = None) -> TableSnapshot:
    """A table in CHAT with ``people`` seated (the first creates it), begun; AI moves run."""
    await h.manager.create(CHAT, people[0], game, options)
    for p in people[1:]:
        await h.manager.join(CHAT, p)
    snap = h.manager.table_in_chat(CHAT)
    assert snap is not None
    if snap.table.status == "lobby":
        await h.manager.begin(CHAT, people[0])
    await h.manager.run_due()
    snap = h.manager.get(snap.table_id)
    assert snap is not None
    return snap


def turn(h: Harness, snap: TableSnapshot) -> int | None:
    """The seat the engine waits for (``snap.to_act`` is the public one: None in the Trix doubling window)."""
    return h.manager._tables[snap.table_id].to_act


def person_to_act(h: Harness, snap: TableSnapshot, people: tuple[Person, ...] | list[Person]) -> Person | None:
    """The person whose turn it is, if a person's."""
    seat_no = turn(h, snap)
    if seat_no is None:
        return None
    seat = snap.table.seats[seat_no]
    pid = seat.owner if seat.away else seat.player_id
    return next((p for p in people if p.player_id == pid), None)


async def play_one(h: Harness, snap: TableSnapshot, person: Person, rng: random.Random) -> TableSnapshot:
    """``person`` plays a random legal move at the current version; AI moves follow."""
    assert turn(h, snap) is not None
    legal = h.manager.view(snap.table_id, turn(h, snap))["legal"]
    await h.manager.act(snap.table_id, person, snap.table.version, rng.choice(legal))
    await h.manager.run_due()
    out = h.manager.get(snap.table_id)
    assert out is not None
    return out


async def play_to_end(h: Harness, table_id: int, people: list[Person], seed: int = 1) -> TableSnapshot:
    """Humans play random legal moves until the match is over."""
    rng = random.Random(seed)
    snap = h.manager.get(table_id)
    assert snap is not None
    for _ in range(5000):
        if snap.table.status != "playing":
            return snap
        person = person_to_act(h, snap, people)
        assert person is not None, "an AI seat is waiting although the AI runs at once"
        snap = await play_one(h, snap, person, rng)
    raise AssertionError("the match did not end")


async def replayed(repo: Repository, table_id: int) -> engine.Game:
    """The table's engine state rebuilt from its seed and whole action log."""
    record = await repo.get_table(table_id)
    assert record is not None
    log = await repo.actions(table_id)
    assert [a.seq for a in log] == list(range(1, len(log) + 1))
    assert len(log) == record.version
    return replay(record, log)


def live_game(h: Harness, table_id: int) -> engine.Game:
    """The manager's live engine state (white-box, for equality checks)."""
    game = h.manager._tables[table_id].game
    assert game is not None
    return game
