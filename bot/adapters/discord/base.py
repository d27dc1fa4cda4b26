"""The Discord handlers' plumbing: limits, who and where an interaction is, its language, answering.

:class:`bot.adapters.discord.handlers.Handlers` builds the slash commands and button presses on this.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.adapters.discord.common import _error, can_manage, chat_of, guild_key, person_of
from bot.adapters.discord.components import build_view
from bot.adapters.discord.transport import dm_dest, player_id
from bot.adapters.throttle import CommandLimits
from bot.core.commands import Actor, Answers, R
from bot.core.lang import resolve_lang
from bot.core.service import Service
from bot.present.i18n import T, translator
from bot.present.render.message import Button, OutMessage
from bot.present.season_notices import Standings

if TYPE_CHECKING:
    from bot.adapters.discord.transport import DiscordTransport
    from bot.core.clock import Clock
    from bot.core.manager import TableManager
    from bot.present.tournament_notices import Brackets
    from storage.tournaments import Tournament

log = logging.getLogger("bot.adapters.discord.handlers")

Interaction = discord.Interaction[Any]


class HandlerBase:
    """What every handler needs: the manager, the one dispatch, the limits, the reader's language,
    and the three ways of answering an interaction."""

    def __init__(self, manager: TableManager, *, transport: DiscordTransport | None = None,
                 presenter: Any = None, limits: CommandLimits | None = None, clock: Clock | None = None) -> None:
        self.manager = manager
        self.transport = transport
        self.presenter = presenter
        self.service = Service(manager)
        self.web_link: Any = None
        #: A person's profile page on the web table (player id, league or None), when it runs.
        self.profile_link: Callable[[str, str | None], str | None] | None = None
        #: Each channel's standings message (bot/present/season_notices.py), once the outbox exists.
        self.standings: Standings | None = None
        #: Each channel's tournament message (bot/present/tournament_notices.py), once the outbox exists.
        self.brackets: Brackets | None = None
        #: The button to a tournament's web page, when the web table runs (bot/adapters/web/service.py).
        self.tournament_link: Callable[[Tournament, T], Button | None] | None = None
        limits = limits or CommandLimits()
        self.commands = limits.commands(clock or manager.clock)
        self.presses = limits.presses(clock or manager.clock)

    # ---- how often ----

    async def throttled(self, interaction: Interaction, *, press: bool = False) -> bool:
        """Whether the person is over their limit (bot/core/settings.py ``CommandLimits``): commands per
        person and channel, presses per person (a flood cap). Every interaction must be answered,
        so each one over the limit gets the same short ephemeral line at once (one request, no
        defer), and nothing is dispatched."""
        player = player_id(interaction.user.id)
        verdict = self.presses.check(player) if press else self.commands.check(f"{chat_of(interaction)} {player}")
        if verdict.ok:
            return False
        if verdict.first:
            log.info("%s of %s dropped (over the limit for %.1f s)", "press" if press else "command", player,
                     verdict.wait)
        t = await self.translator_for(interaction)
        text = _error("slow_down", {"seconds": max(1, math.ceil(verdict.wait))}, t)
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        return True

    # ---- who and where ----

    async def actor(self, interaction: Interaction) -> Actor:
        """The person and the place of an interaction: its channel (which belongs to its server), or DM."""
        person = person_of(interaction)
        guild = guild_key(interaction)
        event = f"dc:{interaction.id}"  # a forwarded command (core/cluster/routing.py) is applied once per interaction
        if guild is None:
            return Actor(person, dm_dest(interaction.user.id), event_id=event)
        chat = chat_of(interaction)
        await self.manager.prefs.link_parent(chat, guild)

        async def is_admin() -> bool:
            return can_manage(interaction)

        return Actor(person, chat, is_admin, event_id=event)

    async def dispatch(self, cmd: Answers[R], interaction: Interaction) -> R:
        """Run a command through the one dispatch (bot/core/service.py); returns what it answers."""
        return await self.service.dispatch(cmd, await self.actor(interaction))

    # ---- languages ----

    async def translator_for(self, interaction: Interaction, chat_id: str | None = None) -> T:
        """The language of a private answer: the player's choice, the server's, the locale hint."""
        person = person_of(interaction)
        guild = guild_key(interaction)
        if guild is not None:  # every channel the bot hears from is tied to its server's settings
            await self.manager.prefs.link_parent(chat_of(interaction), guild)
        rec = await self.manager.player(person)  # cached by the manager's prefs
        chat = await self.manager.chat_settings(chat_id or chat_of(interaction))
        return translator(resolve_lang(rec.lang or chat.lang, person.lang_hint), chat.digits)

    def forget(self, player: str) -> None:
        """Read the player's language again next time."""
        self.manager.prefs.forget_player(player)
        if self.presenter is not None:
            self.presenter.forget_player(player)

    # ---- answering ----

    async def ack(self, interaction: Interaction, *, ephemeral: bool = True, update: bool = False) -> None:
        """Acknowledge at once: a thinking (ephemeral) response, or a silent update of the message."""
        if interaction.response.is_done():
            return
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)

    async def answer(self, interaction: Interaction, text: str, msg: OutMessage | None = None) -> None:
        """Fill the deferred response (its buttons, if any, are dynamic items; its cards the
        application's emojis, when it has them)."""
        view = build_view(msg.buttons) if msg is not None else None
        faces = self.transport.faces if self.transport is not None else None
        if faces is not None:
            text = faces.apply(text)
        await interaction.edit_original_response(content=text[:2000], view=view)

    @staticmethod
    async def tell(interaction: Interaction, text: str) -> None:
        """An extra ephemeral line, after a silent acknowledgement."""
        await interaction.followup.send(text[:2000], ephemeral=True)
