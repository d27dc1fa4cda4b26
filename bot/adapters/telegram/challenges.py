"""``/challenge`` in a Telegram group: the duplicate challenge (bot/core/challenges.py).

    /challenge new <game> [deals] [days] [season=on]
                                           an admin starts one (8 deals, 3 days by default;
                                           season=on: it counts in the group's season)
    /challenge play                        your current deal, dealt in your private chat with the bot
    /challenge                             the challenge; once you played every deal, your deals
                                           against the field are sent to your private chat
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram import Update
from telegram.ext import ContextTypes

from bot.adapters.telegram import texts
from bot.adapters.telegram.common import person_of
from bot.core.commands import PlayChallenge, ShowChallenge, StartChallenge
from bot.core.identity import ascii_int, dm_dest
from bot.present.i18n import translator
from bot.present.render.challenges import render_challenge, render_comparisons

if TYPE_CHECKING:
    from bot.adapters.telegram.handlers import Handlers

DEFAULT_BOARDS, DEFAULT_DAYS = 8, 3


async def challenge(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/challenge …`` (see the module)."""
    where = h._where(update)
    if where is None:
        return
    _, user, dest = where
    args = [a.lower() for a in (context.args or [])]
    word = args[0] if args else ""
    now = h.s.manager.clock.now()
    if word == "new":
        flags = [a for a in args[1:] if a.startswith("season=")]
        args = [a for a in args if not a.startswith("season=")]
        word_on = flags[-1].removeprefix("season=") if flags else "off"
        season = word_on in texts.ON_WORDS
        bad_flag = word_on not in texts.ON_WORDS + texts.OFF_WORDS
        game = texts.GAME_ALIASES.get(args[1]) if len(args) > 1 else None
        boards = ascii_int(args[2]) if len(args) > 2 else DEFAULT_BOARDS
        days = ascii_int(args[3]) if len(args) > 3 else DEFAULT_DAYS
        if game is None or boards is None or days is None or bad_flag:
            t = await h.chat_t(dest, user)
            await h.reply(dest, t.gettext("Start a challenge: /challenge new <game> [deals] [days] [season=on], for "
                                          "example /challenge new tarneeb41 8 3 (Tarneeb 41, classic Tarneeb or "
                                          "Trix); season=on counts it in the group's season."))
            return
        await h._command(update, context, StartChallenge(game, boards, days, season))  # the notices post it
        return
    if word == "play":
        snap = await h._command(update, context, PlayChallenge())
        if snap is not None:
            t = await h.chat_t(dest, user)
            await h.reply(dest, t.gettext("{name}, your deal is waiting in our private chat.", name=user.full_name))
        return
    view = await h._command(update, context, ShowChallenge())
    if view is None:
        return
    await h.reply(dest, render_challenge(view, await h.chat_t(dest, user), now))
    if view.mine is not None:  # the field's results only to the person, in private
        record = await h.s.manager.player(person_of(user))
        t = translator(record.lang or view.challenge.lang)
        await h.reply(dm_dest(record.player_id), render_comparisons(view, t, now))
