"""Seasons, /majlis stats and /majlis profile through the real discord.py and the fake Discord: the
server's table answered to the asker only, the channel's standings message edited in place after each
counted match and when the season ends, and a card that shows a server's figures only in that server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.table import Table as CoreTable
from storage.records import (
    FINISHED,
    ActionRecord,
    LeagueRecord,
    MatchResult,
    PlayerRecord,
    PlayerResult,
    Seat,
    TableRecord,
)
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3").start()
    yield b
    await b.stop()


async def record(table: Table, people: list[str], winners: set[int], at: float) -> int:
    """A finished Tarneeb match of the channel, stored as the bot stores one, told to the manager's subscribers."""
    repo, chat = table.manager.repo, f"dc:{table.channel_id}"
    seats = tuple(Seat(player_id=p, name=p) for p in people)
    rec = TableRecord(table_id=0, chat_id=chat, game="tarneeb", options={}, seed=1, dealer=0, creator=people[0],
                      status="playing", seats=seats, created_at=at)  # type: ignore[arg-type]
    tid = await repo.create_table(rec)
    stored = await repo.get_table(tid)
    assert stored is not None
    stored = await repo.append_action(ActionRecord(tid, 1, 0, "bid 7", people[0], at), replace(stored, version=1))
    results = tuple(PlayerResult(p, i, 31 if i in winners else 10, i in winners) for i, p in enumerate(people))
    result = MatchResult(tid, chat, "tarneeb", at + 60, results, {"teams": [31, 10]})
    done = await repo.append_final_action(ActionRecord(tid, 2, 0, "play QS", people[0], at + 60),
                                          replace(stored, version=2, status=FINISHED, deadline=None), result)
    changes = await repo.rating_changes(tid)
    publisher = table.manager.publisher
    publisher.post(CoreTable(record=done), [{"type": "match_recorded", "results": [], "ratings": [
        {"player_id": c.player_id, "before": c.before, "after": c.after, "matches": c.matches} for c in changes]}],
        "action")
    await publisher.flush(tid)
    return tid


_MARKS = str.maketrans(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200F]))


def plain(text: str) -> str:
    """Text without the isolates and marks of right-to-left text."""
    return text.translate(_MARKS)


@pytest.mark.slow  # slash commands and edits through the real library
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_servers_standings_message_is_kept_and_its_figures_shown_to_the_asker_only(
        fake: FakeDiscord, bot: Bot, lang: str) -> None:
    members = [Member(fake.add_member(n, manage_guild=n == "Alice"), n) for n in ["Alice", "Bob", "Carol", "Dan"]]
    table = Table(fake, bot, fake.channel_id, members)
    alice = members[0]
    await table.slash(alice, "lang", language=lang)
    ids = [f"dc:{m.user_id}" for m in members]
    for m, pid in zip(members, ids, strict=True):
        await table.manager.repo.save_player(PlayerRecord(pid, m.name))
    league = await table.manager.seasons.league(f"dc:{fake.channel_id}")
    await table.manager.repo.save_league(LeagueRecord(league, min_matches=2))
    title = "Standings · season 1" if lang == "en" else "الترتيب · الموسم 1"
    posted = await table.slash(alice, "season", view="standings")
    await fake.wait_until(lambda: [m for m in fake.channel_messages() if title in plain(m.content)])
    (kept,) = [m for m in fake.channel_messages() if title in plain(m.content)]
    assert posted.original_id is None or fake.messages[posted.original_id].only_for == alice.user_id
    now = table.manager.clock.now()
    seen = [kept.content]
    for n in range(3):
        await record(table, ids, {0, 2}, now + n * 600)
        await fake.wait_until(lambda: kept.content != seen[-1])
        seen.append(kept.content)
    assert "Alice" in plain(kept.content)
    assert [m.id for m in fake.channel_messages() if title in plain(m.content)] == [kept.id]

    stats = await table.slash(members[1], "stats")
    text = table.text_of(stats)
    assert ("Tarneeb · season 1: rank" if lang == "en" else "طرنيب · الموسم 1: الترتيب") in plain(text)
    assert fake.messages[stats.original_id or 0].only_for == members[1].user_id
    card = await table.slash(alice, "profile")
    assert ("Profile · Alice" if lang == "en" else "بطاقة اللاعب") in table.text_of(card)
    assert ("every chat" if lang == "en" else "كل المجموعات") not in table.text_of(card)

    ended = await table.slash(alice, "season", view="end", confirm=1)  # Manage Server ends it by hand
    assert table.text_of(ended)
    nxt = "Standings · season 2" if lang == "en" else "الترتيب · الموسم 2"
    await fake.wait_until(lambda: nxt in plain(kept.content))
    assert [m.id for m in fake.channel_messages() if nxt in plain(m.content)] == [kept.id]
