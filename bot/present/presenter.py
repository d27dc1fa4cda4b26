"""Turns the table manager's updates into messages for each recipient, in their language.

For every :class:`~bot.core.model.TableUpdate` the presenter queues, through one
:class:`~bot.present.outbox.OutboxHub` per platform:

- the public table message (key ``table:<id>``) in the table's chat, edited in place (the lobby
  while in the lobby), in the chat's language;
- notices (new messages) only when people must be told: the match started, a deal was scored or
  thrown in, the match is over, a seat went to the AI, a private message failed;
- each seated human's private hand (key ``hand:<id>:<player>``) at ``dm:<player>``, edited in
  place, in the player's language, plus a short "your turn" ping when it becomes their turn;
- the opt-in notices of bot/core/notify.py in the table's chat: a person's turn mention (key
  ``ping:<id>:<player>`` there, deleted when the turn passes) and the chat's table calls.

A destination's platform is its prefix (``tg``, ``dc``, ``cli``; ``dm:tg:5`` is Telegram). The
public destinations only ever receive text rendered from the public view.

Rendering is lazy: the presenter queues a *builder* (the update's snapshot and translator, bound
to a render function) and the outbox calls it when that message is about to be sent; the builder
renders the manager's newest state of the table (the update's own if the manager no longer has
it; nothing for a hand whose seat is no longer that person's). A newer update replaces the waiting
builder, so a busy table costs one cheap queue operation per change and one rendering per message
actually sent, always of the newest state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from functools import partial

from bot.core.cache import TTLCache
from bot.core.clock import Cancellable, Clock
from bot.core.identity import dm_dest, is_human_id, platform_of, player_of_dm
from bot.core.lang import resolve_lang
from bot.core.model import TableSnapshot, TableUpdate
from bot.core.notify import MAX_MENTIONS, SEAT_CALL_EVERY, ping_delay
from bot.core.queries import TableNotes
from bot.core.views import View
from bot.present import keys
from bot.present.i18n import T, translator
from bot.present.keys import hand_key, hand_player, human_of, platform_name, table_key, table_of_key
from bot.present.outbox import EDIT, MAIN, NEW, OutboxHub, Transport
from bot.present.render import render_dm_failed, render_hand, render_lobby, render_notices, render_table
from bot.present.render.common import seat_name
from bot.present.render.hand import render_turn_ping, render_turn_warning
from bot.present.render.lobby import lobby_text
from bot.present.render.message import Button, OutMessage
from bot.present.render.notify import render_table_call, render_turn_mention
from bot.present.render.table import table_text
from storage.records import CANCELLED, LIVE_STATUSES, LOBBY, PLAYING, STOPPED

log = logging.getLogger(__name__)

#: Bounds of the per-person cache (the oldest entries go first).
MAX_PLAYERS = 50_000
#: Tables whose opening was called, remembered (a table is called once).
MAX_CALLED = 10_000
#: The longest text of a table call, by platform prefix (Telegram 4096, Discord 2000 once each
#: name is written ``<@id>``: 22 characters at most).
CALL_CHARS = {"tg": 4000, "dc": 1800}


class _Mention:
    """A person's pending or shown turn mention at one table (bot/core/notify.py)."""

    __slots__ = ("handle", "marker", "player", "shown")

    def __init__(self, marker: tuple[int, str, float | None], player: str) -> None:
        self.marker = marker  # (seat, person, deadline): a new deadline is a new turn
        self.player = player
        self.handle: Cancellable | None = None
        self.shown = False

