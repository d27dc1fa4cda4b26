"""Plain lines for a terminal (:func:`say`), and writing to a pipe that may close: ``majlis play --auto |
head`` ends quietly, without a traceback."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO

from bot.adapters.terminal.bidi import configured, plain


@dataclass
class PipeState:
    """The exit code to use (0, or 141 = 128 + SIGPIPE when the reader went away)."""

    code: int = 0


@contextmanager
def closed_pipe_safe() -> Iterator[PipeState]:
    """Run a command's output; if the reader closes the pipe, stop quietly (exit code 141)."""
    state = PipeState()
    try:
        yield state
    except BrokenPipeError:
        state.code = 141
        _silence_stdout()
    except ExceptionGroup as group:  # raised inside a task group
        if group.subgroup(BrokenPipeError) is None:
            raise
        state.code = 141
        _silence_stdout()


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except OSError:
        pass


def columns(stream: TextIO) -> int | None:
    """How many cells wide the terminal ``stream`` writes to is (``COLUMNS`` wins); None for a pipe or a
    file, whose lines are not wrapped."""
    try:
        if not stream.isatty():
            return None
        fileno = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
    env = os.environ.get("COLUMNS", "")
    if env.isascii() and env.isdigit() and int(env) > 0:
        return int(env)
    try:
        n = os.get_terminal_size(fileno).columns
    except OSError:
        return None
    return n if n > 0 else None


def plain_lines(text: str, stream: TextIO, bidi: str | None = None,
                file: Mapping[str, object] | None = None) -> str:
    """``text`` as :func:`say` writes it to ``stream`` (without the final newline)."""
    try:
        mode = configured(bidi, file, tty=_isatty(stream))
    except ValueError:  # a wrong MAJLIS_BIDI: the command that reads it says so; this line still shows
        mode = configured("auto", tty=_isatty(stream))
    width = columns(stream)
    return plain(text, mode, width - 1 if width and width > 1 else None)


def say(text: str, stream: TextIO | None = None, *, bidi: str | None = None,
        file: Mapping[str, object] | None = None) -> None:
    """Print plain lines (outside the drawn panels: a notice, the Ctrl-C line, an error on standard error)
    to ``stream`` (standard output by default): on a terminal each line is cut at spaces to its width and
    only then put in visual order (:func:`bot.adapters.terminal.bidi.plain`), so an Arabic sentence reads
    from its first line down and no word is cut; no isolate or direction mark is printed. ``bidi``: the
    asked mode (``--bidi``; else ``MAJLIS_BIDI``, the config ``file``'s, or a guess for that stream)."""
    out = sys.stdout if stream is None else stream
    out.write(plain_lines(text, out, bidi, file) + "\n")
    out.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, OSError, ValueError):
        return False
