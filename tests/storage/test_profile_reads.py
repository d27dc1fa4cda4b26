"""What a person's profile reads from storage, on memory, a real SQLite file and a real PostgreSQL
alike: their matches (in one league or everywhere) with partner and season rating, the seasons they
won, and the install-wide settings under one prefix."""

from __future__ import annotations

from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.records import PlayerRecord
from storage.sqlite import SQLiteRepository
from tests.storage.test_seasons import FEB_2, JAN_10, play_match

Repo = MemoryRepository | SQLiteRepository | PostgresRepository


async def test_a_persons_matches_come_oldest_first_with_partner_and_season_rating(repo: Repo) -> None:
    await repo.save_player(PlayerRecord("tg:3", "Huda"))
    await play_match(repo, JAN_10, JAN_10 + 3600, {0, 2})
    await play_match(repo, FEB_2, FEB_2 + 3600, {1, 3})
    elsewhere = ("tg:1", "tg:7", "tg:8", "tg:9")
    await play_match(repo, FEB_2 + 7200, FEB_2 + 9000, {0, 2}, chat="tg:-200", players=elsewhere)
    mine = await repo.person_matches("tg:1", "tg:-100")
    assert [(m.season, m.won, m.chat_id) for m in mine] == [(1, True, "tg:-100"), (2, False, "tg:-100")]
    assert mine[0].partner == "tg:3" and mine[0].partner_name == "Huda" and mine[0].counts
    assert mine[0].rating_before == 1000.0 and mine[0].rating_after is not None and mine[0].rating_after > 1000.0
    assert mine[1].rating_before == 1000.0  # a new season starts everyone again
    everywhere = await repo.person_matches("tg:1")
    assert [m.league for m in everywhere] == ["tg:-100", "tg:-100", "tg:-200"]
    assert everywhere[-1].partner == "tg:8" and everywhere[-1].won
    assert [m.finished_at for m in await repo.person_matches("tg:1", limit=2)] == [FEB_2 + 3600, FEB_2 + 9000]
    assert await repo.person_matches("tg:404") == []
    assert await repo.person_matches("tg:7", "tg:-100") == []


async def test_the_seasons_a_person_won_are_theirs_only(repo: Repo) -> None:
    for _ in range(5):
        await play_match(repo, JAN_10, JAN_10 + 3600, {0, 2})
    assert await repo.close_season("tg:-100", 1, FEB_2) is not None
    won = await repo.person_champions("tg:1")
    assert [(c.league, c.number, c.game) for c in won] == [("tg:-100", 1, "tarneeb")]
    assert await repo.person_champions("tg:1", "tg:-200") == []
    assert await repo.person_champions("tg:2") == []


async def test_settings_are_read_by_their_prefix(repo: Repo) -> None:
    await repo.set_meta_if_absent("standings:tg:-1 tg:-1", "10")
    await repo.set_meta_if_absent("standings:tg:-1 tg:-1/7", "11")
    await repo.set_meta_if_absent("standings:tg:-12 tg:-12", "12")
    assert await repo.meta_prefixed("standings:tg:-1 ") == {"standings:tg:-1 tg:-1": "10",
                                                            "standings:tg:-1 tg:-1/7": "11"}
    assert await repo.meta_prefixed("nothing:") == {}
