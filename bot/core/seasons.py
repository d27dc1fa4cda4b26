"""Seasons and standings: a league's season table, its all-time table, its champions, the rollover.

A league is a Telegram group or a Discord server (:func:`storage.seasons.league_of`, with the
channel's server known to :class:`~bot.core.prefs.Prefs`). Storage keeps the seasons, their ratings
and champions (``storage/seasons.py``); this module ranks a table for people and rolls seasons over.

The rank is conservative and stated (``/help``, docs/commands.md): a rating is
``1000 + 40 × (μ − 3σ)`` of the person's openskill rating in that season, so a new player starts at
1000 and climbs only as the system grows sure of them. A person with fewer than the league's
``min_matches`` matches of a game in the season is provisional: listed after the ranked, without a
rank. A leave counts as a loss; AI seats are never listed.

The rollover (:meth:`Seasons.tick`, every minute in each process): every season that has ended is
closed by storage exactly once, whichever process gets there first (the league's row is locked),
and only that process hears of its summary and posts it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.errors import Refusal, TableError
from bot.core.listeners import tell
from bot.core.prefs import Prefs
from storage.records import ChampionRecord, LeaderRow, LeagueRecord, SeasonRecord, SeasonSummary
from storage.repository import Repository
from storage.seasons import league_of

log = logging.getLogger(__name__)

#: Seconds between two looks for ended seasons.
TICK_SECONDS = 60.0
#: The lengths an admin may choose, in days (0: a calendar month), and the bounds of the minimum.
MAX_LENGTH_DAYS = 365
MAX_MIN_MATCHES = 100


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a table: the rank (None: provisional) and the person's row."""

    rank: int | None
    row: LeaderRow

    @property
    def provisional(self) -> bool:
        return self.rank is None


@dataclass(frozen=True, slots=True)
class Standings:
    """A league's table of one game: a season's (``season``) or all time (``season`` None).

    ``lines``: the ranked people, best first, then the provisional ones; ``mine``: the asker's own
    line wherever it is (None: they have no match in it); ``to_rank``: the matches they still need
    to be ranked (0: ranked).
    """

    league: LeagueRecord
    season: SeasonRecord | None
    game: str
    lines: tuple[Standing, ...]
    mine: Standing | None
    to_rank: int


def rank(rows: list[LeaderRow], min_matches: int) -> list[Standing]:
    """The ranked rows (at least ``min_matches`` matches) numbered best first, then the provisional ones."""
    ranked = [r for r in rows if r.matches >= min_matches]
    provisional = [r for r in rows if r.matches < min_matches]
    return [Standing(i, r) for i, r in enumerate(ranked, 1)] + [Standing(None, r) for r in provisional]


SummaryCallback = Callable[[SeasonSummary], Awaitable[None]]


class Seasons:
    """The seasons of every league, read and changed for the commands, rolled over by :meth:`tick`."""

    def __init__(self, repo: Repository, prefs: Prefs, clock: Clock) -> None:
        self.repo = repo
        self.prefs = prefs
        self.clock = clock
        self._listeners: list[SummaryCallback] = []
        self._ended: list[Callable[[str], Awaitable[None]]] = []

    def on_closed(self, callback: SummaryCallback) -> None:
        """Call ``callback(summary)`` for every season this process closes (the summary to post)."""
        self._listeners.append(callback)

    def on_ended(self, callback: Callable[[str], Awaitable[None]]) -> None:
        """Call ``callback(league)`` whenever this process ends or closes a season of a league (by
        hand or by the clock): what shows the season's table changes then."""
        self._ended.append(callback)

    async def _tell_ended(self, league: str) -> None:
        await tell(self._ended, league, log, "telling of the end of a season of %s failed", league)

    async def league(self, chat_id: str) -> str:
        """The league of a chat: its Discord server, else the Telegram group (a topic's group)."""
        return league_of(chat_id, await self.prefs.parent(chat_id))

    async def current(self, chat_id: str) -> SeasonRecord:
        """The chat's league's running season (made if none is)."""
        return await self.repo.season_at(await self.league(chat_id), self.clock.now())

    async def standings(self, chat_id: str, game: str, player_id: str, *, all_time: bool = False) -> Standings:
        """The chat's league's table of ``game`` (this season's, or all time) for ``player_id``."""
        league = await self.league(chat_id)
        settings = await self.repo.get_league(league)
        season = None if all_time else await self.repo.season_at(league, self.clock.now())
        rows = await self.repo.season_board(league, None if season is None else season.number, game)
        lines = rank(rows, settings.min_matches)
        mine = next((s for s in lines if s.row.player_id == player_id), None)
        to_rank = settings.min_matches - (mine.row.matches if mine else 0)
        return Standings(settings, season, game, tuple(lines), mine, max(to_rank, 0))

    async def history(self, chat_id: str) -> list[ChampionRecord]:
        """The chat's league's champions, newest season first."""
        return await self.repo.champions(await self.league(chat_id))

    async def settings(self, chat_id: str) -> LeagueRecord:
        return await self.repo.get_league(await self.league(chat_id))

    async def change(self, chat_id: str, *, length_days: int | None = None, min_matches: int | None = None,
                     ai_counts: bool | None = None) -> LeagueRecord:
        """Change the league's season settings (a length of 0 days: calendar months again).

        A new length applies from the next season on; the running one keeps its window.
        """
        league = await self.repo.get_league(await self.league(chat_id))
        if length_days is not None:
            if type(length_days) is not int or not 0 <= length_days <= MAX_LENGTH_DAYS:
                raise TableError(Refusal.BAD_OPTION, detail=f"a season lasts 1 to {MAX_LENGTH_DAYS} days "
                                 "(0: a calendar month)")
            league = dataclasses.replace(league, length_days=length_days or None)
        if min_matches is not None:
            if type(min_matches) is not int or not 1 <= min_matches <= MAX_MIN_MATCHES:
                raise TableError(Refusal.BAD_OPTION, detail=f"the minimum is 1 to {MAX_MIN_MATCHES} matches")
            league = dataclasses.replace(league, min_matches=min_matches)
        if ai_counts is not None:
            if type(ai_counts) is not bool:
                raise TableError(Refusal.BAD_OPTION, detail="ai_counts is on or off")
            league = dataclasses.replace(league, ai_counts=ai_counts)
        await self.repo.save_league(league)
        return league

    async def end(self, chat_id: str, number: int) -> SeasonSummary:
        """End the running season ``number`` now (an admin confirmed it); its summary.

        ``season_over`` when it is not the running season any more (ended by hand or by the clock
        since the confirmation was asked): nothing changes then.
        """
        league = await self.league(chat_id)
        now = self.clock.now()
        await self.repo.season_at(league, now)  # the running season exists (made if nobody played yet)
        ended = await self.repo.end_season(league, number, now)
        if ended is None:
            raise TableError(Refusal.SEASON_OVER, season=number)
        summary = await self.repo.close_season(league, number, now)
        await self._tell_ended(league)
        if summary is None:  # a match that started in it is still being played: it closes after that
            return SeasonSummary(ended, None, (), None, None)
        return summary

    async def tick(self) -> list[SeasonSummary]:
        """Close every season that has ended; the summaries this process closed (and told its listeners)."""
        now = self.clock.now()
        closed = []
        for season in await self.repo.due_seasons(now):
            summary = await self.repo.close_season(season.league, season.number, now)
            if summary is None:
                continue
            closed.append(summary)
            await tell(self._listeners, summary, log, "telling of the end of season %s of %s failed",
                       season.number, season.league)
            await self._tell_ended(season.league)
        return closed
