"""What the Discord handlers share: who and where an interaction is, refusals and short texts."""

from __future__ import annotations

from typing import Any

import discord

from bot.adapters.discord.transport import channel_dest, player_id
from bot.core import identity
from bot.core.model import Person, TableSnapshot
from bot.present.i18n import T
from bot.present.render import render_error
from bot.present.render.lobby import lobby_text
from bot.present.render.table import table_text

Interaction = discord.Interaction[Any]


def _error(code: str, params: dict[str, Any], t: T) -> str:
    """A refusal in words; "start one with" names Discord's command."""
    if code == "no_table" and "command" not in params:
        params = {**params, "command": "/majlis new"}
    if code == "challenge_played" and "command" not in params:
        params = {**params, "command": "/majlis challenge"}
    if code == "tournament" and "command" not in params:
        params = {**params, "command": "/majlis tournament action:new"}
    return render_error(code, params, t)


def person_of(interaction: Interaction) -> Person:
    """The neutral person behind an interaction (Discord's locale as the language hint)."""
    user = interaction.user
    return Person(player_id(user.id), user.display_name, str(interaction.locale) if interaction.locale else None)


def chat_of(interaction: Interaction) -> str:
    """The neutral chat id of the interaction's channel or thread."""
    return channel_dest(interaction.channel_id or 0)


def lang_set(t: T) -> str:
    """The confirmation of a language change, naming the language chosen, in that language."""
    language = t.pgettext("language", "Arabic") if t.lang == "ar" else t.pgettext("language", "English")
    return t.gettext("From now on I speak {language} here.", language=language)


def guild_key(interaction: Interaction) -> str | None:
    """The settings record of the interaction's server (``dc:guild:<id>``), None outside a server."""
    return identity.dc_guild(interaction.guild_id) if interaction.guild_id else None


def can_manage(interaction: Interaction) -> bool:
    """Whether the person may change the server's settings (Manage Server or Administrator)."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def summary_text(snap: TableSnapshot, t: T) -> str:
    """The table as its public message shows it (lobby or match)."""
    return lobby_text(snap, t) if snap.public is None else table_text(snap, t)
