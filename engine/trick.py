"""Trick-taking machinery shared by the two Tarneeb games (rules.md §0.4–§0.6).

Actions are small integers inside the engine and strings (``"play QS"``, ``"bid 7"``) at the
edge. :class:`TrickGame` holds what both Tarneeb games share: the seeded dealer, the hands as
52-bit masks, the trick in progress, per-seat trick counts, the play phase and the public
``act`` / ``legal`` / ``view`` plumbing. Each game adds its bidding and scoring.

>>> parse_action("play 10d") == C.parse("TD")
True
>>> action_code(BID + 7), action_code(PASS), action_code(TRUMP + C.SPADES)
('bid 7', 'pass', 'trump S')
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engine import cards as C
from engine import search
from engine.base import Dealer, Event, Game, Option, check_seat, resolve_options, split_code
from engine.errors import IllegalAction, InvalidOptions

#: Action ids: 0..51 play that card; ``BID + v`` bids ``v`` (0..99 so that bad values get a
#: precise reason); ``PASS``; ``TRUMP + suit`` names a trump (``TRUMP + 4`` is no trump).
BID = 100
PASS = 200
TRUMP = 201
NO_TRUMP = TRUMP + 4

#: Phase names of the contract.
BIDDING, TRUMP_CHOICE, PLAYING, OVER = "bid", "trump", "play", "over"

_TRUMP_LETTERS = "CDHSN"

def action_code(aid: int) -> str:
    """The action code string of an action id."""
    if aid < 52:
        return "play " + C.CODES[aid]
    if aid == PASS:
        return "pass"
    if aid >= TRUMP:
        return "trump " + _TRUMP_LETTERS[aid - TRUMP]
    return f"bid {aid - BID}"


def parse_action(action: object) -> int:
    """The action id of an action code; malformed codes raise ``IllegalAction("unknown_action")``."""
    words = split_code(action)
    verb = words[0]
    if len(words) == 1:
        if verb == "pass":
            return PASS
    elif len(words) == 2:
        arg = words[1]
        if verb == "play":
            try:
                return C.parse(arg)
            except ValueError:
                pass
        elif verb == "bid":
            if arg.isdigit() and len(arg) <= 2 and (arg[0] != "0" or arg == "0"):
                return BID + int(arg)
        elif verb == "trump" and len(arg) == 1 and arg.upper() in _TRUMP_LETTERS:
            return TRUMP + _TRUMP_LETTERS.index(arg.upper())
    raise IllegalAction("unknown_action", f"not an action: {action!r}")


def suit_code(suit: int | None) -> str | None:
    """``"S"``, ``"H"``, ``"D"``, ``"C"`` for a suit index; ``None`` stays ``None``."""
    return None if suit is None else C.SUIT_CODES[suit]


def trick_json(winner: int, leader: int, cards: tuple[int, ...]) -> dict[str, Any]:
    """A completed trick as views show it: the winner, the leader and the cards in play order."""
    return {
        "seat": winner,
        "leader": leader,
        "cards": [{"seat": (leader + i) & 3, "card": C.CODES[x]} for i, x in enumerate(cards)],
    }


class TrickGame(Game):
    """Common state and play of a four-seat, 13-trick Tarneeb deal.

    Subclasses define ``OPTIONS``, the bidding phase (``_check_bid`` / ``_apply_bid``),
    the per-deal start (``_on_deal``) and the scoring (``_score_deal``).
    """

    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    __slots__ = (
        "_dealer",
        "_dshared",
        "deal_no",
        "dealer",
        "exposed",
        "hand_no",
        "hands",
        "last_trick",
        "leader",
        "options",
        "past_tricks",
        "phase",
        "to_act",
        "trick",
        "trick_no",
        "tricks",
        "trump",
        "winner",
    )

    options: dict[str, Any]
    _dealer: Dealer
    _dshared: bool
    dealer: int
    deal_no: int
    hand_no: int
    hands: list[int]
    trump: int | None
    exposed: int | None
    leader: int
    trick: list[int]
    tricks: list[int]
    trick_no: int
    last_trick: tuple[int, int, tuple[int, ...]] | None
    past_tricks: tuple[tuple[int, int, tuple[int, ...]], ...]

    def __init__(
        self,
        seed: int = 0,
        dealer: int | None = None,
        deals: Sequence[Sequence[Sequence[str]]] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        """Start a match; ``dealer=None`` draws the first dealer from the seed."""
        if type(seed) is not int:
            raise InvalidOptions(f"seed must be an int, got {seed!r}")
        self.options = resolve_options(self.OPTIONS, options)
        self._dealer = Dealer(seed, deals)
        self._dshared = False
        if dealer is None:
            fixed = self.options.get("first_dealer", "random")
            dealer = fixed if type(fixed) is int else self._dealer.randint(0, 3)
        elif type(dealer) is not int or not 0 <= dealer <= 3:
            raise InvalidOptions(f"dealer must be a seat 0..3, got {dealer!r}")
        self._setup()
        self._reset_scores()
        self.dealer = dealer
        self.deal_no = 0
        self.hand_no = 0
        self.winner = None
        self.hands = [0, 0, 0, 0]
        self.trump = None
        self.exposed = None
        self.leader = 0
        self.trick = []
        self.tricks = [0, 0, 0, 0]
        self.trick_no = 0
        self.last_trick = None
        self.past_tricks = ()
        self._new_deal(None)

    # ----------------------------------------------------------------- hooks

    def _setup(self) -> None:
        """Derive fast attributes from ``self.options`` (called on creation and on load)."""

    @abstractmethod
    def _reset_scores(self) -> None:
        """Set the match totals to zero (called once, on creation)."""

    @abstractmethod
    def _on_deal(self, order: list[list[int]], events: list[Event] | None) -> None:
        """Reset the per-deal bidding state and set ``phase`` / ``to_act`` after a deal."""

    @abstractmethod
    def _bid_ids(self) -> list[int]:
        """The legal action ids outside the play phase."""

    @abstractmethod
    def _check_other(self, aid: int) -> None:
        """Raise ``IllegalAction`` unless ``aid`` (not a card) is legal now."""

    @abstractmethod
    def _apply_other(self, aid: int, events: list[Event] | None) -> None:
        """Apply a legal non-card action."""

    @abstractmethod
    def _score_deal(self, events: list[Event] | None) -> None:
        """Score the deal just finished, then end the match or deal the next one."""

    def _lead_mask(self, hand: int) -> int:
        """The cards that may lead the current trick (every card by default)."""
        return hand

    def _bid_playout(self, rnd: Callable[[], float]) -> None:
        """Random legal actions until the play starts or the deal ends (:func:`engine.search.playout`'s auction).

        The same actions and draws as ``_apply_other(ids[floor(rnd() * len(ids))], None)`` with
        ``ids = _bid_ids()``, repeated (:func:`engine.search.bid_playout`); games may inline it.
        """
        search.bid_playout(self, rnd)

    # ------------------------------------------------------------ deal / play

    def _new_deal(self, events: list[Event] | None) -> None:
        if self._dshared:
            self._dealer = self._dealer.clone()
            self._dshared = False
        masks, order = self._dealer.deal(self.dealer)
        self.hands = masks
        self.deal_no += 1
        self.trick = []
        self.tricks = [0, 0, 0, 0]
        self.trick_no = 0
        self.last_trick = None
        self.past_tricks = ()
        self.leader = (self.dealer + 1) & 3
        self._on_deal(order, events)

    def _start_play(self, leader: int) -> None:
        self.phase = PLAYING
        self.leader = leader
        self.to_act = leader

    def _legal_cards(self) -> int:
        hand = self.hands[self.to_act]  # type: ignore[index]
        trick = self.trick
        if not trick:
            return self._lead_mask(hand)
        follow = hand & C.SUIT_MASK[trick[0] // 13]
        return follow if follow else hand

    def _play(self, c: int, events: list[Event] | None) -> None:
        s: int = self.to_act  # type: ignore[assignment]
        self.hands[s] ^= 1 << c
        if c == self.exposed:
            self.exposed = None
        trick = self.trick
        trick.append(c)
        if events is not None:
            events.append({"type": "card_played", "seat": s, "card": C.CODES[c]})
        if len(trick) < 4:
            self.to_act = (s + 1) & 3
            return
        leader = self.leader
        w = (leader + C.trick_winner(trick, self.trump)) & 3
        self.tricks[w] += 1
        self.trick_no += 1
        self.last_trick = (w, leader, tuple(trick))
        self.past_tricks += (self.last_trick,)
        if events is not None:
            events.append(
                {
                    "type": "trick_taken",
                    "seat": w,
                    "cards": [{"seat": (leader + i) & 3, "card": C.CODES[x]} for i, x in enumerate(trick)],
                    "trick_no": self.trick_no,
                }
            )
        self.trick = []
        self.leader = w
        self.to_act = w
        if self.trick_no == 13:
            self._score_deal(events)

    def _end_match(self, winner: list[int], events: list[Event] | None) -> None:
        self.phase = OVER
        self.to_act = None
        self.winner = sorted(winner)
        self.trick = []
        if events is not None:
            events.append({"type": "match_over", "winner": list(self.winner), "scores": self.scores()})

    def _next_deal(self, events: list[Event] | None) -> None:
        self._new_deal(events)

    # ------------------------------------------------------------ fast path

    def legal_ids(self) -> list[int]:
        """The legal actions as integer ids (fast path for search; see :func:`action_code`)."""
        if self.to_act is None:
            return []
        if self.phase == PLAYING:
            hand = self.hands[self.to_act]
            trick = self.trick
            if trick:
                s = trick[0] // 13
                follow = hand >> (13 * s) & 8191
                if follow:
                    return list(C.SUIT_IDS[s][follow])
                return C.card_ids(hand)
            return C.card_ids(self._lead_mask(hand))
        return self._bid_ids()

    def step(self, aid: int) -> None:
        """Apply a legal action id without building events (fast path, no checks: :func:`engine.search.step`)."""
        search.step(self, aid)

    def playout(self, rnd: Callable[[], float]) -> None:
        """Play uniformly random legal actions until this deal ends (scored or thrown in).

        ``rnd`` returns floats in ``[0, 1)`` (e.g. ``random.Random(seed).random``). The same
        ``rnd`` stream gives the same actions as ``step(ids[int(rnd() * len(ids))])`` repeated;
        the search rollout hot path (:func:`engine.search.playout`).
        """
        search.playout(self, rnd)

    def check(self, seat: int, aid: int) -> None:
        """Raise ``IllegalAction`` unless ``seat`` may play action id ``aid`` now."""
        if self.to_act is None:
            raise IllegalAction("match_over", "the match is over")
        if seat != self.to_act:
            raise IllegalAction("not_your_turn", f"seat {self.to_act} is to act", expected=self.to_act)
        if aid < 52:
            if self.phase != PLAYING:
                raise IllegalAction("wrong_phase", f"no card play in phase {self.phase}", phase=self.phase)
            bit = 1 << aid
            if not self.hands[seat] & bit:
                raise IllegalAction("not_in_hand", f"{C.CODES[aid]} is not in the hand", card=C.CODES[aid])
            if not self._legal_cards() & bit:
                if self.trick:
                    led = C.SUIT_CODES[self.trick[0] // 13]
                    raise IllegalAction("must_follow_suit", f"must follow {led}", led=led)
                raise IllegalAction("must_lead_trump", "the first lead must be a trump", trump=self._trump_code())
            return
        if self.phase == PLAYING:
            raise IllegalAction("wrong_phase", "only cards may be played now", phase=self.phase)
        self._check_other(aid)

    # ---------------------------------------------------------- public face

    def act(self, seat: int, action: str) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the public events it caused."""
        check_seat(seat)
        if self.to_act is None:
            raise IllegalAction("match_over", "the match is over")
        aid = parse_action(action)
        self.check(seat, aid)
        events: list[Event] = []
        if aid < 52:
            self._play(aid, events)
        else:
            self._apply_other(aid, events)
        return events

    def legal(self) -> list[str]:
        """The action codes ``to_act`` may send now, in a stable order."""
        return [action_code(a) for a in self.legal_ids()]

    def auto(self) -> str:
        """The timeout move (rules.md §0.6, §1.4, §2.4); raises once the match is over."""
        return action_code(self.auto_id())

    def auto_id(self) -> int:
        """The timeout move as an action id."""
        if self.to_act is None:
            raise IllegalAction("match_over", "the match is over")
        if self.phase == PLAYING:
            return C.weakest(self._legal_cards(), self.trump)
        return self._auto_other()

    @abstractmethod
    def _auto_other(self) -> int:
        """The timeout move outside the play phase."""

    def hand(self, seat: int) -> list[str]:
        """That seat's cards as sorted codes (clubs, diamonds, hearts, spades; low to high)."""
        return C.codes_of(self.hands[check_seat(seat)])

    def _trump_code(self) -> str | None:
        return suit_code(self.trump)

    def _base_view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            check_seat(seat)
        leader = self.leader
        lt = self.last_trick
        v: dict[str, Any] = {
            "game": self.game_id,
            "phase": self.phase,
            "seat": seat,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "deal_no": self.deal_no,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "trick": [{"seat": (leader + i) & 3, "card": C.CODES[x]} for i, x in enumerate(self.trick)],
            "leader": leader if self.phase == PLAYING else None,
            "last_trick": None
            if lt is None
            else {"seat": lt[0], "cards": [{"seat": (lt[1] + i) & 3, "card": C.CODES[x]} for i, x in enumerate(lt[2])]},
            "tricks": list(self.tricks),
            "trick_no": self.trick_no,
            "history": [trick_json(w, ld, t) for w, ld, t in self.past_tricks],
            "scores": self.scores(),
            "winner": None if self.winner is None else list(self.winner),
            "legal": self.legal() if seat is not None and seat == self.to_act else [],
            "options": dict(self.options),
        }
        if seat is not None:
            v["hand"] = self.hand(seat)
        return v

    # ------------------------------------------------------------ copies and JSON (shared part)

    def _dump_shared(self) -> dict[str, Any]:
        """The fields both Tarneeb games share, as a JSON-able dict (each game's ``to_json`` adds its
        own), the dealer's generator state included."""
        lt = self.last_trick
        return {
            "game": self.game_id,
            "options": dict(self.options),
            "dealer_rng": self._dealer.to_json(),
            "phase": self.phase,
            "to_act": self.to_act,
            "winner": self.winner,
            "dealer": self.dealer,
            "deal_no": self.deal_no,
            "hand_no": self.hand_no,
            "hands": list(self.hands),
            "trump": self.trump,
            "exposed": self.exposed,
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks": list(self.tricks),
            "trick_no": self.trick_no,
            "last_trick": None if lt is None else [lt[0], lt[1], list(lt[2])],
            "past_tricks": [[w, ld, list(cs)] for w, ld, cs in self.past_tricks],
        }

    def _restore_shared(self, d: Mapping[str, Any]) -> None:
        """Set the shared fields of a bare game (``cls.__new__(cls)``) from :meth:`_dump_shared`'s dict."""
        self.options = resolve_options(self.OPTIONS, d["options"])
        self._setup()
        self._dealer = Dealer.from_json(d["dealer_rng"])
        self._dshared = False
        self.phase = str(d["phase"])
        self.to_act = d["to_act"]
        self.winner = None if d["winner"] is None else [int(x) for x in d["winner"]]
        self.dealer = int(d["dealer"])
        self.deal_no = int(d["deal_no"])
        self.hand_no = int(d["hand_no"])
        self.hands = [int(x) for x in d["hands"]]
        self.trump = d["trump"]
        self.exposed = d["exposed"]
        self.leader = int(d["leader"])
        self.trick = [int(x) for x in d["trick"]]
        self.tricks = [int(x) for x in d["tricks"]]
        self.trick_no = int(d["trick_no"])
        lt = d["last_trick"]
        self.last_trick = None if lt is None else (int(lt[0]), int(lt[1]), tuple(int(x) for x in lt[2]))
        self.past_tricks = tuple((int(w), int(ld), tuple(int(x) for x in cs)) for w, ld, cs in d.get("past_tricks", ()))

    def _copy_shared_to(self, g: TrickGame) -> None:
        """Copy the shared fields into a bare ``g`` (each game's ``clone`` adds its own); the dealer's
        generator is shared lazily."""
        g.options = self.options
        g._dealer = self._dealer
        g._dshared = self._dshared = True
        g.phase = self.phase
        g.to_act = self.to_act
        g.winner = self.winner
        g.dealer = self.dealer
        g.deal_no = self.deal_no
        g.hand_no = self.hand_no
        g.hands = self.hands[:]
        g.trump = self.trump
        g.exposed = self.exposed
        g.leader = self.leader
        g.trick = self.trick[:]
        g.tricks = self.tricks[:]
        g.trick_no = self.trick_no
        g.last_trick = self.last_trick
        g.past_tricks = self.past_tricks
