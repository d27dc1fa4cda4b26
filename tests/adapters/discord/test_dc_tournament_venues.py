"""A tournament's matches in threads of its Discord channel, through the real discord.py and the fake
Discord (bot/core/venues.py, bot/adapters/discord/venues.py): round 1's two matches are called and
their players told in private (but the one who typed ``/majlis notify matches: False``); all press
Ready; each match's table opens at once in a thread of its own, named after the match, while the
channel keeps the tournament's message, which names each thread; the players are told where, with a
signed link to their seat on the web table; both matches are played through their tables' buttons and
both recorded (the tables' chats are the threads); the final is called. Without the right to create
threads the tournament plays in the channel, one match after another, and says so once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.adapters.web import service as web
from bot.app.config import web_config
from bot.core.clock import FakeClock
from bot.core.tournaments import people_of
from storage.tournaments import How, MatchStatus
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table, check_delivery
from tests.adapters.discord.test_dc_tournament import Run, plain
from tests.adapters.telegram.test_tg_tournament import wait_until
from tests.adapters.web.test_web_telegram import free_port

WEB_URL = "https://majlis.example"
NAMES = ("Alice", "Bob", "Carol", "Dan", "Erin", "Farid", "Ghada", "Hana")


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3", clock=FakeClock()).start()  # the tournament's clock
    yield b
    await b.stop()


async def opened(fake: FakeDiscord, bot: Bot, people: list[Member], table: Table, **options: object) -> Run:
    """The channel's knockout, made by Alice (Manage Server), everyone registered, started by her."""
    run = Run(fake, bot, table)
    assert bot.manager is not None
    await table.slash(people[0], "lang", language="en")
    await table.slash(people[0], "tournament", action="new", game="tarneeb41", start=30, checkin=10, review=0,
                      target=1, **options)
    await run.opened()
    o = run.o
    for m in people:
        await run.press(m, f"{o}register")
    await run.press(people[0], f"{o}start")  # before check-in opened: everyone registered plays
    return run


def dm_texts(fake: FakeDiscord, member: Member) -> list[str]:
    return [plain(m.content) for m in fake.dms(member.user_id)]


def pings(fake: FakeDiscord, member: Member) -> list[str]:
    """The member's private tournament pings (their hands come to the DM too)."""
    return [x for x in dm_texts(fake, member) if "Your match" in x or "The table of your match" in x]


