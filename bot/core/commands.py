"""Typed commands: what a person asked for, parsed from a platform event (bot/core/service.py runs them).

An adapter turns a Telegram or Discord event into one command plus an :class:`Actor` and hands both
to :meth:`bot.core.service.Service.dispatch`; nothing else decides who may do what. ``table_id`` is the
table a button or link names (None: the live table of the chat the command came from).

Each command names what its dispatch answers (:class:`Answers`): ``Act`` answers a
:class:`~bot.core.model.TableSnapshot`, ``ShowHand`` a :class:`Hand`, and so on, so that mypy checks
what every caller does with the answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from ai import advice
from bot.core.challenges import ChallengeView
from bot.core.identity import is_dm
from bot.core.model import Person, TableSnapshot
from bot.core.notify import NotifyState
from bot.core.profiles import Profile
from bot.core.seasons import Standings
from bot.core.views import View
from storage.records import (
    ChallengeRecord,
    ChampionRecord,
    ChatRecord,
    LeaderRow,
    LeagueRecord,
    PlayerRecord,
    SeasonSummary,
)
from storage.tournaments import Tournament

R = TypeVar("R")


class Answers(Generic[R]):
    """A command whose dispatch answers an ``R`` (:meth:`bot.core.service.Service.dispatch`)."""

    __slots__ = ()


class Hand(NamedTuple):
    """What "My hand" answers: the table, the person's seat, and that seat's engine view."""

    snapshot: TableSnapshot
    seat: int
    view: View


class Advice(NamedTuple):
    """What "Hint" and "Review" answer, to the person who asked only: the table, their seat, and the
    hint (:class:`Hint`) or the review of their last finished deal (:class:`Review`)."""

    snapshot: TableSnapshot
    seat: int
    hint: advice.Hint | None = None
    review: advice.Review | None = None


#: The chat's leaderboard of each game asked for (game id -> rows).
Leaderboards = dict[str, list[LeaderRow]]


async def _no() -> bool:
    return False


async def _unknown(chat_id: str) -> bool | None:
    return None


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sent a command, and from where.

    - ``chat_id``: the group chat or channel it came from (``"tg:-100"``, ``"dc:5"``), or the
      person's private chat (``"dm:tg:7"``).
    - ``is_admin()``: whether they administer that chat (asked only when a rule needs it).
    - ``is_member(chat_id)``: whether they belong to another chat (True/False, None: cannot tell).
    - ``can_sit``: False for a sender who is not one person (Telegram's anonymous group admins).
    - ``event_id``: the platform's id of the event (``"tg:<update_id>"``, ``"dc:<interaction id>"``),
      if the adapter gives it: a command forwarded to another process (``bot/core/cluster/routing.py``) under
      the same event id is applied once, however often it is retried.
    """

    person: Person
    chat_id: str
    is_admin: Callable[[], Awaitable[bool]] = _no
    is_member: Callable[[str], Awaitable[bool | None]] = _unknown
    can_sit: bool = True
    event_id: str | None = None

    @property
    def in_dm(self) -> bool:
        """The command came from the person's private chat with the bot."""
        return is_dm(self.chat_id)


@dataclass(frozen=True, slots=True)
class NewTable(Answers[TableSnapshot]):
    game: str
    options: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Join(Answers[TableSnapshot]):
    table_id: int | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class JoinByLink(Answers[TableSnapshot]):
    """``/start <payload>`` in a private chat: the signed invitation of a lobby's Join button."""

    payload: str


@dataclass(frozen=True, slots=True)
class Leave(Answers[TableSnapshot]):
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Begin(Answers[TableSnapshot]):
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Stop(Answers[TableSnapshot]):
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Claim(Answers[TableSnapshot]):
    seat: int
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Rematch(Answers[TableSnapshot]):
    """Play again after the finished match ``table_id``: a new table of the same game, options and
    people in the same chat (``swap``: the people of seats 1 and 2 trade places, new partners)."""

    table_id: int
    swap: bool = False


@dataclass(frozen=True, slots=True)
class Act(Answers[TableSnapshot]):
    table_id: int
    version: int | None
    code: str


@dataclass(frozen=True, slots=True)
class NextDeal(Answers[TableSnapshot]):
    """A seated person has read a deal's result ("Next deal"): the pause before the next deal's first
    AI move ends, when they are the only person at the table (``ManagerSettings.deal_pause``)."""

    table_id: int


@dataclass(frozen=True, slots=True)
class ShowHand(Answers[Hand]):
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Hint(Answers[Advice]):
    """What the strong search would play at the asker's turn (tables with hints on only); ``version``:
    the position the button was drawn for (a press after the table moved on is ``stale``)."""

    table_id: int | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Review(Answers[Advice]):
    """The asker's costliest card of their last finished deal at the table (tables with hints on only)."""

    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class ShowScores(Answers[TableSnapshot]):
    """The running totals of the chat's live table (group chats only)."""

    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class ShowLeaderboard(Answers[Leaderboards]):
    """The chat's best players of each of ``games`` (group chats only)."""

    games: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetLanguage(Answers[ChatRecord | PlayerRecord]):
    """``scope`` ``"chat"``: the chat's (or server's) language, admins only; ``"me"``: one's own."""

    lang: str
    scope: str = "chat"


@dataclass(frozen=True, slots=True)
class ChangeSettings(Answers[ChatRecord]):
    """Chat settings (``turn_seconds``, ``digits``, ``ai_level``, ``default_options``, ``hands``: where a
    Telegram group's hands go, ``storage.records.HANDS``); admins only.

    ``scope``: ``"server"`` changes where the chat's settings live (a Discord channel's server, else
    the chat); ``"channel"`` stores an override of this channel only; ``"reset"`` forgets that
    override (the channel follows its server again), then applies ``changes`` to the server.
    """

    changes: dict[str, Any] = field(default_factory=dict)
    scope: str = "server"


