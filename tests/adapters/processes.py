"""``majlis run`` as a real process for the adapter tests: started with a clean environment."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listens(port: int) -> bool:
    with socket.socket() as s:  # closed whether or not it connects: nothing left to the collector
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


async def wait_listening(port: int, timeout: float = 60) -> None:
    """Wait until something accepts connections at 127.0.0.1:``port``.

    A plain socket probe: an HTTP client's connect to a port only starting to listen may leave its
    socket to the garbage collector, and the ResourceWarning fails a test (seen in CI).
    """
    deadline = asyncio.get_running_loop().time() + timeout
    while not await asyncio.to_thread(_listens, port):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"nothing listens at 127.0.0.1:{port}")
        await asyncio.sleep(0.1)


async def start_run(platform: str, tmp_path: Path, env: dict[str, str], args: Sequence[str] = ()
                    ) -> asyncio.subprocess.Process:
    """``python -m bot run --<platform> [args]`` from the checkout, with ``env`` and no other MAJLIS_ setting.

    The data directory is ``tmp_path`` and AI seats do not wait; ``env`` names the token, the
    fake's URLs and the database.
    """
    full = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    full.update(MAJLIS_DATA_DIR=str(tmp_path), MAJLIS_AI_DELAY="0", PYTHONPATH=str(ROOT), **env)
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", f"--{platform}", *args, cwd=str(ROOT), env=full,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def stop_run(proc: asyncio.subprocess.Process, sig: signal.Signals) -> tuple[int, bytes]:
    """Send ``sig`` and wait (30 s at most) for the exit; the exit code and standard error."""
    proc.send_signal(sig)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, err


async def stop_pair(survivor: asyncio.subprocess.Process, killed: asyncio.subprocess.Process) -> tuple[int, str]:
    """End a two-process test: reap ``killed`` (killed again if it still runs), stop ``survivor``
    with SIGTERM; the survivor's exit code and standard error."""
    if killed.returncode is None:
        killed.kill()
        await killed.wait()
    code, err = await stop_run(survivor, signal.SIGTERM)
    return code, err.decode()
