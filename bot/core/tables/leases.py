"""Several processes on one database: each runs only the live tables it holds by lease.

A process (``ManagerSettings.owner``) holds the tables it creates, and at start and on every
heartbeat it claims the live tables that nobody holds: new ones without an owner, and those
of a process that stopped renewing (it died: its leases ran out). The heartbeat first renews
this process's leases; a table it held but no longer does (another process took it after this
one stalled past its lease) is dropped from memory at once, timers and all. A claimed table is
restored like at start (snapshot + log tail) and resumes: a turn whose deadline passed while
its owner was dead times out at once, an AI seat moves, so the match goes on.

Nothing here is needed for correctness against a doubled write: every write of a table is a
compare-and-set on its ``rev`` and every action is fenced by its ``seq`` (``storage``), so a
stalled process that comes back and writes is refused and reloads. Leases decide who *runs* a
table (its timers and AI), so that exactly one process does, and that one always does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.core.clock import Clock
from bot.core.settings import ManagerSettings
from bot.core.table import Table
from bot.core.tables.registry import Registry
from storage.repository import Repository

log = logging.getLogger(__name__)


class Leases:
    """The heartbeat of one process's leases (only when ``settings.owner`` is set)."""

    def __init__(self, repo: Repository, clock: Clock, settings: ManagerSettings, registry: Registry, *,
                 restore: Callable[[list[int]], Awaitable[None]], drop: Callable[[Table], Awaitable[None]]) -> None:
        assert settings.owner is not None
        self.repo = repo
        self.clock = clock
        self.owner: str = settings.owner
        self.lease = settings.lease_seconds
        self.every = settings.heartbeat_seconds
        self.prefixes = settings.chat_prefixes  # a Telegram bot takes over only Telegram tables
        self.registry = registry
        self._restore = restore
        self._drop = drop
        self._task: asyncio.Task[None] | None = None
        self._beating = asyncio.Lock()  # the heartbeat and a takeover asked by the routing (core/cluster/routing.py)
        self.taken_over: list[int] = []  # tables claimed after start (a dead process's), for logs and tests

    async def initial(self) -> list[int]:
        """At start: the tables this owner still holds (a restart under the same name) and the free ones."""
        now = self.clock.now()
        held = await self.repo.renew_leases(self.owner, now, self.lease)
        claimed = await self.repo.claim_tables(self.owner, now, self.lease, chat_prefixes=self.prefixes)
        return sorted({*held, *claimed})

    async def beat(self) -> None:
        """Renew; let go of what another process took; restore what this one could take."""
        async with self._beating:
            await self._beat()

    async def _beat(self) -> None:
        before = [t for t in self.registry.tables.values() if t.live]
        now = self.clock.now()
        held = set(await self.repo.renew_leases(self.owner, now, self.lease))
        for table in before:
            if table.live and table.table_id not in held:
                log.warning("table %s: another process holds it now; this one lets it go", table.table_id)
                await self._drop(table)
        claimed = await self.repo.claim_tables(self.owner, now, self.lease, chat_prefixes=self.prefixes)
        new = [i for i in claimed if (t := self.registry.find(i)) is None or not t.live]
        if new:
            log.info("taking over tables %s (their holder stopped renewing)", new)
            self.taken_over += new
            await self._restore(new)

    def start(self) -> None:
        """Beat every ``heartbeat_seconds`` on the clock, until :meth:`close`."""
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self.clock.sleep(self.every)
            try:
                await self.beat()
            except Exception:  # the database is away: try again on the next beat (leases last 3 beats)
                log.exception("lease heartbeat failed")

    async def close(self, *, release: bool) -> None:
        """Stop beating; ``release``: give the live tables up at once, so another process takes them now."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if release:
            with contextlib.suppress(Exception):
                await self.repo.release_tables(self.owner)
