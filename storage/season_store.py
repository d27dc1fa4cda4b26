"""Seasons in SQL, written once for SQLite and PostgreSQL (``storage/seasons.py`` holds the rules).

Each function takes a :class:`Sql`: the open connection of one transaction (a write) or of a read,
with ``?`` placeholders (PostgreSQL's ``$1 …`` are made from them). Every change of a league's
seasons first locks the league's row (PostgreSQL: ``SELECT … FOR UPDATE``, after inserting it at the
defaults if missing; SQLite writes one at a time anyway), so that processes creating, ending or
closing a league's seasons at once take turns: each season is made once and closed once.

A match's writer (:func:`record_season`) runs in the match's transaction, before its ratings are
locked (lock order: the table, the league, the ratings), so two processes never wait on each other
in a circle.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from storage.ratings import GLOBAL, Rating, rate_field, rate_match, rated_players
from storage.records import (
    PLAYING,
    ChampionRecord,
    LeaderRow,
    LeagueRecord,
    MatchResult,
    PersonMatch,
    RatingChange,
    SeasonRecord,
    SeasonSummary,
)
from storage.rows import dumps
from storage.seasons import (
    CLOSE_GRACE,
    TEAM_GAMES_SQL,
    SeasonRow,
    board,
    counts_in_season,
    league_of,
    locate,
    season_scope,
    summarize,
)

Row = tuple[Any, ...]
_MARK = re.compile(r"\?")


class Sql:
    """One connection, either dialect: ``rows(sql, *args)``, ``run(sql, *args)``."""

    def __init__(self, fetch: Callable[[str, Sequence[Any]], Awaitable[list[Row]]],
                 execute: Callable[[str, Sequence[Any]], Awaitable[Any]], *, postgres: bool) -> None:
        self._fetch = fetch
        self._execute = execute
        self.postgres = postgres

    def _sql(self, sql: str) -> str:
        if not self.postgres:
            return sql
        n = iter(range(1, 1000))
        return _MARK.sub(lambda _: f"${next(n)}", sql)

    async def rows(self, sql: str, *args: Any) -> list[Row]:
        return [tuple(r) for r in await self._fetch(self._sql(sql), args)]

    async def one(self, sql: str, *args: Any) -> Row | None:
        rows = await self.rows(sql, *args)
        return rows[0] if rows else None

    async def run(self, sql: str, *args: Any) -> None:
        await self._execute(self._sql(sql), args)


_SEASON = "SELECT league, number, starts_at, ends_at, closed_at FROM seasons"


def _season(row: Row) -> SeasonRecord:
    return SeasonRecord(row[0], int(row[1]), float(row[2]), float(row[3]),
                        None if row[4] is None else float(row[4]))


async def league_for_chat(q: Sql, chat_id: str) -> str:
    row = await q.one("SELECT value FROM meta WHERE key = ?", f"parent:{chat_id}")
    return league_of(chat_id, None if row is None else str(row[0]))


async def get_league(q: Sql, league: str) -> LeagueRecord:
    row = await q.one("SELECT length_days, min_matches, ai_counts FROM leagues WHERE league = ?", league)
    if row is None:
        return LeagueRecord(league)
    return LeagueRecord(league, None if row[0] is None else int(row[0]), int(row[1]), bool(row[2]))


async def save_league(q: Sql, league: LeagueRecord) -> None:
    await q.run("INSERT INTO leagues (league, length_days, min_matches, ai_counts) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (league) DO UPDATE SET length_days = excluded.length_days, "
                "min_matches = excluded.min_matches, ai_counts = excluded.ai_counts",
                league.league, league.length_days, league.min_matches, int(league.ai_counts))


async def _lock_league(q: Sql, league: str) -> LeagueRecord:
    """The league's settings, its row locked for this transaction (PostgreSQL; created if missing)."""
    if q.postgres:
        await q.run("INSERT INTO leagues (league) VALUES (?) ON CONFLICT DO NOTHING", league)
        await q.run("SELECT 1 FROM leagues WHERE league = ? FOR UPDATE", league)
    return await get_league(q, league)


