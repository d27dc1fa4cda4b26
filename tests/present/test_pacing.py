"""What a group sees of a busy table, on a fake clock with network jitter: an even pace, the
limit kept by arrival time, the final state soon after the match ends, a restart that does not
overspend, hands that are never older than their send, and workers that survive anything."""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.adapters.discord.transport import CHANNEL_BUDGET
from bot.adapters.discord.transport import DM_BUDGET as DISCORD_DM_BUDGET
from bot.adapters.telegram.transport import DM_BUDGET, GROUP_BUDGET
from bot.adapters.throttle import Cooldown
from bot.core.clock import FakeClock
from bot.present.keys import table_key
from bot.present.outbox import MAIN, Budget, Limiter, Outbox, OutboxHub
from bot.present.presenter import Presenter
from bot.present.render.message import OutMessage
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, BOB, CAROL, CHAT, DAN, Harness, make_manager, person_to_act

PEOPLE = (ALICE, BOB, CAROL, DAN)


async def settle(n: int = 30) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def advance(clock: FakeClock, seconds: float, step: float = 0.05) -> None:
    """Move the fake clock in small steps, letting every task run in between."""
    end = clock.now() + seconds
    while clock.now() < end - 1e-9:
        clock.advance(min(step, end - clock.now()))
        await settle()


@dataclass
class Arrival:
    at: float  # when the platform received it
    start: float
    kind: str
    dest: str
    mid: str
    msg: OutMessage


@dataclass
class JitterTransport:
    """Every request takes 20-600 ms of fake time and reaches the platform at a random instant
    between its start and its completion. Records arrivals; ``on_start`` sees each request as it
    starts (with the message it carries)."""

    clock: FakeClock
    budgets: dict[str, Budget]
    seed: int = 1
    arrivals: list[Arrival] = field(default_factory=list)
    on_start: Any = None
    ids: Any = field(default_factory=lambda: itertools.count(1))

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def budget(self, dest: str) -> Budget:
        return self.budgets["dm" if dest.startswith("dm:") else "group"]

    async def _request(self, kind: str, dest: str, mid: str, msg: OutMessage) -> None:
        start = self.clock.now()
        if self.on_start is not None:
            self.on_start(kind, dest, msg)
        latency = self.rng.uniform(0.02, 0.6)
        arrival = start + self.rng.uniform(0.0, latency)
        await self.clock.sleep(latency)
        self.arrivals.append(Arrival(arrival, start, kind, dest, mid, msg))

    async def send(self, dest: str, msg: OutMessage) -> str:
        mid = str(next(self.ids))
        await self._request("send", dest, mid, msg)
        return mid

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        await self._request("edit", dest, message_id, msg)

    async def delete(self, dest: str, message_id: str) -> None:
        await self._request("delete", dest, message_id, OutMessage(""))

    def at(self, dest: str) -> list[Arrival]:
        return sorted((a for a in self.arrivals if a.dest == dest), key=lambda a: a.at)


def most_in_window(times: list[float], window: float) -> int:
    """The most of ``times`` inside any half-open window of ``window`` seconds."""
    times = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while times[lo] <= t - window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


async def busy_table(h: Harness, presenter: Presenter, transport: JitterTransport, *, seed: int = 3,
                     think: tuple[float, float] = (0.3, 0.9), until: float | None = None) -> tuple[int, float]:
    """Four fast people play a match (or until the fake time ``until``); returns (table id, the
    fake time the match ended)."""
    rng = random.Random(seed)
    await h.manager.create(CHAT, ALICE, "tarneeb41", {"target": 11})
    for p in PEOPLE[1:]:
        await h.manager.join(CHAT, p)
    snap = h.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table.status == "playing"
    tid = snap.table_id
    for _ in range(10_000):
        snap = h.manager.get(tid)
        assert snap is not None
        if snap.table.status != "playing" or (until is not None and h.clock.now() >= until):
            return tid, h.clock.now()
        await advance(h.clock, rng.uniform(*think))
        snap = h.manager.get(tid)
        assert snap is not None
        person = person_to_act(h, snap, list(PEOPLE))
        if person is None or snap.table.status != "playing":
            continue
        seat = h.manager._tables[tid].to_act
        legal = h.manager.view(tid, seat)["legal"]
        bids = [a for a in legal if a.startswith("bid ")]
        move = "bid 3" if "bid 3" in bids else (min(bids, key=lambda b: int(b[4:])) if bids else rng.choice(legal))
        await h.manager.act(tid, person, snap.table.version, move)
    raise AssertionError("the match did not end")


