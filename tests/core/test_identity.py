"""The ids, spelled once in bot/core/identity.py."""

from __future__ import annotations

import pytest

from bot.core import identity


def test_private_destinations() -> None:
    assert identity.dm_dest("tg:5") == "dm:tg:5"
    assert identity.is_dm("dm:tg:5") and not identity.is_dm("tg:5")
    assert identity.player_of_dm("dm:dc:7") == "dc:7"
    assert identity.player_of_dm("dc:7") is None
    assert identity.is_dm_of("dm:tg:5", identity.TELEGRAM)
    assert not identity.is_dm_of("dm:dc:5", identity.TELEGRAM)
    assert not identity.is_dm_of("tg:5", identity.TELEGRAM)


@pytest.mark.parametrize(("dest", "platform"), [
    ("tg:-100", "tg"), ("tg:-100/7", "tg"), ("dm:tg:5", "tg"), ("dc:9", "dc"), ("dm:dc:9", "dc"),
    ("dc:guild:3", "dc"), ("cli:you", "cli"),
])
def test_platform_of(dest: str, platform: str) -> None:
    assert identity.platform_of(dest) == platform


def test_people_and_prefixes() -> None:
    assert identity.person_id(identity.TELEGRAM, 5) == "tg:5"
    assert identity.chat_prefix(identity.DISCORD) == "dc:"
    assert identity.user_of("dc:42", identity.DISCORD) == 42
    assert identity.user_of("tg:42", identity.DISCORD) is None
    assert identity.cli_id("local") == "cli:local"
    assert identity.TERMINAL_PLAYER == "cli:you"


def test_ai_seats() -> None:
    assert identity.ai_seat_id("strong", 2) == "ai:strong:2"
    assert identity.is_ai_id("ai:strong:2")
    assert identity.is_human_id("tg:5")
    assert not identity.is_human_id("ai:basic:0")
    assert not identity.is_human_id(None) and not identity.is_human_id("")


def test_discord_servers_and_channels() -> None:
    assert identity.dc_guild(3) == "dc:guild:3"
    assert identity.is_dc_channel("dc:9")
    assert not identity.is_dc_channel("dc:guild:3")
    assert not identity.is_dc_channel("dm:dc:9")
    assert not identity.is_dc_channel("tg:-100")
