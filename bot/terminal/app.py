"""``majlis play``: a whole match in the terminal against three AI players.

The terminal is one more chat platform (``cli``): the same :class:`~bot.manager.TableManager` (with
SQLite storage, so ``--resume`` picks up a killed match), the same
:class:`~bot.presenter.Presenter` and outbox, delivering to a :class:`ConsoleTransport`. The
player's legal choices are numbered; a number or an action code (``QS``, ``play QS``, ``bid 7``)
answers.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.errors import TableError
from bot.i18n import T, translator
from bot.presenter import Presenter, dm_dest, hand_key, table_key
from bot.render.cards import sort_key
from bot.render.common import action_label
from bot.render.errors import render_error
from bot.render.message import OutMessage
from bot.replay import Story
from bot.settings import ManagerSettings
from bot.terminal.screen import ConsoleTransport, Screen
from bot.types import Person, TableSnapshot, TableUpdate
from storage.records import LIVE_STATUSES, LOBBY

CHAT = "cli:local"
PLAYER = "cli:you"
HOST = "cli:host"


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What ``majlis play`` was asked for."""

    game: str = "tarneeb41"
    lang: str = "ar"
    seat: int = 0
    seed: int | None = None
    timer: int = 0
    target: int | None = None
    ai_level: str = "normal"
    resume: bool = False
    db: str = ":memory:"
    digits: str = "western"
    auto: bool = False
    ai_delay: float = 1.0
    interactive: bool | None = None  # None: stdin is a terminal


class InputEnded(Exception):
    """Standard input closed before the match ended."""


def parse_choice(text: str, legal: list[str]) -> str | None:
    """The legal action meant by ``text``: its number (1-based), the code, or a card alone."""
    s = " ".join(text.strip().split())
    if not s:
        return None
    if s.isdigit():
        n = int(s)
        return legal[n - 1] if 1 <= n <= len(legal) else None
    wanted = s.lower().replace("10", "t")
    for code in legal:
        low = code.lower()
        if wanted == low or (low.startswith(("play ", "double ", "bid ", "contract ", "trump "))
                             and wanted == low.split(" ", 1)[1]):
            return code
    return None


def display_order(legal: list[str]) -> list[str]:
    """Cards in the order the hand shows them (by suit, high to low), other actions as given."""
    plays = [c for c in legal if c.startswith("play ")]
    if not plays:
        return legal
    rest = [c for c in legal if not c.startswith("play ")]
    return sorted(plays, key=lambda c: sort_key(c.split()[1])) + rest


