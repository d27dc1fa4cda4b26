"""``majlis web``: its arguments and its command (registered by ``bot/app/cli/main.py``)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from bot.app.cli.common import DB_HELP, cli_lang, fail, log_to_file, say


def add_web_parser(sub: Any, games: tuple[str, ...], ai_levels: tuple[str, ...]) -> None:
    """Add the ``web`` subcommand to ``majlis``'s parser."""
    web = sub.add_parser("web", help="play a match in your browser against three AI players (on 127.0.0.1)")
    web.add_argument("--game", choices=games, default="tarneeb41", help="the game (default tarneeb41)")
    web.add_argument("--lang", choices=("ar", "en"),
                     help="language (default: MAJLIS_LANG, then $LANG; a resumed match keeps its own "
                          "language unless --lang is given)")
    web.add_argument("--seed", type=int, help="the shuffle seed (default: random)")
    web.add_argument("--timer", type=int, default=0, metavar="SECONDS",
                     help="seconds per turn before the timer plays for you (0 = no timer, the default)")
    web.add_argument("--target", type=int, help="the score that wins the match (Tarneeb games)")
    web.add_argument("--ai", choices=ai_levels, help="AI strength (default: MAJLIS_AI_LEVEL or normal)")
    web.add_argument("--resume", action="store_true",
                     help="continue the newest unfinished web match without asking (without --resume a "
                          "terminal asks 'Resume it? [Y/n]'; when input is not a terminal the unfinished "
                          "match is abandoned and a new one begins)")
    web.add_argument("--db", help=DB_HELP)
    web.add_argument("--digits", choices=("western", "arabic"), help="how numbers are written")
    web.add_argument("--port", type=int, default=8741, help="the port on 127.0.0.1 (default 8741; 0: any free one)")
    web.add_argument("--no-open", action="store_true", help="only print the address, do not open a browser")


async def ask_line(prompt: str) -> str | None:
    """One line typed at the terminal (None: input ended), waited for without a thread, so that
    Ctrl-C while it waits stops at once."""
    from bot.adapters.terminal.output import plain_lines

    sys.stdout.write(plain_lines(prompt.rstrip(), sys.stdout) + " ")  # as majlis play's prompt: no marks
    sys.stdout.flush()
    loop = asyncio.get_running_loop()
    got: asyncio.Future[str] = loop.create_future()
    fd = sys.stdin.fileno()

    def readable() -> None:
        if not got.done():
            got.set_result(sys.stdin.readline())

    try:
        loop.add_reader(fd, readable)
    except (NotImplementedError, ValueError, OSError):  # a loop that cannot watch stdin (Windows)
        line = await asyncio.to_thread(sys.stdin.readline)
        return line or None
    try:
        return (await got) or None
    finally:
        loop.remove_reader(fd)


def cmd_web(args: argparse.Namespace) -> int:
    """Serve a local table and print (and, where possible, open) its address."""
    from bot.adapters.terminal.console import prepare_db
    from bot.adapters.web.local import STOPPED, WebOptions, serve
    from bot.app.config import ConfigError, load_config
    from bot.present.i18n import translator

    try:
        cfg = load_config(db=args.db, ai_level=args.ai, digits=args.digits)
    except ConfigError as e:
        return fail(str(e))
    lang = cli_lang(args.lang, cfg.lang)
    opts = WebOptions(game=args.game, lang=lang, lang_asked=args.lang is not None, seed=args.seed,
                      timer=args.timer, target=args.target,
                      ai_level=cfg.ai_level, resume=args.resume, db=cfg.db, digits=cfg.digits,
                      ai_delay=cfg.ai_delay, port=args.port, open_browser=not args.no_open)
    prepare_db(cfg.db)
    log_to_file(cfg.db, cfg.log_level)
    try:
        ask = ask_line if sys.stdin is not None and sys.stdin.isatty() else None  # asks as majlis play does
        return asyncio.run(serve(opts, say, ask))  # says when it stopped
    except KeyboardInterrupt:  # where the loop cannot handle signals itself
        say(translator(lang, cfg.digits).gettext(
            "Stopped. Your match is saved: continue it with {command}.", command="majlis web --resume"))
        return STOPPED
