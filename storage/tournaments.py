"""Tournaments: their records and their SQL for both dialects (memory keeps the same records in dicts).

A tournament is stored as one aggregate: its row in ``tournaments`` and its rows in
``tournament_players`` (who registered, checked in, and which entry they play in),
``tournament_entries`` (the pairs), ``tournament_rounds``, ``tournament_matches`` and
``tournament_audit`` (every organiser decision and every decision the bot took for a match).
:func:`save` writes it whole in one transaction, a compare-and-set on ``rev`` like a table row:
of two processes advancing the same tournament, one wins, the other gets
:class:`TournamentConflict` and reads it again (bot/core/tournaments.py). ``next_at`` is the time of
the aggregate's next pending step (check-in opening, the start, a round's deadline, the end of a
played match's review window), so that :func:`due` finds every tournament with something to do after a
restart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import StrEnum, unique
from typing import Any

from storage.errors import StorageError
from storage.season_store import Row, Sql


@unique
class TourneyStatus(StrEnum):
    REGISTRATION = "registration"
    CHECKIN = "checkin"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


#: A tournament that still has steps to run (a chat has at most one).
OPEN_STATUSES = (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN, TourneyStatus.RUNNING)


@unique
class MatchStatus(StrEnum):
    WAITING = "waiting"  # a side is not known yet (an earlier match is not decided)
    CALLED = "called"    # both sides known: its players press Ready before the round's deadline
    PLAYING = "playing"  # its table is being played (``table_id``)
    REVIEW = "review"    # played: its result (``winner``, ``how``) stands provisionally until
                         # ``review_until``; flagged (``flagged_by``): until the organiser decides
    DONE = "done"        # decided (``winner``, ``how``)


@unique
class How(StrEnum):
    """How a match was decided."""

    PLAYED = "played"        # its table finished; the pair that won the table
    BYE = "bye"              # one side only: it goes on without playing
    AI_BYE = "ai_bye"        # a played bye: the people against an AI pair, who go on only if they win
    FORFEIT = "forfeit"      # not started by the round's deadline: the forfeit rule (docs/tournaments.md)
    ORGANISER = "organiser"  # the organiser set the winner


class TournamentConflict(StorageError):
    """The tournament was written by someone else since it was read (nothing written)."""


class TournamentExists(StorageError):
    """The chat has an open tournament already."""

    def __init__(self, chat_id: str) -> None:
        super().__init__(f"chat {chat_id} has an open tournament")
        self.chat_id = chat_id


@dataclass(frozen=True, slots=True)
class TPlayer:
    """A registered person; ``entry`` is the pair they play in (fixed pairs: from registration;
    drawn pairs: from the draw at the start)."""

    player_id: str
    name: str
    registered_at: float
    checked_in: bool = False
    entry: int | None = None


@dataclass(frozen=True, slots=True)
class TEntry:
    """A pair of the bracket (``number`` from 1). ``ai``: an AI pair (a played bye), never going on.
    ``disqualified``: put out by the organiser (a match it is still listed in is a bye for the other)."""

    number: int
    players: tuple[str, ...]
    ai: bool = False
    disqualified: bool = False


@dataclass(frozen=True, slots=True)
class TRound:
    number: int
    opened_at: float
    deadline: float
    closed_at: float | None = None


@dataclass(frozen=True, slots=True)
class TMatch:
    """A match of round ``round`` at ``slot`` (from 0); in a knockout its winner goes to slot ``slot // 2``
    of the next round (in a Swiss or round robin the winner scores, and the next round is drawn when
    this one closes). ``a``/``b`` are entry numbers (None: no one, or not known yet while WAITING);
    ``a`` sits at seats 1 and 3."""

    round: int
    slot: int
    a: int | None
    b: int | None
    status: MatchStatus = MatchStatus.WAITING
    table_id: int | None = None
    ready: tuple[str, ...] = ()
    winner: int | None = None
    how: How | None = None
    decided_at: float | None = None
    review_until: float | None = None  # REVIEW: when the window ends (None: no window)
    flagged_by: str | None = None      # REVIEW: the player who flagged it (it waits for the organiser)
    flag_reason: str = ""
    #: A Trix pool (bot/core/pools.py; ``a``/``b`` are None): its entries in seat order (a round's
    #: sit-outs are one more match, a bye, of one to three entries); once decided, each seat's Trix
    #: score and tournament points in halves (4/3/2/1 by rank, ties sharing: 7 is 3½), in seat order.
    pool: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    points: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TAudit:
    """One line of the audit log: who (a person, or ``"bot"``) did what to which match, and when."""

    seq: int
    at: float
    actor: str
    action: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: int
    chat_id: str
    game: str
    format: str          # "knockout", "roundrobin", "swiss" or "swiss:<rounds>" (bot/core/leagues.py)
    pairing: str         # "draw": partners drawn at the start; "fixed": pairs register together
    organiser: str
    organiser_name: str
    status: TourneyStatus
    created_at: float
    checkin_at: float    # check-in opens
    start_at: float      # check-in closes and round 1 is drawn (the organiser may start earlier)
    round_minutes: int   # how long the players of a called match have to be ready
    ai_allowed: bool = False
    review_minutes: int = 10  # a played match's result is provisional this long (0: final at once)
    options: dict[str, Any] = field(default_factory=dict)
    lang: str | None = None
    message_id: str | None = None
    next_at: float | None = None
    rev: int = 0
    players: tuple[TPlayer, ...] = ()
    entries: tuple[TEntry, ...] = ()
    rounds: tuple[TRound, ...] = ()
    matches: tuple[TMatch, ...] = ()
    audit: tuple[TAudit, ...] = ()

    @property
    def open(self) -> bool:
        return self.status in OPEN_STATUSES

    def player(self, player_id: str) -> TPlayer | None:
        return next((p for p in self.players if p.player_id == player_id), None)

    def entry(self, number: int | None) -> TEntry | None:
        return next((e for e in self.entries if e.number == number), None)

    def match(self, round_: int, slot: int) -> TMatch | None:
        return next((m for m in self.matches if m.round == round_ and m.slot == slot), None)


# ---------------------------------------------------------------------- SQL (both dialects)

_COLUMNS = ("tournament_id, chat_id, game, format, pairing, organiser, organiser_name, status, created_at, "
            "checkin_at, start_at, round_minutes, ai_allowed, options, lang, message_id, next_at, rev, "
            "review_minutes")
_OPEN_SQL = "(" + ", ".join(f"'{s}'" for s in OPEN_STATUSES) + ")"


async def create(q: Sql, t: Tournament) -> Tournament:
    """Insert ``t`` (its id is ignored; rev 0) with its rows; :class:`TournamentExists` when the chat
    has an open tournament (the unique index decides between processes)."""
    lock = " FOR UPDATE" if q.postgres else ""
    if await q.one(f"SELECT 1 FROM tournaments WHERE chat_id = ? AND status IN {_OPEN_SQL}{lock}", t.chat_id):
        raise TournamentExists(t.chat_id)
    cols = _COLUMNS.split(", ", 1)[1]
    marks = ", ".join("?" * (len(_COLUMNS.split(", ")) - 1))
    row = await q.one(f"INSERT INTO tournaments ({cols}) VALUES ({marks}) RETURNING tournament_id",
                      *_head(replace(t, rev=0))[1:])
    assert row is not None
    new = replace(t, tournament_id=int(row[0]), rev=0)
    await _children(q, new)
    return new


async def save(q: Sql, t: Tournament) -> Tournament:
    """Write ``t`` whole if the stored one is still at ``t.rev``; the tournament at its new rev."""
    new = replace(t, rev=t.rev + 1)
    head = _head(new)
    sets = ", ".join(f"{c} = ?" for c in _COLUMNS.split(", ")[1:])
    lock = " FOR UPDATE" if q.postgres else ""
    stored = await q.one(f"SELECT rev FROM tournaments WHERE tournament_id = ?{lock}", t.tournament_id)
    if stored is None or int(stored[0]) != t.rev:
        raise TournamentConflict(f"tournament {t.tournament_id} is at rev {None if stored is None else stored[0]}"
                                 f", not {t.rev}")
    await q.run(f"UPDATE tournaments SET {sets} WHERE tournament_id = ?", *head[1:], t.tournament_id)
    for name in _CHILDREN:
        await q.run(f"DELETE FROM {name} WHERE tournament_id = ?", t.tournament_id)
    await _children(q, new)
    return new


def _head(t: Tournament) -> tuple[Any, ...]:
    return (t.tournament_id, t.chat_id, t.game, t.format, t.pairing, t.organiser, t.organiser_name, str(t.status),
            t.created_at, t.checkin_at, t.start_at, t.round_minutes, int(t.ai_allowed),
            json.dumps(t.options, sort_keys=True), t.lang, t.message_id, t.next_at, t.rev, t.review_minutes)


_CHILDREN = ("tournament_players", "tournament_entries", "tournament_rounds", "tournament_matches",
             "tournament_audit")


async def _children(q: Sql, t: Tournament) -> None:
    tid = t.tournament_id
    for p in t.players:
        await q.run("INSERT INTO tournament_players (tournament_id, player_id, name, registered_at, checked_in, "
                    "entry) VALUES (?, ?, ?, ?, ?, ?)", tid, p.player_id, p.name, p.registered_at,
                    int(p.checked_in), p.entry)
    for e in t.entries:
        await q.run("INSERT INTO tournament_entries (tournament_id, number, players, ai, disqualified) "
                    "VALUES (?, ?, ?, ?, ?)", tid, e.number, json.dumps(list(e.players)), int(e.ai),
                    int(e.disqualified))
    for r in t.rounds:
        await q.run("INSERT INTO tournament_rounds (tournament_id, number, opened_at, deadline, closed_at) "
                    "VALUES (?, ?, ?, ?, ?)", tid, r.number, r.opened_at, r.deadline, r.closed_at)
    for m in t.matches:
        await q.run("INSERT INTO tournament_matches (tournament_id, round, slot, entry_a, entry_b, status, "
                    "table_id, ready, winner, how, decided_at, review_until, flagged_by, flag_reason, pool, "
                    "pool_scores, pool_points) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    tid, m.round, m.slot, m.a, m.b, str(m.status), m.table_id, json.dumps(list(m.ready)),
                    m.winner, None if m.how is None else str(m.how), m.decided_at, m.review_until, m.flagged_by,
                    m.flag_reason, json.dumps(list(m.pool)), json.dumps(list(m.scores)),
                    json.dumps(list(m.points)))
    for a in t.audit:
        await q.run("INSERT INTO tournament_audit (tournament_id, seq, at, actor, action, detail) "
                    "VALUES (?, ?, ?, ?, ?, ?)", tid, a.seq, a.at, a.actor, a.action, a.detail)


def _ints(v: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in json.loads(v))


def _opt_int(v: Any) -> int | None:
    return None if v is None else int(v)


async def _load(q: Sql, row: Row) -> Tournament:
    tid = int(row[0])
    players = tuple(TPlayer(r[0], r[1], float(r[2]), bool(r[3]), _opt_int(r[4])) for r in await q.rows(
        "SELECT player_id, name, registered_at, checked_in, entry FROM tournament_players WHERE tournament_id = ? "
        "ORDER BY registered_at, player_id", tid))
    entries = tuple(TEntry(int(r[0]), tuple(json.loads(r[1])), bool(r[2]), bool(r[3])) for r in await q.rows(
        "SELECT number, players, ai, disqualified FROM tournament_entries WHERE tournament_id = ? ORDER BY number",
        tid))
    rounds = tuple(TRound(int(r[0]), float(r[1]), float(r[2]), None if r[3] is None else float(r[3]))
                   for r in await q.rows("SELECT number, opened_at, deadline, closed_at FROM tournament_rounds "
                                         "WHERE tournament_id = ? ORDER BY number", tid))
    matches = tuple(
        TMatch(int(r[0]), int(r[1]), _opt_int(r[2]), _opt_int(r[3]), MatchStatus(r[4]), _opt_int(r[5]),
               tuple(json.loads(r[6])), _opt_int(r[7]), None if r[8] is None else How(r[8]),
               None if r[9] is None else float(r[9]), None if r[10] is None else float(r[10]), r[11], r[12],
               _ints(r[13]), _ints(r[14]), _ints(r[15]))
        for r in await q.rows("SELECT round, slot, entry_a, entry_b, status, table_id, ready, winner, how, "
                              "decided_at, review_until, flagged_by, flag_reason, pool, pool_scores, pool_points "
                              "FROM tournament_matches "
                              "WHERE tournament_id = ? ORDER BY round, slot", tid))
    audit = tuple(TAudit(int(r[0]), float(r[1]), r[2], r[3], r[4]) for r in await q.rows(
        "SELECT seq, at, actor, action, detail FROM tournament_audit WHERE tournament_id = ? ORDER BY seq", tid))
    return Tournament(tid, row[1], row[2], row[3], row[4], row[5], row[6], TourneyStatus(row[7]), float(row[8]),
                      float(row[9]), float(row[10]), int(row[11]), bool(row[12]), int(row[18]), json.loads(row[13]),
                      row[14], row[15], None if row[16] is None else float(row[16]), int(row[17]),
                      players, entries, rounds, matches, audit)


async def get(q: Sql, tournament_id: int) -> Tournament | None:
    row = await q.one(f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id = ?", tournament_id)
    return None if row is None else await _load(q, row)


async def in_chat(q: Sql, chat_id: str) -> Tournament | None:
    """The chat's open tournament, else its newest one (None: it never had one)."""
    row = await q.one(f"SELECT {_COLUMNS} FROM tournaments WHERE chat_id = ? "
                      f"ORDER BY CASE WHEN status IN {_OPEN_SQL} THEN 0 ELSE 1 END, tournament_id DESC LIMIT 1",
                      chat_id)
    return None if row is None else await _load(q, row)


