"""The commands that work at every prompt of ``majlis play`` (``h`` ``?`` ``r`` ``s`` ``l`` ``q``), the
answer to an entry that is none of the choices, and the AI's choice for ``--auto``."""

from __future__ import annotations

import asyncio
import random
from typing import Any, cast

from bot.adapters.terminal.choices import Menu
from bot.adapters.terminal.console import Quit
from bot.adapters.terminal.help import help_text
from bot.adapters.terminal.screen import Screen
from bot.core.model import TableSnapshot
from bot.core.views import View
from bot.present.i18n import T
from bot.present.render.common import score_lines
from bot.present.render.rules_text import render_rules
from bot.present.render.table import last_trick_line


def unknown_text(line: str, menu: Menu, t: T) -> str:
    """What to say to an entry that is no choice (nothing is played)."""
    entry = line.strip()[:20]
    if menu.is_bid:
        return t.gettext("“{entry}” is not a bid. Type a number from the list, or h for help.", entry=entry)
    return t.gettext("“{entry}” is not one of the choices. Type the letter shown before it, or h for help.",
                     entry=entry)

def run_command(screen: Screen, name: str, snap: TableSnapshot, seat: int, menu: Menu, t: T) -> None:
    """A prompt command: help, rules, scores, the last trick; ``quit`` raises :class:`Quit`."""
    if name == "help":
        screen.panel(help_text(menu, t), title=t.gettext("Help"))
    elif name == "rules":
        screen.panel(render_rules(snap.table.game, t, options=snap.table.options),
                          title=t.gettext("Rules"))
    elif name == "scores":
        pub = snap.public or {}
        screen.panel("\n".join(score_lines(snap, pub.get("scores") or {}, snap.table.game, t, seat)),
                          title=t.gettext("Scores"))
    elif name == "last":
        last = (snap.public or {}).get("last_trick")
        if last and last.get("cards"):
            screen.line(last_trick_line(snap, last, t, seat))
        else:
            screen.line(t.gettext("No trick has been taken yet in this deal."))
    elif name == "quit":
        raise Quit


async def auto_choice(level: str, snap: TableSnapshot, view: View) -> str:
    """``--auto``: the AI of ``level`` decides for the player's seat (a heavy one in a thread)."""
    from ai import ai_player, is_heavy

    player = ai_player(level)
    rng = random.Random(f"{snap.table.seed}:{snap.table.version}")
    plain = cast(dict[str, Any], view)  # back to the engine's dict, which the AI reads (ai/ knows no bot types)
    if is_heavy(player):
        decision = await asyncio.to_thread(player.decide, plain, snap.table.game, rng)
    else:
        decision = player.decide(plain, snap.table.game, rng)
    legal = list(view.get("legal") or [])
    return decision if decision in legal else legal[0]
