"""``/majlis season`` and ``/majlis season_settings`` in a Discord server: the server's season table
and one's own rank (only for the asker), all time, the champions, ending a season by hand (Manage
Server, confirmed by giving the season's number), and the season settings."""

from __future__ import annotations

from bot.adapters.discord.base import HandlerBase, Interaction
from bot.adapters.discord.common import _error, chat_of
from bot.core.commands import ChangeSeason, EndSeason, ShowSeason, ShowSeasonHistory
from bot.core.errors import Refusal, TableError
from bot.present.render.seasons import (
    render_end_prompt,
    render_history,
    render_season,
    render_season_settings,
    render_summary,
)

GAMES = ("tarneeb41", "tarneeb", "trix")


async def season(h: HandlerBase, interaction: Interaction, game: str | None, view: str,
                 confirm: int | None) -> None:
    """``/majlis season [game] [view] [confirm]``: ``view`` is ``table`` (this season), ``all``,
    ``history``, ``standings`` (the channel's standings message, posted anew and kept up to date) or
    ``end`` (with ``confirm``: the number of the season to end)."""
    public = view == "end" and confirm is not None  # a season's summary is for the whole channel
    await h.ack(interaction, ephemeral=not public)
    t = await h.translator_for(interaction)
    try:
        if view == "history":
            champions = await h.dispatch(ShowSeasonHistory(), interaction)
            text = render_history(champions, t).text
        elif view == "end" and confirm is not None:
            text = render_summary(await h.dispatch(EndSeason(confirm), interaction), t).text
        elif view == "standings":
            await h.dispatch(ShowSeasonHistory(), interaction)  # who may ask from where
            if h.standings is None:
                raise TableError(Refusal.INTERNAL)
            await h.standings.post(chat_of(interaction))
            text = t.gettext("The standings are posted in this channel; they are updated after every counted match.")
        elif view == "end":
            st = await h.dispatch(ShowSeason(GAMES[0]), interaction)
            assert st.season is not None
            text = render_end_prompt(st.season, t, f"/majlis season view:end confirm:{st.season.number}").text
        else:
            if game is None:
                snap = h.manager.table_in_chat(chat_of(interaction))
                game = snap.table.game if snap else GAMES[0]
            st = await h.dispatch(ShowSeason(game, all_time=view == "all"), interaction)
            text = render_season(st, t, h.manager.clock.now()).text
    except TableError as e:
        text = _error(e.code, e.params, t)
    await h.answer(interaction, text)


async def season_settings(h: HandlerBase, interaction: Interaction, length: int | None, least: int | None,
                          ai: bool | None) -> None:
    """``/majlis season_settings [length] [min] [ai]``: read them, or (Manage Server) change them."""
    await h.ack(interaction)
    t = await h.translator_for(interaction)
    try:
        league = await h.dispatch(ChangeSeason(length, least, ai), interaction)
    except TableError as e:
        await h.answer(interaction, _error(e.code, e.params, t))
        return
    await h.answer(interaction, render_season_settings(league, t).text)
