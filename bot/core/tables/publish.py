"""Table updates to the subscribers: built under the table's lock, delivered after it, in order.

A change posts its :class:`~bot.core.model.TableUpdate` to the table's queue while it holds the lock
(so the update is exactly the state it committed); the task that made the change delivers the queue
once it has released the lock (:meth:`Publisher.locked` does both). At most one task delivers a
table's queue at a time, so every subscriber sees a table's updates in order; a task whose update
another task is delivering waits until it has been delivered, so a call returns after the
subscribers heard of it, as before. A subscriber may call the manager again on the same table (the
lock is free); such a nested change is delivered by the outer loop, after the current update.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.core.listeners import tell
from bot.core.model import LazyViews, TableUpdate
from bot.core.table import Table
from bot.core.views import Event, View, seat_views
from storage.records import ActionRecord

log = logging.getLogger(__name__)

Listener = Callable[[TableUpdate], Awaitable[None]]


class _Item:
    __slots__ = ("done", "update")

    def __init__(self, update: TableUpdate) -> None:
        self.update = update
        self.done: asyncio.Future[None] | None = None


class _Locked:
    """``async with publisher.locked(table)``: a plain class, cheaper than a generator-based one."""

    __slots__ = ("publisher", "table")

    def __init__(self, publisher: Publisher, table: Table) -> None:
        self.publisher = publisher
        self.table = table

    async def __aenter__(self) -> None:
        await self.table.lock.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.table.lock.release()
        if self.table.table_id in self.publisher._queues:
            await self.publisher.flush(self.table.table_id)


class Publisher:
    """The subscribers and one delivery queue per table."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._queues: dict[int, deque[_Item]] = {}
        self._drainers: dict[int, asyncio.Task[Any] | None] = {}
        self._spare: set[asyncio.Task[None]] = set()

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every update, in order per table."""
        self._listeners.append(listener)

    def post(self, table: Table, events: list[Event], reason: str, action: ActionRecord | None = None) -> None:
        """Queue an update of ``table`` as it is now (the caller holds its lock)."""
        private: Mapping[int, View] = {}
        if table.game is not None:
            humans = table.humans()
            if humans:
                private = LazyViews(sorted(humans), seat_views(table.game))  # made only if a subscriber reads them
        update = TableUpdate(snapshot=table.snapshot(), events=events, private=private, reason=reason,
                             action=action)
        self._queues.setdefault(table.table_id, deque()).append(_Item(update))

    def locked(self, table: Table) -> _Locked:
        """Hold the table's lock for the block, then deliver what it posted (also after a refusal)."""
        return _Locked(self, table)

    async def flush(self, table_id: int) -> None:
        """Deliver the table's queued updates (or wait while another task delivers them)."""
        queue = self._queues.get(table_id)
        if not queue:
            return
        me = asyncio.current_task()
        if table_id in self._drainers:
            if self._drainers[table_id] is me:
                return  # a subscriber changed the table: the loop below delivers it next
            last = queue[-1]
            if last.done is None:
                last.done = asyncio.get_running_loop().create_future()
            await asyncio.shield(last.done)
            return
        self._drainers[table_id] = me
        try:
            while queue:
                item = queue.popleft()
                await self._deliver(item.update)
                if item.done is not None and not item.done.done():
                    item.done.set_result(None)
        finally:
            del self._drainers[table_id]
            if queue:  # cancelled half-way: another task delivers the rest
                task = asyncio.ensure_future(self.flush(table_id))
                self._spare.add(task)
                task.add_done_callback(self._spare.discard)
            elif self._queues.get(table_id) is queue:
                del self._queues[table_id]

    async def drain(self) -> None:
        """Wait until every queued update of every table has been delivered."""
        me = asyncio.current_task()
        while True:
            # a queue this very task is delivering (drain called by a subscriber) is left to it
            waiting = [t for t in self._queues if t not in self._drainers or self._drainers[t] is not me]
            if not waiting and not self._spare:
                return
            for table_id in waiting:
                await self.flush(table_id)
            if self._spare:
                await asyncio.gather(*list(self._spare), return_exceptions=True)
            # Another task may be delivering a queue's last update: the queue is empty but still
            # listed, so flush() returned at once. Let that task run before looking again (without
            # this the loop spun without ever yielding, and that delivery never ended).
            await asyncio.sleep(0)

    async def _deliver(self, update: TableUpdate) -> None:
        await tell(self._listeners, update, log, "a subscriber failed on table %s (%s)", update.snapshot.table_id,
                   update.reason)
