"""Plain Arabic lines of real ``majlis`` processes on an 80×24 tmux screen (issue 29): ``majlis rules``, the
first line of ``majlis play``, the Ctrl-C line and an error line on standard error read from their first
row down, no word is cut across rows, and no isolate or direction mark is in the bytes the terminal got
(recorded with ``pipe-pane``). tmux draws cells as they come, so ``majlis`` prints visual order there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.present.i18n import translator
from bot.present.render.rules_text import render_rules
from tests.adapters.terminal.reading import MARK_CHARS, arabic_words, read_visual

pytestmark = [pytest.mark.slow,  # tmux and majlis as real processes
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")]

ROOT = Path(__file__).resolve().parents[3]


class Screen:
    """A tmux server of our own running one ``majlis`` command in an 80×24 window; every byte the command
    writes to the terminal is also kept in :attr:`raw`."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.sock = str(tmp / "tmux")
        self.raw = tmp / "raw"

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, text=True, check=False,
                              timeout=30).stdout

    def run(self, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MAJLIS_", "TMUX"))}
        env.update(HOME=str(self.tmp), XDG_DATA_HOME=str(self.tmp / "data"), LANG="C.UTF-8", LC_ALL="C.UTF-8",
                   PYTHONPATH=str(ROOT), TERM="xterm-256color", MAJLIS_AI_DELAY="0")
        ready = self.tmp / "ready"
        cmd = " ".join([sys.executable, "-m", "bot", *args])
        # the command waits until pipe-pane records, so that its first bytes are kept too
        script = f"while [ ! -e {ready} ]; do sleep 0.05; done; {cmd}; echo; echo '<<done>>'; sleep 60"
        subprocess.run(["tmux", "-S", self.sock, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24",
                        "-s", "m", "-c", str(ROOT), script], env=env, check=True, timeout=30)
        self.tmux("pipe-pane", "-t", "m", f"cat > {self.raw}")
        ready.touch()

    def rows(self) -> list[str]:
        """Every row, the scrolled-away ones included, without the blank rows."""
        return [r for r in self.tmux("capture-pane", "-p", "-t", "m", "-S", "-").split("\n") if r.strip()]

    def wait_for(self, text: str, timeout: float = 60) -> list[str]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            rows = self.rows()
            if any(text in r for r in rows):
                return rows
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n" + "\n".join(self.rows()))

    def bytes_seen(self) -> str:
        return self.raw.read_bytes().decode("utf-8", errors="replace")

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[Screen]:
    s = Screen(tmp_path)
    yield s
    s.close()


def read_rows(rows: list[str]) -> list[str]:
    return [w for r in rows for w in read_visual(r)]


def test_majlis_rules_in_arabic_reads_from_the_first_row_down_no_word_cut(screen: Screen) -> None:
    screen.run("rules", "tarneeb41", "--lang", "ar")
    rows = screen.wait_for("<<done>>")
    text = render_rules("tarneeb41", translator("ar"))
    assert read_rows(rows[:-1]) == arabic_words(text)  # every word whole, in the order of the text
    assert max(len(r.rstrip()) for r in rows) <= 80
    assert len(rows) > len(text.split("\n")) + 5  # long paragraphs took several rows each
    assert not set(screen.bytes_seen()) & MARK_CHARS


def logical_first_line(tmp: Path) -> str:
    """The first line ``majlis play`` prints (the same match) into a pipe, where lines stay logical."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env.update(HOME=str(tmp), XDG_DATA_HOME=str(tmp / "data"), PYTHONPATH=str(ROOT), MAJLIS_AI_DELAY="0")
    out = subprocess.run([sys.executable, "-m", "bot", "play", "--lang", "ar", "--db", str(tmp / "pipe.sqlite3"),
                          "--ai", "easy", "--seed", "3"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=60, cwd=ROOT, check=False)  # exit 3: input ended
    return out.stdout.split("\n")[0]


def test_the_first_line_of_majlis_play_and_the_ctrl_c_line_read_in_order(screen: Screen) -> None:
    first = logical_first_line(screen.tmp)
    assert len(arabic_words(first)) >= 8, first
    screen.run("play", "--lang", "ar", "--db", str(screen.tmp / "m.sqlite3"), "--ai", "easy", "--seed", "3")
    rows = screen.wait_for("╯")
    start = [w for r in rows[:3] for w in read_visual(r)]
    assert start[:len(arabic_words(first))] == arabic_words(first), (rows[:3], first)
    screen.tmux("send-keys", "-t", "m", "C-c")
    rows = screen.wait_for("<<done>>")
    stopped = translator("ar").gettext("Stopped. Your match is saved: continue it with {command}.",
                                       command="majlis play --resume")
    at = next(i for i, r in enumerate(rows) if "--resume" in r)
    assert read_rows(rows[at - 1:at + 1])[-len(arabic_words(stopped)):] == arabic_words(stopped)
    assert "majlis play --resume" in rows[at]
    assert not set(screen.bytes_seen()) & MARK_CHARS


def test_an_arabic_error_line_on_standard_error_reads_in_order_without_marks(screen: Screen) -> None:
    screen.run("play", "--db", "/nonexistent/x.db", "--lang", "ar")
    rows = screen.wait_for("<<done>>")
    text_rows = [r for r in rows if "<<done>>" not in r]
    t = translator("ar")
    from bot.app.cli.failures import missing_folder

    message = missing_folder("/nonexistent/x.db", screen.tmp / "data", t)
    assert message is not None
    assert len(text_rows) >= 2  # longer than a row: cut at spaces
    assert read_rows(text_rows) == arabic_words(message)
    assert "/nonexistent/x.db" in " ".join(text_rows)
    assert not set(screen.bytes_seen()) & MARK_CHARS
