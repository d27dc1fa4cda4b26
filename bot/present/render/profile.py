"""A person's record (``/stats``) and profile card (``/profile``) from one :class:`~bot.core.profiles.Profile`.

The card's rating chart is a text sparkline (the ``sparklines`` package): one block per counted
match, oldest first. It is passed to the sentence as a parameter, so that in Arabic it is isolated
and still reads left to right, as the web page's chart does.
"""

from __future__ import annotations

from sparklines import sparklines

from bot.core.profiles import GameFigures, Profile
from bot.present.i18n import T
from bot.present.render.cards import game_name
from bot.present.render.message import Button, OutMessage


def sparkline(values: tuple[float, ...] | list[float]) -> str:
    """The values as one line of block characters (``▁▃▅█``); empty for no values."""
    if not values:
        return ""
    if len(set(values)) == 1:  # a flat line sits in the middle, not on the floor
        return "▄" * len(values)
    return str(sparklines(list(values))[0])


def _matches_wins(t: T, matches: int, wins: int) -> str:
    return t.gettext("{matches} · {wins}", matches=t.ngettext("{n} match", "{n} matches", matches),
                     wins=t.ngettext("{n} win", "{n} wins", wins))


def streak_line(p: Profile, t: T) -> str | None:
    """The current run and the best one (None before any match)."""
    if not p.matches:
        return None
    if p.streak > 0:
        now = t.ngettext("{n} win in a row", "{n} wins in a row", p.streak)
    else:
        now = t.ngettext("{n} loss in a row", "{n} losses in a row", -p.streak)
    return t.gettext("Streak: {now} · best: {best}", now=now,
                     best=t.ngettext("{n} win in a row", "{n} wins in a row", p.best_streak))


def _game_lines(g: GameFigures, p: Profile, t: T) -> list[str]:
    game = game_name(g.game, t)
    lines = []
    if p.season is not None:
        if g.season_matches == 0:
            lines.append(t.gettext("{game} · season {number}: no match yet", game=game, number=p.season.number))
        elif g.season_rank is not None:
            lines.append(t.gettext("{game} · season {number}: rank {rank} of {count} · rating {rating} · {record}",
                                   game=game, number=p.season.number, rank=g.season_rank, count=g.ranked_count,
                                   rating=round(g.season_rating or 0), record=_matches_wins(
                                       t, g.season_matches, g.season_wins)))
        else:
            lines.append(t.gettext("{game} · season {number}: provisional · rating {rating} · {record}",
                                   game=game, number=p.season.number, rating=round(g.season_rating or 0),
                                   record=_matches_wins(t, g.season_matches, g.season_wins)))
        if g.to_rank:
            lines.append(t.ngettext("{n} more match to be ranked this season.",
                                    "{n} more matches to be ranked this season.", g.to_rank))
        lines.append(t.gettext("All time: {record}", record=_matches_wins(t, g.matches, g.wins)))
    else:
        lines.append(t.gettext("{game}: {record}", game=game, record=_matches_wins(t, g.matches, g.wins)))
    if g.left:
        lines.append(t.ngettext("Left {n} match (counted as a loss).", "Left {n} matches (counted as losses).",
                                g.left))
    return lines


def render_record(p: Profile, t: T) -> OutMessage:
    """``/stats``: each game's season and all-time figures, the matches still needed to be ranked, the streaks."""
    title = (t.gettext("Stats · {name}", name=p.name) if p.league is not None
             else t.gettext("Stats · {name} · every chat", name=p.name))
    lines = [title]
    if not p.games:
        lines.append(t.gettext("No finished matches yet."))
    for g in p.games:
        lines += _game_lines(g, p, t)
    streak = streak_line(p, t)
    if streak:
        lines.append(streak)
    return OutMessage(t.lines(lines), notify=False)


def render_profile(p: Profile, t: T, link: str | None = None) -> OutMessage:
    """``/profile``: the card: matches and wins, the rating chart, the favourite partner, the best deal,
    the season badges; ``link``: a button to the profile page on the web table."""
    title = (t.gettext("Profile · {name}", name=p.name) if p.league is not None
             else t.gettext("Profile · {name} · every chat", name=p.name))
    lines = [title]
    if not p.matches:
        lines.append(t.gettext("No finished matches yet."))
    else:
        lines.append(_matches_wins(t, p.matches, p.wins))
    if p.series_game is not None and p.series:
        lines.append(t.gettext("Season rating · {game}: {chart} {rating}", game=game_name(p.series_game, t),
                               chart=sparkline(p.series), rating=round(p.series[-1])))
    if p.partner is not None:
        lines.append(t.gettext("Favourite partner: {name} · {record}", name=p.partner.name, record=t.ngettext(
            "{n} match together", "{n} matches together", p.partner.matches)))
    if p.best_deal is not None:
        lines.append(t.gettext("Best deal: {points} in {game}", points=t.signed(p.best_deal.points),
                               game=game_name(p.best_deal.game, t)))
    for c in p.badges:
        lines.append(t.gettext("🏆 Champion of season {number} · {game}", number=c.number,
                               game=game_name(c.game, t)))
    streak = streak_line(p, t)
    if streak:
        lines.append(streak)
    buttons: tuple[tuple[Button, ...], ...] = ()
    if link:
        buttons = ((Button(t.gettext("Open the profile page"), url=link),),)
    return OutMessage(t.lines(lines), buttons, notify=False)
