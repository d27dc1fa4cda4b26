"""How records become rows and rows become records, shared by every repository.

The memory repository keeps exactly these rows, the SQLite one writes them, and the PostgreSQL one
writes them too (JSON columns as compact JSON text), so what each gives back is the same: fresh
copies, JSON-shaped (tuples become lists, keys become strings), anything JSON cannot hold refused.
"""

from __future__ import annotations

import json
from dataclasses import fields
from functools import lru_cache
from typing import Any

from storage.ratings import is_ai, unique_results
from storage.records import (
    CANCELLED,
    PLAYING,
    STOPPED,
    ActionRecord,
    ChatRecord,
    LeaderRow,
    MatchResult,
    PlayerRecord,
    Seat,
    TableRecord,
    TableStatus,
)

Row = tuple[Any, ...]
Snapshot = tuple[int, dict[str, Any]]


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps(value: Any) -> str:
    """Compact JSON text; refuses NaN and anything JSON cannot hold."""
    return _ENCODER.encode(value)


def chat_row(c: ChatRecord) -> Row:
    return (c.chat_id, c.lang, c.turn_seconds, c.digits, dumps(c.default_options), c.ai_level, c.hands,
            int(c.notify))


def chat_from(row: Row) -> ChatRecord:
    chat_id, lang, turn_seconds, digits, options, ai_level, hands, notify = row
    return ChatRecord(chat_id, lang, turn_seconds, digits, json.loads(options), ai_level, hands, bool(notify))


def player_row(p: PlayerRecord) -> Row:
    return (p.player_id, p.name, p.lang, None if p.dm_ok is None else int(p.dm_ok), p.turn_ping)


def player_from(row: Row) -> PlayerRecord:
    player_id, name, lang, dm_ok, turn_ping = row
    return PlayerRecord(player_id, name, lang, None if dm_ok is None else bool(dm_ok),
                        None if turn_ping is None else int(turn_ping))


TABLE_COLUMNS = (  # table_id first and rev last: the writes rely on it
    "table_id, chat_id, game, options, seed, dealer, creator, status, seats, version, deadline, "
    "warned, lobby_deadline, message_ids, lang, ai_level, created_at, parked, left_seats, shown, rev"
)

#: The SET clause that ends a live table in storage (``move_chat`` onto a chat that has its own live
#: table, migration 0006/0003): a lobby is cancelled, a match stopped, as the bot ends them.
END_LIVE = (f"status = CASE status WHEN '{PLAYING}' THEN '{STOPPED}' ELSE '{CANCELLED}' END, "
            "deadline = NULL, lobby_deadline = NULL, warned = 0")


def table_row(t: TableRecord) -> Row:
    """The row of ``t``, in ``TABLE_COLUMNS`` order."""
    if len(t.seats) != 4:
        raise ValueError(f"a table has 4 seats, not {len(t.seats)}")
    return (
        t.table_id, t.chat_id, t.game, record_json(t.options), t.seed, t.dealer, t.creator, str(t.status),
        seats_json(tuple(t.seats)), t.version, t.deadline, int(t.warned), t.lobby_deadline,
        record_json(t.message_ids), t.lang, t.ai_level, t.created_at, t.parked, record_json(t.left_seats),
        record_json(t.shown), t.rev,
    )


#: id -> (the value, a copy of it as it was encoded, its JSON text); bounded by MAX_RECORD_JSON.
_RECORD_JSON: dict[int, tuple[Any, Any, str]] = {}
MAX_RECORD_JSON = 4096


def record_json(value: dict[str, Any]) -> str:
    """``dumps(value)`` for a dict a record carries from one write to the next (a table's options
    and message ids: a record is replaced, its dicts carried over, so every action writes the same
    objects again). Encoding the options took ~45 µs an action; this is a dictionary lookup and a
    comparison with a copy of what was encoded (a dict changed in place is encoded again)."""
    hit = _RECORD_JSON.get(id(value))
    if hit is not None and hit[0] is value and hit[1] == value:
        return hit[2]
    text = dumps(value)
    if len(_RECORD_JSON) >= MAX_RECORD_JSON:
        _RECORD_JSON.clear()
    _RECORD_JSON[id(value)] = (value, json.loads(text), text)  # the value kept: its id stays its own
    return text


_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


#: id -> (a seats tuple, its JSON text): a table's records share one seats tuple until a seat
#: changes, so most actions find theirs by identity, without hashing four seats.
_SEATS_BY_ID: dict[int, tuple[tuple[Seat, ...], str]] = {}


