"""The README's pictures of a Telegram and a Discord table (tests/adapters/screens.py).

Part of a match is played through the real python-telegram-bot and discord.py against the local
fakes; the table message and a hand, as the fakes hold them, are drawn as chat-like HTML pages and
photographed with chromium. Pixels are not judged here: each PNG exists and is not trivial, the
page holds the message's exact text (and chromium reads it back character for character), the
caption says where the picture comes from, and the page fetched nothing.

``MAJLIS_SCREENS=docs/images`` writes the PNGs there (docs/images/README.md); otherwise into the
test's temporary folder.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from tests.adapters.screens import (
    CAPTION_DC,
    CAPTION_TG,
    Scene,
    chromium,
    make_scenes,
    photograph,
    screens_dir,
)
from tests.adapters.web.conftest import browser_missing

MISSING = browser_missing()
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(240),
              pytest.mark.skipif(MISSING is not None, reason=f"browser tests skipped: {MISSING}")]

ARABIC = re.compile(r"[\u0600-\u06ff]")
PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    assert data[:8] == PNG and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def check_scene(scene: Scene, lang: str) -> None:
    """What the fake held is what the README should show: cards on the table, a hand to play from."""
    assert bool(ARABIC.search(scene.table.text)) == (lang == "ar")
    assert bool(ARABIC.search(scene.hand.text)) == (lang == "ar")
    assert scene.table.rows and scene.hand.rows  # the table's buttons, the hand's cards
    assert scene.player in scene.table.text  # "Turn: Sara to play"
    if scene.platform == "discord":
        assert any(not c.disabled for row in scene.hand.rows for c in row)  # playable cards
    if lang == "en":
        assert "On the table:" in scene.table.text and "bid " in scene.table.text
        assert "Your turn" in scene.hand.text


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_telegram_and_a_discord_table_are_pictured(tmp_path: Path, lang: str) -> None:
    out = screens_dir() or tmp_path / "png"
    scenes = await make_scenes(tmp_path, lang)
    assert [s.platform for s in scenes] == ["telegram", "discord"]
    for scene in scenes:
        check_scene(scene, lang)
    async with chromium() as browser:
        pictures = await photograph(browser, scenes, out, tmp_path / "pages")
    suffix = "" if lang == "en" else f"-{lang}"
    assert sorted(p.name for p in pictures) == sorted(
        f"{platform}-{kind}{suffix}" for platform in ("telegram", "discord") for kind in ("table", "hand"))
    for pic in pictures:
        data = pic.png.read_bytes()
        width, height = png_size(data)
        assert width >= 1000 and height >= 400, (pic.name, width, height)
        assert 20_000 < len(data) < 300_000, (pic.name, len(data))
        page = pic.html.read_text(encoding="utf-8")
        text = pic.shown.text
        if not set("&<>") & set(text):
            assert text in page, pic.name  # the message's exact text, character for character
        assert pic.text_seen == text, pic.name  # and so the browser reads it
        assert (CAPTION_TG if pic.name.startswith("telegram") else CAPTION_DC) in page
        assert 'dir="auto"' in page
        assert pic.requests == []  # self-contained: the page asked for nothing
    tables = {p.name: p for p in pictures if "-table" in p.name}
    for scene in scenes:
        assert tables[f"{scene.platform}-table{suffix}"].shown.text == scene.table.text
