"""The one command, ``majlis``: ``play`` a match in the terminal, ``run`` the chat bots,
``replay`` a table's story, ``bench`` the benchmarks."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.app.cli import db, discord_cli
from bot.app.cli.common import AI_LEVELS, DB_HELP, GAMES, cli_lang, fail, log_to_file, say
from bot.app.config import Config, ConfigError, load_config
from bot.present.i18n import T, translator


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``majlis`` (its help stays in English, like most tools')."""
    p = argparse.ArgumentParser(
        prog="majlis",
        description="Tarneeb, Syrian Tarneeb 41 and Trix: in the terminal, on Telegram, on Discord.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a match in the terminal against three AI players")
    play.add_argument("--game", choices=GAMES, default="tarneeb41", help="the game (default tarneeb41)")
    play.add_argument("--lang", choices=("ar", "en"),
                      help="language (default: MAJLIS_LANG, then $LANG; a resumed match keeps its own "
                           "language unless --lang is given)")
    play.add_argument("--seat", type=int, choices=range(4), default=0, metavar="0..3",
                      help="your seat (default 0; your partner sits at seat+2)")
    play.add_argument("--seed", type=int, help="the shuffle seed (default: random)")
    play.add_argument("--timer", type=int, default=0, metavar="SECONDS",
                      help="seconds per turn before the timer plays for you (0 = no timer, the default)")
    play.add_argument("--target", type=int, help="the score that wins the match (Tarneeb games)")
    play.add_argument("--ai", choices=AI_LEVELS, help="AI strength (default: MAJLIS_AI_LEVEL or normal)")
    play.add_argument("--resume", action="store_true", help="continue the newest unfinished terminal match")
    play.add_argument("--db", help=DB_HELP)
    play.add_argument("--digits", choices=("western", "arabic"), help="how numbers are written")
    play.add_argument("--auto", action="store_true",
                      help="the AI (at the --ai level) plays your seat too: a demonstration, also for scripts")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="a game option, e.g. trump_mode=hearts_fixed (tarneeb41), mode=complex (trix); "
                           "repeat for more; see docs/rules.md")
    play.add_argument("--bidi", choices=("auto", "terminal", "none"),
                      help="Arabic in this terminal: 'terminal' if it does bidi itself (VTE, mlterm, Konsole), "
                           "'none' to print reshaped visual order (xterm, tmux, most others); default auto "
                           "(MAJLIS_BIDI or bidi in the config file)")

    from bot.app.cli.web import add_web_parser

    add_web_parser(sub, GAMES, AI_LEVELS)

    run = sub.add_parser("run", help="run the chat bots (tokens from the environment or the config file)")
    run.add_argument("--telegram", action="store_true", help="run the Telegram bot")
    run.add_argument("--discord", action="store_true", help="run the Discord bot")
    run.add_argument("--webhook", action="store_true",
                     help="Telegram: receive updates on a webhook (MAJLIS_TELEGRAM_WEBHOOK_URL, _LISTEN, _PORT) "
                          "instead of polling")
    run.add_argument("--db", help=DB_HELP)

    replay = sub.add_parser("replay", help="tell a table's match deal by deal from its action log")
    replay.add_argument("table_id", type=int, nargs="?", metavar="TABLE_ID")
    replay.add_argument("--list", action="store_true", help="list the tables (as 'majlis tables')")
    replay.add_argument("--lang", choices=("ar", "en"), help="language (default: the match's own)")
    replay.add_argument("--db", help=DB_HELP)
    replay.add_argument("--digits", choices=("western", "arabic"), help="how numbers are written")

    tables = sub.add_parser("tables", help="list the tables in the database, with their ids (for replay)")
    tables.add_argument("--lang", choices=("ar", "en"), help="language")
    tables.add_argument("--db", help=DB_HELP)

    rules = sub.add_parser("rules", help="the rules of a game, in short")
    rules.add_argument("game", nargs="?", choices=GAMES, metavar="GAME", help="tarneeb41, tarneeb or trix")
    rules.add_argument("--lang", choices=("ar", "en"), help="language")
    rules.add_argument("--digits", choices=("western", "arabic"), help="how numbers are written")
    rules.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="show the rules with these options")
    rules.add_argument("--bidi", choices=("auto", "terminal", "none"), help="as for play")

    db.add_parser(sub)
    discord_cli.add_parser(sub)

    bench = sub.add_parser("bench", help="run the benchmark scripts under bench/")
    bench.add_argument("names", nargs="*", metavar="NAME", help="only these scripts (default: all)")
    bench.add_argument("--list", action="store_true", help="list the scripts and exit")
    return p


