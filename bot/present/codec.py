"""Button payloads: one compact ASCII codec for Telegram (≤ 64 bytes) and Discord (≤ 100 chars).

``mj1:<verb>:<table_id>:<version>:<arg>`` (docs/architecture.md §4)::

    >>> encode("a", 12, 40, "play QS")
    'mj1:a:12:40:play_QS'
    >>> decode("mj1:j:12:-:2")
    Payload(verb='j', table_id=12, version=None, arg='2')
    >>> to_command("mj1:j:12:-:2")
    Join(table_id=12, seat=2)

:func:`to_command` is what both chat adapters call on a press: the payload's command, or a refusal.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from bot.core.commands import Act, Begin, Claim, Hint, Join, Leave, Rematch, Review, ShowHand, Stop, TournamentAction
from bot.core.errors import Refusal, TableError
from bot.core.identity import ascii_int

PREFIX = "mj1"
MAX_BYTES = 64
#: a: engine action; j: join (arg = seat or empty); b: begin; h: my hand; l: leave; c: claim seat;
#: x: stop; r: play again (arg ``swap``: with partners swapped, else empty); t: a hint (at the version);
#: v: the review of one's last deal; o: a tournament's button (the id is the tournament's; arg
#: ``register [pair]``, ``withdraw``, ``checkin``, ``ready``, ``start``).
VERBS = frozenset("ajbhlcxrtvo")
TOURNAMENT_VERBS = ("register", "withdraw", "checkin", "ready", "start", "flag")
_ARG = re.compile(r"[A-Za-z0-9_]*")
_NUM = re.compile(r"0|[1-9][0-9]{0,17}")


class CodecError(ValueError):
    """A payload that is not ours or is malformed."""


class UnknownVerb(CodecError):
    """A payload of ours whose verb this version does not know (or that is not a verb at all)."""



class Payload(NamedTuple):
    """A decoded button: ``version`` None means "any version"; ``arg`` has spaces restored."""

    verb: str
    table_id: int
    version: int | None
    arg: str


def encode(verb: str, table_id: int, version: int | None, arg: str = "") -> str:
    """The payload string of a button; raises :class:`CodecError` if it cannot be encoded."""
    if verb not in VERBS or len(verb) != 1:
        raise CodecError(f"unknown verb {verb!r}")
    if type(table_id) is not int or table_id < 0:
        raise CodecError(f"bad table id {table_id!r}")
    if version is not None and (type(version) is not int or version < 0):
        raise CodecError(f"bad version {version!r}")
    if not isinstance(arg, str) or "_" in arg or "  " in arg or arg != arg.strip():
        raise CodecError(f"bad argument {arg!r}")
    packed = arg.replace(" ", "_")
    if not _ARG.fullmatch(packed):
        raise CodecError(f"bad argument {arg!r}")
    out = f"{PREFIX}:{verb}:{table_id}:{'-' if version is None else version}:{packed}"
    if len(out.encode("ascii")) > MAX_BYTES:
        raise CodecError(f"payload longer than {MAX_BYTES} bytes: {out!r}")
    return out


def decode(s: str) -> Payload:
    """The inverse of :func:`encode`; anything malformed raises :class:`CodecError`."""
    if not isinstance(s, str) or not s.isascii() or len(s) > MAX_BYTES:
        raise CodecError("not a Majlis payload")
    parts = s.split(":")
    if len(parts) != 5 or parts[0] != PREFIX:
        raise CodecError("not a Majlis payload")
    _, verb, tid, ver, packed = parts
    if verb not in VERBS or len(verb) != 1:
        raise UnknownVerb(f"unknown verb {verb!r}")
    if not _NUM.fullmatch(tid):
        raise CodecError(f"bad table id {tid!r}")
    if ver != "-" and not _NUM.fullmatch(ver):
        raise CodecError(f"bad version {ver!r}")
    if not _ARG.fullmatch(packed) or packed.startswith("_") or packed.endswith("_") or "__" in packed:
        raise CodecError(f"bad argument {packed!r}")
    return Payload(verb, int(tid), None if ver == "-" else int(ver), packed.replace("_", " "))


def is_ours(s: str) -> bool:
    """True if ``s`` looks like a Majlis payload (cheap prefix test for adapters' routing)."""
    return isinstance(s, str) and s.startswith(PREFIX + ":")


#: What a button asks for.
ButtonCommand = Act | Join | Begin | Leave | Claim | Stop | ShowHand | Rematch | Hint | Review | TournamentAction


def to_command(payload: str) -> ButtonCommand:
    """The command of a pressed button's payload (``bot/core/commands.py``), for both chat adapters.

    Refused with a :class:`~bot.core.errors.TableError`, so that the adapter answers it as any other
    refusal: ``STALE`` for a verb this version does not know (a button drawn by another version of
    the bot, or a forged one: "use the newest message"), ``BAD_ACTION`` for anything else malformed
    (a seat that is not a number included). Call it on payloads that :func:`is_ours`.
    """
    try:
        p = decode(payload)
    except UnknownVerb:
        raise TableError(Refusal.STALE) from None
    except CodecError:
        raise TableError(Refusal.BAD_ACTION) from None
    tid = p.table_id
    match p.verb:
        case "a":
            return Act(tid, p.version, p.arg)
        case "j":
            return Join(tid, _seat(p.arg) if p.arg else None)
        case "c":
            return Claim(_seat(p.arg), tid)
        case "b":
            return Begin(tid)
        case "l":
            return Leave(tid)
        case "x":
            return Stop(tid)
        case "h":
            return ShowHand(tid)
        case "t":
            return Hint(tid, p.version)
        case "v":
            return Review(tid)
        case "r":
            if p.arg not in ("", "swap"):
                raise TableError(Refusal.BAD_ACTION)
            return Rematch(tid, swap=p.arg == "swap")
        case "o":
            verb, _, pair = p.arg.partition(" ")
            if verb not in TOURNAMENT_VERBS or (pair and verb != "register"):
                raise TableError(Refusal.BAD_ACTION)
            return TournamentAction(verb, tid, _seat(pair) if pair else None)
    raise TableError(Refusal.STALE)  # a verb of VERBS without a command here is never taken for another


def _seat(arg: str) -> int:
    seat = ascii_int(arg)
    if seat is None:
        raise TableError(Refusal.BAD_ACTION)
    return seat
