"""A parked table stays parked across a restart (issue 13): the mark is stored in the table record
(``TableRecord.parked``), restore leaves the table idle instead of trying it again, an admin's
stop and a new table in the chat still work, and a person's move sets it going and clears the mark.
Real SQLite files; the failing writes are the repository's own ``append_action`` made to fail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.core.commands import Actor, Begin
from bot.core.errors import TableError
from bot.core.service import Service
from bot.present.i18n import translator
from bot.present.story import table_list
from storage.sqlite import SQLiteRepository
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, Harness, make_manager, started_table, turn

SETTINGS: dict[str, Any] = {"retry_first": 1.0, "retry_max": 4.0, "park_after": 3, "background": False,
                            "default_turn_seconds": 30}


class BrokenSQLite(SQLiteRepository):
    """A real SQLite file whose ``append_action`` fails while ``broken`` (each attempt counted)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.broken = False
        self.attempts = 0

    async def append_action(self, action, table):  # type: ignore[no-untyped-def]
        if self.broken:
            self.attempts += 1
            raise OSError("disk I/O error")
        return await super().append_action(action, table)


async def _open(path: Path) -> tuple[BrokenSQLite, Harness]:
    repo = BrokenSQLite(path)
    await repo.open()
    h = make_manager(repo, **SETTINGS)
    await h.manager.start()
    return repo, h


async def _until_parked(h: Harness, table_id: int) -> None:
    sched = h.manager.turns.sched
    while (when := sched.when(table_id)) is not None:  # each wake-up the failing table asks for
        h.clock.advance(max(0.0, when - h.clock.now()))
        await h.manager.run_due()
    assert h.events("table_parked")


async def _close(repo: SQLiteRepository, h: Harness) -> None:
    await h.manager.close()
    await repo.close()


@pytest.mark.expected_hidden_errors
async def test_a_parked_table_is_not_tried_again_after_a_restart_and_stop_still_works(tmp_path: Path) -> None:
    db = tmp_path / "majlis.sqlite3"
    repo, h = await _open(db)
    snap = await started_table(h, ALICE)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])  # now an AI seat moves
    tid = snap.table_id
    assert turn(h, h.manager.get(tid)) != 0  # type: ignore[arg-type]
    repo.broken = True
    await _until_parked(h, tid)
    assert repo.attempts == 3
    stored = await repo.get_table(tid)
    assert stored is not None and stored.parked == 3 and stored.status == "playing"
    version = stored.version
    await _close(repo, h)
    # the operator's list says so (``majlis tables``)
    rows = await table_list(db, translator("en"))
    assert any(row.startswith(f"{tid} · ") and "parked after repeated failures" in row for row in rows)

    repo, h = await _open(db)  # the restart: storage still failing, but nothing tries it
    repo.broken = True
    assert h.manager.get(tid) is not None and h.reasons() == ["restored"]  # shown again in its chat
    assert h.manager.turns.sched.when(tid) is None
    h.clock.advance(3600)
    await h.manager.run_due()
    assert repo.attempts == 0
    assert h.manager.get(tid).table.version == version  # type: ignore[union-attr]
    # An admin stops it, and the chat opens a new table, which plays.
    repo.broken = False
    stopped = await h.manager.stop(CHAT, BOB, is_admin=True)
    assert stopped.table.status == "stopped"
    fresh = await started_table(h, BOB)
    assert fresh.table_id != tid and fresh.table.status == "playing"
    assert h.manager.get(fresh.table_id).table.version > 0  # type: ignore[union-attr]
    assert not fresh.table.parked
    await _close(repo, h)
    rows = await table_list(db, translator("en"))
    assert any(row.startswith(f"{tid} · ") and "stopped" in row for row in rows)


@pytest.mark.expected_hidden_errors
async def test_a_persons_move_sets_a_parked_table_going_and_the_mark_is_cleared(tmp_path: Path) -> None:
    db = tmp_path / "majlis.sqlite3"
    repo, h = await _open(db)
    snap = await started_table(h, ALICE)
    tid = snap.table_id
    assert turn(h, snap) == 0  # Alice's turn; her timer's automatic move is what fails
    repo.broken = True
    await _until_parked(h, tid)
    assert (await repo.get_table(tid)).parked  # type: ignore[union-attr]
    await _close(repo, h)

    repo, h = await _open(db)
    assert h.manager.turns.sched.when(tid) is None  # parked after the restart too
    snap = h.manager.get(tid)
    assert snap is not None and turn(h, snap) == 0
    legal = h.manager.view(tid, 0)["legal"]
    await h.manager.act(tid, ALICE, snap.table.version, legal[0])  # she plays: it goes on
    await h.manager.run_due()
    stored = await repo.get_table(tid)
    assert stored is not None and not stored.parked
    assert stored.version > snap.table.version + 1  # the AI seats moved after her
    assert h.manager.turns.sched.when(tid) is not None
    await _close(repo, h)

    repo, h = await _open(db)  # and a restart now runs it as any live table
    assert h.manager.turns.sched.when(tid) is not None
    await _close(repo, h)


@pytest.mark.expected_hidden_errors
async def test_begin_by_an_admin_sets_a_parked_table_going_after_the_fault_is_fixed(tmp_path: Path) -> None:
    db = tmp_path / "majlis.sqlite3"
    repo, h = await _open(db)
    snap = await started_table(h, ALICE)
    legal = h.manager.view(snap.table_id, 0)["legal"]
    await h.manager.act(snap.table_id, ALICE, snap.table.version, legal[0])  # an AI seat is to move: no
    tid = snap.table_id                                                      # person can set it going
    repo.broken = True
    await _until_parked(h, tid)
    await _close(repo, h)

    repo, h = await _open(db)  # restarted after the fault was fixed: still parked, as stored
    version = h.manager.get(tid).table.version  # type: ignore[union-attr]
    service = Service(h.manager)
    with pytest.raises(TableError) as refused:  # someone who neither sits there nor administers the chat
        await service.dispatch(Begin(), Actor(BOB, CHAT))
    assert refused.value.code == "not_allowed"
    assert h.manager.turns.sched.when(tid) is None and (await repo.get_table(tid)).parked  # type: ignore[union-attr]

    async def admin() -> bool:
        return True

    await service.dispatch(Begin(), Actor(BOB, CHAT, is_admin=admin))
    await h.manager.run_due()
    stored = await repo.get_table(tid)
    assert stored is not None and not stored.parked
    assert stored.version > version  # the AI seats moved again
    await _close(repo, h)
