"""One destination's ordered, paced queue (see the package's docstring)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core import metrics
from bot.core.identity import is_dm
from bot.present.outbox.pacing import Limiter, Window
from bot.present.outbox.types import (
    DELETE,
    EDIT,
    MAIN,
    NEW,
    REPLY,
    Budget,
    Content,
    Forbidden,
    ForbiddenCallback,
    MessageGone,
    MessageIdCallback,
    PermanentError,
    RetryAfter,
    TransientError,
    Transport,
    _call,
    fingerprint,
)

if TYPE_CHECKING:
    from bot.core.clock import Clock
    from bot.present.render.message import OutMessage

log = logging.getLogger("bot.present.outbox")


@dataclass(slots=True)
class _Item:
    key: str | None
    content: Content | None
    mode: str
    attempts: int = 0
    tag: str | None = None
    lane: str = MAIN
    queued: float = 0.0


def _build(content: Content | None) -> OutMessage | None:
    """The message to send now: the content itself, or what its builder returns."""
    return content() if callable(content) else content


class Outbox:
    """The ordered, paced queue of one destination."""

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
        jitter: float = 0.5,
        limiter: Limiter | None = None,
        max_replies: int = 5,
        reply_wait: float = 5.0,
        rng: random.Random | None = None,
    ) -> None:
        self.dest = dest
        self.transport = transport
        self.clock = clock
        self.window = Window(budget)
        self.on_message_id = on_message_id
        self.on_forbidden = on_forbidden
        self.backoff = backoff
        self.max_attempts = max_attempts
        self.jitter = jitter
        self.limiter = limiter
        self.max_replies = max_replies
        self.reply_wait = reply_wait
        self.rng = rng or random.Random()
        self.message_ids: dict[str, str] = {}
        self.last_sent: dict[str, OutMessage] = {}
        self.blocked = False
        self._queue: deque[_Item] = deque()
        self._edits: dict[str, _Item] = {}  # key -> its waiting edit (in _queue)
        self._replies: deque[_Item] = deque()
        self._forget: set[str] = set()  # keys to drop once their last state is delivered
        self._shown: dict[str, str] = {}  # key -> fingerprint of a remembered message's content
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._reply_turn = False
        self.sent_ops = 0
        self.dropped = 0

    # -- queueing -------------------------------------------------------------------------------

    def remember(self, key: str, message_id: str | None, shown: str | None = None) -> None:
        """Know that ``key`` is shown as ``message_id`` (after a restart); None forgets it. ``shown``: the
        :func:`fingerprint` of what it is known to show (an edit to that content is not sent: "not modified")."""
        if message_id is None:
            self.message_ids.pop(key, None)
        else:
            self.message_ids[key] = message_id
        self.last_sent.pop(key, None)
        if shown is not None and message_id is not None:
            self._shown[key] = shown
        else:
            self._shown.pop(key, None)

    def restored(self) -> None:
        """This destination was served by an earlier process: pace as if its window were spent."""
        if self.sent_ops == 0:
            self.window.restored(self.clock.now())

    def put(self, key: str | None, msg: Content | None, mode: str = EDIT, *, tag: str | None = None,
            lane: str | None = None) -> None:
        """Queue ``msg`` (a message or a builder) under ``key``: ``edit`` it in place (sent if new), post it
        ``new``, or ``delete`` it.

        A waiting edit of the same key is replaced by this newer content, keeping its place. A ``new`` message
        with a ``tag`` replaces a waiting ``new`` message of the same tag (a notification that only its newest
        version is worth sending), and :meth:`withdraw` drops it. ``lane``: :data:`MAIN` (the default for keyed
        items, tagged ones and the presenter's notices) or :data:`REPLY` (the default for an untagged new
        message without a key)."""
        if mode not in (EDIT, NEW, DELETE):
            raise ValueError(f"unknown outbox mode {mode!r}")
        if mode == EDIT and (key is None or msg is None):
            raise ValueError("an edit needs a key and a message")
        if mode == DELETE and key is None:
            raise ValueError("a delete needs a key")
        if self.blocked:
            self.dropped += 1
            return
        if key is not None:
            self._forget.discard(key)
        if lane is None:
            lane = REPLY if (mode == NEW and key is None and tag is None) else MAIN
        now = self.clock.now()
        if mode == NEW and lane == REPLY:
            self._put_reply(_Item(key, msg, mode, tag=tag, lane=REPLY, queued=now))
            return
        if mode == NEW and tag is not None:
            for item in self._queue:
                if item.mode == NEW and item.tag == tag:
                    item.content = msg
                    return
        elif mode == EDIT:
            assert key is not None
            waiting = self._edits.get(key)
            if waiting is not None:
                waiting.content = msg
                return
            if not callable(msg) and self.last_sent.get(key) == msg and key in self.message_ids:
                return
        item = _Item(key, msg, mode, tag=tag, queued=now)
        if mode == EDIT:
            assert key is not None
            self._edits[key] = item
        self._queue.append(item)
        self._wake()

    def _put_reply(self, item: _Item) -> None:
        if not callable(item.content) and any(r.content == item.content for r in self._replies):
            return  # the same reply is already waiting
        if len(self._replies) >= self.max_replies:
            self.dropped += 1
            log.info("outbox %s: %d replies waiting already; one dropped", self.dest, len(self._replies))
            return
        self._replies.append(item)
        self._wake()

    def withdraw(self, tag: str) -> int:
        """Drop waiting ``new`` messages of ``tag`` (no longer true); return how many."""
        keep = deque(i for i in self._queue if not (i.mode == NEW and i.tag == tag))
        dropped = len(self._queue) - len(keep)
        self._queue = keep
        return dropped

    def forget(self, keys: Iterable[str]) -> None:
        """Drop what is known about ``keys`` once their newest state is delivered."""
        for key in keys:
            if key in self._edits or any(i.key == key for i in self._queue):
                self._forget.add(key)
            else:
                self.message_ids.pop(key, None)
                self.last_sent.pop(key, None)
                self._shown.pop(key, None)

    def block(self) -> None:
        """Refuse everything from now on (a person's DM that answered 403) and drop what waits."""
        self.blocked = True
        self.dropped += len(self._queue) + len(self._replies)
        self._queue.clear()
        self._edits.clear()
        self._replies.clear()

    def unblock(self) -> None:
        """Accept messages again (the person started the bot)."""
        self.blocked = False

    @property
    def busy(self) -> bool:
        """Whether something waits or is being delivered."""
        return bool(self._queue) or bool(self._replies) or not self._idle.is_set()

    def pending(self) -> int:
        """How many operations wait (for tests and diagnostics)."""
        return len(self._queue) + len(self._replies)

    def shown(self) -> dict[str, str]:
        """The fingerprint of what each keyed message shows now (as far as this process knows)."""
        return {key: fingerprint(msg) for key, msg in self.last_sent.items()}

    def evictable(self, now: float) -> bool:
        """Idle, holding no message id, and its pacing no longer matters: safe to drop."""
        return (not self.busy and not self.message_ids and not self.blocked
                and self.window.idle_since(now))

    async def drain(self) -> None:
        """Return once everything queued so far has been delivered or given up."""
        while self.busy:
            await self._idle.wait()
            if (self._queue or self._replies) and self._task is None:
                self._wake()

    async def close(self) -> None:
        """Stop the worker (what is still queued is dropped)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._queue.clear()
        self._edits.clear()
        self._replies.clear()
        self._idle.set()

    # -- the worker -----------------------------------------------------------------------------

    def _wake(self) -> None:
        if self._task is None or self._task.done():
            self._idle.clear()
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"outbox:{self.dest}")

    def _pop(self) -> _Item | None:
        """The next item: the main lane first, a reply when that is empty or the reply has waited
        ``reply_wait`` seconds (then one at a time, alternating with the main lane)."""
        if self._replies and (not self._queue or (
                not self._reply_turn and self.clock.now() - self._replies[0].queued >= self.reply_wait)):
            self._reply_turn = bool(self._queue)
            return self._replies.popleft()
        self._reply_turn = False
        if not self._queue:
            return None
        item = self._queue.popleft()
        if item.mode == EDIT and item.key is not None and self._edits.get(item.key) is item:
            del self._edits[item.key]
        return item

    async def _run(self) -> None:
        try:
            while (self._queue or self._replies) and not self.blocked:
                delay = self.window.wait(self.clock.now())
                if delay > 0:
                    await self.clock.sleep(delay)
                    continue
                if self.limiter is not None:
                    await self.limiter.acquire()
                item = self._pop()
                if item is None:
                    break
                try:
                    await self._deliver(item)
                except asyncio.CancelledError:
                    raise
                except Exception:  # a bug in a builder or an unmapped transport error: go on
                    self._unexpected(item)
                self._settle(item)
        finally:
            self._task = None
            self._idle.set()

    def _unexpected(self, item: _Item) -> None:
        log.exception("outbox %s: delivering %s %s failed unexpectedly", self.dest, item.mode, item.key or "")
        if item.mode == EDIT and item.attempts < min(self.max_attempts, 3):
            self._requeue(item)
        else:
            self.dropped += 1

    def _settle(self, item: _Item) -> None:
        """Forget a finished table's key once nothing newer for it waits."""
        key = item.key
        if key is not None and key in self._forget and key not in self._edits and not any(
                i.key == key for i in self._queue):
            self._forget.discard(key)
            self.message_ids.pop(key, None)
            self.last_sent.pop(key, None)

    def _delay(self, attempt: int) -> float:
        base = self.backoff[min(attempt - 1, len(self.backoff) - 1)]
        return base * (1.0 + self.jitter * (2.0 * self.rng.random() - 1.0)) if self.jitter else base

    async def _deliver(self, item: _Item) -> None:
        item.attempts += 1
        try:
            await self._op(item)
        except RetryAfter as e:
            log.info("outbox %s: retry after %.1fs", self.dest, e.retry_after)
            metrics.rate_limited(self.dest)
            self._requeue(item)
            await self.clock.sleep(max(e.retry_after, 0.0))
        except TransientError as e:
            # A message's state (an edit) is retried until it lands: the final state is never lost.
            if item.mode != EDIT and item.attempts >= self.max_attempts:
                log.warning("outbox %s: giving up after %d attempts: %s", self.dest, item.attempts, e)
                self.dropped += 1
                return
            self._requeue(item)
            await self.clock.sleep(self._delay(item.attempts))
        except PermanentError as e:
            log.warning("outbox %s: %s %s refused for good: %s", self.dest, item.mode, item.key or "", e)
            self.dropped += 1
        except Forbidden:
            log.info("outbox %s: forbidden", self.dest)
            if is_dm(self.dest):
                self.block()
            await _call(self.on_forbidden, self.dest, item.key)

    def _requeue(self, item: _Item) -> None:
        """Put a failed item back in front, unless newer content for its key is already waiting."""
        if self.blocked:
            return
        if item.lane == REPLY:
            self._replies.appendleft(item)
            return
        if item.mode == EDIT and item.key is not None:
            if item.key in self._edits:
                return
            self._edits[item.key] = item
        self._queue.appendleft(item)

    async def _transport(self, call: Awaitable[Any]) -> Any:
        """One paced operation: spends a token at the start, counts in the window at the end."""
        self.window.take(self.clock.now())
        self.sent_ops += 1
        try:
            return await call
        finally:
            self.window.record(self.clock.now())

    async def _op(self, item: _Item) -> None:
        key = item.key
        if item.mode == DELETE:
            assert key is not None
            mid = self.message_ids.pop(key, None)
            self.last_sent.pop(key, None)
            if mid is not None:
                with contextlib.suppress(MessageGone):
                    await self._transport(self.transport.delete(self.dest, mid))
                await _call(self.on_message_id, self.dest, key, None)
            return
        msg = _build(item.content)
        if msg is None:
            return
        mid = self.message_ids.get(key) if (key is not None and item.mode == EDIT) else None
        if mid is not None:
            assert key is not None
            if self.last_sent.get(key) == msg:
                return  # the newest state is what is shown already
            if key in self._shown and self._shown.pop(key) == fingerprint(msg):
                self.last_sent[key] = msg  # shown before the restart, exactly
                return
            try:
                await self._transport(self.transport.edit(self.dest, mid, msg))
            except MessageGone:
                self.message_ids.pop(key, None)
                self.last_sent.pop(key, None)
            else:
                self.last_sent[key] = msg
                return
            # The edit did not happen; sending the replacement is a new operation.
            self._requeue(item)
            return
        new_id = await self._transport(self.transport.send(self.dest, msg))
        if key is not None:
            self.message_ids[key] = new_id
            self.last_sent[key] = msg
            await _call(self.on_message_id, self.dest, key, new_id)
