"""The engine's views and events as the bot reads them (docs/engine-contract.md), typed.

The engine hands out plain JSON-able dicts (``Game.view(seat)``, the events of ``Game.act``); it
stays standard-library only and knows nothing of the bot. This module names the shapes the bot
reads of them, so that mypy checks every key the presenter, the renderers and the adapters read.
Nothing here converts or copies a dict: the types are :class:`~typing.TypedDict`\\ s, plain dicts at
run time, and an engine dict becomes one by a ``cast`` where it enters the bot (:func:`public_view`,
:func:`seat_view`, :func:`events_of`, :data:`SeatViews`), nowhere else.

- The views: :class:`BaseView` holds what every game's view holds; :class:`TarneebView`,
  :class:`Tarneeb41View` and :class:`TrixView` add each game's own keys (a ``NotRequired`` key is in
  some views only: ``hand`` in a seat's, ``my_doubles`` in the Trix doubling window).
  :class:`TrixDecisionView` is the part of a Trix seat's view an AI decides from. :class:`View` is
  what the bot's seams carry: a view of any game, or ``{}`` before there is one, every key optional;
  the record's game says which keys are there.
- The events: a :class:`~typing.TypedDict` per ``type``; :data:`EngineEvent` the union of those
  ``Game.act`` returns, :data:`TableEvent` the union of those the table manager adds, :data:`Event`
  both (a :class:`~bot.core.model.TableUpdate`'s ``events``). Narrow one by ``e["type"] == ...``.

``tests/core/test_views.py`` plays seeded matches of each game and holds every view and event the
engine makes to these shapes, keys and value types, so that they cannot drift from the engine.
"""

# No ``from __future__ import annotations`` here: on Python 3.11 a TypedDict's ``NotRequired`` is seen
# at run time (``__optional_keys__``, which tests/core/test_views.py reads) only in evaluated annotations.
from collections.abc import Callable
from enum import StrEnum, unique
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

if TYPE_CHECKING:
    from engine.base import Game


@unique
class Phase(StrEnum):
    """The engine's ``phase`` (a view's ``"phase"``): each game uses the ones it has."""

    BID = "bid"  # Tarneeb and Tarneeb 41: the auction
    TRUMP = "trump"  # Tarneeb: the declarer names trumps
    CONTRACT = "contract"  # Trix: the kingdom's owner chooses a contract
    DOUBLE = "double"  # Trix, King of Hearts and Queens: the holders may double
    PLAY = "play"  # tricks (and the Trix layout)
    OVER = "over"  # the match is over


GameId = Literal["tarneeb", "tarneeb41", "trix"]

# ---------------------------------------------------------------------------------- the parts


class Play(TypedDict):
    """A card played to a trick: ``{"seat": 2, "card": "QS"}``."""

    seat: int
    card: str


class LastTrick(TypedDict):
    """The trick taken last: its winner and its cards in play order."""

    seat: int
    cards: list[Play]


class PastTrick(TypedDict):
    """A trick of the deal's ``history``: its winner, its leader and its cards in play order."""

    seat: int
    leader: int
    cards: list[Play]


class Scores(TypedDict, total=False):
    """Match totals (a view's and an event's ``scores``) or a deal's changes (``deltas``):
    ``teams`` in classic Tarneeb, both in Tarneeb 41, ``players`` in Trix (``teams`` too in partnership)."""

    players: list[int]
    teams: list[int]


class Double(TypedDict):
    """A doubled Trix card and its doubler."""

    card: str
    seat: int


class AuctionBid(TypedDict):
    """One call of the classic auction (``bid`` None: a pass)."""

    seat: int
    bid: int | None


class HighBid(TypedDict):
    """The standing bid of the classic auction."""

    seat: int
    bid: int


#: One move of the Trix layout: a card, or a pass (``"pass"`` is a keyword: the functional form).
LayoutMove = TypedDict("LayoutMove", {"seat": int, "card": NotRequired[str], "pass": NotRequired[bool]})


# ---------------------------------------------------------------------------------- the views


class BaseView(TypedDict):
    """What every game's view holds (``engine/trick.py``'s ``_base_view``, ``engine/trix/view.py``)."""

    game: GameId
    phase: str  # a Phase's value
    seat: int | None  # the viewer's seat; None: the public view
    to_act: int | None  # None in the Trix doubling window, but for the seat being asked
    dealer: int
    deal_no: int
    hand_sizes: list[int]
    trick: list[Play]
    leader: int | None  # the trick's leader while playing
    last_trick: LastTrick | None
    tricks: list[int]  # tricks taken this deal, by seat
    trick_no: int
    history: list[PastTrick]
    scores: Scores
    winner: list[int] | None
    legal: list[str]  # the viewer's legal moves when it is their turn, else []
    options: dict[str, Any]
    hand: NotRequired[list[str]]  # a seat's view only


