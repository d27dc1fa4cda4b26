"""Any process may receive any command: one for a table another live process holds is forwarded there.

With several processes on one database (``ManagerSettings.owner`` set: leases, ``bot/core/tables/leases.py``)
a Telegram webhook worker or a Discord shard may receive a press for a table that another process
runs. :meth:`Service.dispatch <bot.core.service.Service.dispatch>` asks :meth:`Router.target` first:

- the table is held here (in this process's registry), or the chat has no live table at all (a new
  table: this process creates it and holds it), or the command is a settings change: applied here,
  as in one process;
- the chat's live table (from a group) or the named table (from a DM, or a join link) is held by
  another process whose lease runs: the command is forwarded (:meth:`Router.forward`);
- its holder's lease ran out (it died): this process takes over what is free at once (a lease
  heartbeat now) and applies the command itself.

Forwarding goes through the database's inbox (``Repository.inbox_*``): the sender posts the
command under a key, the holder takes it (each entry is taken by one process, once), runs the
same dispatch locally and writes its answer, which the sender returns as if it had run the
command itself (the receiving adapter renders it: the Telegram callback answer, the Discord
interaction reply). On PostgreSQL ``NOTIFY majlis_inbox`` wakes the holder and ``NOTIFY
majlis_answer`` the waiting sender; elsewhere (tests on memory or SQLite) both poll.

Exactly once:

- a retried command (the same key: the platform's event id when the adapter gives one, else the
  press itself, ``table, version, person, code``, for versioned moves) is the same entry: it is
  applied once and every retry gets that one answer;
- the holder takes an entry in one transaction (``pending → taken``), then applies it under the
  table's lock like any command; a versioned move applied twice would be refused as ``stale``
  anyway;
- the sender waits ``route_wait`` seconds on the manager's clock (a test's fake clock moves it; the
  looks at the database between notifications keep real time). An entry nobody took by then is
  expired (never to be applied, ``route_timeout``: "nothing was changed, try again"). An entry
  taken whose answer did not come (its holder died mid-way) may or may not have been applied: the
  sender says so (``route_unknown``: "look at the table"); a retry then meets the engine's checks,
  so it is never applied twice. An entry still pending when its table's holder dies is taken by
  the process that takes the table over, if the sender still waits.

A retry gets the answer of the press itself, wherever it lands. The platform may deliver one event
twice, to two processes milliseconds apart (Telegram's webhook behind a load balancer): the holder of
the table applies one copy itself and the other comes through the inbox, or the holder gets both. The
second would be refused by the table as stale ("That button is out of date"), and whichever answer
reaches the platform first is what the person sees. So the holder keeps, for :data:`KEEP_ANSWERS`
seconds, the outcome of every command with an event id it applied (:meth:`Router.once`, keyed as the
inbox is, :func:`~bot.core.cluster.wire.command_key`): a copy that arrives while the first runs waits
for it, one that arrives later is answered with it, and neither is applied again. Only the holder of a
table applies its commands, so the holder's record is the one every process's copy meets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core.cluster.wire import (
    Moved,
    command_key,
    decode_answer,
    decode_request,
    encode_answer,
    encode_error,
    encode_request,
)
from bot.core.commands import (
    SEASON_COMMANDS,
    Actor,
    Answer,
    Begin,
    ChangeNotify,
    ChangeSettings,
    Command,
    JoinByLink,
    SetLanguage,
    ShowLeaderboard,
    Stop,
)
from bot.core.errors import Refusal, TableError
from storage.records import INBOX_DONE, INBOX_EXPIRED, LIVE_STATUSES, InboxEntry

if TYPE_CHECKING:
    from bot.core.clock import Cancellable, Clock
    from bot.core.manager import TableManager

log = logging.getLogger(__name__)

INBOX_CHANNEL = "majlis_inbox"
ANSWER_CHANNEL = "majlis_answer"
#: Seconds after which an inbox entry is forgotten.
KEEP_ENTRIES = 3600.0
#: Seconds the holder remembers the outcome of a command with an event id (a platform's retry comes sooner).
KEEP_ANSWERS = 600.0

# ---------------------------------------------------------------------------------- the router

async def _wait(seconds: float, *events: asyncio.Event) -> None:
    """Until one of ``events`` is set or ``seconds`` of real time passed (cancelled at once, unlike
    3.11's wait_for). Real time: it paces the looks at the database, which no fake clock moves."""
    if any(event.is_set() for event in events):
        return
    waiters = {asyncio.ensure_future(event.wait()) for event in events}
    try:
        await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


def _alarm(clock: Clock, seconds: float) -> tuple[asyncio.Event, Callable[[], object]]:
    """An event set once ``seconds`` have passed on ``clock``, and what calls it off."""
    rang = asyncio.Event()
    call_later = getattr(clock, "call_later", None)
    if call_later is not None:
        handle: Cancellable = call_later(seconds, rang.set)
        return rang, handle.cancel
    sleeper = asyncio.ensure_future(clock.sleep(seconds))
    sleeper.add_done_callback(lambda done: None if done.cancelled() else rang.set())
    return rang, sleeper.cancel


class Router:
    """Forward to the holder of a table (sender side) and apply what was forwarded here (holder side)."""

    def __init__(self, manager: TableManager, local: Callable[[Command, Actor], Awaitable[Answer]]) -> None:
        """``local(cmd, actor)`` applies a command here (the dispatch without routing): what other
        processes forward to this one goes through it, so it is checked as if asked here."""
        assert manager.settings.owner is not None
        self.manager = manager
        self.local = local
        self.repo = manager.repo
        self.owner: str = manager.settings.owner
        self.wait = manager.settings.route_wait
        listen = getattr(self.repo, "listen", None)
        self.notifier = listen is not None
        self.poll = manager.settings.route_poll or (1.0 if self.notifier else 0.05)
        self._answers: dict[int, asyncio.Event] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        #: command key -> (when, the outcome) of the commands with an event id applied here (:meth:`once`)
        self._outcomes: dict[str, tuple[float, asyncio.Future[Answer]]] = {}
        self.stats = {"forwarded": 0, "served": 0, "route_timeout": 0, "route_unknown": 0, "moved": 0,
                      "repeated": 0}

    async def start(self) -> None:
        """Listen (PostgreSQL) and serve the inbox of the tables held here, until :meth:`close`."""
        if self._task is not None:
            return
        if self.notifier:
            await self.repo.listen(INBOX_CHANNEL, self._on_inbox)  # type: ignore[attr-defined]
            await self.repo.listen(ANSWER_CHANNEL, self._on_answer)  # type: ignore[attr-defined]
        self._task = asyncio.create_task(self._serve_loop())

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.settle()

    async def settle(self) -> None:
        """Until the commands taken from the inbox here have been applied and answered."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    @property
    def waiting(self) -> int:
        """Commands forwarded from here that wait for their answer now."""
        return len(self._answers)

    def wake(self) -> None:
        """Look at the inbox now (tables were taken over: their pending entries are this process's)."""
        self._wake.set()

    # -- sender side --------------------------------------------------------------------------------

    async def target(self, cmd: Command, actor: Actor) -> int | None:
        """The table to forward ``cmd`` to, or None: apply it here."""
        if isinstance(cmd, (SetLanguage, ChangeSettings, ChangeNotify, ShowLeaderboard, *SEASON_COMMANDS)):
            return None  # chat and player settings, finished matches, seasons: in storage, seen by all
        registry = self.manager.registry
        if isinstance(cmd, JoinByLink):
            try:
                link_table = (await self.manager.join_links()).table_of(cmd.payload)
            except TableError:
                return None  # refused here
            route = await self._route_of_table(link_table)
        elif actor.in_dm:
            named = getattr(cmd, "table_id", None)
            if type(named) is not int:
                return None
            route = await self._route_of_table(named)
        else:
            if registry.live_in_chat(actor.chat_id) is not None:
                return None
            lease = await self.repo.chat_lease(actor.chat_id)
            route = lease
        if route is None:
            return None  # no live table: this process answers (and holds a table it creates)
        table_id, owner, until = route
        if owner == self.owner:
            return None
        if owner is None or until is None or until < self.manager.clock.now():
            await self._take_over()  # its holder died: take what is free now, then apply it here
            return None if self._held(table_id) else table_id if await self._still_remote(table_id) else None
        return table_id

    def _held(self, table_id: int) -> bool:
        table = self.manager.registry.find(table_id)
        return table is not None and table.live

    async def _route_of_table(self, table_id: int) -> tuple[int, str | None, float | None] | None:
        if self._held(table_id):
            return None
        route = await self.repo.table_route(table_id)
        if route is None or route[1] not in LIVE_STATUSES:
            return None
        return table_id, route[2], route[3]

    async def _still_remote(self, table_id: int) -> bool:
        route = await self.repo.table_route(table_id)
        return (route is not None and route[2] not in (None, self.owner) and route[3] is not None
                and route[3] >= self.manager.clock.now())

    async def _take_over(self) -> None:
        leases = self.manager.leases
        if leases is not None:
            await leases.beat()

    async def forward(self, table_id: int, cmd: Command, actor: Actor) -> Answer:
        """Post ``cmd`` to the holder of ``table_id`` and return its answer (or raise its refusal)."""
        admin: bool | None = None
        member: dict[str, bool | None] = {}
        if isinstance(cmd, (Stop, Begin)) and not actor.in_dm:
            admin = await actor.is_admin()  # the holder cannot ask this chat's platform for this person
        if isinstance(cmd, JoinByLink):
            route = await self.repo.table_route(table_id)
            if route is not None:
                member[route[0]] = await actor.is_member(route[0])
        request = encode_request(cmd, actor, admin=admin, member=member)
        key = command_key(cmd, actor)
        self.stats["forwarded"] += 1
        entry_id = await self.repo.inbox_post(key, table_id, self.owner, request, self.manager.clock.now())
        event = self._answers.setdefault(entry_id, asyncio.Event())
        # The wait is on the manager's clock (a test moves it), the looks at the inbox in real time.
        late, call_off = _alarm(self.manager.clock, self.wait)
        try:
            while True:
                found = await self.repo.inbox_result(entry_id)
                if found is not None and found[0] == INBOX_DONE and found[1] is not None:
                    return decode_answer(found[1])
                if found is None or found[0] == INBOX_EXPIRED:
                    break
                if late.is_set():
                    break
                await _wait(self.poll, event, late)
                event.clear()
        finally:
            call_off()
            self._answers.pop(entry_id, None)
        if await self.repo.inbox_expire(entry_id):
            self.stats["route_timeout"] += 1
            raise TableError(Refusal.ROUTE_TIMEOUT)
        found = await self.repo.inbox_result(entry_id)  # answered at the very last moment?
        if found is not None and found[0] == INBOX_DONE and found[1] is not None:
            return decode_answer(found[1])
        if found is not None and found[0] == INBOX_EXPIRED:
            self.stats["route_timeout"] += 1
            raise TableError(Refusal.ROUTE_TIMEOUT)
        self.stats["route_unknown"] += 1
        raise TableError(Refusal.ROUTE_UNKNOWN)

    async def dispatch(self, cmd: Command, actor: Actor, local: Callable[[], Awaitable[Answer]]) -> Answer:
        """Route ``cmd``: forward it, or run ``local()`` (the dispatch here); a holder that let the table
        go meanwhile makes it route again, once."""
        for _ in range(2):
            table_id = await self.target(cmd, actor)
            if table_id is None:
                return await self.once(cmd, actor, local)
            try:
                return await self.forward(table_id, cmd, actor)
            except Moved:
                self.stats["moved"] += 1
        raise TableError(Refusal.ROUTE_TIMEOUT)

    async def once(self, cmd: Command, actor: Actor, run: Callable[[], Awaitable[Answer]]) -> Answer:
        """``run()`` (the command applied here), unless the same event's command was applied here lately:
        then its outcome (its answer, or the same refusal), awaited if it is still running."""
        if actor.event_id is None:
            return await run()
        key = command_key(cmd, actor)
        now = self.manager.clock.now()
        known = self._outcomes.get(key)
        if known is not None and now - known[0] <= KEEP_ANSWERS:
            self.stats["repeated"] += 1
            return await asyncio.shield(known[1])
        self._forget(now)
        outcome: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._outcomes[key] = (now, outcome)
        try:
            result = await run()
        except TableError as e:  # a refusal is the press's answer too
            outcome.set_exception(e)
            outcome.exception()  # retrieved: a copy that never comes is no error
            raise
        except BaseException as e:  # not an answer (a crash, a cancel): a retry runs again
            self._outcomes.pop(key, None)
            outcome.set_exception(e if isinstance(e, Exception) else TableError(Refusal.INTERNAL))
            outcome.exception()  # retrieved: nobody need wait for it
            raise
        outcome.set_result(result)
        return result

    def _forget(self, now: float) -> None:
        """Drop the outcomes older than :data:`KEEP_ANSWERS` (looked at once the record has grown)."""
        if len(self._outcomes) < 256:
            return
        for key, (when, _) in list(self._outcomes.items()):
            if now - when > KEEP_ANSWERS:
                del self._outcomes[key]

    def _on_answer(self, payload: str) -> None:
        if payload == "*":
            for event in self._answers.values():
                event.set()
            return
        with contextlib.suppress(ValueError):
            waiting = self._answers.get(int(payload))
            if waiting is not None:
                waiting.set()

    # -- holder side --------------------------------------------------------------------------------

    def _on_inbox(self, payload: str) -> None:
        if payload == "*":
            self._wake.set()
            return
        with contextlib.suppress(ValueError):
            if self._held(int(payload)):
                self._wake.set()

    async def _serve_loop(self) -> None:
        purged = 0.0
        while True:
            await _wait(self.poll, self._wake)
            self._wake.clear()
            try:
                await self.serve()
                now = self.manager.clock.now()
                if now - purged > 300.0:
                    purged = now
                    await self.repo.inbox_purge(now - KEEP_ENTRIES)
            except Exception:  # the database is away: the next round tries again
                log.exception("serving the inbox failed")
                await asyncio.sleep(self.poll)

    async def serve(self) -> int:
        """Take the entries of the tables held here and apply each (in its own task); how many."""
        entries = await self.repo.inbox_take(self.owner, self.manager.clock.now())
        for entry in entries:
            task = asyncio.create_task(self._apply(entry))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        return len(entries)

    async def _apply(self, entry: InboxEntry) -> None:
        try:
            if not self._held(entry.table_id):
                answer = json.dumps({"moved": True})
            else:
                cmd, actor = decode_request(entry.request)
                result = await self.once(cmd, actor, lambda: self.local(cmd, actor))
                answer = encode_answer(result)
        except TableError as e:
            answer = encode_error(e.code, e.params)
        except Exception:
            log.exception("forwarded command %s failed", entry.entry_id)
            answer = encode_error(Refusal.INTERNAL, {})
        self.stats["served"] += 1
        try:
            await self.repo.inbox_answer(entry.entry_id, answer, self.manager.clock.now())
        except Exception:
            log.exception("could not answer forwarded command %s", entry.entry_id)
