"""A test bed: the fake Bot API, a real SQLite file, the table manager and the real PTB Application.

People act only through Telegram: commands, deep links and button presses on the fake. A privacy
checker sees every message the presenter queues (before the outbox sends it) and compares it with
the engine's state at that moment: a group may show no card that sits in a hand and is not public,
a private chat no card of another seat's hand.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.adapters.telegram.app import TgApp, build_application, default_presenter, start_polling, stop_polling
from bot.adapters.telegram.transport import TelegramTransport
from bot.adapters.throttle import CommandLimits
from bot.core.clock import FakeClock
from bot.core.manager import TableManager
from bot.core.model import TableUpdate
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from bot.present.keys import table_of_key
from bot.present.outbox import Budget, Outbox, OutboxHub
from bot.present.presenter import Presenter
from bot.present.render.cards import card_label
from bot.present.render.message import OutMessage
from storage import open_repository
from storage.repository import Repository
from tests.adapters.telegram.fake_server import TOKEN, FakeMessage, FakeTelegram, FakeUser

CARDS = frozenset(r + s for r in "23456789TJQKA" for s in "SHDC")
GROUP = -1001000
CHAT = f"tg:{GROUP}"  # the group's chat id in the manager
TEST_DM_BUDGET = Budget(20, 1.0)
#: The bot's command limit as configured by default (on the manager's fake clock: it refills only
#: when a test moves the clock); the press cap is off, since simulated people press at machine speed.
TEST_LIMITS = CommandLimits(press_burst=0)


class ScaledClock:
    """Time that runs ``speed`` times faster than real time: it paces the outboxes, and the fake
    server timestamps with it, so a 60 s budget window passes in 60 / ``speed`` real seconds."""

    def __init__(self, speed: float, start: float = 1_800_000_000.0) -> None:
        self.speed = speed
        self._start = start
        self._t0 = time.monotonic()

    def now(self) -> float:
        """Scaled seconds."""
        return self._start + (time.monotonic() - self._t0) * self.speed

    async def sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` of scaled time."""
        await asyncio.sleep(max(0.0, seconds) / self.speed)


def public_cards(view: Any) -> set[str]:
    """Every card code that appears anywhere in a (public) view."""
    found: set[str] = set()
    if isinstance(view, dict):
        for v in view.values():
            found |= public_cards(v)
    elif isinstance(view, list):
        for v in view:
            found |= public_cards(v)
    elif isinstance(view, str) and view in CARDS:
        found.add(view)
    return found


@dataclass
class Violation:
    """A message that showed a card its readers may not see."""

    dest: str
    card: str
    text: str


@dataclass
class PrivacyChecker:
    """Checks each queued message against the hands at the time it was rendered."""

    manager_of: Callable[[], TableManager]
    violations: list[Violation] = field(default_factory=list)
    event_cards: set[str] = field(default_factory=set)
    last_put: dict[tuple[str, str], str] = field(default_factory=dict)
    checked: dict[str, set[str]] = field(default_factory=dict)
    hands_seen: dict[str, int] = field(default_factory=dict)

    async def on_update(self, update: TableUpdate) -> None:
        """Subscribed before the presenter: the events of the update being presented are public
        (architecture §1), so the cards they name (a deal's tricks and captures, told in the deal
        summary when the next deal is already dealt) may be shown."""
        self.event_cards = public_cards(update.events)

    def wrap(self, hub: OutboxHub) -> None:
        """Check everything put into ``hub``: a message when it is queued, a builder (lazy
        rendering) when the outbox builds it, right before it is sent."""
        original = hub.put

        def put(dest: str, key: str | None, msg: Any, mode: str = "edit", **kw: Any) -> None:
            if callable(msg):
                build = msg

                def checked() -> OutMessage | None:
                    built = build()
                    if built is not None:
                        self.check(dest, key, built)
                    return built

                msg = checked
            elif msg is not None:
                self.check(dest, key, msg)
            original(dest, key, msg, mode, **kw)

        hub.put = put  # type: ignore[method-assign]

    def check(self, dest: str, key: str | None, msg: OutMessage) -> None:
        self.checked.setdefault(dest, set()).add(msg.text)
        if key:
            self.last_put[(dest, key)] = msg.text
        if key and key.startswith("hand:"):
            self.hands_seen[dest] = self.hands_seen.get(dest, 0) + 1
        manager = self.manager_of()
        shown = msg.text + " " + " ".join(b.label for row in msg.buttons for b in row)
        codes = {part.rsplit("_", 1)[-1] for row in msg.buttons for b in row if b.payload
                 for part in [b.payload.rsplit(":", 1)[-1]]}
        about = table_of_key(key)  # a table's own message (a group may have had several tables, one live)
        for table in list(manager._tables.values()):
            if table.game is None or not table.live or about not in (None, table.record.table_id):
                continue
            g = table.game
            public = public_cards(g.view(None)) | self.event_cards
            hands = {seat: set(g.hand(seat)) for seat in range(4)}
            if dest.startswith("dm:") or "#" in dest:  # a private chat, or one member's ephemeral messages
                player = dest[3:] if dest.startswith("dm:") else "tg:" + dest.rsplit("#", 1)[1]
                seats = [i for i, s in enumerate(table.record.seats) if player in (s.player_id, s.owner)]
                if not seats:
                    continue
                seat = seats[0]
                hidden = set().union(*(h for s, h in hands.items() if s != seat)) - public
            elif dest == table.record.chat_id:
                hidden = set().union(*hands.values()) - public
            else:
                continue
            for card in hidden:
                if card_label(card) in shown or card in codes:
                    self.violations.append(Violation(dest, card, shown))


