"""The outbox against a fake transport and a virtual clock: exact times, no real waiting."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.present.outbox import (
    MAIN,
    Budget,
    Forbidden,
    MessageGone,
    Outbox,
    OutboxHub,
    RetryAfter,
    TransientError,
)


@dataclass(frozen=True)
class Msg:
    text: str


class VirtualClock:
    """Time moves only when every task is blocked on :meth:`sleep`; then it jumps to the next wake-up."""

    def __init__(self) -> None:
        self.t = 1000.0
        self._heap: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (self.t + max(seconds, 0.0), next(self._seq), fut))
        await fut

    async def settle(self) -> None:
        for _ in range(20):
            await asyncio.sleep(0)

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking every sleeper that is due on the way."""
        end = self.t + seconds
        while self._heap and self._heap[0][0] <= end:
            when, _, fut = heapq.heappop(self._heap)
            self.t = max(self.t, when)
            if not fut.done():
                fut.set_result(None)
            await self.settle()
        self.t = end
        await self.settle()

    async def run(self, hub: OutboxHub | Outbox, limit: float = 10_000.0) -> None:
        """Advance virtual time until nothing sleeps and every queue is empty."""
        while True:
            await self.settle()
            if not self._heap:
                break
            when, _, fut = heapq.heappop(self._heap)
            assert when - 1000.0 < limit, "virtual time ran away"
            self.t = max(self.t, when)
            if not fut.done():
                fut.set_result(None)
        await hub.drain()


@dataclass
class FakeTransport:
    clock: VirtualClock
    budgets: dict[str, Budget] = field(default_factory=dict)
    log: list[tuple[float, str, str, str | None, str]] = field(default_factory=list)
    errors: dict[tuple[str, int], Exception] = field(default_factory=dict)  # (dest, op no) -> error
    gone: set[str] = field(default_factory=set)
    calls: dict[str, int] = field(default_factory=dict)
    ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    def budget(self, dest: str) -> Budget:
        return self.budgets.get(dest, Budget(20, 60))

    def _maybe_fail(self, dest: str) -> None:
        n = self.calls.get(dest, 0) + 1
        self.calls[dest] = n
        err = self.errors.pop((dest, n), None)
        if err is not None:
            self.log.append((self.clock.now(), "error", dest, None, type(err).__name__))
            raise err

    async def send(self, dest: str, msg: Any) -> str:
        self._maybe_fail(dest)
        mid = str(next(self.ids))
        self.log.append((self.clock.now(), "send", dest, mid, msg.text))
        return mid

    async def edit(self, dest: str, message_id: str, msg: Any) -> None:
        self._maybe_fail(dest)
        if message_id in self.gone:
            self.log.append((self.clock.now(), "error", dest, message_id, "MessageGone"))
            raise MessageGone()
        self.log.append((self.clock.now(), "edit", dest, message_id, msg.text))

    async def delete(self, dest: str, message_id: str) -> None:
        self._maybe_fail(dest)
        self.log.append((self.clock.now(), "delete", dest, message_id, ""))

    def ops(self, dest: str | None = None) -> list[tuple[float, str, str, str | None, str]]:
        return [e for e in self.log if dest is None or e[2] == dest]


TELEGRAM_GROUP = Budget(20, 60)


def make(budget: Budget = TELEGRAM_GROUP) -> tuple[VirtualClock, FakeTransport, OutboxHub, list[Any]]:
    clock = VirtualClock()
    transport = FakeTransport(clock, budgets={"g": budget, "h": budget})
    reports: list[Any] = []
    hub = OutboxHub(
        transport, clock,
        on_message_id=lambda d, k, m: reports.append(("id", d, k, m)),
        on_forbidden=lambda d, k: reports.append(("forbidden", d, k)),
        jitter=0.0,
    )
    return clock, transport, hub, reports


def assert_budget_kept(times: list[float], budget: Budget) -> None:
    for i, t in enumerate(times):
        in_window = [u for u in times[i:] if u < t + budget.per_seconds]
        assert len(in_window) <= budget.ops, (t, in_window)


