"""The presenter with the real table manager (memory storage, fake clock) and a recording transport."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from dataclasses import dataclass, field
from typing import Any

from bot.core.commands import Act, Actor, PlayChallenge, StartChallenge
from bot.core.identity import dm_dest, platform_of
from bot.core.model import TableUpdate
from bot.core.service import Service
from bot.present.i18n import translator
from bot.present.keys import hand_key, hand_player, table_key, table_of_key
from bot.present.outbox import Budget, Forbidden
from bot.present.presenter import Presenter
from bot.present.render import render_dm_failed
from bot.present.render.cards import game_name
from bot.present.render.message import OutMessage
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import (
    ALICE,
    BOB,
    CHAT,
    Harness,
    make_manager,
    person_to_act,
    play_one,
    started_table,
)

CARD = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(text: str) -> set[str]:
    """The card codes written as labels (``Q♠``, ``10♥``) in a text."""
    return {("T" if r == "10" else r) + SYMBOL[s] for r, s in CARD.findall(text)}


@dataclass
class Recorder:
    """A transport that records every operation and checks what public destinations see."""

    public_cards: set[str]
    messages: dict[str, tuple[str, OutMessage]] = field(default_factory=dict)
    ops: list[tuple[str, str, str, OutMessage]] = field(default_factory=list)
    forbidden: set[str] = field(default_factory=set)
    leaks: list[tuple[str, set[str]]] = field(default_factory=list)
    ids: Any = field(default_factory=lambda: itertools.count(100))

    def budget(self, dest: str) -> Budget:
        return Budget(1000, 1.0)

    def start_link(self, payload: str | None = None) -> str:
        return "https://t.me/majlis_bot" + (f"?start={payload}" if payload else "")

    def _check(self, dest: str, msg: OutMessage) -> None:
        if dest in self.forbidden:
            raise Forbidden(dest)
        if not dest.startswith("dm:"):
            hidden = cards_in(msg.text) - self.public_cards
            if hidden:
                self.leaks.append((msg.text, hidden))

    async def send(self, dest: str, msg: OutMessage) -> str:
        self._check(dest, msg)
        mid = str(next(self.ids))
        self.messages[mid] = (dest, msg)
        self.ops.append(("send", dest, mid, msg))
        return mid

    async def edit(self, dest: str, message_id: str, msg: OutMessage) -> None:
        self._check(dest, msg)
        assert self.messages[message_id][0] == dest
        self.messages[message_id] = (dest, msg)
        self.ops.append(("edit", dest, message_id, msg))

    async def delete(self, dest: str, message_id: str) -> None:
        self.messages.pop(message_id, None)
        self.ops.append(("delete", dest, message_id, OutMessage("")))

    def at(self, dest: str, kind: str | None = None) -> list[tuple[str, str, str, OutMessage]]:
        return [o for o in self.ops if o[1] == dest and (kind is None or o[0] == kind)]


def track_public(h: Harness) -> set[str]:
    """Every card that became public, kept up to date by a subscriber that runs before the presenter."""
    seen: set[str] = set()

    async def listen(update: TableUpdate) -> None:
        for e in update.events:
            for k in ("card", "exposed"):
                if isinstance(e.get(k), str):
                    seen.add(e[k])
            for d in e.get("doubles") or []:
                seen.add(d["card"])
            for c in e.get("cards") or []:
                seen.add(c["card"])

    h.manager.subscribe(listen)
    return seen


async def play_draining(h: Harness, presenter: Presenter, table_id: int) -> Any:
    """Humans play random legal moves to the end; every message is delivered after each move."""
    rng = random.Random(5)
    snap = h.manager.get(table_id)
    for _ in range(5000):
        await presenter.drain()
        if snap.table.status != "playing":
            return snap
        person = person_to_act(h, snap, [ALICE, BOB])
        assert person is not None
        snap = await play_one(h, snap, person, rng)
    raise AssertionError("the match did not end")


async def drain_advancing(presenter: Presenter, clock: Any) -> None:
    """Drain while the fake clock moves (a restored chat waits as if its budget were just spent)."""
    task = asyncio.ensure_future(presenter.drain())
    while not task.done():
        clock.advance(0.25)
        await asyncio.sleep(0)
    await task


async def setup(repo: MemoryRepository | None = None) -> tuple[Harness, Recorder, Presenter]:
    h = make_manager(repo or MemoryRepository())
    rec = Recorder(track_public(h))
    presenter = Presenter(h.manager, {"tg": rec}, clock=h.clock)
    return h, rec, presenter


async def test_a_whole_match_shows_no_hidden_card_in_public_and_each_hand_only_to_its_owner() -> None:
    h, rec, presenter = await setup()
    await h.manager.update_chat(CHAT, lang="ar")
    await h.manager.update_player(ALICE.player_id, lang="en")
    snap = await started_table(h, ALICE, BOB, game="trix")
    final = await play_draining(h, presenter, snap.table_id)
    assert final.table.status == "finished"
    assert rec.leaks == []
    assert len(rec.at(CHAT, "edit")) > 100  # the table was really shown as the match went
    assert len(rec.public_cards) == 52  # every card was played in public, yet none shown early

    tid = snap.table_id
    en, ar = translator("en"), translator("ar")
    for person, t in ((ALICE, en), (BOB, ar)):
        dest = dm_dest(person.player_id)
        head = t.gettext("Your hand · {game} · table {table}", game=game_name("trix", t), table=tid)
        hands = [o for o in rec.at(dest) if o[3].text.startswith(head)]
        assert hands and hands[0][0] == "send" and all(o[0] == "edit" for o in hands[1:])
        assert len({o[2] for o in hands}) == 1  # one message, edited in place
        pings = [o for o in rec.at(dest, "send") if not o[3].text.startswith(head)]
        assert pings, "a 'your turn' ping is sent when it becomes the person's turn"
    # Hands go only to their owners: nothing private in the chat, nobody gets another's hand.
    for kind, dest, _mid, msg in rec.ops:
        if msg.text.startswith((en.gettext("Your hand · {game} · table {table}", game="x", table=1)[:9],
                                ar.gettext("Your hand · {game} · table {table}", game="x", table=1)[:6])):
            assert dest.startswith("dm:"), (kind, dest)
    # The public table is one message, edited in place, in Arabic, and its id is stored.
    record = await h.repo.get_table(tid)
    assert record is not None
    table_msg = record.message_ids[table_key(tid)]
    table_ops = [o[0] for o in rec.at(CHAT) if o[2] == table_msg]
    assert table_ops[0] == "send" and set(table_ops[1:]) == {"edit"}
    assert rec.messages[table_msg][1].text.startswith(ar.gettext(
        "{game} · table {table} · kingdom {kingdom} of 4 ({owner}) · deal {deal} of 20",
        game=game_name("trix", ar), table=tid, kingdom=4, owner="x", deal=20).split("(")[0])
    assert record.message_ids[hand_key(tid, ALICE.player_id)] == rec.at(dm_dest(ALICE.player_id))[0][2]
    over = ar.gettext("Match over · {game} · table {table}", game=game_name("trix", ar), table=tid)
    notices = [o[3].text for o in rec.at(CHAT, "send")]
    assert any(n.startswith(over) for n in notices)
    assert sum(1 for n in notices if n.startswith(over)) == 1


async def test_a_failed_private_message_is_told_in_public_once_and_nothing_is_stuck() -> None:
    h, rec, presenter = await setup()
    await h.manager.update_chat(CHAT, lang="en")
    rec.forbidden.add(dm_dest(BOB.player_id))
    snap = await started_table(h, ALICE, BOB, game="trix")
    final = await play_draining(h, presenter, snap.table_id)
    assert final.table.status == "finished"
    bob = await h.repo.get_player(BOB.player_id)
    assert bob is not None and bob.dm_ok is False
    expected = render_dm_failed("Bob", rec.start_link(), translator("en"))
    told = [o for o in rec.at(CHAT, "send") if o[3] == expected]
    assert len(told) == 1
    assert told[0][3].buttons[0][0].url == "https://t.me/majlis_bot"
    assert rec.at(dm_dest(BOB.player_id)) == []  # nothing was delivered, and it was not retried
    assert rec.at(dm_dest(ALICE.player_id), "edit")


async def test_hands_flow_again_once_the_person_opens_the_private_chat() -> None:
    h, rec, presenter = await setup()
    rec.forbidden.add(dm_dest(BOB.player_id))
    snap = await started_table(h, ALICE, BOB, game="tarneeb41")
    await presenter.drain()
    assert rec.at(dm_dest(BOB.player_id)) == []
    rec.forbidden.clear()
    await presenter.dm_restored(BOB.player_id)
    await presenter.drain()
    sent = rec.at(dm_dest(BOB.player_id), "send")
    assert len(sent) == 1
    assert "Your hand" in translator("en").gettext("Your hand") and sent[0][3].text
    bob = await h.repo.get_player(BOB.player_id)
    assert bob is not None and bob.dm_ok is True
    assert snap.table.status == "playing"


async def test_after_a_restart_the_stored_messages_are_edited_not_posted_again() -> None:
    repo = MemoryRepository()
    h, rec, presenter = await setup(repo)
    snap = await started_table(h, ALICE, BOB, game="tarneeb41")
    await presenter.drain()
    await h.manager.close()
    await presenter.close()
    record = await repo.get_table(snap.table_id)
    assert record is not None
    table_id_msg = record.message_ids[table_key(snap.table_id)]
    hand_msg = record.message_ids[hand_key(snap.table_id, ALICE.player_id)]

    h2 = make_manager(repo, clock=h.clock)
    rec2 = Recorder(track_public(h2), messages=dict(rec.messages), ids=itertools.count(1000))
    presenter2 = Presenter(h2.manager, {"tg": rec2}, clock=h2.clock)
    await h2.manager.start()
    await drain_advancing(presenter2, h2.clock)
    assert "restored" in h2.reasons()
    # A clean stop recorded what they show: nothing is edited to the same content.
    assert not [o for o in rec2.ops if o[2] in (table_id_msg, hand_msg)]
    assert all(o[0] == "edit" for o in rec2.ops if o[2] in (table_id_msg, hand_msg))
    # The restored table keeps going, through the same messages.
    rng = random.Random(3)
    snap2 = h2.manager.get(snap.table_id)
    assert snap2 is not None
    for _ in range(30):
        await h2.manager.run_due()
        snap2 = h2.manager.get(snap.table_id)
        assert snap2 is not None
        person = person_to_act(h2, snap2, [ALICE, BOB])
        assert person is not None
        snap2 = await play_one(h2, snap2, person, rng)
        await drain_advancing(presenter2, h2.clock)
    assert [o[:3] for o in rec2.at(CHAT)][:1] == [("edit", CHAT, table_id_msg)]
    assert ("edit", dm_dest(ALICE.player_id), hand_msg) in [o[:3] for o in rec2.ops]
    assert not [o for o in rec2.at(CHAT, "send") if o[2] == table_id_msg]
    assert snap2.table.version > snap.table.version + 30
    assert presenter2.hubs["tg"].outbox(CHAT).message_ids[table_key(snap.table_id)] == table_id_msg
    hand_box = presenter2.hubs["tg"].outbox(dm_dest(ALICE.player_id))
    assert hand_box.message_ids[hand_key(snap.table_id, ALICE.player_id)] == hand_msg
    assert len([o for o in rec2.ops if o[2] == table_id_msg]) > 10


async def test_the_lobby_is_the_table_message_until_the_match_begins() -> None:
    h, rec, presenter = await setup()
    await h.manager.update_chat(CHAT, lang="en")
    await h.manager.create(CHAT, ALICE, "tarneeb")
    await presenter.drain()
    first = rec.at(CHAT)
    assert [o[0] for o in first] == ["send"]
    assert "waiting for players" in first[0][3].text
    labels = [b.label for row in first[0][3].buttons for b in row]
    assert labels == ["Join", "Begin", "Leave"]
    await h.manager.join(CHAT, BOB)
    await h.manager.begin(CHAT, ALICE)
    await h.manager.run_due()
    await presenter.drain()
    edits = rec.at(CHAT, "edit")
    assert edits and edits[-1][2] == first[0][2]
    assert "waiting for players" not in edits[-1][3].text


def test_destination_helpers() -> None:
    assert platform_of("dm:tg:5") == "tg"
    assert platform_of("dc:77") == "dc"
    assert platform_of("tg:-100/7") == "tg"
    assert platform_of("cli:local") == "cli"
    assert table_of_key("table:12") == 12
    assert table_of_key("hand:12:tg:5") == 12
    assert table_of_key("left:tg:5") is None
    assert table_of_key(None) is None
    assert hand_player("hand:12:tg:5", 12) == "tg:5"
    assert hand_player("hand:120:tg:5", 12) is None
    assert hand_player("table:12", 12) is None


async def test_each_turn_notice_is_deleted_once_the_turn_passes() -> None:
    """A DM shows its hand and at most one "your turn" per table, not one more message each turn."""
    h, rec, presenter = await setup()
    await h.manager.update_chat(CHAT, lang="en")
    snap = await started_table(h, ALICE, BOB, game="trix")
    rng = random.Random(3)
    dests = [dm_dest(p.player_id) for p in (ALICE, BOB)]
    for _ in range(5000):
        await presenter.drain()
        for dest in dests:  # at every moment: the hand, and a notice only while it is that seat's turn
            live = [m for m, (d, _) in rec.messages.items() if d == dest and not rec.messages[m][1].text.startswith(
                ("Welcome", "Your hand"))]
            person = ALICE if dest == dests[0] else BOB
            assert len(live) == (1 if snap.to_act == snap.seat_of(person.player_id) else 0), (
                dest, [rec.messages[m][1].text for m in live])
        if snap.table.status != "playing":
            break
        person = person_to_act(h, snap, [ALICE, BOB])
        assert person is not None
        snap = await play_one(h, snap, person, rng)
    assert snap.table.status == "finished"
    for dest in dests:
        sent = [o[2] for o in rec.at(dest, "send") if o[3].text.startswith("Your turn")]
        deleted = {o[2] for o in rec.at(dest, "delete")}
        assert len(sent) > 20 and set(sent) <= deleted  # one per turn, each gone once the turn passed
        live = [msg.text for d, msg in rec.messages.values() if d == dest]
        assert len(live) == 1 and live[0].startswith("Your hand")  # what the DM holds after the match
    record = await h.repo.get_table(snap.table_id)
    assert record is not None and not [k for k in record.message_ids if "ping:" in k]  # not stored


async def test_a_turn_warning_reaches_the_seat_in_private() -> None:
    h, rec, presenter = await setup()
    await h.manager.update_chat(CHAT, lang="en", turn_seconds=60)
    snap = await started_table(h, ALICE, game="tarneeb41")
    assert snap.to_act == 0
    await presenter.drain()
    h.clock.advance(31)
    await h.manager.run_due()
    await presenter.drain()
    warnings = [o[3].text for o in rec.at(dm_dest(ALICE.player_id), "send") if "seconds left" in o[3].text]
    assert warnings == ["Alice, 29 seconds left, then a move is played for you."]
    live = sorted(msg.text for d, msg in rec.messages.values() if d == dm_dest(ALICE.player_id))
    # the warning replaced the ping
    assert len(live) == 2 and live[0] == warnings[0] and live[1].startswith("Your hand")
    assert not [o for o in rec.at(CHAT, "send") if "seconds left" in o[3].text]


async def test_a_clean_restart_edits_nothing_that_already_shows_the_state() -> None:
    """A clean stop records what each message shows; after the restart nothing is edited to the
    same content (Telegram's "message is not modified"), and the next real change is edited."""
    repo = MemoryRepository()
    h, rec, presenter = await setup(repo)
    snap = await started_table(h, ALICE, BOB, game="tarneeb41")
    await presenter.drain()
    await h.manager.close()
    await presenter.close()
    record = await repo.get_table(snap.table_id)
    assert record is not None
    shown = set(record.shown)
    assert shown == {table_key(snap.table_id), hand_key(snap.table_id, ALICE.player_id),
                     hand_key(snap.table_id, BOB.player_id)}

    h2 = make_manager(repo, clock=h.clock)
    rec2 = Recorder(track_public(h2), messages=dict(rec.messages), ids=itertools.count(1000))
    presenter2 = Presenter(h2.manager, {"tg": rec2}, clock=h2.clock)
    await h2.manager.start()
    await drain_advancing(presenter2, h2.clock)
    assert [o for o in rec2.ops if o[0] == "edit"] == []  # (a "your turn" is sent again after a restart)
    snap2 = h2.manager.get(snap.table_id)
    assert snap2 is not None
    person = person_to_act(h2, snap2, [ALICE, BOB])
    assert person is not None
    await play_one(h2, snap2, person, random.Random(1))
    await drain_advancing(presenter2, h2.clock)
    assert ("edit", CHAT, record.message_ids[table_key(snap.table_id)]) in [o[:3] for o in rec2.ops]


async def test_after_a_crash_the_restored_messages_are_edited_once() -> None:
    """Without a clean stop (nothing recorded, or recorded at another version) the restored
    messages are edited: the state they show is not known."""
    repo = MemoryRepository()
    h, rec, presenter = await setup(repo)
    snap = await started_table(h, ALICE, BOB, game="tarneeb41")
    await presenter.drain()
    await presenter.close()  # records what is shown ...
    person = person_to_act(h, h.manager.get(snap.table_id), [ALICE, BOB])  # type: ignore[arg-type]
    assert person is not None
    await play_one(h, h.manager.get(snap.table_id), person, random.Random(2))  # type: ignore[arg-type]
    await h.manager.close()  # ... then the table moves on and the process dies before showing it
    h2 = make_manager(repo, clock=h.clock)
    rec2 = Recorder(track_public(h2), messages=dict(rec.messages), ids=itertools.count(1000))
    presenter2 = Presenter(h2.manager, {"tg": rec2}, clock=h2.clock)
    await h2.manager.start()
    await drain_advancing(presenter2, h2.clock)
    record = await repo.get_table(snap.table_id)
    assert record is not None
    assert ("edit", CHAT, record.message_ids[table_key(snap.table_id)]) in [o[:3] for o in rec2.ops]


async def test_a_finished_tables_keys_and_caches_are_forgotten() -> None:
    h, _rec, presenter = await setup()
    snap = await started_table(h, ALICE, BOB, game="tarneeb41")
    await presenter.drain()
    final = await h.manager.stop(CHAT, ALICE)  # the table is over (stopped by its creator)
    await presenter.drain()
    assert final.table.status == "stopped"
    hub = presenter.hubs["tg"]
    tid = snap.table_id
    assert any(table_key(tid) in b.message_ids for b in hub.outboxes.values())  # kept a while
    h.clock.advance(hub.FORGET_AFTER + 1)
    hub.sweep()
    assert not [k for b in hub.outboxes.values() for k in b.message_ids if table_of_key(k) == tid]
    assert not [k for k in presenter._turn if k[0] == tid]  # (no per-table language cache: bot/core/prefs.py)
    h.clock.advance(120)
    hub.sweep()
    assert hub.outboxes == {}  # idle, holding nothing: evicted


async def test_a_board_in_the_persons_own_private_chat_sends_no_turn_notice() -> None:
    """A duplicate challenge's board is a table in the person's private chat: its message is there, so
    no "your turn" joins it (each would spend that chat's budget twice: sent, then deleted)."""
    h, rec, presenter = await setup()
    await h.manager.update_chat(CHAT, lang="en")
    service = Service(h.manager)

    async def admin() -> bool:
        return True

    await service.dispatch(StartChallenge("trix", 1, 1), Actor(ALICE, CHAT, admin))
    snap = await service.dispatch(PlayChallenge(), Actor(ALICE, CHAT))
    dm = dm_dest(ALICE.player_id)
    assert snap.table.chat_id == dm
    moves = 0
    for _ in range(500):
        await h.manager.run_due()
        await presenter.drain()
        now = h.manager.table_in_chat(dm)
        if now is None:
            break
        if now.to_act == 0:
            legal = h.manager.view(now.table_id, 0)["legal"]
            await service.dispatch(Act(now.table_id, now.table.version, legal[0]), Actor(ALICE, dm))
            moves += 1
        else:
            h.clock.advance(1.0)
    await presenter.drain()
    assert moves > 0 and h.manager.table_in_chat(dm) is None  # the board was played to its end
    assert rec.at(dm, "send") and not [o for o in rec.at(dm, "send") if o[3].text.startswith("Your turn")]
