"""An in-memory repository with exactly the behaviour of the SQLite one, for fast tests.

Records are kept as the rows SQLite would hold (the codecs of ``storage.rows``, JSON text for
the dicts), so what comes back is what the file gives back: fresh copies, JSON-shaped (tuples become
lists, keys become strings), and anything JSON cannot hold is refused the same way. Each method
checks everything before it changes anything and never awaits in between, so two calls from one
event loop never interleave and a refused write leaves nothing behind.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from storage.challenges import MemoryChallenges
from storage.errors import ChatHasLiveTable, TableConflict, VersionConflict
from storage.ratings import GLOBAL, TEAM_GAMES, Rating, is_ai, rate_match, rated_players, unique_results
from storage.records import (
    CANCELLED,
    INBOX_DONE,
    INBOX_EXPIRED,
    INBOX_PENDING,
    INBOX_TAKEN,
    LIVE_STATUSES,
    PLAYING,
    STOPPED,
    ActionRecord,
    ChampionRecord,
    ChatRecord,
    InboxEntry,
    LeaderRow,
    LeagueRecord,
    MatchResult,
    PersonMatch,
    PlayerRecord,
    PlayerStats,
    RatingChange,
    SeasonRecord,
    SeasonSummary,
    TableRecord,
)
from storage.rows import (
    Row,
    Snapshot,
    action_from,
    action_row,
    chat_from,
    chat_row,
    check_append,
    check_result,
    dumps,
    leader_order,
    player_from,
    player_row,
    table_from,
    table_row,
)
from storage.seasons import (
    CLOSE_GRACE,
    SeasonRow,
    board,
    counts_in_season,
    league_of,
    locate,
    season_scope,
    summarize,
)
from storage.tournaments import MemoryTournaments

RatingKey = tuple[str, str, str]  # (scope: chat id or GLOBAL, game, player id)


class MemoryRepository(MemoryTournaments, MemoryChallenges):
    """The :class:`storage.repository.Repository` kept in dicts."""

    def __init__(self) -> None:
        MemoryTournaments.__init__(self)
        MemoryChallenges.__init__(self)
        self._chats: dict[str, Row] = {}
        self._players: dict[str, Row] = {}
        self._subscriptions: dict[tuple[str, str], float] = {}  # (chat, player) -> since
        self._tables: dict[int, Row] = {}
        self._logs: dict[int, list[Row]] = {}
        self._snapshots: dict[int, tuple[int, str]] = {}
        self._matches: dict[int, tuple[MatchResult, str]] = {}
        self._ratings: dict[RatingKey, Rating] = {}
        self._meta: dict[str, str] = {}
        self._leases: dict[int, tuple[str | None, float | None]] = {}  # table id -> (owner, until)
        self._next_id = 1
        # the inbox: entry id -> [key, table_id, sender, request, state, taker, answer, created_at]
        self._inbox: dict[int, list[Any]] = {}
        self._inbox_keys: dict[str, int] = {}
        # seasons (storage/seasons.py)
        self._leagues: dict[str, LeagueRecord] = {}
        self._seasons: dict[str, list[SeasonRecord]] = {}  # league -> its seasons in number order
        self._season_matches: dict[int, tuple[str, int, bool]] = {}  # table id -> (league, number, counts)
        self._changes: dict[int, list[RatingChange]] = {}
        self._champions: dict[tuple[str, int, str], ChampionRecord] = {}

    async def open(self) -> None:
        """Nothing to connect or migrate (the repository works without it)."""

    async def close(self) -> None:
        """Keeps the data: a closed memory repository may be opened again, like a reopened file."""

    # install-wide settings

    async def get_meta(self, key: str) -> str | None:
        return self._meta.get(key)

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        return self._meta.setdefault(str(key), str(value))

    async def delete_meta(self, key: str) -> bool:
        return self._meta.pop(key, None) is not None

    # chats and players

    async def get_chat(self, chat_id: str) -> ChatRecord | None:
        row = self._chats.get(chat_id)
        return None if row is None else chat_from(row)

    async def save_chat(self, chat: ChatRecord) -> None:
        self._chats[chat.chat_id] = chat_row(chat)

    async def delete_chat(self, chat_id: str) -> bool:
        return self._chats.pop(chat_id, None) is not None

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        row = self._players.get(player_id)
        return None if row is None else player_from(row)

    async def save_player(self, player: PlayerRecord) -> None:
        self._players[player.player_id] = player_row(player)

    async def subscribe(self, chat_id: str, player_id: str, on: bool, at: float) -> bool:
        key = (chat_id, player_id)
        if on:
            if key in self._subscriptions:
                return False
            self._subscriptions[key] = float(at)
            return True
        return self._subscriptions.pop(key, None) is not None

    async def subscribers(self, chat_id: str, limit: int = 100) -> list[tuple[str, str]]:
        found = sorted((since, pid) for (chat, pid), since in self._subscriptions.items() if chat == chat_id)
        out = []
        for _, pid in found[:max(0, limit)]:
            row = self._players.get(pid)
            out.append((pid, "" if row is None else str(row[1])))
        return out

    def _name(self, player_id: str) -> str:
        row = self._players.get(player_id)
        return player_id if row is None else str(row[1])

    # tables and their logs

    async def create_table(self, table: TableRecord, *, owner: str | None = None,
                           lease_until: float | None = None) -> int:
        table_id = self._next_id
        row = table_row(replace(table, table_id=table_id, rev=0))
        if table.status in LIVE_STATUSES:  # at most one live table per chat, as the SQL backends' index
            live = self._live_in_chat(table.chat_id)
            if live is not None:
                raise ChatHasLiveTable(table.chat_id, live)
        self._next_id += 1
        self._tables[table_id] = row
        self._leases[table_id] = (owner, lease_until)
        self._logs[table_id] = []
        return table_id

    def _live_in_chat(self, chat_id: str) -> int | None:
        for table_id, trow in self._tables.items():
            if trow[1] == chat_id and trow[7] in LIVE_STATUSES:
                return table_id
        return None

    async def save_table(self, table: TableRecord) -> TableRecord:
        table_row(table)  # refuses what JSON cannot hold before anything is checked
        new, row = self._next_rev(table)
        self._tables[table.table_id] = row
        return new

    def _next_rev(self, table: TableRecord) -> tuple[TableRecord, Row]:
        """``table`` at the next rev and its row, if its rev is the stored one (else :class:`TableConflict`)."""
        stored = self._tables.get(table.table_id)
        if stored is None:
            raise KeyError(table.table_id)
        if stored[-1] != table.rev:
            raise TableConflict(table.table_id, table.rev, stored[-1])
        new = replace(table, rev=table.rev + 1)
        return new, table_row(new)

    async def get_table(self, table_id: int) -> TableRecord | None:
        row = self._tables.get(table_id)
        return None if row is None else table_from(row)

    async def list_tables(self, limit: int | None = None) -> list[TableRecord]:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be at least 0, not {limit}")
        newest = sorted(self._tables, reverse=True)[:limit]
        return [table_from(self._tables[tid]) for tid in newest]

    async def live_tables(self) -> list[TableRecord]:
        live = [table_from(row) for _, row in sorted(self._tables.items())]
        return [t for t in live if t.status in LIVE_STATUSES]

    async def live_tables_with_logs(self, table_ids: Iterable[int] | None = None,
                                    ) -> list[tuple[TableRecord, Snapshot | None, list[ActionRecord]]]:
        """Every live table (of ``table_ids``, if given) with its latest snapshot and the actions after it."""
        only = None if table_ids is None else set(table_ids)
        out = []
        for table in await self.live_tables():
            if only is not None and table.table_id not in only:
                continue
            snap = await self.latest_snapshot(table.table_id)
            out.append((table, snap, await self.actions(table.table_id, snap[0] if snap else 0)))
        return out

    # leases: which process runs which table

    def _live_ids(self) -> list[int]:
        return [tid for tid, row in sorted(self._tables.items()) if table_from(row).status in LIVE_STATUSES]

    async def claim_tables(self, owner: str, now: float, lease_seconds: float, limit: int | None = None,
                           chat_prefixes: Sequence[str] | None = None) -> list[int]:
        """Take the live tables that nobody holds (no owner, or a lease ended before ``now``)."""
        prefixes = None if chat_prefixes is None else tuple(chat_prefixes)
        free = [tid for tid in self._live_ids()
                if (self._leases[tid][0] is None or (self._leases[tid][1] or 0.0) < now)
                and (prefixes is None or str(self._tables[tid][1]).startswith(prefixes))]
        taken = free if limit is None else free[:limit]
        for tid in taken:
            self._leases[tid] = (owner, now + lease_seconds)
        return taken

    async def renew_leases(self, owner: str, now: float, lease_seconds: float) -> list[int]:
        """Extend ``owner``'s leases of its live tables; the ids it still holds."""
        mine = [tid for tid in self._live_ids() if self._leases[tid][0] == owner]
        for tid in mine:
            self._leases[tid] = (owner, now + lease_seconds)
        return mine

    async def release_tables(self, owner: str, table_ids: Iterable[int] | None = None) -> int:
        """Give up ``owner``'s tables (all, or ``table_ids``): another process may take them at once."""
        only = None if table_ids is None else set(table_ids)
        mine = [tid for tid, (who, _) in self._leases.items() if who == owner and (only is None or tid in only)]
        for tid in mine:
            self._leases[tid] = (None, None)
        return len(mine)

    async def table_lease(self, table_id: int) -> tuple[str | None, float | None] | None:
        """Who holds the table and until when (None: no such table)."""
        return self._leases.get(table_id)

    async def chat_lease(self, chat_id: str) -> tuple[int, str | None, float | None] | None:
        """(table id, owner, lease end) of the chat's newest live table."""
        for tid in reversed(self._live_ids()):
            if self._tables[tid][1] == chat_id:
                owner, until = self._leases[tid]
                return tid, owner, until
        return None

    async def table_route(self, table_id: int) -> tuple[str, str, str | None, float | None] | None:
        """(chat id, status, owner, lease end) of a table."""
        row = self._tables.get(table_id)
        if row is None:
            return None
        t = table_from(row)
        owner, until = self._leases[table_id]
        return t.chat_id, t.status, owner, until

    # the inbox of forwarded commands

    async def inbox_post(self, key: str, table_id: int, sender: str, request: str, now: float) -> int:
        entry_id = self._inbox_keys.get(key)
        if entry_id is not None:
            entry = self._inbox[entry_id]
            if entry[4] == INBOX_EXPIRED:
                entry[2:8] = [sender, request, INBOX_PENDING, None, None, now]
            return entry_id
        entry_id = self._inbox_keys[key] = max(self._inbox, default=0) + 1
        self._inbox[entry_id] = [key, table_id, sender, request, INBOX_PENDING, None, None, now]
        return entry_id

    async def inbox_take(self, owner: str, now: float) -> list[InboxEntry]:
        live = set(self._live_ids())
        out = []
        for entry_id, e in sorted(self._inbox.items()):
            if e[4] == INBOX_PENDING and e[1] in live and self._leases[e[1]][0] == owner:
                e[4], e[5] = INBOX_TAKEN, owner
                out.append(InboxEntry(entry_id, e[1], e[2], e[3]))
        return out

    async def inbox_answer(self, entry_id: int, answer: str, now: float) -> None:
        entry = self._inbox.get(entry_id)
        if entry is not None and entry[4] == INBOX_TAKEN:
            entry[4], entry[6] = INBOX_DONE, answer

    async def inbox_result(self, entry_id: int) -> tuple[str, str | None] | None:
        entry = self._inbox.get(entry_id)
        return None if entry is None else (entry[4], entry[6])

    async def inbox_expire(self, entry_id: int) -> bool:
        entry = self._inbox.get(entry_id)
        if entry is None or entry[4] != INBOX_PENDING:
            return False
        entry[4] = INBOX_EXPIRED
        return True

    async def inbox_purge(self, before: float) -> int:
        old = [i for i, e in self._inbox.items() if e[7] < before]
        for entry_id in old:
            self._inbox_keys.pop(self._inbox.pop(entry_id)[0], None)
        return len(old)

    async def append_action(self, action: ActionRecord, table: TableRecord) -> TableRecord:
        check_append(action, table)
        arow, _ = action_row(action), table_row(table)
        log = self._next_seq(action)
        new, trow = self._next_rev(table)
        log.append(arow)
        self._tables[table.table_id] = trow
        return new

    def _next_seq(self, action: ActionRecord) -> list[Row]:
        """The table's log, if ``action.seq`` is its next seq (else :class:`VersionConflict`)."""
        log = self._logs.get(action.table_id)
        if log is None:
            raise KeyError(action.table_id)
        if action.seq != len(log) + 1:
            raise VersionConflict(f"table {action.table_id}: seq {action.seq}, log has {len(log)}")
        return log

    async def actions(self, table_id: int, after_seq: int = 0) -> list[ActionRecord]:
        return [action_from(row) for row in self._logs.get(table_id, [])[max(after_seq, 0):]]

    async def save_snapshot(self, table_id: int, seq: int, state: dict[str, Any]) -> None:
        text = dumps(state)
        log = self._logs.get(table_id)
        if log is None:
            raise KeyError(table_id)
        if not 0 <= seq <= len(log):
            raise ValueError(f"table {table_id}: snapshot at seq {seq}, log has {len(log)}")
        current = self._snapshots.get(table_id)
        if current is None or seq >= current[0]:
            self._snapshots[table_id] = (seq, text)

    async def latest_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None:
        snap = self._snapshots.get(table_id)
        return None if snap is None else (snap[0], json.loads(snap[1]))

    # results and ratings

    async def record_match(self, result: MatchResult, table: TableRecord) -> TableRecord:
        """Idempotent: a table whose match is already recorded is left as it is (and returned as stored)."""
        check_result(result, table)
        _, scores = table_row(table), dumps(result.scores)
        if table.table_id not in self._tables:
            raise KeyError(table.table_id)
        if result.table_id in self._matches:
            return table_from(self._tables[table.table_id])
        new, trow = self._next_rev(table)
        updates = self._rated(result)
        log = self._logs.get(table.table_id) or []
        season = self._season_plan(result, float(log[0][5]) if log else result.finished_at, updates)
        self._matches[result.table_id] = (replace(result, results=tuple(result.results), scores={}), scores)
        self._tables[table.table_id] = trow
        self._ratings.update(updates)
        season()
        return new

    async def append_final_action(self, action: ActionRecord, table: TableRecord,
                                  result: MatchResult) -> TableRecord:
        """The match's last action, the finished table, its result and the ratings, all or nothing."""
        check_append(action, table)
        check_result(result, table)
        arow, _, scores = action_row(action), table_row(table), dumps(result.scores)
        log = self._next_seq(action)
        if result.table_id in self._matches:
            raise VersionConflict(f"table {action.table_id}: its match is recorded already")
        new, trow = self._next_rev(table)
        updates = self._rated(result)
        season = self._season_plan(result, float(log[0][5]) if log else action.at, updates)
        log.append(arow)
        self._matches[result.table_id] = (replace(result, results=tuple(result.results), scores={}), scores)
        self._tables[table.table_id] = trow
        self._ratings.update(updates)
        season()
        return new

    def _rated(self, result: MatchResult) -> dict[RatingKey, Rating]:
        """The new ratings that ``result`` gives, in the chat's scope and the global one."""
        updates: dict[RatingKey, Rating] = {}
        for scope in (result.chat_id, GLOBAL):
            current = {
                pid: self._ratings.get((scope, result.game, pid), Rating())
                for pid in rated_players(result.results)
            }
            for pid, rating in rate_match(result.game, result.results, current).items():
                updates[(scope, result.game, pid)] = rating
        return updates

    # seasons

    def _league_of(self, chat_id: str) -> str:
        return league_of(chat_id, self._meta.get(f"parent:{chat_id}"))

    def _league(self, league: str) -> LeagueRecord:
        return self._leagues.get(league) or LeagueRecord(league)

    def _season_plan(self, result: MatchResult, started: float, updates: dict[RatingKey, Rating]) -> Callable[[], None]:
        """Add the season and all-time ratings of ``result`` to ``updates``; the function that, called
        once the match is written, stores its season, its rating changes and any new season."""
        league = self._league_of(result.chat_id)
        settings = self._league(league)
        season, created = locate(self._seasons.get(league, []), league, started, settings.length_days)
        counts = counts_in_season(result.results, settings.ai_counts)
        changes: list[RatingChange] = []
        if counts:
            people = rated_players(result.results)
            for number in (None, season.number):
                scope = season_scope(league, number)
                current = {pid: self._ratings.get((scope, result.game, pid), Rating()) for pid in people}
                for pid, rating in rate_match(result.game, result.results, current).items():
                    updates[(scope, result.game, pid)] = rating
                    if number is not None:
                        played = self._season_played(league, season.number, result.game, pid) + 1
                        changes.append(RatingChange(pid, current[pid].display, rating.display, played))

        def store() -> None:
            self._seasons.setdefault(league, []).extend(created)
            self._season_matches[result.table_id] = (league, season.number, counts)
            if changes:
                self._changes[result.table_id] = sorted(changes, key=lambda c: c.player_id)

        return store

    def _season_played(self, league: str, number: int, game: str, player_id: str) -> int:
        return sum(1 for r in self._season_rows(league, number) if r.game == game and r.player_id == player_id)

    def _season_rows(self, league: str, number: int | None) -> list[SeasonRow]:
        out = []
        for table_id, (lg, n, counts) in sorted(self._season_matches.items()):
            if lg != league or not counts or (number is not None and n != number):
                continue
            m = self._matches[table_id][0]
            out += [SeasonRow(table_id, m.chat_id, m.game, m.finished_at, r.player_id, r.seat, r.won, r.left)
                    for r in unique_results(m.results) if not is_ai(r.player_id)]
        return out

    async def get_league(self, league: str) -> LeagueRecord:
        return self._league(league)

    async def save_league(self, league: LeagueRecord) -> None:
        self._leagues[league.league] = league

    async def season_at(self, league: str, at: float) -> SeasonRecord:
        season, created = locate(self._seasons.get(league, []), league, at, self._league(league).length_days)
        self._seasons.setdefault(league, []).extend(created)
        return season

    async def seasons(self, league: str) -> list[SeasonRecord]:
        return list(self._seasons.get(league, []))

    async def end_season(self, league: str, number: int, now: float) -> SeasonRecord | None:
        seasons = self._seasons.get(league, [])
        if not seasons or seasons[-1].number != number or seasons[-1].closed_at is not None \
                or not seasons[-1].starts_at <= now < seasons[-1].ends_at:
            return None
        seasons[-1] = replace(seasons[-1], ends_at=now)
        return seasons[-1]

    async def due_seasons(self, now: float) -> list[SeasonRecord]:
        return sorted((s for seasons in self._seasons.values() for s in seasons
                       if s.closed_at is None and s.ends_at <= now), key=lambda s: (s.ends_at, s.league, s.number))

    async def close_season(self, league: str, number: int, now: float) -> SeasonSummary | None:
        seasons = self._seasons.get(league, [])
        found = [i for i, s in enumerate(seasons) if s.number == number]
        if not found:
            return None
        season = seasons[found[0]]
        if season.closed_at is not None or season.ends_at > now:
            return None
        if now < season.ends_at + CLOSE_GRACE and any(
                self._league_of(t.chat_id) == league and t.status == PLAYING
                and float(self._logs[t.table_id][0][5] if self._logs.get(t.table_id) else t.created_at)
                < season.ends_at
                for t in map(table_from, self._tables.values())):
            return None  # a match that started in it is still being played
        season = seasons[found[0]] = replace(season, closed_at=now)
        summary = self._summary(season)
        for c in summary.champions:
            self._champions[(league, number, c.game)] = c
        return summary

    def _summary(self, season: SeasonRecord) -> SeasonSummary:
        rows = self._season_rows(season.league, season.number)
        scope = season_scope(season.league, season.number)
        ratings = {(g, p): r.display for (sc, g, p), r in self._ratings.items() if sc == scope}
        names = {r.player_id: self._name(r.player_id) for r in rows}
        return summarize(season, rows, ratings, names, self._league(season.league).min_matches)

    async def season_board(self, league: str, number: int | None, game: str) -> list[LeaderRow]:
        rows = self._season_rows(league, number)
        scope = season_scope(league, number)
        ratings = {(g, p): r.display for (sc, g, p), r in self._ratings.items() if sc == scope}
        return board(rows, ratings, {r.player_id: self._name(r.player_id) for r in rows}, game)

    async def champions(self, league: str) -> list[ChampionRecord]:
        return [replace(c, name=self._name(c.player_id)) for key, c in
                sorted(self._champions.items(), key=lambda kv: (-kv[0][1], kv[0][2])) if key[0] == league]

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        kept = self._season_matches.get(table_id)
        least = self._league(kept[0]).min_matches if kept else LeagueRecord("").min_matches
        return [replace(c, min_matches=least) for c in self._changes.get(table_id, [])]

    async def person_matches(self, player_id: str, league: str | None = None, limit: int = 500,
                             ) -> list[PersonMatch]:
        out = []
        for table_id, (m, _) in self._matches.items():
            kept = self._season_matches.get(table_id)
            if league is not None and (kept[0] if kept else self._league_of(m.chat_id)) != league:
                continue
            mine = next((r for r in unique_results(m.results) if r.player_id == player_id), None)
            if mine is None:
                continue
            partner = None
            if m.game in TEAM_GAMES:
                partner = next((r.player_id for r in m.results if r.seat == (mine.seat + 2) % 4 and not r.left), None)
            change = next((c for c in self._changes.get(table_id, []) if c.player_id == player_id), None)
            out.append(PersonMatch(
                table_id, m.chat_id, kept[0] if kept else None, kept[1] if kept else None, bool(kept and kept[2]),
                m.game, m.finished_at, mine.seat, mine.score, mine.won, mine.left, partner,
                None if partner is None else self._name(partner),
                None if change is None else change.before, None if change is None else change.after))
        out.sort(key=lambda p: (p.finished_at, p.table_id))
        return out[-limit:] if limit > 0 else []

    async def person_champions(self, player_id: str, league: str | None = None) -> list[ChampionRecord]:
        return [replace(c, name=self._name(c.player_id)) for key, c in
                sorted(self._champions.items(), key=lambda kv: (-kv[0][1], kv[0][0], kv[0][2]))
                if c.player_id == player_id and (league is None or key[0] == league)]

    async def meta_prefixed(self, prefix: str) -> dict[str, str]:
        return {k: v for k, v in self._meta.items() if k.startswith(prefix)}

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> int:
        """The chat got a new id: its settings (unless the new id has its own), tables, matches, ratings."""
        if old_chat_id == new_chat_id:
            raise ValueError(f"moving chat {old_chat_id!r} onto itself")
        row = self._chats.pop(old_chat_id, None)
        if row is not None and new_chat_id not in self._chats:
            self._chats[new_chat_id] = (new_chat_id, *row[1:])
        live = 0
        end = self._live_in_chat(new_chat_id) is not None  # the new chat keeps its own live table
        for table_id, trow in list(self._tables.items()):
            table = table_from(trow)
            if table.chat_id == old_chat_id and end and table.status in LIVE_STATUSES:
                table = replace(table, status=STOPPED if table.status == PLAYING else CANCELLED, deadline=None,
                                lobby_deadline=None, warned=False, rev=table.rev + 1)
            if table.chat_id == old_chat_id:
                live += table.status in LIVE_STATUSES
                self._tables[table_id] = table_row(replace(table, chat_id=new_chat_id, rev=table.rev + 1))
        for table_id, (m, scores) in list(self._matches.items()):
            if m.chat_id == old_chat_id:
                self._matches[table_id] = (replace(m, chat_id=new_chat_id), scores)
        for key in [k for k in self._ratings if k[0] == old_chat_id]:
            rating = self._ratings.pop(key)
            self._ratings.setdefault((new_chat_id, key[1], key[2]), rating)
        for chat, pid in [k for k in self._subscriptions if k[0] == old_chat_id]:
            since = self._subscriptions.pop((chat, pid))
            self._subscriptions.setdefault((new_chat_id, pid), since)
        return live

    async def leaderboard(self, chat_id: str, game: str, limit: int = 10) -> list[LeaderRow]:
        """A chat's board for one game; ``chat_id`` ``"*"`` (``ratings.GLOBAL``) spans every chat."""
        tally = self._tally(None if chat_id == GLOBAL else chat_id, game)
        rows = []
        for pid, (matches, wins, _left, _score) in tally.items():
            rating = self._ratings.get((chat_id, game, pid), Rating())
            rows.append(LeaderRow(pid, self._name(pid), matches, wins, rating.display))
        rows.sort(key=leader_order)
        return rows[:limit]

    async def player_stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]:
        games = sorted({m.game for m, _ in self._matches.values()
                        if chat_id is None or m.chat_id == chat_id})
        out = []
        scope = GLOBAL if chat_id is None else chat_id
        for game in games:
            mine = self._tally(chat_id, game).get(player_id)
            if mine is None:
                continue
            matches, wins, left, score = mine
            rating = self._ratings.get((scope, game, player_id), Rating())
            out.append(PlayerStats(game, matches, wins, left, rating.display, score))
        return out

    async def table_results(self, table_id: int) -> MatchResult | None:
        kept = self._matches.get(table_id)
        return None if kept is None else replace(kept[0], scores=json.loads(kept[1]))

    def _tally(self, chat_id: str | None, game: str) -> dict[str, tuple[int, int, int, int]]:
        """Per person: (matches, wins, matches left, total score) in a chat (None: everywhere)."""
        tally: dict[str, tuple[int, int, int, int]] = {}
        for m, _ in self._matches.values():
            if m.game != game or (chat_id is not None and m.chat_id != chat_id):
                continue
            for r in unique_results(m.results):
                if is_ai(r.player_id):
                    continue
                matches, wins, left, score = tally.get(r.player_id, (0, 0, 0, 0))
                tally[r.player_id] = (matches + 1, wins + int(r.won and not r.left),
                                      left + int(r.left), score + r.score)
        return tally

