"""The one action pipeline: lock → checks → engine on a clone → commit → swap → publish → timer.

Every engine action goes through :meth:`Pipeline.apply`: a person's press or typed move
(:meth:`Pipeline.act`), an AI seat's move and a timeout (both from :meth:`Pipeline.wake`, the
scheduler's callback). AI seats decide in :func:`bot.core.tables.ai_runner.decide`, without the lock; the
answer applies only if the table did not move meanwhile.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from typing import Any

from ai import AIProvider, Player
from bot.core import metrics
from bot.core.clock import Clock
from bot.core.errors import Refusal, TableError
from bot.core.identity import ai_seat_id, is_dm
from bot.core.model import Person, TableSnapshot
from bot.core.prefs import Prefs
from bot.core.settings import ManagerSettings
from bot.core.table import Table
from bot.core.tables import ai_runner
from bot.core.tables.lifecycle import Lifecycle
from bot.core.tables.registry import Registry, require_playing
from bot.core.tables.restore import resync
from bot.core.tables.turns import AI_MOVE, LOBBY_EXPIRED, TIMEOUT, WARNING
from bot.core.views import Event, events_of
from engine import Game, IllegalAction
from storage.records import CANCELLED, FINISHED, STOPPED, ActionRecord, MatchResult, Seat, evolve
from storage.repository import VersionConflict

log = logging.getLogger(__name__)


MAX_ACTION_LEN = 32
#: The events after which the next deal's first AI move waits ``ManagerSettings.deal_pause``.
DEAL_ENDS = frozenset({"deal_scored", "deal_thrown_in"})


class Pipeline:
    """Applies engine actions to the live tables."""

    def __init__(self, registry: Registry, lifecycle: Lifecycle, prefs: Prefs, ai: AIProvider) -> None:
        self.registry = registry
        self.lifecycle = lifecycle
        self.repo = lifecycle.repo
        self.clock: Clock = lifecycle.clock
        self.settings: ManagerSettings = lifecycle.settings
        self.turns = lifecycle.turns
        self.publisher = lifecycle.publisher
        self.prefs = prefs
        self.ai = ai
        self._failures: dict[int, int] = {}  # table -> failed wake-ups in a row (only failing tables)

    # ------------------------------------------------------------------ a person's move

    async def act(self, table_id: int, person: Person, version: int | None, action: str) -> TableSnapshot:
        """Apply ``action`` for ``person`` (at ``version``, or at any version when None)."""
        table = self.registry.table(table_id)
        if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION_LEN:
            raise TableError(Refusal.BAD_ACTION)
        async with self.publisher.locked(table):
            started = time.perf_counter()
            require_playing(table)
            seat = table.seat_of(person.player_id)
            if seat is None:
                raise TableError(Refusal.NOT_SEATED)
            if version is not None and version != table.record.version:
                raise TableError(Refusal.STALE, version=table.record.version)
            if table.to_act != seat:
                raise TableError(Refusal.NOT_YOUR_TURN)
            current = table.record.seats[seat]
            before: list[Event] = []
            if current.away and current.owner == person.player_id:
                new_seat = Seat(player_id=person.player_id, name=current.name or person.name)
                before.append({"type": "seat_reclaimed", "seat": seat, "player": person.player_id})
            else:
                new_seat = current if current.auto_streak == 0 else dataclasses.replace(current, auto_streak=0)
            await self.apply(table, seat, action, person.player_id, "action", started,
                             seat_value=new_seat, before=before)
            return table.snapshot()

    async def next_deal(self, table_id: int, person: Person) -> TableSnapshot:
        """End the pause after a deal (``ManagerSettings.deal_pause``) for ``person``, seated: the AI
        seat to act moves after its usual ``ai_delay``. Only the one person at a table ends it; with
        several, each reads at their own pace and the pause runs out by itself. Changes no record."""
        table = self.registry.table(table_id)
        async with self.publisher.locked(table):
            require_playing(table)
            if table.seat_of(person.player_id) is None:
                raise TableError(Refusal.NOT_SEATED)
            people = {s.player_id for s in table.record.seats if not s.is_ai and s.player_id}
            if table.ai_at is not None and people == {person.player_id}:
                soon = self.clock.now() + self.turns.ai_delay(table)
                if table.ai_at > soon:
                    table.ai_at = soon
                    self.turns.reschedule(table)
            return table.snapshot()

    async def apply(self, table: Table, seat: int, action: str, actor: str, reason: str, started: float, *,
                    seat_value: Seat | None = None, before: list[Event] | None = None,
                    after: list[Event] | None = None) -> None:
        """The one path of an engine action; the caller holds ``table.lock`` and checked the seat."""
        assert table.game is not None
        action = _canonical(table.game, action)
        game = table.game.clone()
        try:
            events = events_of(game.act(seat, action))
        except IllegalAction as e:
            raise TableError(Refusal.ILLEGAL, **{**e.details, "reason": e.reason}) from None
        except Exception:
            log.exception("engine failed on table %s: seat %s %r", table.table_id, seat, action)
            raise TableError(Refusal.ILLEGAL, reason="internal") from None
        await self.prefs.chat(table.record.chat_id)  # the turn timer, read again once in a while
        now = self.clock.now()
        new_seats = table.record.seats
        # an unchanged seat keeps the seats tuple: its identity keys what is kept per seats (names, buttons, JSON)
        if seat_value is not None and seat_value != new_seats[seat]:
            s = list(new_seats)
            s[seat] = seat_value
            new_seats = (s[0], s[1], s[2], s[3])
        seq = table.record.version + 1
        deadline, ai_at, warn_at = self.turns.plan(table.record.chat_id, new_seats, game, now, table)
        if ai_at is not None and ai_at > now and self.settings.deal_pause > 0 \
                and any(e["type"] in DEAL_ENDS for e in events):  # people read the deal's result first
            ai_at = max(ai_at, now + self.settings.deal_pause)
        record = evolve(table.record, seats=new_seats, version=seq, warned=False, deadline=deadline)
        if table.parked:  # a person's move sets a parked table going again (stored with the move)
            record = evolve(record, parked=0)
        entry = ActionRecord(table_id=table.table_id, seq=seq, seat=seat, action=action, actor=actor, at=now)
        result: MatchResult | None = None
        if game.to_act is None:  # the match ends here: the action, its result and the ratings in ONE write
            ended = Table(record=dataclasses.replace(record, status=FINISHED, deadline=None), game=game)
            result, record = ended.match_result(now), ended.record
        try:
            if result is None:
                record = await self.repo.append_action(entry, record)
            else:
                record = await self.repo.append_final_action(entry, record, result)
        except VersionConflict:
            log.exception("table %s: the log moved under us; reloading it", table.table_id)
            await resync(self.repo, table)
            raise TableError(Refusal.STALE, version=table.record.version) from None
        except Exception:
            # re-raised: the caller reports it (a person's command answers and logs it; a timer or an
            # AI move backs off and, if it keeps failing, parks the table with one line)
            log.debug("table %s: storing action %s failed; reloading", table.table_id, seq, exc_info=True)
            await resync(self.repo, table)
            raise
        table.game, table.record, table.ai_at, table.warn_at = game, record, ai_at, warn_at
        table.since_snapshot += 1
        table.changed()
        events = [*(before or []), *events, *(after or [])]
        if result is not None:
            recorded = self.lifecycle.finished(table, result)
            await self.lifecycle.add_ratings(table, recorded)
            events += recorded
            reason = "ended"
        self.publisher.post(table, events, reason, entry)
        if table.live and is_dm(table.record.chat_id) and any(e["type"] in DEAL_ENDS for e in events):
            # a table in a private chat is a duplicate challenge's board (bot/core/challenges.py): one deal
            await self.lifecycle.end(table, STOPPED, [{"type": "table_cancelled", "reason": "board_done"}])
        if self.settings.latency_sink is not None:
            self.settings.latency_sink(time.perf_counter() - started)
        metrics.action("timeout" if actor == "timer" else "person" if seat_value is not None else "ai",
                       time.perf_counter() - started)
        if table.live and self.lifecycle.snapshot_due(table, events):
            await self.lifecycle.save_snapshot(table)
        self.turns.reschedule(table)

    # ------------------------------------------------------------------ timers and AI

    async def wake(self, table_id: int) -> None:
        """A table's timer came due (the scheduler's callback).

        After an internal error (storage, engine, a bug) the table is tried again after
        ``retry_first`` seconds, doubling up to ``retry_max`` (each failure is logged at DEBUG, with
        its traceback); after ``park_after`` failures in a row it is parked: no more wake-ups, ONE
        error line in the log and a ``table_parked`` notice in its chat, and the mark is stored
        (:meth:`_park`): a restart leaves it parked. A person's move, or ``begin``, sets it going again.
        """
        try:
            await self._wake(table_id)
        except Exception as e:
            table = self.registry.find(table_id)
            if table is None or not table.live:
                return
            n = self._failures.get(table_id, 0) + 1
            settings = self.settings
            if n < settings.park_after:
                self._failures[table_id] = n
                delay = min(settings.retry_first * 2 ** (n - 1), settings.retry_max)
                log.debug("table %s: timer or AI move failed (%d in a row); trying again in %.0f s",
                          table_id, n, delay, exc_info=True)
                self.turns.retry_soon(table_id, delay)
                return
            self._failures.pop(table_id, None)
            self.turns.forget(table_id)
            log.error("table parked: %s stops after %d failed attempts of its timer or AI move (last: %s); "
                      "a person's move or begin sets it going, stop ends it", table_id, n, _where(e))
            async with self.publisher.locked(table):
                await self._park(table, n)
                self.publisher.post(table, [{"type": "table_parked", "attempts": n}], "parked")
        else:
            self._failures.pop(table_id, None)

    async def _park(self, table: Table, attempts: int) -> None:
        """Mark the table parked in its stored record, so that a restart leaves it idle too (if
        storage is what fails, it stays parked in this process only, and a restart tries again)."""
        table.update(parked=attempts)
        try:
            table.record = await self.repo.save_table(table.record)
        except Exception:
            log.warning("table %s: storing that it is parked failed; a restart will try it again",
                        table.table_id, exc_info=True)

    def forget(self, table_id: int) -> None:
        """Drop what is kept about a table that left memory."""
        self._failures.pop(table_id, None)

    async def _wake(self, table_id: int) -> None:
        table = self.registry.find(table_id)
        if table is None or not table.live:
            return
        async with self.publisher.locked(table):
            thinking = await self._fire_due(table, time.perf_counter())
            if thinking is not None and ai_runner.inline(thinking[0]):
                player, seat, _, view = thinking
                decision = await ai_runner.decide(player, view, table.record.game, _ai_rng(table),
                                                  table_id=table_id, seat=seat)
                await self._ai_move(table, decision, time.perf_counter())
                return
        if thinking is None:
            return
        player, seat, version, view = thinking
        decision = await ai_runner.decide(player, view, table.record.game, _ai_rng(table),
                                          table_id=table_id, seat=seat)
        async with self.publisher.locked(table):
            if table.playing and table.record.version == version and table.to_act == seat \
                    and table.ai_at is not None:
                await self._ai_move(table, decision, time.perf_counter())
            elif table.live:
                self.turns.reschedule(table)

    async def _fire_due(self, table: Table, started: float) -> tuple[Player, int, int, dict[str, Any]] | None:
        """Do what is due on ``table`` (lock held); an AI's turn is returned to be decided unlocked."""
        now = self.clock.now()
        due = self.turns.due(table, now)
        if due == LOBBY_EXPIRED:
            await self.lifecycle.end(table, CANCELLED, [{"type": "table_cancelled", "reason": "lobby_timeout"}])
        elif due == AI_MOVE:
            assert table.game is not None
            seat = table.to_act
            assert seat is not None
            player = self.ai(table.record.ai_level)
            return player, seat, table.record.version, ai_runner.view_for(player, table.game, seat)
        elif due == TIMEOUT:
            seat, action, new_seat, before, after = self.turns.timeout_move(table)
            await self.apply(table, seat, action, "timer", "timeout", started,
                             seat_value=new_seat, before=before, after=after)
        elif due == WARNING:
            await self._warn(table, now)
        elif table.live:
            self.turns.reschedule(table)
        return None

    async def _ai_move(self, table: Table, decision: str | None, started: float) -> None:
        """Play the AI seat to act: its ``decision``, or the automatic move if it failed or was illegal."""
        assert table.game is not None
        seat = table.to_act
        assert seat is not None
        record = table.record
        actor = record.seats[seat].player_id or ai_seat_id(record.ai_level, seat)
        if decision is not None:
            try:
                await self.apply(table, seat, decision, actor, "action", started)
                return
            except TableError as e:
                if e.code != Refusal.ILLEGAL:
                    raise
                log.warning("AI of table %s chose %r: %s; playing the automatic move",
                            table.table_id, decision, e.params)
        await self.apply(table, seat, table.game.auto(), actor, "action", started)

    async def _warn(self, table: Table, now: float) -> None:
        event = self.turns.warning_event(table, now)
        async with table.changing():
            table.update(warned=True)
            table.record = await self.repo.save_table(table.record)
        self.publisher.post(table, [event], "warning")
        self.turns.reschedule(table)


