"""A pair knockout in a Discord channel through the real discord.py and the fake Discord: a member with
Manage Server opens it with ``/majlis tournament action:new``; people register and check in on the
tournament's message; a stranger's Start and a forged button are refused to them alone and change
nothing; the organiser starts it; the final's four press Ready, its table opens in a thread of the
channel (named after the match) and is played through the table's buttons; the champion is shown.
``/majlis tournament`` posts the message anew (the old one goes); from then on it is one message, edited
in place; every interaction is answered in time and the channel's budget holds. A Swiss is opened with
its rounds (``format`` and ``rounds``), and rounds for a knockout are refused."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.tournaments import champion, people_of
from storage.tournaments import How, MatchStatus, Tournament, TourneyStatus
from tests.adapters.discord.fake_discord import FakeDiscord, Interaction, Message
from tests.adapters.discord.harness import Bot, Member, Table, check_delivery
from tests.adapters.telegram.test_tg_tournament import wait_until

ARABIC = re.compile(r"[\u0600-\u06ff]")
WORDS = {
    "en": {"title": "tournament: pair knockout", "checkin": "Check in", "ready": "Ready",
           "champions": "Champions:", "done": "Done: the tournament's message", "none": "There is no tournament here",
           "organiser_only": "Only the organiser or an admin may do that."},
    "ar": {"title": "خروج المغلوب للأزواج", "checkin": "أكّد حضورك", "ready": "جاهز", "champions": "الأبطال:",
           "done": None, "none": None, "organiser_only": "هذا للمنظّم أو لمشرف المجموعة فقط."},
}
_MARKS = str.maketrans(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F]))


def plain(text: str) -> str:
    return text.translate(_MARKS)


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3", clock=FakeClock()).start()  # the tournament's clock
    yield b
    await b.stop()


class Run:
    """The channel's tournament, driven through slash commands and its message's buttons."""

    def __init__(self, fake: FakeDiscord, bot: Bot, table: Table) -> None:
        self.fake, self.bot, self.table = fake, bot, table
        self.tid = 0
        self.message_id = 0

    async def stored(self) -> Tournament:
        assert self.bot.manager is not None
        t = await self.bot.manager.repo.get_tournament(self.tid)
        assert t is not None
        return t

    async def playing(self, round_: int, slot: int, timeout: float = 20.0) -> Tournament:
        """The tournament once match ``round_``-``slot`` is being played (its table opened)."""
        until = time.monotonic() + timeout
        while True:
            t = await self.stored()
            m = t.match(round_, slot)
            if (m is not None and m.status == MatchStatus.PLAYING) or time.monotonic() > until:
                return t
            await asyncio.sleep(0.02)

    def message(self) -> Message:
        return self.fake.messages[self.message_id]

    async def opened(self) -> tuple[Tournament, Message]:
        """The channel's tournament just opened, and its message once posted (both noted)."""
        assert self.bot.manager is not None
        tour = await self.bot.manager.repo.chat_tournament(f"dc:{self.fake.channel_id}")
        assert tour is not None
        self.tid = tour.tournament_id
        msg: Message = await self.fake.wait_until(lambda: next(
            (m for m in self.fake.channel_messages(self.fake.channel_id) if f"{self.o}register" in m.custom_ids()),
            None))
        self.message_id = msg.id
        return tour, msg

    @property
    def o(self) -> str:
        """The custom ids' prefix of the tournament's buttons."""
        return f"mj1:o:{self.tid}:-:"

    async def press(self, member: Member, custom_id: str) -> Interaction:
        """``member`` presses ``custom_id`` once the tournament's message shows it (its edits are paced); it is
        accepted (no refusal told) and changes the tournament."""
        await self.fake.wait_until(lambda: custom_id in self.message().custom_ids(), timeout=20)
        before = (await self.stored()).rev
        ix = await self.table.click(member, self.message_id, custom_id)
        end = time.monotonic() + 10  # acknowledged first, then applied: wait for the change
        while (await self.stored()).rev == before:
            assert time.monotonic() < end and not ix.followups, self.table.text_of(ix)
            await asyncio.sleep(0.02)
        return ix

    async def refused(self, member: Member, custom_id: str, expect: str | None = None) -> None:
        """A press of ``custom_id`` on the message is told to ``member`` alone and changes nothing."""
        before = await self.stored()
        ix = await self.table.click(member, self.message_id, custom_id)
        # a press the codec refuses is answered in its own (ephemeral) response, any other after a silent ack
        await self.fake.wait_until(lambda: ix.followups or (ix.ephemeral and ix.edits), timeout=10)
        told = self.fake.messages[ix.followups[-1] if ix.followups else ix.original_id or 0]
        assert told.only_for == member.user_id and told.content
        if expect is not None:
            assert plain(told.content) == expect
        assert await self.stored() == before


