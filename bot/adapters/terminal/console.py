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


class LineReader:
    """Lines of ``stream``, read by a daemon thread one at a time, as :meth:`get` asks for them.

    A daemon thread, unlike ``asyncio.to_thread``, does not keep the process alive at Ctrl-C. It
    reads only the line asked for, so input piped in faster than it is played waits in the pipe,
    not in this process (a million refused answers cost no memory); and it never touches its event
    loop after :meth:`stop`, so a line that arrives as the loop closes is dropped, not a traceback.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._loop = asyncio.get_running_loop()
        self._lines: asyncio.Queue[str] = asyncio.Queue()  # at most one line: the one asked for
        self._wanted = threading.Semaphore(0)  # released once per line asked of the thread
        self._gate = threading.Lock()  # stop() and a delivery never cross
        self._stopped = False
        self._asked = False  # a line is asked of the thread and has not arrived yet (loop side)
        self._ended = False  # the stream ended (loop side)
        threading.Thread(target=self._pump, name="majlis-stdin", daemon=True).start()

    async def get(self) -> str:
        """The next line; "" at the end of the stream, and ever after."""
        if self._lines.empty():
            if self._ended:
                return ""
            if not self._asked:
                self._asked = True
                self._wanted.release()
        return await self._lines.get()

    def stop(self) -> None:
        """Let go of the thread: it reads nothing more and never calls the loop again."""
        with self._gate:
            self._stopped = True
        self._wanted.release()  # a thread waiting to be asked ends now; one inside readline() at its return

    def _arrived(self, line: str) -> None:  # on the loop
        self._asked = False
        self._ended = not line
        self._lines.put_nowait(line)

    def _pump(self) -> None:
        while True:
            self._wanted.acquire()
            line = "" if self._stopped else self._readline()
            if not self._deliver(line) or not line:
                return

    def _readline(self) -> str:
        try:
            return self._stream.readline()
        except (OSError, ValueError):
            return ""

    def _deliver(self, line: str) -> bool:
        """Hand ``line`` to the loop; False once stopped (nobody is listening)."""
        with self._gate:
            if self._stopped:
                return False
            try:
                self._loop.call_soon_threadsafe(self._arrived, line)
            except RuntimeError:  # the loop closed without stop()
                return False
        return True


def prepare_db(db: str) -> None:
    """Create the database's folder (the data directory on first use): a SQLite file's, not a server's."""
    db = db.removeprefix("sqlite:///")
    if db not in (":memory:", "memory://", "memory:") and "://" not in db:
        Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)


def term_ok() -> bool:
    """Colour is welcome: a real ``$TERM`` and no ``NO_COLOR``."""
    return os.environ.get("TERM", "") not in ("", "dumb") and "NO_COLOR" not in os.environ
