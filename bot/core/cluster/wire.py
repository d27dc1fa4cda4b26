"""The wire format of forwarded commands (bot/core/cluster/routing.py): the command, what the sender knows of the
person, and the holder's answer or refusal, as JSON text in the database's inbox.

Dicts whose keys are not all strings (engine views: ``{seat: [...]}``) travel as pairs, so that an
answer decodes to exactly what the local dispatch returns.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from typing import Any

from ai import advice
from bot.core.commands import (
    Act,
    Actor,
    Advice,
    Answer,
    Begin,
    Claim,
    Command,
    Hand,
    Hint,
    Join,
    JoinByLink,
    Leave,
    NewTable,
    NextDeal,
    Rematch,
    Review,
    ShowHand,
    ShowScores,
    Stop,
)
from bot.core.errors import Refusal, TableError
from bot.core.model import Person, TableSnapshot
from storage.rows import table_from, table_row

_COMMANDS: dict[str, type[Any]] = {c.__name__: c for c in (
    NewTable, Join, JoinByLink, Leave, Begin, Stop, Claim, Rematch, Act, NextDeal, ShowHand, ShowScores,
    Hint, Review)}



#
# JSON, with dicts whose keys are not all strings (engine views: {seat: [...]}) kept as pairs.

def _enc(value: Any) -> Any:
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _enc(v) for k, v in value.items()}
        return {"\x00pairs": [[_enc(k), _enc(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_enc(v) for v in value]
    return value


def _dec(value: Any) -> Any:
    if isinstance(value, dict):
        pairs = value.get("\x00pairs")
        if pairs is not None and len(value) == 1:
            return {_dec(k): _dec(v) for k, v in pairs}
        return {k: _dec(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_dec(v) for v in value]
    return value


def _snap(s: TableSnapshot) -> dict[str, Any]:
    return {"table": list(table_row(s.table)), "public": _enc(s.public), "to_act": s.to_act}


def _unsnap(d: dict[str, Any]) -> TableSnapshot:
    return TableSnapshot(table=table_from(tuple(d["table"])), public=_dec(d["public"]), to_act=d["to_act"])


def encode_request(cmd: Command, actor: Actor, *, admin: bool | None, member: dict[str, bool | None]) -> str:
    """The command and what the holder needs to know of the sender (asked of the platform here)."""
    return json.dumps({
        "cmd": type(cmd).__name__, "args": _enc(dataclasses.asdict(cmd)),
        "person": dataclasses.asdict(actor.person), "chat": actor.chat_id, "can_sit": actor.can_sit,
        "admin": admin, "member": member, "event": actor.event_id,
    }, ensure_ascii=False, separators=(",", ":"))


def decode_request(text: str) -> tuple[Command, Actor]:
    """The command and an :class:`Actor` answering from what the sender asked of the platform."""
    d = json.loads(text)
    cls = _COMMANDS.get(d["cmd"])
    if cls is None:
        raise TableError(Refusal.BAD_ACTION)
    cmd = cls(**_dec(d["args"]))
    admin: bool = bool(d["admin"])
    member: dict[str, bool | None] = d["member"]

    async def is_admin() -> bool:
        return admin

    async def is_member(chat_id: str) -> bool | None:
        return member.get(chat_id)

    event = d.get("event")  # absent in a request posted by an older version
    actor = Actor(Person(**d["person"]), d["chat"], is_admin=is_admin, is_member=is_member,
                  can_sit=bool(d["can_sit"]), event_id=event if isinstance(event, str) else None)
    return cmd, actor


def encode_answer(result: Answer) -> str:
    """The holder's answer (what a forwarded command answers: a snapshot, or a hand)."""
    if isinstance(result, TableSnapshot):
        out: dict[str, Any] = {"snap": _snap(result)}
    elif isinstance(result, Advice):
        out = {"advice": [_snap(result.snapshot), result.seat,
                          None if result.hint is None else dataclasses.asdict(result.hint),
                          None if result.review is None else dataclasses.asdict(result.review)]}
    elif isinstance(result, tuple) and len(result) == 3 and isinstance(result[0], TableSnapshot):
        out = {"hand": [_snap(result[0]), result[1], _enc(result[2])]}
    else:
        raise TypeError(f"cannot forward an answer of type {type(result).__name__}")
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))


def encode_error(code: Refusal, params: dict[str, Any]) -> str:
    return json.dumps({"error": code, "params": _enc(params)}, ensure_ascii=False, separators=(",", ":"))


class Moved(Exception):
    """The holder no longer runs the table (it let it go meanwhile): route again."""


def decode_answer(text: str) -> Answer:
    """The holder's answer, as the local dispatch would have returned it (or raised)."""
    d = json.loads(text)
    if "error" in d:
        raise TableError(Refusal(d["error"]), **_dec(d["params"]))
    if "moved" in d:
        raise Moved()
    if "snap" in d:
        return _unsnap(d["snap"])
    if "advice" in d:
        snap, seat, hint, review = d["advice"]
        return Advice(_unsnap(snap), seat, None if hint is None else advice.Hint(**hint),
                      None if review is None else advice.Review(**review))
    if "hand" in d:
        snap, seat, view = d["hand"]
        return Hand(_unsnap(snap), seat, _dec(view))
    raise ValueError(f"not an answer: {text[:80]!r}")


def command_key(cmd: Command, actor: Actor) -> str:
    """The entry's key: the platform's event id, else the press itself for a versioned move, else random
    (a retry of such a command is then a new command, which the table's checks refuse if it came twice)."""
    if actor.event_id is not None:  # one event may run two commands (Begin, then the hand): both kept
        return f"event:{actor.event_id}:{type(cmd).__name__}"
    if isinstance(cmd, Act) and cmd.version is not None:
        return f"act:{cmd.table_id}:{cmd.version}:{actor.person.player_id}:{cmd.code}"
    return f"once:{secrets.token_hex(12)}"


