"""The double-dummy solver ships with the README's ``pip install .`` (endplay is a core dependency),
and where it cannot load the commands say so loudly (bot/app/startup.py)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import engine
from ai.strong import StrongPlayer
from ai.think import deadline_in
from bot.app.startup import ai_problem, missing_ai_warning

ROOT = Path(__file__).resolve().parents[2]


def test_endplay_is_a_core_dependency_not_an_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(d.replace(" ", "").startswith("endplay>=") for d in project["dependencies"])
    assert ai_problem() is None  # and it loads here


@pytest.mark.slow  # a real process
def test_the_solver_check_loads_dds_alone_not_endplays_package() -> None:
    """ai_problem() loads the DDS bindings the way the pool's workers do, without running
    ``endplay/__init__`` (which imports matplotlib and takes seconds)."""
    code = ("import sys; from bot.app.startup import ai_problem; assert ai_problem() is None; "
            "print(sorted(m for m in ('endplay', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_tarneeb_strong_searches_with_the_solver_instead_of_falling_back_to_the_rules() -> None:
    game = engine.new_game("tarneeb41", seed=7)
    while game.view(None)["phase"] != "play":  # everyone bids 5: enough for the deal to be played
        seat = game.to_act
        assert seat is not None
        game.act(seat, "bid 5")
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    decided = StrongPlayer("strong")._decide(view, "tarneeb41", random.Random(1), deadline_in())
    assert decided is not None and decided in view["legal"]  # None would mean "play like easy"


def test_a_solver_that_cannot_load_gives_the_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    from ai.strong import dds

    monkeypatch.setitem(sys.modules, "endplay._dds", None)  # loading it now raises ImportError
    monkeypatch.setattr(dds, "_dds", None)  # not loaded yet in this process
    problem = ai_problem()
    assert problem is not None and "endplay._dds" in problem
    text = missing_ai_warning()
    assert text is not None and "normal and strong play like easy" in text and "pip install endplay" in text


@pytest.mark.slow  # a real process
def test_majlis_play_warns_on_standard_error_when_the_solver_cannot_load(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow" / "endplay"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('simulated: no wheel for this platform')\n")
    (shadow / "_dds").mkdir()
    (shadow / "_dds" / "__init__.py").write_text("raise ImportError('simulated: no wheel for this platform')\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env.update(PYTHONPATH=f"{tmp_path / 'shadow'}{os.pathsep}{ROOT}", LANG="en_US.UTF-8",
               MAJLIS_DATA_DIR=str(tmp_path / "data"))
    result = subprocess.run([sys.executable, "-m", "bot", "play", "--seed", "3"], check=False,
                            cwd=str(ROOT), env=env,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 3, result.stderr  # the input ended at the first turn; the match is saved
    assert "simulated: no wheel" in result.stderr and "play like easy" in result.stderr
