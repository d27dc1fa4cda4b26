"""Where a tournament's matches are played: their venues (docs/tournaments.md, "Venues").

A match is played in a **venue**: a thread of the tournament's Discord channel, a topic of its
Telegram group when the group is a forum, else the group itself (one match after another: a chat has
one live table). A venue is a chat of its own for the table manager (``"dc:<thread>"``,
``"tg:<group>/<topic>"``), so the matches of a round are played at the same time, each in its venue.

The platform opens venues: its adapter registers a :data:`VenueMaker` (bot/adapters/discord/venues.py,
bot/adapters/telegram/venues.py). A maker returns None where the chat cannot have venues (a
Telegram group that is not a forum) and raises :class:`VenueRefused` where the bot lacks the right
(it may not create threads or topics there): the tournament then plays in the group, and says so
once (its audit line ``venues_off``, shown on its message).

Nothing new is stored in the tournament (no migration): a venue is kept in meta, written once
(``set_meta_if_absent``, so of two processes opening the same match's venue one wins and the other
uses it), and every venue chat remembers its tournament's chat, so that the end of a table played
in a thread or topic is recorded by its tournament:

- ``venue:<tournament>:<round>:<slot>``: the venue, as JSON (``chat``, ``name``, ``url``);
- ``venue-home:<venue chat>``: the tournament's chat.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.core.cache import TTLCache
from bot.core.identity import platform_of
from storage.tournaments import MatchStatus, TMatch, Tournament

log = logging.getLogger(__name__)

#: Venues and venue chats remembered by a process (read again from meta when forgotten).
MAX_KNOWN = 4096


@dataclass(frozen=True, slots=True)
class Venue:
    """Where a match is played: ``chat_id`` its table's chat; ``name`` the thread's or topic's name;
    ``url`` a link to it where the platform has one."""

    chat_id: str
    name: str = ""
    url: str | None = None


class VenueRefused(Exception):
    """The platform refused to open a venue (the bot may not create threads or topics there)."""


#: Opens the venue of a match of a tournament (see the module); None: the chat has none.
VenueMaker = Callable[[Tournament, TMatch], Awaitable[Venue | None]]
#: Closes (archives) a venue once its match is decided; failures are only logged.
VenueCloser = Callable[[Venue], Awaitable[None]]


def _key(tournament_id: int, m: TMatch) -> str:
    return f"venue:{tournament_id}:{m.round}:{m.slot}"


def _home_key(chat_id: str) -> str:
    return f"venue-home:{chat_id}"


class Venues:
    """The venues of every tournament, through the platforms' makers (registered by the adapters)."""

    def __init__(self, repo: Any) -> None:
        self.repo = repo
        self._makers: dict[str, VenueMaker] = {}
        self._closers: dict[str, VenueCloser] = {}
        self._known: TTLCache[str, Venue] = TTLCache(MAX_KNOWN)
        self._homes: TTLCache[str, str] = TTLCache(MAX_KNOWN)

    def register(self, platform: str, maker: VenueMaker, closer: VenueCloser | None = None) -> None:
        """Open the venues of ``platform``'s tournaments (``"tg"``, ``"dc"``) with ``maker``."""
        self._makers[platform] = maker
        if closer is not None:
            self._closers[platform] = closer

    def can_open(self, t: Tournament) -> bool:
        """Whether this process opens venues for the tournament's platform."""
        return platform_of(t.chat_id) in self._makers

    async def of(self, t: Tournament, m: TMatch) -> Venue | None:
        """The match's venue if one was opened (by any process), else None (it plays in the group)."""
        key = _key(t.tournament_id, m)
        hit = self._known.get(key)
        if hit is None:
            raw = await self.repo.get_meta(key)
            hit = _load(raw) if raw else None
            if hit is not None:
                self._known.put(key, hit)
        return hit

    def known(self, t: Tournament) -> dict[tuple[int, int], Venue]:
        """The venues of ``t``'s matches this process knows of (for its message; see :meth:`load`)."""
        out: dict[tuple[int, int], Venue] = {}
        for m in t.matches:
            v = self._known.get(_key(t.tournament_id, m))
            if v is not None:
                out[(m.round, m.slot)] = v
        return out

    async def load(self, t: Tournament) -> dict[tuple[int, int], Venue]:
        """The venues of ``t``'s matches being called or played (read from meta when not known)."""
        for m in t.matches:
            if m.table_id is not None or m.status in (MatchStatus.CALLED, MatchStatus.PLAYING):
                await self.of(t, m)
        return self.known(t)

    async def open(self, t: Tournament, m: TMatch) -> Venue | None:
        """The match's venue, opened now if it has none; None: the chat has no venues. Raises
        :class:`VenueRefused` when the platform refuses (see the module)."""
        found = await self.of(t, m)
        if found is not None:
            return found
        maker = self._makers.get(platform_of(t.chat_id))
        if maker is None:
            return None
        try:
            made = await maker(t, m)
        except VenueRefused:
            raise
        except Exception:  # the platform failed this time (not a refusal): this match plays in the group
            log.warning("opening a venue for tournament %s failed", t.tournament_id, exc_info=True)
            return None
        if made is None:
            return None
        key = _key(t.tournament_id, m)
        stored = await self.repo.set_meta_if_absent(key, _dump(made))
        venue = _load(stored) or made
        if venue != made:  # another process opened it first: ours is not used
            await self.close(made)
        await self.repo.set_meta_if_absent(_home_key(venue.chat_id), t.chat_id)
        self._known.put(key, venue)
        self._homes.put(venue.chat_id, t.chat_id)
        return venue

    async def home(self, chat_id: str) -> str:
        """The tournament's chat of a venue chat (the chat itself when it is no venue)."""
        hit = self._homes.get(chat_id)
        if hit is None:
            hit = await self.repo.get_meta(_home_key(chat_id)) or chat_id
            self._homes.put(chat_id, hit)
        return hit

    async def close(self, venue: Venue) -> None:
        """Close (archive) a venue whose match is decided, where the platform allows it."""
        closer = self._closers.get(platform_of(venue.chat_id))
        if closer is None:
            return
        try:
            await closer(venue)
        except Exception:
            log.warning("closing the venue %s failed", venue.chat_id, exc_info=True)


def _dump(v: Venue) -> str:
    return json.dumps({"chat": v.chat_id, "name": v.name, "url": v.url}, ensure_ascii=False)


def _load(raw: str | None) -> Venue | None:
    if not raw:
        return None
    try:
        d = json.loads(raw)
        return Venue(str(d["chat"]), str(d.get("name") or ""), d.get("url") or None)
    except (ValueError, KeyError, TypeError):
        log.warning("a stored venue is not readable: %r", raw)
        return None
