"""A running Majlis Discord bot against the fake, and simulated members who play through it.

``Bot`` owns a real SQLite file, a table manager (instant AI, no turn timers unless asked) and
the real discord.py client built by :func:`bot.adapters.discord.build_client`. ``Privacy`` checks every
message at the moment it is rendered, when the engine's state is exactly the one it shows, and
remembers what it checked, so that a test can then prove that every message Discord received
was one of them.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.adapters.discord import build_client
from bot.adapters.discord.client import MajlisClient, MajlisShardedClient
from bot.adapters.discord.handlers import Handlers
from bot.adapters.throttle import CommandLimits
from bot.core.clock import RealClock
from bot.core.manager import TableManager
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from bot.present.presenter import Presenter
from storage import open_repository
from tests.adapters.discord.fake_discord import FakeDiscord, Interaction, Message

#: The bot's command limit as configured by default (real time); the press cap is off, since
#: simulated members press at machine speed.
TEST_LIMITS = CommandLimits(press_burst=0)
CARD = re.compile(r"(10|[2-9AKQJ])([♠♥♦♣])")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(text: str) -> set[str]:
    """Card codes whose labels (``Q♠``, ``10♥``) appear in ``text``."""
    return {("T" if r == "10" else r) + _SUIT[s] for r, s in CARD.findall(text)}


def shown(msg: Any) -> str:
    """The text and every button label of an ``OutMessage``."""
    return "\n".join([msg.text, *(b.label for row in msg.buttons for b in row)])


@dataclass
class Privacy:
    """Checks hidden cards at render time; a list of what leaked (empty is the goal)."""

    manager: TableManager
    leaks: list[str] = field(default_factory=list)
    public_texts: set[str] = field(default_factory=set)
    private_texts: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    checked: int = 0

    def hidden(self, table_id: int, viewer: str | None) -> set[str]:
        """Cards in hands other than ``viewer``'s now, minus those shown to everyone."""
        snap = self.manager.get(table_id)
        if snap is None or snap.public is None:
            return set()
        public = self.manager.view(table_id, None)
        open_cards = {public.get("exposed")} | {d["card"] for d in public.get("doubled") or []}
        out: set[str] = set()
        for seat in range(4):
            if viewer is not None and snap.seat_of(viewer) == seat:
                continue
            out |= set(self.manager.view(table_id, seat).get("hand") or [])
        return out - open_cards

    def check(self, table_id: int | None, viewer: str | None, text: str, where: str) -> None:
        """Record a leak if ``text`` names a card hidden from ``viewer`` (None: everyone)."""
        self.checked += 1
        if table_id is None:
            return
        leaked = cards_in(text) & self.hidden(table_id, viewer)
        if leaked:
            self.leaks.append(f"{where}: {sorted(leaked)} in {text!r}")

    def watch_presenter(self, presenter: Presenter) -> None:
        """Check every message the presenter queues for Discord, when it is rendered."""
        hub = presenter.hubs["dc"]
        original = hub.put

        def inspect(dest: str, key: str | None, msg: Any) -> None:
            text = shown(msg)
            tid = _table_of(key) or self._table_of_dest(dest)
            if dest.startswith("dm:dc:"):
                user = int(dest[6:])
                if key and key.startswith("hand:") and not key.endswith(f":dc:{user}"):
                    self.leaks.append(f"hand {key} sent to {dest}")
                self.check(tid, f"dc:{user}", text, dest)
                self.private_texts[user].add(msg.text)
            else:
                self.check(tid, None, text, dest)
                self.public_texts.add(msg.text)

        def put(dest: str, key: str | None, msg: Any, mode: str = "edit", **kw: Any) -> None:
            if callable(msg):  # lazy rendering: check what is built, when it is built (right before sending)
                build = msg

                def checked() -> Any:
                    built = build()
                    if built is not None:
                        inspect(dest, key, built)
                    return built

                msg = checked
            elif msg is not None:
                inspect(dest, key, msg)
            original(dest, key, msg, mode, **kw)

        hub.put = put  # type: ignore[method-assign]

    def _tables_of_answer(self, interaction: Any, msg: Any) -> list[int]:
        """The table an ephemeral answer is about: its buttons', the channel's, or the user's."""
        for row in msg.buttons if msg is not None else ():
            for b in row:
                tid = _table_of_payload(b.payload)
                if tid is not None:
                    return [tid]
        snap = self.manager.table_in_chat(f"dc:{interaction.channel_id}")
        if snap is not None:
            return [snap.table_id]
        user = f"dc:{interaction.user.id}"
        return [t.table_id for t in self.manager._tables.values() if t.live and t.seat_of(user) is not None]

    def _table_of_dest(self, dest: str) -> int | None:
        snap = self.manager.table_in_chat(dest) if not dest.startswith("dm:") else None
        if snap is not None:
            return snap.table_id
        live = [t for t in self.manager._tables.values() if t.live]
        return live[0].table_id if len(live) == 1 else None

    def watch_handlers(self, handlers: Handlers) -> None:
        """Check every ephemeral answer the adapter gives, before it is sent."""
        original = handlers.answer

        async def answer(interaction: Any, text: str, msg: Any = None) -> None:
            user = interaction.user.id
            full = shown(msg) if msg is not None else text
            for tid in self._tables_of_answer(interaction, msg):
                self.check(tid, f"dc:{user}", full, f"ephemeral to {user}")
            self.private_texts[user].add(text[:2000])
            await original(interaction, text, msg)

        handlers.answer = answer  # type: ignore[method-assign]


