"""A tournament's one message in its group, posted when it is made and edited after every change
(bot/core/tournaments.py tells this process of the changes it writes). It goes through the chat's
outbox under :func:`~bot.present.keys.tournament_key` (edits waiting for it are merged); its message
id is kept in meta under the same key, so that another process, or this one after a restart, edits
the same message."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.tournaments import Tournaments
from bot.present.i18n import T, translator
from bot.present.keys import tournament_key
from bot.present.outbox.hub import OutboxHub
from bot.present.outbox.types import EDIT
from bot.present.render.message import Button, OutMessage
from bot.present.render.tournaments import render_tournament
from storage.tournaments import Tournament

log = logging.getLogger(__name__)


class Brackets:
    """The tournament messages of the chats of one platform (``prefix``, ``"tg:"``) through ``hub``."""

    def __init__(self, tournaments: Tournaments, hub: OutboxHub, prefix: str,
                 link: Callable[[Tournament, T], Button | None] | None = None) -> None:
        self.tournaments = tournaments
        self.hub = hub
        self.prefix = prefix
        #: The button to the tournament's web page (bot/adapters/web/service.py), when the web runs.
        self.link = link
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
        self.hub.put(chat, key, self.message(tour, t), EDIT)

    def message(self, tour: Tournament, t: T) -> OutMessage:
        """The tournament's message now, with its web page's button when the web table runs."""
        link = self.link(tour, t) if self.link is not None else None
        return render_tournament(tour, t, self.tournaments.manager.clock.now(), link)

    async def _stored(self, chat_id: str, key: str, message_id: str | None) -> None:
        try:
            await self.tournaments.repo.delete_meta(key)
            if message_id is not None:
                await self.tournaments.repo.set_meta_if_absent(key, message_id)
        except Exception:
            log.exception("keeping the message of %s in %s failed", key, chat_id)
