"""Syrian Tarneeb 41 scoring, minimums and qualification (rules.md §2.3, §2.5, §2.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_LEVANT400 = {2: 2, 3: 3, 4: 4, 5: 10, 6: 12, 7: 14, 8: 16, 9: 27, 10: 40, 11: 40, 12: 40, 13: 40}


def bid_value(bid: int, table: str, score_before: int = 0) -> int:
    """What a bid is worth (won or lost) under a value table.

    >>> [bid_value(b, "face") for b in (1, 5, 13)]
    [1, 5, 13]
    >>> [bid_value(b, "double_from_7") for b in (6, 7, 13)]
    [6, 14, 26]
    >>> [bid_value(5, "levant400"), bid_value(5, "levant400", 30), bid_value(13, "levant400")]
    [10, 5, 40]
    >>> [bid_value(b, "tiered_multiplier") for b in (4, 5, 9, 11, 13)]
    [4, 10, 27, 44, 52]
    """
    if table == "face":
        return bid
    if table == "double_from_7":
        return 2 * bid if bid >= 7 else bid
    if table == "levant400":
        if bid in (5, 6) and score_before >= 30:
            return bid
        return _LEVANT400.get(bid, bid)
    if bid == 13:
        return 52
    return bid * (1 if bid <= 4 else 2 if bid <= 8 else 3 if bid <= 10 else 4)


def deal_deltas(bids: Sequence[int], tricks: Sequence[int], scores: Sequence[int], table: str) -> list[int]:
    """Per-seat changes: +value when a seat took at least its bid, else −value (S-S1, S-S2).

    >>> deal_deltas([5, 4, 2, 13], [7, 3, 0, 3], [0, 0, 0, 0], "face")
    [5, -4, -2, -13]
    """
    out = []
    for b, t, s in zip(bids, tricks, scores, strict=True):
        v = bid_value(b, table, s)
        out.append(v if t >= b else -v)
    return out


def rising_tier(score: int) -> int:
    """0 below 30, then 1, 2, 3 for 30–39, 40–49, 50 and up (the "400" rising minimums)."""
    if score < 30:
        return 0
    return 1 if score < 40 else 2 if score < 50 else 3


def qualifies(a: int, b: int, target: int, partner_rule: str) -> bool:
    """Whether a team whose players have ``a`` and ``b`` qualifies (S-W1, S-W5).

    >>> qualifies(43, 1, 41, "positive"), qualifies(45, 0, 41, "positive"), qualifies(45, 0, 41, "non_negative")
    (True, False, True)
    """

    def ok(x: int) -> bool:
        return x > 0 if partner_rule == "positive" else x >= 0

    return (a >= target and ok(b)) or (b >= target and ok(a))


def match_winner(scores: Sequence[int], opts: Mapping[str, Any]) -> int | None:
    """The winning team (0 or 1) after a scored deal, or ``None`` to play on (S-W1..S-W4)."""
    target, rule = opts["target"], opts["partner_rule"]
    q = [t for t in (0, 1) if qualifies(scores[t], scores[t + 2], target, rule)]
    if len(q) == 1:
        return q[0]
    if not q:
        return None
    totals = [scores[0] + scores[2], scores[1] + scores[3]]
    if opts["both_qualify"] == "higher_individual_then_team":
        best = [max(scores[0], scores[2]), max(scores[1], scores[3])]
        if best[0] != best[1]:
            return 0 if best[0] > best[1] else 1
    if totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None
