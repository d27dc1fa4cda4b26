"""AI players: :func:`ai_player` gives the player for a level.

Level ``easy`` is the rule player (``ai.rules.RulePlayer``); ``normal`` and ``strong`` are the
searching player (``ai.strong.StrongPlayer``, heavy: run in a worker or the process pool).
``cheater`` is that search given the true hands (``ai.strong.cheater``): a yardstick for
``bench/ai.py``, never a table's level (it refuses a view without the true hands).
``LegalPlayer`` (random legal moves) is a yardstick for benchmarks and tests.
"""

from __future__ import annotations

from functools import cache

from ai.base import AIProvider, LegalPlayer, Player

__all__ = ["AIProvider", "LegalPlayer", "Player", "ai_player", "is_heavy"]

@cache
def ai_player(level: str = "easy") -> Player:
    """The AI for ``level``: the searching player for ``normal`` and ``strong``, the rule player for
    ``easy``, the same search given the true hands for ``cheater`` (benchmarks only). A player that
    fails to load fails loudly here instead of quietly playing weaker."""
    if level == "cheater":
        from ai.strong.cheater import CheaterPlayer

        return CheaterPlayer()
    if level in ("normal", "strong"):
        from ai.strong import StrongPlayer

        return StrongPlayer(level)
    from ai.rules import RulePlayer

    return RulePlayer()


def is_heavy(player: Player) -> bool:
    """Whether ``player`` should think in a worker thread (players without the flag are light)."""
    return bool(getattr(player, "heavy", False))
