"""Storage and configuration failures of ``majlis`` as real processes (bot/app/cli/failures.py, bot/app/config.py).

Each one is a single line on standard error (what, which file, what to do), a nonzero exit, no
traceback, and the file in question is left byte for byte as it was (no journal beside it either).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app.cli.failures import locked, not_a_database
from bot.present.i18n import translator
from storage.sqlite import SQLiteRepository

pytestmark = pytest.mark.slow  # majlis as a real process

ROOT = Path(__file__).resolve().parents[2]
#: Dropping every capability makes root obey file permissions like any user (the tests run as root
#: in CI containers); without setpriv, a non-root user needs nothing.
NO_CAPS = ["setpriv", "--inh-caps=-all", "--bounding-set=-all"] if os.geteuid() == 0 else []


def majlis(*args: str, env: dict[str, str], as_user: bool = False,
           timeout: float = 60) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    full.update(PYTHONPATH=str(ROOT), LANG="en_US.UTF-8", **env)
    prefix = NO_CAPS if as_user else []
    return subprocess.run([*prefix, sys.executable, "-m", "bot", *args], check=False, cwd=str(ROOT), env=full,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def run_env(tmp_path: Path, db: Path | str | None = None, **extra: str) -> dict[str, str]:
    """``majlis run --telegram`` settings that never reach a network (port 9 of 127.0.0.1)."""
    env = {"MAJLIS_DATA_DIR": str(tmp_path / "data"), "MAJLIS_TELEGRAM_TOKEN": "123:TEST",
           "MAJLIS_TELEGRAM_BASE_URL": "http://127.0.0.1:9/bot", **extra}
    if db is not None:
        env["MAJLIS_DB"] = str(db)
    return env


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single line of standard error (and no traceback anywhere)."""
    assert result.returncode != 0, result.stderr
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with the hash of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def make_db(path: Path) -> None:
    async def create() -> None:
        repo = SQLiteRepository(path)
        await repo.open()
        await repo.close()

    asyncio.run(create())


@pytest.mark.parametrize("command", ["run", "play", "replay"])
def test_a_file_that_is_not_a_database_is_named_and_left_alone(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    db = folder / "majlis.sqlite3"
    db.write_bytes(b"these are my notes, not a database\n" * 50)
    before = fingerprint(folder)
    args = {"run": ["run", "--telegram"], "play": ["play", "--auto", "--ai", "easy"], "replay": ["replay", "1"]}
    line = one_line(majlis(*args[command], env=run_env(tmp_path, db)))
    assert str(db) in line and "not a SQLite database" in line and "MAJLIS_DB" in line
    assert fingerprint(folder) == before


@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("setpriv") is None, reason="needs setpriv as root")
def test_a_read_only_database_is_named_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    db = folder / "majlis.sqlite3"
    make_db(db)
    db.chmod(0o444)
    before = fingerprint(folder)
    line = one_line(majlis("run", "--telegram", env=run_env(tmp_path, db), as_user=True))
    assert str(db) in line and "read-only" in line and "write access" in line
    assert fingerprint(folder) == before


