"""AI dispatch: where an AI seat's decision is computed (the one place to change how).

Today a heavy player (``Player.heavy``) thinks in a worker thread (``asyncio.to_thread``) so the
event loop stays responsive; a light one answers inline. The pipeline calls :func:`decide` without
the table's lock and applies the answer only if the table did not move meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from bot.ai import Player, is_heavy

log = logging.getLogger(__name__)


def inline(player: Player) -> bool:
    """Whether :func:`decide` answers at once (the pipeline then calls it under the table's lock,
    as one step with the move); otherwise it is called without the lock."""
    return not is_heavy(player)


async def decide(player: Player, view: dict[str, Any], game: str, rng: random.Random, *,
                 table_id: int, seat: int) -> str | None:
    """The AI's chosen code for the seat whose ``view`` this is, or None if the AI failed."""
    try:
        if is_heavy(player):
            return await asyncio.to_thread(player.decide, view, game, rng)
        return player.decide(view, game, rng)
    except Exception:
        log.exception("AI of table %s seat %s failed; playing the automatic move", table_id, seat)
        return None
