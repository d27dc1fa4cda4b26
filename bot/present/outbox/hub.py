"""One :class:`~bot.present.outbox.queue.Outbox` per destination, the bot-wide limiter, forgetting and eviction."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from bot.core import metrics
from bot.core.cache import TTLCache
from bot.core.identity import is_dm
from bot.present.keys import table_of_key
from bot.present.outbox.pacing import Limiter
from bot.present.outbox.queue import Outbox
from bot.present.outbox.types import (
    DELETE,
    EDIT,
    NEW,
    Budget,
    Content,
    ForbiddenCallback,
    MessageIdCallback,
    Transport,
    _call,
    fingerprint,
)

if TYPE_CHECKING:
    from bot.core.clock import Clock


class OutboxHub:
    """One :class:`Outbox` per destination, created on first use with the transport's budget.

    ``global_budget`` (default: the transport's ``global_budget`` attribute, if any) is shared by
    all of them. Idle outboxes that hold nothing are evicted now and then; the blocked DMs are
    remembered here (bounded) so that an evicted one stays blocked.
    """

    #: How long a finished table's message ids are kept after its last state is delivered.
    FORGET_AFTER = 60.0
    #: Sweep after this many new outboxes, or this many puts (and whenever a forget is due).
    SWEEP_EVERY = 256
    SWEEP_PUTS = 4096

    def __init__(
        self,
        transport: Transport,
        clock: Clock,
        *,
        on_message_id: MessageIdCallback | None = None,
        on_forbidden: ForbiddenCallback | None = None,
        global_budget: Budget | None = None,
        jitter: float = 0.5,
        max_blocked: int = 100_000,
    ) -> None:
        self.transport = transport
        self.clock = clock
        self.on_message_id = on_message_id
        self.on_forbidden = on_forbidden
        self.jitter = jitter
        budget = global_budget if global_budget is not None else getattr(transport, "global_budget", None)
        self.limiter = Limiter(budget, clock) if isinstance(budget, Budget) else None
        self.outboxes: dict[str, Outbox] = {}
        self.blocked: TTLCache[str, bool] = TTLCache(max_blocked)
        self._tables: dict[int, set[tuple[str, str]]] = {}  # table id -> (dest, key) known
        self._forgetting: deque[tuple[float, int]] = deque()
        self._id_listeners: list[tuple[str, MessageIdCallback]] = []
        self._created = 0
        self._puts = 0
        self.evicted = 0
        metrics.track_hub(self)  # majlis_outbox_queue_depth

    def outbox(self, dest: str) -> Outbox:
        """The outbox of ``dest`` (created on first use)."""
        box = self.outboxes.get(dest)
        if box is None:
            self._created += 1
            if self._created % self.SWEEP_EVERY == 0:
                self.sweep()
            box = Outbox(
                dest, self.transport, self.transport.budget(dest), self.clock,
                on_message_id=self._message_id, on_forbidden=self._forbidden, jitter=self.jitter,
                limiter=self.limiter,
            )
            if dest in self.blocked:
                box.blocked = True
            self.outboxes[dest] = box
        return box

    def watch_ids(self, prefix: str, callback: MessageIdCallback) -> None:
        """Tell ``callback(dest, key, message_id)`` too of each message id of a key starting with
        ``prefix`` (a message kept outside any table, such as a chat's standings)."""
        self._id_listeners.append((prefix, callback))

    async def _message_id(self, dest: str, key: str, message_id: str | None) -> None:
        for prefix, callback in self._id_listeners:
            if key.startswith(prefix):
                await _call(callback, dest, key, message_id)
        await _call(self.on_message_id, dest, key, message_id)

    async def _forbidden(self, dest: str, key: str | None) -> None:
        if is_dm(dest):
            self.blocked.put(dest, True)
        await _call(self.on_forbidden, dest, key)

    def put(self, dest: str, key: str | None, msg: Content | None, mode: str = EDIT, *,
            tag: str | None = None, lane: str | None = None) -> None:
        """Queue a message (or a builder) at ``dest`` (see :meth:`Outbox.put`)."""
        if key is not None:
            tid = _table_of_key(key)
            if tid is not None:
                known = self._tables.get(tid)
                if known is None:
                    known = self._tables[tid] = set()
                known.add((dest, key))
        self.outbox(dest).put(key, msg, mode, tag=tag, lane=lane)
        self._puts += 1
        if self._puts % self.SWEEP_PUTS == 0:
            self.sweep()
        elif self._forgetting and self._forgetting[0][0] <= self.clock.now():
            self._forget_due()

    def replace(self, dest: str, key: str, msg: Content | None) -> None:
        """Show ``msg`` as a new message under ``key`` at ``dest`` in place of the one before (or
        none, ``msg`` None): the one still waiting is withdrawn, the one shown deleted, then the new
        one sent. A notification that only its newest version is worth keeping: a new message, so
        that the person is notified, yet never more than one in the chat."""
        self.withdraw(dest, key)
        self.put(dest, key, None, DELETE)  # nothing to do unless one is shown
        if msg is not None:
            self.put(dest, key, msg, NEW, tag=key)

    def withdraw(self, dest: str, tag: str) -> int:
        """Drop waiting tagged ``new`` messages at ``dest`` (see :meth:`Outbox.withdraw`)."""
        box = self.outboxes.get(dest)
        return box.withdraw(tag) if box is not None else 0

    def remember(self, dest: str, key: str, message_id: str | None, shown: str | None = None) -> None:
        """Know a stored message id (see :meth:`Outbox.remember`)."""
        tid = _table_of_key(key)
        if tid is not None and message_id is not None:
            self._tables.setdefault(tid, set()).add((dest, key))
        self.outbox(dest).remember(key, message_id, shown)

    def shown(self, table_id: int) -> dict[str, str]:
        """The fingerprints of what the table's messages show now, by key."""
        out: dict[str, str] = {}
        for dest, key in self._tables.get(table_id, ()):
            box = self.outboxes.get(dest)
            if box is not None and key in box.last_sent:
                out[key] = fingerprint(box.last_sent[key])
        return out

    def restored(self, dest: str) -> None:
        """``dest`` was served before a restart: pace it as if its window were spent."""
        self.outbox(dest).restored()

    def unblock(self, dest: str) -> None:
        """Accept messages for a DM again (the person started the bot)."""
        self.blocked.discard(dest)
        box = self.outboxes.get(dest)
        if box is not None:
            box.unblock()

    def is_blocked(self, dest: str) -> bool:
        """Whether ``dest`` refused us and has not been unblocked."""
        return dest in self.blocked

    def forget_table(self, table_id: int, *, after: float | None = None) -> None:
        """The table is over: forget its keys once their last state is delivered (and ``after``
        seconds more, so that late readers such as the terminal still find its messages)."""
        wait = self.FORGET_AFTER if after is None else after
        if wait <= 0:
            self._forget_now(table_id)
        else:
            self._forgetting.append((self.clock.now() + wait, table_id))

    def _forget_now(self, table_id: int) -> None:
        by_dest: dict[str, list[str]] = {}
        for dest, key in self._tables.pop(table_id, ()):
            by_dest.setdefault(dest, []).append(key)
        for dest, keys in by_dest.items():
            box = self.outboxes.get(dest)
            if box is not None:
                box.forget(keys)

    def _forget_due(self) -> float:
        now = self.clock.now()
        while self._forgetting and self._forgetting[0][0] <= now:
            self._forget_now(self._forgetting.popleft()[1])
        return now

    def sweep(self) -> int:
        """Forget finished tables whose time has come and evict idle, empty outboxes; how many."""
        now = self._forget_due()
        idle = [d for d, b in self.outboxes.items() if b.evictable(now)]
        for dest in idle:
            del self.outboxes[dest]
        self.evicted += len(idle)
        return len(idle)

    async def drain(self) -> None:
        """Wait until every outbox is idle (repeats while deliveries queue more)."""
        while any(b.busy for b in self.outboxes.values()):
            for box in list(self.outboxes.values()):
                await box.drain()

    async def close(self) -> None:
        """Stop every worker."""
        for box in list(self.outboxes.values()):
            await box.close()


#: key -> its table id (or None), as :func:`_table_of_key` found it (a table's keys come back with every put).
_KEY_TABLES: dict[str, int | None] = {}


def _table_of_key(key: str) -> int | None:
    """The table id of a presenter key (:func:`bot.present.keys.table_of_key`), remembered."""
    try:
        return _KEY_TABLES[key]
    except KeyError:
        pass
    tid = table_of_key(key)
    if len(_KEY_TABLES) >= 50_000:
        _KEY_TABLES.clear()
    _KEY_TABLES[key] = tid
    return tid

