"""``majlis play`` end to end: a real subprocess, scripted input, a real SQLite file."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import pytest

from bot.present.i18n import translator
from bot.present.render.cards import game_name

pytestmark = pytest.mark.slow

MAJLIS = [sys.executable, "-m", "bot"]
ROOT = Path(__file__).resolve().parents[3]


def env_for(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env.update(HOME=str(tmp), XDG_DATA_HOME=str(tmp / "data"), LANG="C.UTF-8", PYTHONIOENCODING="utf-8",
               PYTHONPATH=str(ROOT))
    return env


def play(tmp: Path, *args: str, stdin: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MAJLIS, "play", "--db", str(tmp / "m.sqlite3"), "--ai", "easy", *args],
        input=stdin, capture_output=True, text=True, timeout=timeout, env=env_for(tmp), cwd=tmp, check=False,
    )


def plain(text: str) -> str:
    """Text as the terminal gets it: no isolate marks."""
    return text.translate(dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069")))


def table_row(db: Path, table_id: int = 1) -> tuple[str, int]:
    with sqlite3.connect(db) as conn:
        status, version = conn.execute(
            "SELECT status, version FROM tables WHERE table_id = ?", (table_id,)).fetchone()
    return str(status), int(version)


#: Answers that move every prompt on: a bid of 7 (legal in both Tarneeb games whenever a bid is asked
#: for... or refused, then "p" passes), "a" the first card / contract / trump / double, "p" a pass,
#: "d" done doubling.
ANSWERS = "7\na\np\nd\n" * 1500

MATCHES = [
    ("tarneeb41", ["--target", "21"]),
    ("tarneeb", ["--target", "31"]),
    ("trix", []),
]


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize(("game", "extra"), MATCHES, ids=[m[0] for m in MATCHES])
def test_a_full_match_finishes_and_prints_the_result(tmp_path: Path, game: str, extra: list[str],
                                                     lang: str) -> None:
    proc = play(tmp_path, "--game", game, "--lang", lang, "--seed", "11", *extra, stdin=ANSWERS)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr  # the answers left over stay unread (issue 34)
    t = translator(lang)
    over = plain(t.gettext("Match over · {game} · table {table}", game=game_name(game, t), table=1))
    assert over in proc.stdout
    assert proc.stdout.count(plain(t.gettext("Final scores:"))) >= 1
    assert table_row(tmp_path / "m.sqlite3")[0] == "finished"
    if lang == "ar":
        assert "Your choice" not in proc.stdout and "wins the match" not in proc.stdout
        assert "Your card" not in proc.stdout and "Press Enter" not in proc.stdout
        assert not set(proc.stdout) & set("\u2066\u2067\u2068\u2069")  # never an isolate mark on a terminal
        assert plain(t.gettext("Your hand")) in proc.stdout


def test_a_wrong_entry_is_refused_and_the_match_goes_on(tmp_path: Path) -> None:
    proc = play(tmp_path, "--game", "tarneeb", "--lang", "en", "--seed", "4", "--target", "31",
                stdin="x\n99\n\nplay ZZ\n²\n①\n" + ANSWERS)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "“x” is not a bid" in out
    assert "A bid is from 7 to 13." in out  # 99 is a bid, refused by the rule
    assert "“play ZZ” is not a bid" in out
    assert "“²” is not a bid" in out and "“①” is not a bid" in out
    assert "Traceback" not in proc.stderr
    assert "Match over" in out


def test_a_clean_exit_with_piped_input_left_over_never_prints_a_traceback(tmp_path: Path) -> None:
    """20 runs in a row: the player quits at the first prompt while answers keep coming down the pipe
    (more than any match needs); stdin's reader thread must not touch the closed event loop (issue 34)."""

    def feed(pipe: IO[bytes]) -> None:  # "q", then answers until the process is gone
        try:
            pipe.write(b"q\n")
            while True:
                pipe.write(b"7\na\np\nd\n" * 4096)
                pipe.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    for run in range(20):
        out, err = tmp_path / f"out{run}", tmp_path / f"err{run}"
        with out.open("wb") as stdout, err.open("wb") as stderr:
            proc = subprocess.Popen(
                [*MAJLIS, "play", "--db", str(tmp_path / f"m{run}.sqlite3"), "--lang", "en", "--seed", str(run)],
                stdin=subprocess.PIPE, stdout=stdout, stderr=stderr, env=env_for(tmp_path), cwd=tmp_path)
            assert proc.stdin is not None
            feeder = threading.Thread(target=feed, args=(proc.stdin,), daemon=True)
            feeder.start()
            code = proc.wait(timeout=120)
            feeder.join(timeout=30)
            proc.stdin.close()
        assert code == 0, err.read_text()[-3000:]
        assert "The match is saved: continue it with majlis play --resume." in out.read_text()
        assert err.read_text() == "", f"run {run}: {err.read_text()[-3000:]}"


def test_input_ending_at_the_resume_question_saves_the_match_instead_of_waiting(tmp_path: Path) -> None:
    assert play(tmp_path, "--lang", "en", "--seed", "3", stdin="").returncode == 3  # an unfinished match
    again = play(tmp_path, "--lang", "en", "--seed", "3", stdin="", timeout=60)  # asked "Resume it?": no answer
    assert again.returncode == 3, again.stderr[-3000:]  # it used to wait for a line that could never come
    assert again.stdout.rstrip().endswith("Input ended. The match is saved: continue it with majlis play --resume.")


