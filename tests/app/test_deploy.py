"""The Dockerfile and compose.yaml refer only to what exists (no Docker engine runs here, so this is
what can be checked without one): every path the image copies, the command it runs, every
command and variable the compose services give, and the health check's port."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import yaml

from bot.app.cli.main import build_parser
from bot.app.config import ENV, WEB_ENV, Config

ROOT = Path(__file__).resolve().parents[2]


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions: (keyword, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_image_copies_what_exists_and_runs_the_projects_command() -> None:
    steps = dockerfile()
    copies = [shlex.split(args) for kw, args in steps if kw == "COPY"]
    assert copies
    for *sources, _ in copies:
        for source in sources:
            assert (ROOT / source).exists(), source
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = {src for *sources, _ in copies for src in sources}
    assert packages <= copied  # every package pip installs is in the image
    (entry,) = [yaml.safe_load(args) for kw, args in steps if kw == "ENTRYPOINT"]
    (cmd,) = [yaml.safe_load(args) for kw, args in steps if kw == "CMD"]
    assert entry == ["majlis"] and "majlis" in project["project"]["scripts"]
    build_parser().parse_args(cmd)  # exits (fails the test) on an unknown command or option
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert not packages & set(ignored) and ".venv" in ignored


def test_every_compose_command_and_variable_is_one_majlis_knows() -> None:
    data = compose()
    known = set(ENV.values()) | set(WEB_ENV.values())
    documented = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")  # the full settings table
    built = {name: svc for name, svc in data["services"].items() if "build" in svc}
    assert {"migrate", "telegram", "discord"} <= set(built)
    for name, svc in built.items():
        build_parser().parse_args(svc["command"])
        for var in svc.get("environment", {}):
            if var.startswith("MAJLIS_"):
                assert var in known, (name, var)
                assert f"`{var}`" in documented, (name, var)
    metrics_port = data["x-metrics"]["MAJLIS_METRICS_PORT"]
    for name in ("telegram", "discord"):
        env = built[name]["environment"]
        assert env["MAJLIS_METRICS_PORT"] == metrics_port
        check = " ".join(built[name]["healthcheck"]["test"])
        assert f"127.0.0.1:{metrics_port}/healthz" in check
    hook_port = Config.__dataclass_fields__["telegram_webhook_port"].default
    assert [str(p) for p in built["telegram"]["expose"]] == [str(hook_port)]  # the webhook's default port
    assert data["services"]["migrate"]["command"] == ["db", "migrate"]
