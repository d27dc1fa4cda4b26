"""Addresses of the web table: signed links for players, spectators, replays and profiles."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from bot.adapters.web.tokens import Grant, sign

#: How long a player's or spectator's link works (seconds).
LINK_TTL = 6 * 3600
#: How long a replay link works.
REPLAY_TTL = 30 * 24 * 3600
#: How long a profile page's link works (like a replay's: the card it sits under stays in the chat).
PROFILE_TTL = REPLAY_TTL
#: How long a tournament page's link works, from the tournament's creation (registration, check-in
#: and a few rounds fit under it: bot/core/tournaments.py caps each time at a week).
TOURNAMENT_TTL = 90 * 24 * 3600


@dataclass(frozen=True, slots=True)
class WebLinks:
    """Makes the web table's addresses under ``base_url`` (no trailing slash), signed with ``secret``."""

    base_url: str
    secret: bytes
    ttl: float = LINK_TTL

    def token(self, kind: str, table_id: int, now: float, *, seat: int | None = None,
              player_id: str | None = None, ttl: float | None = None) -> str:
        """A credential (see :mod:`bot.adapters.web.tokens`)."""
        expires = now + (self.ttl if ttl is None else ttl)
        return sign(self.secret, Grant(kind=kind, table_id=table_id, seat=seat, player_id=player_id,
                                       expires=expires))

    def play_url(self, table_id: int, seat: int, player_id: str, now: float, *, ttl: float | None = None) -> str:
        """The page of one player at their seat (the credential rides in the fragment: never logged)."""
        return f"{self.base_url}/#k={self.token('play', table_id, now, seat=seat, player_id=player_id, ttl=ttl)}"

    def watch_url(self, table_id: int, now: float, *, ttl: float | None = None) -> str:
        """A spectator's page: the public view only."""
        return f"{self.base_url}/#k={self.token('watch', table_id, now, ttl=ttl)}"

    def replay_path(self, table_id: int, now: float) -> str:
        """The replay page of a finished table, relative to the site (for its own pages)."""
        return f"/replay/{table_id}#k={self.token('replay', table_id, now, ttl=REPLAY_TTL)}"

    def profile_url(self, player_id: str, league: str | None, now: float) -> str:
        """The profile page of ``player_id`` in ``league`` (None: across every chat, for the person's own
        eyes only: see :mod:`bot.adapters.web.profile`)."""
        token = sign(self.secret, Grant(kind="profile", table_id=0, player_id=player_id, league=league,
                                        expires=now + PROFILE_TTL))
        return f"{self.base_url}/profile#k={token}"

    def tournament_url(self, tournament_id: int, created_at: float) -> str:
        """The page of a tournament (bracket or standings), signed from its creation so that the
        message it sits under does not change with the clock."""
        return f"{self.base_url}/tournament#k={self.token('tournament', tournament_id, created_at, ttl=TOURNAMENT_TTL)}"

    def telegram_url(self, table_id: int) -> str:
        """The Mini App address of a table (Telegram adds the signed ``initData``)."""
        return f"{self.base_url}/tg?table={quote(str(table_id))}"