@dataclass
class Player:
    """A simulated person."""

    user: FakeUser

    @property
    def user_id(self) -> int:
        return self.user.user_id

    @property
    def dm(self) -> str:
        return f"dm:tg:{self.user_id}"


class Bed:
    """Fake Telegram + SQLite + manager + Application, restartable on the same database file.

    The outboxes run on a :class:`ScaledClock` (``speed`` × real time), so the group budget of 20
    per minute is exercised for real in seconds. The private-chat budget is raised (``dm_budget``,
    default 20 per second) because the tests check the group budget; ``None`` keeps Telegram's 1 per
    second. The manager runs on a :class:`FakeClock`: turn timers fire only when a test moves it, and
    the per-person command limit (``limits``, on the same clock) refills only then.
    """

    def __init__(self, tmp_path: Path, *, speed: float = 10.0, settings: ManagerSettings | None = None,
                 seed: int = 1, dm_budget: Budget | None = TEST_DM_BUDGET,
                 limits: CommandLimits = TEST_LIMITS) -> None:
        self.db = str(tmp_path / "majlis.sqlite3")
        self.clock = FakeClock()
        self.outbox_clock = ScaledClock(speed)
        self.tg = FakeTelegram(clock=self.outbox_clock.now)
        seeds = iter(random.Random(seed).getrandbits(62) for _ in range(10_000))
        self.settings = settings or ManagerSettings(ai_delay=0.0, lobby_timeout=10_000.0,
                                                    default_turn_seconds=3600, seed_source=lambda: next(seeds))
        self.checker = PrivacyChecker(lambda: self.manager)
        self.dm_budget = dm_budget
        self.limits = limits
        self.sent_at: dict[str, list[float]] = {}
        self.repo: Repository | None = None
        self.manager: TableManager
        self.app: TgApp | None = None
        self.presenter: Presenter | None = None

    async def open(self) -> None:
        await self.tg.start()
        await self._boot()

    async def _boot(self) -> None:
        self.repo = await open_repository(self.db)
        self.manager = TableManager(self.repo, router=routed, clock=self.clock, settings=self.settings)

        def factory(manager: TableManager, transport: TelegramTransport, clock: Any) -> Presenter:
            if self.dm_budget is not None:
                transport.dm_budget = self.dm_budget
                transport.ephemeral_budget = self.dm_budget
            self._check_ephemeral_sends(transport)
            manager.subscribe(self.checker.on_update)
            presenter = default_presenter(manager, transport, clock)
            self.checker.wrap(presenter.hubs["tg"])
            self._log_sends(presenter.hubs["tg"])
            self.presenter = presenter
            return presenter

        self.app = build_application(TOKEN, self.manager, base_url=self.tg.base_url,
                                     outbox_clock=self.outbox_clock, presenter_factory=factory, limits=self.limits)
        await start_polling(self.app)

    def _check_ephemeral_sends(self, transport: TelegramTransport) -> None:
        """The first ephemeral hand of a press goes straight to the transport: check it there too."""
        send = transport.send_ephemeral

        async def checked(dest: str, msg: OutMessage, *, query_id: str | None = None) -> str:
            self.checker.check(dest, None, msg)
            return await send(dest, msg, query_id=query_id)

        transport.send_ephemeral = checked  # type: ignore[method-assign]

    def _log_sends(self, hub: OutboxHub) -> None:
        """Keep the outbox's own send times per destination (``self.sent_at``)."""
        make = hub.outbox

        def outbox(dest: str) -> Outbox:
            fresh = dest not in hub.outboxes
            box = make(dest)
            if fresh:
                record = box.window.record

                def logged(now: float) -> None:
                    self.sent_at.setdefault(dest, []).append(now)
                    record(now)

                box.window.record = logged  # type: ignore[method-assign]
            return box

        hub.outbox = outbox  # type: ignore[method-assign]

    async def restart(self) -> None:
        """Stop the Application (and manager) and build new ones on the same SQLite file."""
        await self.shutdown()
        await self._boot()

    async def shutdown(self) -> None:
        if self.app is not None:
            await stop_polling(self.app)
            self.app = None
        if self.repo is not None:
            await self.repo.close()
            self.repo = None

    async def close(self) -> None:
        await self.shutdown()
        await self.tg.stop()

    async def drain(self) -> None:
        assert self.presenter is not None
        await self.presenter.drain()

    # -- people ---------------------------------------------------------------------------------

    def people(self, names: list[str], lang: str, *, started: bool = True, first_id: int = 501) -> list[Player]:
        return [Player(self.tg.add_user(first_id + i, n, lang, started=started)) for i, n in enumerate(names)]

    def hand_message(self, p: Player, table_id: int) -> FakeMessage | None:
        """The newest message in ``p``'s private chat that carries moves of ``table_id``."""
        prefix = f"mj1:a:{table_id}:"
        return self.tg.last_bot_message(
            p.user_id, lambda m: any(str(b.get("callback_data", "")).startswith(prefix) for b in m.buttons))

    def table_message(self, table_id: int, chat_id: int = GROUP) -> FakeMessage | None:
        snap = self.manager.get(table_id)
        ids = snap.table.message_ids if snap else {}
        mid = ids.get(f"table:{table_id}")
        return self.tg.messages[chat_id].get(int(mid)) if mid else None


