"""The live side of the web adapter: who watches which table, and what each page is sent.

:class:`WebHub` subscribes to the table manager as the presenter does. For every
:class:`~bot.core.model.TableUpdate` it renders the table once per kind of viewer (seat, language,
digits) and queues the same JSON text for every page of that kind, in the order the manager
notifies (so in table-version order). A page that connects, or reconnects, is sent the current
state first; every message carries the table version and a hub sequence number, and the page
ignores anything older than what it shows.

A seated viewer receives their own seat's engine view only while the table still says the seat
is theirs; spectators and everyone else receive the public view. Moves go through
:mod:`bot.adapters.web.actions`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import engine
from bot.adapters.web.view import build_state, deal_panel, sheet_row, thrown_panel, ui_strings
from bot.core.advice import engine_options
from bot.core.lang import resolve_lang
from bot.core.model import Person, TableSnapshot, TableUpdate
from bot.core.queries import TableQueries
from bot.core.views import DealScored, DealThrownIn, Event, View, events_of
from bot.present.i18n import T, translator
from bot.present.render.summary import render_notices
from bot.present.story import Story
from storage.records import TableStatus

log = logging.getLogger(__name__)

#: Messages waiting for one page; a page further behind is disconnected (it reconnects and resyncs).
MAX_BACKLOG = 200
#: The fewest seconds a deal's result panel stays on a page when nobody closes it.
PANEL_SECONDS = 5.0


@dataclass(eq=False)
class Viewer:
    """One open page: the table, the seat it plays (None: watching), the reader's language."""

    table_id: int
    seat: int | None
    player_id: str | None
    t: T
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    #: When the page's credential runs out (a table it follows to, after Play again, gets as long).
    expires: float | None = None

    def put(self, text: str | None) -> None:
        """Queue a message (None closes the page's connection)."""
        if self.dropped:
            return
        if self.queue.qsize() >= MAX_BACKLOG:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def person(self, snap: TableSnapshot) -> Person:
        """The person acting from this page (named as the table names them)."""
        assert self.player_id is not None and self.seat is not None
        return Person(self.player_id, snap.table.seats[self.seat].name or "")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class WebHub:
    """Fans table updates out to the open pages."""

    def __init__(self, manager: TableQueries, *, replay_link: Callable[[int, float], str] | None = None,
                 deal_pause: float = 0.0) -> None:
        self.manager = manager
        self.replay_link = replay_link  # table id -> the replay page's address, offered once a match is over
        #: Seconds a deal's result panel stays when nobody presses Next deal: the table's own pause
        #: (ManagerSettings.deal_pause), at least PANEL_SECONDS where the table does not pause.
        self.panel_seconds = max(deal_pause, PANEL_SECONDS)
        self.viewers: dict[int, set[Viewer]] = {}
        self._rows: dict[int, list[dict[str, Any]]] = {}  # table -> score-sheet rows
        self._rows_version: dict[int, int] = {}
        self._pending: dict[int, list[tuple[int, DealScored | DealThrownIn]]] = {}  # rows arriving while rebuilt
        self._building: dict[int, asyncio.Event] = {}
        self._seq = 0
        manager.subscribe(self.on_update)

    # -- viewers --------------------------------------------------------------------------------

    async def viewer_t(self, snap: TableSnapshot, player_id: str | None, hint: str | None = None) -> T:
        """The reader's translator: their stored language, else the chat's; the chat's digits."""
        chat = await self.manager.chat_settings(snap.table.chat_id)
        public = resolve_lang(chat.lang, snap.table.lang)
        lang = public
        if player_id is not None:
            rec = await self.manager.prefs.player_record(player_id)  # the one preference cache
            lang = resolve_lang(rec.lang if rec is not None else None, hint or public)
        return translator(lang, chat.digits)

    async def attach(self, viewer: Viewer) -> None:
        """Register an open page and queue its first messages (the words, the current state)."""
        await self.sheet_rows(viewer.table_id)
        snap = self.manager.get(viewer.table_id)
        if snap is None:
            raise LookupError(viewer.table_id)
        self.viewers.setdefault(viewer.table_id, set()).add(viewer)
        viewer.put(_dumps({"type": "hello", "ui": ui_strings(viewer.t), "lang": viewer.t.lang,
                           "rtl": viewer.t.rtl, "digits": viewer.t.digits}))
        viewer.put(self._state_text(snap, viewer.seat if self._owns(snap, viewer) else None, viewer.t,
                                    self._private_view(snap, viewer), [], self._seq, viewer.seat is None))

    def detach(self, viewer: Viewer) -> None:
        """Forget a closed page."""
        group = self.viewers.get(viewer.table_id)
        if group is not None:
            group.discard(viewer)
            if not group:
                del self.viewers[viewer.table_id]

    def count(self) -> int:
        """Open pages."""
        return sum(len(g) for g in self.viewers.values())

    @staticmethod
    def _owns(snap: TableSnapshot, viewer: Viewer) -> bool:
        return (viewer.seat is not None and viewer.player_id is not None
                and snap.seat_of(viewer.player_id) == viewer.seat)

    def _private_view(self, snap: TableSnapshot, viewer: Viewer) -> View | None:
        if snap.public is None:
            return None
        if self._owns(snap, viewer):
            assert viewer.seat is not None
            try:
                return self.manager.view(snap.table_id, viewer.seat)
            except Exception:
                return snap.public
        return snap.public

    # -- updates --------------------------------------------------------------------------------

    async def on_update(self, update: TableUpdate) -> None:
        """The manager's subscriber: queue this update's state for every page of the table."""
        snap = update.snapshot
        tid = snap.table_id
        self._track_rows(update)
        group = self.viewers.get(tid)
        if not group:
            return
        self._seq += 1
        cache: dict[tuple[int | None, str, str], str] = {}
        for viewer in list(group):
            seat = viewer.seat if self._owns(snap, viewer) else None
            key = (seat, viewer.t.lang, viewer.t.digits)
            text = cache.get(key)
            if text is None:
                if seat is not None:
                    view = update.private.get(seat)
                    if view is None:
                        view = self._private_view(snap, viewer)
                else:
                    view = snap.public
                text = self._state_text(snap, seat, viewer.t, view, update.events, self._seq, viewer.seat is None)
                cache[key] = text
            viewer.put(text)

    def _state_text(self, snap: TableSnapshot, me: int | None, t: T, view: View | None,
                    events: Iterable[Event], seq: int, watching: bool) -> str:
        now = self.manager.clock.now()
        events = list(events)
        rows = self._rows.get(snap.table_id, [])
        state = build_state(snap, view, t, me=me, rows=rows, now=now, watching=watching)
        if snap.table.status == TableStatus.FINISHED and self.replay_link is not None:
            state["replay"] = self.replay_link(snap.table_id, now)
        message: dict[str, Any] = {"type": "state", "seq": seq, "state": state, "log": self._log(snap, me, t, events)}
        panel = self._panel(snap, me, t, events, len(rows))
        if panel is not None:
            message["panel"] = panel
        return _dumps(message)

    def _panel(self, snap: TableSnapshot, me: int | None, t: T, events: list[Event],
               deal_no: int) -> dict[str, Any] | None:
        """The result panel of a deal that ended in this update (None: none ended, or the match did,
        which the state's own match panel shows)."""
        if any(e["type"] == "match_over" for e in events):
            return None
        for e in events:
            if e["type"] == "deal_scored":
                panel = deal_panel(snap, e, t, me=me, deal_no=max(deal_no, 1), seconds=self.panel_seconds)
            elif e["type"] == "deal_thrown_in":
                panel = thrown_panel(snap, e, t, me=me, seconds=self.panel_seconds)
            else:
                continue
            panel["id"] = snap.table.version
            return panel
        return None

    @staticmethod
    def _log(snap: TableSnapshot, me: int | None, t: T, events: Iterable[Event]) -> list[str]:
        """Play-by-play lines and notices of the update's public events."""
        events = list(events)
        if not events:
            return []
        story = Story(snap.table, t, show_hands=False, live=True, me=me)
        for e in events:
            story.event(e)
        lines = [line.strip() for line in story.lines if line.strip()]
        update = TableUpdate(snapshot=snap, events=events)
        lines += [m.text for m in render_notices(update, t)]
        return lines

    # -- the score sheet ------------------------------------------------------------------------

    def _track_rows(self, update: TableUpdate) -> None:
        tid = update.snapshot.table_id
        if update.reason in ("created", "started") and tid not in self._rows and tid not in self._pending:
            self._rows[tid] = []
            self._rows_version[tid] = update.snapshot.table.version
        seq = update.snapshot.table.version
        scored = [e for e in update.events if e["type"] == "deal_scored" or e["type"] == "deal_thrown_in"]
        if tid in self._pending:
            self._pending[tid] += [(seq, e) for e in scored]
        elif tid in self._rows and seq > self._rows_version.get(tid, 0):
            self._rows[tid] += [sheet_row(e, update.snapshot.table.game) for e in scored]
            self._rows_version[tid] = seq

    async def sheet_rows(self, table_id: int) -> list[dict[str, Any]]:
        """The table's score-sheet rows, rebuilt from its action log the first time they are needed."""
        if table_id in self._rows:
            return self._rows[table_id]
        building = self._building.get(table_id)
        if building is not None:  # another page is rebuilding it
            await building.wait()
            return self._rows.get(table_id, [])
        self._building[table_id] = asyncio.Event()
        self._pending[table_id] = []
        try:
            record = await self.manager.repo.get_table(table_id)
            rows: list[dict[str, Any]] = []
            version = 0
            if record is not None and record.status != TableStatus.LOBBY:
                actions = await self.manager.repo.actions(table_id)
                rows, version = replay_rows(record, actions)
            pending = self._pending.get(table_id, [])
            rows += [sheet_row(e, record.game) for seq, e in pending if seq > version and record is not None]
            self._rows[table_id] = rows
            self._rows_version[table_id] = max([version, *(seq for seq, _ in pending)])
        finally:
            self._pending.pop(table_id, None)
            self._building.pop(table_id).set()
        while len(self._rows) > 5000:  # forget the oldest tables
            old = next(iter(self._rows))
            self._rows.pop(old)
            self._rows_version.pop(old, None)
        return self._rows[table_id]

    async def close(self) -> None:
        """Close every page."""
        for group in list(self.viewers.values()):
            for viewer in list(group):
                viewer.put(None)


def replay_rows(record: Any, actions: Iterable[Any]) -> tuple[list[dict[str, Any]], int]:
    """The score-sheet rows of a table's log replayed from its seed, and the version reached."""
    g = engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=engine_options(record.options))
    rows = []
    version = 0
    for a in actions:
        for e in events_of(g.act(a.seat, a.action)):
            if e["type"] == "deal_scored" or e["type"] == "deal_thrown_in":
                rows.append(sheet_row(e, record.game))
        version = a.seq
    return rows, version
