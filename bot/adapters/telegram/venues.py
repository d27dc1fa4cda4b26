"""A forum topic per tournament match in a Telegram group that is a forum (bot/core/venues.py).

The bot creates the topic (Bot API ``createForumTopic``, python-telegram-bot's
:meth:`telegram.Bot.create_forum_topic`), named like "Round 1 · Sara & Omar v Lina & Hadi" in the
group's language; the topic is a chat of its own (``tg:<group>/<topic>``) that uses the group's
settings. A group that is not a forum has no topics: its matches are played in it, one after
another, as before (it is asked once an hour at most). A forum where the bot may not manage topics
(it is not an admin with that right) refuses: the tournament plays in the group and says so once
(:class:`~bot.core.venues.VenueRefused`). Topics are left open when their match ends (the group's
admins may close them); the bot does not need the right to close them.
"""

from __future__ import annotations

from telegram import Bot
from telegram import error as tg_error

from bot.core.cache import TTLCache
from bot.core.identity import tg_group, tg_parse
from bot.core.manager import TableManager
from bot.core.venues import Venue, VenueRefused
from bot.present.i18n import translator
from bot.present.render.tournaments import venue_name
from storage.tournaments import TMatch, Tournament

#: A group found not to be a forum is not asked again for this long (seconds): it may become one.
NOT_FORUM_TTL = 3600.0


def topic_url(chat_id: int, thread_id: int) -> str | None:
    """The link to a topic of a supergroup (``https://t.me/c/<id>/<topic>``, for its members)."""
    text = str(chat_id)
    return f"https://t.me/c/{text[4:]}/{thread_id}" if text.startswith("-100") else None


def register_topics(bot: Bot, manager: TableManager) -> None:
    """Open the tournament matches of forum groups in topics, through ``bot``."""
    not_forum: TTLCache[int, bool] = TTLCache(4096, NOT_FORUM_TTL)

    async def make(tour: Tournament, m: TMatch) -> Venue | None:
        chat_id, thread = tg_parse(tour.chat_id)
        if thread is not None or not_forum.get(chat_id):
            return None
        name = venue_name(tour, m, translator(*await manager.prefs.public_lang(tour.chat_id)))
        try:
            topic = await bot.create_forum_topic(chat_id, name)
        except tg_error.BadRequest as e:
            if "not a forum" in e.message.lower():
                not_forum.put(chat_id, True)
                return None
            raise VenueRefused(e.message) from e
        except tg_error.Forbidden as e:
            raise VenueRefused(e.message) from e
        chat = tg_group(chat_id, topic.message_thread_id)
        await manager.prefs.link_parent(chat, tour.chat_id)  # the group's language and settings
        return Venue(chat, topic.name, topic_url(chat_id, topic.message_thread_id))

    manager.tournaments.venues.register("tg", make)
