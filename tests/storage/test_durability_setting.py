"""The durability setting: config key and MAJLIS_DURABILITY reach the SQLite repository's pragma."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app.config import ConfigError, load_config
from storage import open_repository
from storage.sqlite import SQLiteRepository


def test_durability_defaults_to_crash_and_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    assert load_config({"MAJLIS_DATA_DIR": str(tmp_path)}).durability == "crash"
    (tmp_path / "majlis.toml").write_text('durability = "power"\n', encoding="utf-8")
    assert load_config({"MAJLIS_DATA_DIR": str(tmp_path)}).durability == "power"
    env = {"MAJLIS_DATA_DIR": str(tmp_path), "MAJLIS_DURABILITY": "crash"}
    assert load_config(env).durability == "crash"
    with pytest.raises(ConfigError, match="MAJLIS_DURABILITY"):
        load_config({"MAJLIS_DATA_DIR": str(tmp_path), "MAJLIS_DURABILITY": "fsync"})


@pytest.mark.parametrize(("durability", "level"), [("crash", 1), ("power", 2)])
async def test_the_configured_durability_is_the_files_synchronous_level(
        tmp_path: Path, durability: str, level: int) -> None:
    cfg = load_config({"MAJLIS_DATA_DIR": str(tmp_path), "MAJLIS_DURABILITY": durability})
    repo = await open_repository(cfg.db, durability=cfg.durability)
    try:
        assert isinstance(repo, SQLiteRepository)
        assert await repo._call(lambda c: c.execute_fetchall("PRAGMA synchronous")) == [(level,)]
    finally:
        await repo.close()
