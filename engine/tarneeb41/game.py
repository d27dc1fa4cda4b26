"""Syrian Tarneeb 41 as a deterministic state machine (rules.md §2).

>>> import engine
>>> g = engine.new_game("tarneeb41", seed=3, dealer=1)
>>> g.phase, g.to_act, g.legal()[0], g.auto()
('bid', 2, 'bid 2', 'bid 2')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from math import floor
from typing import Any, ClassVar

from engine import cards as C
from engine.base import Event, Option
from engine.errors import IllegalAction
from engine.tarneeb41.rules import OPTIONS
from engine.tarneeb41.scoring import deal_deltas, match_winner, rising_tier
from engine.trick import BID, BIDDING, PASS, TrickGame


class Tarneeb41Game(TrickGame):
    """Syrian Tarneeb 41: ``phase`` is ``"bid"``, ``"play"`` or ``"over"``.

    Bids, tricks and scores are per seat; ``scores()`` has ``"players"`` and ``"teams"``
    (partner sums). The dealer's 13th card is exposed and decides the trump (its sister suit).
    """

    game_id: ClassVar[str] = "tarneeb41"
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS

    __slots__ = ("_min_bid", "_rising", "bids", "player_scores")

    _min_bid: int
    _rising: bool
    player_scores: list[int]
    bids: list[int | None]

    def _setup(self) -> None:
        self._min_bid = int(self.options["min_bid"])
        self._rising = bool(self.options["rising_minimums"])

    def _reset_scores(self) -> None:
        self.player_scores = [0, 0, 0, 0]

    # ---------------------------------------------------------------- deal

    def _on_deal(self, order: list[list[int]], events: list[Event] | None) -> None:
        self.phase = BIDDING
        self.to_act = (self.dealer + 1) & 3
        self.bids = [None, None, None, None]
        if self.options["trump_mode"] == "hearts_fixed":
            self.exposed = None
            self.trump = C.HEARTS
        else:
            card = order[self.dealer][12]
            self.exposed = card
            self.trump = C.SISTER_SUIT[card // 13]
        if events is None:
            return
        events.append(
            {
                "type": "deal_started",
                "deal_no": self.deal_no,
                "dealer": self.dealer,
                "first": self.to_act,
                "exposed": None if self.exposed is None else C.CODES[self.exposed],
                "trump": C.SUIT_CODES[self.trump],
            }
        )

    # ------------------------------------------------------------- bidding

    def min_bid_for(self, seat: int) -> int:
        """The lowest bid ``seat`` may make now (2, or higher under ``rising_minimums``)."""
        if not self._rising:
            return self._min_bid
        return max(self._min_bid, (0, 3, 4, 5)[rising_tier(self.player_scores[seat])])

    def min_total(self) -> int:
        """The lowest total of the four bids that is played (S-B5; raised by ``rising_minimums``)."""
        base = int(self.options["min_total"])
        if not self._rising:
            return base
        return base + rising_tier(max(self.player_scores))

    def _bid_ids(self) -> list[int]:
        return list(range(BID + self.min_bid_for(self.to_act), BID + 14))  # type: ignore[arg-type]

    def _check_other(self, aid: int) -> None:
        if aid == PASS:
            raise IllegalAction("pass_not_allowed", "there is no pass in Tarneeb 41")
        if not BID <= aid < PASS:
            raise IllegalAction("unknown_action", "not an action of this game")
        v = aid - BID
        if not self._min_bid <= v <= 13:
            raise IllegalAction("bid_out_of_range", "a bid is 2 to 13", minimum=self._min_bid, maximum=13)
        lo = self.min_bid_for(self.to_act)  # type: ignore[arg-type]
        if v < lo:
            raise IllegalAction("bid_too_low", f"the minimum bid is {lo}", minimum=lo)

    def _apply_other(self, aid: int, events: list[Event] | None) -> None:
        seat: int = self.to_act  # type: ignore[assignment]
        v = aid - BID
        self.bids[seat] = v
        if events is not None:
            events.append({"type": "bid_made", "seat": seat, "bid": v})
        if seat != self.dealer:
            self.to_act = (seat + 1) & 3
            return
        bids: list[int] = self.bids  # type: ignore[assignment]
        total = sum(bids)
        if total < self.min_total():
            if self.options["low_total_redeal"] == "next_dealer":
                self.dealer = (self.dealer + 1) & 3
            if events is not None:
                events.append(
                    {"type": "deal_thrown_in", "reason": "low_total", "total": total, "next_dealer": self.dealer}
                )
            self._next_deal(events)
            return
        first = (self.dealer + 1) & 3
        if self.options["first_lead"] == "highest_bidder":
            best = first
            for i in range(1, 4):
                s = (first + i) & 3
                if bids[s] > bids[best]:
                    best = s
            first = best
        self._start_play(first)

    def _bid_playout(self, rnd: Callable[[], float]) -> None:
        """The bids of a random playout up to the dealer's, inlined; the dealer's through ``_apply_other``.

        Each seat draws among ``_bid_ids``: its minimum (``min_bid_for``) to 13, ascending.
        """
        seat: int = self.to_act  # type: ignore[assignment]
        dealer = self.dealer
        bids = self.bids
        while seat != dealer:
            lo = self._min_bid if not self._rising else self.min_bid_for(seat)
            bids[seat] = lo + floor(rnd() * (14 - lo))
            seat = (seat + 1) & 3
        self.to_act = seat
        lo = self._min_bid if not self._rising else self.min_bid_for(seat)
        self._apply_other(BID + lo + floor(rnd() * (14 - lo)), None)

    def _auto_other(self) -> int:
        return BID + max(2, self.min_bid_for(self.to_act))  # type: ignore[arg-type]

    # ------------------------------------------------------------- scoring

    def _score_deal(self, events: list[Event] | None) -> None:
        bids: list[int] = self.bids  # type: ignore[assignment]
        sc = self.player_scores
        deltas = deal_deltas(bids, self.tricks, sc, self.options["value_table"])
        for s in range(4):
            sc[s] += deltas[s]
        self.hand_no += 1
        if events is not None:
            events.append(
                {
                    "type": "deal_scored",
                    "deltas": {"players": deltas, "teams": [deltas[0] + deltas[2], deltas[1] + deltas[3]]},
                    "scores": self.scores(),
                    "summary": {"bids": list(bids), "tricks": list(self.tricks)},
                }
            )
        won: int | None = None
        if self.options["bid13_wins_match"]:
            for s in range(4):
                if bids[s] == 13 and self.tricks[s] == 13:
                    won = s & 1
        if won is None:
            won = match_winner(sc, self.options)
        if won is not None:
            self._end_match([won, won + 2], events)
            return
        self.dealer = (self.dealer + 1) & 3
        self._next_deal(events)

    # ---------------------------------------------------------- public face

    def scores(self) -> dict[str, list[int]]:
        """Per-seat totals and team sums: ``{"players": [4], "teams": [2]}``."""
        p = self.player_scores
        return {"players": list(p), "teams": [p[0] + p[2], p[1] + p[3]]}

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: the public view, with the exposed card)."""
        v = self._base_view(seat)
        v["exposed"] = None if self.exposed is None else C.CODES[self.exposed]
        v["trump"] = None if self.trump is None else C.SUIT_CODES[self.trump]
        v["bids"] = list(self.bids)
        v["target"] = self.options["target"]
        v["min_total"] = self.min_total()
        return v

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict; ``engine.load`` of it continues identically."""
        d = self._dump_shared()
        d.update(player_scores=list(self.player_scores), bids=list(self.bids))
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Tarneeb41Game:
        """Rebuild a game from :meth:`to_json`."""
        g = cls.__new__(cls)
        g._restore_shared(d)
        g.player_scores = [int(x) for x in d["player_scores"]]
        g.bids = [None if b is None else int(b) for b in d["bids"]]
        return g

    def clone(self) -> Tarneeb41Game:
        """A cheap independent copy for search (the generator is copied lazily)."""
        g = Tarneeb41Game.__new__(Tarneeb41Game)
        self._copy_shared_to(g)
        g._min_bid = self._min_bid
        g._rising = self._rising
        g.player_scores = self.player_scores[:]
        g.bids = self.bids[:]
        return g
