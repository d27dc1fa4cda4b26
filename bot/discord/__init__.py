"""The Discord adapter: slash commands, the live table message, hands by DM and ephemeral replies.

``majlis run --discord`` calls :func:`run` with the configuration; tests and the benchmark use
:func:`build_client` with their own table manager::

    client = build_client(manager, guild_ready_timeout=0.1)
    await client.start(token)

A REST proxy or a local fake is reached by :func:`redirect` (``MAJLIS_DISCORD_API_BASE``,
``MAJLIS_DISCORD_GATEWAY``): discord.py has no per-client base URL, so this is process-wide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord.gateway
import discord.http
import yarl

from bot.discord.client import MajlisClient, MajlisShardedClient, build_client

if TYPE_CHECKING:
    from bot.config import Config
    from bot.manager import TableManager

__all__ = ["MajlisClient", "MajlisShardedClient", "build_client", "redirect", "run"]


def redirect(api_base: str | None = None, gateway: str | None = None) -> tuple[str, yarl.URL]:
    """Point discord.py's REST calls and gateway elsewhere; returns the old values to restore."""
    old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return old


async def run(config: Config, *, manager: TableManager | None = None, **options: Any) -> None:
    """Run the Discord bot until it is stopped (the token, URLs, database from ``config``).

    The ``[discord]`` section of the config file may set ``sharded = true``. Pass ``manager`` to
    share one table manager with another adapter in the same process (its subscribers must be in
    place before the first adapter starts it: ``start()`` restores and announces tables once).
    """
    from bot.config import ConfigError
    from bot.manager import TableManager
    from bot.settings import ManagerSettings, tune_gc
    from storage import open_repository

    if not config.discord_token:
        raise ConfigError("MAJLIS_DISCORD_TOKEN is not set")
    redirect(config.discord_api_base, config.discord_gateway)
    repo = None
    if manager is None:
        repo = await open_repository(config.db, durability=config.durability)
        settings = ManagerSettings(ai_delay=config.ai_delay, default_turn_seconds=config.turn_seconds,
                                   chat_prefixes=("dc:",))
        manager = TableManager(repo, settings=settings)
    from bot.web import service as web

    front = await web.attach(manager, config)  # MAJLIS_WEB_URL: "Watch" and "Open table" links
    if front is not None and "presenter" not in options:
        from bot.presenter import Presenter

        def presenter(m: TableManager, transport: Any) -> Presenter:
            return Presenter(m, {"dc": transport}, table_link=front.watch_button)

        options["presenter"] = presenter
    client = build_client(manager, sharded=bool(config.section("discord").get("sharded", False)), **options)
    if front is not None:
        client.handlers.web_link = front.discord_button
    tune_gc()  # fewer, later collections keep the p99 of an action low with many live tables
    try:
        async with client:
            await client.start(config.discord_token)
    finally:
        await web.detach(front)
        if repo is not None:
            await repo.close()
