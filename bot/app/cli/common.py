"""What every ``majlis`` subcommand shares: the games and levels it offers, the terminal's language, a
failure as one line, and log records kept off the player's screen."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

from bot.core.lang import normalize_lang, resolve_lang

GAMES = ("tarneeb41", "tarneeb", "trix")
AI_LEVELS = ("easy", "normal", "strong")
#: The ``--db`` of every command: any database the configuration takes.
DB_HELP = ("the database: a SQLite file (or sqlite:///path), a postgresql://user:password@host/name URL "
           "or :memory: (default: MAJLIS_DB or <data dir>/majlis.sqlite3)")


def cli_lang(requested: str | None, configured: str | None) -> str:
    """The terminal's language: ``--lang``, then ``MAJLIS_LANG``/the file, then ``$LANG``."""
    hint = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG")
    return resolve_lang(requested or configured, normalize_lang(hint))


def fail(message: str, code: int = 2, *, bidi: str | None = None) -> int:
    """Print ``message`` on standard error (as :func:`say` prints: Arabic wrapped, then in visual order
    on a terminal that needs it, no direction marks); the exit code ``code``."""
    say(message, sys.stderr, bidi=bidi)
    return code


def say(text: str, stream: TextIO | None = None, *, bidi: str | None = None) -> None:
    """Print plain lines to a terminal (standard output by default), as every ``majlis`` command's lines
    outside the drawn panels are printed: cut at spaces to the terminal's width, then each line in
    visual order where the terminal does no bidi (``--bidi``/``MAJLIS_BIDI``/the config file/a guess);
    no isolate or direction mark (:func:`bot.adapters.terminal.output.say`)."""
    from bot.adapters.terminal.output import say as say_to

    say_to(text, stream, bidi=bidi, file=_config_file())


def _config_file() -> Mapping[str, object] | None:
    """The config file's settings (its ``bidi``), or None when it does not load."""
    try:
        from bot.app.config import load_config

        return load_config().file
    except Exception:
        return None


def log_to_file(db: str, level: str) -> None:
    """Keep log records (an AI's trouble, say) off the player's screen: beside the database."""
    import logging

    from bot.app.cli.failures import db_path

    path = db_path(db)
    if path is None:  # in memory, or on a server: no folder of ours to write in
        logging.getLogger().addHandler(logging.NullHandler())
        return
    wanted = logging.getLevelName(level.upper())
    logging.basicConfig(filename=str(path.parent / "majlis-play.log"),
                        level=max(logging.WARNING, wanted if isinstance(wanted, int) else 0),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
