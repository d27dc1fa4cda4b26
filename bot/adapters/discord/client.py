"""The discord.py client: the command tree, the dynamic items, the transport and the presenter.

``build_client(manager)`` gives a ``discord.Client`` (or, with ``sharded=True``, an
``AutoShardedClient``) that on start-up registers the button templates, syncs ``/majlis``,
subscribes a presenter to the manager and restores the live tables, whose public messages are
then edited in place again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.adapters.discord import challenges
from bot.adapters.discord.commands import build_group
from bot.adapters.discord.components import ACTIVITY_PREFIX, DYNAMIC_ITEMS, SELECT_PREFIX
from bot.adapters.discord.emojis import load_faces
from bot.adapters.discord.handlers import Handlers
from bot.adapters.discord.transport import DiscordTransport
from bot.adapters.discord.venues import register_threads
from bot.adapters.throttle import CommandLimits
from bot.core.lang import resolve_lang
from bot.present import codec
from bot.present.challenge_notices import announce_challenges
from bot.present.i18n import translator
from bot.present.render import render_error
from bot.present.season_notices import announce_seasons
from bot.present.tournament_notices import Brackets

if TYPE_CHECKING:
    from bot.core.clock import Clock
    from bot.core.manager import TableManager

log = logging.getLogger(__name__)

#: ``interaction.extras`` key set once a press is being answered.
HANDLED = "majlis_handled"
#: How long a press may wait for its dynamic item before the fallback answers it (well within 3 s).
FALLBACK_AFTER = 0.3

PresenterFactory = Callable[["TableManager", DiscordTransport], Any]


def default_presenter(manager: TableManager, transport: DiscordTransport) -> Any:
    """A presenter that feeds Discord destinations (``dc:`` and ``dm:dc:``) only."""
    from bot.present.presenter import Presenter

    return Presenter(manager, {"dc": transport})


class MajlisMixin:
    """What both client classes share: construction, start-up, shutdown and the press handling."""

    manager: TableManager
    tree: app_commands.CommandTree[Any]
    transport: DiscordTransport
    handlers: Handlers
    presenter: Any

    def __init__(self, manager: TableManager, *, presenter: PresenterFactory | None = None, sync: bool = True,
                 guild_ids: list[int] | None = None, start_manager: bool = True,
                 on_setup: Callable[[], Awaitable[None]] | None = None, limits: CommandLimits | None = None,
                 limits_clock: Clock | None = None, **options: Any) -> None:
        options.setdefault("intents", discord.Intents(guilds=True))
        super().__init__(**options)  # the discord.py client class beside us in the MRO
        self._setup_majlis(manager, presenter=presenter, sync=sync, guild_ids=guild_ids,
                           start_manager=start_manager, limits=limits, limits_clock=limits_clock)
        self._on_setup = on_setup

    async def close(self) -> None:
        """Stop the tables' timers and outboxes, then disconnect (every shard)."""
        await self.shutdown()
        await super().close()  # type: ignore[misc]

    def _setup_majlis(self, manager: TableManager, *, presenter: PresenterFactory | None, sync: bool,
                      guild_ids: list[int] | None, start_manager: bool, limits: CommandLimits | None = None,
                      limits_clock: Clock | None = None) -> None:
        client: Any = self
        self.manager = manager
        self.transport = DiscordTransport(client)
        self.handlers = Handlers(manager, transport=self.transport, limits=limits, clock=limits_clock)
        self.tree = app_commands.CommandTree(client)
        self.tree.add_command(build_group(self.handlers))
        self.tree.on_error = self._tree_error  # type: ignore[method-assign]
        self.tree.interaction_check = self._command_check  # type: ignore[method-assign]
        self.presenter = None
        self._presenter_factory = presenter or default_presenter
        self._sync = sync
        self._guild_ids = guild_ids or []
        self._start_manager = start_manager
        self._closing = False

    async def on_payload(self, interaction: discord.Interaction[Any], payload: str) -> None:
        """Called by the dynamic items (or the fallback below) once for every press."""
        if interaction.extras.get(HANDLED):
            return
        interaction.extras[HANDLED] = True
        try:
            if await self.handlers.throttled(interaction, press=True):
                return
            if payload.startswith(ACTIVITY_PREFIX):
                await self.handlers.launch(interaction, payload)
                return
            await self.handlers.on_payload(interaction, payload)
        except Exception:
            log.exception("button %s failed", payload)
            await self._apologise(interaction)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the presses that discord.py's dynamic items drop.

        discord.py ignores a press whose button it cannot find on the message as the interaction
        carries it (a doubled or late press on a message edited meanwhile), and the person would see
        "This interaction failed". Every press of ours is answered: by the dynamic item, or here.
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not (codec.is_ours(custom_id) or custom_id.startswith((SELECT_PREFIX, ACTIVITY_PREFIX))):
            return
        await asyncio.sleep(FALLBACK_AFTER)
        if interaction.extras.get(HANDLED) or interaction.response.is_done():
            return
        values = data.get("values") or []
        log.info("answering a press that the dynamic items dropped: %s", custom_id)
        await self.on_payload(interaction, str(values[0]) if custom_id.startswith(SELECT_PREFIX) and values
                              else custom_id)

    async def setup_hook(self) -> None:
        """After login, before the gateway: buttons, commands, presenter, restored tables."""
        client: Any = self
        client.add_dynamic_items(*DYNAMIC_ITEMS)
        self.presenter = self._presenter_factory(self.manager, self.transport)
        self.handlers.presenter = self.presenter
        hub = getattr(self.presenter, "hubs", {}).get("dc")
        if hub is not None:  # a season's end, posted once (bot/present/season_notices.py)
            self.handlers.standings = announce_seasons(self.manager.seasons, hub, "dc:", tables=self.manager,
                                                       repo=self.manager.repo, stats="/majlis stats")
            announce_challenges(self.manager.challenges, self.manager.prefs, hub, "dc:",
                                play=challenges.PLAY_COMMAND, show=challenges.SHOW_COMMAND)
            handlers = self.handlers  # each tournament's message, edited in place (with its web page's button)
            handlers.brackets = Brackets(self.manager.tournaments, hub, "dc:",
                                         link=lambda tour, t: handlers.tournament_link(tour, t)
                                         if handlers.tournament_link is not None else None)
            register_threads(client, self.manager)  # a thread per tournament match (bot/adapters/discord/venues.py)
        if self._sync:
            if self._guild_ids:
                for gid in self._guild_ids:
                    guild = discord.Object(gid)
                    self.tree.copy_global_to(guild=guild)
                    await self.tree.sync(guild=guild)
            else:
                await sync_global(self)
        self.transport.faces = await load_faces(self)  # the cards as emojis, when uploaded
        if self._start_manager:
            await self.manager.start()
        if self._on_setup is not None:  # e.g. the runner's gate: the shared manager starts once
            await self._on_setup()

    async def shutdown(self, *, drain_seconds: float = 5.0) -> None:
        """Stop the timers, deliver what is queued (briefly), stop the outboxes."""
        if self._closing:
            return
        self._closing = True
        if self._start_manager:
            await self.manager.close()
        if self.presenter is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.presenter.drain(), drain_seconds)
            await self.presenter.close()

    async def _command_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every slash command passes here first: False (already answered "slow down") stops it."""
        if interaction.type is not discord.InteractionType.application_command:
            return True
        try:
            return not await self.handlers.throttled(interaction)
        except Exception:
            log.exception("the command limit failed; serving the command")
            return True

    async def _tree_error(self, interaction: discord.Interaction[Any],
                          error: app_commands.AppCommandError) -> None:
        log.error("command failed", exc_info=error)
        await self._apologise(interaction)

    async def _apologise(self, interaction: discord.Interaction[Any]) -> None:
        with contextlib.suppress(Exception):
            try:
                t = await self.handlers.translator_for(interaction)
            except Exception:  # storage is what failed: apologise in the locale's language
                t = translator(resolve_lang(None, str(interaction.locale) if interaction.locale else None))
            text = render_error("internal", {}, t)
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)


#: Application command type 4: the Entry Point command, which Discord makes when Activities are
#: switched on (the App Launcher's "Launch"). discord.py does not know it.
PRIMARY_ENTRY_POINT = 4
_ENTRY_KEYS = ("id", "type", "name", "description", "handler", "integration_types", "contexts",
               "name_localizations", "description_localizations")


async def sync_global(client: Any) -> None:
    """Overwrite the global commands with ``/majlis``, keeping an Entry Point command if there is one.

    A bulk overwrite that leaves the Entry Point command out is refused (error 50240) once the
    application has Activities switched on, so it is read first and sent back as it is.
    """
    tree: app_commands.CommandTree[Any] = client.tree
    app_id = client.application_id
    if app_id is None:
        raise discord.MissingApplicationID
    payload: list[dict[str, Any]] = [c.to_dict(tree) for c in tree.get_commands()]
    existing = await client.http.get_global_commands(app_id)
    payload += [{k: c[k] for k in _ENTRY_KEYS if k in c} for c in existing if c.get("type") == PRIMARY_ENTRY_POINT]
    await client.http.bulk_upsert_global_commands(app_id, payload=payload)


class MajlisClient(MajlisMixin, discord.Client):
    """One gateway connection."""


class MajlisShardedClient(MajlisMixin, discord.AutoShardedClient):
    """As many shards as Discord recommends (``GET /gateway/bot``), or ``shard_count``."""


def build_client(manager: TableManager, *, sharded: bool = False, presenter: PresenterFactory | None = None,
                 sync: bool = True, guild_ids: list[int] | None = None, start_manager: bool = True,
                 on_setup: Callable[[], Awaitable[None]] | None = None, limits: CommandLimits | None = None,
                 limits_clock: Clock | None = None, **options: Any) -> MajlisClient | MajlisShardedClient:
    """The bot's client; ``options`` go to discord.py (``intents``, ``guild_ready_timeout`` ...).

    ``limits``: how often one person may use commands and press buttons (bot/core/settings.py), on
    ``limits_clock`` (the manager's clock by default). ``on_setup`` is awaited at the end of
    ``setup_hook`` (the presenter subscribed), before the gateway connects.
    """
    cls = MajlisShardedClient if sharded else MajlisClient
    return cls(manager, presenter=presenter, sync=sync, guild_ids=guild_ids, start_manager=start_manager,
               on_setup=on_setup, limits=limits, limits_clock=limits_clock, **options)