async def test_budget_never_exceeded_in_any_window() -> None:
    budget = Budget(5, 5)
    clock, transport, hub, _ = make(budget)
    for i in range(23):
        hub.put("g", None, Msg(f"n{i}"), mode="new", lane=MAIN)
    await clock.run(hub)
    times = [e[0] for e in transport.ops("g")]
    assert len(times) == 23
    assert_budget_kept(times, budget)
    # The queue drained as fast as the budget allows: 5 ops at t, 5 at t+5, ... 3 at t+20.
    assert times[-1] - times[0] == pytest.approx(20.0)


async def test_new_messages_are_sent_in_order() -> None:
    clock, transport, hub, _ = make(Budget(2, 1))
    for i in range(7):
        hub.put("g", None, Msg(f"m{i}"), mode="new", lane=MAIN)
    await clock.run(hub)
    assert [e[4] for e in transport.ops("g")] == [f"m{i}" for i in range(7)]


async def test_waiting_edits_coalesce_to_the_newest_and_keep_their_place() -> None:
    clock, transport, hub, reports = make(Budget(1, 1))
    hub.put("g", "table:1", Msg("v1"))
    await clock.run(hub)
    hub.put("g", None, Msg("notice A"), mode="new", lane=MAIN)  # takes the budget for a second
    for i in range(2, 30):
        hub.put("g", "table:1", Msg(f"v{i}"))
    hub.put("g", None, Msg("notice B"), mode="new", lane=MAIN)
    await clock.run(hub)
    texts = [e[1:] for e in transport.ops("g")]
    assert texts == [
        ("send", "g", "1", "v1"),
        ("send", "g", "2", "notice A"),
        ("edit", "g", "1", "v29"),
        ("send", "g", "3", "notice B"),
    ]
    assert ("id", "g", "table:1", "1") in reports
    assert all(r[2] == "table:1" for r in reports)  # unkeyed notices are not reported


async def test_an_edit_equal_to_what_was_last_sent_is_dropped() -> None:
    clock, transport, hub, _ = make()
    hub.put("g", "table:1", Msg("same"))
    await clock.run(hub)
    hub.put("g", "table:1", Msg("same"))
    hub.put("g", "hand:1:x", Msg("h"))
    hub.put("g", "hand:1:x", Msg("h"))
    await clock.run(hub)
    assert [e[1] for e in transport.ops()] == ["send", "send"]
    # A burst that ends where it started changes nothing either.
    hub.put("g", "table:1", Msg("other"))
    hub.put("g", "table:1", Msg("same"))
    await clock.run(hub)
    assert len(transport.ops()) == 2


async def test_the_final_state_is_delivered_after_a_long_burst() -> None:
    budget = Budget(20, 60)
    clock, transport, hub, _ = make(budget)
    for i in range(200):
        hub.put("g", "table:1", Msg(f"state {i}"))
        if i % 3 == 0:
            hub.put("g", f"hand:1:p{i % 4}", Msg(f"hand {i}"))
        await clock.advance(0.25)
    await clock.run(hub)
    ops = transport.ops("g")
    assert_budget_kept([e[0] for e in ops], budget)
    assert len(ops) < 200
    last_table = [e for e in ops if e[3] == "1"][-1]
    assert last_table[4] == "state 199"
    for p in range(4):
        newest = max(i for i in range(200) if i % 3 == 0 and i % 4 == p)
        assert hub.outbox("g").last_sent[f"hand:1:p{p}"] == Msg(f"hand {newest}")


async def test_retry_after_waits_for_that_destination_only() -> None:
    clock, transport, hub, _ = make(Budget(30, 1))
    transport.errors[("g", 2)] = RetryAfter(7)
    for i in range(3):
        hub.put("g", None, Msg(f"g{i}"), mode="new", lane=MAIN)
        hub.put("h", None, Msg(f"h{i}"), mode="new", lane=MAIN)
    start = clock.now()
    await clock.run(hub)
    g = [(e[0] - start, e[1], e[4]) for e in transport.ops("g")]
    h = [(e[0] - start, e[1], e[4]) for e in transport.ops("h")]
    assert g == [(0, "send", "g0"), (0, "error", "RetryAfter"), (7, "send", "g1"), (7, "send", "g2")]
    assert h == [(0, "send", "h0"), (0, "send", "h1"), (0, "send", "h2")]


