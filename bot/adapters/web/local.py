"""``majlis web``: a table for you against three AI players, in your browser, on 127.0.0.1.

The same :class:`~bot.core.manager.TableManager` and SQLite storage as ``majlis play`` (so
``--resume`` continues a match the process lost), its own chat (``cli:web``), and the web adapter
in front of it. The address printed carries a signed credential for your seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import webbrowser
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.adapters.web.server import WebServer, WebSettings
from bot.adapters.web.tokens import install_secret
from bot.core.advice import HINTS
from bot.core.errors import TableError
from bot.core.identity import TERMINAL_PLAYER, cli_id
from bot.core.lang import resume_lang
from bot.core.model import Person
from bot.core.settings import ManagerSettings
from bot.present.i18n import translator
from bot.present.render.cards import game_name
from bot.present.render.errors import render_error
from storage.records import LOBBY

CHAT = cli_id("web")
PLAYER = TERMINAL_PLAYER
#: A local player's link works this long (seconds): the browser tab may stay open for days.
LOCAL_TTL = 30 * 24 * 3600.0
#: Seconds the result of a deal stays before an AI opens the next one (Next deal on the page ends it).
DEAL_PAUSE = 12.0
#: Reads one answer from the person at the terminal (None: no answer, input ended).
Ask = Callable[[str], Awaitable[str | None]]


@dataclass(frozen=True, slots=True)
class WebOptions:
    """What ``majlis web`` was asked for."""

    game: str = "tarneeb41"
    lang: str = "ar"
    #: ``--lang`` was given: it wins over a resumed match's own language (else the match keeps its own).
    lang_asked: bool = False
    seed: int | None = None
    timer: int = 0
    target: int | None = None
    ai_level: str = "normal"
    resume: bool = False
    db: str = ":memory:"
    digits: str = "western"
    ai_delay: float = 1.0
    host: str = "127.0.0.1"
    port: int = 8741
    open_browser: bool = True


class LocalTable:
    """One local web session: storage, manager, web server, and your table."""

    def __init__(self, opts: WebOptions, out: Callable[[str], None] = print, ask: Ask | None = None) -> None:
        self.opts = opts
        self.out = out
        self.ask = ask  # None: nobody to ask (input is not a terminal); an unfinished match is abandoned
        self.t = translator(opts.lang, opts.digits)
        self.person = Person(PLAYER, self.t.gettext("You"), lang_hint=opts.lang)
        self.manager: Any = None
        self.server: WebServer | None = None
        self.repo: Any = None
        self.table_id: int | None = None
        self.url: str | None = None

    async def start(self) -> str:
        """Open storage, start (or resume) the table, listen; returns your page's address."""
        from bot.core.clock import RealClock
        from bot.core.manager import TableManager
        from storage import open_repository

        self.repo = repo = await open_repository(self.opts.db)
        seed = self.opts.seed
        settings = ManagerSettings(
            ai_delay=self.opts.ai_delay, deal_pause=DEAL_PAUSE if self.opts.ai_delay > 0 else 0.0,
            lobby_timeout=24 * 3600.0, default_turn_seconds=self.opts.timer,
            seed_source=(lambda: seed) if seed is not None else None, chat_prefixes=(CHAT,),
        )
        self.manager = manager = TableManager(repo, clock=RealClock(), settings=settings)
        secret = await install_secret(repo)
        self.server = server = WebServer(manager, secret, WebSettings(host=self.opts.host, port=self.opts.port))
        await manager.start()
        await self._table()
        try:
            await server.start()
        except OSError:  # the port is taken: any free one
            self.server = server = WebServer(manager, secret, WebSettings(host=self.opts.host, port=0),
                                             hub=server.hub)
            await server.start()
        assert self.table_id is not None
        self.url = server.links.play_url(self.table_id, 0, PLAYER, manager.clock.now(), ttl=LOCAL_TTL)
        return self.url

    async def _table(self) -> None:
        m = self.manager
        snap = m.table_in_chat(CHAT)
        resume = self.opts.resume
        if snap is not None and not resume and self.ask is not None:  # as majlis play asks
            answer = await self.ask(self.t.gettext(
                "An unfinished match of {game} is waiting at table {table}. Resume it? [Y/n] ",
                game=game_name(snap.table.game, self.t), table=snap.table_id))
            resume = " ".join((answer or "").strip().lower().split()) not in ("n", "no", "لا")
        if resume and snap is not None:  # the match goes on in its own language
            lang = resume_lang(snap.table.lang, self.opts.lang, asked=self.opts.lang_asked)
            if lang != self.t.lang:
                self.t = translator(lang, self.opts.digits)
                self.person = Person(PLAYER, self.t.gettext("You"), lang_hint=lang)
        await m.update_chat(CHAT, lang=self.t.lang, turn_seconds=self.opts.timer, ai_level=self.opts.ai_level,
                            digits=self.opts.digits)
        await m.update_player(PLAYER, name=self.person.name, lang=self.t.lang)
        if resume and snap is not None:
            self.table_id = snap.table_id
            if snap.table.status == LOBBY:
                await m.begin(CHAT, self.person)
            self.out(self.t.gettext("Resuming table {table}.", table=snap.table_id))
            return
        if resume:
            self.out(self.t.gettext("There is no unfinished match; a new one begins."))
        elif snap is not None:
            await m.stop(CHAT, self.person, is_admin=True)
            self.out(self.t.gettext(
                "The unfinished match at table {table} was abandoned (use {command} to continue a match).",
                table=snap.table_id, command="majlis web --resume"))
        options: dict[str, Any] = {HINTS: True}  # a practice table: hints and reviews on (bot/core/advice.py)
        if self.opts.target is not None and self.opts.game != "trix":
            options["target"] = self.opts.target
        snap = await m.create(CHAT, self.person, self.opts.game, options)
        self.table_id = snap.table_id
        await m.begin(CHAT, self.person)

    async def close(self) -> None:
        """Stop serving; the match stays in storage."""
        if self.server is not None:
            await self.server.close()
        if self.manager is not None:
            await self.manager.close()
        if self.repo is not None:
            await self.repo.close()


