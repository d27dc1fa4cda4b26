"""A live table in memory: its storage record, its engine state, its lock and its due times."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from bot.core.identity import ai_seat_id, is_human_id
from bot.core.model import TableSnapshot, live_snapshot
from engine import Game
from storage.records import LIVE_STATUSES, PLAYING, MatchResult, PlayerResult, Seat, TableRecord

EMPTY = Seat()


@dataclass(eq=False)
class Table:
    """The manager's runtime view of one table. Only the manager mutates it, under ``lock``."""

    record: TableRecord
    game: Game | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ai_at: float | None = None  # when the AI seat to act moves
    warn_at: float | None = None  # when the turn warning is due (deadline is in the record)
    since_snapshot: int = 0
    rng: random.Random | None = None  # AI choices
    _snapshot: TableSnapshot | None = None

    @property
    def table_id(self) -> int:
        """The table's id."""
        return self.record.table_id

    @property
    def live(self) -> bool:
        """In the lobby or playing."""
        return self.record.status in LIVE_STATUSES

    @property
    def playing(self) -> bool:
        """A match is running."""
        return self.record.status == PLAYING and self.game is not None

    @property
    def parked(self) -> bool:
        """Its timer or AI move kept failing: no wake-ups until a person moves (stored, so a restart
        does not try it again; a person's move or begin clears it)."""
        return self.record.parked > 0

    @property
    def to_act(self) -> int | None:
        """The seat the engine waits for (None in the lobby or once over)."""
        return self.game.to_act if self.playing and self.game is not None else None

    def update(self, **changes: Any) -> None:
        """Replace fields of the record (the record stays an immutable value)."""
        self.record = dataclasses.replace(self.record, **changes)
        self._snapshot = None

    @contextlib.asynccontextmanager
    async def changing(self) -> AsyncIterator[None]:
        """Undo every change made inside the block if it raises (a refusal, a failed save)."""
        point = (self.record, self.game, self.ai_at, self.warn_at)
        try:
            yield
        except BaseException:
            self.record, self.game, self.ai_at, self.warn_at = point
            self._snapshot = None
            raise

    def set_seat(self, seat: int, value: Seat) -> None:
        """Replace one seat."""
        seats = list(self.record.seats)
        seats[seat] = value
        self.update(seats=tuple(seats))

    def changed(self) -> None:
        """Forget the cached snapshot (after the engine state changed)."""
        self._snapshot = None

    def snapshot(self) -> TableSnapshot:
        """An immutable copy for callers, cached until the next change."""
        if self._snapshot is None:  # its public view is made when first read (most are never read)
            self._snapshot = live_snapshot(self.record, self.game, self.to_act)
        return self._snapshot

    def seat_of(self, player_id: str) -> int | None:
        """The seat ``player_id`` sits in, or owns while an AI plays it (away)."""
        for i, s in enumerate(self.record.seats):
            if s.player_id == player_id or (s.owner == player_id and s.away):
                return i
        return None

    def humans(self) -> dict[int, str]:
        """Seat -> the person who sits there or owns it while away."""
        out: dict[int, str] = {}
        for i, s in enumerate(self.record.seats):
            if s.away and s.owner:
                out[i] = s.owner
            elif not s.is_ai and is_human_id(s.player_id):
                out[i] = str(s.player_id)
        return out

    def free_seats(self) -> list[int]:
        """Seats nobody holds."""
        return [i for i, s in enumerate(self.record.seats) if s.player_id is None]

    def leavers(self) -> dict[str, int]:
        """Person -> seat, for everyone who left this match while it ran."""
        return dict(self.record.left_seats)

    def match_result(self, now: float) -> MatchResult:
        """The finished match: every seat's final occupant (AI included), plus each leaver as a loss."""
        game = self.game
        assert game is not None and game.to_act is None
        winners = set(game.winner or [])
        scores = game.scores()
        players = scores.get("players")
        teams = scores.get("teams") or [0, 0]

        def score(seat: int) -> int:
            return int(players[seat] if players else teams[seat % 2])

        humans = self.humans()
        results = [PlayerResult(player_id=humans.get(seat) or s.player_id or ai_seat_id(self.record.ai_level, seat),
                                seat=seat, score=score(seat), won=seat in winners)
                   for seat, s in enumerate(self.record.seats)]
        results += [PlayerResult(player_id=pid, seat=seat, score=score(seat), won=False, left=True)
                    for pid, seat in self.leavers().items()]
        return MatchResult(table_id=self.table_id, chat_id=self.record.chat_id, game=self.record.game,
                           finished_at=now, results=tuple(results), scores=scores)
