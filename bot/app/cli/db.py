"""``majlis db``: migrate a database, export it to a file, import a file into a new database.

    majlis db migrate [--db URL]          apply the numbered migrations (SQLite or PostgreSQL)
    majlis db export FILE [--db URL]      every row to a JSON-lines file ("-": standard output)
    majlis db import FILE [--db URL]      such a file into an EMPTY database, in one transaction

Moving from SQLite to PostgreSQL: ``majlis db export all.jsonl --db ~/.local/share/majlis/majlis.sqlite3``
then ``majlis db import all.jsonl --db postgresql://majlis@db/majlis`` (stop the bot first).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from typing import Any

from bot.app.cli.common import DB_HELP, cli_lang, fail, say
from bot.app.config import ConfigError, load_config
from bot.present.i18n import T, translator


def add_parser(sub: Any) -> None:
    """Add ``db`` and its three commands to ``majlis``'s subparsers."""
    db = sub.add_parser("db", help="migrate, export or import the database (SQLite or PostgreSQL)")
    actions = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    migrate = actions.add_parser("migrate", help="apply the numbered migrations and print the schema version")
    export = actions.add_parser("export", help="write every row to a JSON-lines file")
    export.add_argument("file", metavar="FILE", help='the file to write ("-": standard output)')
    imp = actions.add_parser("import", help="load an exported file into an empty database")
    imp.add_argument("file", metavar="FILE", help='the exported file ("-": standard input)')
    for p in (migrate, export, imp):
        p.add_argument("--db", help=DB_HELP)
        p.add_argument("--lang", choices=("ar", "en"), help="language of the messages")


def cmd_db(args: argparse.Namespace) -> int:
    """Run one ``majlis db`` action; a storage error is one line on standard error (exit 1)."""
    try:
        cfg = load_config(db=args.db)
    except ConfigError as e:
        return fail(str(e))
    from storage.errors import StorageError

    t = translator(cli_lang(args.lang, cfg.lang))
    try:
        return asyncio.run(_run(args.db_command, cfg.db, cfg.durability, getattr(args, "file", None), t))
    except StorageError as e:
        return fail(t.gettext("Database error: {detail}", detail=str(e)), 1)
    except OSError as e:
        return fail(t.gettext("Cannot use the file {path}: {reason}", path=args.file, reason=e.strerror or str(e)), 1)


async def _run(action: str, db: str, durability: str, file: str | None, t: T) -> int:
    from storage import open_repository
    from storage.memory import MemoryRepository
    from storage.transfer import export_database, import_database, read_export

    repo = await open_repository(db, durability=durability, read_only=action == "export")
    try:
        if isinstance(repo, MemoryRepository):
            return fail(t.gettext("An in-memory database cannot be migrated, exported or imported."))
        target = _redacted(db)
        if action == "migrate":
            say(t.gettext("{db}: schema version {version}, up to date.", db=target, version=repo.schema_version))
            return 0
        assert file is not None
        if action == "export":
            with _open(file, "w") as out:
                counts = await export_database(repo, out)
        else:
            with _open(file, "r") as lines:
                counts = await import_database(repo, read_export(lines))
        rows = sum(counts.values())
        text = t.ngettext("{n} row", "{n} rows", rows)
        tables = t.ngettext("{n} table", "{n} tables", counts.get("tables", 0))
        message = (t.gettext("Exported {rows} ({tables}) from {db}.", rows=text, tables=tables, db=target)
                   if action == "export" else
                   t.gettext("Imported {rows} ({tables}) into {db}.", rows=text, tables=tables, db=target))
        say(message, sys.stderr if file == "-" and action == "export" else sys.stdout)
        return 0
    finally:
        await repo.close()


def _redacted(db: str) -> str:
    from storage.postgres import redact

    return redact(db)


@contextlib.contextmanager
def _open(path: str, mode: str) -> Any:
    if path == "-":
        yield sys.stdout if mode == "w" else sys.stdin
        return
    with open(path, mode, encoding="utf-8") as f:
        yield f
