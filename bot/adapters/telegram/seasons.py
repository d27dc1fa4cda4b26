"""``/season`` in a Telegram group: the season table and one's rank, all time, the champions, the
settings and ending a season by hand (admins, confirmed by sending the season's number).

    /season                     the chat's standings message: posted anew (the one before deleted),
                                then edited after every counted match and when the season ends
    /season [game]              this season's table of one game (of each without a bot's outbox), with your own rank
    /season all [game]          the all-time table
    /season history             the champions of every season
    /season end [number]        ask to end the running season; with its number: end it (admins)
    /season settings [length=<days>|month] [min=<matches>] [ai=on|off]   (admins to change)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram import Update
from telegram.ext import ContextTypes

from bot.adapters.telegram import texts
from bot.core.commands import ChangeSeason, EndSeason, ShowSeason, ShowSeasonHistory
from bot.core.identity import ascii_int
from bot.present.render.seasons import (
    render_end_prompt,
    render_history,
    render_season,
    render_season_settings,
    render_summary,
)

if TYPE_CHECKING:
    from bot.adapters.telegram.handlers import Handlers



async def season(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/season …`` (see the module)."""
    where = h._where(update)
    if where is None:
        return
    _, user, dest = where
    args = [a.lower() for a in (context.args or [])]
    word = args[0] if args else ""
    if word == "history":
        champions = await h._command(update, context, ShowSeasonHistory())
        if champions is not None:
            await h.reply(dest, render_history(champions, await h.chat_t(dest, user)))
        return
    if word == "end":
        await _end(h, update, context, args[1:])
        return
    if word == "settings":
        await _settings(h, update, context, args[1:])
        return
    if not args and h.s.standings is not None:  # the chat's standings message, kept and edited in place
        if await h._command(update, context, ShowSeasonHistory()) is not None:  # who may ask from where
            await h.s.standings.post(dest)
        return
    all_time = word == "all"
    rest = args[1:] if all_time else args
    wanted = texts.GAME_ALIASES.get(rest[0]) if rest else None
    games = (wanted,) if wanted else texts.GAMES
    parts: list[str] = []
    for game in games:
        st = await h._command(update, context, ShowSeason(game, all_time=all_time))
        if st is None:
            return
        if st.lines or (game == games[-1] and not parts):
            t = await h.chat_t(dest, user)
            parts.append(render_season(st, t, h.s.manager.clock.now()).text)
    await h.reply(dest, "\n\n".join(parts))


async def _end(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE, args: list[str]) -> None:
    where = h._where(update)
    assert where is not None
    _, user, dest = where
    number = ascii_int(args[0]) if args else None
    if number is None:  # the confirmation is asked first: it names the season it would end
        st = await h._command(update, context, ShowSeason(texts.GAMES[0]))
        if st is not None and st.season is not None:
            t = await h.chat_t(dest, user)
            await h.reply(dest, render_end_prompt(st.season, t, f"/season end {st.season.number}"))
        return
    summary = await h._command(update, context, EndSeason(number))
    if summary is not None:
        await h.reply(dest, render_summary(summary, await h.chat_t(dest, user)))


async def _settings(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE, args: list[str]) -> None:
    where = h._where(update)
    assert where is not None
    _, user, dest = where
    length: int | None = None
    least: int | None = None
    ai: bool | None = None
    for arg in args:
        key, _, value = arg.partition("=")
        if key == "length":
            length = 0 if value == "month" else ascii_int(value)
            if length is None:
                length = -1  # refused by the core with the allowed range
        elif key == "min":
            least = ascii_int(value) or -1
        elif key == "ai" and value in texts.ON_WORDS + texts.OFF_WORDS:
            ai = value in texts.ON_WORDS
        else:
            length = -1
    league = await h._command(update, context, ChangeSeason(length, least, ai))
    if league is not None:
        await h.reply(dest, render_season_settings(league, await h.chat_t(dest, user)))