def presenter_on(h: Harness, budgets: dict[str, Budget], **kw: Any) -> tuple[Presenter, JitterTransport]:
    transport = JitterTransport(h.clock, budgets, **kw)
    return Presenter(h.manager, {"tg": transport}, clock=h.clock), transport


TELEGRAM = {"group": GROUP_BUDGET, "dm": DM_BUDGET}


async def test_a_busy_group_sees_an_even_stream_within_the_limit_and_the_end_soon() -> None:
    h = make_manager(MemoryRepository(), default_turn_seconds=3600)
    await h.manager.update_chat(CHAT, lang="en")
    presenter, transport = presenter_on(h, TELEGRAM)
    tid, ended = await busy_table(h, presenter, transport)
    await advance(h.clock, 30.0)
    await presenter.drain()
    group = transport.at(CHAT)
    started = group[0].at
    assert ended - started > 120, "a match long enough for several Telegram minutes"
    # Never more than 20 in any minute by arrival time, with the network's jitter.
    assert most_in_window([a.at for a in group], 60.0) <= 20
    # An update at least every 4 s while the table changes (it changes all the time here).
    during = [a.at for a in group if a.at <= ended]
    gaps = [b - a for a, b in itertools.pairwise(during)]
    assert max(gaps) <= 4.0, max(gaps)
    # The final state reaches the group within a few seconds of the match's end.
    table_msg = h.manager.get(tid).table.message_ids[table_key(tid)]  # type: ignore[union-attr]
    final = [a for a in group if a.mid == table_msg][-1]
    from bot.present.i18n import translator
    from bot.present.render import render_table

    snap = h.manager.get(tid)
    assert snap is not None and snap.table.status == "finished"
    assert final.msg == render_table(snap, translator("en"), platform="telegram")
    assert final.at - ended <= 5.0, final.at - ended
    # Each DM (1 a second): the limit by arrival time, and the hands kept coming.
    for p in PEOPLE:
        dm = transport.at(f"dm:{p.player_id}")
        assert most_in_window([a.at for a in dm], 1.0) <= 1
        assert len(dm) > 30


async def test_a_restart_mid_burst_does_not_exceed_the_limit() -> None:
    """A group's outbox spends a burst and more, the process dies, a new one restores the chat at
    once and keeps going: together they stay within 20 in any minute by arrival time."""
    clock = FakeClock()
    transport = JitterTransport(clock, TELEGRAM, seed=5)
    first = OutboxHub(transport, clock)
    for i in range(40):
        first.put(CHAT, "table:1", OutMessage(f"state {i}"))
        if i % 4 == 0:
            first.put(CHAT, None, OutMessage(f"notice {i}"), "new", lane=MAIN)
        await advance(clock, 0.5)
    await first.close()  # killed: what was queued is lost, what was sent counts
    assert len(transport.at(CHAT)) >= 5
    second = OutboxHub(transport, clock)
    second.restored(CHAT)
    second.remember(CHAT, "table:1", "1")
    for i in range(40, 200):
        second.put(CHAT, "table:1", OutMessage(f"state {i}"))
        if i % 4 == 0:
            second.put(CHAT, None, OutMessage(f"notice {i}"), "new", lane=MAIN)
        await advance(clock, 0.5)
    await advance(clock, 70)
    await second.drain()
    times = [a.at for a in transport.at(CHAT)]
    assert len(times) > 40
    assert most_in_window(times, 60.0) <= 20
    assert transport.at(CHAT)[-1].msg.text in ("state 199", "notice 196")


