"""Classic Tarneeb hand scoring (rules.md §1.3 T-S1..T-S6) as a free function."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def score_hand(bid: int, taken: int, opts: Mapping[str, Any]) -> tuple[int, int]:
    """The (declarer team, defenders) score changes for a contract ``bid`` and ``taken`` tricks.

    >>> from engine.base import resolve_options
    >>> from engine.tarneeb.rules import OPTIONS
    >>> o = resolve_options(OPTIONS, None)
    >>> score_hand(8, 10, o), score_hand(9, 7, o), score_hand(13, 12, o), score_hand(7, 0, o)
    ((10, 0), (-9, 6), (-16, 1), (-7, 16))
    """
    d = 13 - taken
    if bid == 13:
        if taken == 13:
            return opts["kaboot_bid_made_score"], 0
        award = _fail_award(bid, d, opts)
        if d < 13 and opts["kaboot_fail_defenders"] == "double" and opts["fail_defender_award"] == "their_tricks":
            award = 2 * d
        return -opts["kaboot_bid_fail_penalty"], award
    if taken >= bid:
        if taken == 13:
            mine = int(opts["kaboot_unbid_score"])
        else:
            mine = taken if opts["made_score"] == "tricks_taken" else bid
        return mine, (d if opts["defenders_score_when_made"] else 0)
    return -bid, _fail_award(bid, d, opts)


def _fail_award(bid: int, d: int, opts: Mapping[str, Any]) -> int:
    rule = opts["fail_defender_award"]
    if rule == "nothing":
        return 0
    if rule == "bid":
        return bid
    if d == 13 and opts["defender_kaboot_bonus"]:
        return int(opts["kaboot_unbid_score"])
    return d
