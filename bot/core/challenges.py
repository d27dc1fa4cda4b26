"""The duplicate challenge: every member of a chat plays the same deals in the same seat, at their own time.

An admin starts one (``/challenge new``: the game, the number of deals, how many days). Each person
plays it in their private chat with the bot, one deal ("board") at a time: a table of its own in
that private chat (its chat id is the person's private destination, ``dm:<player>``), the person in
seat 0, AI players in the other three. Board ``k`` of a challenge is the first deal of a table whose
seed is :func:`board_seed` of the challenge's seed and ``k``, dealt by seat :data:`DEALER`: every
person gets the same cards in the same seat, and the scores start at zero, so the bidding minimums
are the same for everyone. The table ends as soon as its first deal is scored or thrown in
(``bot/core/tables/pipeline.py``: a table in a private chat plays one deal); the next board's
table opens at once.

The AI players are the rule player (:data:`AI_LEVEL`) seeded for every decision from the table's seed
and the position (the number of actions played, :func:`bot.core.tables.pipeline.position_rng`), so
what they do depends only on the deal and on what the person played, in every process and after
every restart. (The searching levels bound their work by CPU time, so two runs of one position may
search different numbers of deals: they would not answer every person identically.)

Results: per board, each person's score (their own points in Tarneeb 41 and Trix, their team's in
classic Tarneeb). Tarneeb is ranked by matchpoints: against everyone else's score on that board, 2
matchpoints for each one beaten and 1 for each tie (:func:`matchpoints`), as a percentage of the top; a
person's result is the mean of their boards' percentages over all the challenge's boards (a board not
played counts 0%). Trix is ranked by points against the field (:func:`against_field`): on each board
the person's points minus the mean of everyone else's who played it, averaged over all the challenge's
boards (a board not played counts as the lowest score anyone made on it). A person sees the deal by
deal comparison with the field only once they have played every board (or the challenge closed).
The challenge closes at its end (:meth:`Challenges.tick`, each process; storage lets one close it, and
only that one announces the final ranking).

A Trix board is one deal of one contract: board ``k`` is :func:`board_contract` (the five contracts in
turn, K♥ first), the engine's ``only_contract`` option, so the contract is not chosen by anyone; the
kingdom's owner (who leads, and asks first whether to double) is the holder of the 7♥, as in a
match's first deal, so it is the person on some boards and an AI on others, the same for everyone.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import engine
from bot.core.errors import Refusal, TableError
from bot.core.identity import dm_dest, is_dm, player_of_dm
from bot.core.listeners import tell
from bot.core.model import Person, TableSnapshot, TableUpdate
from bot.core.prefs import Prefs, check_options
from bot.core.table import EMPTY, Table
from bot.core.tables.lifecycle import Lifecycle
from bot.core.tables.registry import Registry
from bot.core.views import Event
from storage.challenges import OpenChallengeExists
from storage.errors import ChatHasLiveTable
from storage.records import FINISHED, LOBBY, PLAYING, STOPPED, BoardRecord, ChallengeRecord, Seat, TableRecord
from storage.repository import Repository
from storage.season_store import ChallengeEntry

log = logging.getLogger(__name__)

#: The games a challenge may be of.
GAMES = ("tarneeb41", "tarneeb", "trix")
#: The contracts of Trix boards, in turn from board 0 (the engine's ``only_contract``).
TRIX_CONTRACTS = ("king", "queens", "diamonds", "tricks", "trix")
MAX_BOARDS = 16
MAX_DAYS = 14
#: The dealer of every board: seat 3, so the person (seat 0) speaks first.
DEALER = 3
#: The AI of every board: the rule player, reproducible from its seed (see the module).
AI_LEVEL = "easy"
#: The reason of the ``table_cancelled`` event that ends a board's table after its one deal.
BOARD_DONE = "board_done"


def _hash63(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def board_seed(seed: int, board: int) -> int:
    """The seed of the table of board ``board`` (from 0) of a challenge of ``seed``."""
    return _hash63(f"challenge:{seed}:board:{board}")


def board_contract(board: int) -> str:
    """The Trix contract of board ``board`` (from 0): the five contracts in turn."""
    return TRIX_CONTRACTS[board % len(TRIX_CONTRACTS)]


def board_options(game: str, board: int) -> dict[str, Any]:
    """The engine options of a board's table (before the defaults): a Trix board's one contract."""
    return {"only_contract": board_contract(board)} if game == "trix" else {}


def trix_units(summary: dict[str, Any], seat: int) -> int:
    """What ``seat`` took in a Trix deal, in the contract's own unit: the King of Hearts (1 or 0), its
    queens, its diamonds, its tricks, or in the Trix contract its finishing place (1 to 4)."""
    contract = summary["contract"]
    taken = [str(c) for c in (summary.get("taken") or {}).get(str(seat)) or []]
    if contract == "king":
        return int("KH" in taken)
    if contract == "queens":
        return sum(1 for c in taken if c[0] == "Q")
    if contract == "diamonds":
        return sum(1 for c in taken if c[1] == "D")
    if contract == "trix":
        places = [int(p) for p in summary.get("places") or []]
        return places.index(seat) + 1 if seat in places else 4
    return int(summary["tricks"][seat])


def board_result(record: TableRecord, actions: list[tuple[int, str]]) -> tuple[int, int | None, int | None] | None:
    """``(score, tricks, bid)`` of seat 0 in the first deal of a board's table, replayed from its seed
    and ``(seat, action)`` log; ``(0, None, None)`` for a deal thrown in; None while it goes on. In Trix
    ``tricks`` is what the seat took in the contract's unit (:func:`trix_units`) and ``bid`` None."""
    game = engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=record.options)
    for seat, action in actions:
        for ev in game.act(seat, action):
            if ev["type"] == "deal_thrown_in":
                return 0, None, None
            if ev["type"] == "deal_scored":
                summary, deltas = ev["summary"], ev["deltas"]
                if record.game == "trix":
                    return int(deltas["players"][0]), trix_units(summary, 0), None
                if record.game == "tarneeb41":
                    return int(deltas["players"][0]), int(summary["tricks"][0]), int(summary["bids"][0])
                ours = int(summary["declarer"]) % 2 == 0
                return int(deltas["teams"][0]), int(summary["tricks"][0]), int(summary["bid"]) if ours else None
    return None