def _can_open() -> bool:
    if os.environ.get("MAJLIS_NO_BROWSER"):
        return False
    if str(sys.platform).startswith(("linux", "freebsd")):  # X11 or Wayland, or no browser at all
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


#: The exit code after Ctrl-C or SIGTERM (the shell's 128 + SIGINT).
STOPPED = 130


async def serve(opts: WebOptions, out: Callable[[str], None] = print, ask: Ask | None = None) -> int:
    """Run ``majlis web`` until Ctrl-C (SIGINT) or SIGTERM; the exit code (:data:`STOPPED` then).

    The signals get their own handlers: a process started in the background of a shell (or by
    another program) may have inherited SIGINT ignored, and then Python raises no
    KeyboardInterrupt; the table must still be closed cleanly, its match saved.
    """
    local = LocalTable(opts, out, ask)
    stopped = False
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    installed: list[int] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not on Windows' loop
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
    try:
        starting = asyncio.create_task(local.start())
        stopping = asyncio.create_task(stop.wait())
        try:  # Ctrl-C while the question waits for its answer stops at once, nothing abandoned
            await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if not starting.done():
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
            stopped = True
            return STOPPED
        try:
            url = starting.result()
        except TableError as e:
            out(render_error(e.code, e.params, local.t))
            return 2
        out(local.t.gettext("Your table is open in your browser at this address:"))
        out(url)
        out(local.t.gettext("Press Ctrl-C to stop; continue later with {command}.", command="majlis web --resume"))
        sys.stdout.flush()
        if opts.open_browser and _can_open():
            with contextlib.suppress(Exception):
                await asyncio.to_thread(webbrowser.open, url)
        await stop.wait()
        stopped = True
        return STOPPED
    finally:
        for handled in installed:
            loop.remove_signal_handler(handled)
        await local.close()
        if stopped:  # in the match's language, which a resumed match keeps
            out(local.t.gettext("Stopped. Your match is saved: continue it with {command}.",
                                command="majlis web --resume"))
