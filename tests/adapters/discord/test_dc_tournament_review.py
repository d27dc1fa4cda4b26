"""A tournament match's review window in a Discord channel through the real discord.py and the fake
Discord: the final is played through the table's buttons in its thread; its result is in review (the
message says until when, with a Flag button); a player of the match flags it with ``/majlis tournament
action:flag`` typed in the match's thread (the thread's tournament is its channel's);
a member without Manage Server may not decide; the organiser orders it replayed with
``action:decide match:1-1 decision:replay`` and it is called again with Ready; the log, asked for with
``action:audit``, is told to the asker alone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.tournaments import people_of
from storage.tournaments import MatchStatus, TourneyStatus
from tests.adapters.discord.fake_discord import FakeDiscord
from tests.adapters.discord.harness import Bot, Member, Table
from tests.adapters.discord.test_dc_tournament import Run, plain
from tests.adapters.telegram.test_tg_tournament import wait_until


@pytest.fixture
async def bot(patched: FakeDiscord, tmp_path: Path) -> AsyncIterator[Bot]:
    b = await Bot(patched, tmp_path / "majlis.sqlite3", clock=FakeClock()).start()  # the tournament's clock
    yield b
    await b.stop()


@pytest.mark.slow  # a whole match through discord.py: about 10 s
async def test_a_flagged_final_is_ordered_replayed_by_the_organiser(fake: FakeDiscord, bot: Bot) -> None:
    alice, _, _, dan = people = [
        Member(fake.add_member(name, manage_guild=name == "Alice"), name) for name in ("Alice", "Bob", "Carol", "Dan")]
    table = Table(fake, bot, fake.channel_id, people)
    run = Run(fake, bot, table)
    assert bot.manager is not None and isinstance(bot.clock, FakeClock)
    tours = bot.manager.tournaments
    await table.slash(alice, "lang", language="en")
    await table.slash(alice, "tournament", action="new", game="tarneeb41", start=10, checkin=5, round=5, target=1,
                      review=15)
    tour, _ = await run.opened()
    assert tour.review_minutes == 15
    o = run.o
    for m in people:
        await run.press(m, f"{o}register")
    await run.press(alice, f"{o}start")
    t = await run.stored()
    final = t.match(1, 0)
    assert t.status == TourneyStatus.RUNNING and final is not None
    a, b = people_of(t, final)
    member = {f"dc:{m.user_id}": m for m in people}
    for pid in (*a, *b):
        await run.press(member[pid], f"{o}ready")
    final = (await run.playing(1, 0)).match(1, 0)
    assert final is not None and final.table_id is not None
    [thread] = fake.threads
    table.table_id, table.channel_id = final.table_id, thread  # played in its thread
    await fake.wait_until(lambda: any(c.startswith(f"mj1:h:{final.table_id}:")
                                      for m in fake.channel_messages(thread) for c in m.custom_ids()),
                          timeout=20)
    await table.play_out()
    await bot.manager.drain()
    await tours.settle()

    async def in_review() -> bool:
        m = (await run.stored()).match(1, 0)
        return m is not None and m.status == MatchStatus.REVIEW

    await wait_until(in_review)
    await fake.wait_until(lambda: f"{o}flag" in run.message().custom_ids(), timeout=20)
    assert "result in review until" in plain(run.message().content)

    # a player flags by the command; a member who is not the organiser may not decide
    ix = await table.slash(member[a[0]], "tournament", action="flag", reason="a card was misplayed")
    assert ix.ephemeral and "Flagged" in table.text_of(ix)
    m = (await run.stored()).match(1, 0)
    assert m is not None and (m.flagged_by, m.flag_reason) == (a[0], "a card was misplayed")
    table.channel_id = fake.channel_id  # the rest in the tournament's channel
    decider = next(x for x in people if x is not alice)
    before = await run.stored()
    ix = await table.slash(decider, "tournament", action="decide", match="1-1", decision="uphold")
    assert ix.ephemeral and table.text_of(ix) == "Only the organiser or an admin may do that."
    assert await run.stored() == before

    # the organiser orders it replayed: called again, with Ready on the message
    ix = await table.slash(alice, "tournament", action="decide", match="1-1", decision="replay")
    assert ix.ephemeral and "Decided" in table.text_of(ix)
    t = await run.stored()
    m = t.match(1, 0)
    assert m is not None and (m.status, m.winner, m.table_id, m.ready) == (MatchStatus.CALLED, None, None, ())
    assert t.status == TourneyStatus.RUNNING
    assert (t.audit[-1].action, t.audit[-1].actor) == ("replay", f"dc:{alice.user_id}")
    await fake.wait_until(lambda: f"{o}ready" in run.message().custom_ids(), timeout=20)
    ix = await table.slash(dan, "tournament", action="audit")
    told = plain(table.text_of(ix))
    assert ix.ephemeral and "flagged match 1-1: a card was misplayed" in told and "Alice: match 1-1: called again" \
        in told
