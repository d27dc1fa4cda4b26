"""Button payloads: one compact ASCII codec for Telegram (≤ 64 bytes) and Discord (≤ 100 chars).

``mj1:<verb>:<table_id>:<version>:<arg>`` (docs/architecture.md §4)::

    >>> encode("a", 12, 40, "play QS")
    'mj1:a:12:40:play_QS'
    >>> decode("mj1:j:12:-:2")
    Payload(verb='j', table_id=12, version=None, arg='2')
"""

from __future__ import annotations

import re
from typing import NamedTuple

PREFIX = "mj1"
MAX_BYTES = 64
#: a: engine action; j: join (arg = seat or empty); b: begin; h: my hand; l: leave; c: claim seat;
#: x: stop.
VERBS = frozenset("ajbhlcx")
_ARG = re.compile(r"[A-Za-z0-9_]*")
_NUM = re.compile(r"0|[1-9][0-9]{0,17}")


class CodecError(ValueError):
    """A payload that is not ours or is malformed."""


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
        raise CodecError(f"unknown verb {verb!r}")
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
