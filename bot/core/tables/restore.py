"""Restore: rebuild engine states from storage (snapshot + log tail), reload a table, resume live tables."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

import engine
from bot.core.advice import engine_options
from bot.core.settings import ManagerSettings
from bot.core.table import Table
from bot.core.tables.lifecycle import Lifecycle
from engine import Game
from storage.records import PLAYING, ActionRecord, TableRecord
from storage.repository import Repository

log = logging.getLogger(__name__)


def new_game(record: TableRecord) -> Game:
    """The table's match as it was dealt, before any action."""
    return engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=engine_options(record.options))


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


async def resync(repo: Repository, table: Table) -> None:
    """Reload a table from storage after a write failed, so memory equals the log again."""
    try:
        record = await repo.get_table(table.table_id)
        if record is None:
            return
        snapshot = await repo.latest_snapshot(table.table_id)
        tail = await repo.actions(table.table_id, snapshot[0] if snapshot else 0)
        table.game, table.record = await rebuild_game(repo, record, snapshot, tail), record
        table.changed()
    except Exception:
        log.exception("table %s: reloading from storage failed", table.table_id)


async def load_live(repo: Repository, settings: ManagerSettings,
                    table_ids: Iterable[int] | None = None) -> list[Table]:
    """Every live table in storage (of this process's chats; of ``table_ids``, the ones this process
    holds, when given), rebuilt; unreadable ones are skipped."""
    rows = await repo.live_tables_with_logs(table_ids)
    prefixes = settings.chat_prefixes
    if prefixes is not None:  # another process (another platform's bot) owns the other tables
        rows = [row for row in rows if row[0].chat_id.startswith(prefixes)]
    tables = []
    for record, snapshot, tail in rows:
        try:
            game = await rebuild_game(repo, record, snapshot, tail) if record.status == PLAYING else None
        except Exception:
            log.exception("table %s cannot be rebuilt from its log; left as it is", record.table_id)
            continue
        tables.append(Table(record=record, game=game))
    return tables


async def resume(table: Table, lifecycle: Lifecycle) -> None:
    """A restored table goes on: finish a match that was over, plan the turn, tell the subscribers."""
    turns, publisher = lifecycle.turns, lifecycle.publisher
    async with publisher.locked(table):
        if table.playing and table.game is not None:
            if table.game.to_act is None:
                try:
                    events = await lifecycle.finish(table)
                except Exception:  # logged; the table stays live in storage and is tried again next start
                    return
                publisher.post(table, events, "ended")
                return
            if not table.parked and turns.resume(table, lifecycle.clock.now()):
                table.record = await lifecycle.repo.save_table(table.record)
        publisher.post(table, [], "restored")
        turns.reschedule(table)