def _table_of_payload(payload: str | None) -> int | None:
    parts = (payload or "").split(":")
    return int(parts[2]) if len(parts) == 5 and parts[0] == "mj1" and parts[2].isdigit() else None


def _table_of(key: str | None) -> int | None:
    if not key:
        return None
    kind, _, rest = key.partition(":")
    tid = rest.split(":", 1)[0]
    return int(tid) if kind in ("table", "hand") and tid.isdigit() else None


class Bot:
    """Storage, manager, client: started against a fake, stoppable, restartable on the same file."""

    def __init__(self, fake: FakeDiscord, db: Path, *, sharded: bool = False,
                 settings: ManagerSettings | None = None, limits: CommandLimits = TEST_LIMITS,
                 limits_clock: Any = None, table_link: Any = None, clock: Any = None) -> None:
        self.fake = fake
        self.table_link = table_link  # the presenter's row under a table message (e.g. "Open table")
        self.limits = limits
        self.limits_clock = limits_clock
        self.clock = clock  # the manager's (None: the real clock)
        self.db = db
        self.sharded = sharded
        self.settings = settings or ManagerSettings(ai_delay=0.0, default_turn_seconds=0, lobby_timeout=3600)
        self.client: MajlisClient | MajlisShardedClient | None = None
        self.manager: TableManager | None = None
        self.privacy: Privacy | None = None
        self._task: asyncio.Task[None] | None = None
        self._repo: Any = None

    async def start(self) -> Bot:
        """Open the database, build and connect the client, wait until it is ready."""
        self._repo = await open_repository(self.db)
        self.manager = TableManager(self._repo, router=routed, settings=self.settings, clock=self.clock)
        self.privacy = privacy = Privacy(self.manager)

        def presenter(manager: TableManager, transport: Any) -> Presenter:
            p = Presenter(manager, {"dc": transport}, table_link=self.table_link,
                          clock=RealClock())  # the outboxes pace on real time, whatever the manager's clock
            privacy.watch_presenter(p)
            return p

        self.client = build_client(self.manager, sharded=self.sharded, presenter=presenter,
                                   guild_ready_timeout=0.05, limits=self.limits, limits_clock=self.limits_clock)
        privacy.watch_handlers(self.client.handlers)
        self._task = asyncio.create_task(self.client.start("fake-token"))
        await asyncio.wait_for(self.client.wait_until_ready(), 15)
        return self

    async def stop(self) -> None:
        """Disconnect and close the database (the tables stay in it)."""
        if self.client is not None:
            await self.client.shutdown(drain_seconds=0.5)  # queued "your turn" DMs need not wait
            await self.client.close()
        if self._task is not None:
            await self._task
        if self._repo is not None:
            await self._repo.close()

    async def drain(self, channel_ids: list[int] | None = None) -> None:
        """Wait until the presenter has delivered everything queued (to these channels only).

        DMs are left out when channels are named: "your turn" pings are new messages that do not
        coalesce, so in a fast test match they queue up behind the DM budget for a long time.
        """
        assert self.client is not None and self.client.presenter is not None
        if channel_ids is None:
            await self.client.presenter.drain()
            return
        hub = self.client.presenter.hubs["dc"]
        for cid in channel_ids:
            await hub.outbox(f"dc:{cid}").drain()


@dataclass
class Member:
    """A simulated person: a Discord user id, a name, and whether DMs are open."""

    user_id: int
    name: str
    dm_open: bool = True


