"""Platform-neutral values passed between the table manager, the presenter and the adapters."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.core.views import Event, SeatViews, View, public_view
from storage.records import ActionRecord, TableRecord

if TYPE_CHECKING:
    from engine.base import Game


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
    public: View | None = None  # the public view (bot/core/views.py); None in the lobby
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


_PUBLIC = TableSnapshot.__dict__["public"]  # the slot that holds a snapshot's public view


class _LiveSnapshot(TableSnapshot):
    """A :class:`TableSnapshot` of a live table whose public view is made when first read.

    ``game`` is the engine state the snapshot was taken of (never changed afterwards: a move acts on
    a clone), so the view made later is the one that would have been made at once; an action whose
    snapshot nobody renders costs no public view. Equal to a plain snapshot with the same values.
    """

    __slots__ = ("_game",)
    _game: Game | None

    @property
    def public(self) -> View | None:
        game = self._game
        if game is not None:
            _PUBLIC.__set__(self, public_view(game))
            object.__setattr__(self, "_game", None)
        value: View | None = _PUBLIC.__get__(self, TableSnapshot)
        return value

    @public.setter
    def public(self, value: View | None) -> None:  # the dataclass __init__ (and unpickling)
        _PUBLIC.__set__(self, value)
        object.__setattr__(self, "_game", None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableSnapshot):
            return NotImplemented
        return (self.table, self.public, self.to_act) == (other.table, other.public, other.to_act)

    __hash__ = TableSnapshot.__hash__


def live_snapshot(table: TableRecord, game: Game | None, to_act: int | None) -> TableSnapshot:
    """The snapshot of a table whose engine state is ``game`` (None in the lobby): its public view
    is ``game.view(None)``, made when first read."""
    snap = _LiveSnapshot(table=table, public=None, to_act=to_act)
    object.__setattr__(snap, "_game", game)
    return snap


class LazyViews(Mapping[int, View]):
    """Seat -> that seat's private view, each made on first reading (then kept).

    ``view`` is the engine's ``view`` of the state the update committed (a published game is never
    changed afterwards: a move acts on a clone), so a view made later is the one made at once.
    Most updates' private views are never read: a hand is rendered only when its message is sent.
    """

    __slots__ = ("_made", "_seats", "_view")

    def __init__(self, seats: Iterator[int] | list[int], view: SeatViews) -> None:
        self._seats = tuple(seats)
        self._view = view
        self._made: dict[int, View] = {}

    def __getitem__(self, seat: int) -> View:
        made = self._made.get(seat)
        if made is None:
            if seat not in self._seats:
                raise KeyError(seat)
            made = self._made[seat] = self._view(seat)
        return made

    def __iter__(self) -> Iterator[int]:
        return iter(self._seats)

    def __len__(self) -> int:
        return len(self._seats)

    def __contains__(self, seat: object) -> bool:
        return seat in self._seats

    def __repr__(self) -> str:
        return f"LazyViews(seats={self._seats}, made={sorted(self._made)})"


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """What subscribers of the table manager receive after every change.

    ``private`` holds the private view of every seat a person holds, made when first read
    (:class:`LazyViews`).
    """

    snapshot: TableSnapshot
    events: list[Event] = field(default_factory=list)
    private: Mapping[int, View] = field(default_factory=dict)
    reason: str = "action"
    action: ActionRecord | None = None  # the logged engine action behind this update, if any