class TerminalGame:
    """One terminal session: the manager, the presenter and the prompt loop."""

    def __init__(self, opts: PlayOptions, screen: Screen) -> None:
        self.opts = opts
        self.screen = screen
        self.t: T = translator(opts.lang, opts.digits)
        self.person = Person(PLAYER, self.t.gettext("You"), lang_hint=opts.lang)
        self.table_id: int | None = None
        self.changed = asyncio.Event()
        self.transport = ConsoleTransport(screen, show={CHAT, dm_dest(PLAYER)})
        self.manager: Any = None
        self.presenter: Presenter | None = None
        self._lines: asyncio.Queue[str] | None = None

    def feed(self, update: TableUpdate, t: T) -> list[OutMessage]:
        """The play-by-play lines of an update (the presenter posts them before its notices)."""
        if update.snapshot.table_id != self.table_id or not update.events:
            return []
        story = Story(update.snapshot.table, t, show_hands=False, live=True,
                      me=update.snapshot.seat_of(PLAYER))
        for e in update.events:
            story.event(e)
        text = "\n".join(story.lines)
        return [OutMessage(text)] if text.strip() else []

    async def on_update(self, update: TableUpdate) -> None:
        """Wake the prompt loop."""
        if update.snapshot.table_id == self.table_id:
            self.changed.set()

    async def run(self) -> int:
        """Open storage, start or resume the match, play it; the exit code."""
        from bot.clock import RealClock
        from bot.manager import TableManager
        from storage import open_repository

        repo = await open_repository(self.opts.db)
        seed = self.opts.seed
        settings = ManagerSettings(
            ai_delay=self.opts.ai_delay if self._interactive() else 0.0,
            lobby_timeout=24 * 3600.0,
            default_turn_seconds=self.opts.timer,
            seed_source=(lambda: seed) if seed is not None else None,
            chat_prefixes=("cli:",),
        )
        clock = RealClock()
        self.manager = manager = TableManager(repo, clock=clock, settings=settings)
        self.presenter = Presenter(manager, {"cli": self.transport}, clock=clock, pings=False, feed=self.feed)
        manager.subscribe(self.on_update)
        try:
            await manager.start()
            snap = manager.table_in_chat(CHAT)
            if self.opts.resume and snap is not None:
                self.table_id = snap.table_id
                await manager.update_chat(CHAT, lang=self.opts.lang, digits=self.opts.digits)
                await manager.update_player(PLAYER, lang=self.opts.lang)
                if snap.table.status == LOBBY:  # interrupted before it began
                    try:
                        await manager.begin(CHAT, self.person)
                    except TableError:
                        await manager.stop(CHAT, self.person, is_admin=True)
                        await self._new_match()
                self.screen.line(self.t.gettext("Resuming table {table}.", table=snap.table_id))
            else:
                if self.opts.resume:
                    self.screen.line(self.t.gettext("There is no unfinished match; a new one begins."))
                elif snap is not None:
                    await manager.stop(CHAT, self.person, is_admin=True)
                    self.screen.line(self.t.gettext(
                        "The unfinished match at table {table} was abandoned (use {command} to continue "
                        "a match).", table=snap.table_id, command="majlis play --resume"))
                try:
                    await self._new_match()
                except TableError as e:
                    self.screen.line(render_error(e.code, e.params, self.t))
                    return 2
            return await self._loop()
        finally:
            await manager.close()
            await self.presenter.drain()
            await self.presenter.close()
            await repo.close()

    def _interactive(self) -> bool:
        if self.opts.interactive is not None:
            return self.opts.interactive
        return sys.stdin.isatty()

    async def _new_match(self) -> None:
        m = self.manager
        await m.update_chat(CHAT, lang=self.opts.lang, turn_seconds=self.opts.timer,
                            ai_level=self.opts.ai_level, digits=self.opts.digits)
        await m.update_player(PLAYER, name=self.person.name, lang=self.opts.lang)
        options: dict[str, Any] = {}
        if self.opts.target is not None and self.opts.game != "trix":
            options["target"] = self.opts.target
        if self.opts.seat == 0:
            snap = await m.create(CHAT, self.person, self.opts.game, options)
        else:
            host = Person(HOST, "host", lang_hint=self.opts.lang)
            snap = await m.create(CHAT, host, self.opts.game, options)
            self.table_id = snap.table_id
            await m.join(CHAT, self.person, self.opts.seat)
            await m.leave(CHAT, host)
        self.table_id = snap.table_id
        await m.begin(CHAT, self.person)

    def _snapshot(self) -> TableSnapshot:
        assert self.table_id is not None
        snap: TableSnapshot | None = self.manager.get(self.table_id)
        assert snap is not None
        return snap

    async def _loop(self) -> int:
        assert self.presenter is not None
        while True:
            await self.presenter.drain()
            snap = self._snapshot()
            if snap.table.status not in LIVE_STATUSES:
                break
            seat = snap.seat_of(PLAYER)
            view = self.manager.view(snap.table_id, seat) if seat is not None and snap.public else None
            if seat is not None and view is not None and view.get("to_act") == seat and view.get("legal"):
                self.changed.clear()
                try:
                    await self._turn(snap, seat, view)
                except InputEnded:
                    self.screen.line(self.t.gettext(
                        "Input ended. The match is saved: continue it with {command}.",
                        command="majlis play --resume"))
                    return 3
                continue
            self.changed.clear()
            snap2 = self._snapshot()
            if snap2.table.version == snap.table.version and snap2.table.status == snap.table.status:
                await self.changed.wait()
        await self.presenter.drain()
        final = self._snapshot()
        self.screen.line("")
        self.screen.panel(self._message(CHAT, table_key(final.table_id)) or "", title=self.t.gettext("Majlis"))
        return 0

    def _message(self, dest: str, key: str) -> str | None:
        assert self.presenter is not None
        box = self.presenter.hubs["cli"].outbox(dest)
        msg = self.transport.latest(box.message_ids.get(key))
        return msg.text if msg else None

    async def _turn(self, snap: TableSnapshot, seat: int, view: dict[str, Any]) -> None:
        """Show the table and the hand, read a choice, act; repeat until the action is accepted."""
        legal = display_order(list(view["legal"]))
        table_text = self._message(CHAT, table_key(snap.table_id))
        hand_text = self._message(dm_dest(PLAYER), hand_key(snap.table_id, PLAYER))
        self.screen.line("")
        if table_text:
            self.screen.panel(table_text, title=self.t.gettext("Majlis"), style="green")
        if hand_text:
            self.screen.panel(hand_text, title=self.t.gettext("Your hand"), style="yellow")
        labels = [action_label(code, self.t) for code in legal]
        while True:
            self.screen.choices(labels)
            if self.opts.auto:
                choice: str | None = legal[0]
                self.screen.line(self.t.gettext("> {choice}", choice=labels[0]))
            else:
                line = await self._read(self.t.gettext("Your choice (1-{n}): ", n=len(legal)),
                                        snap.table.version)
                if line is None:  # the timer played for you meanwhile: look at the table again
                    self.screen.line("")
                    return
                choice = parse_choice(line, legal)
                if choice is None:
                    self.screen.line(self.t.gettext(
                        "“{entry}” is not one of the choices. Enter a number from 1 to {n}.",
                        entry=line.strip(), n=len(legal)))
                    continue
            try:
                await self.manager.act_current(snap.table_id, self.person, choice)
            except TableError as e:
                # The table moved on (a timer played for you) or refused: look at it afresh.
                self.screen.line(render_error(e.code, e.params, self.t))
            return

    async def _read(self, prompt: str, version: int) -> str | None:
        """A line of input, or None if the table moved on while waiting (a timer, the match's end)."""
        self.screen.stream.write(prompt)
        self.screen.stream.flush()
        if self._lines is None:
            self._lines = start_reader(sys.stdin)
        get = asyncio.ensure_future(self._lines.get())
        try:
            while True:
                self.changed.clear()
                cur = self._snapshot()
                if cur.table.version != version or cur.table.status not in LIVE_STATUSES:
                    return None
                moved = asyncio.ensure_future(self.changed.wait())
                done, _ = await asyncio.wait({get, moved}, return_when=asyncio.FIRST_COMPLETED)
                moved.cancel()
                if get in done:
                    break
        finally:
            if not get.done():
                get.cancel()
        line = get.result()
        if not line:
            raise InputEnded
        if not self._interactive():
            self.screen.stream.write(line if line.endswith("\n") else line + "\n")
        return line


def start_reader(stream: TextIO) -> asyncio.Queue[str]:
    """Lines of ``stream`` as they come ("" at the end), read by a daemon thread.

    A daemon thread, unlike ``asyncio.to_thread``, does not keep the process alive at Ctrl-C.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str] = asyncio.Queue()

    def pump() -> None:
        while True:
            try:
                line = stream.readline()
            except (OSError, ValueError):
                line = ""
            loop.call_soon_threadsafe(queue.put_nowait, line)
            if not line:
                return

    threading.Thread(target=pump, name="majlis-stdin", daemon=True).start()
    return queue


def prepare_db(db: str) -> None:
    """Create the database's folder (the data directory on first use)."""
    if db not in (":memory:", "memory://", "memory:") and "://" not in db:
        Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)


async def play(opts: PlayOptions) -> int:
    """Run ``majlis play`` with ``opts``; returns the process exit code."""
    interactive = opts.interactive if opts.interactive is not None else sys.stdin.isatty()
    screen = Screen(fancy=interactive and sys.stdout.isatty())
    return await TerminalGame(opts, screen).run()
