"""Search-based AI seats (levels ``normal`` and ``strong``) behind the rule player's interface.

Tarneeb games: sampled deals scored double-dummy (:mod:`ai.strong.tarneeb`). Trix: sampled
deals with heuristic rollouts and an exact endgame (:mod:`ai.strong.trix`). The player sees
only its seat's view; anything unexpected falls back to the rule-based player, so a decision is
always legal.

Every decision answers within the one-second cap (:mod:`ai.think`): budgets are CPU seconds
of the thinking thread, and work is begun only while it fits before ``deadline``.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from ai.strong.tarneeb import TarneebBrain
from ai.strong.trix import TrixBrain
from ai.think import deadline_in

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class Level:
    """A level's budgets: CPU seconds of thinking per decision and samples (under the 1 s cap)."""

    card: float          # Tarneeb card play
    bid: float           # Tarneeb bid or trump choice, where simulated (bid_games)
    min_samples: int     # Tarneeb: at least this many sampled deals (when they fit before the cap)
    max_samples: int     # Tarneeb: at most this many
    trix_card: float     # Trix card play (and all the doubling options together)
    trix_choice: float   # Trix contract choice
    trix_infer: float    # Trix: the share of a card's budget spent reading the others' play
    #: The Tarneeb games whose bids (and classic trump choice) are simulated (:mod:`ai.strong.bidsim`);
    #: the rule player bids in the others. Figures in README.md (bench/ai.py --game bids).
    bid_games: tuple[str, ...] = ()
    #: CPU seconds of a simulated classic bid or trump choice (None: ``bid``)
    classic_bid: float | None = None
    #: The share of real decisions (card play, doubles, the Trix contract) made by the search; the
    #: rule player makes the others. A few samples already play nearly as well as many (0.03 s a
    #: card measured +1.28 ± 0.26 tricks a deal over the rule player on the tune set, 0.06 s
    #: +1.03 ± 0.26), so ``normal`` is set apart by searching only about half of its decisions.
    search_share: float = 1.0
    #: The same share in Trix. Normal's Trix gain over easy on the held-out kingdoms (bench/ai.py
    #: --game trix-kingdom --cpu-only, 16 kingdoms): +7.4 ± 2.1 points a deal at 0.5, too close to
    #: strong's +11.7 ± 3.7; +2.3 ± 1.8 at 0.3, too close to easy; +5.4 ± 1.6 at 0.4. (Chosen on
    #: those kingdoms: a level's place between two others, nothing of the search was tuned there.)
    trix_share: float = 1.0
    #: Trix rollouts: the share of moves played at random, in trick contracts and in the layout.
    #: The layout without noise (every seat plays the policy exactly): +8.3 ± 2.7 points a layout
    #: deal over the noisy rollouts (30 tune deals x 4 seats, the contract imposed); in Queens the
    #: same change lost 4.4 ± 2.4, so the trick contracts keep their noise.
    trix_eps: float = 0.03
    trix_layout_eps: float = 0.03


#: The levels: ``normal`` thinks with a few samples and reads no inference from the others' play.
LEVELS = {
    "normal": Level(card=0.03, bid=0.04, min_samples=2, max_samples=5, trix_card=0.03, trix_choice=0.1,
                    trix_infer=0.0, search_share=0.5, trix_share=0.4),
    "strong": Level(card=0.2, bid=0.06, min_samples=6, max_samples=40, trix_card=0.15, trix_choice=0.3,
                    trix_infer=0.4, trix_layout_eps=0.0, bid_games=("tarneeb", "tarneeb41"), classic_bid=0.15),
}


class StrongPlayer:
    """A search-based player. ``heavy``: the manager runs it in a worker process (:mod:`ai.pool`)."""

    heavy = True

    def __init__(self, level: str = "strong") -> None:
        lv = LEVELS.get(level, LEVELS["strong"])
        self.level = level
        #: The level a worker of the AI process pool rebuilds this player from (ai/pool.py)
        self.pool_level = level
        self.tarneeb = TarneebBrain(card_seconds=lv.card, bid_seconds=lv.bid, min_samples=lv.min_samples,
                                    max_samples=lv.max_samples, classic_bid_seconds=lv.classic_bid)
        self.trix = TrixBrain(card_seconds=lv.trix_card, choice_seconds=lv.trix_choice, infer_share=lv.trix_infer,
                              eps=lv.trix_eps, layout_eps=lv.trix_layout_eps)
        self.bid_games = set(lv.bid_games)
        self.search_share = lv.search_share
        self.trix_share = lv.trix_share
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
        share = self.trix_share if game == "trix" else self.search_share
        if share < 1.0 and rng.random() >= share:
            return None  # this one is the rule player's (level normal)
        from ai.strong import dds

        if game in ("tarneeb", "tarneeb41") and not dds.available():
            return None
        if game == "tarneeb":
            if phase == "bid" and game in self.bid_games:
                return self.tarneeb.bid_classic(view, rng, deadline)
            if phase == "trump" and game in self.bid_games:
                return self.tarneeb.trump(view, rng, deadline)
            if phase == "play":
                return self.tarneeb.play(view, rng, deadline)
        elif game == "tarneeb41":
            if phase == "bid" and game in self.bid_games:
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
                from ai.rules import RulePlayer

                self._fallback = RulePlayer()
            except ImportError:
                self._fallback = _FirstLegal()
        return self._fallback


class _FirstLegal:
    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        return str(view["legal"][0])