def matchpoints(scores: dict[str, int | None]) -> dict[str, float]:
    """Each person's percentage on one board: 2 matchpoints for each other score beaten, 1 for each
    tie, out of 2 for each other person (a board not finished, None, is below every score). A board
    played by one person alone is 50%."""
    out: dict[str, float] = {}
    top = 2 * (len(scores) - 1)
    for who, mine in scores.items():
        if top == 0:
            out[who] = 50.0
            continue
        points = 0
        for other, theirs in scores.items():
            if other == who:
                continue
            a = -10 ** 9 if mine is None else mine
            b = -10 ** 9 if theirs is None else theirs
            points += 2 if a > b else 1 if a == b else 0
        out[who] = 100.0 * points / top
    return out


def against_field(scores: dict[str, int | None]) -> dict[str, float]:
    """Each person's points against the field on one board: their score minus the mean of everyone
    else's (0 when nobody else finished it); a board not finished (None) counts as the lowest score
    anyone made on it (0 against the field when nobody finished it)."""
    made = [v for v in scores.values() if v is not None]
    out: dict[str, float] = {}
    for who, mine in scores.items():
        if mine is None:
            out[who] = min(made) - sum(made) / len(made) if made else 0.0
            continue
        others = [v for p, v in scores.items() if p != who and v is not None]
        out[who] = mine - sum(others) / len(others) if others else 0.0
    return out


