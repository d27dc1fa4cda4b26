"""The outbox's vocabulary: modes, lanes, the transport protocol, its typed errors, budgets."""

from __future__ import annotations

import hashlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

if TYPE_CHECKING:
    from bot.present.render.message import OutMessage

log = logging.getLogger("bot.present.outbox")

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


async def _call(cb: Callable[..., Awaitable[None] | None] | None, *args: Any) -> None:
    if cb is None:
        return
    try:
        result = cb(*args)
        if inspect.isawaitable(result):
            await result
    except Exception:
        log.exception("outbox callback failed")


def fingerprint(msg: OutMessage) -> str:
    """A short, stable digest of what a message shows (text, buttons, notification)."""
    body = repr((msg.text, msg.buttons, msg.notify, msg.mentions) if msg.mentions
                else (msg.text, msg.buttons, msg.notify)).encode()
    return hashlib.blake2b(body, digest_size=8).hexdigest()
