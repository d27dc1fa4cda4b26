"""Double-dummy solving through endplay's bundled DDS (Bo Haglund), on our card sets.

Our suits are clubs 0 … spades 3; DDS numbers spades 0 … clubs 3 and no-trump 4. Seats map one to
one (our next seat is DDS's next hand). Imported lazily: without endplay the strong players fall
back to the rule-based one.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_lock = threading.Lock()
_dds: Any = None


def _load() -> Any:
    """endplay's ``_dds`` (a ctypes wrapper, stdlib only) without ``endplay/__init__``, which
    imports matplotlib and takes seconds: workers load it in milliseconds this way."""
    if "endplay._dds" in sys.modules:  # imported already (None there: blocked, as an import would be)
        mod = sys.modules["endplay._dds"]
        if mod is None:
            raise ImportError("endplay._dds is blocked")
        return mod
    spec = importlib.util.find_spec("endplay")  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("endplay is not installed")
    init = Path(next(iter(spec.submodule_search_locations))) / "_dds" / "__init__.py"
    sub = importlib.util.spec_from_file_location("majlis_endplay_dds", init,
                                                 submodule_search_locations=[str(init.parent)])
    if sub is None or sub.loader is None:
        raise ImportError("endplay's DDS bindings are missing")
    mod = importlib.util.module_from_spec(sub)
    sub.loader.exec_module(mod)
    return mod


def _loaded() -> bool:
    return _dds is not None


def available() -> bool:
    """Whether the DDS library can be loaded (a warning is logged once when it cannot)."""
    global _dds
    if _dds is not None:
        return _dds is not False
    with _lock:  # one load: a second one would re-initialise DDS under a running solve
        if _loaded():
            return _dds is not False
        try:
            _dds = _load()
        except Exception as e:  # ImportError, or endplay's RuntimeError for a library that will not load
            _dds = False
            log.warning("the double-dummy solver (endplay) cannot be loaded (%s): Tarneeb AI seats of levels "
                        "normal and strong play like level easy (the rule player); install endplay", e)
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
