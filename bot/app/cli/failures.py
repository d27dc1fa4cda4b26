"""Storage and start-up failures of the ``majlis`` command as one clear line each.

A failure the operator can fix (a file that is not a database, a read-only database, a file
where the data folder should be, a database another process keeps locked, a token the platform
refuses) becomes one sentence: what is wrong, which file, what to do; the command exits nonzero
and nothing is changed. :func:`check_database` looks before anything is opened (it only reads);
:func:`describe` explains an exception raised anyway.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from bot.present.i18n import T, translator

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_HEADER = b"SQLite format 3\x00"


class StorageProblem(Exception):
    """A storage failure explained in one sentence (already localized)."""


def _t(t: T | None) -> T:
    return t if t is not None else translator("en")


def _is_server_url(db: str) -> bool:
    return "://" in db and not db.startswith(("sqlite:///", "memory://"))


def db_path(db: str) -> Path | None:
    """The file of a database setting (None for the in-memory one or another URL)."""
    if db in (":memory:", "memory://", "memory:") or _is_server_url(db):
        return None
    return Path(db.removeprefix("sqlite:///")).expanduser()


def shown(db: str) -> Path | str:
    """The database as a message names it: its file, or its URL without the password."""
    path = db_path(db)
    if path is not None:
        return path
    from storage.postgres import redact

    return redact(db)


def missing_folder(db: str, data_dir: Path, t: T | None = None) -> str | None:
    """One line if the folder of the database ``db`` does not exist and is not the data folder.

    The data folder (``MAJLIS_DATA_DIR``, or the default one) is created on first use; any other
    folder only by the person who named it: a mistyped ``--db``/``MAJLIS_DB`` must not leave new
    folders behind (issue 29). Looks only.
    """
    path = db_path(db)
    if path is None:
        return None
    folder = path.parent
    if folder.exists() or folder.is_symlink():  # a file there: check_database says what is wrong
        return None
    if os.path.abspath(folder) == os.path.abspath(data_dir.expanduser()):
        return None
    return _t(t).gettext(
        "The folder {folder} does not exist, so the database {db} cannot be there: create the folder "
        "first, or set --db (or MAJLIS_DB) to a file in an existing folder.", folder=str(folder), db=str(path))


def check_database(db: str, t: T | None = None, *, write: bool = True) -> None:
    """Raise :class:`StorageProblem` if ``db`` cannot be opened (for writing, with ``write``).

    Looks only: no file or folder is created or changed.
    """
    t = _t(t)
    path = db_path(db)
    if path is None:
        return
    # the nearest existing ancestor must be a folder (the data folder may not exist yet)
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise StorageProblem(t.gettext(
                    "{path} is a file, but the database {db} needs a folder there: move that file away "
                    "or set MAJLIS_DATA_DIR (or MAJLIS_DB) to another place.", path=str(parent), db=str(path)))
            if not path.parent.exists() and write and not os.access(parent, os.W_OK | os.X_OK):
                raise StorageProblem(t.gettext(
                    "Cannot create the folder of the database {db}: {path} is not writable. Create it with "
                    "write access for this user, or set MAJLIS_DB to another place.", db=str(path), path=str(parent)))
            break
    if not path.exists():
        if not write:
            raise StorageProblem(t.gettext("No database at {path}.", path=str(path)))
        if path.parent.is_dir() and not os.access(path.parent, os.W_OK | os.X_OK):
            raise StorageProblem(t.gettext(
                "Cannot create the database {db}: the folder {path} is not writable. Give this user write "
                "access to it, or set MAJLIS_DB to another place.", db=str(path), path=str(path.parent)))
        return
    if path.is_dir():
        raise StorageProblem(t.gettext(
            "{path} is a folder, not a database file: set MAJLIS_DB (or --db) to a file path.", path=str(path)))
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise StorageProblem(t.gettext(
            "Cannot read the database {path} ({reason}): give this user access to it.",
            path=str(path), reason=e.strerror or str(e))) from None
    if head and head != SQLITE_HEADER:
        raise StorageProblem(not_a_database(path, t))
    if write:
        if not os.access(path, os.W_OK):
            raise StorageProblem(read_only(path, t))
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise StorageProblem(t.gettext(
                "The database {path} is in a folder this user cannot write to ({folder}); SQLite keeps "
                "its journal beside the file. Give this user write access to the folder, or move the "
                "database.", path=str(path), folder=str(path.parent)))


def not_a_database(path: Path | str, t: T) -> str:
    return t.gettext(
        "{path} is not a SQLite database (or it is damaged); it was left as it is. Set MAJLIS_DB "
        "(or --db) to another file, or move this one away.", path=str(path))


def read_only(path: Path | str, t: T) -> str:
    return t.gettext(
        "The database {path} is read-only for this user; it was left as it is. Give this user write "
        "access to it, or set MAJLIS_DB (or --db) to a writable file.", path=str(path))


def locked(path: Path | str, t: T) -> str:
    return t.gettext(
        "The database {path} is locked by another process (another majlis, or an open sqlite3 shell?) "
        "and stayed locked: stop that process, or set MAJLIS_DB (or --db) to another file.", path=str(path))


def describe(exc: BaseException, t: T | None = None, db: str | None = None) -> str | None:
    """One sentence for an exception the operator can do something about, else None."""
    t = _t(t)
    path: Path | str = shown(db) if db else "?"
    if isinstance(exc, StorageProblem):
        return str(exc)
    from bot.app.config import ConfigError

    if isinstance(exc, ConfigError):
        return t.gettext("Configuration error: {detail}.", detail=str(exc))
    from storage import errors as storage_errors

    if isinstance(exc, storage_errors.NotADatabase):
        return not_a_database(path, t)
    if isinstance(exc, storage_errors.ReadOnlyDatabase):
        return read_only(path, t)
    if isinstance(exc, storage_errors.DatabaseLocked):
        return locked(path, t)
    if isinstance(exc, storage_errors.SchemaMismatch):
        return t.gettext("The database {path} does not have the tables this Majlis reads ({detail}).",
                         path=str(path), detail=str(exc))
    if isinstance(exc, storage_errors.DatabaseUnavailable) and db and _is_server_url(db):
        return t.gettext("Cannot use the database {path} ({detail}): check that its server runs and that the "
                         "address, user, password and database name in MAJLIS_DB (or --db) are right.",
                         path=str(path), detail=str(exc))
    if isinstance(exc, storage_errors.DatabaseUnavailable):
        return t.gettext("Cannot open the database {path} ({detail}): check that its folder exists and this "
                         "user may write there, or set MAJLIS_DB (or --db) to another file.",
                         path=str(path), detail=str(exc))
    if isinstance(exc, sqlite3.DatabaseError):
        text = str(exc).lower()
        if "not a database" in text or "malformed" in text:
            return not_a_database(path, t)
        if "readonly" in text or "read-only" in text:
            return read_only(path, t)
        if "locked" in text or "busy" in text:
            return locked(path, t)
        if "unable to open" in text:
            return t.gettext("Cannot open the database {path}: check that its folder exists and this user may "
                             "write there, or set MAJLIS_DB (or --db) to another file.", path=str(path))
        if "disk" in text and ("full" in text or "i/o" in text):
            return t.gettext("The disk of the database {path} is full or failing ({reason}): free some space "
                             "or move the database.", path=str(path), reason=str(exc))
        return None
    if isinstance(exc, OSError) and exc.errno in (errno.ENOTDIR, errno.EEXIST) and exc.filename:
        return t.gettext("{path} is a file, but a folder is needed there: move that file away or set "
                         "MAJLIS_DATA_DIR (or MAJLIS_DB) to another place.", path=str(exc.filename))
    if isinstance(exc, PermissionError) and exc.filename:
        return t.gettext("No permission to use {path}: give this user access to it, or set MAJLIS_DATA_DIR "
                         "(or MAJLIS_DB) to another place.", path=str(exc.filename))
    return _platform(exc, t)


def _platform(exc: BaseException, t: T) -> str | None:
    """A chat platform that refused to let the bot in."""
    try:
        from telegram import error as tg_error
    except ImportError:  # pragma: no cover - a core dependency
        tg_error = None  # type: ignore[assignment]
    if tg_error is not None:
        if isinstance(exc, tg_error.InvalidToken):
            return t.gettext("Telegram refused the bot token: check {variable} (the token from @BotFather).",
                             variable="MAJLIS_TELEGRAM_TOKEN")
        if isinstance(exc, tg_error.NetworkError):
            return t.gettext("Cannot reach Telegram ({reason}): check the network, or {variable}.",
                             reason=str(exc), variable="MAJLIS_TELEGRAM_BASE_URL")
    try:
        import discord
    except ImportError:  # pragma: no cover - a core dependency
        return None
    if isinstance(exc, discord.LoginFailure):
        return t.gettext("Discord refused the bot token: check {variable}.", variable="MAJLIS_DISCORD_TOKEN")
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return t.gettext("Discord refused the bot's intents: {reason}", reason=str(exc))
    import aiohttp

    if isinstance(exc, aiohttp.ClientConnectionError):
        return t.gettext("Cannot reach Discord ({reason}): check the network, or {variable}.",
                         reason=str(exc), variable="MAJLIS_DISCORD_API_BASE")
    return None