@pytest.mark.parametrize(("lang", "machine"), [("en", "ar"), ("ar", "en")])
def test_a_match_keeps_its_language_on_resume_and_replay(tmp_path: Path, lang: str, machine: str) -> None:
    """Issue 29: a match started with --lang comes back in its language, whatever the machine speaks;
    an explicit --lang on resume wins (for that session), and the replay still tells the match's own."""
    env = {**env_for(tmp_path), "LANG": "en_US.UTF-8" if machine == "en" else "ar_SY.UTF-8",
           "MAJLIS_LANG": machine}
    db = str(tmp_path / "m.sqlite3")

    def majlis(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*MAJLIS, *args, "--db", db], input="q\n", capture_output=True, text=True,
                              timeout=120, env=env, cwd=tmp_path, check=False)

    t, other = translator(lang), translator(machine)
    saved = plain(t.gettext("The match is saved: continue it with {command}.", command="majlis play --resume"))
    first = majlis("play", "--ai", "easy", "--seed", "5", "--lang", lang)
    assert first.returncode == 0 and plain(first.stdout).rstrip().endswith(saved), first.stderr[-2000:]

    resumed = majlis("play", "--ai", "easy", "--resume")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    out = plain(resumed.stdout)
    assert out.startswith(plain(t.gettext("Resuming table {table}.", table=1))), out[:300]
    assert out.rstrip().endswith(saved)
    assert plain(t.gettext("Your hand")) in out and plain(other.gettext("Your hand")) not in out

    told = majlis("replay", "1")
    assert told.returncode == 0, told.stderr
    title = plain(t.gettext("{game} · table {table} · {status}", game=game_name("tarneeb41", t), table=1,
                            status=t.pgettext("table status", "being played")))
    assert plain(told.stdout).startswith(title), told.stdout[:300]

    asked = majlis("play", "--ai", "easy", "--resume", "--lang", machine)  # the explicit flag wins
    assert plain(asked.stdout).startswith(plain(other.gettext("Resuming table {table}.", table=1)))
    assert plain(majlis("replay", "1").stdout).startswith(title)  # and the match keeps its own language


def test_auto_plays_with_the_ai_without_any_input(tmp_path: Path) -> None:
    proc = play(tmp_path, "--game", "trix", "--lang", "en", "--seed", "4", "--auto", stdin="")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Match over" in proc.stdout and "> " in proc.stdout


def test_input_ending_early_saves_the_match_and_exits_nonzero(tmp_path: Path) -> None:
    proc = play(tmp_path, "--game", "trix", "--lang", "en", "--seed", "2", stdin="a\n" * 5)
    assert proc.returncode == 3
    assert "majlis play --resume" in proc.stdout
    status, version = table_row(tmp_path / "m.sqlite3")
    assert status == "playing" and version >= 5
    story = subprocess.run([*MAJLIS, "replay", "1", "--db", str(tmp_path / "m.sqlite3"), "--lang", "en"],
                           capture_output=True, text=True, timeout=60, env=env_for(tmp_path), cwd=tmp_path,
                           check=False)
    assert story.returncode == 0
    assert story.stdout.startswith("Trix · table 1 · being played")
    assert "holds" not in story.stdout  # the players still hold their cards: no hands in the story
    assert story.stdout.rstrip().endswith("The match goes on.")


def test_a_killed_match_resumes_and_finishes(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    args = [*MAJLIS, "play", "--db", str(db), "--ai", "easy", "--game", "tarneeb41", "--lang", "en",
            "--seed", "9", "--target", "21"]
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, env=env_for(tmp_path), cwd=tmp_path) as child:
        assert child.stdin is not None and child.stdout is not None
        prompts = 0
        buf = ""
        # Answer 12 prompts; at the 13th the 12th answer is committed: kill without warning.
        while prompts < 13:
            ch = child.stdout.read(1)
            assert ch, "the match ended before it could be killed"
            buf += ch
            if buf.endswith("): "):  # "Your bid (2–13, h for help): ", "Your card (a–d, h for help): "
                prompts += 1
                last = buf[buf.rfind("\n") + 1:]
                buf = ""
                if prompts < 13:
                    child.stdin.write("7\n" if last.startswith("Your bid") else "a\n")
                    child.stdin.flush()
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    status, version = table_row(db)
    assert status == "playing" and version >= 12

    proc = subprocess.run([*MAJLIS, "play", "--db", str(db), "--ai", "easy", "--resume", "--lang", "en"],
                          input=ANSWERS, capture_output=True, text=True, timeout=240, check=False,
                          env=env_for(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Resuming table 1." in proc.stdout
    assert "Match over · Syrian Tarneeb 41 · table 1" in proc.stdout
    status, final_version = table_row(db)
    assert status == "finished" and final_version > version


def test_with_a_timer_an_absent_player_is_played_for_and_the_match_ends(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()  # input stays open and silent: nobody at the keyboard
    try:
        proc = subprocess.run(
            [*MAJLIS, "play", "--db", str(tmp_path / "m.sqlite3"), "--ai", "easy", "--game", "tarneeb",
             "--lang", "en", "--seed", "6", "--timer", "1"],
            stdin=read_end, capture_output=True, text=True, timeout=240, env=env_for(tmp_path), cwd=tmp_path,
            check=False,
        )
    finally:
        os.close(read_end)
        os.close(write_end)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "an AI player plays your seat until you return" in proc.stdout
    assert "Match over · Tarneeb · table 1" in proc.stdout
    assert table_row(tmp_path / "m.sqlite3")[0] == "finished"
