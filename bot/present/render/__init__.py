"""Rendering: engine views and events → platform-neutral :class:`OutMessage` (text + buttons).

Every function is pure, takes a translator (``bot.present.i18n.translator``) and never reads a hidden hand:
the public table uses ``snapshot.public`` only; a private hand uses the seat's own view.
"""

from __future__ import annotations

from bot.present.render.boards import render_leaderboard, render_scores, render_stats
from bot.present.render.cards import card_label, card_name, contract_name, game_name, rank_name, suit_name
from bot.present.render.errors import render_error
from bot.present.render.hand import render_hand, render_turn_ping, render_turn_warning
from bot.present.render.help import render_help
from bot.present.render.lobby import render_lobby
from bot.present.render.message import Button, OutMessage
from bot.present.render.rules_text import render_rules
from bot.present.render.summary import render_dm_failed, render_notices
from bot.present.render.table import render_table

__all__ = [
    "Button", "OutMessage", "card_label", "card_name", "contract_name", "game_name", "rank_name",
    "render_dm_failed", "render_error", "render_hand", "render_help", "render_leaderboard", "render_lobby",
    "render_notices", "render_rules", "render_scores", "render_stats", "render_table", "render_turn_ping",
    "render_turn_warning", "suit_name",
]
