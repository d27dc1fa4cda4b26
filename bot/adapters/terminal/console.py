"""The console's input side for ``majlis play``: lines read by a thread, the database folder, and the
two ways a session ends early."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import TextIO


class InputEnded(Exception):
    """Standard input closed before the match ended."""


class Quit(Exception):
    """The player typed ``q``: the match is saved."""


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
    """Create the database's folder (the data directory on first use): a SQLite file's, not a server's."""
    db = db.removeprefix("sqlite:///")
    if db not in (":memory:", "memory://", "memory:") and "://" not in db:
        Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)


def term_ok() -> bool:
    """Colour is welcome: a real ``$TERM`` and no ``NO_COLOR``."""
    return os.environ.get("TERM", "") not in ("", "dumb") and "NO_COLOR" not in os.environ
