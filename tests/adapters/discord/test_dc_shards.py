"""``MAJLIS_DISCORD_SHARDS``: the shards a process runs, and every server's home shard."""

from __future__ import annotations

import pytest

from bot.app.config import ConfigError, home_shard, load_config, parse_shards


@pytest.mark.parametrize(("text", "ids", "count"), [
    ("0/1", [0], 1), ("1/2", [1], 2), ("0-3/8", [0, 1, 2, 3], 8), ("0,2,4-5/8", [0, 2, 4, 5], 8),
    (" 4 - 7 / 8 ", [4, 5, 6, 7], 8),
])
def test_shard_specs_name_ids_out_of_a_count(text: str, ids: list[int], count: int) -> None:
    assert parse_shards(text) == (ids, count)


@pytest.mark.parametrize(("text", "why"), [
    ("0-3", "<ids>/<count>"), ("8/8", "from 0 to 7"), ("3-1/8", "backwards"), ("0/0", "at least 1"),
    ("0,,1/4", "empty"), ("a/4", "<ids>/<count>"),
])
def test_a_bad_shard_spec_says_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_shards(text)


def test_a_servers_home_shard_is_discords_rule() -> None:
    guild = 1_100_000_000_000_000_000 + (5 << 22)
    assert home_shard(guild, 8) == ((1_100_000_000_000_000_000 >> 22) + 5) % 8
    assert home_shard(guild, 1) == 0


def test_the_configuration_takes_shards_and_lease_and_names_a_bad_value(tmp_path: object) -> None:
    config = load_config({"MAJLIS_DISCORD_SHARDS": "0-3/8", "MAJLIS_LEASE_SECONDS": "5", "HOME": str(tmp_path)})
    assert config.discord_shards == "0-3/8" and config.lease_seconds == 5.0
    with pytest.raises(ConfigError, match="MAJLIS_DISCORD_SHARDS"):
        load_config({"MAJLIS_DISCORD_SHARDS": "0-3", "HOME": str(tmp_path)})
    with pytest.raises(ConfigError, match="MAJLIS_LEASE_SECONDS"):
        load_config({"MAJLIS_LEASE_SECONDS": "0.1", "HOME": str(tmp_path)})
