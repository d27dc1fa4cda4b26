"""The table manager: the facade over the table parts in ``bot/core/tables/`` (docs/architecture.md §2).

Every change of a table goes one way: the table's ``asyncio.Lock`` → seat and version checks →
the engine (on a clone) → ``repo.append_action`` (committed) → swap in the new state → queue the
update → release the lock → deliver the update to the subscribers → restart the table's timer.
Refusals raise :class:`bot.core.errors.TableError` and change nothing. Who may ask for what is decided
before (``bot/core/service.py``); the manager checks only the table's own state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import engine
from ai import AIProvider, advice, ai_player
from bot.core.advice import engine_options
from bot.core.challenges import Challenges
from bot.core.clock import Clock, RealClock
from bot.core.commands import Advice
from bot.core.errors import Refusal, TableError
from bot.core.links import Links
from bot.core.model import Person, TableSnapshot
from bot.core.prefs import Prefs
from bot.core.seasons import TICK_SECONDS, Seasons
from bot.core.settings import ManagerSettings
from bot.core.table import Table
from bot.core.tables import ai_runner
from bot.core.tables.leases import Leases
from bot.core.tables.lifecycle import Lifecycle
from bot.core.tables.lobby import Lobby
from bot.core.tables.pipeline import Pipeline
from bot.core.tables.publish import Listener, Publisher
from bot.core.tables.registry import Registry
from bot.core.tables.restore import load_live, resume
from bot.core.tables.turns import Turns
from bot.core.tournaments import Tournaments
from bot.core.views import View, seat_view
from storage.records import CANCELLED, PLAYING, STOPPED, ChatRecord, LeaderRow, MatchResult, PlayerRecord, PlayerStats
from storage.repository import Repository

if TYPE_CHECKING:
    from bot.core.commands import Actor, Answer, Command

__all__ = ["Forwarder", "TableManager"]


class Forwarder(Protocol):
    """The cross-process router as the manager and the dispatch see it (``bot.core.cluster.routing``)."""

    async def start(self) -> None:
        """Serve what other processes forward here, until :meth:`close`."""

    async def close(self) -> None:
        """Stop serving."""

    def wake(self) -> None:
        """Look at what was forwarded now (tables were taken over)."""

    async def dispatch(self, cmd: Command, actor: Actor, local: Callable[[], Awaitable[Answer]]) -> Answer:
        """Forward ``cmd`` to the holder of its table, or run ``local()`` here."""


class TableManager:
    """Hosts every table of every chat; adapters call it, subscribers receive ``TableUpdate``s."""

    def __init__(self, repo: Repository, *, clock: Clock | None = None,
                 settings: ManagerSettings | None = None, ai: AIProvider | None = None,
                 prefs: Prefs | None = None,
                 router: Callable[[TableManager], Forwarder] | None = None) -> None:
        """``router`` builds the cross-process router when ``settings.owner`` is set (several processes
        on one database): :func:`bot.core.service.routed`, which applies what other processes forward
        here through the one dispatch. The manager never builds it itself (the service is above it)."""
        self.repo = repo
        self.clock: Clock = clock or RealClock()
        self.settings = settings or ManagerSettings()
        self.prefs = prefs or Prefs(repo, default_turn_seconds=self.settings.default_turn_seconds,
                                    default_ai_level=self.settings.default_ai_level,
                                    default_digits=self.settings.default_digits)
        self.registry = Registry(self.settings.finished_grace)
        self.publisher = Publisher()
        self.turns = Turns(self.clock, self.settings, on_due=self._due, turn_seconds=self.prefs.turn_seconds)
        self.lifecycle = Lifecycle(repo, self.clock, self.settings, self.turns, self.publisher,
                                   on_ended=self._ended)
        self.lobby = Lobby(self.registry, self.lifecycle, self.prefs)
        self.pipeline = Pipeline(self.registry, self.lifecycle, self.prefs, ai or ai_player)
        self.seasons = Seasons(repo, self.prefs, self.clock)
        self.challenges = Challenges(repo, self.registry, self.lifecycle, self.prefs, self.lobby.register)
        self.publisher.subscribe(self.challenges.on_update)  # a board's end deals the person's next one
        self.tournaments = Tournaments(self)  # bot/core/tournaments.py: their steps run with the seasons' tick
        self._season_ticker: asyncio.Task[None] | None = None
        self.leases: Leases | None = None
        self._make_router = router
        self.router: Forwarder | None = None  # with leases: commands for tables held elsewhere go there
        self._started = False
        self._links: Links | None = None

    async def join_links(self) -> Links:
        """The install's signed join links (the secret is read from storage, created on first start)."""
        if self._links is None:
            self._links = await Links.load(self.repo)
        return self._links

    @property
    def links(self) -> Links:
        """The join links (after ``start()`` or the first ``create()``)."""
        if self._links is None:
            raise RuntimeError("the join links are loaded by start() or create()")
        return self._links

    @property
    def _tables(self) -> dict[int, Table]:
        """Every table held in memory, by id (tests peek at the engine state through it)."""
        return self.registry.tables

    async def _due(self, table_id: int) -> None:
        self._evict(self.registry.sweep(self.clock.now()))
        await self.pipeline.wake(table_id)

    def _ended(self, table: Table) -> None:
        """A table ended: the ones that ended longer than ``finished_grace`` ago leave memory."""
        self._evict(self.registry.ended(table.table_id, self.clock.now()))

    def _evict(self, table_ids: list[int]) -> None:
        for table_id in table_ids:
            self.turns.forget(table_id)
            self.pipeline.forget(table_id)

    # ------------------------------------------------------------------ lifecycle

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every :class:`TableUpdate`, in order per table, outside its lock."""
        self.publisher.subscribe(listener)

    async def start(self) -> None:
        """Restore every live table from storage, tell the subscribers, and run the timers."""
        if self._started:
            return
        self._started = True
        await self.join_links()
        held = None
        if self.settings.owner is not None and self._make_router is None:
            raise ValueError("several processes on one database (settings.owner) need a router: "
                             "TableManager(..., router=bot.core.service.routed)")
        if self.settings.owner is not None:  # several processes on one database: run what this one holds
            self.leases = Leases(self.repo, self.clock, self.settings, self.registry,
                                 restore=self._restore, drop=self._let_go)
            await self.prefs.listen()  # settings another process changes are seen here at once
            held = await self.leases.initial()
        await self._restore(held)
        await self.challenges.recover()
        if self.leases is not None and self._make_router is not None:  # forwarded commands are served
            self.router = self._make_router(self)                        # in both modes (they are input)
            await self.router.start()
        if self.settings.background:
            self._season_ticker = asyncio.get_running_loop().create_task(self._tick_seasons())
            self.turns.sched.start()
            if self.leases is not None:
                self.leases.start()

    async def _restore(self, table_ids: list[int] | None) -> None:
        """Load, hold and resume the live tables (all, or ``table_ids``)."""
        tables = await load_live(self.repo, self.settings, table_ids)
        for table in tables:
            self.lobby.register(table)
        for chat_id in {t.record.chat_id for t in tables}:
            await self.prefs.chat(chat_id)
        for table in tables:
            await resume(table, self.lifecycle)
        if tables and self.router is not None:
            self.router.wake()  # what was forwarded to the tables taken over is this process's now

    async def _let_go(self, table: Table) -> None:
        async with table.lock:
            self.turns.forget(table.table_id)
            self.registry.drop(table.table_id)

    async def heartbeat(self) -> None:
        """Renew this process's leases and take over the tables of a dead one (tests call it; with
        ``background`` it runs every ``heartbeat_seconds``)."""
        if self.leases is not None:
            await self.leases.beat()
            await self.publisher.drain()

    async def close(self) -> None:
        """Stop the timers, wait for the moves being made and their delivery; the tables stay in storage
        (with leases: released, so that another process takes them over at once)."""
        ticker, self._season_ticker = self._season_ticker, None
        if ticker is not None:
            ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticker
        await self.turns.sched.close()
        if self.router is not None:
            await self.router.close()
            self.router = None
        await self.publisher.drain()
        if self.leases is not None:
            await self.leases.close(release=True)
            self.leases = None
        await ai_runner.close()  # the AI process pool's workers
        self._started = False

    async def _tick_seasons(self) -> None:
        """Close the seasons that ended, every ``TICK_SECONDS`` (bot/core/seasons.py); a failure is
        logged and tried again at the next tick."""
        while True:
            try:
                await self.seasons.tick()
                await self.challenges.tick()
            except Exception:
                logging.getLogger(__name__).exception("closing the seasons (or challenges) that ended failed; "
                                                      "trying again")
            try:
                await self.tournaments.tick()
            except Exception:
                logging.getLogger(__name__).exception("a tournament's step failed; trying again")
            await self.clock.sleep(TICK_SECONDS)

    async def run_due(self) -> None:
        """Fire every due timer and AI move now and deliver the updates (tests drive a ``FakeClock``)."""
        await self.turns.sched.run_due()
        await self.publisher.drain()

    async def drain(self) -> None:
        """Wait until every queued table update has reached the subscribers."""
        await self.publisher.drain()

    # ------------------------------------------------------------------ queries

    def table_in_chat(self, chat_id: str) -> TableSnapshot | None:
        """The chat's newest live table (lobby or playing), if any."""
        table = self.registry.live_in_chat(chat_id)
        return table.snapshot() if table is not None else None

    def get(self, table_id: int) -> TableSnapshot | None:
        """A snapshot of the table (live, or finished since this process started)."""
        table = self.registry.find(table_id)
        return table.snapshot() if table is not None else None

    def view(self, table_id: int, seat: int | None) -> View:
        """The engine's view for ``seat`` (None: public), for "My hand" buttons."""
        table = self.registry.table(table_id)
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise TableError(Refusal.BAD_ACTION)
        if table.game is None:
            raise TableError(Refusal.NOT_STARTED)
        return seat_view(table.game, seat)

    # ------------------------------------------------------------------ lobby and seats

    async def create(self, chat_id: str, creator: Person, game: str,
                     options: dict[str, Any] | None = None) -> TableSnapshot:
        """Open a lobby in ``chat_id`` with ``creator`` in seat 0."""
        await self.join_links()
        return await self.lobby.create(chat_id, creator, game, options)

    async def join(self, chat_id: str, person: Person, seat: int | None = None) -> TableSnapshot:
        """Sit ``person`` in ``seat`` (or the first free seat) of the chat's lobby."""
        return await self.lobby.join(chat_id, person, seat)

    async def begin(self, chat_id: str, person: Person, *, is_admin: bool = False) -> TableSnapshot:
        """Start the match: the creator or anyone seated may; AI players fill the empty seats. A parked
        match goes on again (the creator, anyone seated, or an admin)."""
        return await self.lobby.begin(chat_id, person, is_admin=is_admin)

    async def leave(self, chat_id: str, person: Person) -> TableSnapshot:
        """Leave the chat's table: in the lobby the seat frees; mid-match an AI takes it over."""
        return await self.lobby.leave(chat_id, person)

    async def claim(self, chat_id: str, person: Person, seat: int) -> TableSnapshot:
        """Take over an AI-played seat mid-match."""
        return await self.lobby.claim(chat_id, person, seat)

    async def stop(self, chat_id: str, person: Person, *, is_admin: bool = False) -> TableSnapshot:
        """Stop the chat's table (lobby or match): its creator or a chat admin may."""
        return await self.lobby.stop(chat_id, person, is_admin=is_admin)

    async def rematch(self, chat_id: str, person: Person, table_id: int, *, swap: bool = False,
                      is_admin: bool = False) -> TableSnapshot:
        """Play again after the finished match ``table_id``: the same game, options, language and people
        (``swap``: seats 1 and 2 trade places); it begins at once when ``person`` is its only person."""
        await self.join_links()
        # a match played in a thread or forum topic belongs to the tournament of its group (bot/core/venues.py)
        tournament = await self.repo.chat_tournament(await self.tournaments.venues.home(chat_id))
        if tournament is not None and tournament.open and any(m.table_id == table_id for m in tournament.matches):
            raise TableError(Refusal.NOT_ALLOWED, what="tournament")  # the bracket calls the next match
        return await self.lobby.rematch(chat_id, person, table_id, swap=swap, is_admin=is_admin)

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> int:
        """The chat got a new id (a Telegram group became a supergroup, ``ChatMigrated``): its tables,
        settings, results and ratings move to ``new_chat_id`` in storage and here; each live table is
        shown again in the new chat. A chat has one live table: if the new id has one already (opened
        there before the move came), the old chat's live table is stopped first (storage would end it
        anyway). Returns the number of live tables moved."""
        if old_chat_id == new_chat_id:
            return 0
        async with self.registry.chat_lock(old_chat_id), self.registry.chat_lock(new_chat_id), \
                contextlib.AsyncExitStack() as stack:
            held = [self.registry.tables[i] for i in sorted(self.registry.chat_tables.get(old_chat_id, []))]
            for table in held:  # no move of these tables may write the old chat id back meanwhile
                await stack.enter_async_context(self.publisher.locked(table))
            if self.registry.live_in_chat(new_chat_id) is not None \
                    or await self.repo.chat_lease(new_chat_id) is not None:
                for table in held:  # the new chat has its live table already: it keeps one, that one
                    if table.live:
                        await self.lifecycle.end(table, STOPPED if table.record.status == PLAYING else CANCELLED,
                                                 [{"type": "table_cancelled", "reason": "chat_moved"}])
            moved = await self.repo.move_chat(old_chat_id, new_chat_id)
            self.prefs.forget_chat(old_chat_id)
            self.prefs.forget_chat(new_chat_id)
            for table in self.registry.move_chat(old_chat_id, new_chat_id):
                if table.live:  # shown again where the chat is now (delivered as the locks are released)
                    self.publisher.post(table, [], "restored")
        return moved

    async def set_message_id(self, table_id: int, key: str, message_id: str | None) -> None:
        """Remember (or forget, with None) a platform message id of the table, durably."""
        await self.lobby.set_message_id(table_id, key, message_id)

    async def set_shown(self, table_id: int, key: str, shown: str | None) -> None:
        """Remember (or forget, with None) what the table's message of ``key`` shows, durably."""
        await self.lobby.set_shown(table_id, key, shown)

    # ------------------------------------------------------------------ actions

    async def act(self, table_id: int, person: Person, version: int, action: str) -> TableSnapshot:
        """Apply ``action`` for ``person`` if the table is still at ``version`` (a button press)."""
        if type(version) is not int:
            raise TableError(Refusal.STALE)
        return await self.pipeline.act(table_id, person, version, action)

    async def act_current(self, table_id: int, person: Person, action: str) -> TableSnapshot:
        """Apply ``action`` for ``person`` at whatever version the table is (typed input)."""
        return await self.pipeline.act(table_id, person, None, action)

    async def next_deal(self, table_id: int, person: Person) -> TableSnapshot:
        """The seated ``person`` has read the deal's result: end the pause before the next deal's
        first AI move (``ManagerSettings.deal_pause``) when they are the only person at the table."""
        return await self.pipeline.next_deal(table_id, person)

    # ------------------------------------------------------------------ hints and reviews (bot/core/advice.py)

    async def hint(self, table_id: int, seat: int, version: int | None = None) -> Advice:
        """What the strong search would play for ``seat`` now (its turn; at ``version`` if given), from
        the AI pool within the cap, seeded from the table's seed and the position; ``ai_busy`` if the
        pool cannot answer in time. Nothing about the table changes and nobody else hears of it."""
        table = self.registry.table(table_id)
        if table.game is None:
            raise TableError(Refusal.NOT_STARTED)
        if not table.playing:
            raise TableError(Refusal.FINISHED)
        if version is not None and version != table.record.version:
            raise TableError(Refusal.STALE)
        view = dict(seat_view(table.game, seat))
        if not view.get("legal"):
            raise TableError(Refusal.NOT_YOUR_TURN)
        record = table.record
        seed = advice.advice_seed(record.seed, record.version, seat)
        found = await ai_runner.advise(advice.hint, view, record.game, seed)
        if found is None:
            raise TableError(Refusal.AI_BUSY)
        return Advice(table.snapshot(), seat, hint=found)

    async def review(self, table_id: int, seat: int) -> Advice:
        """``seat``'s costliest card of its last finished deal at the table, with every hand known,
        from the AI pool within the cap (``ai_busy`` if it cannot answer in time)."""
        table = self.registry.table(table_id)
        if table.game is None:
            raise TableError(Refusal.NOT_STARTED)
        record = table.record
        actions = [(a.seat, a.action) for a in await self.repo.actions(table_id)]
        found = await ai_runner.advise(advice.review_deal, record.game, record.seed, record.dealer,
                                       engine_options(record.options), actions, seat)
        if found is None:
            raise TableError(Refusal.AI_BUSY)
        return Advice(table.snapshot(), seat, review=found)

    # ------------------------------------------------------------------ settings and scoreboards

    async def chat_settings(self, chat_id: str) -> ChatRecord:
        """The chat's settings (defaults when it has none stored yet)."""
        return await self.prefs.chat(chat_id)

    async def update_chat(self, chat_id: str, **changes: Any) -> ChatRecord:
        """Change and store chat settings (``lang``, ``turn_seconds``, ``default_options`` ...)."""
        return await self.prefs.update_chat(chat_id, **changes)

    async def player(self, person: Person) -> PlayerRecord:
        """The person's record, created on first sight; the stored name follows the platform's."""
        return await self.prefs.touch_player(person)

    async def update_player(self, player_id: str, **changes: Any) -> PlayerRecord:
        """Change and store a player's record (``lang``, ``dm_ok`` ...)."""
        return await self.prefs.update_player(player_id, **changes)

    async def leaderboard(self, chat_id: str, game: str) -> list[LeaderRow]:
        """The chat's leaderboard for ``game``."""
        if game not in engine.GAME_IDS:
            raise TableError(Refusal.UNKNOWN_GAME, game=str(game))
        return await self.repo.leaderboard(chat_id, game)

    async def stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]:
        """A player's record per game (in one chat, or everywhere)."""
        return await self.repo.player_stats(player_id, chat_id)

    async def table_results(self, table_id: int) -> MatchResult | None:
        """A finished table's match result."""
        return await self.repo.table_results(table_id)