def hand_messages(fake: FakeDiscord, user_id: int) -> list[Message]:
    """DMs and ephemeral messages of ``user_id`` that carry moves, newest first."""
    return [m for m in reversed(fake.private_messages(user_id)) if any(c.startswith("mj1:a:") for c in m.custom_ids())]


def moves(message: Message, table_id: int, version: int) -> list[str]:
    """The pressable moves of a hand message at exactly ``version``."""
    prefix = f"mj1:a:{table_id}:{version}:"
    return [c for c in message.custom_ids() if c.startswith(prefix) or c.split("|", 1)[-1].startswith(prefix)]


RANKS = "23456789TJQKA"


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """A plain player's move: modest bids that let deals be played, mostly high cards."""
    bids = [a for a in legal if a.startswith("bid ")]
    if bids:
        amount = {b: int(b[4:]) for b in bids}
        if view.get("game") == "tarneeb41":
            made = [b for b in view.get("bids") or [] if b is not None]
            if len(made) == 3:
                ok = [b for b in bids if amount[b] >= max(2, 11 - sum(made))]
                return min(ok, key=amount.__getitem__) if ok else bids[-1]
            return "bid 3" if "bid 3" in bids else min(bids, key=amount.__getitem__)
        if "pass" in legal and view.get("high_bid"):
            return "pass"
        return min(bids, key=amount.__getitem__)
    plays = [a for a in legal if a.startswith("play ")]
    if plays and rng.random() < 0.7:
        return max(plays, key=lambda a: RANKS.index(a[5]))
    return rng.choice(legal)