async def test_transient_errors_retry_with_backoff() -> None:
    clock, transport, hub, _ = make(Budget(30, 1))
    for n in (1, 2, 3):
        transport.errors[("g", n)] = TransientError("502")
    hub.put("g", "table:1", Msg("x"))
    start = clock.now()
    await clock.run(hub)
    assert [(e[0] - start, e[1]) for e in transport.ops("g")] == [
        (0, "error"), (1, "error"), (3, "error"), (7, "send"),
    ]


async def test_transient_errors_give_up_after_max_attempts() -> None:
    clock = VirtualClock()
    transport = FakeTransport(clock)
    for n in range(1, 10):
        transport.errors[("g", n)] = TransientError("down")
    box = Outbox("g", transport, Budget(30, 1), clock, max_attempts=3, backoff=(1.0,), jitter=0.0)
    box.put(None, Msg("lost"), mode="new")
    box.put(None, Msg("next"), mode="new")
    await clock.run(box)
    assert [e[1] for e in transport.ops("g")] == ["error"] * 6  # three tries each, then given up
    assert box.pending() == 0


async def test_an_edit_whose_target_is_gone_becomes_a_send() -> None:
    clock, transport, hub, reports = make()
    hub.put("g", "table:1", Msg("a"))
    await clock.run(hub)
    transport.gone.add("1")
    hub.put("g", "table:1", Msg("b"))
    await clock.run(hub)
    hub.put("g", "table:1", Msg("c"))
    await clock.run(hub)
    assert [e[1:] for e in transport.ops()] == [
        ("send", "g", "1", "a"),
        ("error", "g", "1", "MessageGone"),
        ("send", "g", "2", "b"),
        ("edit", "g", "2", "c"),
    ]
    assert [r[3] for r in reports if r[0] == "id"] == ["1", "2"]


async def test_forbidden_is_reported_and_not_retried() -> None:
    """After a 403 in a person's DM nothing more is tried there (not even what was queued already)
    until they start the bot again."""
    clock, transport, hub, reports = make()
    transport.errors[("dm:tg:5", 1)] = Forbidden("dm:tg:5")
    hub.put("dm:tg:5", "hand:1:tg:5", Msg("hand"))
    hub.put("dm:tg:5", None, Msg("your turn"), mode="new", tag="ping:1")
    await clock.run(hub)
    assert reports == [("forbidden", "dm:tg:5", "hand:1:tg:5")]
    assert transport.calls["dm:tg:5"] == 1
    hub.put("dm:tg:5", "hand:1:tg:5", Msg("hand 2"))
    hub.put("dm:tg:5", None, Msg("your turn again"), mode="new", tag="ping:1")
    await clock.run(hub)
    assert transport.calls["dm:tg:5"] == 1 and hub.is_blocked("dm:tg:5")
    hub.unblock("dm:tg:5")
    hub.put("dm:tg:5", "hand:1:tg:5", Msg("hand 3"))
    await clock.run(hub)
    assert [e[1:] for e in transport.ops()][-1] == ("send", "dm:tg:5", "1", "hand 3")


async def test_remembered_ids_are_edited_after_a_restart_and_delete_forgets() -> None:
    clock, transport, hub, reports = make()
    hub.remember("g", "table:9", "77")
    hub.put("g", "table:9", Msg("restored"))
    hub.put("g", "tmp", Msg("t"))
    await clock.run(hub)
    hub.put("g", "tmp", None, mode="delete")
    await clock.run(hub)
    assert [e[1:4] for e in transport.ops()] == [
        ("edit", "g", "77"), ("send", "g", "1"), ("delete", "g", "1"),
    ]
    assert reports[-1] == ("id", "g", "tmp", None)