@pytest.mark.slow  # a whole match through discord.py: about 10 s
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_pair_knockout_is_opened_run_and_won_in_a_channel(fake: FakeDiscord, bot: Bot, lang: str) -> None:
    w = WORDS[lang]
    alice, bob, carol, dan = people = [
        Member(fake.add_member(name, manage_guild=name == "Alice"), name) for name in ("Alice", "Bob", "Carol", "Dan")]
    erin = Member(fake.add_member("Erin"), "Erin")
    table = Table(fake, bot, fake.channel_id, people)
    run = Run(fake, bot, table)
    assert bot.manager is not None
    tours = bot.manager.tournaments
    await table.slash(alice, "lang", language=lang)
    ix = await table.slash(bob, "tournament", action="register")
    if w["none"]:
        assert w["none"] in table.text_of(ix) and "/majlis tournament action:new" in table.text_of(ix)
    ix = await table.slash(bob, "tournament", action="new", game="tarneeb41")
    assert ix.ephemeral and table.text_of(ix)  # Bob may not manage the server: told so, alone
    assert await bot.manager.repo.chat_tournament(f"dc:{fake.channel_id}") is None

    # Alice opens it; three register by the button, Dan by the command; check-in opens on the clock
    ix = await table.slash(alice, "tournament", action="new", game="tarneeb41", start=10, checkin=5,
                           round=5, target=1, review=0)
    tour, first = await run.opened()
    assert tour.options == {"target": 1} and tour.round_minutes == 5, table.text_of(ix)
    if w["done"]:
        assert w["done"] in table.text_of(ix)
    o = run.o
    assert w["title"] in plain(first.content)
    await table.slash(bob, "tournament")  # posted anew below the talk: the first one goes
    again: Message = await fake.wait_until(lambda: next(
        (m for m in fake.channel_messages(fake.channel_id) if f"{o}register" in m.custom_ids() and m.id != first.id),
        None))
    await fake.wait_until(lambda: fake.messages[first.id].deleted)
    run.message_id = again.id
    for m in (alice, bob, carol):
        await run.press(m, f"{o}register")
    ix = await table.slash(dan, "tournament", action="register")
    assert ix.ephemeral and len((await run.stored()).players) == 4
    await run.refused(dan, f"{o}checkin")  # not yet
    assert isinstance(bot.clock, FakeClock)
    bot.clock.advance(5 * 60)
    await tours.tick()
    assert (await run.stored()).status == TourneyStatus.CHECKIN
    await fake.wait_until(lambda: w["checkin"] in run.message().labels(), timeout=20)
    for m in people:
        await run.press(m, f"{o}checkin")
    assert all(p.checked_in for p in (await run.stored()).players)

    await run.refused(erin, f"{o}start", w["organiser_only"])
    await run.refused(erin, f"mj1:o:{run.tid}:-:dance")  # not a verb of the codec
    await run.refused(erin, f"mj1:o:{run.tid + 5}:-:register")  # no such tournament in this channel
    await run.refused(alice, f"{o}register")  # registered already

    await run.press(alice, f"{o}start")
    t = await run.stored()
    assert t.status == TourneyStatus.RUNNING and len(t.entries) == 2
    final = t.match(1, 0)
    assert final is not None and final.status == MatchStatus.CALLED
    a, b = people_of(t, final)
    member = {f"dc:{m.user_id}": m for m in people}
    for pid in (*a, *b):
        await run.press(member[pid], f"{o}ready")
    t = await run.playing(1, 0)  # its thread is started, then its table opened there
    final = t.match(1, 0)
    assert final is not None and final.status == MatchStatus.PLAYING and final.table_id is not None
    assert bot.manager.table_in_chat(f"dc:{fake.channel_id}") is None  # not in the channel: in its thread
    [thread] = fake.threads
    assert fake.channels[thread]["parent_id"] == str(fake.channel_id) and fake.channels[thread]["type"] == 11
    snap = bot.manager.table_in_chat(f"dc:{thread}")
    assert snap is not None and snap.table_id == final.table_id
    assert [s.player_id for s in snap.table.seats] == [a[0], b[0], a[1], b[1]]  # each pair sits as partners

    table.table_id, table.channel_id = final.table_id, thread  # played in the thread
    await fake.wait_until(lambda: any(c.startswith(f"mj1:h:{final.table_id}:")
                                      for m in fake.channel_messages(thread) for c in m.custom_ids()),
                          timeout=20)
    await table.play_out()
    table.channel_id = fake.channel_id
    assert table.status() == "finished"
    await bot.manager.drain()
    await tours.settle()

    async def finished() -> bool:  # the table's end is recorded by a task of its own (under load: later)
        return (await run.stored()).status == TourneyStatus.FINISHED

    await wait_until(finished)
    t = await run.stored()
    done = t.match(1, 0)
    assert t.status == TourneyStatus.FINISHED and done is not None and done.how == How.PLAYED
    result = await bot.manager.repo.table_results(final.table_id)
    assert result is not None
    assert champion(t) == t.entry(final.a if any(r.won for r in result.results if r.seat in (0, 2)) else final.b)
    await fake.wait_until(lambda: w["champions"] in plain(run.message().content), timeout=20)
    assert bool(ARABIC.search(run.message().content)) == (lang == "ar")
    assert run.message().custom_ids() == []
    ix = await table.slash(erin, "tournament")  # over: where it ended, to the asker alone (nothing posted)
    assert ix.ephemeral and w["champions"] in plain(table.text_of(ix))
    await bot.drain([fake.channel_id])

    # the one message (since it was posted anew), edited in place
    shown = [s for s in fake.public() if w["title"] in plain(s.content) and s.message_id != first.id]
    assert {s.message_id for s in shown} == {run.message_id}
    assert [s.kind for s in shown].count("message") == 1 and len(shown) >= 4
    check_delivery(fake, bot, [fake.channel_id, thread], table.interactions)


