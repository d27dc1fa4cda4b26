"""Delivery of rendered messages within each platform's budget.

One :class:`Outbox` per destination (a chat, a channel, a DM) owns a single worker task that sends
its queue in order, never faster than the destination's :class:`Budget`. Waiting edits of one key
coalesce to the newest content, an edit equal to what was last sent is dropped, and the newest
state of every keyed message is always delivered in the end. Errors are typed by the adapters'
:class:`Transport` implementations: :class:`RetryAfter` pauses that destination only,
:class:`TransientError` retries with backoff (edits until they land; a new message or a delete
gives up after ``max_attempts``), :class:`MessageGone` turns an edit into a send and
:class:`Forbidden` is reported, not retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.render.message import OutMessage

log = logging.getLogger(__name__)

EDIT, NEW, DELETE = "edit", "new", "delete"


class TransportError(Exception):
    """Base of the errors a :class:`Transport` raises."""


class Forbidden(TransportError):
    """The destination refuses us (Telegram 403, Discord 50007): do not retry."""

    def __init__(self, dest: str = "") -> None:
        super().__init__(dest)
        self.dest = dest


class RetryAfter(TransportError):
    """Flood control: wait ``retry_after`` seconds before talking to this destination again."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(retry_after)
        self.retry_after = float(retry_after)


class TransientError(TransportError):
    """A network error or a 5xx: try again later."""


class MessageGone(TransportError):
    """The message to edit or delete no longer exists."""


@dataclass(frozen=True, slots=True)
class Budget:
    """At most ``ops`` operations in any window of ``per_seconds`` seconds."""

    ops: int
    per_seconds: float


class Transport(Protocol):
    """What an adapter gives the outbox: send, edit and delete plain messages."""

    async def send(self, dest: str, msg: OutMessage) -> str:
        """Post ``msg`` at ``dest``; return the new message's id."""
        ...

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        """Replace the content of an earlier message."""
        ...

    async def delete(self, dest: str, message_id: str) -> None:
        """Remove an earlier message."""
        ...

    def budget(self, dest: str) -> Budget:
        """The platform's rate limit for ``dest``."""
        ...


MessageIdCallback = Callable[[str, str, str | None], Awaitable[None] | None]
ForbiddenCallback = Callable[[str, str | None], Awaitable[None] | None]


