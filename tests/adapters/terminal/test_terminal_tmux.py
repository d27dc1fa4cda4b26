"""``majlis play`` on a real (pseudo-)terminal, 80×24, driven through tmux as a person would: what is on
the screen is what counts (issue 15). Skipped, with the reason shown, where tmux is not installed
(CI installs it: ``apt-get install tmux``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow,  # tmux and majlis play as real processes
              pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")]

ROOT = Path(__file__).resolve().parents[3]
ISOLATES = set("\u2066\u2067\u2068\u2069")


class Tmux:
    """One detached tmux server of our own (its own socket), one 80×24 window."""

    def __init__(self, tmp: Path, name: str) -> None:
        self.sock = str(tmp / f"tmux-{name}")
        self.name = name
        self.tmp = tmp

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, text=True, check=False,
                              timeout=30).stdout

    def start(self, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MAJLIS_", "TMUX"))}
        env.update(HOME=str(self.tmp), XDG_DATA_HOME=str(self.tmp / "data"), LANG="C.UTF-8", LC_ALL="C.UTF-8",
                   PYTHONPATH=str(ROOT), TERM="xterm-256color")
        cmd = " ".join([sys.executable, "-m", "bot", "play", "--db", str(self.tmp / "m.sqlite3"), "--ai",
                        "easy", *args])
        subprocess.run(["tmux", "-S", self.sock, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24",
                        "-s", self.name, f"MAJLIS_AI_DELAY=0 {cmd}; sleep 30"], env=env, check=True, timeout=30)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def wait_for(self, text: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", line)
        self.tmux("send-keys", "-t", self.name, "Enter")

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path, "majlis")
    yield t
    t.close()


def cell_width(line: str) -> int:
    return sum(0 if unicodedata.category(ch) in ("Mn", "Cf") else 1 for ch in line.rstrip())


def frame_rows(screen: str) -> list[str]:
    return [r for r in screen.split("\n") if r.startswith(("╭", "│", "╰"))]


def last_frame(screen: str) -> list[str]:
    """The rows of the newest drawing of the boxes (older ones may still be on the screen above)."""
    lines = screen.split("\n")
    top = max(i for i, r in enumerate(lines) if r.startswith("╭"))
    bottom = next(i for i in range(top, len(lines)) if lines[i].startswith("╰"))
    return lines[top:bottom + 1]


def edge_columns(rows: list[str]) -> set[int]:
    """The columns where the boxes' sides are drawn, over all rows (two aligned boxes: 4 columns)."""
    return {i for r in rows for i, ch in enumerate(r) if ch in "│╭╮╰╯"}


def test_english_table_fits_80x24_and_a_number_is_the_bid(term: Tmux) -> None:
    term.start("--game", "tarneeb", "--lang", "en", "--seed", "4")
    shown = term.wait_for("Your bid (8–13")
    rows = frame_rows(shown)
    assert rows and edge_columns(rows) == {0, 49, 51, 78}, shown  # both boxes, side by side, aligned, 79 wide
    assert "♦  9  6  3" in shown and "Us (You & AI 2): 0" in shown
    term.type("13")
    term.wait_for("Are you sure? [y/N]")
    term.type("n")
    term.wait_for("Not bid. Choose again.")
    term.type("?")
    term.wait_for("At every prompt")
    term.type("8")
    shown = term.wait_for("You bid 8")
    assert "bids 13" not in shown and "You bid 13" not in shown


def test_arabic_in_visual_order_no_isolates_aligned_frames(term: Tmux) -> None:
    term.start("--game", "tarneeb41", "--lang", "ar", "--seed", "3", "--bidi", "none")
    shown = term.wait_for("╯")
    time.sleep(0.5)
    shown = term.screen()
    assert not set(shown) & ISOLATES
    assert any(0xFE70 <= ord(ch) <= 0xFEFF for ch in shown), shown  # Arabic joined, ready for a dumb terminal
    rows = frame_rows(shown)
    assert rows and edge_columns(rows) == {0, 27, 29, 78}, shown  # the hand on the left, the table on the right
    term.type("q")
    term.wait_for("majlis play --resume")


def card_prompt(term: Tmux, must: str, timeout: float = 60) -> str:
    """The screen once it waits for a card (its last line the empty prompt) and shows ``must``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        shown = term.screen()
        last = [r for r in shown.split("\n") if r.strip()][-1:] or [""]
        if must in shown and last[0].startswith("Your card (") and last[0].rstrip().endswith(":"):
            return shown
        time.sleep(0.2)
    raise AssertionError(f"no card prompt with {must!r}; the screen:\n{term.screen()}")


def test_after_resume_the_panel_shows_the_table_not_a_play_by_play_line(term: Tmux) -> None:
    """Issue 13: after ``majlis play --resume`` the table's box holds the table (seats, trump, the
    trick, scores) exactly as it was when the match was saved, twice in a row (each process numbers
    its messages anew), and the story lines stay outside the boxes."""
    term.start("--game", "tarneeb41", "--lang", "en", "--seed", "3")
    term.wait_for("Your bid (2")
    term.type("3")
    now = term
    try:
        for n, (must, step) in enumerate((("On the table:", "a"), ("Last trick:", None))):
            saved = last_frame(card_prompt(now, must))  # save, resume, play a card, save, resume
            assert any("Target: 41" in r for r in saved), saved
            now.type("q")
            now.wait_for("majlis play --resume")
            now.close()
            now = Tmux(term.tmp, f"again{n}")  # a new terminal (and tmux server) for the new process
            now.start("--game", "tarneeb41", "--lang", "en", "--resume")
            shown = card_prompt(now, "Resuming table 1.")
            rows = last_frame(shown)
            assert rows == saved, shown  # the same table, the same hand
            assert not any(" plays " in r or " bids " in r for r in rows), shown  # no play-by-play in the boxes
            if step is not None:
                now.type(step)
                now.wait_for("You play")
    finally:
        now.close()


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), LANG="C.UTF-8", PYTHONPATH=str(ROOT))
    proc = subprocess.run(f"{sys.executable} -m bot play --auto --ai easy --lang en --game trix --seed 2 "
                          f"--db {tmp_path / 'm.sqlite3'} </dev/null | head -3", shell=True, capture_output=True,
                          text=True, timeout=120, env=env, check=False)
    assert len(proc.stdout.splitlines()) == 3
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr


def in_history(term: Tmux, text: str, timeout: float = 120) -> str:
    """Every row so far (the scrolled-away ones too), once ``text`` is among them."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        rows = term.tmux("capture-pane", "-p", "-t", term.name, "-S", "-")
        if text in rows:
            return rows
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; the screen:\n{term.screen()}")


def test_a_finished_match_offers_play_again_and_yes_starts_the_next_that_plays(term: Tmux) -> None:
    term.start("--game", "tarneeb41", "--lang", "en", "--seed", "5", "--target", "1", "--auto")
    in_history(term, "Match over · Syrian Tarneeb 41 · table 1")
    term.wait_for("Play again? [Y/n]")
    term.type("y")
    history = in_history(term, "Match over · Syrian Tarneeb 41 · table 2")  # the next match, played to its end
    assert "You play" in history[history.index("starts at table 2"):]
    time.sleep(0.5)
    shown = term.screen()
    assert shown.rstrip().endswith("Play again? [Y/n]"), shown  # offered again
    term.type("n")
    time.sleep(1.0)
    assert "table 3" not in term.tmux("capture-pane", "-p", "-t", term.name, "-S", "-")
