"""Cards as cards on Discord: the 52 card emojis uploaded once (as ``majlis discord emojis`` does),
within Discord's rules for application emojis, and then used in the table message and the hand."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot.adapters.discord.emojis import CODES, CardFaces, card_png, upload_cards
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table

pytestmark = pytest.mark.timeout(60)
EMOJI = re.compile(r"<:mj_([2-9TJQKA][SHDC]):(\d+)>")


async def upload(fake: FakeDiscord) -> tuple[int, int]:
    """What ``majlis discord emojis`` does: log in (REST only) and upload what is missing."""
    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(fake.bot_token)
        return await upload_cards(client)


async def test_the_52_cards_are_uploaded_once_as_pngs_named_by_their_codes(patched: FakeDiscord) -> None:
    assert await upload(patched) == (52, 0)
    names = sorted(e["name"] for e in patched.app_emojis.values())
    assert names == sorted(f"mj_{c}" for c in CODES)
    for raw in patched.emoji_images.values():
        image = Image.open(io.BytesIO(raw))
        assert (image.format, image.size) == ("PNG", (128, 128))
    assert await upload(patched) == (0, 52)  # again: nothing to do
    assert len(patched.app_emojis) == 52


async def test_an_application_near_discords_limit_gets_no_half_set(patched: FakeDiscord) -> None:
    for i in range(1990):  # the application's other emojis
        patched.app_emojis[i] = {"id": str(i), "name": f"other_{i}", "roles": [], "require_colons": True,
                                 "managed": False, "animated": False, "available": True}
    with pytest.raises(ValueError, match="2000"):
        await upload(patched)
    assert len(patched.app_emojis) == 1990


def test_a_text_gets_its_cards_as_emojis_only_when_all_52_are_there() -> None:
    faces = CardFaces({c: 900 + i for i, c in enumerate(CODES)})
    hand = "Your hand\n♠ A 10 8\n♥ \u2068K Q\u2069\nTrump: ♦ Diamonds (the exposed 4♥)\nPlayable: \u2068Q♠ ١٠♥\u2069"
    out = faces.apply(hand)
    assert [m[0] for m in EMOJI.findall(out)] == ["AS", "TS", "8S", "KH", "QH", "4H", "QS", "TH"]
    assert "Trump: ♦ Diamonds" in out  # a suit's name stays words
    half = CardFaces({c: 1 for c in CODES[:51]})
    assert half.apply(hand) == hand
    assert card_png("TH") != card_png("TD")


@pytest.fixture
async def bot_with_cards(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    await upload(patched)
    b = await Bot(patched, tmp_path / "majlis.sqlite3").start()
    yield b
    await b.stop()


@pytest.mark.slow
async def test_the_table_message_and_the_hand_show_the_cards_as_emojis(patched: FakeDiscord,
                                                                     bot_with_cards: Bot) -> None:
    fake = patched
    ids = {e["name"][3:]: e["id"] for e in fake.app_emojis.values()}
    alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
    table = Table(fake, bot_with_cards, fake.channel_id, [alice])
    await table.slash(alice, "lang", language="en")
    await table.open("tarneeb41")
    await table.slash(alice, "begin")
    hand_button = await fake.wait_until(lambda: next((c for c in table.table_message().custom_ids()
                                                      if c.startswith("mj1:h:")), None), timeout=20)
    ix = await table.click(alice, table.table_message().id, hand_button)
    assert ix.original_id is not None
    text = fake.messages[ix.original_id].content
    shown = EMOJI.findall(text)
    assert table.table_id is not None and bot_with_cards.manager is not None
    mine = bot_with_cards.manager.view(table.table_id, 0)["hand"]
    # every card of the hand, as a picture (a card may show twice: its row, and "Playable" once play begins)
    assert {code for code, _ in shown if code in mine} == set(mine)
    assert all(ids[code] == eid for code, eid in shown)  # <:mj_QS:<that emoji's id>>
    assert not re.search(r"^[♠♥♦♣] ", text, re.M)  # no row of plain ranks left
    # the table message names the dealer's exposed card: as its picture too
    public = table.table_message().content
    assert EMOJI.search(public) and not re.search(r"(10|[2-9JQKA])[♠♥♦♣]", public)
    print(text.splitlines()[1], "|", next(line for line in public.splitlines() if "<:mj_" in line))