class Window:
    """A sliding window of the times of the last operations, enforcing one :class:`Budget`."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self._times: deque[float] = deque()

    def wait(self, now: float) -> float:
        """Seconds to wait from ``now`` before the next operation is allowed (0 if allowed)."""
        per = self.budget.per_seconds
        while self._times and self._times[0] <= now - per:
            self._times.popleft()
        if len(self._times) < self.budget.ops:
            return 0.0
        return self._times[0] + per - now

    def record(self, now: float) -> None:
        """Count one operation at ``now``."""
        self._times.append(now)


@dataclass(slots=True)
class _Item:
    key: str | None
    msg: OutMessage | None
    mode: str
    attempts: int = 0
    tag: str | None = None


async def _call(cb: Callable[..., Awaitable[None] | None] | None, *args: Any) -> None:
    if cb is None:
        return
    try:
        result = cb(*args)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("outbox callback failed")


class Outbox:
    """The ordered, budgeted queue of one destination."""

    def __init__(
        self,
        dest: str,
        transport: Transport,
        budget: Budget,
        clock: Clock,
        *,
        on_message_id: MessageIdCallback | None = None,
        on_forbidden: ForbiddenCallback | None = None,
        backoff: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0),
        max_attempts: int = 8,
    ) -> None:
        self.dest = dest
        self.transport = transport
        self.clock = clock
        self.window = Window(budget)
        self.on_message_id = on_message_id
        self.on_forbidden = on_forbidden
        self.backoff = backoff
        self.max_attempts = max_attempts
        self.message_ids: dict[str, str] = {}
        self.last_sent: dict[str, OutMessage] = {}
        self._queue: deque[_Item] = deque()
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self.sent_ops = 0

    def remember(self, key: str, message_id: str | None) -> None:
        """Know that ``key`` is shown as ``message_id`` (after a restart); None forgets it."""
        if message_id is None:
            self.message_ids.pop(key, None)
        else:
            self.message_ids[key] = message_id
        self.last_sent.pop(key, None)

    def put(self, key: str | None, msg: OutMessage | None, mode: str = EDIT, *, tag: str | None = None) -> None:
        """Queue ``msg`` under ``key``: ``edit`` it in place (sent if new), post it ``new``, or ``delete``.

        A waiting edit of the same key is replaced by this newer content, keeping its place. A
        ``new`` message with a ``tag`` replaces a waiting ``new`` message of the same tag (a
        notification that only its newest version is worth sending), and :meth:`withdraw` drops it.
        """
        if mode not in (EDIT, NEW, DELETE):
            raise ValueError(f"unknown outbox mode {mode!r}")
        if mode == NEW and tag is not None:
            for item in self._queue:
                if item.mode == NEW and item.tag == tag:
                    item.msg = msg
                    return
            self._queue.append(_Item(key, msg, mode, tag=tag))
            self._wake()
            return
        if mode == EDIT:
            if key is None or msg is None:
                raise ValueError("an edit needs a key and a message")
            for item in self._queue:
                if item.mode == EDIT and item.key == key:
                    item.msg = msg
                    self._drop_noop()
                    return
            if self.last_sent.get(key) == msg and key in self.message_ids:
                return
        elif mode == DELETE and key is None:
            raise ValueError("a delete needs a key")
        self._queue.append(_Item(key, msg, mode))
        self._wake()

    def withdraw(self, tag: str) -> int:
        """Drop waiting ``new`` messages of ``tag`` (no longer true); return how many."""
        keep = deque(i for i in self._queue if not (i.mode == NEW and i.tag == tag))
        dropped = len(self._queue) - len(keep)
        self._queue = keep
        return dropped

    @property
    def busy(self) -> bool:
        """Whether something waits or is being delivered."""
        return bool(self._queue) or not self._idle.is_set()

    def pending(self) -> int:
        """How many operations wait (for tests and diagnostics)."""
        return len(self._queue)

    async def drain(self) -> None:
        """Return once everything queued so far has been delivered or given up."""
        while self._queue or not self._idle.is_set():
            await self._idle.wait()
            if self._queue and self._task is None:
                self._wake()

    async def close(self) -> None:
        """Stop the worker (what is still queued is dropped)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._queue.clear()
        self._idle.set()

    def _drop_noop(self) -> None:
        keep = deque(
            i for i in self._queue
            if not (
                i.mode == EDIT and i.key is not None and i.key in self.message_ids
                and self.last_sent.get(i.key) == i.msg
            )
        )
        self._queue = keep

    def _wake(self) -> None:
        if self._task is None or self._task.done():
            self._idle.clear()
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"outbox:{self.dest}")

    async def _run(self) -> None:
        try:
            while self._queue:
                delay = self.window.wait(self.clock.now())
                if delay > 0:
                    await self.clock.sleep(delay)
                    continue
                item = self._queue.popleft()
                if (
                    item.mode == EDIT and item.key in self.message_ids
                    and self.last_sent.get(item.key or "") == item.msg
                ):
                    continue
                await self._deliver(item)
        finally:
            self._task = None
            self._idle.set()

    async def _deliver(self, item: _Item) -> None:
        self.window.record(self.clock.now())
        self.sent_ops += 1
        item.attempts += 1
        try:
            await self._op(item)
        except RetryAfter as e:
            log.info("outbox %s: retry after %.1fs", self.dest, e.retry_after)
            self._requeue(item)
            await self.clock.sleep(max(e.retry_after, 0.0))
        except TransientError as e:
            # A message's state (an edit) is retried until it lands: the final state is never lost.
            if item.mode != EDIT and item.attempts >= self.max_attempts:
                log.warning("outbox %s: giving up after %d attempts: %s", self.dest, item.attempts, e)
                return
            self._requeue(item)
            await self.clock.sleep(self.backoff[min(item.attempts - 1, len(self.backoff) - 1)])
        except Forbidden:
            log.info("outbox %s: forbidden", self.dest)
            await _call(self.on_forbidden, self.dest, item.key)

    def _requeue(self, item: _Item) -> None:
        """Put a failed item back in front, unless newer content for its key is already waiting."""
        if item.mode == EDIT and any(i.mode == EDIT and i.key == item.key for i in self._queue):
            return
        self._queue.appendleft(item)

    async def _op(self, item: _Item) -> None:
        key = item.key
        if item.mode == DELETE:
            assert key is not None
            mid = self.message_ids.pop(key, None)
            self.last_sent.pop(key, None)
            if mid is not None:
                with contextlib.suppress(MessageGone):
                    await self.transport.delete(self.dest, mid)
                await _call(self.on_message_id, self.dest, key, None)
            return
        assert item.msg is not None
        mid = self.message_ids.get(key) if (key is not None and item.mode == EDIT) else None
        if mid is not None:
            try:
                await self.transport.edit(self.dest, mid, item.msg)
            except MessageGone:
                self.message_ids.pop(key or "", None)
                self.last_sent.pop(key or "", None)
                mid = None
            else:
                self.last_sent[key or ""] = item.msg
                return
            # The edit did not happen; sending the replacement is a new operation.
            self._queue.appendleft(item)
            return
        new_id = await self.transport.send(self.dest, item.msg)
        if key is not None:
            self.message_ids[key] = new_id
            self.last_sent[key] = item.msg
            await _call(self.on_message_id, self.dest, key, new_id)


