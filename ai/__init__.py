"""AI players: :func:`ai_player` gives the player for a level.

The rule-based ``ai.rules.RulePlayer`` is used when it is importable; until then (or if it
fails to import) a player that picks among ``view["legal"]`` stands in. Levels ``normal`` and
``strong`` use ``ai.strong.StrongPlayer`` (heavy: run in a worker thread) when importable.
"""

from __future__ import annotations

import logging
from functools import cache

from ai.base import AIProvider, LegalPlayer, Player

__all__ = ["AIProvider", "LegalPlayer", "Player", "ai_player", "is_heavy"]

log = logging.getLogger(__name__)


@cache
def ai_player(level: str = "easy") -> Player:
    """The AI for ``level``: search-based for ``normal``/``strong`` when available, else rule-based."""
    if level in ("normal", "strong"):
        try:
            from ai.strong import StrongPlayer  # type: ignore[import-not-found,unused-ignore]

            return StrongPlayer(level)  # type: ignore[no-any-return,unused-ignore]
        except Exception:
            log.warning("ai.strong is not available; level %s plays rule-based", level)
    try:
        from ai.rules import RulePlayer  # type: ignore[import-not-found,unused-ignore]

        return RulePlayer()  # type: ignore[no-any-return,unused-ignore]
    except Exception:
        log.warning("ai.rules.RulePlayer is not available; AI seats play random legal moves")
        return LegalPlayer()


def is_heavy(player: Player) -> bool:
    """Whether ``player`` should think in a worker thread (players without the flag are light)."""
    return bool(getattr(player, "heavy", False))
