"""The repository interface that the table manager uses; memory, SQLite and PostgreSQL implement it.

Refusals and failures are the typed errors of :mod:`storage.errors` (re-exported here), plus
``KeyError`` for a table that does not exist and ``ValueError`` for arguments that disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from storage.errors import (
    DatabaseLocked,
    DatabaseUnavailable,
    NotADatabase,
    ReadOnlyDatabase,
    SchemaMismatch,
    StorageError,
    TableConflict,
    VersionConflict,
)
from storage.records import (
    ActionRecord,
    BoardRecord,
    ChallengeRecord,
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
from storage.rows import Snapshot
from storage.season_store import ChallengeEntry
from storage.tournaments import Tournament

__all__ = [
    "DatabaseLocked",
    "DatabaseUnavailable",
    "NotADatabase",
    "Notifier",
    "ReadOnlyDatabase",
    "Repository",
    "SchemaMismatch",
    "StorageError",
    "TableConflict",
    "VersionConflict",
]


class Notifier(Protocol):
    """What a repository that can wake other processes offers (PostgreSQL's LISTEN/NOTIFY).

    Memory and SQLite have none: who needs to know polls instead.
    """

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(payload)`` for every notification on ``channel`` (from any process,
        this one included), and with ``"*"`` after the listening connection was lost and came
        back (anything may have been missed)."""

    async def notify(self, channel: str, payload: str) -> None:
        """Notify every listener of ``channel``."""


class Repository(Protocol):
    """Durable state of chats, players, tables, action logs, results and ratings.

    Every write method has committed when it returns: the caller tells people only afterwards.
    """

    async def open(self) -> None:
        """Connect and run the numbered migrations."""

    async def close(self) -> None:
        """Release the connection."""

    async def get_meta(self, key: str) -> str | None:
        """An install-wide setting (None when it was never set)."""

    async def set_meta_if_absent(self, key: str, value: str) -> str:
        """Store ``value`` under ``key`` unless a value is there already; return the stored one.

        Atomic: of several processes racing to set a key, all get the one value that won.
        """

    async def delete_meta(self, key: str) -> bool:
        """Forget an install-wide setting; whether it was there."""

    async def get_chat(self, chat_id: str) -> ChatRecord | None: ...
    async def save_chat(self, chat: ChatRecord) -> None: ...

    async def delete_chat(self, chat_id: str) -> bool:
        """Forget a chat's stored settings (a Discord channel then follows its server again).

        True if there was a record to forget.
        """

    async def get_player(self, player_id: str) -> PlayerRecord | None: ...
    async def save_player(self, player: PlayerRecord) -> None: ...

    async def subscribe(self, chat_id: str, player_id: str, on: bool, at: float) -> bool:
        """Ask (``on``) or stop asking to be called when a table opens or a seat frees in ``chat_id``
        (``at``: when, epoch seconds; a renewed subscription keeps its first time). True if it changed."""

    async def subscribers(self, chat_id: str, limit: int = 100) -> list[tuple[str, str]]:
        """Who asked to be called in ``chat_id``: (player id, stored name or ""), oldest first, at most ``limit``."""

    async def create_table(self, table: TableRecord, *, owner: str | None = None,
                           lease_until: float | None = None) -> int:
        """Insert a table (its ``table_id`` is ignored, ``rev`` 0) and return the new id.

        ``owner`` (a process id) holds it until ``lease_until`` (epoch seconds), see ``claim_tables``.
        A chat has at most one live (lobby or playing) table: a live table for a chat that has one
        already raises :class:`~storage.errors.ChatHasLiveTable` (atomic across processes).
        """

    async def save_table(self, table: TableRecord) -> TableRecord:
        """Overwrite a table's row (seats, status, version, deadline, message ids ...); the record at its new rev.

        A compare-and-set: :class:`TableConflict` (nothing written) when the stored ``rev`` is not
        ``table.rev`` (someone else wrote the row since this record was read). Every write of a
        table row below is one too, and returns the record at its new rev for the next write.
        """

    async def get_table(self, table_id: int) -> TableRecord | None: ...

    async def list_tables(self, limit: int | None = None) -> list[TableRecord]:
        """Every table of any status, newest first (highest id first); the first ``limit`` only if given.

        One query, however many tables were ever made (``majlis tables`` lists them);
        ``ValueError`` for a negative ``limit``.
        """

    async def live_tables(self) -> list[TableRecord]:
        """Every table in the lobby or playing, oldest first."""

    async def live_tables_with_logs(self, table_ids: Iterable[int] | None = None,
                                    ) -> list[tuple[TableRecord, Snapshot | None, list[ActionRecord]]]:
        """Every live table (of ``table_ids``, if given) with its latest snapshot and the actions after it.

        Oldest first, in one consistent read: a table's snapshot and tail belong together.
        """

    async def claim_tables(self, owner: str, now: float, lease_seconds: float, limit: int | None = None,
                           chat_prefixes: Sequence[str] | None = None) -> list[int]:
        """Take (at most ``limit``) live tables nobody holds: no owner, or a lease that ended before ``now``;
        only of chats whose id starts with one of ``chat_prefixes``, if given (``("tg:",)``).

        Each is held by ``owner`` until ``now + lease_seconds``; the ids taken, in order. Of processes
        claiming at once, each table goes to one. Leases never change a table's ``rev``.
        """

    async def renew_leases(self, owner: str, now: float, lease_seconds: float) -> list[int]:
        """The heartbeat: extend ``owner``'s leases of its live tables; the ids it still holds."""

    async def release_tables(self, owner: str, table_ids: Iterable[int] | None = None) -> int:
        """Give up ``owner``'s tables (all of them, or ``table_ids``); how many were released."""

    async def table_lease(self, table_id: int) -> tuple[str | None, float | None] | None:
        """(owner, lease end) of a table; None when there is no such table."""

    async def chat_lease(self, chat_id: str) -> tuple[int, str | None, float | None] | None:
        """(table id, owner, lease end) of the chat's newest live table; None when it has none."""

    async def table_route(self, table_id: int) -> tuple[str, str, str | None, float | None] | None:
        """(chat id, status, owner, lease end) of a table; None when there is no such table."""

    # the inbox: commands forwarded to the process that holds their table (bot/core/cluster/routing.py)

    async def inbox_post(self, key: str, table_id: int, sender: str, request: str, now: float) -> int:
        """Post a forwarded command for ``table_id``'s holder; the entry's id.

        Idempotent by ``key``: a command posted again (a retry) is the same entry, left as it is,
        unless that entry expired unapplied, which makes it pending again (with this request).
        """

    async def inbox_take(self, owner: str, now: float) -> list[InboxEntry]:
        """The pending entries of the live tables ``owner`` holds by lease, now taken by it (in order).

        Of processes taking at once, each entry goes to one.
        """

    async def inbox_answer(self, entry_id: int, answer: str, now: float) -> None:
        """The taker's answer: the entry is done."""

    async def inbox_result(self, entry_id: int) -> tuple[str, str | None] | None:
        """(state, answer) of an entry (``storage.records.INBOX_*``); None when there is none."""

    async def inbox_expire(self, entry_id: int) -> bool:
        """The sender gives up: a pending entry expires (never to be applied). False if it was taken."""

    async def inbox_purge(self, before: float) -> int:
        """Forget the entries posted before ``before``; how many."""

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> int:
        """A chat got a new id (Telegram's ChatMigrated): move its settings row, tables, results.

        The new id keeps its own settings if it has some. If it has a live table already, the old
        chat's live table ends first (a lobby is cancelled, a match stopped), so that the chat still
        has one live table. Returns the number of live tables moved.
        """

    async def append_action(self, action: ActionRecord, table: TableRecord) -> TableRecord:
        """In one transaction: append ``action`` and save ``table`` (whose version is action.seq).

        Raises :class:`VersionConflict` when ``action.seq`` is not the log's length + 1.
        """

    async def actions(self, table_id: int, after_seq: int = 0) -> list[ActionRecord]:
        """The table's action log in order, from ``after_seq + 1``."""

    async def save_snapshot(self, table_id: int, seq: int, state: dict[str, Any]) -> None:
        """Keep ``engine`` JSON after ``seq`` actions, so a restore replays only the tail."""

    async def latest_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None: ...

    async def record_match(self, result: MatchResult, table: TableRecord) -> TableRecord:
        """In one transaction: save the finished table, the result rows and updated ratings.

        The match also joins the season of its league that it started in (its first action's time;
        ``storage/seasons.py``), made if missing; when it counts there (people in it, and AI seats only
        where the league allows them), the season's and the league's all-time ratings move with it
        and its rating changes are kept (:meth:`rating_changes`). ``append_final_action`` likewise.

        Idempotent: a match recorded already is left as it is (the table is returned as stored).
        """

    async def append_final_action(self, action: ActionRecord, table: TableRecord,
                                  result: MatchResult) -> TableRecord:
        """In ONE transaction: the match's last action, the finished table, result rows and ratings.

        All or nothing: :class:`VersionConflict` (nothing written) when ``action.seq`` is not the
        next one or the match is recorded already.
        """

    async def leaderboard(self, chat_id: str, game: str, limit: int = 10) -> list[LeaderRow]: ...
    async def player_stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]: ...
    async def table_results(self, table_id: int) -> MatchResult | None: ...

    # seasons: a league (a Telegram group, a Discord server) and its numbered seasons (storage/seasons.py)

    async def get_league(self, league: str) -> LeagueRecord:
        """A league's season settings (the defaults when it never stored any)."""

    async def save_league(self, league: LeagueRecord) -> None: ...

    async def season_at(self, league: str, at: float) -> SeasonRecord:
        """The league's season covering ``at``, made (with any missing before it) if needed.

        Of processes asking at once, each season is made once (the league's row is locked).
        """

    async def seasons(self, league: str) -> list[SeasonRecord]:
        """The league's seasons, oldest first."""

    async def end_season(self, league: str, number: int, now: float) -> SeasonRecord | None:
        """End the league's running season ``number`` at ``now`` (an admin's choice); the season as
        ended, or None when it is not the running last season (ended already, by a race, say)."""

    async def due_seasons(self, now: float) -> list[SeasonRecord]:
        """Every season of any league that has ended by ``now`` and is not closed yet."""

    async def close_season(self, league: str, number: int, now: float) -> SeasonSummary | None:
        """Close an ended season: write its champions and return its summary, exactly once.

        None when it is closed already (another process did it: only one caller ever gets the
        summary), not ended yet, or a match that started in it is still being played (it waits
        for that match up to ``storage.seasons.CLOSE_GRACE`` after its end).
        """

    async def season_board(self, league: str, number: int | None, game: str) -> list[LeaderRow]:
        """Every counted person of season ``number`` (None: all time) in one game, best first."""

    async def champions(self, league: str) -> list[ChampionRecord]:
        """The league's champions, newest season first (then by game)."""

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """What a finished match did to its people's season ratings (empty: it did not count)."""

    # profiles (bot/core/profiles.py)

    async def person_matches(self, player_id: str, league: str | None = None, limit: int = 500,
                             ) -> list[PersonMatch]:
        """The person's ``limit`` newest counted matches, oldest first: in ``league`` (a match
        recorded before seasons were kept belongs to its chat's league), or everywhere (None)."""

    async def person_champions(self, player_id: str, league: str | None = None) -> list[ChampionRecord]:
        """The seasons the person won, of ``league`` or of every league (None), newest first."""

    async def meta_prefixed(self, prefix: str) -> dict[str, str]:
        """Every install-wide setting whose key starts with ``prefix``, by key."""

    # tournaments (storage/tournaments.py): each written whole, a compare-and-set on its rev

    async def create_tournament(self, t: Tournament) -> Tournament:
        """Insert a tournament with its rows (its id is ignored, rev 0); the stored one.

        :class:`~storage.tournaments.TournamentExists` when its chat has an open tournament.
        """

    async def save_tournament(self, t: Tournament) -> Tournament:
        """Write the tournament whole if the stored one is still at ``t.rev``; it at its new rev.

        :class:`~storage.tournaments.TournamentConflict` (nothing written) otherwise: of processes
        advancing a tournament at once, one wins.
        """

    async def get_tournament(self, tournament_id: int) -> Tournament | None: ...

    async def chat_tournament(self, chat_id: str) -> Tournament | None:
        """The chat's open tournament, else its newest one."""

    async def open_tournaments(self) -> list[int]:
        """Every open tournament (registration, check-in, running), oldest first."""

    async def due_tournaments(self, now: float) -> list[int]:
        """The open tournaments whose next pending step (``next_at``) is due by ``now``."""

    # duplicate challenges (storage/challenges.py, bot/core/challenges.py)

    async def create_challenge(self, challenge: ChallengeRecord) -> ChallengeRecord:
        """Store a new open challenge; its id is made here. ``OpenChallengeExists`` if the chat has one."""

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None: ...

    async def chat_challenge(self, chat_id: str) -> ChallengeRecord | None:
        """The chat's newest challenge, open or closed."""

    async def due_challenges(self, now: float) -> list[ChallengeRecord]:
        """Every open challenge whose end has come by ``now``."""

    async def close_challenge(self, challenge_id: int, now: float) -> bool:
        """Close an open challenge; True for the one caller that closed it (exactly once)."""

    async def start_board(self, board: BoardRecord) -> bool:
        """Record that a person plays a board at ``board.table_id``; False if they had started it."""

    async def finish_board(self, board: BoardRecord) -> bool:
        """Write a board's result (``score``, ``tricks``, ``bid``, ``done_at``); True for the one caller
        that wrote it (False: not started, or finished already)."""

    async def challenge_boards(self, challenge_id: int) -> list[BoardRecord]:
        """Every board row of the challenge, by board then person."""

    async def board_of_table(self, table_id: int) -> BoardRecord | None:
        """The board played at the table, if it is a challenge's."""

    async def record_challenge(self, chat_id: str, game: str, started: float, finished: float,
                               entries: list[ChallengeEntry]) -> bool:
        """Count a closed challenge in the season of ``chat_id`` it started in (``started``), once:
        one match per entry and the season's ratings (storage/season_store.py ``record_challenge``);
        False when recorded already (or not kept by this backend)."""
