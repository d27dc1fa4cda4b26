"""The house's layers, pinned: every import in ``bot/``, ``ai/``, ``engine/`` and ``storage/`` goes one way.

    app → adapters → present → core → {ai, engine, storage}

- a module may import its own layer and any layer below it, never one above;
- an adapter never imports another adapter (``bot.adapters.throttle`` is theirs to share);
- ``ai`` imports only ``engine``; ``engine`` imports only itself (it is pure);
- inside the core, the dispatch (``service``) is above the cluster and the manager: the cluster never
  imports the service, and the manager never imports the cluster;
- ``bot/core/tables/`` keeps its own order (:data:`TABLE_LAYERS`).

Imports under ``if TYPE_CHECKING:`` count too: a type from above is a seam that points the wrong way.
docs/architecture.md draws the same picture.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "ai", "engine", "storage", "locales")
ORDER = ("base", "core", "present", "adapters", "app", "entry")


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            mods[name] = path
    return mods


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> Iterator[str]:
    """The project's modules that ``module`` imports, anywhere in its body."""
    tree = ast.parse(MODULES[module].read_text())
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            target = _resolve(name)
            if target is not None and target != module:
                yield target


def layer(module: str) -> str:
    """The layer ``module`` belongs to."""
    parts = module.split(".")
    if parts[0] != "bot":
        return "base"
    if len(parts) == 1 or parts[1] == "__main__":
        return "entry"
    return parts[1] if parts[1] in ORDER else "entry"


def wrong_way(module: str, target: str) -> str | None:
    """Why ``module`` may not import ``target`` (None: it may)."""
    top, target_top = module.split(".", maxsplit=1)[0], target.split(".", maxsplit=1)[0]
    if top == "engine" and target_top != "engine":
        return "the engine imports only itself"
    if top == "ai" and target_top not in ("ai", "engine"):
        return "ai imports only the engine"
    if top in ("storage", "locales") and target_top == "bot":
        return f"{top} is below bot"
    mine, theirs = layer(module), layer(target)
    if ORDER.index(theirs) > ORDER.index(mine):
        return f"{mine} may not import {theirs} (above it)"
    if mine == theirs == "adapters":
        a, b = module.split("."), target.split(".")
        if len(a) > 2 and len(b) > 2 and a[2] != b[2] and "throttle" not in (a[2], b[2]):
            return "an adapter never imports another adapter"
    if module.startswith("bot.core.cluster") and target == "bot.core.service":
        return "the cluster is below the dispatch: it is handed a local dispatch instead"
    if module == "bot.core.manager" and target.startswith("bot.core.cluster"):
        return "the manager is below the cluster: the service builds the router"
    return None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_import_goes_down_the_layers(module: str) -> None:
    wrong = {t: why for t in imports_of(module) if (why := wrong_way(module, t)) is not None}
    assert not wrong, f"{module}: {wrong}"


def test_the_layer_rule_sees_imports_that_point_up() -> None:
    assert wrong_way("bot.core.prefs", "bot.present.i18n") is not None
    assert wrong_way("bot.adapters.telegram.app", "bot.app.runner") is not None
    assert wrong_way("bot.adapters.web.server", "bot.adapters.telegram.texts") is not None
    assert wrong_way("ai.pool", "bot.core.metrics") is not None
    assert wrong_way("bot.app.runner", "bot.adapters.telegram.app") is None
    assert wrong_way("bot.adapters.web.server", "bot.adapters.throttle") is None
    assert "bot.core.manager" in set(imports_of("bot.core.service"))


def test_bot_has_only_its_four_layers_at_the_top() -> None:
    top = {p.name for p in (ROOT / "bot").iterdir() if not p.name.startswith((".", "_"))} - {"py.typed"}
    assert top == {"core", "present", "adapters", "app"}, top


TABLE_LAYERS = {  # module -> the bot.core.tables modules it may import (one way: nothing imports upwards)
    "registry": set(),
    "publish": set(),
    "ai_runner": set(),
    "turns": set(),
    "leases": {"registry"},
    "lifecycle": {"publish", "turns"},
    "restore": {"lifecycle"},
    "lobby": {"lifecycle", "registry"},
    "pipeline": {"ai_runner", "lifecycle", "registry", "restore", "turns"},
}


@pytest.mark.parametrize("module", sorted(TABLE_LAYERS))
def test_table_modules_import_one_way(module: str) -> None:
    found = {t.split(".")[3] for t in imports_of(f"bot.core.tables.{module}") if t.startswith("bot.core.tables.")}
    assert found <= TABLE_LAYERS[module], found - TABLE_LAYERS[module]
    assert not {t for t in imports_of(f"bot.core.tables.{module}")
                if t in ("bot.core.manager", "bot.core.service") or t.startswith("bot.core.cluster")}


def test_every_table_module_has_its_place_in_the_order() -> None:
    modules = {p.stem for p in (ROOT / "bot" / "core" / "tables").glob("*.py")} - {"__init__"}
    assert modules == set(TABLE_LAYERS)