async def seasons(q: Sql, league: str) -> list[SeasonRecord]:
    return [_season(r) for r in await q.rows(f"{_SEASON} WHERE league = ? ORDER BY number", league)]


async def _season_at(q: Sql, league: str, at: float, length_days: int | None) -> SeasonRecord:
    """The season covering ``at`` (the league locked), made with any before it that are missing."""
    season, created = locate(await seasons(q, league), league, at, length_days)
    for s in created:
        await q.run("INSERT INTO seasons (league, number, starts_at, ends_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT DO NOTHING", s.league, s.number, s.starts_at, s.ends_at)
    return season


async def season_at(q: Sql, league: str, at: float) -> SeasonRecord:
    settings = await _lock_league(q, league)
    return await _season_at(q, league, at, settings.length_days)


async def _ratings(q: Sql, scope: str, game: str, people: Sequence[str]) -> dict[str, Rating]:
    out = {}
    lock = " FOR UPDATE" if q.postgres else ""
    for pid in sorted(people):
        row = await q.one(f"SELECT mu, sigma FROM ratings WHERE scope = ? AND game = ? AND player_id = ?{lock}",
                          scope, game, pid)
        out[pid] = Rating() if row is None else Rating(float(row[0]), float(row[1]))
    return out


_PLAYED = ("SELECT COUNT(*) FROM season_matches s JOIN matches m ON m.table_id = s.table_id "
           "JOIN match_results r ON r.table_id = s.table_id WHERE s.league = ? AND s.number = ? "
           "AND s.counts = 1 AND m.game = ? AND r.player_id = ? AND r.counted = 1")


async def record_season(q: Sql, result: MatchResult) -> None:
    """In the match's transaction, after its ``matches`` row: its season (the one its first action
    fell in), and when it counts, the season's and the league's all-time ratings and its changes."""
    league = await league_for_chat(q, result.chat_id)
    settings = await _lock_league(q, league)
    first = await q.one("SELECT MIN(at) FROM actions WHERE table_id = ?", result.table_id)
    started = float(first[0]) if first is not None and first[0] is not None else result.finished_at
    season = await _season_at(q, league, started, settings.length_days)
    counts = counts_in_season(result.results, settings.ai_counts)
    await q.run("INSERT INTO season_matches (table_id, league, number, counts) VALUES (?, ?, ?, ?)",
                result.table_id, league, season.number, int(counts))
    if not counts:
        return
    people = rated_players(result.results)
    for number in (None, season.number):
        scope = season_scope(league, number)
        current = await _ratings(q, scope, result.game, people)
        new = rate_match(result.game, result.results, current)
        for pid, rating in sorted(new.items()):
            await q.run("INSERT INTO ratings (scope, game, player_id, mu, sigma) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT (scope, game, player_id) DO UPDATE SET mu = excluded.mu, "
                        "sigma = excluded.sigma", scope, result.game, pid, rating.mu, rating.sigma)
            if number is not None:
                played = await q.one(_PLAYED, league, season.number, result.game, pid)
                await q.run("INSERT INTO rating_changes (table_id, player_id, rating_before, rating_after, matches) "
                            "VALUES (?, ?, ?, ?, ?)", result.table_id, pid, current[pid].display,
                            rating.display, int(played[0]) if played else 1)


@dataclass(frozen=True, slots=True)
class ChallengeEntry:
    """One person's result in a closed duplicate challenge, as the season counts it: recorded as a
    match at ``table_id`` (the person's last board's table), with ``score``, ``won`` (the top half of
    its ranking) and ``rank`` (1 the best; ties share it)."""

    player_id: str
    table_id: int
    score: int
    won: bool
    rank: int


