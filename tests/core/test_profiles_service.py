"""Profiles in the core: who may see whose figures from where, and the pure parts of a card
(streaks, the favourite partner, the rating series)."""

from __future__ import annotations

import pytest

from bot.core.clock import FakeClock
from bot.core.commands import Actor, ShowProfile
from bot.core.errors import Refusal, TableError
from bot.core.identity import dm_dest
from bot.core.profiles import favourite_partner, rating_series, streaks
from bot.core.service import Service
from storage.memory import MemoryRepository
from storage.records import PersonMatch
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, make_manager


def match(won: bool, *, partner: str | None = "tg:2", after: float | None = None, season: int = 1,
          game: str = "tarneeb", left: bool = False) -> PersonMatch:
    return PersonMatch(1, CHAT, "tg:-100", season, True, game, 0.0, 0, 0, won, left, partner, "Bob",
                       None if after is None else 1000.0, after)


def test_streaks_count_the_current_run_and_the_best_run_of_wins() -> None:
    runs = [True, True, True, False, True, True]
    assert streaks([match(w) for w in runs]) == (2, 3)
    assert streaks([match(w) for w in [True, False, False]]) == (-2, 1)
    assert streaks([match(True, left=True)]) == (-1, 0)  # a leave is a loss
    assert streaks([]) == (0, 0)


def test_the_favourite_partner_is_a_person_played_with_most_never_an_ai_seat() -> None:
    games = [match(True, partner="ai:normal:2")] * 5 + [match(True), match(False), match(True, partner="tg:3")]
    best = favourite_partner(games)
    assert best is not None and (best.player_id, best.matches, best.wins) == ("tg:2", 2, 1)
    assert favourite_partner([match(True, partner=None)]) is None


def test_the_rating_series_follows_the_most_played_game_after_each_counted_match() -> None:
    games = [match(True, after=1010.0), match(True, after=1030.0, season=2), match(False, game="trix", after=990.0),
             match(True)]
    assert rating_series(games) == ("tarneeb", (1010.0, 1030.0), (1, 2))
    assert rating_series([match(True)]) == (None, (), ())


async def test_a_groups_figures_only_in_the_group_and_ones_own_everywhere_only_in_private() -> None:
    h = make_manager(MemoryRepository(), FakeClock(1_800_000_000.0))
    service = Service(h.manager)
    here = await service.dispatch(ShowProfile(), Actor(BOB, CHAT))
    assert here.league == "tg:-100" and here.matches == 0 and here.season is not None
    other = await service.dispatch(ShowProfile(player_id=ALICE.player_id, name="Alice"), Actor(BOB, CHAT))
    assert other.player_id == ALICE.player_id and other.league == "tg:-100"
    mine = await service.dispatch(ShowProfile(everywhere=True), Actor(BOB, dm_dest(BOB.player_id)))
    assert mine.league is None and mine.season is None
    with pytest.raises(TableError) as e:
        await service.dispatch(ShowProfile(everywhere=True), Actor(BOB, CHAT))  # in the group: everyone reads it
    assert e.value.code == Refusal.PRIVATE_ONLY
    with pytest.raises(TableError) as e:
        await service.dispatch(ShowProfile(everywhere=True, player_id=ALICE.player_id),
                               Actor(BOB, dm_dest(BOB.player_id)))
    assert e.value.code == Refusal.NOT_ALLOWED
    with pytest.raises(TableError) as e:
        await service.dispatch(ShowProfile(), Actor(BOB, dm_dest(BOB.player_id)))  # a league's figures: in its chats
    assert e.value.code == Refusal.GROUP_ONLY
    with pytest.raises(TableError) as e:
        await service.dispatch(ShowProfile(everywhere="yes"), Actor(BOB, CHAT))  # type: ignore[arg-type]
    assert e.value.code == Refusal.BAD_ACTION
