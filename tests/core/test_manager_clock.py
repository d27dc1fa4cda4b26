"""The fake clock and the scheduler that the manager's timers run on."""

from __future__ import annotations

import asyncio

from bot.core.clock import FakeClock
from bot.core.timers import Scheduler


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_fake_sleepers_wake_only_when_time_passes_them_in_order() -> None:
    clock = FakeClock(100.0)
    woke: list[str] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append(name)

    tasks = [asyncio.create_task(sleeper("b", 5)), asyncio.create_task(sleeper("a", 2))]
    await settle()
    assert woke == []
    clock.advance(1.9)
    await settle()
    assert woke == []
    clock.advance(0.1)
    await settle()
    assert woke == ["a"]
    clock.advance(10)
    await asyncio.gather(*tasks)
    assert woke == ["a", "b"] and clock.now() == 112.0


async def test_a_cancelled_timer_never_runs() -> None:
    clock = FakeClock()
    ran: list[int] = []
    clock.call_later(1, lambda: ran.append(1)).cancel()
    clock.call_later(2, lambda: ran.append(2))
    clock.advance(5)
    assert ran == [2]


async def test_the_background_loop_fires_on_the_clock_and_run_due_fires_what_is_due() -> None:
    clock = FakeClock(0.0)
    fired: list[tuple[int, float]] = []

    async def fire(table_id: int) -> None:
        fired.append((table_id, clock.now()))

    sched = Scheduler(clock, fire)
    sched.start()
    sched.set(1, 10.0)
    sched.set(2, 5.0)
    sched.set(3, 7.0)
    sched.set(3, None)  # called off
    await settle()
    assert fired == []
    clock.advance(5)
    await settle()
    assert fired == [(2, 5.0)]
    clock.advance(5)
    await settle()
    assert fired == [(2, 5.0), (1, 10.0)]
    sched.set(4, 11.0)
    sched.set(4, 20.0)  # moved later: fires once, at the later time
    clock.advance(1)
    await sched.run_due()
    assert [t for t, _ in fired] == [2, 1]
    clock.advance(9)
    await sched.run_due()
    assert fired[-1] == (4, 20.0) and len(fired) == 3
    await sched.close()
