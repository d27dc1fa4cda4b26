"""A tournament for the web page's tests: six people in drawn pairs, an AI pair filling the bracket's
bye, round 1 under way (the played bye won by its people, the other match at its table), stored as
the bot stores it."""

from __future__ import annotations

from dataclasses import replace

from bot.core.manager import TableManager
from bot.core.model import Person
from bot.core.tournaments import new, register, start, table_ended
from storage.tournaments import MatchStatus, Tournament

CHAT = "tg:-100700"
NAMES = {"en": ["Sara", "Omar", "Lina", "Hadi", "Maya", "Karim"],
         "ar": ["سارة", "عمر", "لينا", "هادي", "مايا", "كريم"]}


async def stored_tournament(manager: TableManager, lang: str, *, running: bool = True) -> Tournament:
    """The group's tournament in ``lang`` (the group's language too): in registration, or running with
    round 1's played bye won by its people and the other match at its table."""
    await manager.prefs.update_chat(CHAT, lang=lang)
    now = manager.clock.now()
    organiser = Person("tg:1", "Organiser" if lang == "en" else "المنظّم")
    t = new(CHAT, organiser, "tarneeb41", pairing="draw", now=now, start_minutes=30, checkin_minutes=10,
            round_minutes=20, ai=True, options={}, lang=lang)
    for i, name in enumerate(NAMES[lang]):
        t = register(t, Person(f"tg:{11 + i}", name), now)
    t = await manager.repo.create_tournament(t)
    if not running:
        return t
    t = start(t, now, organiser.player_id)
    first, second = sorted((m for m in t.matches if m.round == 1 and m.status == MatchStatus.CALLED),
                           key=lambda m: m.slot)
    t = replace(t, matches=tuple(replace(m, status=MatchStatus.PLAYING, table_id=900 + m.slot)
                                 if m in (first, second) else m for m in t.matches))
    played = t.match(first.round, first.slot)
    assert played is not None
    t = table_ended(t, played, {0, 2}, now)
    return await manager.repo.save_tournament(t)
