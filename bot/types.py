"""Platform-neutral values passed between the table manager, the presenter and the adapters."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from storage.records import ActionRecord, TableRecord


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who talks to the bot, by platform-neutral id (``"tg:123"``, ``"dc:456"``)."""

    player_id: str
    name: str
    lang_hint: str | None = None


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """An immutable copy of a table's state, safe to hand to any layer."""

    table: TableRecord
    public: dict[str, Any] | None = None
    to_act: int | None = None

    @property
    def table_id(self) -> int:
        """The table's id."""
        return self.table.table_id

    @property
    def public_to_act(self) -> int | None:
        """The seat to act as everyone may know it: None during the Trix doubling window.

        ``to_act`` is the engine's seat to act, which names the seat being asked to double; render
        public messages (and other seats' messages) from this property instead.
        """
        return self.public.get("to_act") if self.public is not None else None

    def seat_of(self, player_id: str) -> int | None:
        """The seat where ``player_id`` sits (or owns an AI-played seat), else None."""
        for i, s in enumerate(self.table.seats):
            if s.player_id == player_id or (s.owner == player_id and s.away):
                return i
        return None


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """What subscribers of the table manager receive after every change."""

    snapshot: TableSnapshot
    events: list[dict[str, Any]] = field(default_factory=list)
    private: dict[int, dict[str, Any]] = field(default_factory=dict)
    reason: str = "action"
    action: ActionRecord | None = None  # the logged engine action behind this update, if any