def cmd_run(args: argparse.Namespace) -> int:
    """Start the Telegram and/or Discord bot; say exactly what to set when no token is configured."""
    cfg = load_config(db=args.db, telegram_webhook=True if args.webhook else None)  # a ConfigError: one line
    t = translator(cli_lang(None, cfg.lang))
    want_tg = args.telegram or not (args.telegram or args.discord)
    want_dc = args.discord or not (args.telegram or args.discord)
    if want_tg and cfg.telegram_token and cfg.telegram_webhook and not cfg.telegram_webhook_url:
        raise ConfigError("a Telegram webhook needs the public address Telegram posts to",
                          "set MAJLIS_TELEGRAM_WEBHOOK_URL or [telegram] webhook_url")
    where = t.gettext("or put them in {path}", path=str(cfg.config_file or cfg.data_dir / "majlis.toml"))
    missing: list[str] = []
    if args.telegram and not cfg.telegram_token:
        missing.append("MAJLIS_TELEGRAM_TOKEN")
    if args.discord and not cfg.discord_token:
        missing.append("MAJLIS_DISCORD_TOKEN")
    if not args.telegram and not args.discord and not (cfg.telegram_token or cfg.discord_token):
        return fail(
            t.gettext(
                "No chat token is configured. Set {telegram} to run the Telegram bot and/or {discord} "
                "to run the Discord bot ({where}).",
                telegram="MAJLIS_TELEGRAM_TOKEN", discord="MAJLIS_DISCORD_TOKEN", where=where,
            ),
            1,
        )
    if missing:
        return fail(
            t.gettext("No token is configured. Set {variables} ({where}).",
                      variables=t.join(missing), where=where),
            1,
        )
    return _run_bots(cfg, t, telegram=bool(want_tg and cfg.telegram_token),
                     discord=bool(want_dc and cfg.discord_token))


def _run_bots(cfg: Config, t: T, *, telegram: bool, discord: bool) -> int:
    """Logging without secrets, the storage checked, then :mod:`bot.app.runner` until a signal."""
    from bot.app.cli.failures import check_database
    from bot.app.logs import setup_logging
    from bot.app.runner import run

    check_database(cfg.db, t)
    setup_logging(cfg.log_level, [cfg.telegram_token, cfg.discord_token, cfg.telegram_webhook_secret,
                                  cfg.discord_client_secret])
    return asyncio.run(run(cfg, telegram=telegram, discord=discord))


def cmd_play(args: argparse.Namespace) -> int:
    """A match in the terminal (bot/adapters/terminal)."""
    try:
        cfg = load_config(db=args.db, ai_level=args.ai, digits=args.digits)
    except ConfigError as e:
        return fail(str(e), bidi=args.bidi)
    from bot.adapters.terminal.app import PlayOptions, play
    from bot.adapters.terminal.bidi import configured
    from bot.adapters.terminal.console import prepare_db
    from bot.adapters.terminal.options import OptionError, parse_options

    lang = cli_lang(args.lang, cfg.lang)
    t = translator(lang, cfg.digits)
    try:
        options = parse_options(args.game, args.option, t)
        bidi = configured(args.bidi, cfg.file)
    except (OptionError, ValueError) as e:
        return fail(str(e), bidi=args.bidi)
    opts = PlayOptions(
        game=args.game, lang=lang, lang_asked=args.lang is not None, seat=args.seat, seed=args.seed, timer=args.timer,
        target=args.target, ai_level=cfg.ai_level, resume=args.resume, db=cfg.db,
        digits=cfg.digits, auto=args.auto, ai_delay=cfg.ai_delay, options=options, bidi=bidi,
    )
    from bot.app.cli.failures import check_database

    check_database(cfg.db, translator(lang, cfg.digits))  # one clear line, before anything is created
    if args.game != "trix" and cfg.ai_level != "easy":
        from bot.app.startup import missing_ai_warning

        warning = missing_ai_warning(translator(lang, cfg.digits))
        if warning:
            say(warning, sys.stderr, bidi=args.bidi)
    prepare_db(cfg.db)
    log_to_file(cfg.db, cfg.log_level)
    from bot.adapters.terminal.output import closed_pipe_safe

    code = 141
    with closed_pipe_safe():
        try:
            code = asyncio.run(play(opts))
        except KeyboardInterrupt:
            print()
            say(t.gettext("Stopped. Your match is saved: continue it with {command}.",
                          command="majlis play --resume"), bidi=args.bidi)
            code = 130
    return code


def cmd_rules(args: argparse.Namespace) -> int:
    """The rules of a game (or of all three), as ``/rules`` gives them, with options if asked."""
    try:
        cfg = load_config(digits=args.digits)
    except ConfigError as e:
        return fail(str(e), bidi=args.bidi)
    from bot.adapters.terminal.bidi import configured
    from bot.adapters.terminal.options import OptionError, parse_options
    from bot.adapters.terminal.output import closed_pipe_safe, plain_lines
    from bot.present.render.rules_text import render_rules

    t = translator(cli_lang(args.lang, cfg.lang), cfg.digits)
    try:
        options = parse_options(args.game, args.option, t) if args.game else {}
        configured(args.bidi, cfg.file)  # a wrong MAJLIS_BIDI or bidi in the file: said in one line
    except (OptionError, ValueError) as e:
        return fail(str(e), bidi=args.bidi)
    text = render_rules(args.game or "", t, options=options or None)
    with closed_pipe_safe() as pipe:
        sys.stdout.write(plain_lines(text, sys.stdout, args.bidi, cfg.file) + "\n")
        sys.stdout.flush()
    return pipe.code