def test_put_refuses_a_bad_mode_or_a_keyless_edit() -> None:
    clock = VirtualClock()
    box = Outbox("g", FakeTransport(clock), Budget(1, 1), clock)
    with pytest.raises(ValueError, match="mode"):
        box.put("k", Msg("x"), mode="shout")
    with pytest.raises(ValueError, match="key"):
        box.put(None, Msg("x"))


async def test_an_edit_is_retried_until_it_lands_so_the_final_state_is_not_lost() -> None:
    clock = VirtualClock()
    transport = FakeTransport(clock)
    box = Outbox("g", transport, Budget(30, 1), clock, max_attempts=3, backoff=(1.0, 5.0), jitter=0.0)
    box.put("table:1", Msg("v1"))
    await clock.run(box)
    for n in range(2, 12):
        transport.errors[("g", n)] = TransientError("down")
    box.put("table:1", Msg("v2"))
    start = clock.now()
    await clock.run(box)
    ops = transport.ops("g")
    assert [e[1] for e in ops] == ["send"] + ["error"] * 10 + ["edit"]
    assert ops[-1][4] == "v2" and ops[-1][0] - start == 1 + 5 * 9


async def test_tagged_new_messages_coalesce_and_can_be_withdrawn() -> None:
    """A "your turn" ping waiting behind the budget is replaced by a newer one, or dropped once stale."""
    from bot.present.outbox import NEW
    from bot.present.render.message import OutMessage

    sent: list[str] = []

    class Slow:
        async def send(self, dest: str, msg: OutMessage) -> str:
            sent.append(msg.text)
            return str(len(sent))

        async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
            sent.append("edit " + msg.text)

        async def delete(self, dest: str, message_id: str) -> None:
            return None

    clock = VirtualClock()
    box = Outbox("dm:tg:1", Slow(), Budget(1, 1.0), clock)
    box.put(None, OutMessage("first"), NEW, lane=MAIN)
    for n in range(5):
        box.put(None, OutMessage(f"your turn {n}"), NEW, tag="ping:1")
    box.put(None, OutMessage("other table"), NEW, tag="ping:2")
    assert box.pending() <= 3
    assert box.withdraw("ping:2") == 1
    await clock.run(box)
    assert sent == ["first", "your turn 4"]
    await box.close()


async def test_retries_are_spread_by_jitter() -> None:
    """After an outage every outbox retries, but not in lockstep: each waits backoff × [0.5, 1.5]."""
    import random

    clock = VirtualClock()
    starts: list[float] = []
    for seed in range(6):
        transport = FakeTransport(clock)
        transport.errors[("g", 1)] = TransientError("502")
        box = Outbox("g", transport, Budget(30, 1), clock, backoff=(4.0,), jitter=0.5, rng=random.Random(seed))
        box.put("table:1", Msg("x"))
        start = clock.now()
        await clock.run(box)
        starts.append(transport.ops("g")[-1][0] - start)
    assert all(2.0 <= s <= 6.0 for s in starts)
    assert len({round(s, 3) for s in starts}) == len(starts)


async def test_a_replaced_notice_is_one_message_at_a_time() -> None:
    """``replace``: the shown one is deleted before the new one is sent; one still waiting is never
    sent; None only deletes; a key with nothing shown costs no call."""
    clock, transport, hub, _ = make(Budget(100, 1))
    hub.replace("h", "ping:1:tg:5", None)  # nothing shown: no call
    hub.replace("h", "ping:1:tg:5", Msg("your turn"))
    await clock.run(hub)
    hub.replace("h", "ping:1:tg:5", Msg("10 seconds left"))
    await clock.run(hub)
    hub.replace("h", "ping:1:tg:5", Msg("your turn again"))
    hub.replace("h", "ping:1:tg:5", Msg("stale before it was sent"))
    hub.replace("h", "ping:1:tg:5", None)  # the turn passed
    await clock.run(hub)
    assert [(e[1], e[3], e[4]) for e in transport.ops("h")] == [
        ("send", "1", "your turn"), ("delete", "1", ""), ("send", "2", "10 seconds left"), ("delete", "2", "")]
