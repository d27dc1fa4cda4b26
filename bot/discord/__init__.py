"""The Discord adapter: slash commands, the live table message, hands by DM and ephemeral replies.

``majlis run --discord`` runs it through :mod:`bot.runner`; tests and the benchmark use
:func:`build_client` with their own table manager::

    client = build_client(manager, guild_ready_timeout=0.1)
    await client.start(token)

A REST proxy or a local fake is reached by :func:`redirect` (``MAJLIS_DISCORD_API_BASE``,
``MAJLIS_DISCORD_GATEWAY``): discord.py has no per-client base URL, so this is process-wide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord.gateway
import discord.http
import yarl

from bot.discord.client import MajlisClient, MajlisShardedClient, build_client

if TYPE_CHECKING:
    from bot.config import Config

__all__ = ["MajlisClient", "MajlisShardedClient", "build_client", "redirect", "run"]


def redirect(api_base: str | None = None, gateway: str | None = None) -> tuple[str, yarl.URL]:
    """Point discord.py's REST calls and gateway elsewhere; returns the old values to restore."""
    old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return old


async def run(config: Config) -> None:
    """``majlis run --discord``: run until SIGINT/SIGTERM (see :mod:`bot.runner`, which shares one
    repository and one table manager between the bots of a process)."""
    from bot.config import ConfigError
    from bot.runner import run as run_bots

    if not config.discord_token:
        raise ConfigError("MAJLIS_DISCORD_TOKEN is not set")
    await run_bots(config, telegram=False, discord=True)