@dataclass(frozen=True, slots=True)
class Line:
    """One person in a challenge's ranking: boards played, total score, percentage (matchpoints), and
    in Trix ``against``: their points against the field a board, what Trix ranks by."""

    player_id: str
    name: str
    played: int
    total: int
    percent: float
    against: float | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    """One board as a person played it against the field (everyone else who played it)."""

    board: int
    score: int | None
    tricks: int | None
    bid: int | None
    field: int  # how many others played it
    field_score: float | None  # their mean score
    field_tricks: float | None  # their mean tricks (of those whose deal was played out; Trix: units)
    percent: float
    against: float | None = None  # Trix: the score minus the field's mean
    contract: str | None = None  # Trix: the board's contract


@dataclass(frozen=True, slots=True)
class ChallengeView:
    """What ``/challenge`` answers: the challenge, its ranking so far, and the asker's boards
    against the field (``mine``: only once they played every board, or it closed)."""

    challenge: ChallengeRecord
    ranking: list[Line]
    played: int  # the asker's boards played
    mine: list[Comparison] | None
    me: str | None = None  # the asker

    @property
    def finished(self) -> list[Line]:
        """The people who played every board, best first."""
        return [line for line in self.ranking if line.played == self.challenge.boards]


@dataclass(frozen=True, slots=True)
class ChallengeUpdate:
    """What the challenge's listeners hear: ``reason`` ``"started"``, ``"board"`` (``player`` finished
    board ``board``), ``"finished"`` (``player`` played every board) or ``"closed"``."""

    view: ChallengeView
    reason: str
    player: str | None = None
    board: int | None = None


ChallengeListener = Callable[[ChallengeUpdate], Awaitable[None]]


def rank(challenge: ChallengeRecord, boards: list[BoardRecord], me: str | None = None) -> ChallengeView:
    """The challenge's ranking and ``me``'s comparisons from its board rows (Trix: by points against
    the field, every other game by matchpoints)."""
    trix = challenge.game == "trix"
    done = [b for b in boards if b.done_at is not None]
    names = {b.player_id: b.name for b in boards}
    by_board: dict[int, dict[str, BoardRecord]] = {}
    for b in done:
        by_board.setdefault(b.board, {})[b.player_id] = b
    percents: dict[str, list[float]] = {p: [] for p in names}
    againsts: dict[str, float] = {p: 0.0 for p in names}
    comparisons: list[Comparison] = []
    for k in range(challenge.boards):
        rows = by_board.get(k, {})
        pct = matchpoints({p: r.score for p, r in rows.items()})
        for p, v in pct.items():
            percents[p].append(v)
        if trix and rows:
            vs = against_field({p: rows[p].score if p in rows else None for p in names})
            for p, v in vs.items():
                againsts[p] += v
        mine = rows.get(me) if me is not None else None
        if mine is not None:
            others = [r for p, r in rows.items() if p != me]
            scored = [r.score for r in others if r.score is not None]
            tricks = [r.tricks for r in others if r.tricks is not None]
            field_score = sum(scored) / len(scored) if scored else None
            against = None
            if trix:
                against = 0.0 if mine.score is None or field_score is None else mine.score - field_score
            comparisons.append(Comparison(
                k, mine.score, mine.tricks, mine.bid, len(others),
                field_score, sum(tricks) / len(tricks) if tricks else None,
                pct[mine.player_id], against, board_contract(k) if trix else None))
    ranking = [Line(p, names[p], len(v), sum(b.score or 0 for b in done if b.player_id == p),
                    sum(v) / challenge.boards, againsts[p] / challenge.boards if trix else None)
               for p, v in percents.items()]
    if trix:
        ranking.sort(key=lambda line: (-(line.against or 0.0), -line.played, line.name, line.player_id))
    else:
        ranking.sort(key=lambda line: (-line.percent, -line.played, line.name, line.player_id))
    played = sum(1 for b in done if b.player_id == me)
    show = me is not None and (played == challenge.boards or challenge.closed_at is not None)
    return ChallengeView(challenge, ranking, played, comparisons if show else None, me)


