"""AI dispatch: where an AI seat's decision is computed (the one place to change how).

A heavy player that the AI process pool can rebuild in its workers (``pool_level``: the search of
``ai.strong``) thinks there (:mod:`ai.pool`: worker processes, a bound on decisions in
flight, every answer within the one-second cap, the rule player when a worker cannot answer in
time or the pool breaks); another heavy player thinks in a worker thread (``asyncio.to_thread``);
a light one answers inline (:func:`inline`: the pipeline then calls :func:`decide` under the
table's lock, as one step with the move). A heavy player's :func:`decide` runs without the lock
and its answer applies only if the table did not move meanwhile. ``TableManager.close`` calls
:func:`close`, which stops the pool's workers. ``MAJLIS_AI_PROCESSES=0`` keeps the search in threads.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import Callable
from typing import Any, TypeVar

from ai import Player, is_heavy
from ai.pool import AIPool
from ai.think import HARD_CAP, deadline_in
from bot.core import metrics
from engine import Game

log = logging.getLogger(__name__)
R = TypeVar("R")


def inline(player: Player) -> bool:
    """Whether :func:`decide` answers at once (the pipeline then calls it under the table's lock,
    as one step with the move); otherwise it is called without the lock."""
    return not is_heavy(player)


def view_for(player: Player, game: Game, seat: int) -> dict[str, Any]:
    """The view the AI seat decides from: ``game.decision_view(seat)`` for a player that says it
    reads nothing more (``narrow_view``: the rule player), else the whole ``game.view(seat)``."""
    if getattr(player, "narrow_view", False):
        return game.decision_view(seat)
    return game.view(seat)


async def decide(player: Player, view: dict[str, Any], game: str, rng: random.Random, *,
                 table_id: int, seat: int) -> str | None:
    """The AI's chosen code for the seat whose ``view`` this is, or None if the AI failed."""
    try:
        with metrics.ai_thinking(game):
            if is_heavy(player):
                level = getattr(player, "pool_level", None)
                if level is not None and POOL:
                    return await _pooled(str(level), view, game, rng, seat)
                return await asyncio.to_thread(player.decide, view, game, rng)
            return player.decide(view, game, rng)
    except Exception:
        log.exception("AI of table %s seat %s failed; playing the automatic move", table_id, seat)
        return None


# ---------------------------------------------------------------------- the AI process pool (ai/pool.py)
#: Heavy players the pool can rebuild (``pool_level``: the search of ``ai.strong``) think in
#: worker processes, within the one-second cap; False: in a thread, as other heavy players do.
POOL = os.environ.get("MAJLIS_AI_PROCESSES", "1") != "0"
_pool: AIPool | None = None
_pool_loop: asyncio.AbstractEventLoop | None = None


async def _pooled(level: str, view: dict[str, Any], game: str, rng: random.Random, seat: int) -> str:
    """A decision by the process pool (started at the first one); the rule player's if the pool fails."""
    pool = _the_pool()
    try:
        return await pool.decide(level, view, seat, rng.getrandbits(32), game=game)
    except Exception as e:  # the pool cannot start or answer at all: play on without it
        log.warning("the AI process pool failed (%s); the rule player answers", e)
        from ai.rules import RulePlayer

        return RulePlayer().decide(view, game, rng)


def _the_pool() -> AIPool:
    """The process's AI pool (one per event loop: tests run many loops), started at the first use."""
    global _pool, _pool_loop
    loop = asyncio.get_running_loop()
    if _pool is None or _pool_loop is not loop:
        if _pool is not None:
            _pool.abandon()
        _pool, _pool_loop = AIPool(), loop
    return _pool


async def advise(fn: Callable[..., R], *args: Any) -> R | None:
    """Advice for a person (:mod:`ai.advice`: ``fn(*args, deadline=...)``) from the AI pool the AI
    seats use, at a lower priority than their moves and within the one-second cap
    (:meth:`ai.pool.AIPool.advise`); None when it cannot be had in time. Without the pool
    (``MAJLIS_AI_PROCESSES=0``) in a worker thread, under the same cap."""
    if POOL:
        try:
            out: R | None = await _the_pool().advise(fn, *args)
        except Exception as e:  # the pool cannot start at all
            log.warning("the AI process pool failed (%s); no advice", e)
            return None
        return out
    try:
        return await asyncio.wait_for(asyncio.to_thread(fn, *args, deadline=deadline_in()), HARD_CAP)
    except Exception:
        log.exception("AI advice failed")
        return None


async def close() -> None:
    """Stop the AI process pool's workers (the manager's ``close``); idempotent."""
    global _pool, _pool_loop
    pool, _pool, _pool_loop = _pool, None, None
    if pool is not None:
        await pool.close()
