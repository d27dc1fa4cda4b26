"""Seasons in a Telegram group through the real python-telegram-bot and the fake Bot API: a month of
matches on the fake clock across a season boundary, /season with one's own rank, a provisional
player, a leaver's loss, AI seats left out, the season's end posted once, and the champions, in
English and Arabic."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from storage.records import FINISHED, ActionRecord, MatchResult, PlayerRecord, PlayerResult, Seat, TableRecord
from tests.adapters.telegram.harness import CHAT, GROUP, Bed

FEB_1 = datetime(2027, 2, 1, tzinfo=UTC).timestamp()
DAY = 86400.0
NAMES = {"en": ["Ali", "Huda", "Omar", "Sara", "Zaid"], "ar": ["علي", "هدى", "عمر", "سارة", "زيد"]}
WORDS = {
    "en": {"season": "Season 1", "rank": "Your rank: 2 of 4", "provisional": "You are provisional: 4 more matches",
           "over": "Season 1 is over.", "champion": "Champion", "champions": "Champions", "left": "left"},
    "ar": {"season": "الموسم 1", "rank": "ترتيبك: 2 من 4", "provisional": "أنت مؤقت: بقيت لك 4 مباريات",
           "over": "انتهى الموسم 1.", "champion": "البطل", "champions": "الأبطال", "left": "مؤقت"},
}


async def record(bed: Bed, people: tuple[str, str, str, str], winners: set[int], started: float, finished: float,
                 *, left: set[int] = frozenset()) -> int:  # type: ignore[assignment]
    """A finished Tarneeb match of the group, stored as the bot stores one (its first action at ``started``)."""
    repo = bed.manager.repo
    seats = tuple(Seat(player_id=p, name=p, is_ai=p.startswith("ai:")) for p in people)
    table = TableRecord(table_id=0, chat_id=CHAT, game="tarneeb", options={}, seed=1, dealer=0, creator=people[0],
                        status="playing", seats=seats, created_at=started)  # type: ignore[arg-type]
    tid = await repo.create_table(table)
    stored = await repo.get_table(tid)
    assert stored is not None
    stored = await repo.append_action(ActionRecord(tid, 1, 0, "bid 7", people[0], started), replace(stored, version=1))
    result = MatchResult(tid, CHAT, "tarneeb", finished,
                         tuple(PlayerResult(p, i, 31 if i % 2 == min(winners) % 2 else 10, i in winners, i in left)
                               for i, p in enumerate(people)), {"teams": [31, 10]})
    await repo.append_final_action(ActionRecord(tid, 2, 0, "play QS", people[0], finished),
                                   replace(stored, version=2, status=FINISHED, deadline=None), result)
    return tid


_MARKS = str.maketrans(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200F]))


def group_texts(bed: Bed) -> list[str]:
    """What the group got from the bot, without the isolates and marks of right-to-left text."""
    return [m.translate(_MARKS) for m in bed.tg.texts(GROUP)]


async def ask(bed: Bed, user: object, text: str, expect: str) -> str:
    """Send ``text`` in the group as ``user``; the bot's newest group message once it holds ``expect``."""
    before = len(bed.tg.texts(GROUP))
    await bed.tg.say(user, GROUP, text)  # type: ignore[arg-type]
    return await bed.tg.wait_for(lambda: next((m for m in group_texts(bed)[before:] if expect in m), None))


@pytest.mark.slow  # a month of matches and a dozen round trips through the real library: about 2 s
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_month_of_matches_across_the_boundary_makes_a_season_table_and_a_champion(
        bed: Bed, lang: str) -> None:
    tg, clock = bed.tg, bed.clock
    people = bed.people(NAMES[lang], lang)
    ali, huda, omar, sara, zaid = people
    tg.add_group(GROUP, admins=[ali.user_id])
    await ask(bed, ali.user, f"/lang {lang}", "")
    ids = [f"tg:{p.user_id}" for p in people]
    for p, pid in zip(people, ids, strict=True):
        await bed.manager.repo.save_player(PlayerRecord(pid, p.user.first_name))
    a, h, o, s, z = ids
    # January: Ali and Omar beat Huda and Sara most days; Sara leaves one match (a loss even so)
    now = clock.now()
    day = 0
    while now + DAY < FEB_1 - DAY:
        winners = {1, 3} if day % 4 == 3 else {0, 2}
        await record(bed, (a, h, o, s), winners, now, now + 1800, left={3} if day == 5 else set())
        clock.advance(DAY)
        now, day = clock.now(), day + 1
    await record(bed, (z, "ai:normal:1", a, "ai:normal:3"), {0, 2}, now, now + 600)  # AI seats: not counted
    await record(bed, (z, h, a, s), {1, 3}, now + 700, now + 900)  # Zaid's one match: provisional
    straddling = await record(bed, (a, h, o, s), {0, 2}, FEB_1 - 600, FEB_1 + 1200)  # counts in January

    board = await bed.manager.repo.season_board("tg:" + str(GROUP), 1, "tarneeb")
    assert {r.player_id for r in board} == {a, h, o, s, z}  # no AI seat, ever
    assert next(r for r in board if r.player_id == s).left == 1
    assert next(r for r in board if r.player_id == z).matches == 1
    changes = {c.player_id: c for c in await bed.manager.repo.rating_changes(straddling)}
    assert changes[a].after > changes[a].before and changes[h].after < changes[h].before

    text = await ask(bed, ali.user, "/season tarneeb", WORDS[lang]["season"])
    assert WORDS[lang]["rank"] in text and NAMES[lang][0] in text and "ai:" not in text
    text = await ask(bed, zaid.user, "/season tarneeb", WORDS[lang]["season"])
    assert WORDS[lang]["provisional"] in text

    clock.advance(FEB_1 + 120 - clock.now())  # the boundary: the season closes once, its summary posted once
    await bed.manager.seasons.tick()
    await bed.manager.seasons.tick()
    over = await tg.wait_for(lambda: [m for m in group_texts(bed) if WORDS[lang]["over"] in m] or None)
    await bed.drain()
    assert len([m for m in group_texts(bed) if WORDS[lang]["over"] in m]) == 1
    assert WORDS[lang]["champion"] in over[0] and NAMES[lang][2] in over[0]  # Omar, the best ranked
    history = await ask(bed, sara.user, "/season history", WORDS[lang]["champions"])
    assert WORDS[lang]["season"] in history
    assert omar.user_id and huda.user_id  # everyone took part