def max_in_window(times: list[float], window: float = 60.0) -> int:
    """The most of ``times`` inside any ``window``."""
    times = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while times[lo] <= t - window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def join_url_payload(message: FakeMessage) -> str:
    """The ``start`` payload of the lobby's deep-link Join button."""
    for b in message.buttons:
        url = b.get("url") or ""
        if "?start=" in url:
            return url.split("?start=", 1)[1]
    raise LookupError(f"no deep-link button in {json.dumps(message.buttons)}")


def choose(game: str, moves: list[str], rng: random.Random) -> str:
    """A person's pick among the move buttons (payloads): simple bids that let a match end soon,
    any card otherwise."""
    codes = {m.rsplit(":", 1)[-1].replace("_", " "): m for m in moves}
    if game == "tarneeb41" and "bid 3" in codes:
        return codes["bid 3"]
    if game == "tarneeb" and "bid 7" in codes:
        return codes["bid 7"]
    if game == "tarneeb" and "pass" in codes:
        return codes["pass"]
    return rng.choice(moves)


async def play_out(bed: Bed, table_id: int, players: list[Player], rng: random.Random, *,
                   max_presses: int = 20_000, stop: Callable[[], bool] | None = None) -> dict[str, int]:
    """Everyone presses one of their enabled move buttons whenever their hand shows some, until the
    match is over (or ``stop()``). Returns counts of answers: ``ok`` and each refusal text."""
    tally: dict[str, int] = {}
    pressed: set[tuple[int, int, int]] = set()
    prefix = f"mj1:a:{table_id}:"
    presses = 0
    while True:
        snap = bed.manager.get(table_id)
        if snap is None or snap.table.status != "playing" or (stop is not None and stop()):
            return tally
        acted = False
        for p in players:
            m = bed.hand_message(p, table_id)
            if m is None:
                continue
            key = (p.user_id, m.message_id, len(m.history))
            if key in pressed:
                continue
            moves = [b["callback_data"] for b in m.buttons if str(b.get("callback_data", "")).startswith(prefix)]
            if not moves:
                continue
            pressed.add(key)
            answer = await bed.tg.press(p.user, m, choose(snap.table.game, moves, rng))
            tally[answer.text or "ok"] = tally.get(answer.text or "ok", 0) + 1
            presses += 1
            acted = True
        assert presses < max_presses, "the match does not end"
        if not acted:
            await _wait_change(bed, table_id)


async def _wait_change(bed: Bed, table_id: int) -> None:
    before = bed.tg.requests
    await bed.tg.wait_for(lambda: bed.tg.requests > before or _ended(bed, table_id), timeout=20)


def _ended(bed: Bed, table_id: int) -> bool:
    snap = bed.manager.get(table_id)
    return snap is None or snap.table.status != "playing"
