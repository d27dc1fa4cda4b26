"""The records that storage keeps; plain frozen dataclasses, no chat platform types."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum, unique
from typing import Any


@unique
class TableStatus(StrEnum):
    """Where a table is in its life: a lobby, a match being played, or ended (finished by the
    rules, stopped mid-match, or a lobby cancelled). Stored as its value."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    STOPPED = "stopped"


LOBBY, PLAYING, FINISHED = TableStatus.LOBBY, TableStatus.PLAYING, TableStatus.FINISHED
CANCELLED, STOPPED = TableStatus.CANCELLED, TableStatus.STOPPED
#: A live table: in the lobby or being played (a chat has at most one).
LIVE_STATUSES = (LOBBY, PLAYING)


@dataclass(frozen=True, slots=True)
class ChatRecord:
    """A group, channel or thread that hosts tables, with its settings.

    ``chat_id`` is platform-neutral: ``"tg:-100123"``, ``"tg:-100123/7"`` (forum topic),
    ``"dc:9876"`` (channel or thread), ``"cli:local"``.
    """

    chat_id: str
    lang: str | None = None  # None: not chosen; fall back to the platform hint, then "ar"
    turn_seconds: int = 60
    digits: str = "western"  # "western" | "arabic" (Arabic-Indic digits)
    default_options: dict[str, dict[str, Any]] = field(default_factory=dict)  # game id -> options
    ai_level: str = "normal"  # "easy" | "normal" | "strong"
    #: Where a Telegram group's hands go: "both" (the private chat, and "My hand" in the group shows
    #: the hand to its player only), "group" (only the group's ephemeral hands), "dm" (only the
    #: private chat). See ``HANDS``.
    hands: str = "both"
    #: Whether people may ask to be called when a table opens or a seat frees here (``/notify
    #: tables on``, bot/core/notify.py); an admin turns it on (``/settings notify=on``). Off by default.
    notify: bool = False


#: The values of :attr:`ChatRecord.hands`.
HANDS = ("both", "group", "dm")


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A person, by platform-neutral id (``"tg:123"``, ``"dc:456"``, ``"cli:you"``)."""

    player_id: str
    name: str
    lang: str | None = None
    dm_ok: bool | None = None  # None: unknown; False: the last private message failed (403/50007)
    #: The share of the turn timer (percent, 1-100) after which the person is mentioned in the group
    #: while it is still their turn (``/notify turn 50%``, bot/core/notify.py); None: never (the default).
    turn_ping: int | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat. AI seats have ``player_id`` ``"ai:<level>:<n>"``.

    ``owner`` is the person who sat there and left or went away while an AI plays for them
    (``away``): they may come back; anyone may claim a seat whose owner left (``owner`` None).
    """

    player_id: str | None = None
    name: str = ""
    is_ai: bool = False
    owner: str | None = None
    away: bool = False
    auto_streak: int = 0


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table: lobby, live match, or finished.

    ``version`` is the number of actions applied (the length of the action log); buttons carry
    it so that a stale or doubled press is refused. ``deadline`` is the epoch-seconds time at
    which the seat to act times out (None: no timer running). ``rev`` counts the writes of the
    row: a write names the ``rev`` it read, and the repository refuses it (``TableConflict``) when
    someone else wrote the row since; the write methods return the record at its new ``rev``.
    """

    table_id: int
    chat_id: str
    game: str
    options: dict[str, Any]
    seed: int
    dealer: int | None
    creator: str
    status: TableStatus
    seats: tuple[Seat, Seat, Seat, Seat]
    version: int = 0
    created_at: float = 0.0
    deadline: float | None = None
    warned: bool = False
    lobby_deadline: float | None = None
    #: The platform's id of each message the table keeps editing, by the presenter's key
    #: (bot/present/keys.py): ``{"table:7": "123", "hand:7:tg:42": "77"}``.
    message_ids: dict[str, str] = field(default_factory=dict)
    lang: str | None = None
    ai_level: str = "normal"
    rev: int = 0  # the row's revision: every write of it bumps it (a compare-and-set, see save_table)
    #: Its timer or AI move failed this many times in a row, so it waits for a person's move, begin
    #: or stop (0: not parked). A restart leaves a parked table idle.
    parked: int = 0
    #: Person -> the seat they left while the match ran (they may take back only that seat).
    left_seats: dict[str, int] = field(default_factory=dict)
    #: Message key -> ``"<version>:<fingerprint>"`` of what that message showed at a clean stop, so
    #: that a restart at the same version does not edit it to the same content.
    shown: dict[str, str] = field(default_factory=dict)


_TABLE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TableRecord))
_TABLE_FIELD_SET = frozenset(_TABLE_FIELDS)
_new = object.__new__
_set = object.__setattr__


def evolve(table: TableRecord, **changes: Any) -> TableRecord:
    """``dataclasses.replace(table, **changes)`` at half the cost (every action makes two): the
    same record, made without going through the generated ``__init__`` (TableRecord has no
    ``__post_init__``, and every field is an ``__init__`` field). An unknown field raises TypeError."""
    if not _TABLE_FIELD_SET.issuperset(changes):
        raise TypeError(f"TableRecord has no field {sorted(set(changes) - _TABLE_FIELD_SET)[0]!r}")
    new = _new(TableRecord)
    for name in _TABLE_FIELDS:
        _set(new, name, changes[name] if name in changes else getattr(table, name))
    return new


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One applied engine action: the ``seq``-th (1-based) action of a table."""

    table_id: int
    seq: int
    seat: int
    action: str
    actor: str  # player id who sent it, "timer" for a timeout, "ai:..." for an AI seat
    at: float


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's result in a finished match."""

    player_id: str
    seat: int
    score: int
    won: bool
    left: bool = False  # left mid-match: counts as a loss


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match, written once when the engine reports ``match_over``."""

    table_id: int
    chat_id: str
    game: str
    finished_at: float
    results: tuple[PlayerResult, ...]
    scores: dict[str, list[int]]


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a chat's leaderboard for one game."""

    player_id: str
    name: str
    matches: int
    wins: int
    rating: float  # a conservative openskill ordinal (mu - 3 sigma), scaled for display
    left: int = 0  # matches left mid-match (each counted as a loss)

    @property
    def win_rate(self) -> float:
        """Wins over matches, 0 when no match."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record in one game (in one chat, or everywhere)."""

    game: str
    matches: int
    wins: int
    left: int
    rating: float
    total_score: int


