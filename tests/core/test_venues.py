"""Where a tournament's matches are played (bot/core/venues.py), through the one dispatch on the fake
clock, with a platform that opens forum topics (as bot/adapters/telegram/venues.py does, in memory):
a round's two matches open at once, each in its topic; both are recorded by the group's tournament;
commands typed in a topic act on the group's tournament; the players are told once when a match is
called and once when its table opens; a platform that refuses plays in the group, one match after
another, and says so once; two processes opening one match's venue use one."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.commands import Actor, NewTournament, Rematch, TournamentAction
from bot.core.errors import TableError
from bot.core.model import Person
from bot.core.service import Service
from bot.core.tournaments import people_of
from bot.core.venues import Venue, VenueRefused, Venues
from storage.sqlite import SQLiteRepository
from storage.tournaments import How, MatchStatus, TMatch, Tournament
from tests.core.test_manager_helpers import CHAT, Harness, make_manager
from tests.core.test_tournaments import ORGANISER, PEOPLE, SHORT, admin, play_short


class Forum:
    """A forum group in memory: each venue is a new topic of the tournament's group, unless ``refuse``."""

    def __init__(self, refuse: Exception | None = None, together: int = 0) -> None:
        self.refuse = refuse
        #: Hold each new topic until this many were asked for (two processes racing for one match).
        self.together = together
        self.topics: list[str] = []
        self.closed: list[str] = []
        self._ids = itertools.count(7)

    async def make(self, t: Tournament, m: TMatch) -> Venue | None:
        if self.refuse is not None:
            raise self.refuse
        chat = f"{t.chat_id}/{next(self._ids)}"
        self.topics.append(chat)
        for _ in range(2000):  # at most 2 s: the other process asks too, before either writes it down
            if len(self.topics) >= self.together:
                break
            await asyncio.sleep(0.001)
        return Venue(chat, f"Round {m.round} · match {m.slot + 1}")

    async def close(self, venue: Venue) -> None:
        self.closed.append(venue.chat_id)


def person(pid: str) -> Person:
    return next(p for p in PEOPLE if p.player_id == pid)


async def running(h: Harness) -> tuple[Service, Tournament]:
    """Eight people registered (drawn pairs), started by the organiser: round 1's two matches called."""
    service = Service(h.manager)
    t = await service.dispatch(NewTournament("tarneeb41", start_minutes=30, checkin_minutes=10, round_minutes=5,
                                             options=SHORT, review_minutes=0), admin(ORGANISER))
    for p in PEOPLE[:8]:
        await service.dispatch(TournamentAction("register", t.tournament_id), Actor(p, CHAT))
    t = await service.dispatch(TournamentAction("start"), admin(ORGANISER))
    return service, t


async def all_ready(service: Service, t: Tournament) -> None:
    for slot in (0, 1):
        m = t.match(1, slot)
        assert m is not None
        for pid in (*people_of(t, m)[0], *people_of(t, m)[1]):
            await service.dispatch(TournamentAction("ready"), Actor(person(pid), CHAT))


@pytest.fixture
async def h(tmp_path: Path) -> object:
    repo = SQLiteRepository(tmp_path / "t.db")
    await repo.open()
    harness = make_manager(repo, FakeClock(1_800_000_000.0))
    yield harness
    await harness.manager.close()
    await repo.close()


async def test_a_rounds_matches_open_at_once_in_their_topics_and_are_recorded_by_the_groups_tournament(
        h: Harness) -> None:
    forum = Forum()
    tours = h.manager.tournaments
    tours.venues.register("tg", forum.make, forum.close)
    told: list[tuple[str, int, str | None]] = []

    async def listen(t: Tournament, m: TMatch, kind: str, venue: Venue | None) -> None:
        told.append((kind, m.slot, venue.chat_id if venue else None))

    tours.on_match(listen)
    service, t = await running(h)
    assert sorted(told) == [("called", 0, None), ("called", 1, None)]
    await all_ready(service, t)
    t = await service.dispatch(TournamentAction("show"), Actor(PEOPLE[0], CHAT))
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None and m0.status == m1.status == MatchStatus.PLAYING
    assert len(forum.topics) == 2 and h.manager.table_in_chat(CHAT) is None
    for chat, m in zip(forum.topics, (m0, m1), strict=True):
        snap = h.manager.table_in_chat(chat)  # both live at once, one a topic
        assert snap is not None and snap.table_id == m.table_id and snap.table.status == "playing"
        assert await tours.venues.home(chat) == CHAT
        assert tours.venues.known(t)[(1, m.slot)].chat_id == chat
    assert sorted(x for x in told if x[0] == "table") == [("table", 0, forum.topics[0]), ("table", 1, forum.topics[1])]

    # in a topic, the tournament is the group's: its commands act on it; Play again is refused there
    shown = await service.dispatch(TournamentAction("show", t.tournament_id), Actor(PEOPLE[0], forum.topics[0]))
    assert shown.tournament_id == t.tournament_id
    for m in (m0, m1):
        await play_short(h, m.table_id or 0)
    await h.manager.drain()
    await tours.settle()
    t = await service.dispatch(TournamentAction("show"), Actor(PEOPLE[0], CHAT))
    for slot in (0, 1):
        m = t.match(1, slot)
        assert m is not None and (m.status, m.how) == (MatchStatus.DONE, How.PLAYED)
    a = people_of(t, m0)[0][0]
    with pytest.raises(TableError) as e:
        await service.dispatch(Rematch(m0.table_id or 0), Actor(person(a), forum.topics[0]))
    assert e.value.params.get("what") == "tournament"
    final = t.match(2, 0)
    assert final is not None and final.status == MatchStatus.CALLED
    assert [x for x in told if x[0] == "called" and x[1] == 0][-1] == ("called", 0, None)  # the final, called
    assert len(told) == 5 and forum.closed == []


