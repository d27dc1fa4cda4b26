"""A tournament's one message in its group, posted when it is made and edited after every change
(bot/core/tournaments.py tells this process of the changes it writes). It goes through the chat's
outbox under :func:`~bot.present.keys.tournament_key` (edits waiting for it are merged); its message
id is kept in meta under the same key, so that another process, or this one after a restart, edits
the same message.

A flag is told to the organiser in private (where the bot may write to them; else in the group: it
holds nothing private) by the process that wrote it, once: who flagged which match and why, the
recorded result, each deal's result, and the replay's signed link when the web table is configured.

A match's players are pinged when it is called and when its table opens (bot/core/tournaments.py
``on_match``): each in private, unless they turned it off (``/notify matches off``,
bot/core/notify.py) or the bot may not write to them (their private chat refused it: ``dm_ok``
False, or they blocked it), saying which match, where (its thread or topic,
bot/core/venues.py) and to press Ready; once the table is open, with a signed link to their seat on
the web table when it runs. In public nobody is mentioned but the match's people who asked for table
calls (``/notify tables on``) in a chat that allows them (``/settings notify=on``, bot/core/notify.py):
one message in the match's venue (the group when it has none) names them."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.identity import dm_dest
from bot.core.tournaments import Tournaments, match_seats
from bot.core.venues import Venue
from bot.present.i18n import T, translator
from bot.present.keys import tournament_key
from bot.present.outbox.hub import OutboxHub
from bot.present.outbox.types import EDIT, NEW
from bot.present.render.message import Button, OutMessage
from bot.present.render.tournaments import (
    deal_results,
    match_label,
    render_flag_notice,
    render_match_call,
    render_match_ping,
    render_tournament,
)
from storage.tournaments import TMatch, Tournament

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
        tournaments.on_flag(self.flagged)
        tournaments.on_match(self.match_ping)

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
        await self.tournaments.venues.load(tour)  # the threads or topics its message names
        self.hub.put(chat, key, self.message(tour, t), EDIT)

    def message(self, tour: Tournament, t: T) -> OutMessage:
        """The tournament's message now, with its web page's button when the web table runs."""
        link = self.link(tour, t) if self.link is not None else None
        return render_tournament(tour, t, self.tournaments.manager.clock.now(), link,
                                 self.tournaments.venues.known(tour))

    async def match_ping(self, tour: Tournament, m: TMatch, kind: str, venue: Venue | None) -> None:
        """Ping the players of match ``m``, called or with its table open (see the module)."""
        chat = tour.chat_id
        if not chat.startswith(self.prefix):
            return
        manager = self.tournaments.manager
        prefs, now = manager.prefs, manager.clock.now()
        seat_of = {pid: seat for seat, pid in match_seats(tour, m).items()}
        everyone = list(seat_of)
        names = {p.player_id: p.name for p in tour.players}
        for pid in everyone:
            dest = dm_dest(pid)
            record = await prefs.player_record(pid)
            if (record is not None and record.dm_ok is False) or self.hub.is_blocked(dest) \
                    or not await prefs.match_pings(pid):  # /notify matches off
                continue
            t = translator(*await prefs.private_lang(pid, chat))
            button = None
            seat_link = self.tournaments.seat_link
            if kind == "table" and m.table_id is not None and seat_link is not None:
                found = seat_link(m.table_id, seat_of[pid], pid)
                if found is not None:
                    button = Button(t.gettext("Open table"), url=found[0], web_app=found[1], style="primary")
            stop = "/notify matches off" if self.prefix == "tg:" else "/majlis notify matches: False"
            self.hub.put(dest, None, render_match_ping(tour, m, kind, venue, t, now, button, stop), NEW)
        # in public: only the match's people who asked for table calls, where the chat allows them
        where = venue.chat_id if venue is not None and kind == "table" else chat
        if not (await prefs.chat(chat)).notify:
            return
        subscribed = {pid for pid, _ in await prefs.subscribers(chat)}
        people = [(pid, names.get(pid, pid)) for pid in everyone if pid in subscribed]
        if people:
            t = translator(*await prefs.public_lang(chat))
            self.hub.put(where, None, render_match_call(tour, m, kind, people, t), NEW)

    async def flagged(self, tour: Tournament, m: TMatch) -> None:
        """Tell the organiser of a flag on match ``m`` (see the module)."""
        chat = tour.chat_id
        if not chat.startswith(self.prefix):
            return
        repo, prefs = self.tournaments.repo, self.tournaments.manager.prefs
        dest = dm_dest(tour.organiser)
        record = await prefs.player_record(tour.organiser)
        private = (record is None or record.dm_ok is not False) and not self.hub.is_blocked(dest)
        lang, digits = await (prefs.private_lang(tour.organiser, chat) if private else prefs.public_lang(chat))
        t = translator(lang, digits)
        deals: list[str] = []
        url = None
        if m.table_id is not None:
            table = await repo.get_table(m.table_id)
            if table is not None:
                deals = deal_results(table, await repo.actions(m.table_id), t)
            link = self.tournaments.replay_link
            url = link(m.table_id) if link is not None else None
        label = match_label(m, t)
        command = (f"/tournament decide {label}" if self.prefix == "tg:"
                   else f"/majlis tournament action:decide match:{label}")
        self.hub.put(dest if private else chat, None, render_flag_notice(tour, m, deals, url, command, t), NEW)

    async def _stored(self, chat_id: str, key: str, message_id: str | None) -> None:
        try:
            await self.tournaments.repo.delete_meta(key)
            if message_id is not None:
                await self.tournaments.repo.set_meta_if_absent(key, message_id)
        except Exception:
            log.exception("keeping the message of %s in %s failed", key, chat_id)