async def test_a_swiss_is_opened_with_its_rounds_and_rounds_for_a_knockout_are_refused(
        fake: FakeDiscord, bot: Bot) -> None:
    alice = Member(fake.add_member("Alice", manage_guild=True), "Alice")
    table = Table(fake, bot, fake.channel_id, [alice])
    assert bot.manager is not None
    ix = await table.slash(alice, "tournament", action="new", game="tarneeb41", format="knockout", rounds=3)
    assert ix.ephemeral and "rounds= is not for a knockout" in plain(table.text_of(ix))
    assert await bot.manager.repo.chat_tournament(f"dc:{fake.channel_id}") is None
    await table.slash(alice, "tournament", action="new", game="tarneeb41", format="swiss", rounds=2,
                      pairing="fixed")
    tour, shown = await Run(fake, bot, table).opened()
    assert (tour.format, tour.pairing) == ("swiss:2", "fixed")
    assert "النظام السويسري للأزواج، أزواج ثابتة" in plain(shown.content)  # the channel speaks Arabic by default


async def test_a_trix_tournament_in_pools_is_opened_with_game_trix_and_people_register_alone(
        fake: FakeDiscord, bot: Bot) -> None:
    members = [Member(fake.add_member(n, manage_guild=(i == 0)), n) for i, n in enumerate(
        ["Alice", "Bilal", "Carla", "Dina", "Emad"])]
    table = Table(fake, bot, fake.channel_id, members)
    assert bot.manager is not None
    alice = members[0]
    await table.slash(alice, "tournament", action="new", game="trix", format="pools", rounds=2, ai=True)
    tour, shown = await Run(fake, bot, table).opened()
    assert (tour.game, tour.format, tour.ai_allowed) == ("trix", "pools:2", True)
    assert "مجموعات من أربعة، كل لاعب لنفسه" in plain(shown.content)  # the channel speaks Arabic by default
    for m in members[1:]:  # alone: no pair to name
        await table.slash(m, "tournament", action="register")
    await table.slash(alice, "tournament", action="start")
    tour = await bot.manager.repo.chat_tournament(f"dc:{fake.channel_id}")
    assert tour is not None and tour.status == TourneyStatus.RUNNING
    assert [len(people_of(tour, m)[0]) for m in tour.matches if m.round == 1] == [4]  # four people, one pool
    ix = await table.slash(alice, "tournament", action="decide", match="1-1", decision="replay")
    said = plain(table.text_of(ix))  # in the member's language
    assert "has no result to decide" in said or "لا نتيجة لهذه المباراة يُقرَّر فيها" in said  # called: not played
    ix = await table.slash(alice, "tournament", action="decide", match="1-1", decision="winner", pair=1)
    said = plain(table.text_of(ix))
    assert "A trix pool has no winner to set" in said or "ليس لمجموعة التركس فائز يُعيَّن" in said
