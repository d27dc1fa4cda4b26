"""A person's record and profile: in one chat's league (a group, a server) or across every chat.

``/stats`` and ``/profile`` read the same :class:`Profile`: per game the season's figures (matches,
wins, rating, rank, the matches still needed to be ranked) beside the all-time ones; the streaks;
the season rating after each counted match of their main game (the chart); the partner they played
with most; their best deal; the seasons they won (badges).

Who may see what is the dispatch's business (``bot/core/service.py``): a person's figures in a
chat's league only in that league's chats; the figures across every chat only to the person
themselves (their private chat, their own web link).

The best deal is looked for in the person's last :data:`DEAL_MATCHES` matches, each replayed from
its seed and action log (the stored result keeps only the match totals).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import engine
from bot.core.seasons import Seasons
from bot.core.views import events_of
from storage.ratings import is_ai
from storage.records import ActionRecord, ChampionRecord, PersonMatch, SeasonRecord, TableRecord
from storage.repository import Repository

log = logging.getLogger(__name__)

#: The matches a profile reads (the newest), the points of its chart, the matches searched for the best deal.
MATCHES = 500
SERIES = 30
DEAL_MATCHES = 20


@dataclass(frozen=True, slots=True)
class GameFigures:
    """One game's figures: all time (``matches``, ``wins``, ``left``) and, in a league, this season's
    (``season_*``; ``season_rank`` None: provisional or no match; ``to_rank``: matches still needed)."""

    game: str
    matches: int
    wins: int
    left: int
    season_matches: int = 0
    season_wins: int = 0
    season_rating: float | None = None
    season_rank: int | None = None
    ranked_count: int = 0
    to_rank: int = 0


@dataclass(frozen=True, slots=True)
class Partner:
    """The person played most with (Tarneeb games): matches together and wins together."""

    player_id: str
    name: str
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class BestDeal:
    """The most points the person (their side in the Tarneeb games) made in one deal."""

    game: str
    points: int
    table_id: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class Profile:
    """A person's profile: ``league`` None is across every chat (their own eyes only).

    ``streak``: the current run (positive: wins in a row, negative: losses); ``best_streak``: the
    longest run of wins. ``series``: their season rating after each counted match of
    ``series_game`` (their most played), oldest first, at most :data:`SERIES` points, in the
    league (across chats: in the league where they played that game most); ``series_seasons``
    the season of each point (the chart marks where a season began).
    """

    player_id: str
    name: str
    league: str | None
    season: SeasonRecord | None
    games: tuple[GameFigures, ...]
    streak: int
    best_streak: int
    series_game: str | None
    series: tuple[float, ...]
    series_seasons: tuple[int, ...]
    partner: Partner | None
    best_deal: BestDeal | None
    badges: tuple[ChampionRecord, ...]

    @property
    def matches(self) -> int:
        return sum(g.matches for g in self.games)

    @property
    def wins(self) -> int:
        return sum(g.wins for g in self.games)


def _won(m: PersonMatch) -> bool:
    return m.won and not m.left


def streaks(matches: Sequence[PersonMatch]) -> tuple[int, int]:
    """(the current run: +wins or −losses in a row, the longest run of wins) of matches oldest first."""
    current = best = run = 0
    for m in matches:
        if _won(m):
            run += 1
            best = max(best, run)
            current = current + 1 if current > 0 else 1
        else:
            run = 0
            current = current - 1 if current < 0 else -1
    return current, best


def favourite_partner(matches: Sequence[PersonMatch]) -> Partner | None:
    """The person (never an AI seat) most often across the table, then the most wins together."""
    tally: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for m in matches:
        if m.partner and not is_ai(m.partner) and not m.left:
            t = tally.setdefault(m.partner, [0, 0])
            t[0] += 1
            t[1] += int(m.won)
            names[m.partner] = m.partner_name or m.partner
    if not tally:
        return None
    pid = min(tally, key=lambda p: (-tally[p][0], -tally[p][1], p))
    return Partner(pid, names[pid], tally[pid][0], tally[pid][1])


def rating_series(matches: Sequence[PersonMatch]) -> tuple[str | None, tuple[float, ...], tuple[int, ...]]:
    """(the most played game, the season rating after each of its counted matches, their seasons)."""
    counted = [m for m in matches if m.rating_after is not None]
    if not counted:
        return None, (), ()
    by_game: dict[str, int] = {}
    for m in counted:
        by_game[m.game] = by_game.get(m.game, 0) + 1
    game = min(by_game, key=lambda g: (-by_game[g], g))
    mine = [m for m in counted if m.game == game]
    by_league: dict[str, int] = {}
    for m in mine:
        by_league[m.league or ""] = by_league.get(m.league or "", 0) + 1
    league = min(by_league, key=lambda lg: (-by_league[lg], lg))
    points = [m for m in mine if (m.league or "") == league][-SERIES:]
    return game, tuple(float(m.rating_after or 0.0) for m in points), tuple(m.season or 0 for m in points)


def best_deal_of(record: TableRecord, actions: Sequence[ActionRecord], seat: int) -> int | None:
    """The most points ``seat`` (its side in the Tarneeb games) made in one deal of a replayed match."""
    g = engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=record.options)
    best: int | None = None
    for a in actions:
        for e in events_of(g.act(a.seat, a.action)):
            if e["type"] != "deal_scored":
                continue
            deltas = e["deltas"]
            players, teams = deltas.get("players"), deltas.get("teams")
            points = players[seat] if players else (teams[seat % 2] if teams else None)
            if points is not None and (best is None or points > best):
                best = points
    return best


class Profiles:
    """Builds profiles from storage (the seasons' tables for the season figures)."""

    def __init__(self, repo: Repository, seasons: Seasons) -> None:
        self.repo = repo
        self.seasons = seasons

    async def profile(self, player_id: str, name: str, chat_id: str | None) -> Profile:
        """``player_id``'s profile in ``chat_id``'s league, or across every chat (``chat_id`` None)."""
        league = None if chat_id is None else await self.seasons.league(chat_id)
        matches = await self.repo.person_matches(player_id, league, MATCHES)
        games: list[GameFigures] = []
        season = None
        if chat_id is not None:
            season = await self.seasons.current(chat_id)
        for game in sorted({m.game for m in matches}):
            mine = [m for m in matches if m.game == game]
            figures = GameFigures(game, len(mine), sum(_won(m) for m in mine), sum(m.left for m in mine))
            if chat_id is not None and season is not None:
                figures = await self._season_figures(figures, chat_id, player_id, season)
            games.append(figures)
        current, best = streaks(matches)
        series_game, series, seasons = rating_series(matches)
        badges = tuple(await self.repo.person_champions(player_id, league))
        return Profile(player_id, name, league, season, tuple(games), current, best, series_game, series, seasons,
                       favourite_partner(matches), await self._best_deal(matches), badges)

    async def _season_figures(self, figures: GameFigures, chat_id: str, player_id: str,
                              season: SeasonRecord) -> GameFigures:
        st = await self.seasons.standings(chat_id, figures.game, player_id)
        ranked = sum(1 for s in st.lines if s.rank is not None)
        mine = st.mine
        return GameFigures(figures.game, figures.matches, figures.wins, figures.left,
                           mine.row.matches if mine else 0, mine.row.wins if mine else 0,
                           mine.row.rating if mine else None, mine.rank if mine else None, ranked, st.to_rank)

    async def _best_deal(self, matches: Sequence[PersonMatch]) -> BestDeal | None:
        best: BestDeal | None = None
        for m in matches[-DEAL_MATCHES:]:
            record = await self.repo.get_table(m.table_id)
            if record is None or record.game != m.game:
                continue
            actions = await self.repo.actions(m.table_id)
            try:
                points = await asyncio.to_thread(best_deal_of, record, actions, m.seat)
            except engine.IllegalAction:  # a log that no longer replays (an engine change): not this match
                log.warning("table %s: its log does not replay; its deals are left out of a profile", m.table_id)
                continue
            if points is not None and points > 0 and (best is None or points > best.points):
                best = BestDeal(m.game, points, m.table_id, m.finished_at)
        return best


__all__ = ["BestDeal", "GameFigures", "Partner", "Profile", "Profiles", "best_deal_of", "favourite_partner",
           "rating_series", "streaks"]