def _where(exc: BaseException) -> str:
    """``Type: message at file.py:line`` of an exception (its innermost frame), on one line."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    at = f" at {tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}" if tb is not None else ""
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}{at}"


def position_rng(seed: int, version: int) -> random.Random:
    """A generator for one AI decision, seeded from the table's seed and the position (the number of
    actions played): the same decision in every process, after every restart."""
    return random.Random(seed * 1009 + version)


def _ai_rng(table: Table) -> random.Random:
    """The table's generator for AI choices (seeded from the table, made once: seeding is slow). A
    duplicate challenge's board (a table in a private chat) seeds every decision from its position
    (:func:`position_rng`), so that its AI answers every person's same plays the same way."""
    if is_dm(table.record.chat_id):
        return position_rng(table.record.seed, table.record.version)
    if table.rng is None:
        table.rng = random.Random(table.record.seed)
    return table.rng


def _canonical(game: Game, action: str) -> str:
    """The legal code that ``action`` spells another way, else ``action`` (the engine refuses it then).

    Another case or spaces around it (``" PLAY as"``), and every spelling the engine's parser
    accepts (``"play 10H"`` is ``"play TH"``): the log holds the canonical code only.
    """
    legal = game.legal()
    if action in legal:  # already canonical (every AI move and button press)
        return action
    key = action.strip().lower()
    for code in legal:
        if code.lower() == key:
            return code
    if type(game).__module__.startswith("engine.trix"):
        from engine.trix.actions import action_code, parse_action
    else:
        from engine.trick import action_code, parse_action
    try:
        code = action_code(parse_action(action))
    except (IllegalAction, ValueError, TypeError, KeyError, IndexError):
        return action
    return code if code in legal else action