async def test_a_platform_that_refuses_plays_in_the_group_one_after_another_and_says_so_once(h: Harness) -> None:
    forum = Forum(VenueRefused("not enough rights to create a topic"))
    h.manager.tournaments.venues.register("tg", forum.make)
    service, t = await running(h)
    await all_ready(service, t)
    t = await service.dispatch(TournamentAction("show"), Actor(PEOPLE[0], CHAT))
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None
    assert (m0.status, m1.status) == (MatchStatus.PLAYING, MatchStatus.CALLED)
    snap = h.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table_id == m0.table_id
    assert [a.action for a in t.audit].count("venues_off") == 1
    await play_short(h, m0.table_id or 0)
    await h.manager.drain()
    await h.manager.tournaments.settle()
    t = await service.dispatch(TournamentAction("show"), Actor(PEOPLE[0], CHAT))
    m1 = t.match(1, 1)
    assert m1 is not None and m1.status == MatchStatus.PLAYING  # next in the group, once it is free
    assert [a.action for a in t.audit].count("venues_off") == 1 and forum.topics == []


async def test_a_platform_that_fails_once_plays_that_match_in_the_group_without_giving_up_venues(
        h: Harness) -> None:
    forum = Forum(ConnectionError("the platform did not answer"))
    h.manager.tournaments.venues.register("tg", forum.make)
    service, t = await running(h)
    m = t.match(1, 0)
    assert m is not None
    for pid in (*people_of(t, m)[0], *people_of(t, m)[1]):
        await service.dispatch(TournamentAction("ready"), Actor(person(pid), CHAT))
    t = await service.dispatch(TournamentAction("show"), Actor(PEOPLE[0], CHAT))
    m0 = t.match(1, 0)
    assert m0 is not None and m0.status == MatchStatus.PLAYING
    snap = h.manager.table_in_chat(CHAT)
    assert snap is not None and snap.table_id == m0.table_id
    assert "venues_off" not in [a.action for a in t.audit]
    forum.refuse = None
    m1 = t.match(1, 1)
    assert m1 is not None
    for pid in (*people_of(t, m1)[0], *people_of(t, m1)[1]):
        await service.dispatch(TournamentAction("ready"), Actor(person(pid), CHAT))
    t = await service.dispatch(TournamentAction("show"), Actor(PEOPLE[0], CHAT))
    m1 = t.match(1, 1)
    assert m1 is not None and m1.status == MatchStatus.PLAYING and forum.topics
    snap = h.manager.table_in_chat(forum.topics[0])
    assert snap is not None and snap.table_id == m1.table_id


async def test_two_processes_opening_one_matchs_venue_use_the_first_and_close_the_other(tmp_path: Path) -> None:
    repo = SQLiteRepository(tmp_path / "t.db")
    other = SQLiteRepository(tmp_path / "t.db")
    await repo.open()
    await other.open()
    try:
        forum = Forum(together=2)  # both make a topic before either is stored, whatever the scheduling
        t = Tournament(3, CHAT, "tarneeb41", "knockout", "draw", ORGANISER.player_id, ORGANISER.name,
                       "running", 0.0, 0.0, 0.0, 5)  # type: ignore[arg-type]
        m = TMatch(1, 0, 1, 2, MatchStatus.CALLED)
        first, second = Venues(repo), Venues(other)
        for v in (first, second):
            v.register("tg", forum.make, forum.close)
        got = await asyncio.gather(first.open(t, m), second.open(t, m))
        assert got[0] == got[1] and got[0] is not None and len(forum.topics) == 2
        loser = next(c for c in forum.topics if c != got[0].chat_id)
        assert forum.closed == [loser]
        assert await Venues(repo).of(t, m) == got[0] and await Venues(other).home(got[0].chat_id) == CHAT
        assert await Venues(repo).home(loser) == loser  # the unused topic belongs to no tournament
    finally:
        await repo.close()
        await other.close()