class TarneebView(BaseView):
    """Classic Tarneeb (``engine/tarneeb/game.py``)."""

    bids: list[AuctionBid]
    high_bid: HighBid | None
    passed: list[bool]
    declarer: int | None
    contract: int | None  # the winning bid
    trump: str | None  # "N": no trump
    exposed: str | None
    target: int
    bid_display: str


class Tarneeb41View(BaseView):
    """Syrian Tarneeb 41 (``engine/tarneeb41/game.py``)."""

    exposed: str | None
    trump: str | None
    bids: list[int | None]  # by seat
    target: int
    min_total: int


class TrixView(BaseView):
    """Trix (``engine/trix/view.py``)."""

    kingdom: int
    owner: int
    deal_index: int
    contract: str | None
    contracts_left: list[str]
    doubled: list[Double]  # empty during the doubling window (unless doubles are public)
    layout: dict[str, list[str] | None] | None  # by suit: [low, high] rank codes; Trix contract only
    layout_history: list[LayoutMove]
    finished: list[int]  # the seats out of the layout, in order
    taken: list[list[str]]  # by seat: the scoring cards taken this deal
    deal_scores: list[int]
    exposed_twos: NotRequired[dict[str, list[str]]]  # partnership_expose_twos: by seat (as str)
    my_doubles: NotRequired[list[str]]  # the doubling window: the seat's own doubles


class TrixDecisionView(TypedDict):
    """What a Trix seat decides its move from (``Game.decision_view``, ``engine/trix/view.py``)."""

    game: GameId
    phase: str
    seat: int
    to_act: int | None
    trick: list[Play]
    legal: list[str]
    options: dict[str, Any]
    contract: str | None
    layout: dict[str, list[str] | None] | None
    hand: list[str]
    my_doubles: NotRequired[list[str]]


class View(TypedDict, total=False):
    """A view of any game as the bot's seams carry it (``TableSnapshot.public``, a seat's view), or
    ``{}`` before there is one: every key of every game, each optional; the table's game says which
    are there. Two keys mean different things by game: ``contract`` (the winning bid in Tarneeb, the
    contract's name in Trix) and ``bids`` (the auction in Tarneeb, a bid by seat in Tarneeb 41)."""

    game: GameId
    phase: str
    seat: int | None
    to_act: int | None
    dealer: int
    deal_no: int
    hand_sizes: list[int]
    trick: list[Play]
    leader: int | None
    last_trick: LastTrick | None
    tricks: list[int]
    trick_no: int
    history: list[PastTrick]
    scores: Scores
    winner: list[int] | None
    legal: list[str]
    options: dict[str, Any]
    hand: list[str]
    # Tarneeb and Tarneeb 41
    trump: str | None
    exposed: str | None
    target: int
    bids: list[AuctionBid] | list[int | None]
    # Tarneeb
    high_bid: HighBid | None
    passed: list[bool]
    declarer: int | None
    bid_display: str
    # Tarneeb 41
    min_total: int
    # Tarneeb and Trix
    contract: int | str | None
    # Trix
    kingdom: int
    owner: int
    deal_index: int
    contracts_left: list[str]
    doubled: list[Double]
    layout: dict[str, list[str] | None] | None
    layout_history: list[LayoutMove]
    finished: list[int]
    taken: list[list[str]]
    deal_scores: list[int]
    exposed_twos: dict[str, list[str]]
    my_doubles: list[str]


# ---------------------------------------------------------------------------- the engine's events


class CardPlayed(TypedDict):
    type: Literal["card_played"]
    seat: int
    card: str


class TrickTaken(TypedDict):
    type: Literal["trick_taken"]
    seat: int
    cards: list[Play]
    trick_no: int


class DealStarted(TypedDict):
    """A new deal; ``exposed`` and ``trump`` in the Tarneeb games when a card is exposed (always in
    Tarneeb 41), ``kingdom``, ``owner`` and ``deal_index`` in Trix."""

    type: Literal["deal_started"]
    deal_no: int
    dealer: int
    first: int
    exposed: NotRequired[str | None]
    trump: NotRequired[str]
    kingdom: NotRequired[int]
    owner: NotRequired[int]
    deal_index: NotRequired[int]


class BidMade(TypedDict):
    type: Literal["bid_made"]
    seat: int
    bid: int


class Passed(TypedDict):
    type: Literal["passed"]
    seat: int


class AuctionWon(TypedDict):
    type: Literal["auction_won"]
    seat: int
    bid: int


class TrumpChosen(TypedDict):
    type: Literal["trump_chosen"]
    seat: int
    suit: str  # "N": no trump


class DealThrownIn(TypedDict):
    """A deal dealt again: everyone passed (Tarneeb) or the bids total too little (``total``, Tarneeb 41)."""

    type: Literal["deal_thrown_in"]
    reason: Literal["all_passed", "low_total"]
    next_dealer: int
    total: NotRequired[int]


