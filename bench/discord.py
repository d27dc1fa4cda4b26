"""Many Discord channels at once through the real discord.py client and the fake Discord.

    python bench/discord.py                       # 8 channels, each plays a match to the end
    python bench/discord.py --channels 32 --target 5

Every channel has its own table of Syrian Tarneeb 41 with four simulated members; all channels
play at the same time. A move is two interactions (the "My hand" button, then a card or bid from
the ephemeral hand), except for the members at ``--dm-seats``, who play from the hand in their DM
(waiting for it to show the current turn). Prints interactions per second, the latency from a
click to the bot's first response (the defer Discord needs within 3 s), from a click to the answer
the person reads, and what the channels and DMs saw by the fake's arrival times: the most channel
messages in any 5 s (budget 5), the longest gap between two updates of the table message while
the match went on, the final state's delay after the last move, and how many DM hands arrived
carrying a turn that had been played more than a second before (stale bodies).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import itertools
import logging
import sys
import tempfile
import time
from pathlib import Path

# Run as ``python bench/discord.py``, this file's folder comes first on the path, and its name
# would shadow the discord package: take the folder off and put the repository on instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bench._stats import percentile  # noqa: E402
from bot.core.model import TableUpdate  # noqa: E402
from tests.adapters.discord.fake_discord import FakeDiscord, Message, Sent  # noqa: E402
from tests.adapters.discord.harness import Bot, Member, Table  # noqa: E402


def ms(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` (seconds), in milliseconds."""
    return 1000 * percentile(values, q)


async def drive(table: Table, moves: int, answered: list[float], dm_seats: frozenset[int]) -> None:
    """Play up to ``moves`` moves (to the match's end) at one table, timing each click's answer."""
    for _ in range(moves):
        if table.status() != "playing":
            return
        started = time.perf_counter()
        await table.step(dm_seats=dm_seats)
        answered.append((time.perf_counter() - started) / 2)  # two clicks per move


class Timeline:
    """Each table's versions as they happened and when its match ended, on the fake's clock."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.versions: dict[int, tuple[list[float], list[int]]] = {}
        self.ended: dict[int, float] = {}

    async def on_update(self, update: TableUpdate) -> None:
        tid, now = update.snapshot.table_id, self.fake.now()
        times, versions = self.versions.setdefault(tid, ([], []))
        times.append(now)
        versions.append(update.snapshot.table.version)
        if update.reason == "ended":
            self.ended[tid] = now

    def superseded(self, tid: int, version: int) -> float | None:
        """When the table first moved past ``version`` (None: it never did)."""
        times, versions = self.versions.get(tid, ([], []))
        i = bisect.bisect_right(versions, version)
        return times[i] if i < len(times) else None


def hand_version(sent: Sent) -> tuple[int, int] | None:
    """(table, version) of the move buttons a message carries."""
    for cid in Message(0, 0, "", sent.components).custom_ids():
        parts = cid.split("|", 1)[-1].split(":")
        if len(parts) == 5 and parts[1] == "a" and parts[3].isdigit():
            return int(parts[2]), int(parts[3])
    return None


async def main(channels: int, moves: int, target: int, dm_seats: frozenset[int]) -> None:
    logging.disable(logging.WARNING)
    fake = FakeDiscord(channels=channels)
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp, fake.patched():
        bot = await Bot(fake, Path(tmp) / "bench.sqlite3").start()
        timeline = Timeline(fake)
        assert bot.manager is not None
        bot.manager.subscribe(timeline.on_update)
        chans = [cid for cid, c in fake.channels.items() if c.get("guild_id") == fake.guild_id]
        tables = []
        for i, cid in enumerate(chans):
            people = [Member(fake.add_member(f"P{i}{n}", manage_guild=n == 0), f"P{i}{n}") for n in range(4)]
            table = Table(fake, bot, cid, people, seed=i)
            await table.slash(people[0], "lang", language="en")
            tables.append(table)
        await asyncio.gather(*(t.open("tarneeb41", target=target) for t in tables))
        for t in tables:
            t.interactions.clear()
        answered: list[float] = []
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await asyncio.gather(*(drive(t, moves, answered, dm_seats) for t in tables))
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        interactions = [ix for t in tables for ix in t.interactions]
        first = [ix.latency for ix in interactions if ix.latency is not None]
        await asyncio.sleep(3.0)  # the final states arrive
        await bot.drain(chans)
        await bot.stop()
        late = sum(1 for x in first if x >= 3.0)
        print(f"channels {channels}, target {target}, DM seats {sorted(dm_seats)}, interactions {len(interactions)}")
        print(f"interactions/s {len(interactions) / wall:.1f} (wall {wall:.1f} s, "
              f"process CPU {cpu:.1f} s: {len(interactions) / max(cpu, 1e-9):.1f} per CPU-second)")
        print(f"click -> first response (defer): p50 {ms(first, 0.5):.1f} ms, p99 {ms(first, 0.99):.1f} ms, "
              f"max {ms(first, 1.0):.1f} ms, over 3 s: {late}")
        print(f"click -> answer shown / move applied: p50 {ms(answered, 0.5):.1f} ms, "
              f"p99 {ms(answered, 0.99):.1f} ms")
        print(f"most channel messages in any 5 s window: {max(fake.max_in_window[c] for c in chans)} "
              f"(budget 5); refusals from the fake: {len(fake.violations)}")
        gaps, finals = [], []
        for t in tables:
            tid, mid = t.table_id or 0, t.message_id
            times, _ = timeline.versions.get(tid, ([], []))
            if tid not in timeline.ended or mid is None or not times:
                continue
            ops = sorted(x.at for x in fake.log if x.message_id == mid and x.kind in ("message", "edit"))
            begin, end = times[0], timeline.ended[tid]
            during = [begin] + [x for x in ops if begin <= x <= end] + [end]
            gaps.append(max(b - a for a, b in itertools.pairwise(during)))
            finals.append(ops[-1] - end)
        if gaps:
            print(f"table message ({len(gaps)} finished matches): longest gap between updates p50 "
                  f"{percentile(gaps, 0.5):.2f} s, max {max(gaps):.2f} s; final state after the last move "
                  f"p50 {percentile(finals, 0.5):.2f} s, max {max(finals):.2f} s")
        hands = stale = 0
        worst = 0.0
        for sent in fake.log:
            if sent.user_id is None or sent.via != "channel" or sent.kind not in ("message", "edit"):
                continue
            hv = hand_version(sent)
            if hv is None:
                continue
            hands += 1
            moved = timeline.superseded(*hv)
            if moved is not None and sent.at - moved > 1.0:
                stale += 1
                worst = max(worst, sent.at - moved)
        print(f"DM hands with moves: {hands}; arrived more than 1 s after their turn was played: {stale} "
              f"(worst {worst:.1f} s)")
    await fake.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=8)
    parser.add_argument("--moves", type=int, default=400, help="at most this many moves per channel")
    parser.add_argument("--target", type=int, default=5, help="Tarneeb 41 target (a short match ends)")
    parser.add_argument("--dm-seats", default="1", help="seats that play from their DM hand, e.g. 1,3")
    args = parser.parse_args()
    seats = frozenset(int(x) for x in args.dm_seats.split(",") if x.strip())
    asyncio.run(main(args.channels, args.moves, args.target, seats))
