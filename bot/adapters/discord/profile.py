"""``/majlis stats`` and ``/majlis profile [member]`` on Discord (bot/core/profiles.py).

In a server: the figures of this server's league, answered to the asker only; ``member``: another
person's card in this server. In the private chat with the bot: the asker's own figures across
every chat (the dispatch refuses them anywhere else).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.adapters.discord.base import HandlerBase, Interaction
from bot.adapters.discord.common import _error, guild_key
from bot.core.commands import ShowProfile
from bot.core.errors import TableError
from bot.present.render.profile import render_profile, render_record


def _command(interaction: Interaction, member: discord.abc.User | None) -> ShowProfile:
    everywhere = guild_key(interaction) is None
    if member is not None and not everywhere and member.id != interaction.user.id and not member.bot:
        return ShowProfile(player_id=f"dc:{member.id}", name=member.display_name)
    return ShowProfile(everywhere=everywhere)


async def stats(h: HandlerBase, interaction: Interaction) -> None:
    """``/majlis stats``: the season and all-time figures, the streaks, the matches left to be ranked."""
    await h.ack(interaction)
    t = await h.translator_for(interaction)
    try:
        profile = await h.dispatch(_command(interaction, None), interaction)
    except TableError as e:
        await h.answer(interaction, _error(e.code, e.params, t))
        return
    await h.answer(interaction, render_record(profile, t).text)


async def profile(h: HandlerBase, interaction: Interaction, member: Any = None) -> None:
    """``/majlis profile [member]``: the card (to the asker only), with its web page's link."""
    await h.ack(interaction)
    t = await h.translator_for(interaction)
    try:
        card = await h.dispatch(_command(interaction, member), interaction)
    except TableError as e:
        await h.answer(interaction, _error(e.code, e.params, t))
        return
    link = h.profile_link(card.player_id, card.league) if h.profile_link is not None else None
    msg = render_profile(card, t, link)
    await h.answer(interaction, msg.text, msg)
