"""Seasons as pure functions shared by every repository: leagues, season windows, champions, summaries.

A league is where seasons are kept: a Telegram group (a forum topic belongs to its group) or a
Discord server (a channel's parent, stored in meta as ``parent:<channel>`` by ``bot/core/prefs.py``).
A season is a calendar month (UTC) unless the league chose a length in days; its ratings are kept
under the scope ``<league>#<number>``, the league's all-time ones under ``<league>#all``.

A match belongs to the season it started in (its first action's time), whenever it finishes. Seasons
are made lazily (:func:`locate`: the one covering a time, with the ones before it that are missing)
and closed once (the repository's ``close_season``, a compare-and-set on ``closed_at``).
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from storage.ratings import TEAM_GAMES, is_ai, rated_players
from storage.records import ChampionRecord, LeaderRow, PlayerResult, SeasonRecord, SeasonSummary
from storage.rows import leader_order

DAY = 86400.0
#: How long a due season waits for a match that started in it to finish before it closes anyway.
CLOSE_GRACE = 6 * 3600.0
#: The fewest matches two partners play together to be the season's best partnership.
PARTNERSHIP_MIN = 3
ALL_TIME = "all"
#: The team games as an SQL list (a profile's partner is the opposite seat).
TEAM_GAMES_SQL = "(" + ", ".join(f"'{g}'" for g in sorted(TEAM_GAMES)) + ")"


def league_of(chat_id: str, parent: str | None) -> str:
    """The league of a chat: its parent (a Discord channel's server), else the chat without its topic."""
    if parent:
        return parent
    return chat_id.split("/", 1)[0] if chat_id.startswith("tg:") else chat_id


def season_scope(league: str, number: int | None) -> str:
    """The ratings scope of a season (``number`` None: the league's all-time table)."""
    return f"{league}#{ALL_TIME if number is None else number}"


def month_start(at: float) -> float:
    """The first instant (UTC) of the calendar month holding ``at``."""
    d = datetime.fromtimestamp(at, UTC)
    return datetime(d.year, d.month, 1, tzinfo=UTC).timestamp()


def window_end(start: float, length_days: int | None) -> float:
    """Where a season that starts at ``start`` ends: the next month's first instant, or ``length_days`` on."""
    if length_days:
        return start + length_days * DAY
    d = datetime.fromtimestamp(start, UTC)
    days = calendar.monthrange(d.year, d.month)[1]
    return datetime(d.year, d.month, 1, tzinfo=UTC).timestamp() + days * DAY


def locate(seasons: Sequence[SeasonRecord], league: str, at: float, length_days: int | None,
           ) -> tuple[SeasonRecord, list[SeasonRecord]]:
    """The season of ``league`` that covers ``at`` and the seasons to create for it (oldest first).

    ``seasons`` are the league's, in number order. A time before the first season belongs to the
    first; a time in a gap between two seasons (none is made for the months nobody played) to the
    next one. After the last season: the next one, starting where the last ended, or, when ``at``
    is past that window too, at the window holding ``at`` (a month's start, or a whole number of
    lengths on), so that nobody waits for months of empty seasons.
    """
    if not seasons:
        start = month_start(at) if not length_days else at
        new = SeasonRecord(league, 1, start, window_end(start, length_days))
        return new, [new]
    for s in seasons:
        if at < s.ends_at:
            return s, []
    last = seasons[-1]
    start = last.ends_at
    if at >= window_end(start, length_days):
        if length_days:
            start += ((at - start) // (length_days * DAY)) * length_days * DAY
        else:
            start = max(start, month_start(at))
    new = SeasonRecord(league, last.number + 1, start, window_end(start, length_days))
    return new, [new]


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One counted person's row of a counted match of a season (what a summary is made of)."""

    table_id: int
    chat_id: str
    game: str
    finished_at: float
    player_id: str
    seat: int
    won: bool
    left: bool


def counts_in_season(results: Iterable[PlayerResult], ai_counts: bool) -> bool:
    """Whether a match counts in its league's tables: it has people, and AI seats only if allowed."""
    results = list(results)
    if not rated_players(results):
        return False
    return ai_counts or not any(is_ai(r.player_id) for r in results)


def board(rows: Iterable[SeasonRow], ratings: dict[tuple[str, str], float], names: dict[str, str],
          game: str) -> list[LeaderRow]:
    """The table of one game from a season's rows: every person, best first (``leader_order``)."""
    tally: dict[str, list[int]] = {}
    for r in rows:
        if r.game != game:
            continue
        t = tally.setdefault(r.player_id, [0, 0, 0])
        t[0] += 1
        t[1] += int(r.won and not r.left)
        t[2] += int(r.left)
    out = [LeaderRow(pid, names.get(pid, pid), m, w, ratings.get((game, pid), 1000.0), left)
           for pid, (m, w, left) in tally.items()]
    out.sort(key=leader_order)
    return out


def summarize(season: SeasonRecord, rows: Sequence[SeasonRow], ratings: dict[tuple[str, str], float],
              names: dict[str, str], min_matches: int) -> SeasonSummary:
    """The season's summary: the best ranked player of each game, who played most, the best pair.

    A champion has played at least ``min_matches`` matches of the game. The best partnership is
    the pair of partners (Tarneeb games) with the most wins together, then the better win rate,
    over at least :data:`PARTNERSHIP_MIN` matches together.
    """
    champions = []
    for game in sorted({r.game for r in rows}):
        ranked = [row for row in board(rows, ratings, names, game) if row.matches >= min_matches]
        if ranked:
            best = ranked[0]
            champions.append(ChampionRecord(season.league, season.number, game, best.player_id, best.name,
                                            best.rating, best.matches, best.wins))
    per_person: dict[str, set[int]] = {}
    for r in rows:
        per_person.setdefault(r.player_id, set()).add(r.table_id)
    most = None
    if per_person:
        pid = min(per_person, key=lambda p: (-len(per_person[p]), p))
        most = (pid, names.get(pid, pid), len(per_person[pid]))
    pairs: dict[tuple[str, str], list[int]] = {}
    by_table: dict[int, list[SeasonRow]] = {}
    for r in rows:
        if r.game in TEAM_GAMES and not r.left:
            by_table.setdefault(r.table_id, []).append(r)
    for table_rows in by_table.values():
        for team in (0, 1):
            side = sorted({r.player_id: r for r in table_rows if r.seat % 2 == team}.values(),
                          key=lambda r: r.player_id)
            if len(side) == 2:
                t = pairs.setdefault((side[0].player_id, side[1].player_id), [0, 0])
                t[0] += int(side[0].won)
                t[1] += 1
    best_pair = None
    eligible = [(k, v) for k, v in pairs.items() if v[1] >= PARTNERSHIP_MIN and v[0] > 0]
    if eligible:
        (a, b), (wins, matches) = min(eligible, key=lambda kv: (-kv[1][0], -kv[1][0] / kv[1][1], kv[0]))
        best_pair = (a, names.get(a, a), b, names.get(b, b), wins, matches)
    last = max(rows, key=lambda r: (r.finished_at, r.table_id), default=None)
    return SeasonSummary(season, last.chat_id if last else None, tuple(champions), most, best_pair)
