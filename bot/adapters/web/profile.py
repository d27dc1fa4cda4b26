"""A person's profile page (``/profile#k=<credential>``): what the page's JSON holds and in which language.

The credential (kind ``profile``, :mod:`bot.adapters.web.tokens`) names the person and the league;
the figures are the chat card's (:class:`bot.core.profiles.Profile`, built the same way), so a
league's page shows only that league's matches, ratings, partner, best deal and badges, and a page
across every chat (league None) only ever the person the credential names. Who gets which link is
the dispatch's rule (bot/core/service.py): a league's card in its chats, one's own across every chat
in one's private chat; the adapters sign the link of the card they answer with.

The page is in the league's language (the card's link sits in its chats) or, across every chat,
the person's own; where none was ever chosen, the browser's (as the chats use the platform's).
Every word is made here from the catalogs; the page draws the figures and the rating chart (an SVG
of its own, with these words).

The rating chart's time runs left to right (oldest on the left) in both languages, like the chat
card's sparkline: a chart is a figure, not a line of text, and the page says which end is which
(the axis reads "oldest" and "latest" at its ends), so that an Arabic reader is never left to guess.
"""

from __future__ import annotations

from typing import Any

from bot.core.lang import resolve_lang
from bot.core.manager import TableManager
from bot.core.profiles import GameFigures, Profile, Profiles
from bot.present.i18n import T, translator
from bot.present.render.cards import game_name
from bot.present.render.profile import streak_line


async def page_t(manager: TableManager, player_id: str, league: str | None, hint: str | None = None) -> T:
    """The page's translator: the league's language and digits, or (across every chat) the person's;
    ``hint`` (the browser's language) where none was chosen, as the platform's is in the chats."""
    if league is not None:
        chat = await manager.chat_settings(league)
        return translator(resolve_lang(chat.lang, hint), chat.digits)
    lang, digits = await manager.prefs.private_lang(player_id, None, hint)
    return translator(lang, digits)


async def person_name(manager: TableManager, player_id: str) -> str:
    """The name the person goes by (their stored record, else the seat of their newest match)."""
    record = await manager.prefs.player_record(player_id)
    if record is not None and record.name:
        return record.name
    newest = await manager.repo.person_matches(player_id, None, 1)
    if newest:
        table = await manager.repo.get_table(newest[-1].table_id)
        if table is not None and 0 <= newest[-1].seat < len(table.seats):
            return table.seats[newest[-1].seat].name or ""
    return ""


def _tiles(g: GameFigures, p: Profile, t: T) -> list[dict[str, str]]:
    """A game's figures as label and value (the value in the page's digits)."""
    tiles = [{"label": t.gettext("Matches"), "value": t.number(g.matches)},
             {"label": t.gettext("Wins"), "value": t.number(g.wins)}]
    if g.matches:
        tiles.append({"label": t.gettext("Win rate"),
                      "value": t.gettext("{percent}%", percent=round(100 * g.wins / g.matches))})
    if p.season is not None and g.season_matches:
        number = p.season.number
        tiles.append({"label": t.gettext("Season {number} rating", number=number),
                      "value": t.number(round(g.season_rating or 0))})
        tiles.append({"label": t.gettext("Season {number} rank", number=number),
                      "value": t.gettext("{rank} of {count}", rank=g.season_rank, count=g.ranked_count)
                      if g.season_rank is not None else t.gettext("provisional")})
    return tiles


def _game(g: GameFigures, p: Profile, t: T) -> dict[str, Any]:
    notes = []
    if p.season is not None and g.to_rank and g.season_matches:
        notes.append(t.ngettext("{n} more match to be ranked this season.",
                                "{n} more matches to be ranked this season.", g.to_rank))
    if g.left:
        notes.append(t.ngettext("Left {n} match (counted as a loss).", "Left {n} matches (counted as losses).",
                                g.left))
    return {"game": g.game, "name": game_name(g.game, t), "tiles": _tiles(g, p, t), "notes": notes}


def _chart(p: Profile, t: T) -> dict[str, Any] | None:
    if p.series_game is None or not p.series:
        return None
    return {
        "title": t.gettext("Season rating · {game}", game=game_name(p.series_game, t)),
        "points": [round(v, 1) for v in p.series],
        "seasons": list(p.series_seasons),
        # a mark where each season begins, named in the page's words and digits
        "season_names": {str(n): t.gettext("Season {number}", number=n) for n in sorted(set(p.series_seasons))},
        "oldest": t.gettext("oldest"),
        "latest": t.gettext("latest"),
        "label": t.ngettext("The season rating after each of the last {n} counted match",
                            "The season rating after each of the last {n} counted matches", len(p.series)),
    }


def profile_json(p: Profile, t: T) -> dict[str, Any]:
    """What the profile page draws, every word in ``t``'s language and digits."""
    title = (t.gettext("Profile · {name}", name=p.name) if p.league is not None
             else t.gettext("Profile · {name} · every chat", name=p.name))
    partner = None
    if p.partner is not None:
        partner = t.gettext("Favourite partner: {name} · {record}", name=p.partner.name, record=t.ngettext(
            "{n} match together", "{n} matches together", p.partner.matches))
    best = None
    if p.best_deal is not None:
        best = t.gettext("Best deal: {points} in {game}", points=t.signed(p.best_deal.points),
                         game=game_name(p.best_deal.game, t))
    summary = (t.gettext("{matches} · {wins}", matches=t.ngettext("{n} match", "{n} matches", p.matches),
                         wins=t.ngettext("{n} win", "{n} wins", p.wins))
               if p.matches else t.gettext("No finished matches yet."))
    return {
        "type": "profile",
        "lang": t.lang,
        "rtl": t.rtl,
        "digits": t.digits,
        "title": title,
        "summary": summary,
        "games": [_game(g, p, t) for g in p.games],
        "streak": streak_line(p, t),
        "chart": _chart(p, t),
        "partner": partner,
        "best_deal": best,
        # the page draws the cup itself (a phone may have no emoji font)
        "badges": [t.gettext("Champion of season {number} · {game}", number=c.number, game=game_name(c.game, t))
                   for c in p.badges],
        "ui": {"title": t.gettext("Majlis"), "badges": t.gettext("Season badges"),
               "no_badges": t.gettext("No season won yet.")},
    }


async def profile_page(manager: TableManager, player_id: str, league: str | None,
                       hint: str | None = None) -> dict[str, Any]:
    """The page's JSON for the person and league a verified credential names (``hint``: see :func:`page_t`).

    A league is its own chat for the seasons' lookups (:func:`storage.seasons.league_of` gives a
    Telegram group or a Discord server back as it is), so the card is built as in the chat.
    """
    t = await page_t(manager, player_id, league, hint)
    profile = await Profiles(manager.repo, manager.seasons).profile(
        player_id, await person_name(manager, player_id), league)
    return profile_json(profile, t)