async def open_ids(q: Sql) -> list[int]:
    """Every open tournament, oldest first."""
    return [int(r[0]) for r in await q.rows(
        f"SELECT tournament_id FROM tournaments WHERE status IN {_OPEN_SQL} ORDER BY tournament_id")]


async def due(q: Sql, now: float) -> list[int]:
    """The open tournaments whose next pending step is due by ``now``, oldest step first."""
    return [int(r[0]) for r in await q.rows(
        f"SELECT tournament_id FROM tournaments WHERE status IN {_OPEN_SQL} AND next_at IS NOT NULL "
        "AND next_at <= ? ORDER BY next_at, tournament_id", now)]


class MemoryTournaments:
    """The tournament methods of :class:`storage.memory.MemoryRepository`, kept in a dict."""

    def __init__(self) -> None:
        self._tournaments: dict[int, Tournament] = {}

    async def create_tournament(self, t: Tournament) -> Tournament:
        if any(s.chat_id == t.chat_id and s.open for s in self._tournaments.values()):
            raise TournamentExists(t.chat_id)
        new = replace(t, tournament_id=max(self._tournaments, default=0) + 1, rev=0)
        self._tournaments[new.tournament_id] = new
        return new

    async def save_tournament(self, t: Tournament) -> Tournament:
        stored = self._tournaments.get(t.tournament_id)
        if stored is None or stored.rev != t.rev:
            raise TournamentConflict(f"tournament {t.tournament_id} was written since it was read")
        new = replace(t, rev=t.rev + 1)
        self._tournaments[t.tournament_id] = new
        return new

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        return self._tournaments.get(tournament_id)

    async def chat_tournament(self, chat_id: str) -> Tournament | None:
        mine = sorted((t for t in self._tournaments.values() if t.chat_id == chat_id),
                      key=lambda t: (not t.open, -t.tournament_id))
        return mine[0] if mine else None

    async def open_tournaments(self) -> list[int]:
        return sorted(i for i, t in self._tournaments.items() if t.open)

    async def due_tournaments(self, now: float) -> list[int]:
        due_ = [t for t in self._tournaments.values() if t.open and t.next_at is not None and t.next_at <= now]
        return [t.tournament_id for t in sorted(due_, key=lambda t: (t.next_at or 0.0, t.tournament_id))]
