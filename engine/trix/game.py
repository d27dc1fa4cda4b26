"""Trix (kingdoms) as a deterministic state machine: rules.md §3 behind engine-contract.md.

>>> g = TrixGame(seed=1)
>>> g.phase, g.legal()[:2]
('contract', ['contract king', 'contract queens'])
>>> while g.to_act is not None:
...     _ = g.act(g.to_act, g.auto())
>>> sum(g.scores()["players"])
0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import cards as C
from engine.base import Dealer, Event, Game, check_seat, resolve_options
from engine.errors import IllegalAction
from engine.trix import layout as L
from engine.trix import search
from engine.trix.actions import CONTRACT, DONE, DOUBLE, PASS, action_code, parse_action
from engine.trix.contracts import (
    AH,
    COMPLEX,
    CONTRACT_NAMES,
    DIAMONDS,
    KH_BIT,
    KING,
    OPTIONS,
    PENALTY_CARDS,
    SCORING,
    TRICKS,
    TRIX,
    scoring_cards,
    trick_points,
)
from engine.trix.doubling import doublable_now, doubles_json, doubling_queue
from engine.trix.rules import TrixRules
from engine.trix.view import build_decision_view, build_view

SEVEN_H = C.card(7, C.HEARTS)
HEARTS_MASK = C.SUIT_MASK[C.HEARTS]


class TrixGame(Game):
    """One Trix match (20 deals in kingdoms mode, 8 in complex mode).

    Phases: ``"contract"`` (the owner chooses), ``"double"`` (K♥ / queens holders, one after
    another from the owner), ``"play"`` (tricks, or the layout in the Trix contract), ``"over"``.
    In ``mode="complex"`` a kingdom has two contracts, ``complex`` (every penalty of the four trick
    contracts in one deal, always 13 tricks; see :mod:`engine.trix.contracts`) and ``trix``.
    Search code can use the integer fast path: :meth:`legal_ids`, :meth:`step`, :meth:`auto_id`,
    :meth:`clone` (action ids: :func:`action_code`).
    """

    game_id = "trix"

    __slots__ = (
        "_dealer",
        "_rules",
        "captured",
        "contract",
        "deal_index",
        "deal_no",
        "deal_scores",
        "dealer_seat",
        "doubles",
        "exposed",
        "finished",
        "hands",
        "last_trick",
        "layout_log",
        "leader",
        "open_mask",
        "options",
        "owner",
        "past_tricks",
        "phase",
        "queue",
        "rows",
        "score_list",
        "to_act",
        "trick",
        "tricks",
        "used",
        "winner",
    )

    def __init__(
        self,
        seed: int = 0,
        dealer: int | None = None,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        """Start a match; ``dealer`` is ignored (the kingdom owner decides who deals, X-K6)."""
        self.options: dict[str, Any] = resolve_options(OPTIONS, options)
        self._rules = TrixRules.from_options(self.options)
        self._dealer = Dealer(seed, deals)
        self.score_list = [0, 0, 0, 0]
        self.winner = None
        self.used = 0
        self.deal_index = 0
        self.deal_no = 0
        self._reset_deal()
        rule = self._rules.first_owner_rule
        if rule == "seven_of_hearts":
            self.dealer_seat = 3
            self._deal_cards()
            self.owner = next(s for s in range(4) if self.hands[s] >> SEVEN_H & 1)
            if self._rules.first_deal_is_played:
                self._open_deal(None)
                return
        else:
            self.owner = 0 if rule == "fixed_seat" else self._dealer.randint(0, 3)
        self._start_deal(None)

    # ----------------------------------------------------------------- deal flow

    def _reset_deal(self) -> None:
        self.phase = "contract"
        self.to_act = None
        self.contract = -1
        self.queue: tuple[int, ...] = ()
        self.doubles: tuple[tuple[int, int], ...] = ()
        self.trick: list[int] = []
        self.leader = 0
        self.captured = [0, 0, 0, 0]
        self.tricks = [0, 0, 0, 0]
        self.rows: list[tuple[int, int]] = [(0, 0)] * 4
        self.open_mask = 0
        self.finished: list[int] = []
        self.deal_scores = [0, 0, 0, 0]
        self.last_trick: tuple[int, int, tuple[int, ...]] | None = None
        self.past_tricks: tuple[tuple[int, int, tuple[int, ...]], ...] = ()
        #: The layout's moves in order, public: ``seat * 64 + card``, or ``seat * 64 + 63`` for a pass.
        self.layout_log: tuple[int, ...] = ()
        self.exposed = False

    def _deal_cards(self) -> None:
        self.hands, _ = self._dealer.deal(self.dealer_seat)
        self.deal_no += 1

    def _start_deal(self, events: list[Event] | None) -> None:
        self._reset_deal()
        self.dealer_seat = (self.owner + 3) % 4
        self._deal_cards()
        self._open_deal(events)

    def _open_deal(self, events: list[Event] | None) -> None:
        if events is not None:
            events.append(
                {
                    "type": "deal_started",
                    "deal_no": self.deal_no,
                    "dealer": self.dealer_seat,
                    "first": self.owner,
                    "kingdom": self.kingdom,
                    "owner": self.owner,
                    "deal_index": self.deal_index,
                }
            )
        left = self._rules.left[self.used]
        if len(left) == 1:
            self._begin_contract(left[0], True, events)
        else:
            self.phase = "contract"
            self.to_act = self.owner

    def _begin_contract(self, contract: int, automatic: bool, events: list[Event] | None) -> None:
        self.contract = contract
        if events is not None:
            events.append(
                {
                    "type": "contract_chosen",
                    "seat": self.owner,
                    "contract": CONTRACT_NAMES[contract],
                    "automatic": automatic,
                }
            )
        if self._rules.doubling:
            self.queue = doubling_queue(contract, self.owner, self.hands)
        if self.queue:
            self.phase = "double"
            self.to_act = self.queue[0]
            if events is not None:
                events.append({"type": "doubling_opened", "contract": CONTRACT_NAMES[contract]})
            return
        self._begin_play(events)

    def _begin_play(self, events: list[Event] | None) -> None:
        self.phase = "play"
        self.leader = self.owner
        if self.contract == TRIX:
            self.open_mask = L.open_cards(self.rows)
            self._layout_turn(self.owner, events)
        else:
            self.to_act = self.owner

    def _end_deal(self, events: list[Event] | None) -> None:
        deltas = self.deal_scores
        sc = self.score_list
        sc[0] += deltas[0]
        sc[1] += deltas[1]
        sc[2] += deltas[2]
        sc[3] += deltas[3]
        if events is not None:
            taken = {str(s): C.codes_of(scoring_cards(self.contract, self.captured[s])) for s in range(4)}
            events.append(
                {
                    "type": "deal_scored",
                    "deltas": self._shape(list(deltas)),
                    "scores": self.scores(),
                    "summary": {
                        "contract": CONTRACT_NAMES[self.contract],
                        "owner": self.owner,
                        "tricks": list(self.tricks),
                        "taken": taken,
                        "places": list(self.finished),
                        "doubles": doubles_json(self.doubles),
                    },
                }
            )
        self.used |= 1 << self.contract
        self.deal_index += 1
        if self.deal_index >= self._rules.deals_total:
            self.phase = "over"
            self.to_act = None
            self.winner = self._winners()
            if events is not None:
                events.append({"type": "match_over", "winner": list(self.winner), "scores": self.scores()})
            return
        if self.used == self._rules.contracts_mask:  # the owner has played every contract
            self.owner = (self.owner + 1) % 4
            self.used = 0
        self._start_deal(events)

    def _winners(self) -> list[int]:
        sc = self.score_list
        if self._rules.partnership:
            a, b = sc[0] + sc[2], sc[1] + sc[3]
            if a == b:
                return [0, 1, 2, 3]
            return [0, 2] if a > b else [1, 3]
        top = max(sc)
        return [s for s in range(4) if sc[s] == top]

    def _shape(self, players: list[int]) -> dict[str, list[int]]:
        if self._rules.partnership:
            return {"players": players, "teams": [players[0] + players[2], players[1] + players[3]]}
        return {"players": players}

    # ----------------------------------------------------------------- queries

    @property
    def kingdom(self) -> int:
        """The kingdom being played, 0..3."""
        return min(self.deal_index // len(self._rules.contracts), 3)

    @property
    def rules(self) -> TrixRules:
        """The resolved options in the engine's form."""
        return self._rules

    def contracts_left(self) -> list[int]:
        """The owner's unplayed contracts, in the seed's order."""
        return list(self._rules.left[self.used])

    def trick_legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play to the current trick (X-T2 and the K♥ restriction options)."""
        hand = self.hands[seat]
        r = self._rules
        if not r.king_rules:
            if self.trick:
                follow = hand & C.SUIT_MASK[self.trick[0] // 13]
                return follow if follow else hand
            return hand
        king = self.contract in (KING, COMPLEX)
        if not self.trick:
            if king and r.no_heart_lead and hand & ~HEARTS_MASK:
                return hand & ~HEARTS_MASK
            return hand
        led = self.trick[0] // 13
        follow = hand & C.SUIT_MASK[led]
        if follow:
            if king and r.king_on_ace and led == C.HEARTS and hand & KH_BIT and AH in self.trick:
                return KH_BIT
            return follow
        if king and r.king_discard and hand & KH_BIT:
            return KH_BIT
        return hand

    def legal_mask(self) -> int:
        """The cards ``to_act`` may play now (0 outside play or when only ``pass`` is legal)."""
        if self.phase != "play" or self.to_act is None:
            return 0
        if self.contract == TRIX:
            return self.hands[self.to_act] & self.open_mask
        return self.trick_legal_mask(self.to_act)

    def legal_ids(self) -> list[int]:
        """The legal actions as integer ids (fast path for search; see :func:`action_code`)."""
        s = self.to_act
        if s is None:
            return []
        if self.phase == "play":
            m = self.hands[s] & self.open_mask if self.contract == TRIX else self.trick_legal_mask(s)
            return C.card_ids(m) if m else [PASS]
        if self.phase == "contract":
            return [CONTRACT + c for c in self.contracts_left()]
        m = doublable_now(self.contract, self.hands[s], self.doubles)
        return [DOUBLE + c for c in C.cards_of(m)] + [DONE]

    def legal(self) -> list[str]:
        """The action codes ``to_act`` may send now, in a stable order."""
        return [action_code(a) for a in self.legal_ids()]

    def auto_id(self) -> int:
        """The timeout move as an action id (rules.md §3.5)."""
        if self.to_act is None:
            raise IllegalAction("match_over", "the match is over")
        if self.phase == "contract":
            return CONTRACT + self.contracts_left()[0]
        if self.phase == "double":
            return DONE
        m = self.legal_mask()
        return C.weakest(m) if m else PASS

    def auto(self) -> str:
        """The timeout move (rules.md §3.5)."""
        return action_code(self.auto_id())

    def hand(self, seat: int) -> list[str]:
        """That seat's cards as sorted codes."""
        return C.codes_of(self.hands[check_seat(seat)])

    def scores(self) -> dict[str, list[int]]:
        """The running match totals (``teams`` too under ``partnership``)."""
        return self._shape(list(self.score_list))

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: the public view), JSON-able."""
        if seat is not None:
            check_seat(seat)
        return build_view(self, seat)

    def decision_view(self, seat: int) -> dict[str, Any]:
        """The keys of ``view(seat)`` a decision reads (:data:`engine.trix.view.DECISION_KEYS`, the
        hand and in the doubling window ``my_doubles``), with the same values, about a third of the
        cost: no history, scores or layout log."""
        return build_decision_view(self, check_seat(seat))

    # ----------------------------------------------------------------- actions

    def act(self, seat: int, action: str) -> list[Event]:
        """Apply one action for ``seat``; return the public events it caused."""
        if self.to_act is None:
            raise IllegalAction("match_over", "the match is over")
        check_seat(seat)
        aid = parse_action(action)
        self.check(seat, aid)
        events: list[Event] = []
        self._apply(aid, events)
        return events

    def check(self, seat: int, aid: int) -> None:
        """Raise ``IllegalAction`` unless ``seat`` may take action id ``aid`` now."""
        if self.to_act is None:
            raise IllegalAction("match_over", "the match is over")
        if seat != self.to_act:
            raise IllegalAction("not_your_turn", f"seat {self.to_act} is to act", expected=self.to_act)
        phase = self.phase
        if aid < 52:
            code = C.code(aid)
            if phase != "play":
                raise IllegalAction("wrong_phase", "no card is played now", phase=phase)
            if not self.hands[seat] >> aid & 1:
                raise IllegalAction("not_in_hand", f"{code} is not in hand", card=code)
            if self.contract == TRIX:
                if not self.open_mask >> aid & 1:
                    raise IllegalAction("not_legal_in_layout", f"{code} does not fit the layout", card=code)
            elif not self.trick_legal_mask(seat) >> aid & 1:
                raise self._trick_refusal(seat, aid)
        elif aid < DOUBLE:
            c = aid - CONTRACT
            name = CONTRACT_NAMES[c]
            if c not in self._rules.contracts:
                raise IllegalAction("unknown_action", f"no such contract here: {name!r}")
            if phase != "contract":
                raise IllegalAction("wrong_phase", "no contract is being chosen now", phase=phase)
            if self.used >> c & 1:
                raise IllegalAction("contract_already_played", f"{name} was already played", contract=name)
        elif aid < DONE:
            card = aid - DOUBLE
            code = C.code(card)
            if phase != "double":
                raise IllegalAction("cannot_double", "no doubling now", card=code)
            if not doublable_now(self.contract, self.hands[seat], self.doubles) >> card & 1:
                raise IllegalAction("cannot_double", f"{code} cannot be doubled", card=code)
        elif aid == DONE:
            if phase != "double":
                raise IllegalAction("wrong_phase", "no doubling now", phase=phase)
        else:
            if phase != "play" or self.contract != TRIX:
                raise IllegalAction("wrong_phase", "pass is only for the Trix layout", phase=phase)
            if self.hands[seat] & self.open_mask:
                raise IllegalAction("must_play_when_able", "a card can be played")

    def step(self, aid: int) -> None:
        """Apply a legal action id for ``to_act`` without building events (fast path; no checks)."""
        search.step(self, aid)

    def playout(self, rnd: Callable[[], float]) -> None:
        """Play uniformly random legal actions until this deal ends (or the match does).

        ``rnd`` returns floats in ``[0, 1)``. The same stream gives the same actions as
        ``step(ids[int(rnd() * len(ids))])`` with ``ids = legal_ids()``, repeated; the rollout hot
        path for search (:func:`engine.trix.search.playout`).
        """
        search.playout(self, rnd)

    def _apply(self, aid: int, events: list[Event] | None) -> None:
        seat = self.to_act
        assert seat is not None
        if aid < 52:
            if self.contract == TRIX:
                self._layout_play(seat, aid, events)
            else:
                self._trick_play(seat, aid, events)
            return
        if aid < DOUBLE:
            self._begin_contract(aid - CONTRACT, False, events)
        elif aid < DONE:
            card = aid - DOUBLE
            self.doubles = (*self.doubles, (card, seat))
            if self._rules.public_doubles and events is not None:
                events.append({"type": "card_doubled", "seat": seat, "card": C.code(card)})
        elif aid == DONE:
            self.queue = self.queue[1:]
            if self.queue:
                self.to_act = self.queue[0]
                return
            if events is not None:
                events.append({"type": "doubles_revealed", "doubles": doubles_json(self.doubles)})
            self._begin_play(events)
        else:
            self.exposed = True
            self.layout_log += (seat * 64 + 63,)
            if events is not None:
                events.append({"type": "layout_passed", "seat": seat, "automatic": False})
            self._layout_turn((seat + 1) % 4, events)

    def _trick_refusal(self, seat: int, card: int) -> IllegalAction:
        hand = self.hands[seat]
        code = C.code(card)
        if self.trick:
            led = self.trick[0] // 13
            if hand & C.SUIT_MASK[led] and card // 13 != led:
                return IllegalAction(
                    "must_follow_suit", f"follow {C.SUIT_CODES[led]}", led=C.SUIT_CODES[led], card=code
                )
            return IllegalAction("must_play_king", "the K♥ must be played", card=code)
        return IllegalAction("no_heart_lead", "hearts may not be led in the K♥ contract", card=code)

    def _trick_play(self, seat: int, card: int, events: list[Event] | None) -> None:
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        self.exposed = True
        if events is not None:
            events.append({"type": "card_played", "seat": seat, "card": C.code(card)})
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        self._close_trick(events)

    def _close_trick(self, events: list[Event] | None) -> None:
        """Score the full trick in ``self.trick``, give the lead to its winner, end the deal if done."""
        leader = self.leader
        cards = self.trick
        c0, c1, c2, c3 = cards
        led = c0 // 13  # no trumps in Trix: the highest card of the suit led (C.trick_winner, inlined)
        w, top = 0, c0
        if c1 // 13 == led and c1 > top:
            w, top = 1, c1
        if c2 // 13 == led and c2 > top:
            w, top = 2, c2
        if c3 // 13 == led and c3 > top:
            w = 3
        winner = (leader + w) % 4
        mask = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
        self.captured[winner] |= mask
        self.tricks[winner] += 1
        r = self._rules
        ds = self.deal_scores
        contract = self.contract
        if contract == TRICKS:
            ds[winner] -= r.penalties[3]
        elif contract == DIAMONDS:
            ds[winner] -= r.penalties[2] * (mask & C.SUIT_MASK[C.DIAMONDS]).bit_count()
        elif mask & SCORING[contract]:
            pts = trick_points(
                contract,
                mask,
                winner=winner,
                leader=leader,
                doubles=self.doubles,
                penalties=r.penalties,
                self_capture=r.self_capture,
            )
            for s in range(4):
                ds[s] += pts[s]
        n = self.tricks[0] + self.tricks[1] + self.tricks[2] + self.tricks[3]
        if events is not None:
            events.append(
                {
                    "type": "trick_taken",
                    "seat": winner,
                    "cards": [{"seat": (leader + i) % 4, "card": C.code(cards[i])} for i in range(4)],
                    "trick_no": n,
                }
            )
        self.last_trick = (winner, leader, tuple(cards))
        self.past_tricks += (self.last_trick,)
        self.trick = []
        self.leader = winner
        self.to_act = winner
        pen = PENALTY_CARDS[self.contract]
        all_taken = self.captured[0] | self.captured[1] | self.captured[2] | self.captured[3]
        if n == 13 or (r.early_end and pen and all_taken & pen == pen):
            self._end_deal(events)

    def _layout_play(self, seat: int, card: int, events: list[Event] | None) -> None:
        self.hands[seat] &= ~(1 << card)
        self.exposed = True
        self.layout_log += (seat * 64 + card,)
        s = card // 13
        row = L.place(self.rows[s], card % 13 + 2)
        self.rows[s] = row
        self.open_mask = (self.open_mask & ~C.SUIT_MASK[s]) | L.row_open(s, row[0], row[1])
        if events is not None:
            events.append({"type": "card_played", "seat": seat, "card": C.code(card)})
        if not self.hands[seat]:
            self._player_out(seat, events)
            if len(self.finished) == 3:
                last = next(x for x in range(4) if x not in self.finished)
                self._player_out(last, events)
                self._end_deal(events)
                return
        self._layout_turn((seat + 1) % 4, events)

    def _player_out(self, seat: int, events: list[Event] | None) -> None:
        self.finished.append(seat)
        place = len(self.finished)
        points = self._rules.trix_scores[place - 1]
        self.deal_scores[seat] += points
        if events is not None:
            events.append({"type": "player_out", "seat": seat, "place": place, "points": points})

    def _layout_turn(self, seat: int, events: list[Event] | None) -> None:
        """Give the turn to the first seat from ``seat`` that holds cards, auto-passing (X-L3, X-L4)."""
        for _ in range(8):
            hand = self.hands[seat]
            if hand:
                if hand & self.open_mask or not self._rules.auto_pass:
                    self.to_act = seat
                    return
                self.layout_log += (seat * 64 + 63,)
                if events is not None:
                    events.append({"type": "layout_passed", "seat": seat, "automatic": True})
            seat = (seat + 1) % 4
        raise AssertionError("the layout cannot lock up (X-L6)")

    # ----------------------------------------------------------------- copies

    def clone(self) -> TrixGame:
        """A cheap independent copy for search (the dealer's generator is shared until used)."""
        g = type(self).__new__(type(self))
        g.options = self.options
        g._rules = self._rules
        g._dealer = self._dealer.clone()
        g.phase = self.phase
        g.to_act = self.to_act
        g.winner = self.winner
        g.score_list = self.score_list[:]
        g.owner = self.owner
        g.used = self.used
        g.deal_index = self.deal_index
        g.deal_no = self.deal_no
        g.dealer_seat = self.dealer_seat
        g.contract = self.contract
        g.hands = self.hands[:]
        g.queue = self.queue
        g.doubles = self.doubles
        g.trick = self.trick[:]
        g.leader = self.leader
        g.captured = self.captured[:]
        g.tricks = self.tricks[:]
        g.rows = self.rows[:]
        g.open_mask = self.open_mask
        g.finished = self.finished[:]
        g.deal_scores = self.deal_scores[:]
        g.last_trick = self.last_trick
        g.past_tricks = self.past_tricks
        g.layout_log = self.layout_log
        g.exposed = self.exposed
        return g

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict of every field, the dealer's generator state included; ``engine.load`` of it
        continues identically."""
        lt = self.last_trick
        return {
            "game": "trix",
            "options": {k: (list(v) if isinstance(v, list) else v) for k, v in self.options.items()},
            "dealer": self._dealer.to_json(),
            "phase": self.phase,
            "to_act": self.to_act,
            "winner": None if self.winner is None else list(self.winner),
            "scores": list(self.score_list),
            "owner": self.owner,
            "used": self.used,
            "deal_index": self.deal_index,
            "deal_no": self.deal_no,
            "dealer_seat": self.dealer_seat,
            "contract": self.contract,
            "hands": list(self.hands),
            "queue": list(self.queue),
            "doubles": [[c, s] for c, s in self.doubles],
            "trick": list(self.trick),
            "leader": self.leader,
            "captured": list(self.captured),
            "tricks": list(self.tricks),
            "rows": [[lo, hi] for lo, hi in self.rows],
            "open_mask": self.open_mask,
            "finished": list(self.finished),
            "deal_scores": list(self.deal_scores),
            "last_trick": None if lt is None else [lt[0], lt[1], list(lt[2])],
            "past_tricks": [[w, ld, list(cs)] for w, ld, cs in self.past_tricks],
            "layout_log": list(self.layout_log),
            "exposed": self.exposed,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> TrixGame:
        """The inverse of :meth:`to_json`."""
        g = cls.__new__(cls)
        g._restore(d)
        return g

    def _restore(self, d: Mapping[str, Any]) -> None:
        """Set every field of a bare game (``TrixGame.__new__``) from :meth:`to_json`'s dict."""
        self.options = resolve_options(OPTIONS, d["options"])
        self._rules = TrixRules.from_options(self.options)
        self._dealer = Dealer.from_json(d["dealer"])
        self.phase = str(d["phase"])
        self.to_act = None if d["to_act"] is None else int(d["to_act"])
        self.winner = None if d["winner"] is None else [int(x) for x in d["winner"]]
        self.score_list = [int(x) for x in d["scores"]]
        self.owner = int(d["owner"])
        self.used = int(d["used"])
        self.deal_index = int(d["deal_index"])
        self.deal_no = int(d["deal_no"])
        self.dealer_seat = int(d["dealer_seat"])
        self.contract = int(d["contract"])
        self.hands = [int(x) for x in d["hands"]]
        self.queue = tuple(int(x) for x in d["queue"])
        self.doubles = tuple((int(c), int(s)) for c, s in d["doubles"])
        self.trick = [int(x) for x in d["trick"]]
        self.leader = int(d["leader"])
        self.captured = [int(x) for x in d["captured"]]
        self.tricks = [int(x) for x in d["tricks"]]
        self.rows = [(int(lo), int(hi)) for lo, hi in d["rows"]]
        self.open_mask = int(d["open_mask"])
        self.finished = [int(x) for x in d["finished"]]
        self.deal_scores = [int(x) for x in d["deal_scores"]]
        lt = d["last_trick"]
        self.last_trick = None if lt is None else (int(lt[0]), int(lt[1]), tuple(int(x) for x in lt[2]))
        self.past_tricks = tuple((int(w), int(ld), tuple(int(x) for x in cs)) for w, ld, cs in d.get("past_tricks", ()))
        self.layout_log = tuple(int(x) for x in d.get("layout_log", ()))
        self.exposed = bool(d["exposed"])