@dataclass(frozen=True, slots=True)
class ShowSeason(Answers[Standings]):
    """The table of ``game`` of the chat's league (group chats only): this season's, or ``all_time``."""

    game: str
    all_time: bool = False


@dataclass(frozen=True, slots=True)
class ShowSeasonHistory(Answers[list[ChampionRecord]]):
    """The champions of the chat's league, newest season first (group chats only)."""


@dataclass(frozen=True, slots=True)
class EndSeason(Answers[SeasonSummary]):
    """End the running season ``number`` now: the confirmation button of ``/season end`` (admins only)."""

    number: int


@dataclass(frozen=True, slots=True)
class ChangeSeason(Answers[LeagueRecord]):
    """The league's season settings (admins only): ``length_days`` (0: calendar months),
    ``min_matches`` to be ranked, ``ai_counts`` (matches with AI seats count); None: unchanged."""

    length_days: int | None = None
    min_matches: int | None = None
    ai_counts: bool | None = None


@dataclass(frozen=True, slots=True)
class ChangeNotify(Answers[NotifyState]):
    """One's own notifications (bot/core/notify.py): ``what`` ``"show"``; ``"turn"``: be mentioned after
    ``share`` percent of the turn (None: never); ``"tables"``: be called (``on``) when a table opens or
    a seat frees in this chat (groups only, where the chat allows it; stopping is always allowed);
    ``"matches"``: be told in private (``on``) of one's tournament matches (anywhere)."""

    what: str = "show"
    share: int | None = None
    on: bool = False


@dataclass(frozen=True, slots=True)
class ShowProfile(Answers[Profile]):
    """A person's record and profile (``/stats``, ``/profile``, bot/core/profiles.py).

    ``everywhere`` False: in the chat's league, from its group chat, of the asker or of another
    person of it (``player_id``, ``name``); True: across every chat, of the asker only and only in
    their private chat (``player_id`` None or their own).
    """

    everywhere: bool = False
    player_id: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class StartChallenge(Answers[ChallengeRecord]):
    """``/challenge new``: a duplicate challenge of ``boards`` deals of ``game`` for ``days`` days in the
    group (admins only; bot/core/challenges.py); ``season``: it counts in the group's season."""

    game: str
    boards: int
    days: int
    season: bool = False


@dataclass(frozen=True, slots=True)
class PlayChallenge(Answers[TableSnapshot]):
    """Play the chat's open challenge: the person's current deal at a table in their private chat.

    From the group (``challenge_id`` None: the group's open one), or from the private chat by someone
    who started that challenge in its group (``challenge_id`` named)."""

    challenge_id: int | None = None


@dataclass(frozen=True, slots=True)
class ShowChallenge(Answers[ChallengeView]):
    """The group's newest challenge, its ranking, and one's own deals against the field once one has
    played them all (group chats only)."""


@dataclass(frozen=True, slots=True)
class NewTournament(Answers[Tournament]):
    """``/tournament new``: a pair tournament of ``game`` in this group (admins only, bot/core/tournaments.py),
    ``format`` knockout, swiss (``rounds``: how many; None: ceil(log2 pairs)) or roundrobin.
    Check-in opens ``checkin_minutes`` before the start, ``start_minutes`` from now; the players of a
    called match have ``round_minutes`` to be ready; ``ai``: byes are AI pairs the people must beat."""

    game: str
    pairing: str = "draw"
    start_minutes: int = 60
    checkin_minutes: int = 30
    round_minutes: int = 15
    ai: bool = False
    options: dict[str, Any] | None = None
    format: str = "knockout"
    review_minutes: int = 10
    rounds: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentAction(Answers[Tournament]):
    """A tournament button or ``/tournament <verb>`` in its group: ``show``, ``audit`` (the log),
    ``register`` (``pair``: join that fixed pair), ``withdraw``, ``checkin``, ``ready``, ``flag`` (one's
    match in review, with a ``reason``); the organiser's (or an admin's) ``start``, ``cancel`` and
    ``decide`` (``match`` "<round>-<n>", ``decision`` uphold, winner, replay or disqualify, ``pair`` for
    the last two but one). ``tournament_id``: the one a button names (None: the chat's)."""

    verb: str
    tournament_id: int | None = None
    pair: int | None = None
    reason: str = ""
    match: str | None = None
    decision: str | None = None


#: The season, tournament and challenge commands: they read and change storage only (a tournament's
#: changes are compare-and-sets in storage; a match table it opens, or a challenge's deal at a table in
#: the asker's own private chat, is held where it is made), so every process runs them itself.
SEASON_COMMANDS = (ShowSeason, ShowSeasonHistory, EndSeason, ChangeSeason, ShowProfile, NewTournament,
                   TournamentAction, StartChallenge, PlayChallenge, ShowChallenge)

#: Every command the dispatch runs.
Command = (NewTable | Join | JoinByLink | Leave | Begin | Stop | Claim | Rematch | Act | NextDeal | ShowHand
           | Hint | Review | ShowScores | ShowLeaderboard | SetLanguage | ChangeSettings | ShowSeason
           | ShowSeasonHistory | EndSeason | ChangeSeason | ChangeNotify | ShowProfile | NewTournament
           | TournamentAction | StartChallenge | PlayChallenge | ShowChallenge)

#: Every answer the dispatch gives (each command's own is in its class line).
Answer = (TableSnapshot | Hand | Advice | Leaderboards | ChatRecord | PlayerRecord | Standings
          | list[ChampionRecord] | SeasonSummary | LeagueRecord | NotifyState | Profile | Tournament
          | ChallengeRecord | ChallengeView)
