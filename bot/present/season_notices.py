"""What a chat is told of its league's seasons: the summary of a season that ended, and the chat's
standings message, kept and edited in place.

Each process closes the seasons that ended (:meth:`bot.core.seasons.Seasons.tick`); storage lets one
process close each season, and only that one hears of it, so a summary is posted once whatever the
number of processes. The summary goes to the chat of the season's last match (a Discord server's
summary to the channel where it was last played), in that chat's language, as a new message.

The standings message (:class:`Standings`): ``/season`` in a chat posts it (the one before, if any,
is deleted, so a chat has one); after every counted match of the league and when a season ends or
closes, every chat of the league that has one gets it edited to the new table. It goes through the
chat's outbox under :data:`~bot.present.keys.STANDINGS_KEY` (edits waiting for it are merged, and
the chat's budget holds); its message id is kept in meta (:func:`~bot.present.keys.standings_meta_key`),
so that another process, or this one after a restart, edits the same message.
"""

from __future__ import annotations

import logging

import engine
from bot.core.model import TableUpdate
from bot.core.queries import TableQueries
from bot.core.seasons import Seasons
from bot.present.i18n import translator
from bot.present.keys import STANDINGS_KEY, standings_meta_key
from bot.present.outbox.hub import OutboxHub
from bot.present.outbox.types import EDIT, NEW
from bot.present.render.message import OutMessage
from bot.present.render.seasons import render_standings, render_summary
from storage.records import SeasonSummary
from storage.repository import Repository

log = logging.getLogger(__name__)


class Standings:
    """The standings messages of the chats of one platform (``prefix``, ``"tg:"``) through ``hub``."""

    def __init__(self, seasons: Seasons, repo: Repository, hub: OutboxHub, prefix: str, *,
                 stats: str = "/stats") -> None:
        self.seasons = seasons
        self.repo = repo
        self.hub = hub
        self.prefix = prefix
        self.stats = stats
        self._leagues: dict[str, str] = {}  # chat -> its league (a chat never changes league)
        hub.watch_ids(STANDINGS_KEY, self._stored)

    async def _league(self, chat_id: str) -> str:
        league = self._leagues.get(chat_id)
        if league is None:
            league = self._leagues[chat_id] = await self.seasons.league(chat_id)
        return league

    async def render(self, chat_id: str) -> OutMessage:
        """The chat's standings now, in the chat's language."""
        t = translator(*await self.seasons.prefs.public_lang(chat_id))
        tables = [await self.seasons.standings(chat_id, game, "") for game in engine.GAME_IDS]
        season = next((st.season for st in tables if st.season is not None), None)
        champions = [c for c in await self.seasons.history(chat_id)
                     if season is not None and c.number == season.number - 1]
        return render_standings(tables, t, self.seasons.clock.now(), champions, stats=self.stats)

    async def post(self, chat_id: str) -> None:
        """``/season``: the chat's standings as a new message, the one shown before deleted."""
        await self._remember(chat_id)
        self.hub.replace(chat_id, STANDINGS_KEY, await self.render(chat_id))

    async def refresh(self, league: str) -> None:
        """Edit the standings message of every chat of ``league`` that has one."""
        kept = await self.repo.meta_prefixed(standings_meta_key(league, ""))
        for key, message_id in sorted(kept.items()):
            chat_id = key[len(standings_meta_key(league, "")):]
            if not chat_id.startswith(self.prefix):
                continue
            box = self.hub.outbox(chat_id)
            if STANDINGS_KEY not in box.message_ids:
                self.hub.remember(chat_id, STANDINGS_KEY, message_id)
            self.hub.put(chat_id, STANDINGS_KEY, await self.render(chat_id), EDIT)

    async def _remember(self, chat_id: str) -> None:
        """Know the chat's stored standings message (after a restart, or posted by another process)."""
        if STANDINGS_KEY in self.hub.outbox(chat_id).message_ids:
            return
        stored = await self.repo.get_meta(standings_meta_key(await self._league(chat_id), chat_id))
        if stored:
            self.hub.remember(chat_id, STANDINGS_KEY, stored)

    async def _stored(self, chat_id: str, key: str, message_id: str | None) -> None:
        """The outbox posted (or deleted) the chat's standings message: keep its id for every process."""
        meta = standings_meta_key(await self._league(chat_id), chat_id)
        try:
            await self.repo.delete_meta(meta)
            if message_id is not None:
                await self.repo.set_meta_if_absent(meta, message_id)
        except Exception:
            log.exception("keeping the standings message of %s failed", chat_id)

    async def on_update(self, update: TableUpdate) -> None:
        """After a counted match (its result carries rating changes): the league's standings change."""
        chat_id = update.snapshot.table.chat_id
        if not chat_id.startswith(self.prefix):
            return
        if any(e["type"] == "match_recorded" and e.get("ratings") for e in update.events):
            try:
                await self.refresh(await self._league(chat_id))
            except Exception:
                log.exception("updating the standings of %s failed", chat_id)


def announce_seasons(seasons: Seasons, hub: OutboxHub, prefix: str, *, tables: TableQueries | None = None,
                     repo: Repository | None = None, stats: str = "/stats") -> Standings | None:
    """Post every season summary of a chat whose id starts with ``prefix`` (``"tg:"``) through ``hub``;
    with ``tables`` and ``repo``, keep the chats' standings messages too (returned)."""
    async def post(summary: SeasonSummary) -> None:
        chat = summary.chat_id
        if chat is None or not chat.startswith(prefix):
            return
        t = translator(*await seasons.prefs.public_lang(chat))
        hub.put(chat, None, render_summary(summary, t), NEW)

    seasons.on_closed(post)
    if tables is None or repo is None:
        return None
    standings = Standings(seasons, repo, hub, prefix, stats=stats)
    tables.subscribe(standings.on_update)
    seasons.on_ended(standings.refresh)
    return standings
