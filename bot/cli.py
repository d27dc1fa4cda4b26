"""The one command, ``majlis``: ``play`` a match in the terminal, ``run`` the chat bots,
``replay`` a table's story, ``bench`` the benchmarks."""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.config import ConfigError, load_config
from bot.i18n import T, normalize_lang, resolve_lang, translator

GAMES = ("tarneeb41", "tarneeb", "trix")
AI_LEVELS = ("easy", "normal", "strong")


def _cli_lang(requested: str | None, configured: str | None) -> str:
    """The terminal's language: ``--lang``, then ``MAJLIS_LANG``/the file, then ``$LANG``."""
    hint = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG")
    return resolve_lang(requested or configured, normalize_lang(hint))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``majlis`` (its help stays in English, like most tools')."""
    p = argparse.ArgumentParser(
        prog="majlis",
        description="Tarneeb, Syrian Tarneeb 41 and Trix: in the terminal, on Telegram, on Discord.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a match in the terminal against three AI players")
    play.add_argument("--game", choices=GAMES, default="tarneeb41", help="the game (default tarneeb41)")
    play.add_argument("--lang", choices=("ar", "en"), help="language (default: MAJLIS_LANG, then $LANG)")
    play.add_argument("--seat", type=int, choices=range(4), default=0, metavar="0..3",
                      help="your seat (default 0; your partner sits at seat+2)")
    play.add_argument("--seed", type=int, help="the shuffle seed (default: random)")
    play.add_argument("--timer", type=int, default=0, metavar="SECONDS",
                      help="seconds per turn before the timer plays for you (0 = no timer, the default)")
    play.add_argument("--target", type=int, help="the score that wins the match (Tarneeb games)")
    play.add_argument("--ai", choices=AI_LEVELS, help="AI strength (default: MAJLIS_AI_LEVEL or normal)")
    play.add_argument("--resume", action="store_true", help="continue the newest unfinished terminal match")
    play.add_argument("--db", help="the SQLite file (default: MAJLIS_DB or <data dir>/majlis.sqlite3)")
    play.add_argument("--digits", choices=("western", "arabic"), help="how numbers are written")
    play.add_argument("--auto", action="store_true",
                      help="play the first legal choice every turn (a demonstration; also for scripts)")

    from bot.web.cli import add_web_parser

    add_web_parser(sub, GAMES, AI_LEVELS)

    run = sub.add_parser("run", help="run the chat bots (tokens from the environment or the config file)")
    run.add_argument("--telegram", action="store_true", help="run the Telegram bot")
    run.add_argument("--discord", action="store_true", help="run the Discord bot")
    run.add_argument("--db", help="the database (default: MAJLIS_DB or <data dir>/majlis.sqlite3)")

    replay = sub.add_parser("replay", help="tell a table's match deal by deal from its action log")
    replay.add_argument("table_id", type=int, metavar="TABLE_ID")
    replay.add_argument("--lang", choices=("ar", "en"), help="language")
    replay.add_argument("--db", help="the database")
    replay.add_argument("--digits", choices=("western", "arabic"), help="how numbers are written")

    bench = sub.add_parser("bench", help="run the benchmark scripts under bench/")
    bench.add_argument("names", nargs="*", metavar="NAME", help="only these scripts (default: all)")
    bench.add_argument("--list", action="store_true", help="list the scripts and exit")
    return p


def _fail(message: str, code: int = 2) -> int:
    print(message, file=sys.stderr)
    return code


def cmd_run(args: argparse.Namespace) -> int:
    """Start the Telegram and/or Discord bot; say exactly what to set when no token is configured."""
    try:
        cfg = load_config(db=args.db)
    except ConfigError as e:
        return _fail(str(e))
    t = translator(_cli_lang(None, cfg.lang))
    want_tg = args.telegram or not (args.telegram or args.discord)
    want_dc = args.discord or not (args.telegram or args.discord)
    where = t.gettext("or put them in {path}", path=str(cfg.config_file or cfg.data_dir / "majlis.toml"))
    missing: list[str] = []
    if args.telegram and not cfg.telegram_token:
        missing.append("MAJLIS_TELEGRAM_TOKEN")
    if args.discord and not cfg.discord_token:
        missing.append("MAJLIS_DISCORD_TOKEN")
    if not args.telegram and not args.discord and not (cfg.telegram_token or cfg.discord_token):
        return _fail(
            t.gettext(
                "No chat token is configured. Set {telegram} to run the Telegram bot and/or {discord} "
                "to run the Discord bot ({where}).",
                telegram="MAJLIS_TELEGRAM_TOKEN", discord="MAJLIS_DISCORD_TOKEN", where=where,
            ),
            1,
        )
    if missing:
        return _fail(
            t.gettext("No token is configured. Set {variables} ({where}).",
                      variables=t.join(missing), where=where),
            1,
        )
    import logging

    logging.basicConfig(level=cfg.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    runners: list[Any] = []
    if want_tg and cfg.telegram_token:
        from bot import telegram

        runners.append(telegram.run)
    if want_dc and cfg.discord_token:
        from bot import discord

        runners.append(discord.run)
    results = [r(cfg) for r in runners]
    coros = [r for r in results if inspect.isawaitable(r)]
    if coros:

        async def both() -> None:
            await asyncio.gather(*coros)

        try:
            asyncio.run(both())
        except KeyboardInterrupt:
            return 130
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A match in the terminal (bot/terminal)."""
    try:
        cfg = load_config(db=args.db, ai_level=args.ai, digits=args.digits)
    except ConfigError as e:
        return _fail(str(e))
    from bot.terminal.app import PlayOptions, play, prepare_db

    lang = _cli_lang(args.lang, cfg.lang)
    opts = PlayOptions(
        game=args.game, lang=lang, seat=args.seat, seed=args.seed, timer=args.timer,
        target=args.target, ai_level=cfg.ai_level, resume=args.resume, db=cfg.db,
        digits=cfg.digits, auto=args.auto, ai_delay=cfg.ai_delay,
    )
    prepare_db(cfg.db)
    _log_to_file(cfg.db, cfg.log_level)
    try:
        return asyncio.run(play(opts))
    except KeyboardInterrupt:
        print()
        print(translator(lang, cfg.digits).gettext(
            "Stopped. Your match is saved: continue it with {command}.", command="majlis play --resume"))
        return 130


def _log_to_file(db: str, level: str) -> None:
    """Keep log records (an AI's trouble, say) off the player's screen: beside the database."""
    import logging

    if "://" in db or db.startswith(":"):
        logging.getLogger().addHandler(logging.NullHandler())
        return
    wanted = logging.getLevelName(level.upper())
    logging.basicConfig(filename=str(Path(db).expanduser().parent / "majlis-play.log"),
                        level=max(logging.WARNING, wanted if isinstance(wanted, int) else 0),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a table's story."""
    try:
        cfg = load_config(db=args.db, digits=args.digits)
    except ConfigError as e:
        return _fail(str(e))
    from bot.replay import replay_text

    t: T = translator(_cli_lang(args.lang, cfg.lang), cfg.digits)
    if not Path(cfg.db).exists():
        return _fail(t.gettext("No database at {path}.", path=cfg.db), 1)
    text = asyncio.run(replay_text(cfg.db, args.table_id, t))
    if text is None:
        return _fail(t.gettext("There is no table {table}.", table=args.table_id), 1)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _bench_dir() -> Path:
    for base in (Path.cwd(), Path(__file__).resolve().parents[1]):
        if (base / "bench").is_dir():
            return base / "bench"
    return Path.cwd() / "bench"


def cmd_bench(args: argparse.Namespace) -> int:
    """Run each ``bench/*.py`` in its own interpreter and pass its figures through."""
    folder = _bench_dir()
    scripts = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    if args.names:
        wanted = {n.removesuffix(".py") for n in args.names}
        unknown = wanted - {p.stem for p in scripts}
        if unknown:
            return _fail(f"no such benchmark: {', '.join(sorted(unknown))} (in {folder})")
        scripts = [p for p in scripts if p.stem in wanted]
    if args.list or not scripts:
        for p in scripts:
            print(p.stem)
        return 0 if scripts else _fail(f"no benchmark scripts in {folder}", 1)
    worst = 0
    for p in scripts:
        print(f"== {p.stem}", flush=True)
        rc = subprocess.call([sys.executable, str(p)], cwd=folder.parent)
        if rc:
            print(f"== {p.stem} failed with exit code {rc}", flush=True)
            worst = worst or rc
    return worst


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``majlis`` console script."""
    args = build_parser().parse_args(argv)
    from bot.web.cli import cmd_web

    handler = {"play": cmd_play, "run": cmd_run, "replay": cmd_replay, "bench": cmd_bench,
               "web": cmd_web}[args.command]
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
