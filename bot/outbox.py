"""Delivery of messages within each platform's budget: the one pacing layer of the bot.

One :class:`Outbox` per destination (a chat, a channel, a DM) owns a single worker task that sends
its queue in order, as a steady stream within the destination's :class:`Budget`:

- **Pacing.** A small burst, then an even stream (a token bucket whose pace never lets the burst
  plus the stream exceed the budget: :attr:`Budget.interval`), and never more than ``ops``
  operations inside ``per_seconds + margin``, counted from when each earlier operation
  *completed* to when the next one *starts*: since a request
  reaches the platform between those two instants, no network jitter can put ``ops + 1`` of them
  into one of the platform's windows. Beside the per-destination budgets the hub may hold a
  bot-wide :class:`Limiter` (Telegram's ~30 messages a second). A destination restored after a
  restart starts as if its window had been spent at the steady pace just before (``restored``).
- **Lazy content.** What is queued may be an :class:`~bot.render.message.OutMessage` or a
  callable that builds one. A callable is called only when its operation is about to start,
  after every wait, so what is sent is always the newest state and rendering costs scale with the
  messages sent, not with the changes. Waiting edits of one key coalesce to the newest content; an
  edit equal to what was last sent is dropped without spending the budget; the newest state of
  every keyed message is delivered in the end.
- **Priorities.** Keyed edits and the presenter's notices share one ordered lane; other new
  messages (command replies) wait in a second lane, capped per destination (identical ones
  coalesce), and go first only once they have waited ``reply_wait`` seconds, one at a time.
- **Errors**, typed by the adapters' :class:`Transport` implementations: :class:`RetryAfter`
  pauses that destination; :class:`TransientError` retries with jittered exponential backoff
  (edits until they land; a new message or a delete gives up after ``max_attempts``);
  :class:`MessageGone` turns an edit into a send; :class:`PermanentError` drops the operation at
  once; :class:`Forbidden` is reported, and for a person's DM everything queued there is dropped
  and nothing more is accepted until :meth:`OutboxHub.unblock`. Anything else is logged and the
  worker goes on (an edit is tried again a few times, anything else is dropped).
- **Bounded memory.** :meth:`OutboxHub.forget_table` drops a finished table's keys once their
  last state is delivered; idle outboxes that hold nothing are evicted.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import random
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.render.message import OutMessage

log = logging.getLogger(__name__)

EDIT, NEW, DELETE = "edit", "new", "delete"
#: Lanes: keyed edits, deletes and notices (in order) before replies.
MAIN, REPLY = "main", "reply"

#: What may be queued: a message, or a callable that builds the newest one when it is sent
#: (returning None: nothing to send any more).
Content: TypeAlias = "OutMessage | Callable[[], OutMessage | None]"


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


class PermanentError(TransportError):
    """The platform refused this operation for good (a bad request): drop it, do not retry."""


class MessageGone(TransportError):
    """The message to edit or delete no longer exists."""


@dataclass(frozen=True, slots=True)
class Budget:
    """At most ``ops`` operations in any window of ``per_seconds`` seconds.

    ``burst``: how many may go at once before the steady pace (None: all ``ops``, no smoothing);
    ``margin``: seconds added to the window as a safety against clock differences.
    """

    ops: int
    per_seconds: float
    burst: int | None = None
    margin: float = 0.0

    @property
    def window(self) -> float:
        """The window the outbox enforces (``per_seconds + margin``)."""
        return self.per_seconds + self.margin

    @property
    def interval(self) -> float:
        """The steady pace once the burst is spent: the shortest interval at which a burst plus a
        steady stream never puts more than ``ops`` operations into one window, so that the hard
        window never has to hold back (and never repeats a burst a window later)."""
        burst = max(1, min(self.burst or self.ops, self.ops))
        return self.window / (self.ops - burst + 1)


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
    """The pacing of one destination: a token bucket for an even stream, and a sliding window of
    completion times as the hard limit (see the module's docstring).

    The worker asks :meth:`wait` before an operation, calls :meth:`take` when it starts it and
    :meth:`record` when it has completed (or failed).
    """

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.smooth = budget.burst is not None  # without a burst: the sliding window alone
        self.burst = max(1, min(budget.burst or budget.ops, budget.ops))
        self._done: deque[float] = deque(maxlen=budget.ops)
        self._tokens = float(self.burst)
        self._stamp: float | None = None
        self.last = float("-inf")

    def _refill(self, now: float) -> float:
        if not self.smooth:
            return float(self.burst)
        if self._stamp is None:
            self._stamp = now
        elif now > self._stamp:
            self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) / self.budget.interval)
            self._stamp = now
        return self._tokens

    def wait(self, now: float) -> float:
        """Seconds to wait from ``now`` before the next operation may start (0 if it may)."""
        wait = 0.0
        if len(self._done) == self.budget.ops:
            wait = self._done[0] + self.budget.window - now
        tokens = self._refill(now)
        if tokens < 1.0:
            wait = max(wait, (1.0 - tokens) * self.budget.interval)
        return max(wait, 0.0)

    def take(self, now: float) -> None:
        """An operation starts at ``now`` (spends a token)."""
        self._refill(now)
        self._tokens -= 1.0

    def record(self, now: float) -> None:
        """An operation completed (or failed) at ``now``."""
        self._done.append(now)
        self.last = max(self.last, now)

    def restored(self, now: float) -> None:
        """Start as if the window had been spent just before ``now`` at this budget's pace (the
        most the previous process could have sent): a burst (and one more, for the request that
        was in flight) at ``now``, the rest one interval apart before it, and an empty bucket.
        Without smoothing, the whole window at ``now``."""
        interval = self.budget.interval if self.smooth else 0.0
        times = [now - max(0, k - self.burst) * interval for k in range(self.budget.ops)]
        self._done.clear()
        self._done.extend(sorted(times))
        self._tokens, self._stamp = 0.0, now
        self.last = now

    def idle_since(self, now: float) -> bool:
        """Whether nothing of this window constrains an operation at ``now`` any more."""
        return now - self.last >= self.budget.window


class Limiter:
    """A bot-wide budget shared by every outbox of a hub: at most ``budget.ops`` operations in any
    ``budget.per_seconds``, with bursts of ``budget.burst``, handed out by reservation (GCRA) so
    that many waiting outboxes do not wake up together."""

    def __init__(self, budget: Budget, clock: Clock) -> None:
        self.budget = budget
        self.clock = clock
        self.burst = max(1, min(budget.burst or 1, budget.ops))
        # ``burst`` at once, then an interval that keeps any window of per_seconds within ``ops``.
        self.interval = budget.window / (budget.ops - self.burst + 1)
        self._tat = float("-inf")
        self.granted = 0

    def reserve(self) -> float:
        """Reserve the next slot; the seconds to wait for it."""
        now = self.clock.now()
        tat = max(self._tat, now)
        start = max(now, tat - (self.burst - 1) * self.interval)
        self._tat = max(tat, start) + self.interval
        self.granted += 1
        return start - now

    async def acquire(self) -> None:
        """Wait for the next slot."""
        wait = self.reserve()
        if wait > 0:
            await self.clock.sleep(wait)


K = TypeVar("K")
V = TypeVar("V")


class TTLCache(OrderedDict[K, V]):
    """A dict with a size bound (least recently set goes first) and an age bound per entry.

    ``get_fresh(key, now)`` returns a value no older than ``ttl`` seconds (None otherwise);
    ``put(key, value, now)`` stores it. Plain ``dict`` access ignores the age.
    """

    def __init__(self, maxsize: int, ttl: float = float("inf")) -> None:
        super().__init__()
        self.maxsize = maxsize
        self.ttl = ttl
        self._at: dict[K, float] = {}

    def put(self, key: K, value: V, now: float = 0.0) -> None:
        """Store ``value`` as read at ``now``."""
        self[key] = value
        self.move_to_end(key)
        self._at[key] = now
        while len(self) > self.maxsize:
            old, _ = self.popitem(last=False)
            self._at.pop(old, None)

    def get_fresh(self, key: K, now: float) -> V | None:
        """The value if it was stored less than ``ttl`` seconds before ``now``."""
        if key not in self:
            return None
        if now - self._at.get(key, now) >= self.ttl:
            self.discard(key)
            return None
        return self[key]

    def discard(self, key: K) -> None:
        """Forget ``key`` (no error if absent)."""
        self.pop(key, None)
        self._at.pop(key, None)


class Cooldown:
    """A per-person command cooldown for the adapters: ``allow(person)`` is True at most once per
    ``seconds`` (bounded memory: the oldest people are forgotten first)."""

    def __init__(self, clock: Clock, seconds: float = 2.0, maxsize: int = 10_000) -> None:
        self.clock = clock
        self.seconds = seconds
        self._last: TTLCache[str, float] = TTLCache(maxsize, ttl=seconds)

    def allow(self, person: str) -> bool:
        """Whether ``person`` may be answered now (and, if so, start their cooldown)."""
        now = self.clock.now()
        if self._last.get_fresh(person, now) is not None:
            return False
        self._last.put(person, now, now)
        return True


@dataclass(slots=True)
class _Item:
    key: str | None
    content: Content | None
    mode: str
    attempts: int = 0
    tag: str | None = None
    lane: str = MAIN
    queued: float = 0.0


async def _call(cb: Callable[..., Awaitable[None] | None] | None, *args: Any) -> None:
    if cb is None:
        return
    try:
        result = cb(*args)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("outbox callback failed")


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
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self._reply_turn = False
        self.sent_ops = 0
        self.dropped = 0

    # -- queueing -------------------------------------------------------------------------------

    def remember(self, key: str, message_id: str | None) -> None:
        """Know that ``key`` is shown as ``message_id`` (after a restart); None forgets it."""
        if message_id is None:
            self.message_ids.pop(key, None)
        else:
            self.message_ids[key] = message_id
        self.last_sent.pop(key, None)

    def restored(self) -> None:
        """This destination was served by an earlier process: pace as if its window were spent."""
        if self.sent_ops == 0:
            self.window.restored(self.clock.now())

    def put(self, key: str | None, msg: Content | None, mode: str = EDIT, *, tag: str | None = None,
            lane: str | None = None) -> None:
        """Queue ``msg`` (a message or a builder) under ``key``: ``edit`` it in place (sent if
        new), post it ``new``, or ``delete`` it.

        A waiting edit of the same key is replaced by this newer content, keeping its place. A
        ``new`` message with a ``tag`` replaces a waiting ``new`` message of the same tag (a
        notification that only its newest version is worth sending), and :meth:`withdraw` drops
        it. ``lane``: :data:`MAIN` (the default for keyed items, tagged ones and the presenter's
        notices) or :data:`REPLY` (the default for an untagged new message without a key).
        """
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
            if self.dest.startswith("dm:"):
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


class OutboxHub:
    """One :class:`Outbox` per destination, created on first use with the transport's budget.

    ``global_budget`` (default: the transport's ``global_budget`` attribute, if any) is shared by
    all of them. Idle outboxes that hold nothing are evicted now and then; the blocked DMs are
    remembered here (bounded) so that an evicted one stays blocked.
    """

    #: How long a finished table's message ids are kept after its last state is delivered.
    FORGET_AFTER = 60.0
    SWEEP_EVERY = 256

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
        self._created = 0
        self.evicted = 0

    def outbox(self, dest: str) -> Outbox:
        """The outbox of ``dest`` (created on first use)."""
        box = self.outboxes.get(dest)
        if box is None:
            self._created += 1
            if self._created % self.SWEEP_EVERY == 0:
                self.sweep()
            box = Outbox(
                dest, self.transport, self.transport.budget(dest), self.clock,
                on_message_id=self.on_message_id, on_forbidden=self._forbidden, jitter=self.jitter,
                limiter=self.limiter,
            )
            if dest in self.blocked:
                box.blocked = True
            self.outboxes[dest] = box
        return box

    async def _forbidden(self, dest: str, key: str | None) -> None:
        if dest.startswith("dm:"):
            self.blocked.put(dest, True)
        await _call(self.on_forbidden, dest, key)

    def put(self, dest: str, key: str | None, msg: Content | None, mode: str = EDIT, *,
            tag: str | None = None, lane: str | None = None) -> None:
        """Queue a message (or a builder) at ``dest`` (see :meth:`Outbox.put`)."""
        if key is not None:
            tid = _table_of_key(key)
            if tid is not None:
                self._tables.setdefault(tid, set()).add((dest, key))
        self.outbox(dest).put(key, msg, mode, tag=tag, lane=lane)

    def withdraw(self, dest: str, tag: str) -> int:
        """Drop waiting tagged ``new`` messages at ``dest`` (see :meth:`Outbox.withdraw`)."""
        box = self.outboxes.get(dest)
        return box.withdraw(tag) if box is not None else 0

    def remember(self, dest: str, key: str, message_id: str | None) -> None:
        """Know a stored message id (see :meth:`Outbox.remember`)."""
        tid = _table_of_key(key)
        if tid is not None and message_id is not None:
            self._tables.setdefault(tid, set()).add((dest, key))
        self.outbox(dest).remember(key, message_id)

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

    def sweep(self) -> int:
        """Forget finished tables whose time has come and evict idle, empty outboxes; how many."""
        now = self.clock.now()
        while self._forgetting and self._forgetting[0][0] <= now:
            self._forget_now(self._forgetting.popleft()[1])
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


def _table_of_key(key: str) -> int | None:
    """The table id in a ``table:<id>`` or ``hand:<id>:<player>`` key."""
    kind, _, rest = key.partition(":")
    if kind not in ("table", "hand"):
        return None
    tid = rest.split(":", 1)[0]
    return int(tid) if tid.isascii() and tid.isdigit() else None