def seats_json(seats: tuple[Seat, ...]) -> str:
    """The seats as a JSON list of objects (cached: seats rarely change from one action to the next)."""
    hit = _SEATS_BY_ID.get(id(seats))
    if hit is not None and hit[0] is seats:
        return hit[1]
    text = _seats_json(seats)
    if len(_SEATS_BY_ID) >= MAX_RECORD_JSON:
        _SEATS_BY_ID.clear()
    _SEATS_BY_ID[id(seats)] = (seats, text)  # the tuple held: its id stays its own
    return text


@lru_cache(maxsize=8192)
def _seats_json(seats: tuple[Seat, ...]) -> str:
    return dumps([{name: getattr(s, name) for name in _SEAT_FIELDS} for s in seats])


def table_from(row: Row) -> TableRecord:
    (table_id, chat_id, game, options, seed, dealer, creator, status, seats, version, deadline,
     warned, lobby_deadline, message_ids, lang, ai_level, created_at, parked, left_seats, shown, rev) = row
    s0, s1, s2, s3 = (Seat(**s) for s in json.loads(seats))
    return TableRecord(
        table_id=table_id, chat_id=chat_id, game=game, options=json.loads(options), seed=seed,
        dealer=dealer, creator=creator, status=TableStatus(status), seats=(s0, s1, s2, s3), version=version,
        created_at=created_at, deadline=deadline, warned=bool(warned), lobby_deadline=lobby_deadline,
        message_ids=json.loads(message_ids), lang=lang, ai_level=ai_level, rev=rev, parked=parked,
        left_seats=json.loads(left_seats), shown=json.loads(shown),
    )


#: The keys a table's own state had in ``message_ids`` before it got columns of its own (migration
#: 0007 on SQLite, 0004 on PostgreSQL): ``parked``, ``left:<person>`` and ``shown:<message key>``.
LEGACY_PARKED, LEGACY_LEFT, LEGACY_SHOWN = "parked", "left:", "shown:"


def split_legacy_ids(ids: dict[str, str]) -> tuple[dict[str, str], int, dict[str, int], dict[str, str]]:
    """``(message_ids, parked, left_seats, shown)`` of a ``message_ids`` stored before the table's own
    state left it (what the migrations do in SQL, for rows of an older export file)."""
    message_ids: dict[str, str] = {}
    parked, left, shown = 0, {}, {}
    for key, value in ids.items():
        if key == LEGACY_PARKED:
            parked = int(value)
        elif key.startswith(LEGACY_LEFT):
            left[key.removeprefix(LEGACY_LEFT)] = int(value)
        elif key.startswith(LEGACY_SHOWN):
            shown[key.removeprefix(LEGACY_SHOWN)] = value
        else:
            message_ids[key] = value
    return message_ids, parked, left, shown


def action_row(a: ActionRecord) -> Row:
    return (a.table_id, a.seq, a.seat, a.action, a.actor, a.at)


def action_from(row: Row) -> ActionRecord:
    return ActionRecord(*row)


def check_append(action: ActionRecord, table: TableRecord) -> None:
    """The arguments of ``append_action`` must agree: same table, and its version is the seq."""
    if action.table_id != table.table_id:
        raise ValueError(f"action of table {action.table_id} with table {table.table_id}")
    if table.version != action.seq:
        raise ValueError(f"table version {table.version} is not the action's seq {action.seq}")


def leader_order(row: LeaderRow) -> tuple[float, int, int, str]:
    """Best first: rating, then wins, then fewer matches, then the id for a stable order."""
    return (-row.rating, -row.wins, row.matches, row.player_id)


def result_rows(result: MatchResult) -> list[Row]:
    """The ``match_results`` rows of ``result``: (table_id, idx, player, seat, score, won, left, counted).

    ``counted`` is 1 for the one row per person that statistics use (AI seats are never counted).
    """
    counted = {id(r) for r in unique_results(result.results) if not is_ai(r.player_id)}
    return [
        (result.table_id, i, r.player_id, r.seat, r.score, int(r.won), int(r.left), int(id(r) in counted))
        for i, r in enumerate(result.results)
    ]


def check_result(result: MatchResult, table: TableRecord) -> None:
    """The arguments of ``record_match`` must agree: the result is the table's."""
    if result.table_id != table.table_id:
        raise ValueError(f"result of table {result.table_id} with table {table.table_id}")