@pytest.mark.slow  # two whole matches through discord.py: about 20 s
async def test_a_rounds_two_matches_are_played_at_once_in_two_threads_and_their_players_are_pinged(
        fake: FakeDiscord, bot: Bot) -> None:
    people = [Member(fake.add_member(name, manage_guild=name == "Alice"), name) for name in NAMES]
    hana = people[-1]
    by_id = {f"dc:{m.user_id}": m for m in people}
    table = Table(fake, bot, fake.channel_id, people)
    assert bot.manager is not None
    port = free_port()
    front = await web.attach(bot.manager, web_config(env={"MAJLIS_WEB_URL": WEB_URL, "MAJLIS_WEB_PORT": str(port)}))
    assert front is not None
    bot.manager.tournaments.seat_link = front.seat_link  # as the runner does with the web table
    try:
        ix = await table.slash(hana, "notify", matches=False)
        assert ix.ephemeral and "Your tournament matches, in private: off." in plain(table.text_of(ix))
        run = await opened(fake, bot, people, table)
        o = f"mj1:o:{run.tid}:-:"
        t = await run.stored()
        matches = [t.match(1, 0), t.match(1, 1)]
        assert all(m is not None and m.status == MatchStatus.CALLED for m in matches)

        # called: each player told in private, but Hana, who turned it off
        for m in people[:-1]:
            await fake.wait_until(lambda m=m: any("is called" in x for x in dm_texts(fake, m)), timeout=20)
            said = next(x for x in dm_texts(fake, m) if "is called" in x)
            assert "Press Ready on the tournament's message within 15 minutes." in said
            assert "/majlis notify matches: False" in said
        assert pings(fake, hana) == []

        for m in people:
            await run.press(m, f"{o}ready")
        for slot in (0, 1):
            await run.playing(1, slot)
        t = await run.stored()
        m0, m1 = t.match(1, 0), t.match(1, 1)
        assert m0 is not None and m1 is not None and m0.status == m1.status == MatchStatus.PLAYING

        # two threads of the channel, one a match, each its own chat with its live table, both at once
        assert len(fake.threads) == 2 and bot.manager.table_in_chat(f"dc:{fake.channel_id}") is None
        snaps = {}
        for thread, m in zip(fake.threads, (m0, m1), strict=True):
            channel = fake.channels[thread]
            assert (channel["type"], channel["parent_id"]) == (11, str(fake.channel_id))
            a, b = people_of(t, m)
            assert channel["name"] == f"Round 1 · {by_id[a[0]].name} & {by_id[a[1]].name} v " \
                                      f"{by_id[b[0]].name} & {by_id[b[1]].name}"
            snap = bot.manager.table_in_chat(f"dc:{thread}")
            assert snap is not None and snap.table_id == m.table_id and snap.table.status == "playing"
            snaps[thread] = snap
        # the tournament's message stays in the channel and names each match's thread
        names = [fake.channels[x]["name"] for x in fake.threads]
        await fake.wait_until(lambda: all(f"«{n}»" in plain(run.message().content) for n in names), timeout=20)
        assert run.message().channel_id == fake.channel_id

        # the table opened: each player told where, with their own seat on the web table
        for thread, m in zip(fake.threads, (m0, m1), strict=True):
            a, b = people_of(t, m)
            for seat, pid in zip((0, 2, 1, 3), (*a, *b), strict=True):
                member = by_id[pid]
                if member is hana:
                    continue
                told = await fake.wait_until(lambda member=member: next(
                    (x for x in fake.dms(member.user_id) if "is open" in x.content), None), timeout=20)
                assert f"«{fake.channels[thread]['name']}»" in plain(told.content)
                assert f"https://discord.com/channels/{fake.guild_id}/{thread}" in told.content
                [link] = [c for row in told.components for c in row.get("components", []) if c.get("url")]
                assert link["label"] == "Open table" and link["url"].startswith(f"{WEB_URL}/#k=")
                if seat == 3 and thread == fake.threads[0]:  # the link opens that seat of that table
                    async with aiohttp.ClientSession() as s, s.ws_connect(
                            f"ws://127.0.0.1:{port}/ws?k=" + link["url"].split("#k=")[1], origin=WEB_URL) as ws:
                        assert json.loads((await ws.receive(timeout=10)).data)["type"] == "hello"
                        state = json.loads((await ws.receive(timeout=10)).data)["state"]
                        assert state["me"] == 3
        assert pings(fake, hana) == []

        # both played through their tables' buttons, each in its thread; both recorded
        for thread, m in zip(fake.threads, (m0, m1), strict=True):
            play = Table(fake, bot, thread, people, seed=thread % 97)
            play.table_id = m.table_id
            await fake.wait_until(lambda play=play: any(c.startswith(f"mj1:h:{play.table_id}:")
                                                        for x in fake.channel_messages(play.channel_id)
                                                        for c in x.custom_ids()), timeout=20)
            await play.play_out()
            table.interactions += play.interactions
        await bot.manager.drain()
        await bot.manager.tournaments.settle()

        async def recorded() -> bool:
            t = await run.stored()
            return all((x := t.match(1, s)) is not None and x.status == MatchStatus.DONE for s in (0, 1))

        await wait_until(recorded)
        t = await run.stored()
        for thread, slot in zip(fake.threads, (0, 1), strict=True):
            m = t.match(1, slot)
            assert m is not None and m.how == How.PLAYED and m.table_id is not None
            record = await bot.manager.repo.get_table(m.table_id)
            assert record is not None and record.chat_id == f"dc:{thread}"
            result = await bot.manager.repo.table_results(m.table_id)
            assert result is not None
            assert m.winner == (m.a if any(r.won for r in result.results if r.seat in (0, 2)) else m.b)
        final = t.match(2, 0)
        assert final is not None and final.status == MatchStatus.CALLED
        for pid in (*people_of(t, final)[0], *people_of(t, final)[1]):
            member = by_id[pid]
            if member is not hana:
                await fake.wait_until(lambda member=member: sum(
                    "is called" in x for x in dm_texts(fake, member)) == 2, timeout=20)
        assert pings(fake, hana) == []
        await bot.drain([fake.channel_id, *fake.threads])
        check_delivery(fake, bot, [fake.channel_id, *fake.threads], table.interactions)
    finally:
        await web.detach(front)


@pytest.mark.slow  # a tournament through discord.py: about 5 s
async def test_without_the_right_to_create_threads_the_matches_are_played_in_the_channel_and_it_is_said_once(
        fake: FakeDiscord, bot: Bot) -> None:
    fake.no_threads.add(fake.channel_id)
    people = [Member(fake.add_member(name, manage_guild=name == "Alice"), name) for name in NAMES]
    table = Table(fake, bot, fake.channel_id, people)
    assert bot.manager is not None
    run = await opened(fake, bot, people, table)
    o = f"mj1:o:{run.tid}:-:"
    for m in people:
        await run.press(m, f"{o}ready")
    t = await run.playing(1, 0)
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None
    # one in the channel, the other waits for it; no thread
    assert (m0.status, m1.status) == (MatchStatus.PLAYING, MatchStatus.CALLED) and fake.threads == []
    snap = bot.manager.table_in_chat(f"dc:{fake.channel_id}")
    assert snap is not None and snap.table_id == m0.table_id
    assert [a.action for a in t.audit].count("venues_off") == 1
    said = "The bot may not open a thread or topic per match here"
    await fake.wait_until(lambda: plain(run.message().content).count(said) == 1, timeout=20)
    await bot.drain([fake.channel_id])
    check_delivery(fake, bot, [fake.channel_id], table.interactions)
