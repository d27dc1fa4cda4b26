"""The repository interface that the table manager uses; SQLite and memory implement it."""

from __future__ import annotations

from typing import Any, Protocol

from storage.records import (
    ActionRecord,
    ChatRecord,
    LeaderRow,
    MatchResult,
    PlayerRecord,
    PlayerStats,
    TableRecord,
)


class VersionConflict(Exception):
    """``append_action`` was given a seq that is not the table's next one (a double apply)."""


class Repository(Protocol):
    """Durable state of chats, players, tables, action logs, results and ratings.

    Every write method has committed when it returns: the caller tells people only afterwards.
    """

    async def open(self) -> None:
        """Connect and run the numbered migrations."""

    async def close(self) -> None:
        """Release the connection."""

    async def get_chat(self, chat_id: str) -> ChatRecord | None: ...
    async def save_chat(self, chat: ChatRecord) -> None: ...
    async def get_player(self, player_id: str) -> PlayerRecord | None: ...
    async def save_player(self, player: PlayerRecord) -> None: ...

    async def create_table(self, table: TableRecord) -> int:
        """Insert a table (its ``table_id`` is ignored) and return the new id."""

    async def save_table(self, table: TableRecord) -> None:
        """Overwrite a table's row (seats, status, version, deadline, message ids ...)."""

    async def get_table(self, table_id: int) -> TableRecord | None: ...

    async def live_tables(self) -> list[TableRecord]:
        """Every table in the lobby or playing, oldest first."""

    async def append_action(self, action: ActionRecord, table: TableRecord) -> None:
        """In one transaction: append ``action`` and save ``table`` (whose version is action.seq).

        Raises :class:`VersionConflict` when ``action.seq`` is not the log's length + 1.
        """

    async def actions(self, table_id: int, after_seq: int = 0) -> list[ActionRecord]:
        """The table's action log in order, from ``after_seq + 1``."""

    async def save_snapshot(self, table_id: int, seq: int, state: dict[str, Any]) -> None:
        """Keep ``engine`` JSON after ``seq`` actions, so a restore replays only the tail."""

    async def latest_snapshot(self, table_id: int) -> tuple[int, dict[str, Any]] | None: ...

    async def record_match(self, result: MatchResult, table: TableRecord) -> None:
        """In one transaction: save the finished table, the result rows and updated ratings."""

    async def leaderboard(self, chat_id: str, game: str, limit: int = 10) -> list[LeaderRow]: ...
    async def player_stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]: ...
    async def table_results(self, table_id: int) -> MatchResult | None: ...
