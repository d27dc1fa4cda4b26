"""Rebuild a table's engine state from storage: the latest snapshot plus the tail of the log."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import engine
from engine import Game
from storage.records import ActionRecord, TableRecord
from storage.repository import Repository

log = logging.getLogger(__name__)


def new_game(record: TableRecord) -> Game:
    """The table's match as it was dealt, before any action."""
    return engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=record.options)


def replay(record: TableRecord, actions: Sequence[ActionRecord], start: Game | None = None,
           after: int = 0) -> Game:
    """Apply ``actions`` (which must follow seq ``after`` without a gap) to ``start`` or a new game."""
    game = start if start is not None else new_game(record)
    expected = after + 1
    for a in actions:
        if a.seq != expected:
            raise ValueError(f"table {record.table_id}: action seq {a.seq}, expected {expected}")
        game.act(a.seat, a.action)
        expected += 1
    return game


async def rebuild_game(repo: Repository, record: TableRecord,
                       snapshot: tuple[int, dict[str, Any]] | None,
                       tail: Sequence[ActionRecord]) -> Game:
    """The live engine state of ``record``; falls back to a full replay if the snapshot is unusable."""
    if snapshot is not None:
        seq, state = snapshot
        try:
            game = replay(record, tail, engine.load(state), seq)
            if seq + len(tail) == record.version:
                return game
            log.warning("table %s: snapshot %s + %s actions != version %s; replaying from the seed",
                        record.table_id, seq, len(tail), record.version)
        except Exception:
            log.exception("table %s: the snapshot at %s does not replay; replaying from the seed",
                          record.table_id, seq)
        tail = await repo.actions(record.table_id, 0)
    game = replay(record, tail)
    if len(tail) != record.version:
        raise ValueError(f"table {record.table_id}: log has {len(tail)} actions, version {record.version}")
    return game
