"""A pair knockout of Tarneeb 41 in a Telegram group through the real python-telegram-bot and the fake
Bot API, on the manager's fake clock, in English (drawn pairs) and Arabic (fixed pairs): an admin
opens it with ``/tournament new``; people register, check in and press Ready on the tournament's one
message; a no-show is dropped when the organiser starts; round 1's two matches are played through the
table's buttons one after another (a chat has one live table); the final is decided at its deadline
by the forfeit rule; the champion is shown. ``/tournament`` posts the message anew (the old one goes);
from then on it is one message edited in place, within the group's 20 a minute; a stranger's press
and forged payloads are refused and change nothing.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.core.tournaments import champion, people_of
from storage.tournaments import How, MatchStatus, Tournament, TourneyStatus
from tests.adapters.telegram.fake_server import Answer, FakeMessage
from tests.adapters.telegram.harness import CHAT, GROUP, Bed, Player, max_in_window, play_out

MINUTE = 60.0
LATENCY_ALLOWANCE = 5.0  # scaled seconds of request latency (see test_tg_match.assert_group_budget)
#: A short Tarneeb 41, as in tests/core/test_tournaments.py (random bids rarely reach the usual 11).
SHORT = "target=1 min_total=4 partner_rule=non_negative"
NAMES = {
    "en": ["Organiser", "Ali", "Huda", "Omar", "Sara", "Zaid", "Rana", "Karim", "Maya", "Nour", "Hadi"],
    "ar": ["المنظّم", "علي", "هدى", "عمر", "سارة", "زيد", "رنا", "كريم", "مايا", "نور", "هادي"],
}
WORDS = {
    "en": {"title": "tournament: pair knockout", "register": "Register", "checkin": "Check in",
           "start": "Start now (organiser)", "ready": "Ready", "partner": "Partner {name}",
           "playing": "playing now", "champions": "Champions:", "forfeit": "by forfeit", "final": "The final",
           "round1": "Round 1:", "next": "all ready, they play when the table is free",
           "organiser_only": "Only the organiser or an admin may do that.",
           "no_match": "You have no match waiting for you in this round."},
    "ar": {"title": "خروج المغلوب للأزواج", "register": "سجّلني", "checkin": "أكّد حضورك",
           "start": "ابدأ الآن (للمنظّم)", "ready": "جاهز", "partner": "شارك {name}",
           "playing": "يلعبان الآن", "champions": "الأبطال:", "forfeit": "لغياب الخصم", "final": "النهائي",
           "round1": "الدور 1:", "next": "الجميع جاهزون، ويلعبون حين تفرغ الطاولة",
           "organiser_only": "هذا للمنظّم أو لمشرف المجموعة فقط.",
           "no_match": "ليست لديك مباراة تنتظرك في هذا الدور."},
}
_MARKS = str.maketrans(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F]))


def plain(text: str) -> str:
    """Text without the isolates and marks of right-to-left text."""
    return text.translate(_MARKS)


class Run:
    """The group, its people and its tournament, driven through Telegram only."""

    def __init__(self, bed: Bed, lang: str) -> None:
        self.bed = bed
        self.lang = lang
        self.words = WORDS[lang]
        people = bed.people(NAMES[lang], lang)
        self.organiser, self.players = people[0], people[1:]
        self.stranger = bed.people(["Stranger"], lang, first_id=900)[0]
        self.tid = 0
        self.message_id = 0

    async def in_group(self) -> None:
        """The group, with the organiser as its admin, speaking the run's language."""
        self.bed.tg.add_group(GROUP, admins=[self.organiser.user_id])
        await self.lang_set()

    async def lang_set(self) -> None:
        """The organiser sets the group's language to the run's."""
        await self.bed.tg.say(self.organiser.user, GROUP, f"/lang {self.lang}")
        await self.bed.tg.wait_for(lambda: self.bed.tg.bot_messages(GROUP))

    async def opens(self, command: str) -> FakeMessage:
        """The organiser sends ``command`` (a ``/tournament new ...``) in the group: the tournament's
        message, once it is posted (the tournament and the message are noted)."""
        tg = self.bed.tg
        await tg.say(self.organiser.user, GROUP, command)
        first = await tg.wait_for(lambda: tg.last_bot_message(
            GROUP, lambda m: any(str(b.get("callback_data", "")).startswith("mj1:o:") for b in m.buttons)))
        self.tid = int(first.buttons[0]["callback_data"].split(":")[2])
        self.message_id = first.message_id
        return first

    def by_id(self, player_id: str) -> Player:
        return next(p for p in self.players if f"tg:{p.user_id}" == player_id)

    async def stored(self) -> Tournament:
        t = await self.bed.manager.repo.get_tournament(self.tid)
        assert t is not None
        return t

    def message(self) -> FakeMessage:
        """The tournament's one message in the group, as it is now."""
        return self.bed.tg.messages[GROUP][self.message_id]

    async def shows(self, label: str) -> FakeMessage:
        """The message once it shows a button ``label`` (edits are paced by the group's budget)."""
        return await self.bed.tg.wait_for(lambda: self.message() if any(
            plain(b.get("text", "")) == label for b in self.message().buttons) else None, timeout=30)

    async def says(self, words: str) -> FakeMessage:
        return await self.bed.tg.wait_for(lambda: self.message() if words in plain(self.message().text) else None,
                                          timeout=30)

    async def press(self, who: Player, label: str) -> Answer:
        """``who`` presses the button ``label`` of the tournament's message."""
        msg = await self.shows(label)
        data = next(b["callback_data"] for b in msg.buttons if plain(b.get("text", "")) == label)
        return await self.bed.tg.press(who.user, msg, data)

    async def accepted(self, who: Player, label: str) -> None:
        answer = await self.press(who, label)
        assert not answer.show_alert, answer.text

    async def refused(self, who: Player, data: str, expect: str | None = None) -> None:
        """A press of ``data`` on the tournament's message is refused with an alert and changes nothing."""
        before = await self.stored()
        answer = await self.bed.tg.press(who.user, self.message(), data)
        assert answer.show_alert and answer.text, data
        if expect is not None:
            assert plain(answer.text) == expect
        assert await self.stored() == before


