"""Many Discord channels at once through the real discord.py client and the fake Discord.

    python bench/discord.py                       # 8 channels, 40 moves each
    python bench/discord.py --channels 32 --moves 25

Every channel has its own table of Syrian Tarneeb 41 with four simulated members; all channels
play at the same time. Each move is two interactions (the "My hand" button, then a card or bid
from the ephemeral hand). Prints interactions per second, the latency from a click to the bot's
first response (the defer Discord needs within 3 s), from a click to the answer the person
reads (the hand shown, or the move applied), and the channel budget seen by the fake.
"""

from __future__ import annotations

import argparse
import asyncio
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
from tests.adapters.discord.fake_discord import FakeDiscord  # noqa: E402
from tests.adapters.discord.harness import Bot, Member, Table  # noqa: E402


def ms(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` (seconds), in milliseconds."""
    return 1000 * percentile(values, q)


async def drive(table: Table, moves: int, answered: list[float]) -> None:
    """Play ``moves`` moves at one table, timing each click until its answer is visible."""
    for _ in range(moves):
        if table.status() != "playing":
            return
        started = time.perf_counter()
        await table.step()
        answered.append((time.perf_counter() - started) / 2)  # two clicks per move


async def main(channels: int, moves: int) -> None:
    logging.disable(logging.WARNING)
    fake = FakeDiscord(channels=channels)
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp, fake.patched():
        bot = await Bot(fake, Path(tmp) / "bench.sqlite3").start()
        chans = [cid for cid, c in fake.channels.items() if c.get("guild_id") == fake.guild_id]
        tables = []
        for i, cid in enumerate(chans):
            people = [Member(fake.add_member(f"P{i}{n}", manage_guild=n == 0), f"P{i}{n}") for n in range(4)]
            table = Table(fake, bot, cid, people, seed=i)
            await table.slash(people[0], "lang", language="en")
            tables.append(table)
        await asyncio.gather(*(t.open("tarneeb41", target=41) for t in tables))
        for t in tables:
            t.interactions.clear()
        answered: list[float] = []
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await asyncio.gather(*(drive(t, moves, answered) for t in tables))
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        interactions = [ix for t in tables for ix in t.interactions]
        first = [ix.latency for ix in interactions if ix.latency is not None]
        await bot.drain(chans)
        await bot.stop()
        late = sum(1 for x in first if x >= 3.0)
        print(f"channels {channels}, moves per channel {moves}, interactions {len(interactions)}")
        print(f"interactions/s {len(interactions) / wall:.1f} (wall {wall:.1f} s, "
              f"process CPU {cpu:.1f} s: {len(interactions) / max(cpu, 1e-9):.1f} per CPU-second)")
        print(f"click -> first response (defer): p50 {ms(first, 0.5):.1f} ms, p99 {ms(first, 0.99):.1f} ms, "
              f"max {ms(first, 1.0):.1f} ms, over 3 s: {late}")
        print(f"click -> answer shown / move applied: p50 {ms(answered, 0.5):.1f} ms, "
              f"p99 {ms(answered, 0.99):.1f} ms")
        print(f"most channel messages in any 5 s window: {max(fake.max_in_window[c] for c in chans)} "
              f"(budget 5); refusals from the fake: {len(fake.violations)}")
    await fake.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=8)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(main(args.channels, args.moves))