def cmd_tables(args: argparse.Namespace) -> int:
    """The tables of the database, newest first, with their ids."""
    try:
        cfg = load_config(db=args.db)
    except ConfigError as e:
        return fail(str(e))
    from bot.adapters.terminal.output import closed_pipe_safe
    from bot.app.cli.failures import check_database
    from bot.present.story import table_list

    t = translator(cli_lang(getattr(args, "lang", None), cfg.lang), cfg.digits)
    check_database(cfg.db, t, write=False)  # a file that is missing, or no database: one line (a URL: opened below)
    rows = asyncio.run(table_list(cfg.db, t))
    text = "\n".join(rows) if rows else t.gettext("There are no tables yet.")
    with closed_pipe_safe() as pipe:
        say(t.lines(text.split("\n")))
    return pipe.code


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a table's story."""
    try:
        cfg = load_config(db=args.db, digits=args.digits)
    except ConfigError as e:
        return fail(str(e))
    from bot.adapters.terminal.output import closed_pipe_safe, plain_lines
    from bot.app.cli.failures import check_database
    from bot.present.story import replay_text

    if args.list or args.table_id is None:
        return cmd_tables(args)
    t: T = translator(cli_lang(args.lang, cfg.lang), cfg.digits)
    check_database(cfg.db, t, write=False)  # a file that is missing, or no database: one line (a URL: opened below)
    told = translator(args.lang, cfg.digits) if args.lang else None  # else the match's own language
    text = asyncio.run(replay_text(cfg.db, args.table_id, told, digits=args.digits))
    if text is None:
        return fail(t.gettext("There is no table {table}.", table=args.table_id), 1)
    if sys.stdout.isatty():
        text = plain_lines(text.removesuffix("\n"), sys.stdout, None, cfg.file)
    with closed_pipe_safe() as pipe:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
    return pipe.code


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
            return fail(f"no such benchmark: {', '.join(sorted(unknown))} (in {folder})")
        scripts = [p for p in scripts if p.stem in wanted]
    if args.list or not scripts:
        for p in scripts:
            print(p.stem)
        return 0 if scripts else fail(f"no benchmark scripts in {folder}", 1)
    worst = 0
    for p in scripts:
        print(f"== {p.stem}", flush=True)
        rc = subprocess.call([sys.executable, str(p)], cwd=folder.parent)
        if rc:
            print(f"== {p.stem} failed with exit code {rc}", flush=True)
            worst = worst or rc
    return worst


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``majlis`` console script.

    A storage or configuration failure anywhere below ends here as one line on standard error
    and exit code 1 (2 for a configuration error, or a database in a folder that does not exist),
    never a traceback (:mod:`bot.app.cli.failures`).
    """
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # bare ``majlis``: what it can do, not a complaint
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    from bot.app.cli.web import cmd_web

    if hasattr(args, "db"):  # every command that takes --db: a folder the user named must exist
        problem = _db_folder_problem(args)
        if problem is not None:
            return fail(f"majlis: {problem}", 2, bidi=getattr(args, "bidi", None))
    handler = {"play": cmd_play, "run": cmd_run, "replay": cmd_replay, "bench": cmd_bench, "rules": cmd_rules,
               "tables": cmd_tables, "web": cmd_web, "db": db.cmd_db,
               "discord": discord_cli.cmd_discord}[args.command]
    try:
        return handler(args)
    except Exception as e:
        from bot.app.cli.failures import describe

        line = describe(e, _error_t(args), getattr(args, "db", None) or _configured_db())
        if line is None:
            raise
        return fail(f"majlis: {line}", 2 if isinstance(e, ConfigError) else 1, bidi=getattr(args, "bidi", None))


def _error_t(args: argparse.Namespace) -> T:
    """The translator of an error line: ``--lang`` decides, as for every other line of the command;
    then ``MAJLIS_LANG`` or the file (if the configuration loads), then ``$LANG``."""
    asked = getattr(args, "lang", None)
    try:
        configured = load_config().lang
    except Exception:
        configured = None
    return translator(cli_lang(asked, configured))


def _db_folder_problem(args: argparse.Namespace) -> str | None:
    """One line if the database's folder is missing and is not the data folder (nothing is created);
    a configuration that does not load is left to the command, which says so."""
    from bot.app.cli.failures import missing_folder

    try:
        cfg = load_config(db=args.db)
    except ConfigError:
        return None
    return missing_folder(cfg.db, cfg.data_dir, _error_t(args))


def _configured_db() -> str | None:
    try:
        return load_config().db
    except Exception:
        return None


if __name__ == "__main__":
    sys.exit(main())
