"""Search-based AI seats (levels ``normal`` and ``strong``) behind the rule player's interface.

Tarneeb games: sampled deals scored double-dummy (:mod:`bot.ai.strong.tarneeb`). Trix: sampled
deals with heuristic rollouts and an exact endgame (:mod:`bot.ai.strong.trix`). The player sees
only its seat's view; anything unexpected falls back to the rule-based player, so a decision is
always legal.

Every decision answers within the one-second cap (:mod:`bot.ai.think`): budgets are CPU seconds
of the thinking thread, and work is begun only while it fits before ``deadline``.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from bot.ai.strong.tarneeb import TarneebBrain
from bot.ai.strong.trix import TrixBrain
from bot.ai.think import deadline_in

log = logging.getLogger(__name__)

#: Time budgets per level: (seconds per card, seconds per bid/contract decision, minimum samples).
LEVELS = {"normal": (0.06, 0.4, 4), "strong": (0.2, 1.0, 8)}


class StrongPlayer:
    """A search-based player. ``heavy``: the manager runs it in a worker thread."""

    heavy = True

    def __init__(self, level: str = "strong") -> None:
        card_s, bid_s, min_samples = LEVELS.get(level, LEVELS["strong"])
        self.level = level
        self.tarneeb = TarneebBrain(card_seconds=card_s, bid_seconds=bid_s, min_samples=min_samples)
        self.trix = TrixBrain(card_seconds=card_s * 0.75, choice_seconds=bid_s * 0.6)
        self._fallback: Any = None

    def decide(self, view: dict[str, Any], game: str, rng: random.Random, deadline: float | None = None) -> str:
        """A legal action for the seat whose view this is, before ``deadline`` (``time.monotonic()``;
        default: the hard cap from now)."""
        legal = list(view.get("legal") or [])
        if len(legal) <= 1:
            return legal[0] if legal else "done"
        if deadline is None:
            deadline = deadline_in()
        try:
            action = self._decide(view, game, rng, deadline)
        except Exception:  # a bug here must never stall a table
            log.exception("strong AI failed; falling back to the rule player")
            action = None
        if action is not None and action in legal:
            return action
        return str(self._rule_player().decide(view, game, rng))

    def _decide(self, view: dict[str, Any], game: str, rng: random.Random, deadline: float) -> str | None:
        phase = view.get("phase")
        from bot.ai.strong import dds

        if game in ("tarneeb", "tarneeb41") and not dds.available():
            return None
        if game == "tarneeb":
            if phase == "bid":
                return self.tarneeb.bid_classic(view, rng, deadline)
            if phase == "trump":
                return self.tarneeb.trump(view, rng, deadline)
            if phase == "play":
                return self.tarneeb.play(view, rng, deadline)
        elif game == "tarneeb41":
            if phase == "bid":
                return self.tarneeb.bid41(view, rng, deadline)
            if phase == "play":
                return self.tarneeb.play(view, rng, deadline)
        elif game == "trix":
            opts = view.get("options") or {}
            if opts.get("mode") == "complex" or opts.get("partnership"):
                return None  # merged scoring and team play are the rule player's (the simulator has neither)
            if phase == "contract":
                return self.trix.contract(view, rng, deadline)
            if phase == "double":
                return self.trix.double(view, rng, deadline)
            if phase == "play":
                return self.trix.play(view, rng, deadline)
        return None

    def _rule_player(self) -> Any:
        if self._fallback is None:
            try:
                from bot.ai.rules import RulePlayer

                self._fallback = RulePlayer()
            except ImportError:
                self._fallback = _FirstLegal()
        return self._fallback


class _FirstLegal:
    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        return str(view["legal"][0])
