"""/stats, /profile and the chat's standings message through the real python-telegram-bot and the fake
Bot API, in English and Arabic: a group's figures in the group, one's figures across every chat only
in the private chat, and one standings message edited in place across matches and a season's end."""

from __future__ import annotations

import pytest

from bot.core.table import Table
from storage.records import LeagueRecord, PlayerRecord
from tests.adapters.telegram.harness import CHAT, GROUP, Bed
from tests.adapters.telegram.test_tg_seasons import DAY, NAMES, ask, group_texts, record

WORDS = {
    "en": {"stats": "Stats · Ali", "season": "Tarneeb · season 1: rank 1 of 4", "all": "All time: 6 matches · 5 wins",
           "streak": "Streak: 1 win in a row · best: 4 wins in a row", "profile": "Profile · Ali",
           "partner": "Favourite partner: Omar · 6 matches together", "everywhere": "Profile · Ali · every chat",
           "left": "more matches to be ranked this season", "standings": "Standings · season 1",
           "next": "Standings · season 2", "champion": "Champion of season 1 · Tarneeb: "},
    "ar": {"stats": "إحصاءات · علي", "season": "طرنيب · الموسم 1: الترتيب 1 من 4",
           "all": "من البداية: 6 مباريات · 5 انتصارات",
           "streak": "السلسلة: فوز واحد · الأحسن: 4 انتصارات متتالية", "profile": "بطاقة اللاعب · علي",
           "partner": "الشريك المفضّل: عمر · 6 مباريات معًا", "everywhere": "بطاقة اللاعب · علي · كل المجموعات",
           "left": "لتدخل الترتيب بهالموسم", "standings": "الترتيب · الموسم 1",
           "next": "الترتيب · الموسم 2", "champion": "بطل الموسم 1 · طرنيب: "},
}
_MARKS = str.maketrans(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200F]))


async def _league_of_five(bed: Bed, lang: str) -> list[str]:
    """Ali, Huda, Omar, Sara (and Zaid) with six matches of the group: Ali and Omar win five."""
    people = bed.people(NAMES[lang], lang)
    bed.tg.add_group(GROUP, admins=[people[0].user_id])
    await ask(bed, people[0].user, f"/lang {lang}", "")
    ids = [f"tg:{p.user_id}" for p in people]
    for p, pid in zip(people, ids, strict=True):
        await bed.manager.repo.save_player(PlayerRecord(pid, p.user.first_name))
    a, h, o, s, _ = ids
    now = bed.clock.now()
    for day in range(6):
        await record(bed, (a, h, o, s), {1, 3} if day == 4 else {0, 2}, now + day * 3600, now + day * 3600 + 1800)
    return ids


async def dm_text(bed: Bed, user_id: int, expect: str) -> str:
    return await bed.tg.wait_for(lambda: next((m.translate(_MARKS) for m in bed.tg.texts(user_id) if expect in
                                               m.translate(_MARKS)), None))


@pytest.mark.slow  # a dozen round trips through the real library
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_stats_and_profile_show_the_groups_figures_there_and_every_chat_only_in_private(
        bed: Bed, lang: str) -> None:
    w = WORDS[lang]
    await _league_of_five(bed, lang)
    ali, zaid = bed.people(NAMES[lang], lang, started=False)[0], bed.people(NAMES[lang], lang, started=False)[4]
    stats = await ask(bed, ali.user, "/stats", w["stats"])
    assert w["season"] in stats and w["all"] in stats and w["streak"] in stats
    card = await ask(bed, ali.user, "/profile", w["profile"])
    assert w["partner"] in card and w["everywhere"] not in card
    assert any(c in card for c in "▁▂▃▄▅▆▇█")  # the season rating as a sparkline
    zaid_stats = await ask(bed, zaid.user, "/stats", NAMES[lang][4])  # Zaid has played nothing here
    assert w["all"] not in zaid_stats
    await bed.tg.say(ali.user, ali.user_id, "/profile")  # the private chat: across every chat, to Ali only
    private = await dm_text(bed, ali.user_id, w["everywhere"])
    assert w["partner"] in private
    assert not any(w["everywhere"] in m for m in group_texts(bed))


@pytest.mark.slow  # matches, a season's end and the edits through the real library
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_the_standings_message_is_edited_in_place_after_each_match_and_at_the_seasons_end(
        bed: Bed, lang: str) -> None:
    w = WORDS[lang]
    a, h, o, s, _ = await _league_of_five(bed, lang)
    ali = bed.people(NAMES[lang], lang, started=False)[0]
    await bed.manager.repo.save_league(LeagueRecord(CHAT, min_matches=2))
    await ask(bed, ali.user, "/season", w["standings"])
    await bed.drain()
    kept = bed.tg.last_bot_message(GROUP, lambda m: w["standings"] in m.text.translate(_MARKS))
    assert kept is not None
    publisher = bed.manager.publisher
    for n in range(3):  # three more matches, each told to the manager's subscribers as a finished match is
        tid = await record(bed, (a, h, o, s), {1, 3}, bed.clock.now() + n * 60, bed.clock.now() + n * 60 + 30)
        stored = await bed.manager.repo.get_table(tid)
        assert stored is not None
        changes = await bed.manager.repo.rating_changes(tid)
        publisher.post(Table(record=stored), [{"type": "match_recorded", "results": [], "ratings": [
            {"player_id": c.player_id, "before": c.before, "after": c.after, "matches": c.matches}
            for c in changes]}], "action")
        await publisher.flush(tid)
        await bed.drain()
        assert len(kept.history) == n + 2  # the same message (as posted, then each edit)
    assert "9" in kept.text.translate(_MARKS)  # nine matches each now
    before = len([m for m in bed.tg.bot_messages(GROUP) if w["standings"] in m.text.translate(_MARKS)])
    assert before == 1
    await ask(bed, ali.user, "/season end 1", "")  # the admin ends the season: its champions decided
    await bed.tg.wait_for(lambda: w["next"] in kept.text.translate(_MARKS) or None)
    assert w["champion"] in kept.text.translate(_MARKS)
    standings = [m for m in bed.tg.bot_messages(GROUP) if "season" in m.text or "الموسم" in m.text]
    assert sum(1 for m in standings if m is kept or w["next"] in m.text.translate(_MARKS)) == 1
    bed.clock.advance(DAY)
    await ask(bed, ali.user, "/season", w["next"])  # asked again: posted anew, the old one deleted
    await bed.drain()
    assert kept.deleted
    live = [m for m in bed.tg.bot_messages(GROUP) if w["next"] in m.text.translate(_MARKS)]
    assert len(live) == 1 and live[0] is not kept
    assert bed.tg.max_ops_in_window(GROUP) <= 20