def season_entries(view: ChallengeView, boards: list[BoardRecord]) -> list[ChallengeEntry]:
    """How a closed challenge counts in its chat's season: one match for each person who played at
    least one deal, recorded at their last deal's table, scoring their result (the percentage, or in
    Trix the points against the field, rounded); ranked by it (ties share a rank), and won by the top
    half (rank within the first ``n // 2`` of ``n`` people: one person alone wins nothing)."""
    lines = [line for line in view.ranking if line.played]
    value = {line.player_id: line.against if line.against is not None else line.percent for line in lines}
    last: dict[str, BoardRecord] = {}
    for b in boards:
        if b.player_id not in last or b.board > last[b.player_id].board:
            last[b.player_id] = b
    half = len(lines) // 2
    out = []
    for line in lines:
        place = 1 + sum(1 for v in value.values() if v > value[line.player_id])
        out.append(ChallengeEntry(line.player_id, last[line.player_id].table_id, round(value[line.player_id]),
                                  place <= half, place))
    return out


class Challenges:
    """Starts challenges, deals each person's boards, records their results and closes them."""

    def __init__(self, repo: Repository, registry: Registry, lifecycle: Lifecycle, prefs: Prefs,
                 register: Callable[[Table], None]) -> None:
        self.repo = repo
        self.registry = registry
        self.lifecycle = lifecycle
        self.prefs = prefs
        self.clock = lifecycle.clock
        self.settings = lifecycle.settings
        self._register = register
        self._listeners: list[ChallengeListener] = []

    def subscribe(self, listener: ChallengeListener) -> None:
        """Call ``listener`` with every :class:`ChallengeUpdate` of this process."""
        self._listeners.append(listener)

    async def _tell(self, update: ChallengeUpdate) -> None:
        await tell(self._listeners, update, log, "a challenge listener failed on challenge %s",
                   update.view.challenge.challenge_id)

    # ------------------------------------------------------------------ the commands

    async def start(self, chat_id: str, creator: Person, game: str, boards: int, days: int,
                    season: bool = False) -> ChallengeRecord:
        """Open a challenge in ``chat_id`` (who may is the dispatch's to decide); ``season``: its
        result counts in the chat's season when it closes (:func:`season_entries`)."""
        if type(season) is not bool:
            raise TableError(Refusal.BAD_OPTION, detail="season is on or off")
        if game not in GAMES:
            raise TableError(Refusal.UNKNOWN_GAME, game=str(game)[:40])
        if type(boards) is not int or not 1 <= boards <= MAX_BOARDS:
            raise TableError(Refusal.BAD_OPTION, detail=f"the deals are 1 to {MAX_BOARDS}")
        if type(days) is not int or not 1 <= days <= MAX_DAYS:
            raise TableError(Refusal.BAD_OPTION, detail=f"the days are 1 to {MAX_DAYS}")
        lang, _ = await self.prefs.public_lang(chat_id, None)
        seed = self.settings.seed_source() if self.settings.seed_source else _hash63(f"{chat_id}:{self.clock.now()}")
        now = self.clock.now()
        record = ChallengeRecord(0, chat_id, game, boards, seed, creator.player_id, now, now + days * 86400.0,
                                 lang=lang, season=season)
        try:
            challenge = await self.repo.create_challenge(record)
        except OpenChallengeExists:
            raise TableError(Refusal.CHALLENGE_EXISTS) from None
        await self._tell(ChallengeUpdate(rank(challenge, []), "started"))
        return challenge

    async def open_in(self, chat_id: str) -> ChallengeRecord:
        """The chat's open challenge (``no_challenge`` if none)."""
        challenge = await self.repo.chat_challenge(chat_id)
        if challenge is None or challenge.closed_at is not None:
            raise TableError(Refusal.NO_CHALLENGE)
        return challenge

    async def view(self, chat_id: str, player_id: str) -> ChallengeView:
        """The chat's newest challenge as ``player_id`` may see it."""
        challenge = await self.repo.chat_challenge(chat_id)
        if challenge is None:
            raise TableError(Refusal.NO_CHALLENGE)
        return rank(challenge, await self.repo.challenge_boards(challenge.challenge_id), player_id)

    async def played_by(self, challenge_id: int, player_id: str) -> bool:
        """Whether the person has started the challenge (so they may go on from their private chat)."""
        return any(b.player_id == player_id for b in await self.repo.challenge_boards(challenge_id))

    async def play(self, challenge: ChallengeRecord, person: Person) -> TableSnapshot:
        """The person's current board (its table in their private chat), dealing the next one if needed."""
        if challenge.closed_at is not None or challenge.ends_at <= self.clock.now():
            raise TableError(Refusal.NO_CHALLENGE)
        mine = [b for b in await self.repo.challenge_boards(challenge.challenge_id) if b.player_id == person.player_id]
        if mine:
            last = max(mine, key=lambda b: b.board)
            if last.done_at is None:
                table = self.registry.find(last.table_id)
                if table is not None and table.live:
                    return table.snapshot()
                await self.settle(last.table_id)  # ended without its result (a restart, a stop)
            if len(mine) >= challenge.boards:
                raise TableError(Refusal.CHALLENGE_PLAYED)
        return await self._deal(challenge, person, len(mine))

    async def _deal(self, challenge: ChallengeRecord, person: Person, board: int) -> TableSnapshot:
        chat_id = dm_dest(person.player_id)
        seed = board_seed(challenge.seed, board)
        options = check_options(challenge.game, seed, board_options(challenge.game, board))
        async with self.registry.chat_lock(chat_id):
            live = self.registry.live_in_chat(chat_id)
            if live is not None:
                raise TableError(Refusal.TABLE_EXISTS, table_id=live.table_id)
            await self.prefs.touch_player(person)
            now = self.clock.now()
            seats = (Seat(player_id=person.player_id, name=person.name), EMPTY, EMPTY, EMPTY)
            record = TableRecord(table_id=0, chat_id=chat_id, game=challenge.game, options=options, seed=seed,
                                 dealer=DEALER, creator=person.player_id, status=LOBBY, seats=seats,
                                 created_at=now, lobby_deadline=now + self.settings.lobby_timeout,
                                 lang=challenge.lang, ai_level=AI_LEVEL)
            owner = self.settings.owner
            lease_until = None if owner is None else now + self.settings.lease_seconds
            try:
                table_id = await self.repo.create_table(record, owner=owner, lease_until=lease_until)
            except ChatHasLiveTable as e:
                raise TableError(Refusal.TABLE_EXISTS,
                                 **({} if e.table_id is None else {"table_id": e.table_id})) from None
            await self.repo.start_board(BoardRecord(challenge.challenge_id, person.player_id, person.name, board,
                                                    table_id))
            table = Table(record=dataclasses.replace(record, table_id=table_id))
            self._register(table)
            events: list[Event] = [{"type": "table_created", "game": challenge.game},
                                   {"type": "player_joined", "seat": 0, "player": person.player_id}]
            async with self.lifecycle.publisher.locked(table), table.changing():
                await self.lifecycle.begin(table, events)
        return table.snapshot()

    # ------------------------------------------------------------------ results

    async def on_update(self, update: TableUpdate) -> None:
        """The manager's subscriber: a board's table ended after its deal, so record it and deal the next."""
        snap = update.snapshot
        if not is_dm(snap.table.chat_id) or update.reason != "ended" or snap.table.status not in (STOPPED, FINISHED):
            return
        board = await self.settle(snap.table_id)
        played = snap.table.status == FINISHED or any(
            e["type"] == "table_cancelled" and e.get("reason") == BOARD_DONE for e in update.events)
        if board is None or not played:
            return
        challenge = await self.repo.get_challenge(board.challenge_id)
        if challenge is None or challenge.closed_at is not None or board.board + 1 >= challenge.boards:
            return
        player = player_of_dm(snap.table.chat_id)
        seat = snap.table.seats[0]
        if player is None or seat.player_id != player:
            return
        try:
            await self.play(challenge, Person(player, seat.name))
        except TableError as e:
            log.info("challenge %s: the next board of %s was not dealt (%s)", challenge.challenge_id, player, e.code)

    async def settle(self, table_id: int) -> BoardRecord | None:
        """Record the result of the board played at ``table_id`` from its log (once; a board whose
        deal did not end scores None) and tell the listeners; the board, if the table is one."""
        board = await self.repo.board_of_table(table_id)
        record = await self.repo.get_table(table_id)
        if board is None or record is None or board.done_at is not None:
            return board
        if record.status in (LOBBY, PLAYING):
            return None  # still being played
        actions = [(a.seat, a.action) for a in await self.repo.actions(table_id)]
        score, tricks, bid = board_result(record, actions) or (None, None, None)
        done = dataclasses.replace(board, score=score, tricks=tricks, bid=bid, done_at=self.clock.now())
        if not await self.repo.finish_board(done):
            return board
        challenge = await self.repo.get_challenge(board.challenge_id)
        if challenge is not None:
            view = rank(challenge, await self.repo.challenge_boards(challenge.challenge_id), board.player_id)
            await self._tell(ChallengeUpdate(view, "board", board.player_id, board.board))
            if view.played == challenge.boards:
                await self._tell(ChallengeUpdate(view, "finished", board.player_id))
        return done

    async def tick(self) -> list[ChallengeRecord]:
        """Close the challenges whose end has come (every process calls it; each is closed by one):
        boards still being played are stopped and count as not played. The ones closed here."""
        closed = []
        now = self.clock.now()
        for challenge in await self.repo.due_challenges(now):
            for b in await self.repo.challenge_boards(challenge.challenge_id):
                if b.done_at is None:
                    await self._end_board(b.table_id, "stopped")
            if not await self.repo.close_challenge(challenge.challenge_id, now):
                continue
            for b in await self.repo.challenge_boards(challenge.challenge_id):
                if b.done_at is None:
                    await self.settle(b.table_id)
            final = dataclasses.replace(challenge, closed_at=now)
            boards = await self.repo.challenge_boards(final.challenge_id)
            view = rank(final, boards)
            if final.season:  # by the one process that closed it, before anyone is told
                try:
                    await self.repo.record_challenge(final.chat_id, final.game, final.created_at, now,
                                                     season_entries(view, boards))
                except Exception:
                    log.exception("challenge %s: counting it in the season failed", final.challenge_id)
            await self._tell(ChallengeUpdate(view, "closed"))
            closed.append(final)
        return closed

    async def recover(self) -> None:
        """After a restart: a board's table restored live though its deal ended (the process died
        between the deal's last move and the table's end) ends now, and its result is recorded."""
        for table in list(self.registry.tables.values()):
            if not (table.live and is_dm(table.record.chat_id)):
                continue
            actions = [(a.seat, a.action) for a in await self.repo.actions(table.table_id)]
            if board_result(table.record, actions) is not None:
                await self._end_board(table.table_id, BOARD_DONE)

    async def _end_board(self, table_id: int, reason: str) -> None:
        table = self.registry.find(table_id)
        if table is None or not table.live:
            return
        events: list[Any] = [{"type": "table_cancelled", "reason": reason}]
        async with self.lifecycle.publisher.locked(table):
            if table.live:
                await self.lifecycle.end(table, STOPPED, events)