async def record_challenge(q: Sql, chat_id: str, game: str, started: float, finished: float,
                           entries: Sequence[ChallengeEntry]) -> bool:
    """In one transaction: a closed challenge counted in the season it started in (``started``), one
    match per person (a ``matches`` row at their last board's table, chat ``chat_id``, their result
    row, its ``season_matches`` row), and the season's and the league's all-time ratings of ``game``
    moved as a free-for-all of everyone in it ranked by the challenge (:func:`rate_field`), with the
    rating changes; the chat's and the global ratings move the same way, as a match's do, so that the
    leaderboard and the statistics, which count these matches too, stay one story. Once: False, and
    nothing written, when it was recorded already (or nobody is in it)."""
    if not entries:
        return False
    if await q.one("SELECT 1 FROM matches WHERE table_id = ?", entries[0].table_id) is not None:
        return False
    league = await league_for_chat(q, chat_id)
    settings = await _lock_league(q, league)
    season = await _season_at(q, league, started, settings.length_days)
    for e in entries:
        await q.run("INSERT INTO matches (table_id, chat_id, game, finished_at, scores) VALUES (?, ?, ?, ?, ?)",
                    e.table_id, chat_id, game, finished, dumps({"players": [e.score]}))
        await q.run("INSERT INTO match_results (table_id, idx, player_id, seat, score, won, left_, counted) "
                    "VALUES (?, 0, ?, 0, ?, ?, 0, 1)", e.table_id, e.player_id, e.score, int(e.won))
        await q.run("INSERT INTO season_matches (table_id, league, number, counts) VALUES (?, ?, ?, 1)",
                    e.table_id, league, season.number)
    people = [e.player_id for e in entries]
    ranks = {e.player_id: e.rank for e in entries}
    tables = {e.player_id: e.table_id for e in entries}
    for number, scope in ((None, chat_id), (None, GLOBAL), (None, season_scope(league, None)),
                          (season.number, season_scope(league, season.number))):
        current = await _ratings(q, scope, game, people)
        new = rate_field(ranks, current)
        for pid, rating in sorted(new.items()):
            await q.run("INSERT INTO ratings (scope, game, player_id, mu, sigma) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT (scope, game, player_id) DO UPDATE SET mu = excluded.mu, "
                        "sigma = excluded.sigma", scope, game, pid, rating.mu, rating.sigma)
            if number is not None:
                played = await q.one(_PLAYED, league, season.number, game, pid)
                await q.run("INSERT INTO rating_changes (table_id, player_id, rating_before, rating_after, matches) "
                            "VALUES (?, ?, ?, ?, ?)", tables[pid], pid, current[pid].display,
                            rating.display, int(played[0]) if played else 1)
    return True


async def end_season(q: Sql, league: str, number: int, now: float) -> SeasonRecord | None:
    """End the league's current season ``number`` now (an admin's confirmed choice): its window
    closes at ``now``; None when it is not the open, running last season (ended already, say)."""
    await _lock_league(q, league)
    all_ = await seasons(q, league)
    if not all_ or all_[-1].number != number:
        return None
    last = all_[-1]
    if last.closed_at is not None or not last.starts_at <= now < last.ends_at:
        return None
    await q.run("UPDATE seasons SET ends_at = ? WHERE league = ? AND number = ?", now, league, number)
    return SeasonRecord(league, number, last.starts_at, now)


async def due_seasons(q: Sql, now: float) -> list[SeasonRecord]:
    return [_season(r) for r in await q.rows(
        f"{_SEASON} WHERE closed_at IS NULL AND ends_at <= ? ORDER BY ends_at, league, number", now)]


_LEAGUE_OF_CHAT = {  # a chat's league in SQL (league_of with the meta parent), per dialect
    False: "COALESCE((SELECT value FROM meta WHERE key = 'parent:' || t.chat_id), CASE WHEN t.chat_id LIKE 'tg:%/%' "
           "THEN substr(t.chat_id, 1, instr(t.chat_id, '/') - 1) ELSE t.chat_id END)",
    True: "COALESCE((SELECT value FROM meta WHERE key = 'parent:' || t.chat_id), CASE WHEN t.chat_id LIKE 'tg:%/%' "
          "THEN split_part(t.chat_id, '/', 1) ELSE t.chat_id END)",
}


