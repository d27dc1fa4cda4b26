"""Classic Tarneeb as a deterministic state machine (rules.md §1).

>>> import engine
>>> g = engine.new_game("tarneeb", seed=1, dealer=0)
>>> g.phase, g.to_act, g.legal()[:3]
('bid', 1, ['bid 7', 'bid 8', 'bid 9'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from math import floor
from typing import Any, ClassVar

from engine import cards as C
from engine import search
from engine.base import Event, Option
from engine.errors import IllegalAction
from engine.tarneeb.rules import OPTIONS
from engine.tarneeb.scoring import score_hand
from engine.trick import BID, BIDDING, NO_TRUMP, PASS, PLAYING, TRUMP, TRUMP_CHOICE, TrickGame, suit_code

_BID_IDS: tuple[tuple[int, ...], ...] = tuple(tuple(BID + v for v in range(max(7, lo), 14)) for lo in range(15))
#: The trump choices in ``_bid_ids``'s order, by ``no_trump_allowed``.
_TRUMP_IDS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(TRUMP + s for s in (C.SPADES, C.HEARTS, C.DIAMONDS, C.CLUBS)),
    (*(TRUMP + s for s in (C.SPADES, C.HEARTS, C.DIAMONDS, C.CLUBS)), NO_TRUMP),
)


class TarneebGame(TrickGame):
    """Classic Tarneeb: ``phase`` is ``"bid"``, ``"trump"``, ``"play"`` or ``"over"``.

    Teams: seats 0 and 2 are team 0, seats 1 and 3 team 1. ``scores()`` has ``"teams"``.
    """

    game_id: ClassVar[str] = "tarneeb"
    OPTIONS: ClassVar[tuple[Option, ...]] = OPTIONS

    __slots__ = (
        "_exposed_mode",
        "_final",
        "_forced",
        "contract",
        "declarer",
        "high_bid",
        "high_seat",
        "history",
        "passed",
        "passes",
        "team_scores",
    )

    _final: bool
    _forced: bool
    _exposed_mode: bool
    team_scores: list[int]
    passed: list[bool]
    history: tuple[tuple[int, int | None], ...]
    high_bid: int
    high_seat: int
    passes: int
    declarer: int | None
    contract: int | None

    def _setup(self) -> None:
        o = self.options
        self._final = bool(o["pass_is_final"])
        self._forced = o["all_pass"] == "dealer_forced_min"
        self._exposed_mode = o["trump_mode"] == "exposed_sister_suit"

    def _reset_scores(self) -> None:
        self.team_scores = [0, 0]

    # ---------------------------------------------------------------- deal

    def _on_deal(self, order: list[list[int]], events: list[Event] | None) -> None:
        self.phase = BIDDING
        self.to_act = (self.dealer + 1) & 3
        self.passed = [False, False, False, False]
        self.history = ()
        self.high_bid = 0
        self.high_seat = -1
        self.passes = 0
        self.declarer = None
        self.contract = None
        if self._exposed_mode:
            card = order[self.dealer][12]
            self.exposed = card
            self.trump = C.SISTER_SUIT[card // 13]
        else:
            self.exposed = None
            self.trump = None
        if events is not None:
            ev: Event = {"type": "deal_started", "deal_no": self.deal_no, "dealer": self.dealer, "first": self.to_act}
            if self.exposed is not None:
                ev["exposed"] = C.CODES[self.exposed]
                ev["trump"] = C.SUIT_CODES[C.SISTER_SUIT[self.exposed // 13]]
            events.append(ev)

    # ------------------------------------------------------------- auction

    def _pass_allowed(self) -> bool:
        if not self._forced or self.high_seat >= 0:
            return True
        return self.passes < 3

    def _bid_ids(self) -> list[int]:
        if self.phase == BIDDING:
            out = list(_BID_IDS[self.high_bid + 1 if self.high_bid else 7])
            if self._pass_allowed():
                out.append(PASS)
            return out
        return list(_TRUMP_IDS[self.options["no_trump_allowed"]])

    def _check_other(self, aid: int) -> None:
        if self.phase == BIDDING:
            if aid == PASS:
                if not self._pass_allowed():
                    raise IllegalAction("pass_not_allowed", "the dealer must bid after three passes")
                return
            if BID <= aid < PASS:
                v = aid - BID
                if not 7 <= v <= 13:
                    raise IllegalAction("bid_out_of_range", "a bid is 7 to 13", minimum=7, maximum=13)
                if v <= self.high_bid:
                    raise IllegalAction("bid_too_low", "a bid must top the standing bid", minimum=self.high_bid + 1)
                return
            raise IllegalAction("wrong_phase", "the auction is on", phase=self.phase)
        if aid >= TRUMP:
            if aid == NO_TRUMP and not self.options["no_trump_allowed"]:
                raise IllegalAction("no_trump_not_allowed", "no-trump is not allowed at this table")
            return
        raise IllegalAction("wrong_phase", "the declarer must name the trump", phase=self.phase)

    def _apply_other(self, aid: int, events: list[Event] | None) -> None:
        seat: int = self.to_act  # type: ignore[assignment]
        if self.phase == TRUMP_CHOICE:
            self.trump = None if aid == NO_TRUMP else aid - TRUMP
            if events is not None:
                suit = "N" if aid == NO_TRUMP else C.SUIT_CODES[aid - TRUMP]
                events.append({"type": "trump_chosen", "seat": seat, "suit": suit})
            self._start_play(seat)
            return
        if aid == PASS:
            self.history = (*self.history, (seat, None))
            self.passes += 1
            if self._final:
                self.passed[seat] = True
            if events is not None:
                events.append({"type": "passed", "seat": seat})
        else:
            v = aid - BID
            self.history = (*self.history, (seat, v))
            self.high_bid = v
            self.high_seat = seat
            self.passes = 0
            if events is not None:
                events.append({"type": "bid_made", "seat": seat, "bid": v})
            if v == 13:
                self._auction_won(events)
                return
        if self._final:
            active = self.passed.count(False)
            if self.high_seat >= 0 and active == 1:
                self._auction_won(events)
                return
            if self.high_seat < 0 and active == 0:
                self._all_passed(events)
                return
            nxt = (seat + 1) & 3
            while self.passed[nxt]:
                nxt = (nxt + 1) & 3
            self.to_act = nxt
            return
        if self.high_seat >= 0 and self.passes == 3:
            self._auction_won(events)
        elif self.high_seat < 0 and self.passes == 4:
            self._all_passed(events)
        else:
            self.to_act = (seat + 1) & 3

    def _bid_playout(self, rnd: Callable[[], float]) -> None:
        """The auction and the trump choice of a random playout, inlined (``_apply_other`` without events).

        Draws as ``_bid_ids``'s order gives them: the bids from the lowest allowed to 13, then
        ``pass`` when allowed; the trumps S, H, D, C, then no trump when allowed. Only the default
        ``pass_is_final`` auction is inlined; the other goes through the generic driver.
        """
        if self.phase == BIDDING:
            if not self._final:
                search.bid_playout(self, rnd)
                return
            seat: int = self.to_act  # type: ignore[assignment]
            passed = self.passed
            history = list(self.history)
            high_bid = self.high_bid
            high_seat = self.high_seat
            passes = self.passes
            forced = self._forced
            active = passed.count(False)
            while True:
                lo = high_bid + 1 if high_bid else 7
                nb = 14 - lo
                k = floor(rnd() * (nb + 1 if not forced or high_seat >= 0 or passes < 3 else nb))
                if k < nb:
                    high_bid = lo + k
                    high_seat = seat
                    passes = 0
                    history.append((seat, high_bid))
                    if high_bid == 13:
                        break
                else:
                    history.append((seat, None))
                    passes += 1
                    passed[seat] = True
                    active -= 1
                if high_seat >= 0 and active == 1:
                    break
                if high_seat < 0 and active == 0:
                    break
                seat = (seat + 1) & 3
                while passed[seat]:
                    seat = (seat + 1) & 3
            self.history = tuple(history)
            self.high_bid = high_bid
            self.high_seat = high_seat
            self.passes = passes
            self.to_act = seat
            if high_seat < 0:
                self._all_passed(None)
                return
            self._auction_won(None)
            if self.phase != TRUMP_CHOICE:
                return
        ids = _TRUMP_IDS[self.options["no_trump_allowed"]]
        aid = ids[floor(rnd() * len(ids))]
        self.trump = None if aid == NO_TRUMP else aid - TRUMP
        self._start_play(self.to_act)  # type: ignore[arg-type]

    def _auction_won(self, events: list[Event] | None) -> None:
        d = self.high_seat
        self.declarer = d
        self.contract = self.high_bid
        if events is not None:
            events.append({"type": "auction_won", "seat": d, "bid": self.high_bid})
        if self._exposed_mode:
            self._start_play(d)
        else:
            self.phase = TRUMP_CHOICE
            self.to_act = d

    def _all_passed(self, events: list[Event] | None) -> None:
        if self.options["all_pass"] == "redeal_next_dealer":
            self.dealer = (self.dealer + 1) & 3
        if events is not None:
            events.append({"type": "deal_thrown_in", "reason": "all_passed", "next_dealer": self.dealer})
        self._next_deal(events)

    def _lead_mask(self, hand: int) -> int:
        if self.trick_no == 0 and self.trump is not None and self.options["first_lead_must_be_trump"]:
            trumps = hand & C.SUIT_MASK[self.trump]
            if trumps:
                return trumps
        return hand

    def _auto_other(self) -> int:
        if self.phase == BIDDING:
            return PASS if self._pass_allowed() else BID + max(7, self.high_bid + 1)
        hand = self.hands[self.declarer]  # type: ignore[index]
        best, best_key = 0, (-1, -1, 0)
        for s in range(4):
            part = hand & C.SUIT_MASK[s]
            key = (part.bit_count(), sum(C.rank_of(c) for c in C.cards_of(part)), -s)
            if key > best_key:
                best, best_key = s, key
        return TRUMP + best

    # ------------------------------------------------------------- scoring

    def _score_deal(self, events: list[Event] | None) -> None:
        decl: int = self.declarer  # type: ignore[assignment]
        bid: int = self.contract  # type: ignore[assignment]
        team = decl & 1
        taken = [self.tricks[0] + self.tricks[2], self.tricks[1] + self.tricks[3]]
        mine, theirs = score_hand(bid, taken[team], self.options)
        deltas = [0, 0]
        deltas[team] = mine
        deltas[1 - team] = theirs
        sc = self.team_scores
        sc[0] += deltas[0]
        sc[1] += deltas[1]
        self.hand_no += 1
        if events is not None:
            events.append(
                {
                    "type": "deal_scored",
                    "deltas": {"teams": deltas},
                    "scores": self.scores(),
                    "summary": {"declarer": decl, "bid": bid, "trump": suit_code(self.trump) or "N", "tricks": taken},
                }
            )
        won = self._match_winner(team, bid, taken[team])
        if won is not None:
            self._end_match([won, won + 2], events)
            return
        self.dealer = (self.dealer + 1) & 3
        self._next_deal(events)

    def _match_winner(self, team: int, bid: int, taken: int) -> int | None:
        o = self.options
        if o["bid13_wins_match"] and bid == 13 and taken == 13:
            return team
        target = o["target"]
        sc = self.team_scores
        crossed = [t for t in (0, 1) if sc[t] >= target]
        if len(crossed) == 1:
            return crossed[0]
        if len(crossed) == 2:
            if sc[0] != sc[1]:
                return 0 if sc[0] > sc[1] else 1
            return team if o["both_cross_tie"] == "declarer_team_wins" else None
        if o["lose_at_negative_target"]:
            sunk = [t for t in (0, 1) if sc[t] <= -target]
            if len(sunk) == 1:
                return 1 - sunk[0]
        return None

    # ---------------------------------------------------------- public face

    def scores(self) -> dict[str, list[int]]:
        """The running team totals: ``{"teams": [team 0, team 1]}``."""
        return {"teams": list(self.team_scores)}

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: the public view); never another seat's hand."""
        v = self._base_view(seat)
        v["bids"] = [{"seat": s, "bid": b} for s, b in self.history]
        v["high_bid"] = None if self.high_seat < 0 else {"seat": self.high_seat, "bid": self.high_bid}
        v["passed"] = list(self.passed)
        v["declarer"] = self.declarer
        v["contract"] = self.contract
        v["trump"] = ("N" if self.phase == PLAYING else None) if self.trump is None else C.SUIT_CODES[self.trump]
        v["exposed"] = None if self.exposed is None else C.CODES[self.exposed]
        v["target"] = self.options["target"]
        v["bid_display"] = self.options["bid_display"]
        return v

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict; ``engine.load`` of it continues identically."""
        d = self._dump_shared()
        d.update(
            team_scores=list(self.team_scores),
            passed=list(self.passed),
            history=[[s, b] for s, b in self.history],
            high_bid=self.high_bid,
            high_seat=self.high_seat,
            passes=self.passes,
            declarer=self.declarer,
            contract=self.contract,
        )
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> TarneebGame:
        """Rebuild a game from :meth:`to_json`."""
        g = cls.__new__(cls)
        g._restore_shared(d)
        g.team_scores = [int(x) for x in d["team_scores"]]
        g.passed = [bool(x) for x in d["passed"]]
        g.history = tuple((int(s), None if b is None else int(b)) for s, b in d["history"])
        g.high_bid = int(d["high_bid"])
        g.high_seat = int(d["high_seat"])
        g.passes = int(d["passes"])
        g.declarer = d["declarer"]
        g.contract = d["contract"]
        return g

    def clone(self) -> TarneebGame:
        """A cheap independent copy for search (the generator is copied lazily)."""
        g = TarneebGame.__new__(TarneebGame)
        self._copy_shared_to(g)
        g._final = self._final
        g._forced = self._forced
        g._exposed_mode = self._exposed_mode
        g.team_scores = self.team_scores[:]
        g.passed = self.passed[:]
        g.history = self.history
        g.high_bid = self.high_bid
        g.high_seat = self.high_seat
        g.passes = self.passes
        g.declarer = self.declarer
        g.contract = self.contract
        return g