class Table:
    """Drives one table through the fake: who acts, what they see, what they press."""

    def __init__(self, fake: FakeDiscord, bot: Bot, channel_id: int, members: list[Member],
                 *, seed: int = 1) -> None:
        self.fake = fake
        self.bot = bot
        self.channel_id = channel_id
        self.members = members
        self.rng = random.Random(seed)
        self.table_id: int | None = None
        self.interactions: list[Interaction] = []
        self.dm_moves = 0
        self.message_id: int | None = None

    @property
    def manager(self) -> TableManager:
        """The bot's current table manager (a new one after a restart)."""
        assert self.bot.manager is not None
        return self.bot.manager

    async def slash(self, member: Member, sub: str, **options: Any) -> Interaction:
        """A slash command, answered."""
        ix = await self.fake.slash(member.user_id, self.channel_id, sub, **options)
        self.interactions.append(ix)
        await self.fake.wait_until(lambda: ix.response_type is not None and (ix.edits or ix.response_type != 5))
        return ix

    async def click(self, member: Member, message_id: int, custom_id: str) -> Interaction:
        """A press, answered (the first response and, after a thinking defer, its edit)."""
        ix = await self.fake.click(member.user_id, message_id, custom_id)
        self.interactions.append(ix)
        await self.fake.wait_until(lambda: ix.response_type is not None and (ix.edits or ix.response_type != 5))
        return ix

    def text_of(self, ix: Interaction) -> str:
        """What the person read in answer to ``ix`` (original response and followups)."""
        parts = [self.fake.messages[ix.original_id].content] if ix.original_id else []
        parts += [self.fake.messages[m].content for m in ix.followups]
        return "\n".join(parts)

    def table_message(self) -> Message:
        """The live public table message in the channel (the one with Join/My hand buttons)."""
        tid = self.table_id
        if self.message_id is not None:
            return self.fake.messages[self.message_id]
        for m in reversed(self.fake.channel_messages(self.channel_id)):
            if any(c.startswith(f"mj1:h:{tid}:") or c.startswith(f"mj1:j:{tid}:") for c in m.custom_ids()):
                self.message_id = m.id
                return m
        raise AssertionError("no table message")

    async def open(self, game: str, target: int | None = None) -> None:
        """The first member types ``/majlis new``; the others press Join on the table message."""
        first = self.members[0]
        opts: dict[str, Any] = {"game": game}
        if target:
            opts["target"] = target
        ix = await self.slash(first, "new", **opts)
        snap = self.manager.table_in_chat(f"dc:{self.channel_id}")
        assert snap is not None, self.text_of(ix)
        self.table_id = snap.table_id
        await self.fake.wait_until(self._has_table_message)
        for m in self.members[1:]:
            join = next(c for c in self.table_message().custom_ids() if c.startswith("mj1:j:"))
            await self.click(m, self.table_message().id, join)
        if self.status() == "playing":  # people act once the table message shows the match (paced)
            await self.fake.wait_until(
                lambda: any(c.startswith("mj1:h:") for c in self.table_message().custom_ids()), timeout=20)

    def _has_table_message(self) -> bool:
        try:
            self.table_message()
        except AssertionError:
            return False
        return True

    def status(self) -> str:
        """The table's status now."""
        assert self.table_id is not None
        snap = self.manager.get(self.table_id)
        assert snap is not None
        return snap.table.status

    async def controls(self, member: Member, version: int, *, via_dm: bool) -> tuple[Message, list[str]]:
        """The member's hand message with moves at ``version``: the DM (waited for), or My hand."""
        assert self.table_id is not None
        tid = self.table_id
        if via_dm:
            def fresh() -> tuple[Message, list[str]] | None:
                for m in self.fake.dms(member.user_id):
                    found = moves(m, tid, version)
                    if found:
                        return m, found
                return None
            got = await self.fake.wait_until(fresh, timeout=20)
            assert got is not None
            return got
        def hand_button() -> str | None:  # the table message shows it once its edit arrives (paced)
            return next((c for c in self.table_message().custom_ids() if c.startswith("mj1:h:")), None)

        hand = await self.fake.wait_until(hand_button, timeout=20)
        assert hand is not None
        ix = await self.click(member, self.table_message().id, hand)
        assert ix.original_id is not None
        message = self.fake.messages[ix.original_id]
        return message, moves(message, tid, version)

    async def step(self, *, dm_seats: frozenset[int] = frozenset()) -> None:
        """The seat to act makes one random legal move through a button."""
        assert self.table_id is not None
        snap = self.manager.get(self.table_id)
        assert snap is not None and snap.to_act is not None
        seat, version = snap.to_act, snap.table.version
        member = self.member_at(seat)
        via_dm = seat in dm_seats and member.dm_open
        message, found = await self.controls(member, version, via_dm=via_dm)
        assert found, f"no moves for seat {seat} at {version}: {message.content!r}"
        # The member decides from their own hand, which their hand message shows them.
        codes = {c.split("|", 1)[-1].split(":", 4)[4].replace("_", " "): c for c in found}
        code = choose(self.manager.view(self.table_id, seat), sorted(codes), self.rng)
        choice = codes[code]
        if via_dm:
            self.dm_moves += 1
        await self.click(member, message.id, choice)
        await self.fake.wait_until(lambda: self._moved(version), timeout=20)

    def _moved(self, version: int) -> bool:
        assert self.table_id is not None
        snap = self.manager.get(self.table_id)
        return snap is not None and (snap.table.version > version or snap.table.status != "playing")

    def member_at(self, seat: int) -> Member:
        """The member sitting in ``seat``."""
        assert self.table_id is not None
        snap = self.manager.get(self.table_id)
        assert snap is not None
        pid = snap.table.seats[seat].player_id
        return next(m for m in self.members if f"dc:{m.user_id}" == pid)

    async def play_out(self, *, max_steps: int = 5000, dm_seats: frozenset[int] = frozenset(),
                       dm_moves: int = 2, until_version: int | None = None) -> None:
        """Play until the match is over (or ``until_version``); DM seats use their DM for a few moves."""
        for _ in range(max_steps):
            if self.status() != "playing":
                return
            snap = self.manager.get(self.table_id or 0)
            assert snap is not None
            if until_version is not None and snap.table.version >= until_version:
                return
            await self.step(dm_seats=dm_seats if self.dm_moves < dm_moves else frozenset())
        raise AssertionError("the match did not end")


def check_delivery(fake: FakeDiscord, bot: Bot, channel_ids: list[int], interactions: list[Interaction]) -> None:
    """The invariants every test ends with; raises AssertionError with what went wrong."""
    privacy = bot.privacy
    assert privacy is not None
    assert privacy.leaks == [], privacy.leaks[:3]
    # Every channel message Discord received was checked when it was rendered.
    for sent in fake.public():
        if sent.kind != "delete":
            assert sent.content in privacy.public_texts or not cards_in(sent.content), sent.content
    # Every DM and ephemeral message reached only its owner and was checked for them.
    for sent in fake.log:
        if sent.user_id is not None and sent.kind != "delete" and cards_in(sent.content):
            assert sent.content in privacy.private_texts[sent.user_id], (sent.user_id, sent.content)
    # About 5 messages per 5 seconds per channel, edits included.
    for cid in channel_ids:
        assert fake.max_in_window[cid] <= 5, (cid, fake.max_in_window[cid])
    # Every interaction was acknowledged within 3 seconds, once.
    for ix in interactions:
        assert ix.response_type is not None and ix.latency is not None and ix.latency < 3.0, ix
        assert ix.errors == [], (ix.id, ix.errors)
    assert fake.violations == [], fake.violations