class OutboxHub:
    """One :class:`Outbox` per destination, created on first use with the transport's budget."""

    def __init__(
        self,
        transport: Transport,
        clock: Clock,
        *,
        on_message_id: MessageIdCallback | None = None,
        on_forbidden: ForbiddenCallback | None = None,
    ) -> None:
        self.transport = transport
        self.clock = clock
        self.on_message_id = on_message_id
        self.on_forbidden = on_forbidden
        self.outboxes: dict[str, Outbox] = {}

    def outbox(self, dest: str) -> Outbox:
        """The outbox of ``dest`` (created on first use)."""
        box = self.outboxes.get(dest)
        if box is None:
            box = Outbox(
                dest, self.transport, self.transport.budget(dest), self.clock,
                on_message_id=self.on_message_id, on_forbidden=self.on_forbidden,
            )
            self.outboxes[dest] = box
        return box

    def put(self, dest: str, key: str | None, msg: OutMessage | None, mode: str = EDIT, *,
            tag: str | None = None) -> None:
        """Queue a message at ``dest`` (see :meth:`Outbox.put`)."""
        self.outbox(dest).put(key, msg, mode, tag=tag)

    def withdraw(self, dest: str, tag: str) -> int:
        """Drop waiting tagged ``new`` messages at ``dest`` (see :meth:`Outbox.withdraw`)."""
        box = self.outboxes.get(dest)
        return box.withdraw(tag) if box is not None else 0

    def remember(self, dest: str, key: str, message_id: str | None) -> None:
        """Know a stored message id (see :meth:`Outbox.remember`)."""
        self.outbox(dest).remember(key, message_id)

    async def drain(self) -> None:
        """Wait until every outbox is idle (repeats while deliveries queue more)."""
        while any(b.busy for b in self.outboxes.values()):
            for box in list(self.outboxes.values()):
                await box.drain()

    async def close(self) -> None:
        """Stop every worker."""
        for box in list(self.outboxes.values()):
            await box.close()
