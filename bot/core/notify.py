"""Opt-in notifications: a person's turn mention in the group, and a chat's table calls.

Everything is off by default (but a tournament player's private match pings) and chosen per person
with ``/notify`` (``ChangeNotify``):

- ``/notify turn 50%``: when it is still their turn after that share of the turn timer, the person
  is mentioned in the table's chat (``PlayerRecord.turn_ping``); the mention is deleted when the
  turn passes, like the private "Your turn" notice. A table without a turn timer counts a turn as
  :data:`NO_TIMER_TURN` seconds (``/notify turn 50%`` there: after one minute).
- ``/notify matches off``: the person is no longer told in private when their tournament match is
  called or its table opens (on by default: registering for a tournament asks for it;
  bot/present/tournament_notices.py). Kept in meta, no migration (``Prefs.match_pings``).
- ``/notify tables on``: where the chat allows it (an admin's ``/settings notify=on``,
  ``ChatRecord.notify``), the person is mentioned when a table opens there or a seat of a running
  match is left free: one message that mentions the subscribers, as many as one message may hold
  (:data:`MAX_MENTIONS`), once per table opened, at most once per :data:`SEAT_CALL_EVERY` seconds for
  the free seats of one match. A Discord channel's subscriptions are its server's.

The choices are stored (storage migration sqlite 0010 / postgres 0007) and read through the one
preference cache (``bot/core/prefs.py``), which hears the other processes' changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.identity import ascii_int

#: The turn a table without a timer is counted to last, for a person's turn mention.
NO_TIMER_TURN = 120.0
#: The free seats of one running match are called at most this often (seconds).
SEAT_CALL_EVERY = 300.0
#: People one table call may mention, by platform prefix. Discord: an ``allowed_mentions`` object
#: lists at most 100 users. Telegram's Bot API documents no such cap; 50 text mentions a message is
#: the limit its apps are reported to hold (each mention is one entity), so we keep to it.
MAX_MENTIONS = {"tg": 50, "dc": 100}


@dataclass(frozen=True, slots=True)
class NotifyState:
    """A person's notification choices as ``/notify`` shows them.

    ``turn_ping``: the share (percent) of the turn timer after which they are mentioned, None: never.
    ``tables``: whether they are called in this chat (None: asked in a private chat);
    ``chat_allows``: whether this chat lets people be called (None: a private chat);
    ``matches``: whether they are told in private of their tournament matches.
    """

    turn_ping: int | None
    tables: bool | None = None
    chat_allows: bool | None = None
    matches: bool = True


def ping_delay(turn_seconds: float, share: int) -> float:
    """Seconds into a turn after which a person who chose ``share`` percent is mentioned."""
    turn = turn_seconds if turn_seconds > 0 else NO_TIMER_TURN
    return turn * max(1, min(100, share)) / 100


def parse_share(word: str) -> int | None:
    """``"50%"`` or ``"50"`` -> 50 (1 to 100, ASCII digits only), else None."""
    value = ascii_int(word.strip().removesuffix("%"))
    return value if value is not None and 1 <= value <= 100 else None