async def test_a_restart_without_the_restored_window_would_overspend() -> None:
    """The same restart with a fresh window (what the outbox did before): the burst of the new
    process lands in the old one's minute, so the limit is exceeded — the test above is not empty."""
    clock = FakeClock()
    transport = JitterTransport(clock, TELEGRAM, seed=5)
    first = OutboxHub(transport, clock)
    for i in range(80):
        first.put(CHAT, "table:1", OutMessage(f"state {i}"))
        await advance(clock, 0.5)
    await first.close()
    second = OutboxHub(transport, clock)
    second.remember(CHAT, "table:1", "1")
    for i in range(80, 120):
        second.put(CHAT, "table:1", OutMessage(f"state {i}"))
        second.put(CHAT, None, OutMessage(f"notice {i}"), "new", lane=MAIN)
        await advance(clock, 0.5)
    await second.close()
    assert most_in_window([a.at for a in transport.at(CHAT)], 60.0) > 20


async def test_discord_hands_are_built_when_sent_never_before_a_wait() -> None:
    """Every hand (and table) message carries the table's version at the moment its request
    starts, although the DM budget (5 per 5 s) holds them back while people play fast."""
    h = make_manager(MemoryRepository(), default_turn_seconds=3600)
    await h.manager.update_chat(CHAT, lang="en")
    stale: list[tuple[str, int, int]] = []
    checked = [0]

    def on_start(kind: str, dest: str, msg: OutMessage) -> None:
        snap = h.manager.table_in_chat(CHAT)
        if snap is None:
            return
        for row in msg.buttons:
            for b in row:
                parts = (b.payload or "").split(":")
                if len(parts) == 5 and parts[1] == "a" and parts[3] != "-":
                    checked[0] += 1
                    if int(parts[3]) != snap.table.version:
                        stale.append((dest, int(parts[3]), snap.table.version))

    presenter, transport = presenter_on(h, {"group": CHANNEL_BUDGET, "dm": DISCORD_DM_BUDGET})
    transport.on_start = on_start
    await busy_table(h, presenter, transport, think=(0.05, 0.4), until=h.clock.now() + 90)
    await advance(h.clock, 10)
    assert checked[0] > 50
    assert stale == []
    for dest in {a.dest for a in transport.arrivals}:
        assert most_in_window([a.at for a in transport.at(dest)], 5.0) <= 5


@dataclass
class Flaky:
    """A transport whose n-th operations raise unexpected errors (a bug, an unmapped library error)."""

    fail: set[int]
    calls: int = 0
    sent: list[str] = field(default_factory=list)

    def budget(self, dest: str) -> Budget:
        return Budget(100, 1.0)

    async def send(self, dest: str, msg: OutMessage) -> str:
        self.calls += 1
        if self.calls in self.fail:
            raise RuntimeError("boom")
        self.sent.append(msg.text)
        return str(self.calls)

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        self.calls += 1
        if self.calls in self.fail:
            raise KeyError("id")
        self.sent.append("edit " + msg.text)

    async def delete(self, dest: str, message_id: str) -> None:
        return None


def broken_builder() -> OutMessage:
    raise ValueError("a rendering bug")


@pytest.mark.expected_hidden_errors
async def test_the_worker_survives_a_transport_raising_runtime_error(caplog: pytest.LogCaptureFixture) -> None:
    """An unexpected exception (a transport's RuntimeError, a builder's bug) is logged; the item is
    dropped (an edit is tried again a few times) and the rest of the queue goes out."""
    clock = FakeClock()
    transport = Flaky({1})
    box = Outbox("g", transport, transport.budget("g"), clock)
    box.put(None, OutMessage("lost"), "new", lane=MAIN)
    box.put(None, OutMessage("kept"), "new", lane=MAIN)
    box.put("table:1", broken_builder)
    box.put("table:2", OutMessage("w1"))
    await box.drain()
    assert transport.sent == ["kept", "w1"]
    assert box.pending() == 0 and not box.busy
    assert "failed unexpectedly" in caplog.text
    box.put("table:1", OutMessage("v2"))  # the key works again with good content
    await box.drain()
    assert transport.sent[-1] == "v2"
    assert box.message_ids.keys() == {"table:1", "table:2"}


