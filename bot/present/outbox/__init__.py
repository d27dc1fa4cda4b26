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
- **Lazy content.** What is queued may be an :class:`~bot.present.render.message.OutMessage` or a
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

from bot.present.outbox.hub import OutboxHub
from bot.present.outbox.pacing import Limiter, Window
from bot.present.outbox.queue import Outbox
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
    TransportError,
    fingerprint,
)

__all__ = [
    "DELETE", "EDIT", "MAIN", "NEW", "REPLY", "Budget", "Content", "Forbidden", "ForbiddenCallback",
    "Limiter", "MessageGone", "MessageIdCallback", "Outbox", "OutboxHub", "PermanentError", "RetryAfter",
    "TransientError", "Transport", "TransportError", "Window", "fingerprint",
]
