"""``majlis discord emojis``: upload the 52 card emojis to the Discord application, once.

The bot then shows cards as pictures in the table message and the hands (bot/adapters/discord/emojis.py).
It logs in with ``MAJLIS_DISCORD_TOKEN`` (REST only, no gateway), uploads the cards the application
lacks and says how many it uploaded and how many were there already; running it again uploads nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from bot.app.cli.common import cli_lang, fail
from bot.app.config import Config, load_config
from bot.present.i18n import T, translator


def add_parser(sub: Any) -> None:
    """Add ``discord`` and its ``emojis`` command to ``majlis``'s subparsers."""
    dc = sub.add_parser("discord", help="Discord set-up: the card emojis")
    actions = dc.add_subparsers(dest="discord_command", required=True, metavar="ACTION")
    emojis = actions.add_parser("emojis", help="upload the 52 card emojis to the application (once)")
    emojis.add_argument("--lang", choices=("ar", "en"), help="language of the messages")


def cmd_discord(args: argparse.Namespace) -> int:
    """Run ``majlis discord emojis``."""
    cfg = load_config()  # a ConfigError: one line (bot/app/cli/main.py)
    t = translator(cli_lang(args.lang, cfg.lang))
    if not cfg.discord_token:
        return fail(t.gettext("No token is configured. Set {variables} ({where}).", variables="MAJLIS_DISCORD_TOKEN",
                              where=t.gettext("or put them in {path}",
                                              path=str(cfg.config_file or cfg.data_dir / "majlis.toml"))), 1)
    try:
        import PIL  # noqa: F401
    except ImportError:
        return fail(t.gettext("Drawing the cards needs Pillow: {command}", command="pip install 'majlis[emojis]'"), 1)
    return asyncio.run(_emojis(cfg, t))


async def _emojis(cfg: Config, t: T) -> int:
    import discord

    from bot.adapters.discord import redirect
    from bot.adapters.discord.emojis import upload_cards

    assert cfg.discord_token
    old = redirect(cfg.discord_api_base, None)
    client = discord.Client(intents=discord.Intents.none())
    try:
        async with client:
            await client.login(cfg.discord_token)
            try:
                uploaded, present = await upload_cards(client)
            except ValueError:
                return fail(t.gettext("The application has too many emojis for the 52 cards (Discord allows "
                                      "{limit}).", limit=2000), 1)
    finally:
        discord.http.Route.BASE = old[0]
    print(t.ngettext("{n} card emoji uploaded.", "{n} card emojis uploaded.", uploaded))
    print(t.ngettext("{n} card emoji was there already.", "{n} card emojis were there already.", present))
    sys.stdout.flush()
    return 0
