"""Four simulated members play whole matches through slash commands and buttons only.

Each match ends with :func:`check_delivery`: hands only in their owners' DMs and ephemeral
messages, no hidden card in any channel message, the channel budget, every interaction
acknowledged within 3 seconds, nothing that Discord would have refused.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table, check_delivery

ARABIC = re.compile(r"[\u0600-\u06ff]")
SHORT = {"tarneeb41": {"target": 5}, "tarneeb": {"target": 31}, "trix": {"mode": "complex"}}


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3").start()
    yield b
    await b.stop()


def members(fake: FakeDiscord, names: str = "Alice Bob Carol Dan", *, closed: str = "",
            admin: str = "Alice") -> list[Member]:
    out = []
    for name in names.split():
        is_open = name not in closed.split()
        uid = fake.add_member(name, dm_open=is_open, manage_guild=name == admin)
        out.append(Member(uid, name, dm_open=is_open))
    return out


async def play_match(fake: FakeDiscord, bot: Bot, game: str, lang: str, *, closed: str = "") -> Table:
    people = members(fake, closed=closed)
    table = Table(fake, bot, fake.channel_id, people, seed=len(game) + len(lang))
    ix = await table.slash(people[0], "lang", language=lang)  # Alice has Manage Server
    assert bool(ARABIC.search(table.text_of(ix))) == (lang == "ar")
    assert bot.manager is not None
    if game == "trix":  # the short form of Trix (8 deals); a server sets defaults like this one
        await bot.manager.update_chat(f"dc:{fake.channel_id}", default_options={"trix": SHORT["trix"]})
    await table.open(game, target=SHORT[game].get("target"))
    assert table.status() == "playing"
    await table.play_out(dm_seats=frozenset({1}))
    assert table.status() == "finished"
    await bot.drain([fake.channel_id])
    check_delivery(fake, bot, [fake.channel_id], table.interactions)
    return table


@pytest.mark.slow
@pytest.mark.parametrize("game", ["tarneeb41", "tarneeb", "trix"])
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_whole_match_through_buttons(fake: FakeDiscord, bot: Bot, game: str, lang: str) -> None:
    table = await play_match(fake, bot, game, lang)
    final = table.table_message()
    assert bool(ARABIC.search(final.content)) == (lang == "ar")
    assert table.dm_moves > 0  # some moves came from the DM hand, the rest from "My hand"
    for m in table.members:
        dms = fake.dms(m.user_id)
        assert dms, m.name  # every hand also went to its owner's DM
        # an ephemeral hand was in the player's language too
        eph = [s for s in fake.seen_by(m.user_id) if s.kind.startswith("ephemeral") and "mj1:" in str(s.components)]
        assert eph and all(bool(ARABIC.search(s.content)) == (lang == "ar") for s in eph[-3:])
    await play_again(fake, table, swap=game != "trix")


async def play_again(fake: FakeDiscord, table: Table, *, swap: bool) -> None:
    """The match result offers Play again (and Swap partners where partners play); a press opens a lobby
    with the same four in their seats (or partners swapped), which one of them starts."""
    tid = table.table_id
    result = next(m for m in reversed(fake.channel_messages(fake.channel_id))
                  if f"mj1:r:{tid}:-:" in m.custom_ids())
    assert (f"mj1:r:{tid}:-:swap" in result.custom_ids()) == swap
    ix = await table.click(table.members[1], result.id, f"mj1:r:{tid}:-:swap" if swap else f"mj1:r:{tid}:-:")
    new = table.manager.table_in_chat(f"dc:{fake.channel_id}")
    assert new is not None and new.table_id != tid and new.table.status == "lobby", table.text_of(ix)
    ids = [f"dc:{m.user_id}" for m in table.members]
    assert [s.player_id for s in new.table.seats] == ([ids[0], ids[2], ids[1], ids[3]] if swap else ids)
    await table.click(table.members[2], result.id, f"mj1:r:{tid}:-:")  # a second press opens nothing new
    assert table.manager.table_in_chat(f"dc:{fake.channel_id}").table_id == new.table_id  # type: ignore[union-attr]
    begin = f"mj1:b:{new.table_id}:-:"
    await fake.wait_until(lambda: any(begin in m.custom_ids() for m in fake.channel_messages(fake.channel_id)))
    lobby = next(m for m in fake.channel_messages(fake.channel_id) if begin in m.custom_ids())
    await table.click(table.members[3], lobby.id, begin)
    await fake.wait_until(lambda: table.manager.get(new.table_id).table.status == "playing")  # type: ignore[union-attr]


@pytest.mark.slow
async def test_closed_dms_are_told_ephemerally_and_the_match_goes_on(fake: FakeDiscord, bot: Bot) -> None:
    table = await play_match(fake, bot, "tarneeb41", "en", closed="Dan")
    dan = table.members[3]
    join = next(ix for ix in table.interactions if ix.user_id == dan.user_id)
    assert "I cannot send you your cards privately" in table.text_of(join)
    assert fake.messages[join.original_id].only_for == dan.user_id  # ephemeral: only Dan saw it
    assert fake.dms(dan.user_id) == []
    assert any(s.kind.startswith("ephemeral") and s.user_id == dan.user_id and "mj1:a:" in str(s.components)
               for s in fake.log)
