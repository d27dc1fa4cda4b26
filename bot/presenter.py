"""Turns the table manager's updates into messages for each recipient, in their language.

For every :class:`~bot.types.TableUpdate` the presenter queues, through one
:class:`~bot.outbox.OutboxHub` per platform:

- the public table message (key ``table:<id>``) in the table's chat, edited in place (the lobby
  while in the lobby), in the chat's language;
- notices (new messages) only when people must be told: the match started, a deal was scored or
  thrown in, the match is over, a seat went to the AI, a private message failed;
- each seated human's private hand (key ``hand:<id>:<player>``) at ``dm:<player>``, edited in
  place, in the player's language, plus a short "your turn" ping when it becomes their turn.

A destination's platform is its prefix (``tg``, ``dc``, ``cli``; ``dm:tg:5`` is Telegram). The
public destinations only ever receive text rendered from the public view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot import identity
from bot.i18n import T, resolve_lang, translator
from bot.outbox import EDIT, NEW, OutboxHub, Transport
from bot.render import render_dm_failed, render_hand, render_lobby, render_notices, render_table
from bot.render.common import seat_name
from bot.render.hand import render_turn_ping, render_turn_warning
from bot.render.lobby import lobby_text
from bot.render.message import Button, OutMessage
from bot.render.table import table_text
from bot.types import Person, TableSnapshot, TableUpdate
from storage.records import CANCELLED, LOBBY, STOPPED

if TYPE_CHECKING:
    from bot.clock import Clock

log = logging.getLogger(__name__)

#: How long a player's stored language and DM state are trusted before being read again.
PLAYER_TTL = 30.0


#: The ids are spelled in bot/identity.py (re-exported here for the presenter's callers).
platform_of = identity.platform_of
dm_dest = identity.dm_dest

#: A destination prefix -> the platform name the renderers take.
PLATFORM_NAMES = {"tg": "telegram", "dc": "discord", "cli": "cli"}


def platform_name(dest: str) -> str:
    """``"telegram"``, ``"discord"`` or ``"cli"`` for a destination (the render API's word)."""
    prefix = platform_of(dest)
    return PLATFORM_NAMES.get(prefix, prefix)


def table_key(table_id: int) -> str:
    """The outbox key of a table's public message."""
    return f"table:{table_id}"


def hand_key(table_id: int, player_id: str) -> str:
    """The outbox key of a player's private hand at a table."""
    return f"hand:{table_id}:{player_id}"


def table_of_key(key: str | None) -> int | None:
    """The table id in a ``table:<id>`` or ``hand:<id>:<player>`` key."""
    if not key:
        return None
    kind, _, rest = key.partition(":")
    if kind not in ("table", "hand"):
        return None
    tid = rest.split(":", 1)[0]
    return int(tid) if tid.isdigit() else None


def human_of(snapshot: TableSnapshot, seat: int) -> str | None:
    """The person a seat's private messages go to (its owner while an AI stands in), else None."""
    s = snapshot.table.seats[seat]
    pid = s.owner if (s.away and s.owner) else s.player_id
    if not pid or pid.startswith("ai:") or (s.is_ai and not s.away):
        return None
    return pid


class Presenter:
    """Subscribes to a table manager and feeds one outbox hub per platform.

    ``transports`` maps a platform prefix to its :class:`~bot.outbox.Transport`. A transport may
    offer ``start_link(payload=None) -> str`` (Telegram's deep link) for the "Start the bot"
    button. ``join_link(snapshot)`` may give the lobby's Join button a URL instead of a payload.
    ``feed(update, t)`` may add public messages (the terminal's play-by-play) before the notices;
    ``pings=False`` leaves out the "your turn" messages; ``private=False`` all private messages.
    ``hand_link(snapshot, seat, player_id, t)`` may add a button row under each private hand (the
    web table's "Open table", bot/web/service.py); ``table_link(snapshot, t)`` a row under the public
    table of a running match (the web table's "Watch").
    """

    def __init__(
        self,
        manager: Any,
        transports: Mapping[str, Transport],
        *,
        clock: Clock | None = None,
        join_link: Callable[[TableSnapshot], str | None] | None = None,
        private: bool = True,
        pings: bool = True,
        feed: Callable[[TableUpdate, T], list[OutMessage]] | None = None,
        hand_link: Callable[[TableSnapshot, int, str, T], Button | None] | None = None,
        table_link: Callable[[TableSnapshot, T], Button | None] | None = None,
    ) -> None:
        from bot.clock import RealClock

        self.manager = manager
        self.clock: Clock = clock or getattr(manager, "clock", None) or RealClock()
        self.transports = dict(transports)
        self.join_link = join_link
        self.private = private
        self.pings = pings
        self.feed = feed
        self.hand_link = hand_link
        self.table_link = table_link
        self.hubs: dict[str, OutboxHub] = {
            p: OutboxHub(t, self.clock, on_message_id=self._message_id, on_forbidden=self._forbidden)
            for p, t in self.transports.items()
        }
        self._players: dict[str, tuple[float, str | None, bool | None]] = {}  # id -> (read at, lang, dm_ok)
        self._blocked: set[str] = set()
        self._turn: dict[tuple[int, int], bool] = {}
        self._tables: dict[int, TableSnapshot] = {}  # live tables
        self._seen: dict[int, TableSnapshot] = {}  # the latest snapshot of recent tables, live or not
        manager.subscribe(self.on_update)

    # -- languages ------------------------------------------------------------------------------

    async def _public_lang(self, snap: TableSnapshot) -> tuple[str, str]:
        prefs = getattr(self.manager, "prefs", None)
        if prefs is not None:  # the one order and cache of bot/prefs.py
            lang_digits: tuple[str, str] = await prefs.public_lang(snap.table.chat_id, snap.table.lang)
            return lang_digits
        chat = await self.manager.chat_settings(snap.table.chat_id)
        return resolve_lang(chat.lang, snap.table.lang), chat.digits

    async def _public_t(self, snap: TableSnapshot) -> T:
        return translator(*await self._public_lang(snap))

    async def _player(self, player_id: str, name: str) -> tuple[str | None, bool | None]:
        now = self.clock.now()
        cached = self._players.get(player_id)
        if cached is not None and now - cached[0] < PLAYER_TTL:
            return cached[1], cached[2]
        prefs = getattr(self.manager, "prefs", None)
        repo = getattr(self.manager, "repo", None)
        if prefs is not None:  # the one preference cache (bot/prefs.py)
            rec = await prefs.player_record(player_id)
            lang, dm_ok = (rec.lang, rec.dm_ok) if rec is not None else (None, None)
            return lang, dm_ok
        if repo is not None:  # read only: the manager's player() would rename them
            rec = await repo.get_player(player_id)
        else:
            rec = await self.manager.player(Person(player_id, name))
        lang, dm_ok = (rec.lang, rec.dm_ok) if rec is not None else (None, None)
        self._players[player_id] = (now, lang, dm_ok)
        return lang, dm_ok

    def forget_player(self, player_id: str) -> None:
        """Read a player's language and DM state again next time (after ``/language`` or Start)."""
        self._players.pop(player_id, None)
        prefs = getattr(self.manager, "prefs", None)
        if prefs is not None:
            prefs.forget_player(player_id)

    async def dm_restored(self, player_id: str) -> None:
        """The person opened the private chat again: send their hands where they sit."""
        self._blocked.discard(player_id)
        self.forget_player(player_id)
        await self.manager.update_player(player_id, dm_ok=True)
        for snap in list(self._tables.values()):
            seat = snap.seat_of(player_id)
            if seat is not None and snap.public is not None:
                view = self.manager.view(snap.table_id, seat)
                await self._hand(snap, seat, view, ping=False)

    # -- updates --------------------------------------------------------------------------------

    async def on_update(self, update: TableUpdate) -> None:
        """Render one update for everyone concerned (the manager's subscriber)."""
        snap = update.snapshot
        hub = self.hubs.get(platform_of(snap.table.chat_id))
        if hub is None:
            return
        try:
            await self._present(update, hub)
        except Exception:  # a rendering bug must not break the manager's notification loop
            log.exception("presenting table %s failed", snap.table_id)

    async def _present(self, update: TableUpdate, hub: OutboxHub) -> None:
        snap = update.snapshot
        tid = snap.table_id
        chat = snap.table.chat_id
        if snap.table.status in (LOBBY, "playing"):
            self._tables[tid] = snap
        else:
            self._tables.pop(tid, None)
        self._seen[tid] = snap
        while len(self._seen) > 1000:
            self._seen.pop(next(iter(self._seen)))
        if update.reason == "restored":
            self._remember(snap)
        t = await self._public_t(snap)
        public = self._public(snap, t)
        watch = self.table_link(snap, t) if self.table_link is not None and snap.table.status == "playing" else None
        if watch is not None:
            public = OutMessage(public.text, (*public.buttons, (watch,)), public.notify)
        hub.put(chat, table_key(tid), public, EDIT)
        for msg in self.feed(update, t) if self.feed else ():
            hub.put(chat, None, msg, NEW)
        for msg in render_notices(update, t):
            hub.put(chat, None, msg, NEW)
        for ev in update.events:
            if ev.get("type") == "turn_warning":
                await self._warn(snap, int(ev["seat"]), int(ev.get("seconds_left", 0)), t,
                                 hidden=bool(ev.get("hidden")))
        if not self.private:
            return
        restored = update.reason == "restored"
        for seat, view in sorted(update.private.items()):
            await self._hand(snap, seat, view, ping=True, force_ping=restored)
        if snap.table.status not in (LOBBY, "playing"):
            for seat in range(4):
                self._turn.pop((tid, seat), None)

    def _public(self, snap: TableSnapshot, t: T) -> OutMessage:
        platform = platform_name(snap.table.chat_id)
        status = snap.table.status
        if status == LOBBY:
            url = self.join_link(snap) if self.join_link else None
            return render_lobby(snap, t, platform=platform, join_url=url)
        if status in (CANCELLED, STOPPED):
            text = lobby_text(snap, t) if snap.public is None else table_text(snap, t)
            return OutMessage(text, (), notify=False)
        if snap.public is None:
            return OutMessage(lobby_text(snap, t), (), notify=False)
        return render_table(snap, t, platform=platform)

    def _remember(self, snap: TableSnapshot) -> None:
        """After a restart: edit the stored messages instead of posting new ones."""
        ids = snap.table.message_ids
        hub = self.hubs[platform_of(snap.table.chat_id)]
        key = table_key(snap.table_id)
        if ids.get(key):
            hub.remember(snap.table.chat_id, key, ids[key])
        for k, mid in ids.items():
            if k.startswith(f"hand:{snap.table_id}:") and mid:
                player = k.split(":", 2)[2]
                other = self.hubs.get(platform_of(player))
                if other is not None:
                    other.remember(dm_dest(player), k, mid)

    async def _hand(self, snap: TableSnapshot, seat: int, view: dict[str, Any], *, ping: bool,
                    force_ping: bool = False) -> None:
        player = human_of(snap, seat)
        if player is None:
            return
        hub = self.hubs.get(platform_of(player))
        if hub is None:
            return
        name = seat_name(snap, seat, translator("en"))
        lang, dm_ok = await self._player(player, name)
        if player in self._blocked or dm_ok is False:
            self._blocked.add(player)
            return
        public_lang, digits = await self._public_lang(snap)
        t = translator(resolve_lang(lang, public_lang), digits)
        dest = dm_dest(player)
        msg = render_hand(snap, view, t, platform=platform_name(player))
        extra = self.hand_link(snap, seat, player, t) if self.hand_link is not None else None
        if extra is not None:
            msg = OutMessage(msg.text, (*msg.buttons, (extra,)), msg.notify)
        hub.put(dest, hand_key(snap.table_id, player), msg, EDIT)
        mine = view.get("to_act") == seat and bool(view.get("legal"))
        was = self._turn.get((snap.table_id, seat), False)
        self._turn[(snap.table_id, seat)] = mine
        tag = f"ping:{snap.table_id}"
        if ping and self.pings and mine and (not was or force_ping):
            hub.put(dest, None, render_turn_ping(snap, seat, t), NEW, tag=tag)
        elif not mine and was:
            hub.withdraw(dest, tag)  # acted already: a "your turn" still waiting is stale

    async def _warn(self, snap: TableSnapshot, seat: int, seconds_left: int, public_t: T, *,
                    hidden: bool = False) -> None:
        """Remind the seat in private; in public only when its turn is public (not while doubling)."""
        player = human_of(snap, seat)
        if player is None:
            return
        hub = self.hubs.get(platform_of(player))
        if hub is not None and player not in self._blocked:
            public_lang, digits = await self._public_lang(snap)
            lang, _ = await self._player(player, seat_name(snap, seat, public_t))
            hub.put(dm_dest(player), None,
                    render_turn_warning(snap, seat, seconds_left, translator(resolve_lang(lang, public_lang),
                                                                             digits)), NEW)
        elif not hidden:
            self.hubs[platform_of(snap.table.chat_id)].put(
                snap.table.chat_id, None, render_turn_warning(snap, seat, seconds_left, public_t), NEW)

    # -- outbox callbacks -----------------------------------------------------------------------

    async def _message_id(self, dest: str, key: str, message_id: str | None) -> None:
        tid = table_of_key(key)
        if tid is None:
            return
        try:
            await self.manager.set_message_id(tid, key, message_id)
        except Exception:
            log.exception("storing message id %s of table %s failed", key, tid)

    async def _forbidden(self, dest: str, key: str | None) -> None:
        if not dest.startswith("dm:"):
            log.warning("the bot may not post in %s", dest)
            return
        player = dest[3:]
        if player in self._blocked:
            return
        self._blocked.add(player)
        self._players.pop(player, None)
        try:
            await self.manager.update_player(player, dm_ok=False)
        except Exception:
            log.exception("marking %s dm_ok=False failed", player)
        tid = table_of_key(key)
        tables = [self._seen[tid]] if tid is not None and tid in self._seen else [
            s for s in self._tables.values() if s.seat_of(player) is not None
        ]
        for snap in tables:
            seat = snap.seat_of(player)
            chat = snap.table.chat_id
            platform = platform_of(chat)
            t = translator(*await self._public_lang(snap))
            name = seat_name(snap, seat, t) if seat is not None else player
            transport = self.transports.get(platform)
            link_of = getattr(transport, "start_link", None)
            url = link_of() if callable(link_of) else None
            self.hubs[platform].put(chat, None, render_dm_failed(name, url, t), NEW)

    # -- lifecycle ------------------------------------------------------------------------------

    async def drain(self) -> None:
        """Wait until every queued message is delivered (a failure may queue a notice elsewhere)."""
        while any(box.busy for hub in self.hubs.values() for box in hub.outboxes.values()):
            for hub in self.hubs.values():
                await hub.drain()

    async def close(self) -> None:
        """Stop the outboxes."""
        for hub in self.hubs.values():
            await hub.close()