async def wait_until(check: object, timeout: float = 30.0) -> None:
    """Poll an async predicate (storage is async, the fake's ``wait_for`` is not)."""
    end = time.monotonic() + timeout
    while not await check():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.02)


@pytest.mark.slow  # two whole matches through the real library: 6 to 8 s each
@pytest.mark.parametrize(("lang", "pairing"), [("en", "draw"), ("ar", "fixed")])
async def test_a_pair_knockout_runs_through_its_message_from_registration_to_the_champion(
        bed: Bed, lang: str, pairing: str) -> None:
    tg, clock = bed.tg, bed.clock
    run = Run(bed, lang)
    w = run.words
    await run.in_group()
    first = await run.opens(f"/tournament new tarneeb41 {pairing} start=10 checkin=5 round=5 review=0 {SHORT}")
    assert w["title"] in plain(first.text)
    await tg.say(run.players[0].user, GROUP, "/tournament")  # posted anew below the talk: the first one goes
    again = await tg.wait_for(lambda: tg.last_bot_message(
        GROUP, lambda m: m.message_id != first.message_id and any(
            str(b.get("callback_data", "")).startswith("mj1:o:") for b in m.buttons)))
    await tg.wait_for(lambda: first.deleted)
    run.message_id = again.message_id
    t = await run.stored()
    assert (t.status, t.pairing, t.options["target"]) == (TourneyStatus.REGISTRATION, pairing, 1)

    # registration by buttons: ten people (the tenth will not check in)
    if pairing == "draw":
        for p in run.players:
            await run.accepted(p, w["register"])
    else:  # a person opens a pair, their partner presses "Partner <name>"
        for opener, partner in zip(run.players[::2], run.players[1::2], strict=True):
            await run.accepted(opener, w["register"])
            await run.accepted(partner, w["partner"].format(name=opener.user.first_name))
    t = await run.stored()
    assert len(t.players) == 10
    if pairing == "fixed":
        assert [len(e.players) for e in t.entries] == [2] * 5

    # refused presses change nothing: a stranger starting it, forged and foreign payloads
    await run.refused(run.stranger, f"mj1:o:{run.tid}:-:start", w["organiser_only"])
    await run.refused(run.stranger, f"mj1:o:{run.tid}:-:champion")  # not a verb of the codec
    await run.refused(run.stranger, f"mj1:o:{run.tid}:-:ready 1")  # only register takes a pair
    await run.refused(run.stranger, f"mj1:o:{run.tid + 7}:-:register")  # no such tournament here
    await run.refused(run.players[0], f"mj1:o:{run.tid}:-:register")  # registered already
    await run.refused(run.players[0], f"mj1:o:{run.tid}:-:checkin")  # check-in has not opened

    # check-in opens on the clock; everyone but the no-show checks in; the organiser starts early
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    assert (await run.stored()).status == TourneyStatus.CHECKIN
    no_show = run.players[-1]
    for p in run.players[:-1]:
        await run.accepted(p, w["checkin"])
    await run.refused(run.players[0], f"mj1:o:{run.tid}:-:start", w["organiser_only"])
    await run.accepted(run.organiser, w["start"])
    t = await run.stored()
    assert t.status == TourneyStatus.RUNNING and len(t.entries) == 4
    playing = {pid for e in t.entries for pid in e.players}
    assert f"tg:{no_show.user_id}" not in playing and len(playing) == 8
    assert "dropped" in [a.action for a in t.audit]
    m0, m1 = t.match(1, 0), t.match(1, 1)
    assert m0 is not None and m1 is not None and (m0.status, m1.status) == (MatchStatus.CALLED,) * 2
    await run.refused(run.stranger, f"mj1:o:{run.tid}:-:ready", w["no_match"])

    # round 1: all eight press Ready; the first match's table opens, the second waits for the group
    for m in (m0, m1):
        a, b = people_of(t, m)
        for pid in (*a, *b):
            await run.accepted(run.by_id(pid), w["ready"])
    t = await run.stored()
    first_match, second_match = t.match(1, 0), t.match(1, 1)
    assert first_match is not None and second_match is not None
    assert first_match.status == MatchStatus.PLAYING and second_match.status == MatchStatus.CALLED
    assert len(second_match.ready) == 4
    await run.says(w["next"])  # the second match is next at the table
    rng = random.Random(5)
    for slot in (0, 1):
        t = await run.stored()
        m = t.match(1, slot)
        assert m is not None and m.status == MatchStatus.PLAYING and m.table_id is not None
        snap = bed.manager.table_in_chat(CHAT)
        assert snap is not None and snap.table_id == m.table_id  # the one live table of the group
        a, b = people_of(t, m)
        assert [s.player_id for s in snap.table.seats] == [a[0], b[0], a[1], b[1]]  # a pair sits as partners
        await run.says(w["playing"])
        tally = await play_out(bed, m.table_id, [run.by_id(pid) for pid in (*a, *b)], rng)
        assert tally.get("ok", 0) > 10
        await bed.manager.drain()
        await bed.manager.tournaments.settle()

        async def decided(slot: int = slot) -> bool:
            done = (await run.stored()).match(1, slot)
            return done is not None and done.status == MatchStatus.DONE

        await wait_until(decided)
    t = await run.stored()
    for slot in (0, 1):
        m = t.match(1, slot)
        assert m is not None and m.how == How.PLAYED
        result = await bed.manager.repo.table_results(m.table_id or 0)
        assert result is not None
        won_a = any(r.won for r in result.results if r.seat in (0, 2))
        assert m.winner == (m.a if won_a else m.b)
    tables = [m.table_id for m in t.matches if m.round == 1]
    assert len(set(tables)) == 2

    # the final: one pair comes whole, one person of the other pair comes; the deadline decides it
    final = t.match(2, 0)
    assert final is not None and final.status == MatchStatus.CALLED
    a, b = people_of(t, final)
    lines = plain((await run.says(w["final"])).text).split("\n")  # round 1 played, then the final under its heading
    assert lines.index(w["round1"]) < lines.index(w["final"]) < len(lines) - 1
    assert all(n in lines[-1] for n in (run.by_id(a[0]).user.first_name, run.by_id(b[0]).user.first_name))
    for pid in (*a, b[0]):
        await run.accepted(run.by_id(pid), w["ready"])
    clock.advance(5 * MINUTE)
    await bed.manager.tournaments.tick()
    t = await run.stored()
    final = t.match(2, 0)
    assert final is not None and (final.winner, final.how) == (final.a, How.FORFEIT)
    assert t.status == TourneyStatus.FINISHED and champion(t) == t.entry(final.a) and t.next_at is None
    assert bed.manager.table_in_chat(CHAT) is None  # a forfeit opens no table
    names = [run.by_id(pid).user.first_name for pid in a]
    shown = plain((await run.says(w["champions"])).text)
    assert all(n in shown for n in names) and w["forfeit"] in shown
    assert run.message().buttons == []  # nothing left to press
    await run.refused(run.players[0], f"mj1:o:{run.tid}:-:ready")
    await bed.drain()

    # the one message, edited in place, within the group's budget
    ops = [op for op in tg.ops[GROUP] if op.kind in ("send", "edit") and w["title"] in plain(op.text)
           and op.message_id != first.message_id]  # the one message since it was posted anew
    assert {op.message_id for op in ops} == {run.message_id}
    assert [op.kind for op in ops].count("send") == 1 and len(ops) >= 5  # changes between two edits merge
    assert w["champions"] in plain(ops[-1].text) and ops[-1].markup is None
    assert max_in_window(bed.sent_at[CHAT], 60.0) <= 20
    assert tg.max_ops_in_window(GROUP, 60.0 - LATENCY_ALLOWANCE) <= 20
    assert bed.checker.violations == [], [(v.dest, v.card, v.text[:60]) for v in bed.checker.violations]
