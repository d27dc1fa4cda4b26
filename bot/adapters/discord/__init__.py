"""The Discord adapter: slash commands, the live table message, hands by DM and ephemeral replies.

``majlis run --discord`` runs it through :mod:`bot.app.runner`; tests and the benchmark use
:func:`build_client` with their own table manager::

    client = build_client(manager, guild_ready_timeout=0.1)
    await client.start(token)

A REST proxy or a local fake is reached by :func:`redirect` (``MAJLIS_DISCORD_API_BASE``,
``MAJLIS_DISCORD_GATEWAY``): discord.py has no per-client base URL, so this is process-wide.
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl

from bot.adapters.discord.client import MajlisClient, MajlisShardedClient, build_client

__all__ = ["MajlisClient", "MajlisShardedClient", "build_client", "redirect"]


def redirect(api_base: str | None = None, gateway: str | None = None) -> tuple[str, yarl.URL]:
    """Point discord.py's REST calls and gateway elsewhere; returns the old values to restore."""
    old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return old

