"""The table manager: the facade over the table parts in ``bot/tables/`` (docs/architecture.md §2).

Every change of a table goes one way: the table's ``asyncio.Lock`` → seat and version checks →
the engine (on a clone) → ``repo.append_action`` (committed) → swap in the new state → queue the
update → release the lock → deliver the update to the subscribers → restart the table's timer.
Refusals raise :class:`bot.errors.TableError` and change nothing. Who may ask for what is decided
before (``bot/service.py``); the manager checks only the table's own state.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.ai import AIProvider, ai_player
from bot.clock import Clock, RealClock
from bot.errors import TableError
from bot.links import Links
from bot.prefs import Prefs
from bot.settings import ManagerSettings
from bot.table import Table
from bot.tables import ai_runner
from bot.tables.lifecycle import Lifecycle
from bot.tables.lobby import Lobby
from bot.tables.pipeline import Pipeline
from bot.tables.publish import Listener, Publisher
from bot.tables.registry import Registry
from bot.tables.restore import load_live, resume
from bot.tables.turns import Turns
from bot.types import Person, TableSnapshot
from storage.records import ChatRecord, LeaderRow, MatchResult, PlayerRecord, PlayerStats
from storage.repository import Repository

__all__ = ["TableManager"]


class TableManager:
    """Hosts every table of every chat; adapters call it, subscribers receive ``TableUpdate``s."""

    def __init__(self, repo: Repository, *, clock: Clock | None = None,
                 settings: ManagerSettings | None = None, ai: AIProvider | None = None,
                 prefs: Prefs | None = None) -> None:
        self.repo = repo
        self.clock: Clock = clock or RealClock()
        self.settings = settings or ManagerSettings()
        self.prefs = prefs or Prefs(repo, default_turn_seconds=self.settings.default_turn_seconds)
        self.registry = Registry()
        self.publisher = Publisher()
        self.turns = Turns(self.clock, self.settings, on_due=self._due, turn_seconds=self.prefs.turn_seconds)
        self.lifecycle = Lifecycle(repo, self.clock, self.settings, self.turns, self.publisher)
        self.lobby = Lobby(self.registry, self.lifecycle, self.prefs)
        self.pipeline = Pipeline(self.registry, self.lifecycle, self.prefs, ai or ai_player)
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
        await self.pipeline.wake(table_id)

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
        tables = await load_live(self.repo, self.settings)
        for table in tables:
            self.lobby.register(table)
        for chat_id in {t.record.chat_id for t in tables}:
            await self.prefs.chat(chat_id)
        for table in tables:
            await resume(table, self.lifecycle)
        if self.settings.background:
            self.turns.sched.start()

    async def close(self) -> None:
        """Stop the timers, wait for the moves being made and their delivery; the tables stay in storage."""
        await self.turns.sched.close()
        await self.publisher.drain()
        await ai_runner.close()  # the AI process pool's workers
        self._started = False

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

    def view(self, table_id: int, seat: int | None) -> dict[str, Any]:
        """The engine's view for ``seat`` (None: public), for "My hand" buttons."""
        table = self.registry.table(table_id)
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            raise TableError("bad_action")
        if table.game is None:
            raise TableError("not_started")
        return table.game.view(seat)

    # ------------------------------------------------------------------ lobby and seats

    async def create(self, chat_id: str, creator: Person, game: str,
                     options: dict[str, Any] | None = None) -> TableSnapshot:
        """Open a lobby in ``chat_id`` with ``creator`` in seat 0."""
        await self.join_links()
        return await self.lobby.create(chat_id, creator, game, options)

    async def join(self, chat_id: str, person: Person, seat: int | None = None) -> TableSnapshot:
        """Sit ``person`` in ``seat`` (or the first free seat) of the chat's lobby."""
        return await self.lobby.join(chat_id, person, seat)

    async def begin(self, chat_id: str, person: Person) -> TableSnapshot:
        """Start the match: the creator or anyone seated may; AI players fill the empty seats."""
        return await self.lobby.begin(chat_id, person)

    async def leave(self, chat_id: str, person: Person) -> TableSnapshot:
        """Leave the chat's table: in the lobby the seat frees; mid-match an AI takes it over."""
        return await self.lobby.leave(chat_id, person)

    async def claim(self, chat_id: str, person: Person, seat: int) -> TableSnapshot:
        """Take over an AI-played seat mid-match."""
        return await self.lobby.claim(chat_id, person, seat)

    async def stop(self, chat_id: str, person: Person, *, is_admin: bool = False) -> TableSnapshot:
        """Stop the chat's table (lobby or match): its creator or a chat admin may."""
        return await self.lobby.stop(chat_id, person, is_admin=is_admin)

    async def set_message_id(self, table_id: int, key: str, message_id: str | None) -> None:
        """Remember (or forget, with None) a platform message id of the table, durably."""
        await self.lobby.set_message_id(table_id, key, message_id)

    # ------------------------------------------------------------------ actions

    async def act(self, table_id: int, person: Person, version: int, action: str) -> TableSnapshot:
        """Apply ``action`` for ``person`` if the table is still at ``version`` (a button press)."""
        if type(version) is not int:
            raise TableError("stale")
        return await self.pipeline.act(table_id, person, version, action)

    async def act_current(self, table_id: int, person: Person, action: str) -> TableSnapshot:
        """Apply ``action`` for ``person`` at whatever version the table is (typed input)."""
        return await self.pipeline.act(table_id, person, None, action)

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
            raise TableError("unknown_game", game=str(game))
        return await self.repo.leaderboard(chat_id, game)

    async def stats(self, player_id: str, chat_id: str | None = None) -> list[PlayerStats]:
        """A player's record per game (in one chat, or everywhere)."""
        return await self.repo.player_stats(player_id, chat_id)

    async def table_results(self, table_id: int) -> MatchResult | None:
        """A finished table's match result."""
        return await self.repo.table_results(table_id)
