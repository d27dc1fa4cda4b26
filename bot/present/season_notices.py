"""The summary of a season that ended, posted to its league's chat through a platform's outbox hub.

Each process closes the seasons that ended (:meth:`bot.core.seasons.Seasons.tick`); storage lets one
process close each season, and only that one hears of it, so a summary is posted once whatever the
number of processes. The summary goes to the chat of the season's last match (a Discord server's
summary to the channel where it was last played), in that chat's language, as a new message.
"""

from __future__ import annotations

from bot.core.seasons import Seasons
from bot.present.i18n import translator
from bot.present.outbox.hub import OutboxHub
from bot.present.outbox.types import NEW
from bot.present.render.seasons import render_summary
from storage.records import SeasonSummary


def announce_seasons(seasons: Seasons, hub: OutboxHub, prefix: str) -> None:
    """Post every season summary of a chat whose id starts with ``prefix`` (``"tg:"``) through ``hub``."""
    async def post(summary: SeasonSummary) -> None:
        chat = summary.chat_id
        if chat is None or not chat.startswith(prefix):
            return
        t = translator(*await seasons.prefs.public_lang(chat))
        hub.put(chat, None, render_summary(summary, t), NEW)

    seasons.on_closed(post)
