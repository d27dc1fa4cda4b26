"""A tournament's one message in its group, posted when it is made and edited after every change
(bot/core/tournaments.py tells this process of the changes it writes). It goes through the chat's
outbox under :func:`~bot.present.keys.tournament_key` (edits waiting for it are merged); its message
id is kept in meta under the same key, so that another process, or this one after a restart, edits
the same message."""

from __future__ import annotations

import logging

from bot.core.tournaments import Tournaments
from bot.present.i18n import translator
from bot.present.keys import tournament_key
from bot.present.outbox.hub import OutboxHub
from bot.present.outbox.types import EDIT
from bot.present.render.tournaments import render_tournament
from storage.tournaments import Tournament

log = logging.getLogger(__name__)


class Brackets:
    """The tournament messages of the chats of one platform (``prefix``, ``"tg:"``) through ``hub``."""

    def __init__(self, tournaments: Tournaments, hub: OutboxHub, prefix: str) -> None:
        self.tournaments = tournaments
        self.hub = hub
        self.prefix = prefix
        hub.watch_ids("tournament:", self._stored)
        tournaments.on_change(self.show)

    async def show(self, tour: Tournament) -> None:
        """Post or edit the tournament's message in its chat's language."""
        chat = tour.chat_id
        if not chat.startswith(self.prefix):
            return
        key = tournament_key(tour.tournament_id)
        if key not in self.hub.outbox(chat).message_ids:
            stored = await self.tournaments.repo.get_meta(key)
            if stored:
                self.hub.remember(chat, key, stored)
        prefs = self.tournaments.manager.prefs
        t = translator(*await prefs.public_lang(chat))
        self.hub.put(chat, key, render_tournament(tour, t, self.tournaments.manager.clock.now()), EDIT)

    async def _stored(self, chat_id: str, key: str, message_id: str | None) -> None:
        try:
            await self.tournaments.repo.delete_meta(key)
            if message_id is not None:
                await self.tournaments.repo.set_meta_if_absent(key, message_id)
        except Exception:
            log.exception("keeping the message of %s in %s failed", key, chat_id)