#: States of an inbox entry (a command forwarded to the process that holds its table).
INBOX_PENDING, INBOX_TAKEN, INBOX_DONE, INBOX_EXPIRED = "pending", "taken", "done", "expired"


@dataclass(frozen=True, slots=True)
class InboxEntry:
    """A forwarded command as its table's holder takes it: ``request`` and the answer are JSON text."""

    entry_id: int
    table_id: int
    sender: str
    request: str


@dataclass(frozen=True, slots=True)
class LeagueRecord:
    """A league's season settings: a Telegram group, or a Discord server (``storage/seasons.py``).

    ``length_days`` None: a season is a calendar month (UTC). Below ``min_matches`` matches of a
    game in a season a player is provisional (listed, not ranked). ``ai_counts``: whether a match
    with AI seats counts for the people in it (off by default).
    """

    league: str
    length_days: int | None = None
    min_matches: int = 5
    ai_counts: bool = False


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """A league's ``number``-th season: ``[starts_at, ends_at)`` in epoch seconds.

    ``closed_at``: when its champions were written (the rollover, done once); None while open.
    """

    league: str
    number: int
    starts_at: float
    ends_at: float
    closed_at: float | None = None


@dataclass(frozen=True, slots=True)
class ChampionRecord:
    """A season's best ranked player of one game (kept after the season)."""

    league: str
    number: int
    game: str
    player_id: str
    name: str
    rating: float
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a counted match did to one person's season rating (display scale), and their season's
    match count after it (below the league's minimum: provisional)."""

    player_id: str
    before: float
    after: float
    matches: int
    min_matches: int = 5  # the league's minimum to be ranked (as it is now)

    @property
    def provisional(self) -> bool:
        return self.matches < self.min_matches


@dataclass(frozen=True, slots=True)
class SeasonSummary:
    """What is said when a season closes: its champions, who played most, the best partnership.

    ``chat_id``: the chat of the season's last match (where the summary goes), None if it had none.
    ``most_matches``: (player id, name, matches); ``partnership``: (id, name, id, name, wins, matches).
    """

    season: SeasonRecord
    chat_id: str | None
    champions: tuple[ChampionRecord, ...]
    most_matches: tuple[str, str, int] | None
    partnership: tuple[str, str, str, str, int, int] | None


@dataclass(frozen=True, slots=True)
class PersonMatch:
    """One finished match of one person, as their profile reads it (``Repository.person_matches``).

    ``league``/``season``: the season it belongs to (None: recorded before seasons were kept);
    ``counts``: it counted there. ``partner``: the final occupant of the opposite seat in the
    Tarneeb games (an AI seat's id too), None in Trix. ``rating_before``/``rating_after``: what it
    did to the person's season rating (None: it did not count).
    """

    table_id: int
    chat_id: str
    league: str | None
    season: int | None
    counts: bool
    game: str
    finished_at: float
    seat: int
    score: int
    won: bool
    left: bool
    partner: str | None = None
    partner_name: str | None = None
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A duplicate challenge of a chat (bot/core/challenges.py): ``boards`` deals of ``game`` that every
    member plays in the same seat at their own time until ``ends_at``; ``seed`` makes its deals.
    ``closed_at`` is set once, when its final ranking is made (None: open). ``season``: its result
    counts in the chat's season when it closes (``season=on``)."""

    challenge_id: int
    chat_id: str
    game: str
    boards: int
    seed: int
    creator: str
    created_at: float
    ends_at: float
    closed_at: float | None = None
    lang: str | None = None
    season: bool = False


@dataclass(frozen=True, slots=True)
class BoardRecord:
    """One person's play of one deal (``board``, from 0) of a challenge, at table ``table_id``.

    ``score`` is what the deal scored for the person's seat (their own points in Tarneeb 41, their
    team's in classic Tarneeb); ``tricks`` and ``bid`` the seat's (None: the deal was thrown in, or
    the seat did not bid); ``done_at`` None: not finished yet."""

    challenge_id: int
    player_id: str
    name: str
    board: int
    table_id: int
    score: int | None = None
    tricks: int | None = None
    bid: int | None = None
    done_at: float | None = None
