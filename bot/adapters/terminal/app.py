"""``majlis play``: a whole match in the terminal against three AI players.

The terminal is one more table of the :class:`~bot.core.manager.TableManager` (chat ``cli:local``, with
SQLite storage, so an unfinished match can be resumed), but it renders for its one reader itself:
every event is told from the player's seat (second person, "Us / Them", see ``me`` in
:mod:`bot.present.render`), in one language and one digit system, and the deal's result waits for Enter.

At the player's turn the screen shows the table and the hand side by side (80×24), the choices and
a prompt (:mod:`bot.adapters.terminal.frame`); what the player types is read by
:class:`bot.adapters.terminal.choices.Menu`. A refused move is answered with the rule that refused it
(:func:`bot.present.render.errors.render_error`), a forced move plays itself, and ``h`` ``r`` ``s`` ``l``
``q`` work at every prompt.

When a match ends the player is offered to play again (alone with the AI there are no partners to
swap: one AI partner is as another): the core's :meth:`~bot.core.manager.TableManager.rematch` opens
the next match with the same game, options, language and seat, and it begins at once; the end of the
input (or ``n``) ends the program as before.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from bot.adapters.terminal.bidi import wants_autodetect
from bot.adapters.terminal.choices import Menu, is_extreme, normalize
from bot.adapters.terminal.commands import auto_choice, run_command, unknown_text
from bot.adapters.terminal.console import InputEnded, LineReader, Quit, term_ok
from bot.adapters.terminal.frame import ask_text, choices_line, display_order, hand_box, menu_for, table_box
from bot.adapters.terminal.screen import Screen
from bot.core import identity
from bot.core.advice import HINTS
from bot.core.commands import Actor, Hint, Review
from bot.core.errors import TableError
from bot.core.lang import resume_lang
from bot.core.model import Person, TableSnapshot, TableUpdate
from bot.core.service import Service
from bot.core.settings import ManagerSettings
from bot.core.views import View
from bot.present.i18n import T, translator
from bot.present.render.advice import advice_text
from bot.present.render.cards import card_label, game_name
from bot.present.render.common import action_label
from bot.present.render.errors import render_error
from bot.present.render.summary import notice_text
from bot.present.story import Story
from storage.records import LIVE_STATUSES, LOBBY


class Lines(Protocol):
    """Where the typed lines come from: ``get()`` is the next one, "" at the end of the input."""

    async def get(self) -> str: ...


CHAT = identity.cli_id("local")
PLAYER = identity.TERMINAL_PLAYER
HOST = identity.cli_id("host")


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What ``majlis play`` was asked for."""

    game: str = "tarneeb41"
    lang: str = "ar"
    #: ``--lang`` was given: it wins over a resumed match's own language (else the match keeps its own).
    lang_asked: bool = False
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
    options: dict[str, Any] = field(default_factory=dict)
    pause: float | None = None  # seconds a deal's result stays in --auto (None: 3 on a terminal, else 0)
    bidi: str = "none"  # "terminal" or "none" (bot.adapters.terminal.bidi)
    color: bool | None = None  # None: when stdout is a terminal


