"""Discord shards across processes: which shards this process connects, and every table's home shard.

``MAJLIS_DISCORD_SHARDS`` (``[discord] shards``) is ``<ids>/<count>``: the shard ids this process
runs, out of ``count`` shards in all processes together. ``ids`` is one id, a range, or a list of
them: ``0/2`` and ``1/2`` split a bot over two processes; ``0-3/8`` is shards 0 to 3 of 8 (another
process runs ``4-7/8``); ``0,2,4-5/8`` works too. Unset: one process runs every shard (the
``[discord] sharded`` switch chooses one gateway connection or Discord's recommended count).

A server's events reach only its shard, ``(guild_id >> 22) % count`` (Discord's rule): that is the
home shard of every table in its channels. The process that runs the home shard receives the
table's first command and so holds the table. Direct messages (presses on a hand sent in DM)
reach shard 0 only; the routing (``bot/routing.py``) forwards them to the table's holder, and a
table taken over by another process after its holder died is run there, presses forwarded too.
"""

from __future__ import annotations

import re

_SPEC = re.compile(r"^\s*([0-9,\s-]+)/\s*([0-9]+)\s*$")


def parse_shards(text: str) -> tuple[list[int], int]:
    """``"0-3/8"`` → ``([0, 1, 2, 3], 8)``; ``ValueError`` with what is wrong otherwise."""
    match = _SPEC.match(text)
    if match is None:
        raise ValueError("expected <ids>/<count>, e.g. 0/2, 0-3/8 or 0,2,4-5/8")
    count = int(match.group(2))
    if count < 1:
        raise ValueError("the shard count must be at least 1")
    ids: set[int] = set()
    for raw in match.group(1).split(","):
        part = raw.strip()
        if not part:
            raise ValueError("an empty shard id in the list")
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3") from None
        if first > last:
            raise ValueError(f"the range {part} runs backwards")
        ids.update(range(first, last + 1))
    if max(ids) >= count:
        raise ValueError(f"shard ids run from 0 to {count - 1} when there are {count}")
    return sorted(ids), count


def home_shard(guild_id: int, count: int) -> int:
    """The shard that receives the events of server ``guild_id`` (0 for direct messages: guild 0)."""
    return (guild_id >> 22) % count if count > 0 else 0
