"""A thread per tournament match in a Discord channel (bot/core/venues.py).

The bot starts a public thread of the tournament's channel without a message (Discord's "Start
Thread without Message", discord.py's :meth:`discord.TextChannel.create_thread`), named like
"Round 1 · Sara & Omar v Lina & Hadi" in the channel's language. The thread is a chat of its own
(``dc:<thread>``) that uses its server's settings. Discord archives it after
:data:`AUTO_ARCHIVE_MINUTES` without a message (its match is over by then); a thread opened twice by
two processes is archived at once. Without the right to create threads (403) the tournament plays
in the channel (:class:`~bot.core.venues.VenueRefused`).
"""

from __future__ import annotations

from typing import Literal

import discord

from bot.core.identity import dc_channel, dc_guild, dc_parse
from bot.core.manager import TableManager
from bot.core.venues import Venue, VenueRefused
from bot.present.i18n import translator
from bot.present.render.tournaments import venue_name
from storage.tournaments import TMatch, Tournament

#: Discord archives a match's thread after this long without a message (one of 60, 1440, 4320, 10080).
AUTO_ARCHIVE_MINUTES: Literal[60] = 60


def register_threads(client: discord.Client, manager: TableManager) -> None:
    """Open the tournament matches of ``client``'s channels in threads."""

    async def make(tour: Tournament, m: TMatch) -> Venue | None:
        channel = client.get_channel(dc_parse(tour.chat_id))
        if not isinstance(channel, discord.TextChannel):  # a thread, a DM, a channel not in the cache
            return None
        name = venue_name(tour, m, translator(*await manager.prefs.public_lang(tour.chat_id)))
        try:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=AUTO_ARCHIVE_MINUTES,
                                                 reason="Majlis tournament match")
        except discord.Forbidden as e:
            raise VenueRefused(f"{e.status} {e.code}") from e
        chat = dc_channel(thread.id)
        await manager.prefs.link_parent(chat, dc_guild(channel.guild.id))  # the server's settings
        return Venue(chat, thread.name, thread.jump_url)

    async def close(venue: Venue) -> None:
        thread = client.get_channel(dc_parse(venue.chat_id))
        if isinstance(thread, discord.Thread):
            await thread.edit(archived=True)

    manager.tournaments.venues.register("dc", make, close)
