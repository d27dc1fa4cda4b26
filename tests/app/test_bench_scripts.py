"""Every benchmark script under bench/ starts: its imports resolve and ``--help`` answers (the layout
step once left ``from bot import codec`` in bench/tables.py, which only a real run found)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(p for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_"))

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_every_benchmark_script_imports_and_answers_help(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=str(ROOT), capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout
