"""A real PostgreSQL server for the tests: ``MAJLIS_TEST_PG`` if set, else one started here.

The server is started from the binaries under ``/usr/lib/postgresql/<version>/bin`` in a
temporary folder, on a free port of 127.0.0.1 (and a socket in that folder), with ``fsync`` off
(the server is never killed by a test, only the bot's processes are). ``initdb`` refuses to run
as root, so as root the server runs as the ``postgres`` user through ``runuser``. Where none of
this is possible, :func:`server` returns None and :data:`UNAVAILABLE` says why: the tests that
need PostgreSQL skip, and the storage conftest prints that reason in one line.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

ENV = "MAJLIS_TEST_PG"
UNAVAILABLE: list[str] = []  # why there is no PostgreSQL (set by server())


class Server:
    """A running PostgreSQL: ``url`` reaches its ``postgres`` database as a superuser."""

    def __init__(self, url: str, process: subprocess.Popen[bytes] | None = None,
                 folder: Path | None = None) -> None:
        self.url = url
        self.process = process
        self.folder = folder
        self._databases = 0

    def database_url(self, name: str) -> str:
        """The URL of database ``name`` on this server (the same user and host)."""
        base, _, _ = self.url.rpartition("/")
        return f"{base}/{name}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: a "smart" shutdown once the clients are gone
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def _bin_dir() -> Path | None:
    root = Path("/usr/lib/postgresql")
    if not root.is_dir():
        return None
    versions = sorted((p for p in root.iterdir() if (p / "bin" / "initdb").exists()),
                      key=lambda p: int(p.name) if p.name.isdigit() else 0)
    return versions[-1] / "bin" if versions else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start() -> Server | None:
    """Start a throwaway server, or return None (with the reason in :data:`UNAVAILABLE`)."""
    bindir = _bin_dir()
    if bindir is None:
        UNAVAILABLE.append("no PostgreSQL binaries under /usr/lib/postgresql (set MAJLIS_TEST_PG to use a server)")
        return None
    prefix: list[str] = []
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            UNAVAILABLE.append("running as root and there is no postgres user to run initdb as")
            return None
        runuser = shutil.which("runuser")
        if runuser is None:
            UNAVAILABLE.append("running as root without runuser to start PostgreSQL as postgres")
            return None
        prefix = [runuser, "-u", "postgres", "--"]
    folder = Path(tempfile.mkdtemp(prefix="majlis-pg-"))
    data = folder / "data"
    if owner is not None:
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    init = subprocess.run(
        [*prefix, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
         "--locale=C", "--no-sync"], capture_output=True, text=True, check=False)
    if init.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        UNAVAILABLE.append(f"initdb failed: {(init.stderr or init.stdout).strip().splitlines()[-1:]}")
        return None
    port = free_port()
    with (folder / "server.log").open("wb") as log_file:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(
            [*prefix, str(bindir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(folder),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off",
             "-c", "max_connections=200", "-c", "shared_buffers=32MB"],
            stdout=subprocess.DEVNULL, stderr=log_file)
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            ready = subprocess.run([str(bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                                   capture_output=True, check=False)
            if ready.returncode == 0:
                return Server(url, process, folder)
        time.sleep(0.1)
    log = (folder / "server.log").read_text(errors="replace").strip().splitlines()[-3:]
    Server(url, process, folder).stop()
    UNAVAILABLE.append(f"PostgreSQL did not start: {log}")
    return None


_SERVER: list[Server | None] = []


def server() -> Server | None:
    """The one server of this test run (started on first use), or None if there is none."""
    if not _SERVER:
        url = os.environ.get(ENV, "").strip()
        _SERVER.append(Server(url) if url else start())
    return _SERVER[0]


def stop() -> None:
    """Stop the server this run started (at the end of the session)."""
    if _SERVER and _SERVER[0] is not None:
        _SERVER[0].stop()
    _SERVER.clear()


# --- pytest fixtures (imported by the conftests that need them) ------------------------------------


_SCHEMAS = itertools.count(1)

#: The ``postgres`` case of a fixture parametrized over databases: slow (it starts the server), so
#: ``pytest -m "not slow"`` runs the memory and SQLite cases and needs no PostgreSQL.
POSTGRES = pytest.param("postgres", marks=pytest.mark.slow)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server | None]:
    yield server()
    stop()


@pytest.fixture
async def pg_url(pg_server: Server | None) -> AsyncIterator[str]:
    """A PostgreSQL URL whose ``search_path`` is a fresh, empty schema (dropped afterwards)."""
    import asyncpg

    if pg_server is None:
        pytest.skip(f"no PostgreSQL: {'; '.join(UNAVAILABLE)}")
    schema = f"t{os.getpid()}_{next(_SCHEMAS)}"
    conn = await asyncpg.connect(pg_server.url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    sep = "&" if "?" in pg_server.url else "?"
    yield f"{pg_server.url}{sep}search_path={schema}"
    conn = await asyncpg.connect(pg_server.url)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


def report_unavailable(terminalreporter: pytest.TerminalReporter) -> None:
    """The one visible line when the PostgreSQL tests were skipped (call from pytest_terminal_summary)."""
    if UNAVAILABLE:
        terminalreporter.write_line(f"PostgreSQL tests skipped: {'; '.join(UNAVAILABLE)}", yellow=True)
