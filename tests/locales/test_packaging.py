"""A fresh clone, built the way pip builds it, carries the compiled catalogs and speaks Arabic."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # git clone and a build as real processes
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_a_build_from_a_fresh_clone_ships_the_mo_files(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    build = tmp_path / "build"
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "build_py", "-d", str(build)],
                   cwd=clone, check=True, capture_output=True)
    for lang in ("ar", "en"):
        assert (build / "locales" / lang / "LC_MESSAGES" / "messages.mo").is_file()
    env = {**os.environ, "PYTHONPATH": str(build)}
    out = subprocess.run(
        [sys.executable, "-c", "from bot.present.i18n import translator; import locales; "
         "print(locales.__file__); print(translator('ar').pgettext('suit', 'Hearts'))"],
        cwd=tmp_path, env=env, check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(build))
    assert out[1] == "كبة"
