"""Snapshots for render tests: a record with four named seats around a view."""

from __future__ import annotations

from typing import Any

from bot.core.model import TableSnapshot
from storage.records import Seat, TableRecord

NAMES = ("Ali", "Sara", "Omar", "Huda")


def record(game: str, *, version: int = 5, table_id: int = 7, status: str = "playing",
           seated: int = 4) -> TableRecord:
    seats = tuple(Seat(player_id=f"tg:{i}", name=NAMES[i]) if i < seated else Seat() for i in range(4))
    return TableRecord(table_id=table_id, chat_id="tg:-100", game=game, options={}, seed=1, dealer=0,
                       creator="tg:0", status=status, seats=seats, version=version)  # type: ignore[arg-type]


def snapshot(game: str, public: dict[str, Any] | None, to_act: int | None = None, **kw: Any) -> TableSnapshot:
    return TableSnapshot(record(game, **kw), public, to_act)