class DealSummary(TypedDict, total=False):
    """A ``deal_scored`` event's ``summary``: ``declarer``, ``bid``, ``trump``, ``tricks`` (by team)
    in Tarneeb; ``bids`` and ``tricks`` (by seat) in Tarneeb 41; ``contract``, ``owner``, ``tricks``,
    ``taken`` (by seat as str), ``places`` and ``doubles`` in Trix."""

    declarer: int
    bid: int
    trump: str
    tricks: list[int]
    bids: list[int]
    contract: str
    owner: int
    taken: dict[str, list[str]]
    places: list[int]
    doubles: list[Double]


class DealScored(TypedDict):
    type: Literal["deal_scored"]
    deltas: Scores
    scores: Scores
    summary: DealSummary


class MatchOver(TypedDict):
    type: Literal["match_over"]
    winner: list[int]
    scores: Scores


class ContractChosen(TypedDict):
    type: Literal["contract_chosen"]
    seat: int
    contract: str
    automatic: bool  # the kingdom's last contract, chosen by nobody


class DoublingOpened(TypedDict):
    type: Literal["doubling_opened"]
    contract: str


class CardDoubled(TypedDict):
    type: Literal["card_doubled"]
    seat: int
    card: str


class DoublesRevealed(TypedDict):
    type: Literal["doubles_revealed"]
    doubles: list[Double]


class LayoutPassed(TypedDict):
    type: Literal["layout_passed"]
    seat: int
    automatic: bool


class PlayerOut(TypedDict):
    type: Literal["player_out"]
    seat: int
    place: int
    points: int


EngineEvent = (
    CardPlayed | TrickTaken | DealStarted | BidMade | Passed | AuctionWon | TrumpChosen | DealThrownIn
    | DealScored | MatchOver | ContractChosen | DoublingOpened | CardDoubled | DoublesRevealed | LayoutPassed
    | PlayerOut
)

# ------------------------------------------------------------------------- the table's own events


class TableCreated(TypedDict):
    type: Literal["table_created"]
    game: str
    #: The finished table this one plays again (Play again), if it does.
    rematch_of: NotRequired[int]


class PlayerJoined(TypedDict):
    type: Literal["player_joined"]
    seat: int
    player: str


class PlayerLeft(TypedDict):
    type: Literal["player_left"]
    seat: int
    player: str


class SeatReclaimed(TypedDict):
    type: Literal["seat_reclaimed"]
    seat: int
    player: str


class SeatToAI(TypedDict):
    type: Literal["seat_to_ai"]
    seat: int
    reason: Literal["left", "timeouts"]


class TableStarted(TypedDict):
    type: Literal["table_started"]


class TableCancelled(TypedDict):
    type: Literal["table_cancelled"]
    reason: Literal["empty", "stopped", "lobby_timeout", "chat_moved", "board_done"]
    by: NotRequired[str]  # who stopped it


class TableParked(TypedDict):
    type: Literal["table_parked"]
    attempts: int


class AutoPlayed(TypedDict):
    type: Literal["auto_played"]
    seat: int
    action: str
    hidden: bool  # the Trix doubling window: whose move it was is not public


class TurnWarning(TypedDict):
    type: Literal["turn_warning"]
    seat: int
    seconds_left: int
    hidden: bool


class MatchRecorded(TypedDict):
    type: Literal["match_recorded"]
    results: list[dict[str, Any]]
    #: What the match did to each person's season rating (bot/core/tables/lifecycle.py): player_id,
    #: before, after, matches, provisional; absent when the match did not count in its season.
    ratings: NotRequired[list[dict[str, Any]]]


TableEvent = (
    TableCreated | PlayerJoined | PlayerLeft | SeatReclaimed | SeatToAI | TableStarted | TableCancelled
    | TableParked | AutoPlayed | TurnWarning | MatchRecorded
)
Event = EngineEvent | TableEvent

# --------------------------------------------------------------------------------- the boundary
# An engine dict enters the bot here, typed by a cast (no conversion, no copy).

#: A seat's view made on demand (``LazyViews``): the engine's bound ``Game.view``, typed.
SeatViews = Callable[[int], View]


def public_view(game: "Game") -> View:
    """``game.view(None)``, typed."""
    return cast(View, game.view(None))


def seat_view(game: "Game", seat: int | None) -> View:
    """``game.view(seat)``, typed (None: the public view)."""
    return cast(View, game.view(seat))


def seat_views(game: "Game") -> SeatViews:
    """``game.view`` itself, typed: what :class:`~bot.core.model.LazyViews` calls for a seat."""
    return cast(SeatViews, game.view)


def events_of(events: list[dict[str, Any]]) -> list[Event]:
    """The events ``Game.act`` returned, typed (a list of :data:`Event`: the table's own may join them)."""
    return cast(list[Event], events)
