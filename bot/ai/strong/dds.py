"""Double-dummy solving through endplay's bundled DDS (Bo Haglund), on our card sets.

Our suits are clubs 0 … spades 3; DDS numbers spades 0 … clubs 3 and no-trump 4. Seats map one to
one (our next seat is DDS's next hand). Imported lazily: without endplay the strong players fall
back to the rule-based one.
"""

from __future__ import annotations

import threading
from typing import Any

_lock = threading.Lock()
_dds: Any = None


def available() -> bool:
    """Whether the DDS library can be loaded."""
    global _dds
    if _dds is None:
        try:
            import endplay._dds as mod
        except ImportError:  # pragma: no cover - endplay is a test dependency
            _dds = False
        else:
            _dds = mod
    return _dds is not False


def _deal(hands: list[int], trump: int | None, leader: int, trick: list[int]) -> Any:
    d = _dds.deal()
    d.trump = 4 if trump is None else 3 - trump
    d.first = leader
    for i in range(3):
        d.currentTrickSuit[i] = 0
        d.currentTrickRank[i] = 0
    for i, c in enumerate(trick):
        d.currentTrickSuit[i] = 3 - c // 13
        d.currentTrickRank[i] = c % 13 + 2
    for h in range(4):
        for s in range(4):
            d.remainCards[h][3 - s] = ((hands[h] >> (13 * s)) & 0x1FFF) << 2
    return d


def score_cards(hands: list[int], trump: int | None, leader: int, trick: list[int]) -> dict[int, int]:
    """Tricks from now on for the side to play, for every legal card of the seat to play.

    ``hands`` hold the cards still in hand (not those in ``trick``); ``leader`` led ``trick``.
    """
    if not available():
        raise RuntimeError("endplay is not installed")
    d = _deal(hands, trump, leader, trick)
    fut = _dds.futureTricks()
    with _lock:  # DDS keeps per-thread memory; one solve at a time per process is safest
        rc = _dds.SolveBoard(d, -1, 3, 1, fut, 0)
    if rc not in (None, 1):
        raise RuntimeError(f"DDS error {rc}")
    out: dict[int, int] = {}
    for i in range(fut.cards):
        suit = 3 - fut.suit[i]
        holding = (1 << fut.rank[i]) | fut.equals[i]
        for r in range(2, 15):
            if holding >> r & 1:
                out[suit * 13 + r - 2] = fut.score[i]
    return out


def max_tricks(hands: list[int], trump: int | None, leader: int) -> int:
    """Tricks the leader's side takes with best play from a fresh trick."""
    if not available():
        raise RuntimeError("endplay is not installed")
    d = _deal(hands, trump, leader, [])
    fut = _dds.futureTricks()
    with _lock:
        _dds.SolveBoard(d, -1, 1, 1, fut, 0)
    return int(fut.score[0])
