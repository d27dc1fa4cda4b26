"""The rule-based AI player (level ``easy``) for classic Tarneeb, Tarneeb 41 and Trix.

It reads only the seat's view (``engine`` ``view(seat)``; at the tables, the narrower
``decision_view(seat)``, whose keys are all it reads) and always answers one of ``view["legal"]``::

    from ai.rules import RulePlayer
    action = RulePlayer().decide(g.view(seat), "tarneeb41", random.Random(1))

Play: follows suit sensibly (wins cheaply when it can, ducks when it cannot, does not overtake
its partner, keeps its trumps), leads aces, strong trumps or its longest suit, and bids from an
estimate of its tricks. In Trix it avoids penalty cards, chooses the contract that suits its
hand, doubles only safe cards and plays the layout so as to unblock its own runs.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from ai import heuristics as H
from ai import heuristics_trix as X

log = logging.getLogger(__name__)

#: Partner's expected tricks in classic Tarneeb when nothing is known about its hand.
PARTNER_TRICKS = 2.6


class RulePlayer:
    """Fast heuristic decisions; never raises, never answers an illegal action."""

    heavy = False
    #: It reads only what ``Game.decision_view`` holds (the pipeline gives it that narrower view).
    narrow_view = True

    def __init__(self) -> None:
        self.fallbacks = 0

    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        """A legal action for the seat whose view this is."""
        legal = [str(a) for a in view.get("legal") or []]
        if not legal:
            raise ValueError("the seat has no legal action in its view")
        if len(legal) == 1:
            return legal[0]
        try:
            action = self._decide(view, game)
        except Exception:  # a heuristic bug must never stall a table
            log.exception("rule player failed on a %s view", game)
            action = None
        if action in legal:
            return str(action)
        self.fallbacks += 1
        return str(rng.choice(legal))

    def _decide(self, view: dict[str, Any], game: str) -> str:
        phase = view.get("phase")
        if game == "trix":
            if phase == "contract":
                return X.choose_contract(view)
            if phase == "double":
                return X.choose_double(view)
            if view.get("contract") == "trix":
                return X.play_layout(view)
            return X.play_penalty_trick(view)
        if phase == "play":
            return H.play_card(view)
        if game == "tarneeb":
            if phase == "trump":
                return self._trump(view)
            return self._bid_classic(view)
        return self._bid_41(view)

    # ------------------------------------------------------------ bidding

    @staticmethod
    def _bid_classic(view: dict[str, Any]) -> str:
        hand = [H.card_of(c) for c in view.get("hand", [])]
        _, mine = H.best_trump(hand)
        me = int(view["seat"])
        team = mine + PARTNER_TRICKS
        high = view.get("high_bid")
        if high is not None and int(high["seat"]) == (me + 2) % 4:
            team = mine + 1.0 + max(0, int(high["bid"]) - 7) * 0.5
            if team < int(high["bid"]) + 1.5:
                return "pass"
        target = int(team)
        bids = sorted(int(a.split()[1]) for a in view["legal"] if a.startswith("bid "))
        ok = [b for b in bids if b <= target]
        if ok and target >= 7:
            return f"bid {ok[0]}"
        if "pass" in view["legal"]:
            return "pass"
        return f"bid {bids[0]}"

    @staticmethod
    def _trump(view: dict[str, Any]) -> str:
        hand = [H.card_of(c) for c in view.get("hand", [])]
        suit, _ = H.best_trump(hand)
        choice = "trump " + "CDHS"[suit]
        return choice if choice in view["legal"] else view["legal"][0]

    @staticmethod
    def _bid_41(view: dict[str, Any]) -> str:
        hand = [H.card_of(c) for c in view.get("hand", [])]
        trump = H.suit_index(view.get("trump"))
        est = H.estimate_tricks(hand, trump)
        target = max(2, int(est + 0.2))
        bids = sorted(int(a.split()[1]) for a in view["legal"] if a.startswith("bid "))
        below = [b for b in bids if b <= target]
        return f"bid {below[-1] if below else bids[0]}"
