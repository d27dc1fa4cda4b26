"""``majlis web`` as a real process: it prints an address whose page plays your seat."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.terminal.bidi import MARKS

NO_MARKS = str.maketrans("", "", MARKS)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(60)]  # majlis web as a real process


async def test_majlis_web_prints_a_working_address_and_resumes(tmp_path: Path) -> None:
    env = {**os.environ, "MAJLIS_DATA_DIR": str(tmp_path), "MAJLIS_AI_DELAY": "0", "MAJLIS_AI_LEVEL": "easy",
           "MAJLIS_NO_BROWSER": "1"}
    env.pop("MAJLIS_DB", None)
    cmd = [sys.executable, "-m", "bot", "web", "--lang", "en", "--port", "0", "--seed", "9", "--no-open"]
    for resume in (False, True):
        proc = subprocess.Popen([*cmd, *(["--resume"] if resume else [])], stdout=subprocess.PIPE, text=True,
                                env=env)
        try:
            assert proc.stdout is not None
            lines = [proc.stdout.readline() for _ in range(2 if not resume else 3)]
            url = next(m.group(0) for line in lines if (m := re.match(r"http://127\.0\.0\.1:\d+/#k=\S+", line)))
            if resume:
                assert lines[0].startswith("Resuming table 1.")
            base, token = url.split("/#k=")
            async with aiohttp.ClientSession() as s, s.ws_connect(base.replace("http", "ws") + "/ws?k=" + token) as ws:
                hello = json.loads((await ws.receive(timeout=10)).data)
                assert hello["type"] == "hello" and hello["lang"] == "en"
                state = json.loads((await ws.receive(timeout=10)).data)["state"]
                assert state["me"] == 0 and state["table"] == 1 and len(state["hand"]) == 13
        finally:
            proc.send_signal(signal.SIGINT)
            code = proc.wait(timeout=15)
            if proc.stdout is not None:
                proc.stdout.close()
        assert code in (0, 130)


#: Runs the rest of its arguments with SIGINT ignored, as a shell starts a job with `&`.
IGNORING_SIGINT = [sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN);"
                   " os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"]


def test_majlis_web_started_in_the_background_stops_on_sigint_and_sigterm_and_saves(tmp_path: Path) -> None:
    """A process that inherited SIGINT ignored gets no KeyboardInterrupt: its own handlers stop it."""
    env = {**os.environ, "MAJLIS_DATA_DIR": str(tmp_path), "MAJLIS_AI_DELAY": "0", "MAJLIS_AI_LEVEL": "easy",
           "MAJLIS_NO_BROWSER": "1"}
    env.pop("MAJLIS_DB", None)
    cmd = [sys.executable, "-m", "bot", "web", "--lang", "en", "--port", "0", "--seed", "9", "--no-open"]
    for resume, sig in ((False, signal.SIGINT), (True, signal.SIGTERM)):
        proc = subprocess.Popen([*IGNORING_SIGINT, *cmd[1:], *(["--resume"] if resume else [])],
                                stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert proc.stdout is not None
            lines = [proc.stdout.readline() for _ in range(3 if not resume else 4)]
            assert lines[-1].startswith("Press Ctrl-C to stop"), lines
            if resume:
                assert lines[0].startswith("Resuming table 1.")  # the first run saved its match
            proc.send_signal(sig)
            code = proc.wait(timeout=30)
            rest = proc.stdout.read()
        finally:
            if proc.poll() is None:
                proc.kill()
            if proc.stdout is not None:
                proc.stdout.close()
        assert code == 130
        assert "Stopped. Your match is saved: continue it with majlis web --resume." in rest


async def test_majlis_web_resumes_a_match_in_its_own_language(tmp_path: Path) -> None:
    """Issue 29: an Arabic match resumed on an English machine (no --lang) goes on in Arabic."""
    from bot.present.i18n import translator

    env = {**os.environ, "MAJLIS_DATA_DIR": str(tmp_path), "MAJLIS_AI_DELAY": "0", "MAJLIS_AI_LEVEL": "easy",
           "MAJLIS_NO_BROWSER": "1", "MAJLIS_LANG": "en", "LANG": "en_US.UTF-8"}
    env.pop("MAJLIS_DB", None)
    ar = translator("ar")
    cmd = [sys.executable, "-m", "bot", "web", "--port", "0", "--seed", "9", "--no-open"]
    for args in (["--lang", "ar"], ["--resume"]):
        proc = subprocess.Popen([*cmd, *args], stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert proc.stdout is not None
            lines = [proc.stdout.readline() for _ in range(3 if args == ["--resume"] else 2)]
            url = next(m.group(0) for line in lines if (m := re.match(r"http://127\.0\.0\.1:\d+/#k=\S+", line)))
            if args == ["--resume"]:
                resuming = ar.gettext("Resuming table {table}.", table=1).translate(NO_MARKS)
                assert lines[0].rstrip("\n") == resuming, lines
            base, token = url.split("/#k=")
            async with aiohttp.ClientSession() as s, s.ws_connect(base.replace("http", "ws") + "/ws?k=" + token) as ws:
                hello = json.loads((await ws.receive(timeout=10)).data)
                assert hello["type"] == "hello" and hello["lang"] == "ar"
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=15)
            rest = proc.stdout.read() if proc.stdout is not None else ""
            if proc.stdout is not None:
                proc.stdout.close()
        stopped = ar.gettext("Stopped. Your match is saved: continue it with {command}.", command="majlis web --resume")
        assert stopped.translate(NO_MARKS) in rest and not set(rest) & set(MARKS)  # a console line: no marks


def test_majlis_web_at_a_terminal_asks_before_it_abandons_and_ctrl_c_at_the_question_keeps_the_match(
        tmp_path: Path) -> None:
    """Issue 29: `majlis web` abandoned an unfinished match without a word. At a terminal (a pty here)
    it asks, as `majlis play` does; Ctrl-C while it waits stops at once and abandons nothing."""
    import pty

    env = {**os.environ, "MAJLIS_DATA_DIR": str(tmp_path), "MAJLIS_AI_DELAY": "0", "MAJLIS_AI_LEVEL": "easy",
           "MAJLIS_NO_BROWSER": "1"}
    env.pop("MAJLIS_DB", None)
    cmd = [sys.executable, "-m", "bot", "web", "--lang", "en", "--port", "0", "--seed", "9", "--no-open"]
    question = "An unfinished match of Syrian Tarneeb 41 is waiting at table 1. Resume it? [Y/n] "
    for answer in (None, "interrupt", "n"):  # a first match; Ctrl-C at the question; n abandons it
        master, slave = pty.openpty()
        proc = subprocess.Popen(cmd, stdin=slave, stdout=subprocess.PIPE, text=True, env=env)
        os.close(slave)
        try:
            assert proc.stdout is not None
            if answer is None:
                lines = [proc.stdout.readline() for _ in range(3)]
                assert lines[-1].startswith("Press Ctrl-C to stop"), lines
            else:
                assert proc.stdout.read(len(question)) == question
                if answer == "interrupt":
                    proc.send_signal(signal.SIGINT)
                    assert proc.wait(timeout=30) == 130
                    assert "Stopped. Your match is saved" in proc.stdout.read()
                    continue
                os.write(master, b"n\n")
                lines = [proc.stdout.readline() for _ in range(4)]
                assert lines[0].startswith("The unfinished match at table 1 was abandoned"), lines
                assert lines[-1].startswith("Press Ctrl-C to stop"), lines
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=30) == 130
        finally:
            if proc.poll() is None:
                proc.kill()
            if proc.stdout is not None:
                proc.stdout.close()
            os.close(master)
