"""Duplicate challenges in storage: the SQL for SQLite and PostgreSQL, and the memory backend's own.

A challenge (``challenges``) is a chat's set of deals that every member plays at their own time
(``bot/core/challenges.py``); ``challenge_boards`` holds one row per person and deal ("board"): the
table the person plays it at, then its result. A chat has at most one open challenge (a unique index
over the open ones), a board row is made once (its primary key) and finished once (``done_at`` is set
only where it is NULL), and a challenge is closed once (``closed_at`` likewise): of several processes
doing the same step at once, exactly one is told it did it (:func:`close_challenge` answers True to
one of them), so the final ranking is announced once.

Every function takes a :class:`storage.season_store.Sql` (one connection, ``?`` placeholders).
:class:`SqlChallenges` gives a repository the methods from two hooks; :class:`MemoryChallenges` is the
same behaviour in memory.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from storage.errors import StorageError
from storage.records import BoardRecord, ChallengeRecord
from storage.season_store import ChallengeEntry, Row, Sql, record_challenge

T = TypeVar("T")


class OpenChallengeExists(StorageError):
    """The chat has an open challenge already (``challenge_id``: that one, when known)."""

    def __init__(self, chat_id: str, challenge_id: int | None = None) -> None:
        super().__init__(f"chat {chat_id} has an open challenge already")
        self.chat_id = chat_id
        self.challenge_id = challenge_id


_CHALLENGE = ("SELECT challenge_id, chat_id, game, boards, seed, creator, created_at, ends_at, closed_at, lang, "
              "season FROM challenges")
_BOARD = ("SELECT challenge_id, player_id, name, board, table_id, score, tricks, bid, done_at "
          "FROM challenge_boards")


def _challenge(r: Row) -> ChallengeRecord:
    return ChallengeRecord(int(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4]), str(r[5]), float(r[6]),
                           float(r[7]), None if r[8] is None else float(r[8]), r[9], bool(r[10]))


def _opt(v: Any) -> int | None:
    return None if v is None else int(v)


def _board(r: Row) -> BoardRecord:
    return BoardRecord(int(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4]), _opt(r[5]), _opt(r[6]), _opt(r[7]),
                       None if r[8] is None else float(r[8]))


async def create_challenge(s: Sql, c: ChallengeRecord) -> ChallengeRecord:
    """Store a new open challenge (its id is made here); :class:`OpenChallengeExists` if the chat has one."""
    found = await s.one(f"{_CHALLENGE} WHERE chat_id = ? AND closed_at IS NULL", c.chat_id)
    if found is not None:
        raise OpenChallengeExists(c.chat_id, int(found[0]))
    try:
        row = await s.one("INSERT INTO challenges (chat_id, game, boards, seed, creator, created_at, ends_at, "
                          "closed_at, lang, season) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?) RETURNING challenge_id",
                          c.chat_id, c.game, c.boards, c.seed, c.creator, c.created_at, c.ends_at, c.lang,
                          int(c.season))
    except Exception as e:  # the unique index of the open ones: another process opened one at once
        if type(e).__name__ in ("IntegrityError", "UniqueViolationError"):
            raise OpenChallengeExists(c.chat_id) from None
        raise
    assert row is not None
    return dataclasses.replace(c, challenge_id=int(row[0]), closed_at=None)


async def get_challenge(s: Sql, challenge_id: int) -> ChallengeRecord | None:
    row = await s.one(f"{_CHALLENGE} WHERE challenge_id = ?", challenge_id)
    return None if row is None else _challenge(row)


async def chat_challenge(s: Sql, chat_id: str) -> ChallengeRecord | None:
    row = await s.one(f"{_CHALLENGE} WHERE chat_id = ? ORDER BY challenge_id DESC LIMIT 1", chat_id)
    return None if row is None else _challenge(row)


async def due_challenges(s: Sql, now: float) -> list[ChallengeRecord]:
    rows = await s.rows(f"{_CHALLENGE} WHERE closed_at IS NULL AND ends_at <= ? ORDER BY challenge_id", now)
    return [_challenge(r) for r in rows]


async def close_challenge(s: Sql, challenge_id: int, now: float) -> bool:
    row = await s.one("UPDATE challenges SET closed_at = ? WHERE challenge_id = ? AND closed_at IS NULL "
                      "RETURNING challenge_id", now, challenge_id)
    return row is not None


async def start_board(s: Sql, b: BoardRecord) -> bool:
    row = await s.one("INSERT INTO challenge_boards (challenge_id, player_id, name, board, table_id) "
                      "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING board",
                      b.challenge_id, b.player_id, b.name, b.board, b.table_id)
    return row is not None


async def finish_board(s: Sql, b: BoardRecord) -> bool:
    row = await s.one("UPDATE challenge_boards SET score = ?, tricks = ?, bid = ?, done_at = ? "
                      "WHERE challenge_id = ? AND player_id = ? AND board = ? AND done_at IS NULL RETURNING board",
                      b.score, b.tricks, b.bid, b.done_at, b.challenge_id, b.player_id, b.board)
    return row is not None


async def challenge_boards(s: Sql, challenge_id: int) -> list[BoardRecord]:
    rows = await s.rows(f"{_BOARD} WHERE challenge_id = ? ORDER BY board, player_id", challenge_id)
    return [_board(r) for r in rows]


async def board_of_table(s: Sql, table_id: int) -> BoardRecord | None:
    row = await s.one(f"{_BOARD} WHERE table_id = ?", table_id)
    return None if row is None else _board(row)


class SqlChallenges:
    """The challenge methods of a SQL repository, from its ``_challenge_read`` and ``_challenge_write``."""

    async def _challenge_read(self, fn: Callable[[Sql], Awaitable[T]]) -> T:
        raise NotImplementedError

    async def _challenge_write(self, fn: Callable[[Sql], Awaitable[T]]) -> T:
        raise NotImplementedError

    async def create_challenge(self, challenge: ChallengeRecord) -> ChallengeRecord:
        return await self._challenge_write(lambda s: create_challenge(s, challenge))

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        return await self._challenge_read(lambda s: get_challenge(s, challenge_id))

    async def chat_challenge(self, chat_id: str) -> ChallengeRecord | None:
        return await self._challenge_read(lambda s: chat_challenge(s, chat_id))

    async def due_challenges(self, now: float) -> list[ChallengeRecord]:
        return await self._challenge_read(lambda s: due_challenges(s, now))

    async def close_challenge(self, challenge_id: int, now: float) -> bool:
        return await self._challenge_write(lambda s: close_challenge(s, challenge_id, now))

    async def start_board(self, board: BoardRecord) -> bool:
        return await self._challenge_write(lambda s: start_board(s, board))

    async def finish_board(self, board: BoardRecord) -> bool:
        return await self._challenge_write(lambda s: finish_board(s, board))

    async def challenge_boards(self, challenge_id: int) -> list[BoardRecord]:
        return await self._challenge_read(lambda s: challenge_boards(s, challenge_id))

    async def board_of_table(self, table_id: int) -> BoardRecord | None:
        return await self._challenge_read(lambda s: board_of_table(s, table_id))

    async def record_challenge(self, chat_id: str, game: str, started: float, finished: float,
                               entries: list[ChallengeEntry]) -> bool:
        return await self._challenge_write(lambda s: record_challenge(s, chat_id, game, started, finished, entries))


class MemoryChallenges:
    """The same methods in memory (the memory repository's); each checks before it changes anything."""

    def __init__(self) -> None:
        self._challenges: dict[int, ChallengeRecord] = {}
        self._boards: dict[tuple[int, str, int], BoardRecord] = {}

    async def create_challenge(self, challenge: ChallengeRecord) -> ChallengeRecord:
        for c in self._challenges.values():
            if c.chat_id == challenge.chat_id and c.closed_at is None:
                raise OpenChallengeExists(challenge.chat_id, c.challenge_id)
        new = dataclasses.replace(challenge, challenge_id=max(self._challenges, default=0) + 1, closed_at=None)
        self._challenges[new.challenge_id] = new
        return new

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        return self._challenges.get(challenge_id)

    async def chat_challenge(self, chat_id: str) -> ChallengeRecord | None:
        mine = [c for c in self._challenges.values() if c.chat_id == chat_id]
        return max(mine, key=lambda c: c.challenge_id, default=None)

    async def due_challenges(self, now: float) -> list[ChallengeRecord]:
        return sorted((c for c in self._challenges.values() if c.closed_at is None and c.ends_at <= now),
                      key=lambda c: c.challenge_id)

    async def close_challenge(self, challenge_id: int, now: float) -> bool:
        c = self._challenges.get(challenge_id)
        if c is None or c.closed_at is not None:
            return False
        self._challenges[challenge_id] = dataclasses.replace(c, closed_at=float(now))
        return True

    async def start_board(self, board: BoardRecord) -> bool:
        key = (board.challenge_id, board.player_id, board.board)
        if board.challenge_id not in self._challenges:
            raise KeyError(board.challenge_id)
        if key in self._boards:
            return False
        self._boards[key] = dataclasses.replace(board, score=None, tricks=None, bid=None, done_at=None)
        return True

    async def finish_board(self, board: BoardRecord) -> bool:
        key = (board.challenge_id, board.player_id, board.board)
        old = self._boards.get(key)
        if old is None or old.done_at is not None:
            return False
        self._boards[key] = dataclasses.replace(old, score=board.score, tricks=board.tricks, bid=board.bid,
                                                done_at=board.done_at)
        return True

    async def challenge_boards(self, challenge_id: int) -> list[BoardRecord]:
        return sorted((b for b in self._boards.values() if b.challenge_id == challenge_id),
                      key=lambda b: (b.board, b.player_id))

    async def board_of_table(self, table_id: int) -> BoardRecord | None:
        return next((b for b in self._boards.values() if b.table_id == table_id), None)

    async def record_challenge(self, chat_id: str, game: str, started: float, finished: float,
                               entries: list[ChallengeEntry]) -> bool:
        """Not kept in memory: the memory backend (the terminal's) has no groups, so no challenges
        to count in a season; False (nothing recorded)."""
        return False