async def close_season(q: Sql, league: str, number: int, now: float) -> SeasonSummary | None:
    """Close a due season once: its champions written, its summary returned (None: not due, closed
    already, or a match that started in it is still being played and the grace has not run out)."""
    settings = await _lock_league(q, league)
    row = await q.one(f"{_SEASON} WHERE league = ? AND number = ?", league, number)
    if row is None:
        return None
    season = _season(row)
    if season.closed_at is not None or season.ends_at > now:
        return None
    if now < season.ends_at + CLOSE_GRACE:
        playing = await q.one(
            f"SELECT 1 FROM tables t WHERE t.status = ? AND {_LEAGUE_OF_CHAT[q.postgres]} = ? AND COALESCE("
            "(SELECT MIN(a.at) FROM actions a WHERE a.table_id = t.table_id), t.created_at) < ? LIMIT 1",
            str(PLAYING), league, season.ends_at)
        if playing is not None:
            return None
    await q.run("UPDATE seasons SET closed_at = ? WHERE league = ? AND number = ?", now, league, number)
    season = SeasonRecord(league, number, season.starts_at, season.ends_at, now)
    summary = await _summary(q, season, settings.min_matches)
    for c in summary.champions:
        await q.run("INSERT INTO champions (league, number, game, player_id, rating, matches, wins) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    league, number, c.game, c.player_id, c.rating, c.matches, c.wins)
    return summary


async def _season_rows(q: Sql, league: str, number: int | None) -> tuple[list[SeasonRow], dict[str, str]]:
    rows = await q.rows(
        "SELECT s.table_id, m.chat_id, m.game, m.finished_at, r.player_id, r.seat, r.won, r.left_, "
        "COALESCE(p.name, r.player_id) FROM season_matches s JOIN matches m ON m.table_id = s.table_id "
        "JOIN match_results r ON r.table_id = s.table_id LEFT JOIN players p ON p.player_id = r.player_id "
        "WHERE s.league = ? AND (CAST(? AS INTEGER) IS NULL OR s.number = CAST(? AS INTEGER)) "
        "AND s.counts = 1 AND r.counted = 1 "
        "ORDER BY s.table_id, r.idx", league, number, number)
    out = [SeasonRow(int(r[0]), r[1], r[2], float(r[3]), r[4], int(r[5]), bool(r[6]), bool(r[7])) for r in rows]
    return out, {r[4]: r[8] for r in rows}


async def _scope_ratings(q: Sql, scope: str) -> dict[tuple[str, str], float]:
    rows = await q.rows("SELECT game, player_id, mu, sigma FROM ratings WHERE scope = ?", scope)
    return {(g, p): Rating(float(mu), float(sigma)).display for g, p, mu, sigma in rows}


async def _summary(q: Sql, season: SeasonRecord, min_matches: int) -> SeasonSummary:
    rows, names = await _season_rows(q, season.league, season.number)
    ratings = await _scope_ratings(q, season_scope(season.league, season.number))
    return summarize(season, rows, ratings, names, min_matches)


async def season_board(q: Sql, league: str, number: int | None, game: str) -> list[LeaderRow]:
    """Every counted person of a season (``number`` None: all time) in one game, best first."""
    rows, names = await _season_rows(q, league, number)
    return board(rows, await _scope_ratings(q, season_scope(league, number)), names, game)


async def champions(q: Sql, league: str) -> list[ChampionRecord]:
    rows = await q.rows(
        "SELECT c.league, c.number, c.game, c.player_id, COALESCE(p.name, c.player_id), c.rating, c.matches, "
        "c.wins FROM champions c LEFT JOIN players p ON p.player_id = c.player_id WHERE c.league = ? "
        "ORDER BY c.number DESC, c.game", league)
    return [ChampionRecord(r[0], int(r[1]), r[2], r[3], r[4], float(r[5]), int(r[6]), int(r[7])) for r in rows]


async def rating_changes(q: Sql, table_id: int) -> list[RatingChange]:
    rows = await q.rows("SELECT c.player_id, c.rating_before, c.rating_after, c.matches, COALESCE(l.min_matches, ?) "
                        "FROM rating_changes c JOIN season_matches s ON s.table_id = c.table_id "
                        "LEFT JOIN leagues l ON l.league = s.league WHERE c.table_id = ? ORDER BY c.player_id",
                        LeagueRecord("").min_matches, table_id)
    return [RatingChange(r[0], float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows]


def _league_sql(postgres: bool, alias: str) -> str:
    """The league of ``<alias>.chat_id`` in SQL (:func:`storage.seasons.league_of`, the meta parent first)."""
    return _LEAGUE_OF_CHAT[postgres].replace("t.chat_id", f"{alias}.chat_id")


async def person_matches(q: Sql, player_id: str, league: str | None, limit: int) -> list[PersonMatch]:
    """The person's ``limit`` newest counted matches (in ``league``, or everywhere), oldest first."""
    rows = await q.rows(
        "SELECT r.table_id, m.chat_id, s.league, s.number, COALESCE(s.counts, 0), m.game, m.finished_at, r.seat, "
        "r.score, r.won, r.left_, o.player_id, COALESCE(p.name, o.player_id), c.rating_before, c.rating_after "
        "FROM match_results r JOIN matches m ON m.table_id = r.table_id "
        "LEFT JOIN season_matches s ON s.table_id = r.table_id "
        "LEFT JOIN rating_changes c ON c.table_id = r.table_id AND c.player_id = r.player_id "
        f"LEFT JOIN match_results o ON o.table_id = r.table_id AND m.game IN {TEAM_GAMES_SQL} "
        "AND o.seat = (r.seat + 2) % 4 AND o.left_ = 0 "
        "LEFT JOIN players p ON p.player_id = o.player_id "
        "WHERE r.player_id = ? AND r.counted = 1 "
        f"AND (CAST(? AS TEXT) IS NULL OR COALESCE(s.league, {_league_sql(q.postgres, 'm')}) = CAST(? AS TEXT)) "
        "ORDER BY m.finished_at DESC, r.table_id DESC LIMIT ?", player_id, league, league, limit)
    out = [PersonMatch(int(r[0]), r[1], r[2], None if r[3] is None else int(r[3]), bool(r[4]), r[5], float(r[6]),
                       int(r[7]), int(r[8]), bool(r[9]), bool(r[10]), r[11], r[12],
                       None if r[13] is None else float(r[13]), None if r[14] is None else float(r[14]))
           for r in rows]
    return out[::-1]


async def person_champions(q: Sql, player_id: str, league: str | None) -> list[ChampionRecord]:
    """The seasons the person won (of ``league``, or of every league), newest first."""
    rows = await q.rows(
        "SELECT c.league, c.number, c.game, c.player_id, COALESCE(p.name, c.player_id), c.rating, c.matches, "
        "c.wins FROM champions c LEFT JOIN players p ON p.player_id = c.player_id WHERE c.player_id = ? "
        "AND (CAST(? AS TEXT) IS NULL OR c.league = CAST(? AS TEXT)) ORDER BY c.number DESC, c.league, c.game",
        player_id, league, league)
    return [ChampionRecord(r[0], int(r[1]), r[2], r[3], r[4], float(r[5]), int(r[6]), int(r[7])) for r in rows]


async def meta_prefixed(q: Sql, prefix: str) -> dict[str, str]:
    """Every meta key that starts with ``prefix`` and its value."""
    rows = await q.rows("SELECT key, value FROM meta WHERE substr(key, 1, ?) = ?", len(prefix), prefix)
    return {str(k): str(v) for k, v in rows}