async def test_the_bot_wide_limiter_keeps_every_second_within_its_budget() -> None:
    """Restoring many chats at once: 300 destinations each with a message, one shared budget of
    30 a second (a burst of 5)."""
    clock = FakeClock()
    transport = JitterTransport(clock, {"group": Budget(20, 60.0, burst=2, margin=1.0), "dm": DM_BUDGET}, seed=9)
    hub = OutboxHub(transport, clock, global_budget=Budget(30, 1.0, burst=5, margin=0.05))
    for i in range(300):
        hub.put(f"tg:-{1000 + i}", "table:1", OutMessage(f"t{i}"))
    await advance(clock, 15, step=0.01)
    await hub.drain()
    starts = [a.start for a in transport.arrivals]
    assert len(starts) == 300
    assert most_in_window(starts, 1.0) <= 30
    assert max(starts) - min(starts) < 12  # and no slower than the budget needs
    assert isinstance(hub.limiter, Limiter) and hub.limiter.granted == 300


async def test_replies_wait_behind_the_table_are_capped_and_coalesce() -> None:
    clock = FakeClock()
    transport = JitterTransport(clock, TELEGRAM, seed=2)
    hub = OutboxHub(transport, clock)
    most = 0
    for i in range(60):  # sixty /help and more in a minute, and a table that keeps changing
        hub.put(CHAT, None, OutMessage("help text"), "new")
        hub.put(CHAT, None, OutMessage(f"reply {i % 3}"), "new")
        hub.put(CHAT, "table:1", OutMessage(f"state {i}"))
        most = max(most, hub.outbox(CHAT).pending())
        await advance(clock, 1.0)
    busy_until = clock.now()
    await advance(clock, 120)
    await hub.drain()
    assert most <= 1 + 5  # the table's one waiting edit, at most 5 replies, identical ones once
    arrived = transport.at(CHAT)
    texts = [a.msg.text for a in arrived if a.at <= busy_until]
    table = [i for i, x in enumerate(texts) if x.startswith("state")]
    assert len(table) >= len(texts) / 2  # the table first, replies in between
    assert max(b - a for a, b in itertools.pairwise(table)) <= 2  # at most one reply between two
    assert arrived[-1].msg.text.startswith(("help", "reply")) and [
        a.msg.text for a in arrived if a.msg.text.startswith("state")][-1] == "state 59"


async def test_finished_tables_are_forgotten_and_idle_outboxes_evicted() -> None:
    clock = FakeClock()
    transport = JitterTransport(clock, TELEGRAM)
    hub = OutboxHub(transport, clock)
    for tid in range(50):
        hub.put(f"tg:-{tid}", f"table:{tid}", OutMessage("x"))
        hub.put(f"dm:tg:{tid}", f"hand:{tid}:tg:{tid}", OutMessage("h"))
    await advance(clock, 5)
    await hub.drain()
    for tid in range(50):
        hub.forget_table(tid)
    await advance(clock, 70)
    assert hub.sweep() == 100
    assert hub.outboxes == {}


def test_the_command_cooldown_is_a_bucket_per_key_with_one_warning_per_window() -> None:
    clock = FakeClock()
    cd = Cooldown(clock, burst=3, every=2.0, maxsize=50)
    assert [cd.check("a").ok for _ in range(3)] == [True, True, True]  # the burst
    first, second = cd.check("a"), cd.check("a")
    assert not first.ok and first.first and first.wait == pytest.approx(2.0)
    assert not second.ok and not second.first  # told once, then dropped
    assert cd.check("b").ok  # another person is not affected
    clock.advance(2.0)
    assert cd.check("a").ok and not cd.check("a").ok  # one every 2 s ...
    refused = cd.check("a")
    assert not refused.ok and not refused.first
    clock.advance(6.0)
    assert [cd.check("a").ok for _ in range(4)] == [True, True, True, False]  # ... then the burst again
    assert Cooldown(clock, burst=0).check("a").ok  # off
    for i in range(200):  # bounded: the oldest keys go first, and a full bucket is forgotten
        cd.check(f"p{i}")
    assert len(cd._state) <= 50