class TerminalGame:
    """One terminal session: the manager, the story of the table, and the prompt loop."""

    def __init__(self, opts: PlayOptions, screen: Screen) -> None:
        self.opts = opts
        self.screen = screen
        self.t: T = translator(opts.lang, opts.digits)
        self.person = Person(PLAYER, self.t.gettext("You"), lang_hint=opts.lang)
        self.table_id: int | None = None
        self.changed = asyncio.Event()
        self.manager: Any = None
        self.out: list[tuple[str, str]] = []  # ("line" | "result" | "final", text) waiting to be shown
        self._lines: Lines | None = None  # what the player types (a LineReader on stdin, unless a test's)
        self._story: Story | None = None
        self._adopt = False  # a rematch is being opened: the chat's next table is ours

    # -- what happens at the table ------------------------------------------------------------

    async def on_update(self, update: TableUpdate) -> None:
        """Tell the events of our table from the player's seat; wake the prompt loop."""
        snap = update.snapshot
        if self._adopt and snap.table.chat_id == CHAT and snap.table_id != self.table_id:
            self._follow(snap.table_id)  # the match Play again opened, told from its first event
        if snap.table_id != self.table_id:
            return
        me = snap.seat_of(PLAYER)
        if self._story is None:
            self._story = Story(snap.table, self.t, show_hands=False, live=True, me=me)
        story = self._story
        story.snap = TableSnapshot(table=snap.table, public=snap.public, to_act=snap.to_act)
        story.me = me
        for e in update.events:
            kind = e["type"]
            story.lines = []
            story.event(e)
            text = "\n".join(story.lines)
            if text.strip():
                self.out.append(("line", text))
            if e["type"] == "turn_warning":
                if e["seat"] == me:
                    self.out.append(("line", self.t.ngettext(
                        "{n} second left, then a move is played for you.",
                        "{n} seconds left, then a move is played for you.", int(e.get("seconds_left", 0)))))
                continue
            notice = notice_text(snap, e, self.t, me)  # a Trix deal's result says what each double did
            if notice and kind != "doubles_revealed":
                self.out.append(({"deal_scored": "result", "match_over": "final"}.get(str(kind), "line"), notice))
        self.changed.set()

    async def _flush(self, *, pause: bool = True) -> None:
        """Show what happened; a deal's result stays until Enter (a few seconds with ``--auto``)."""
        while self.out:
            kind, text = self.out.pop(0)
            if kind == "line":
                self.screen.line(text)
                continue
            lines = text.split("\n")
            self.screen.panel("\n".join(lines[1:]), title=lines[0])
            if not pause or kind == "final" or any(k == "final" for k, _ in self.out):
                continue  # the match is over: its last result needs no Enter
            if self.opts.auto:
                await asyncio.sleep(self._auto_pause())
            else:
                # With a turn timer the table does not wait for an absent player: neither does this.
                line = await self._read(self.t.gettext("Press Enter to go on (q to save and quit): "), None,
                                        wait_at_most=float(self.opts.timer) if self.opts.timer else None)
                if line is not None and normalize(line) == "q":
                    raise Quit

    def _auto_pause(self) -> float:
        if self.opts.pause is not None:
            return self.opts.pause
        return 3.0 if sys.stdout.isatty() else 0.0

    # -- start, resume, loop ------------------------------------------------------------------

    async def run(self) -> int:
        """Open storage, start or resume the match, play it; the exit code."""
        self.screen.begin()
        try:
            return await self._run()
        finally:
            if isinstance(self._lines, LineReader):
                self._lines.stop()  # before asyncio.run closes the loop: the reader must not call it after
            self.screen.end()

    async def _run(self) -> int:
        from bot.core.clock import RealClock
        from bot.core.manager import TableManager
        from storage import open_repository

        repo = await open_repository(self.opts.db)
        seed = self.opts.seed
        settings = ManagerSettings(
            ai_delay=self.opts.ai_delay if self._interactive() else 0.0,
            lobby_timeout=24 * 3600.0,
            default_turn_seconds=self.opts.timer,
            seed_source=(lambda: seed) if seed is not None else None,
            chat_prefixes=(identity.chat_prefix(identity.CLI),),
        )
        self.manager = manager = TableManager(repo, clock=RealClock(), settings=settings)
        manager.subscribe(self.on_update)
        try:
            await manager.start()
            try:
                if not await self._open():
                    return 2
                code = await self._loop()
                while code == 0 and await self._again():
                    code = await self._loop()
                return code
            except Quit:
                self.screen.line(self.t.gettext("The match is saved: continue it with {command}.",
                                                command="majlis play --resume"))
                return 0
            except InputEnded:
                self.screen.line(self.t.gettext(
                    "Input ended. The match is saved: continue it with {command}.", command="majlis play --resume"))
                return 3
        finally:
            await manager.close()
            await repo.close()

    async def _open(self) -> bool:
        """Resume the unfinished match (asked first unless ``--resume``) or begin a new one."""
        m = self.manager
        snap = m.table_in_chat(CHAT)
        resume = self.opts.resume and snap is not None
        if snap is not None and not self.opts.resume:
            answer = await self._read(self.t.gettext(
                "An unfinished match of {game} is waiting at table {table}. Resume it? [Y/n] ",
                game=game_name(snap.table.game, self.t), table=snap.table_id), None, eof_ok=True)
            resume = normalize(answer or "") not in ("n", "no", "لا")
        if resume and snap is not None:
            self.table_id = snap.table_id
            self._speak(resume_lang(snap.table.lang, self.opts.lang, asked=self.opts.lang_asked))
            await m.update_chat(CHAT, lang=self.t.lang, digits=self.opts.digits)
            await m.update_player(PLAYER, name=self.person.name, lang=self.t.lang)
            if snap.table.status == LOBBY:  # interrupted before it began
                try:
                    await m.begin(CHAT, self.person)
                except TableError:
                    await m.stop(CHAT, self.person, is_admin=True)
                    return await self._new_match()
            self.screen.line(self.t.gettext("Resuming table {table}.", table=snap.table_id))
            return True
        if self.opts.resume:
            self.screen.line(self.t.gettext("There is no unfinished match; a new one begins."))
        elif snap is not None:
            await m.stop(CHAT, self.person, is_admin=True)
            self.screen.line(self.t.gettext("The unfinished match at table {table} was abandoned.",
                                            table=snap.table_id))
        return await self._new_match()

    def _speak(self, lang: str) -> None:
        """Go on in ``lang`` (a resumed match's own language): the words, your name, the direction."""
        if lang == self.t.lang:
            return
        self.t = translator(lang, self.opts.digits)
        self.person = Person(PLAYER, self.t.gettext("You"), lang_hint=lang)
        self.screen.rtl = self.t.rtl
        self._story = None

    def _interactive(self) -> bool:
        if self.opts.interactive is not None:
            return self.opts.interactive
        return sys.stdin.isatty()

    async def _new_match(self) -> bool:
        m = self.manager
        await m.update_chat(CHAT, lang=self.opts.lang, turn_seconds=self.opts.timer,
                            ai_level=self.opts.ai_level, digits=self.opts.digits)
        await m.update_player(PLAYER, name=self.person.name, lang=self.opts.lang)
        options: dict[str, Any] = dict(self.opts.options)
        options.setdefault(HINTS, True)  # a practice table: hints and reviews on (bot/core/advice.py)
        if self.opts.target is not None and self.opts.game != "trix":
            options["target"] = self.opts.target
        try:
            if self.opts.seat == 0:
                snap = await m.create(CHAT, self.person, self.opts.game, options)
                self.table_id = snap.table_id
            else:
                host = Person(HOST, "host", lang_hint=self.opts.lang)
                snap = await m.create(CHAT, host, self.opts.game, options)
                self.table_id = snap.table_id
                await m.join(CHAT, self.person, self.opts.seat)
                await m.leave(CHAT, host)
            await m.begin(CHAT, self.person)
        except TableError as e:
            self.screen.line(render_error(e.code, e.params, self.t))
            return False
        return True

    async def _again(self) -> bool:
        """Offer another match after the one that ended; True once it has begun (the same game, options,
        language and seat). The end of the input, or no, ends the program."""
        assert self.table_id is not None
        old = self._snapshot()
        t = self.t
        prompt = t.gettext("Play again? [Y/n] ")
        # With a turn timer an absent player is not waited for at a table: nor here (the match is over).
        answer = await self._read(prompt, None, eof_ok=True,
                                  wait_at_most=float(max(self.opts.timer, 10)) if self.opts.timer else None)
        choice = normalize(answer) if answer is not None else "n"
        if choice not in ("", "y", "yes", "نعم", "ن"):
            return False  # no, or anything else: a match is never begun by a stray answer
        self._adopt = True
        try:
            snap = await self.manager.rematch(CHAT, self.person, old.table_id)
        except TableError as e:
            self.screen.line(render_error(e.code, e.params, t))
            return False
        finally:
            self._adopt = False
        self._follow(snap.table_id)
        self.changed.set()
        return True

    def _follow(self, table_id: int) -> None:
        """Tell the table ``table_id`` from now on (a new match: its story starts anew)."""
        if table_id != self.table_id:
            self.table_id = table_id
            self._story = None
            self.out.clear()

    def _snapshot(self) -> TableSnapshot:
        assert self.table_id is not None
        snap: TableSnapshot | None = self.manager.get(self.table_id)
        assert snap is not None
        return snap

    async def _loop(self) -> int:
        while True:
            await self._flush()
            snap = self._snapshot()
            if snap.table.status not in LIVE_STATUSES:
                break
            seat = snap.seat_of(PLAYER)
            view = self.manager.view(snap.table_id, seat) if seat is not None and snap.public else None
            if seat is not None and view is not None and view.get("to_act") == seat and view.get("legal"):
                self.changed.clear()
                await self._turn(snap, seat, view)
                continue
            self.changed.clear()
            snap2 = self._snapshot()
            if snap2.table.version == snap.table.version and snap2.table.status == snap.table.status \
                    and not self.out:
                await self.changed.wait()
        await asyncio.sleep(0)
        await self._flush(pause=False)
        return 0

    # -- the player's turn --------------------------------------------------------------------

    async def _advice(self, what: str, snap: TableSnapshot) -> None:
        """``t``: the strong search's hint for this turn; ``v``: the review of the last deal (bot/core/advice.py)."""
        cmd = Hint(snap.table_id, snap.table.version) if what == "hint" else Review(snap.table_id)
        try:
            answer = await Service(self.manager).dispatch(cmd, Actor(self.person, CHAT))
        except TableError as e:
            self.screen.line(render_error(e.code, e.params, self.t))
            return
        self.screen.line(advice_text(answer, self.t))

    async def _turn(self, snap: TableSnapshot, seat: int, view: View) -> None:
        """Show the table and the hand, read a choice, act; repeat until the action is accepted."""
        t = self.t
        legal = display_order(list(view["legal"]))
        if len(legal) == 1 and legal[0] != "done":
            label = action_label(legal[0], t)
            self.screen.line(t.gettext("Only one move is possible: {choice}, played for you.", choice=label))
            await self._act(snap, legal[0])
            return
        menu = menu_for(snap, legal, t)
        self._frame(snap, seat, view, menu)
        if self.opts.auto:
            choice = await auto_choice(self.opts.ai_level, snap, view)
            self.screen.line(t.gettext("> {choice}", choice=action_label(choice, t)))
            await self._act(snap, choice)
            return
        while True:
            line = await self._read(ask_text(menu, t), snap.table.version)
            if line is None:  # the table moved on meanwhile (the timer played for you)
                self.screen.line("")
                return
            parsed = menu.parse(line)
            if parsed.kind == "command" and parsed.code in ("hint", "review"):
                await self._advice(parsed.code, snap)
                continue
            if parsed.kind == "command":
                run_command(self.screen, parsed.code, self._snapshot(), seat, menu, t)
                continue
            if parsed.kind in ("empty", "unknown"):
                self.screen.line(unknown_text(line, menu, t))
                continue
            if parsed.kind == "try":  # a real move the rules refuse: the engine names the rule
                try:
                    await self.manager.act_current(snap.table_id, self.person, parsed.code)
                except TableError as e:
                    self.screen.line(render_error(e.code, e.params, t))
                    continue
                return
            if is_extreme(snap.table.game, parsed.code) and not parsed.typed_in_full:
                chosen = menu.by_code(parsed.code)
                sure = await self._read(t.gettext(
                    "Bid {bid}: all 13 tricks, and it cannot be taken back. Are you sure? [y/N] ",
                    bid=int(chosen.key) if chosen else 13), snap.table.version)
                if sure is None:
                    return
                if normalize(sure) not in ("y", "yes", "نعم", "ن"):
                    self.screen.line(t.gettext("Not bid. Choose again."))
                    continue
            await self._act(snap, parsed.code)
            return

    async def _act(self, snap: TableSnapshot, code: str) -> None:
        try:
            await self.manager.act_current(snap.table_id, self.person, code)
        except TableError as e:  # the table moved on (a timer played for you) or refused
            self.screen.line(render_error(e.code, e.params, self.t))

    def _frame(self, snap: TableSnapshot, seat: int, view: View, menu: Menu) -> None:
        t = self.t
        self.screen.line("")
        self.screen.side_by_side((t.gettext("Majlis"), table_box(snap, seat, t)),
                                 (t.gettext("Your hand"), hand_box(snap, view, menu, t)))
        line = choices_line(menu, t)
        if line:
            self.screen.line(line)

    async def _read(self, prompt: str, version: int | None, *, eof_ok: bool = False,
                    wait_at_most: float | None = None) -> str | None:
        """A line of input, or None if the table moved on while waiting (a timer, the match's end) or
        ``wait_at_most`` seconds passed."""
        self.screen.write(prompt)
        if self._lines is None:
            self._lines = LineReader(sys.stdin)
        get = asyncio.ensure_future(self._lines.get())
        try:
            while version is not None:
                self.changed.clear()
                cur = self._snapshot()
                if cur.table.version != version or cur.table.status not in LIVE_STATUSES:
                    return None
                moved = asyncio.ensure_future(self.changed.wait())
                done, _ = await asyncio.wait({get, moved}, return_when=asyncio.FIRST_COMPLETED)
                moved.cancel()
                if get in done:
                    break
            if wait_at_most is not None:
                done, _ = await asyncio.wait({get}, timeout=wait_at_most)
                if not done:
                    self.screen.line("")
                    return None
            line = await get
        finally:
            if not get.done():
                get.cancel()
        if not line:
            if eof_ok:
                self.screen.line("")
                return None
            raise InputEnded
        if not self._interactive():
            self.screen.stream.write(line if line.endswith("\n") else line + "\n")
        return line


def make_screen(opts: PlayOptions, stream: TextIO | None = None) -> Screen:
    """The screen for ``opts``: colour on a terminal, the bidi mode, right-to-left for Arabic."""
    out = stream or sys.stdout
    color = opts.color if opts.color is not None else (out.isatty() and term_ok())
    rtl = translator(opts.lang).rtl
    return Screen(stream=out, color=color, mode=opts.bidi, rtl=rtl,
                  autodetect=rtl and out.isatty() and wants_autodetect(opts.bidi))


async def play(opts: PlayOptions) -> int:
    """Run ``majlis play`` with ``opts``; returns the process exit code."""
    return await TerminalGame(opts, make_screen(opts)).run()


__all__ = ["InputEnded", "PlayOptions", "TerminalGame", "card_label", "display_order", "make_screen", "play"]