class Presenter:
    """Subscribes to a table manager and feeds one outbox hub per platform.

    ``transports`` maps a platform prefix to its :class:`~bot.present.outbox.Transport`. A transport may
    offer ``start_link(payload=None) -> str`` (Telegram's deep link) for the "Start the bot"
    button. ``join_link(snapshot)`` may give the lobby's Join button a URL instead of a payload.
    ``feed(update, t)`` may add public messages (the terminal's play-by-play) before the notices;
    ``pings=False`` leaves out the "your turn" messages; ``private=False`` all private messages.
    ``hand_link(snapshot, seat, player_id, t)`` may add a button row under each private hand (the
    web table's "Open table", bot/adapters/web/service.py); ``table_link(snapshot, t)`` a row under the public
    table of a running match (the web table's "Watch").
    """

    def __init__(
        self,
        manager: TableNotes,
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
        self.manager = manager
        self.clock: Clock = clock or manager.clock
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
        self._blocked: TTLCache[str, bool] = TTLCache(MAX_PLAYERS)  # people whose DMs refused us
        self._turn: dict[tuple[int, int], bool] = {}  # live tables' seats
        self._tables: dict[int, TableSnapshot] = {}  # live tables
        self._seen: dict[int, TableSnapshot] = {}  # the latest snapshot of recent tables, live or not
        self._mentions: dict[int, _Mention] = {}  # live tables' turn mentions (one person at a time)
        self._firing: set[asyncio.Task[None]] = set()
        self._called: TTLCache[int, bool] = TTLCache(MAX_CALLED)  # tables whose opening was called
        self._seat_called: TTLCache[int, float] = TTLCache(MAX_CALLED)  # when a table's free seat was
        manager.subscribe(self.on_update)

    # -- languages ------------------------------------------------------------------------------

    async def _public_lang(self, snap: TableSnapshot) -> tuple[str, str]:
        """The chat's language and digits, in the one order and cache of bot/core/prefs.py."""
        return await self.manager.prefs.public_lang(snap.table.chat_id, snap.table.lang)

    async def _public_t(self, snap: TableSnapshot) -> T:
        return translator(*await self._public_lang(snap))

    async def _player(self, player_id: str) -> tuple[str | None, bool | None]:
        """The person's stored language and DM state (read only, from the one preference cache)."""
        rec = await self.manager.prefs.player_record(player_id)
        return (rec.lang, rec.dm_ok) if rec is not None else (None, None)

    def forget_player(self, player_id: str) -> None:
        """Read a player's language and DM state again next time (after ``/language`` or Start)."""
        self.manager.prefs.forget_player(player_id)

    async def dm_restored(self, player_id: str) -> None:
        """The person opened the private chat again: send their hands where they sit."""
        self._blocked.discard(player_id)
        self.forget_player(player_id)
        for hub in self.hubs.values():
            hub.unblock(dm_dest(player_id))
        await self.manager.update_player(player_id, dm_ok=True)
        for snap in list(self._tables.values()):
            seat = snap.seat_of(player_id)
            if seat is not None and snap.public is not None:
                view = self.manager.view(snap.table_id, seat)
                await self._hand(snap, seat, view.copy, ping=False)

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
        live = snap.table.status in LIVE_STATUSES
        if live:
            self._tables[tid] = snap
        else:
            self._tables.pop(tid, None)
        self._seen.pop(tid, None)
        self._seen[tid] = snap
        while len(self._seen) > 1000:
            self._seen.pop(next(iter(self._seen)))
        if update.reason == "restored":
            self._remember(snap)
        t = await self._public_t(snap)
        hub.put(chat, table_key(tid), partial(self._build_public, snap, t), EDIT)
        for msg in self.feed(update, t) if self.feed else ():
            hub.put(chat, None, msg, NEW, lane=MAIN)
        for msg in render_notices(update, t):
            hub.put(chat, None, msg, NEW, lane=MAIN)
        await self._notify(update, hub, t)
        for ev in update.events:
            if ev["type"] == "turn_warning":
                await self._warn(snap, int(ev["seat"]), int(ev.get("seconds_left", 0)), t,
                                 hidden=bool(ev.get("hidden")))
        if self.private:
            restored = update.reason == "restored"
            views = update.private
            for seat in sorted(views):  # each view is made only if its hand is rendered (on send)
                await self._hand(snap, seat, partial(views.__getitem__, seat), ping=True, force_ping=restored)
        if not live:
            self._finished(tid)

    def _finished(self, tid: int) -> None:
        """A table is over: drop what is kept for it (its last messages are still delivered)."""
        self._end_mention(tid)
        for seat in range(4):
            self._turn.pop((tid, seat), None)
        for hub in self.hubs.values():
            hub.forget_table(tid)

    def _latest(self, snap: TableSnapshot) -> TableSnapshot:
        """The manager's newest snapshot of the table (updates reach the presenter a little later),
        or ``snap`` if the manager no longer has it."""
        newest = self.manager.get(snap.table_id)
        if newest is None or newest.table.version < snap.table.version:
            return snap
        return newest

    def _build_public(self, snap: TableSnapshot, t: T) -> OutMessage:
        """The table message as it is now (called by the outbox right before sending)."""
        snap = self._latest(snap)
        public = self._public(snap, t)
        watch = self.table_link(snap, t) if self.table_link is not None and snap.table.status == PLAYING else None
        if watch is not None:
            public = OutMessage(public.text, (*public.buttons, (watch,)), public.notify)
        return public

    def _build_hand(self, snap: TableSnapshot, seat: int, player: str, view_of: Callable[[], View],
                    t: T) -> OutMessage | None:
        """A player's hand as it is now, if the seat is still theirs (called right before sending)."""
        newest = self._latest(snap)
        view: View | None = None
        if newest is not snap:
            if human_of(newest, seat) != player:
                return None
            try:
                view = self.manager.view(newest.table_id, seat)
                snap = newest
            except Exception:  # the table is gone from the manager: its last known state
                pass
        msg = render_hand(snap, view_of() if view is None else view, t)
        extra = self.hand_link(snap, seat, player, t) if self.hand_link is not None else None
        if extra is not None:
            msg = OutMessage(msg.text, (*msg.buttons, (extra,)), msg.notify)
        return msg

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
        hub.restored(snap.table.chat_id)  # the previous process may have spent its budget just now
        if ids.get(key):
            hub.remember(snap.table.chat_id, key, ids[key], self._shown(snap, key))
        for k, mid in ids.items():
            player = hand_player(k, snap.table_id)
            if player is not None and mid:
                other = self.hubs.get(platform_of(player))
                if other is not None:
                    other.restored(dm_dest(player))
                    other.remember(dm_dest(player), k, mid, self._shown(snap, k))

    @staticmethod
    def _shown(snap: TableSnapshot, key: str) -> str | None:
        """What a clean stop recorded the message of ``key`` to show, if still at this version."""
        saved = snap.table.shown.get(key) or ""
        version, _, digest = saved.partition(":")
        return digest if digest and version == str(snap.table.version) else None

    async def _hand(self, snap: TableSnapshot, seat: int, view_of: Callable[[], View], *, ping: bool,
                    force_ping: bool = False) -> None:
        """Queue the seat's hand (``view_of`` runs when the outbox sends it) and its turn ping."""
        player = human_of(snap, seat)
        if player is None:
            return
        hub = self.hubs.get(platform_of(player))
        if hub is None:
            return
        dest = dm_dest(player)
        if player in self._blocked or hub.is_blocked(dest) or not self._private_hands(snap):
            return
        lang, dm_ok = await self._player(player)
        if dm_ok is False:
            self._blocked.put(player, True)
            return
        public_lang, digits = await self._public_lang(snap)
        t = translator(resolve_lang(lang, public_lang), digits)
        hub.put(dest, hand_key(snap.table_id, player), partial(self._build_hand, snap, seat, player, view_of, t), EDIT)
        mine = snap.to_act == seat  # the engine waits for this seat (its view's legal moves are not empty)
        was = self._turn.get((snap.table_id, seat), False)
        self._turn[(snap.table_id, seat)] = mine
        # One turn notice a table in the DM, replaced (else some 200 "Your turn" a Trix match stay there);
        # none for a table in the person's own private chat (a duplicate challenge's board): its message
        # is there already, and the notice would only halve the pace of that chat's budget
        if snap.table.chat_id == dest:
            ping = False
        if ping and self.pings and mine and (not was or force_ping):
            hub.replace(dest, keys.ping_key(snap.table_id, player), partial(render_turn_ping, snap, seat, t))
        elif not mine and was:
            hub.replace(dest, keys.ping_key(snap.table_id, player), None)  # acted already: the notice is stale

    def _private_hands(self, snap: TableSnapshot) -> bool:
        """Whether the table's chat sends hands to private chats (``ChatRecord.hands`` is not "group":
        a Telegram group whose hands are shown there, each to its player only, by the adapter), as
        read for this update (``_public_lang`` read the chat's settings just before)."""
        return self.manager.prefs.hands(snap.table.chat_id) != "group"

    async def _warn(self, snap: TableSnapshot, seat: int, seconds_left: int, public_t: T, *,
                    hidden: bool = False) -> None:
        """Remind the seat in private; in public only when its turn is public (not while doubling)."""
        player = human_of(snap, seat)
        if player is None:
            return
        hub = self.hubs.get(platform_of(player))
        if hub is not None and player not in self._blocked and not hub.is_blocked(dm_dest(player)) \
                and self._private_hands(snap):
            public_lang, digits = await self._public_lang(snap)
            lang, _ = await self._player(player)
            hub.replace(dm_dest(player), keys.ping_key(snap.table_id, player), render_turn_warning(
                snap, seat, seconds_left, translator(resolve_lang(lang, public_lang), digits)))
        elif not hidden:
            self.hubs[platform_of(snap.table.chat_id)].put(
                snap.table.chat_id, None, render_turn_warning(snap, seat, seconds_left, public_t), NEW, lane=MAIN)

    # -- opt-in notices (bot/core/notify.py) ----------------------------------------------------

    async def _notify(self, update: TableUpdate, hub: OutboxHub, t: T) -> None:
        """A turn mention for whoever opted in; the chat's subscribers called when a table opens or a
        seat of a running match is left free."""
        snap = update.snapshot
        if snap.table.status == PLAYING:
            await self._turn_mention(snap, t)
            if any(e["type"] == "seat_to_ai" and e.get("reason") == "left" for e in update.events):
                last = self._seat_called.get(snap.table_id)
                now = self.manager.clock.now()
                if (last is None or now - last >= SEAT_CALL_EVERY) and await self._call(snap, "seat", hub, t):
                    self._seat_called.put(snap.table_id, now)
        elif update.reason == "created" and snap.table.status == LOBBY and snap.table_id not in self._called:
            self._called.put(snap.table_id, True)  # once per table, whatever happens to the call
            await self._call(snap, "lobby", hub, t)

    async def _call(self, snap: TableSnapshot, kind: str, hub: OutboxHub, t: T) -> bool:
        """One message in the chat mentioning its subscribers (never anyone else), if the chat allows."""
        prefs = self.manager.prefs
        chat = snap.table.chat_id
        if not (await prefs.chat(chat)).notify:
            return False
        platform = platform_of(chat)
        seated = {s.player_id for s in snap.table.seats if s.player_id}
        people = [(pid, name) for pid, name in await prefs.subscribers(chat)
                  if platform_of(pid) == platform and pid not in seated][:MAX_MENTIONS.get(platform, 0)]
        if not people:
            return False
        hub.put(chat, None, render_table_call(kind, snap.table.game, people, t,
                                              max_chars=CALL_CHARS.get(platform, 2000)), NEW, lane=MAIN)
        return True

    async def _turn_mention(self, snap: TableSnapshot, t: T) -> None:
        """Plan the mention of the person to act, if they asked for one; drop the last turn's."""
        tid = snap.table_id
        seat = snap.to_act
        player = None
        if seat is not None:
            s = snap.table.seats[seat]
            if not s.is_ai and s.player_id and is_human_id(s.player_id):
                player = s.player_id
        marker = (seat, player, snap.table.deadline) if seat is not None and player is not None else None
        current = self._mentions.get(tid)
        if current is not None and current.marker == marker:
            return
        self._end_mention(tid)
        if marker is None or player is None:
            return
        record = await self.manager.prefs.player_record(player)
        share = record.turn_ping if record is not None else None
        mention = _Mention(marker, player)
        self._mentions[tid] = mention
        if share is None:
            return
        clock = self.manager.clock  # the clock of the tables' deadlines (the outboxes may pace on another)
        now = clock.now()
        chat = snap.table.chat_id
        deadline = snap.table.deadline
        if deadline is not None:
            turn = self.manager.prefs.turn_seconds(chat)
            due = deadline - turn + ping_delay(turn, share)
        else:
            due = now + ping_delay(0, share)
        later = getattr(clock, "call_later", None)
        if later is None:
            return
        mention.handle = later(max(0.0, due - now), partial(self._mention_due, tid, mention, t))

    def _mention_due(self, tid: int, mention: _Mention, t: T) -> None:
        """The share of the turn has passed: mention the person if it is still their turn."""
        task = asyncio.get_running_loop().create_task(self._mention_now(tid, mention, t))
        self._firing.add(task)
        task.add_done_callback(self._firing.discard)

    async def _mention_now(self, tid: int, mention: _Mention, t: T) -> None:
        """Mention the person if they still ask for it (a choice changed meanwhile counts at once)."""
        record = await self.manager.prefs.player_record(mention.player)
        if self._mentions.get(tid) is not mention or record is None or record.turn_ping is None:
            return
        snap = self._tables.get(tid)
        hub = self.hubs.get(platform_of(snap.table.chat_id)) if snap is not None else None
        if snap is None or hub is None:
            return
        mention.shown = True
        hub.replace(snap.table.chat_id, keys.ping_key(tid, mention.player),
                    partial(self._build_mention, snap, mention, t))

    def _build_mention(self, snap: TableSnapshot, mention: _Mention, t: T) -> OutMessage | None:
        """The mention as it is sent: nothing if the turn passed meanwhile."""
        newest = self._latest(snap)
        seat = mention.marker[0]
        if self._mentions.get(snap.table_id) is not mention or newest.to_act != seat \
                or newest.table.seats[seat].player_id != mention.player:
            return None
        name = newest.table.seats[seat].name
        return render_turn_mention((mention.player, name), snap.table_id, snap.table.game, t)

    def _end_mention(self, tid: int) -> None:
        """The turn passed: no mention any more; the one shown is deleted."""
        mention = self._mentions.pop(tid, None)
        if mention is None:
            return
        if mention.handle is not None:
            mention.handle.cancel()
        snap = self._seen.get(tid) or self._tables.get(tid)
        if mention.shown and snap is not None:
            hub = self.hubs.get(platform_of(snap.table.chat_id))
            if hub is not None:
                hub.replace(snap.table.chat_id, keys.ping_key(tid, mention.player), None)

    # -- outbox callbacks -----------------------------------------------------------------------

    async def _message_id(self, dest: str, key: str, message_id: str | None) -> None:
        tid = table_of_key(key)
        if tid is None or keys.is_ping_key(key):  # a turn notice's id is not worth a write each turn
            return
        try:
            await self.manager.set_message_id(tid, key, message_id)
        except Exception:
            log.exception("storing message id %s of table %s failed", key, tid)

    async def _shown_now(self, tid: int, key: str, value: str) -> None:
        try:
            await self.manager.set_shown(tid, key, value)
        except Exception:
            log.exception("storing what message %s of table %s shows failed", key, tid)

    async def _forbidden(self, dest: str, key: str | None) -> None:
        player = player_of_dm(dest)
        if player is None:
            log.warning("the bot may not post in %s", dest)
            return
        if player in self._blocked:
            return
        self._blocked.put(player, True)
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
            self.hubs[platform].put(chat, None, render_dm_failed(name, url, t), NEW, lane=MAIN)

    # -- lifecycle ------------------------------------------------------------------------------

    async def drain(self) -> None:
        """Wait until every queued message is delivered (a failure may queue a notice elsewhere)."""
        while any(box.busy for hub in self.hubs.values() for box in hub.outboxes.values()):
            for hub in self.hubs.values():
                await hub.drain()

    async def close(self, *, save_seconds: float = 5.0) -> None:
        """Record what each live table's messages show (so that a restart does not edit them to the
        same content), then stop the outboxes."""
        writes = []
        for tid, snap in list(self._tables.items()):
            for hub in self.hubs.values():
                for key, digest in hub.shown(tid).items():
                    if keys.is_ping_key(key):  # a new message each turn, never edited: nothing to spare
                        continue
                    value = f"{snap.table.version}:{digest}"
                    if snap.table.shown.get(key) != value:
                        writes.append(self._shown_now(tid, key, value))
        if writes:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*writes), save_seconds)
        for hub in self.hubs.values():
            await hub.close()
