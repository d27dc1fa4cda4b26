"""Writing to a pipe that may close: ``majlis play --auto | head`` ends quietly, without a traceback."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


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