def test_a_file_where_the_data_folder_should_be_is_named_and_left_alone(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("I am a file\n")
    before = fingerprint(tmp_path)
    for args in (["run", "--telegram"], ["play", "--auto"]):
        line = one_line(majlis(*args, env=run_env(tmp_path)))
        assert str(blocker) in line and "is a file" in line and "MAJLIS_DATA_DIR" in line
    assert fingerprint(tmp_path) == before


def test_a_database_locked_by_another_process_is_one_line_after_the_busy_timeout(tmp_path: Path) -> None:
    db = tmp_path / "majlis.sqlite3"
    make_db(db)
    holder = subprocess.Popen(  # another process takes the write lock and keeps it (until killed)
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        before = fingerprint(tmp_path)
        line = one_line(majlis("run", "--telegram", env=run_env(tmp_path, db)))
        assert str(db) in line and "locked by another process" in line
        assert fingerprint(tmp_path) == before
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
    with sqlite3.connect(db) as conn:  # still a sound database
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def bare(line: str) -> str:
    """A line as ``majlis`` prints it: no isolate marks (U+2066–U+2069)."""
    return line.translate(dict.fromkeys(range(0x2066, 0x206A)))


@pytest.mark.parametrize(("lang", "other"), [("en", "ar"), ("ar", "en")])
def test_lang_decides_the_language_of_the_storage_errors_too(tmp_path: Path, lang: str, other: str) -> None:
    t = translator(lang)
    notes = tmp_path / "notes.sqlite3"
    notes.write_bytes(b"these are my notes, not a database\n" * 50)
    db = tmp_path / "majlis.sqlite3"
    make_db(db)
    env = {"MAJLIS_DATA_DIR": str(tmp_path / "data"), "MAJLIS_LANG": other}  # --lang wins over both
    for command in (["play", "--auto", "--ai", "easy"], ["replay", "1"]):
        line = one_line(majlis(*command, "--lang", lang, "--db", str(notes), env=env))
        assert line == f"majlis: {bare(not_a_database(notes, t))}", command
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, time\n"
         f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        line = one_line(majlis("play", "--auto", "--ai", "easy", "--lang", lang, "--db", str(db), env=env))
        assert line == f"majlis: {bare(locked(db, t))}"
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()


@pytest.mark.parametrize(("content", "expected"), [
    (b"lang = \"ar\"\nturn_seconds = 30 # \xff\xfe\n", ["line 2 is not UTF-8", "save"]),
    (b"lang = \"ar\nturn_seconds = 30\n", ["not valid TOML", "line 1"]),
    (b"turn_seconds = \"soon\"\n", ["turn_seconds", "expected a number", "correct turn_seconds in"]),
    (b"log_level = \"loud\"\n", ["log_level", "DEBUG, INFO", "correct log_level in"]),
    (b"[telegram]\nconcurrent_updates = 0\n", ["[telegram] concurrent_updates", "a positive number"]),
    (b"shutdown_grace = -1\n", ["shutdown_grace", "a non-negative number"]),
])
def test_a_bad_config_file_is_one_line_naming_the_file_and_is_left_alone(
        tmp_path: Path, content: bytes, expected: list[str]) -> None:
    config = tmp_path / "majlis.toml"
    config.write_bytes(content)
    result = majlis("run", "--telegram", env=run_env(tmp_path, MAJLIS_CONFIG=str(config)))
    line = one_line(result)
    assert result.returncode == 2
    assert str(config) in line
    for part in expected:
        assert part in line
    assert config.read_bytes() == content
    assert not (tmp_path / "data").exists()  # nothing was created either


def test_a_bad_environment_value_names_the_variable(tmp_path: Path) -> None:
    line = one_line(majlis("run", "--telegram", env=run_env(tmp_path, MAJLIS_SHUTDOWN_GRACE="soon")))
    assert "MAJLIS_SHUTDOWN_GRACE" in line and "unset it" in line


def _played_db(tmp_path: Path) -> Path:
    """A database with table 1, a match stopped at the player's first turn (the input ended)."""
    db = tmp_path / "db" / "majlis.sqlite3"
    db.parent.mkdir()  # a folder named by --db is never made for it (issue 29)
    result = majlis("play", "--ai", "easy", "--seed", "5", "--lang", "en", "--db", str(db),
                    env={"MAJLIS_DATA_DIR": str(tmp_path / "data")})
    assert result.returncode == 3, result.stderr
    (db.parent / "majlis-play.log").unlink(missing_ok=True)
    return db


@pytest.mark.skipif(os.geteuid() == 0 and shutil.which("setpriv") is None, reason="needs setpriv as root")
def test_replay_reads_a_read_only_database_and_a_locked_one_without_changing_anything(tmp_path: Path) -> None:
    db = _played_db(tmp_path)
    folder = db.parent
    db.chmod(0o444)
    folder.chmod(0o555)  # not even a journal could be created beside it
    try:
        before = fingerprint(folder)
        story = majlis("replay", "1", "--lang", "en", "--db", str(db), env={}, as_user=True)
        assert story.returncode == 0, story.stderr
        assert "table 1" in story.stdout.lower()
        assert fingerprint(folder) == before
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, time\n"
         f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        story = majlis("replay", "1", "--lang", "en", "--db", str(db), env={})
        assert story.returncode == 0, story.stderr  # a reader does not wait for the writer's lock
        assert "table 1" in story.stdout.lower()
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
