"""Trix action ids and codes: ``play QS``, ``contract king``, ``double KH``, ``done``, ``pass``.

Action ids: 0..51 play that card; ``CONTRACT + c`` chooses contract ``c``; ``DOUBLE + card``
doubles a card; ``DONE`` ends a seat's doubling; ``PASS`` passes in the layout.
"""

from __future__ import annotations

from engine import cards as C
from engine.base import split_code
from engine.errors import IllegalAction
from engine.trix.contracts import CONTRACT_NAMES

CONTRACT, DOUBLE, DONE, PASS = 100, 200, 300, 301
_CONTRACT_IDS = {name: i for i, name in enumerate(CONTRACT_NAMES)}


def action_code(aid: int) -> str:
    """The action code of an action id.

    >>> [action_code(a) for a in (C.parse("QS"), CONTRACT + 4, DOUBLE + C.parse("KH"), DONE, PASS)]
    ['play QS', 'contract trix', 'double KH', 'done', 'pass']
    """
    if aid < 52:
        return "play " + C.CODES[aid]
    if aid < DOUBLE:
        return "contract " + CONTRACT_NAMES[aid - CONTRACT]
    if aid < DONE:
        return "double " + C.CODES[aid - DOUBLE]
    return "done" if aid == DONE else "pass"


def parse_action(action: object) -> int:
    """The action id of an action code; anything malformed raises ``unknown_action``."""
    words = split_code(action)
    verb = words[0]
    if len(words) == 2:
        if verb == "play":
            return _parse_card(words[1])
        if verb == "double":
            return DOUBLE + _parse_card(words[1])
        if verb == "contract" and words[1] in _CONTRACT_IDS:
            return CONTRACT + _CONTRACT_IDS[words[1]]
    elif len(words) == 1:
        if verb == "done":
            return DONE
        if verb == "pass":
            return PASS
    raise IllegalAction("unknown_action", f"not an action: {action!r}")


def _parse_card(word: str) -> int:
    try:
        return C.parse(word)
    except ValueError:
        raise IllegalAction("unknown_action", f"not a card: {word!r}") from None
