"""Season commands through the one dispatch: who may read, change and end a season, from where,
and what a refused or stale command leaves (nothing changed)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.clock import FakeClock
from bot.core.commands import Actor, ChangeSeason, EndSeason, ShowSeason, ShowSeasonHistory
from bot.core.errors import Refusal, TableError
from bot.core.seasons import rank
from bot.core.service import Service
from storage.memory import MemoryRepository
from storage.records import LeaderRow, LeagueRecord
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, make_manager

JAN_10 = datetime(2027, 1, 10, tzinfo=UTC).timestamp()


async def yes() -> bool:
    return True


def test_ranked_people_come_first_numbered_and_the_provisional_after_without_a_rank() -> None:
    rows = [LeaderRow("tg:1", "A", 2, 2, 1100.0), LeaderRow("tg:2", "B", 6, 3, 1050.0),
            LeaderRow("tg:3", "C", 5, 1, 990.0)]
    lines = rank(rows, 5)
    assert [(s.rank, s.row.player_id) for s in lines] == [(1, "tg:2"), (2, "tg:3"), (None, "tg:1")]
    assert lines[2].provisional


async def test_reading_is_for_anyone_in_the_group_and_changing_for_its_admins() -> None:
    h = make_manager(MemoryRepository(), FakeClock(JAN_10))
    service = Service(h.manager)
    st = await service.dispatch(ShowSeason("tarneeb"), Actor(BOB, CHAT))
    assert st.season is not None and st.season.number == 1 and st.lines == () and st.mine is None
    assert st.to_rank == 5
    assert await service.dispatch(ShowSeasonHistory(), Actor(BOB, CHAT)) == []
    assert await service.dispatch(ChangeSeason(), Actor(BOB, CHAT)) == LeagueRecord("tg:-100")
    with pytest.raises(TableError) as e:
        await service.dispatch(ChangeSeason(min_matches=3), Actor(BOB, CHAT))
    assert e.value.code == Refusal.ADMINS_ONLY
    with pytest.raises(TableError) as e:
        await service.dispatch(EndSeason(1), Actor(BOB, CHAT))
    assert e.value.code == Refusal.ADMINS_ONLY
    for where in (f"dm:{BOB.player_id}",):
        with pytest.raises(TableError) as e:
            await service.dispatch(ShowSeason("tarneeb"), Actor(BOB, where))
        assert e.value.code == Refusal.GROUP_ONLY
    with pytest.raises(TableError) as e:
        await service.dispatch(ShowSeason("chess"), Actor(BOB, CHAT))
    assert e.value.code == Refusal.UNKNOWN_GAME
    assert (await h.repo.seasons("tg:-100"))[0].ends_at > JAN_10  # nothing ended


@pytest.mark.parametrize("changes", [{"length_days": 400}, {"length_days": -1}, {"min_matches": 0},
                                     {"min_matches": 101}])
async def test_settings_out_of_range_are_refused_and_change_nothing(changes: dict[str, int]) -> None:
    h = make_manager(MemoryRepository(), FakeClock(JAN_10))
    with pytest.raises(TableError) as e:
        await Service(h.manager).dispatch(ChangeSeason(**changes), Actor(ALICE, CHAT, yes))
    assert e.value.code == Refusal.BAD_OPTION
    assert await h.repo.get_league("tg:-100") == LeagueRecord("tg:-100")


async def test_an_admin_ends_the_season_once_and_a_stale_confirmation_changes_nothing() -> None:
    clock = FakeClock(JAN_10)
    h = make_manager(MemoryRepository(), clock)
    service = Service(h.manager)
    league = await service.dispatch(ChangeSeason(length_days=14, min_matches=2), Actor(ALICE, CHAT, yes))
    assert (league.length_days, league.min_matches) == (14, 2)
    summary = await service.dispatch(EndSeason(1), Actor(ALICE, CHAT, yes))
    assert summary.season.number == 1 and summary.season.ends_at == JAN_10 and summary.champions == ()
    with pytest.raises(TableError) as e:
        await service.dispatch(EndSeason(1), Actor(ALICE, CHAT, yes))  # the same confirmation again
    assert e.value.code == Refusal.SEASON_OVER
    clock.advance(60)
    st = await service.dispatch(ShowSeason("trix"), Actor(BOB, CHAT))
    assert st.season is not None and (st.season.number, st.season.starts_at) == (2, JAN_10)
    assert st.season.ends_at == JAN_10 + 14 * 86400  # the new length applies from this season on
    assert await h.manager.seasons.tick() == []  # closed already: nothing more to post
