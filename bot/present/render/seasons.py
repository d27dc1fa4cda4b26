"""Seasons for people: the season table with the reader's own rank, the champions, the summary of a
season that ended, the season settings, the rating changes under a match result, and the formula."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.model import TableSnapshot
from bot.core.seasons import Standing, Standings
from bot.present.i18n import T
from bot.present.render.cards import game_name
from bot.present.render.message import OutMessage
from storage.records import ChampionRecord, LeagueRecord, SeasonRecord, SeasonSummary
from storage.seasons import DAY

#: How many lines of a table are shown (the reader's own line is added below when it is further down).
TOP = 10


def formula_text(t: T, min_matches: int) -> str:
    """How the rank is made, stated (``/help``, ``/season``): no black box."""
    return t.lines([
        t.gettext("How the rank is made: rating = 1000 + 40 × (μ − 3σ), where μ is your estimated skill "
                  "in the season and σ how unsure that estimate still is (openskill). Everyone starts at "
                  "1000 and climbs as results make the estimate surer."),
        t.ngettext("Below {n} match of a game in the season you are provisional: listed, not ranked.",
                   "Below {n} matches of a game in the season you are provisional: listed, not ranked.",
                   min_matches),
        t.gettext("A match you leave counts as a loss. AI seats are never listed."),
    ])


def _line(s: Standing, t: T) -> str:
    matches = t.ngettext("{n} match", "{n} matches", s.row.matches)
    wins = t.ngettext("{n} win", "{n} wins", s.row.wins)
    if s.rank is None:
        return t.gettext("– {name} · rating {rating} · {matches} · provisional",
                         name=s.row.name, rating=round(s.row.rating), matches=matches)
    return t.gettext("{rank}. {name} · rating {rating} · {matches} · {wins}",
                     rank=s.rank, name=s.row.name, rating=round(s.row.rating), matches=matches, wins=wins)


def _days_left(season: SeasonRecord, now: float) -> int:
    return max(0, int((season.ends_at - now + DAY - 1) // DAY))


def render_season(st: Standings, t: T, now: float) -> OutMessage:
    """A league's table of one game (this season's or all time), with the reader's own line."""
    game = game_name(st.game, t)
    if st.season is None:
        lines = [t.gettext("All-time table · {game}", game=game)]
    else:
        lines = [t.gettext("Season {number} · {game}", number=st.season.number, game=game),
                 t.ngettext("{n} day left", "{n} days left", _days_left(st.season, now))]
    if not st.lines:
        lines.append(t.gettext("No counted matches yet."))
    shown = st.lines[:TOP]
    lines += [_line(s, t) for s in shown]
    mine = st.mine
    if mine is not None and mine not in shown:
        lines += ["…", _line(mine, t)]
    if mine is None:
        lines.append(t.gettext("You have no counted match here yet."))
    elif mine.rank is not None:
        ranked = sum(1 for s in st.lines if s.rank is not None)
        lines.append(t.gettext("Your rank: {rank} of {count}", rank=mine.rank, count=ranked))
    else:
        lines.append(t.ngettext("You are provisional: {n} more match to be ranked.",
                                "You are provisional: {n} more matches to be ranked.", st.to_rank))
    return OutMessage(t.lines(lines), notify=False)


def render_standings(tables: Sequence[Standings], t: T, now: float, champions: Sequence[ChampionRecord] = (),
                     *, stats: str = "/stats") -> OutMessage:
    """A chat's standings message, the same for everyone (no reader's own line): this season's table
    of each game played in it, and the champions of the season before; kept and edited in place."""
    season = next((st.season for st in tables if st.season is not None), None)
    lines = []
    if season is not None:
        lines += [t.gettext("Standings · season {number}", number=season.number),
                  t.ngettext("{n} day left", "{n} days left", _days_left(season, now))]
    played = [st for st in tables if st.lines]
    if not played:
        lines.append(t.gettext("No counted matches yet."))
    for st in played:
        lines += ["", game_name(st.game, t)]
        lines += [_line(s, t) for s in st.lines[:TOP]]
        more = len(st.lines) - TOP
        if more > 0:
            lines.append(t.ngettext("… and {n} more", "… and {n} more", more))
    if champions:
        lines.append("")
        lines += [t.gettext("Champion of season {number} · {game}: {name}", number=c.number,
                            game=game_name(c.game, t), name=c.name) for c in champions]
    lines += ["", t.gettext("This message is updated after every counted match. Your own rank: {command}",
                            command=stats)]
    return OutMessage(t.lines(lines), notify=False)


def render_history(champions: Sequence[ChampionRecord], t: T) -> OutMessage:
    """The champions of every closed season, newest first."""
    lines = [t.gettext("Champions")]
    if not champions:
        lines.append(t.gettext("No season has been won yet."))
    for c in champions:
        lines.append(t.gettext("Season {number} · {game}: {name} · rating {rating} · {matches}",
                               number=c.number, game=game_name(c.game, t), name=c.name, rating=round(c.rating),
                               matches=t.ngettext("{n} match", "{n} matches", c.matches)))
    return OutMessage(t.lines(lines), notify=False)


def render_summary(summary: SeasonSummary, t: T) -> OutMessage:
    """What is posted when a season ends: its champions, who played most, the best partnership."""
    lines = [t.gettext("Season {number} is over.", number=summary.season.number)]
    for c in summary.champions:
        lines.append(t.gettext("Champion · {game}: {name} · rating {rating}",
                               game=game_name(c.game, t), name=c.name, rating=round(c.rating)))
    if not summary.champions:
        lines.append(t.gettext("No champion: nobody played enough matches to be ranked."))
    if summary.most_matches is not None:
        _, name, n = summary.most_matches
        lines.append(t.gettext("Most matches: {name} · {matches}", name=name,
                               matches=t.ngettext("{n} match", "{n} matches", n)))
    if summary.partnership is not None:
        _, a, _, b, wins, matches = summary.partnership
        lines.append(t.gettext("Best partnership: {names} · {wins}", names=t.join([a, b]),
                               wins=t.ngettext("{n} win together in {matches}", "{n} wins together in {matches}",
                                               wins, matches=t.ngettext("{n} match", "{n} matches", matches))))
    lines.append(t.gettext("A new season has begun."))
    return OutMessage(t.lines(lines))


def render_end_prompt(season: SeasonRecord, t: T, command: str) -> OutMessage:
    """The confirmation an admin is asked for before a season is ended by hand."""
    return OutMessage(t.lines([
        t.gettext("End season {number} now? Its table as it stands decides its champions.", number=season.number),
        t.gettext("To confirm, send: {command}", command=command),
    ]), notify=False)


def render_season_settings(league: LeagueRecord, t: T) -> OutMessage:
    """A league's season settings."""
    length = (t.ngettext("{n} day", "{n} days", league.length_days) if league.length_days
              else t.gettext("a calendar month"))
    return OutMessage(t.lines([
        t.gettext("Season settings"),
        t.gettext("Length: {length}", length=length),
        t.ngettext("Ranked from {n} match of a game", "Ranked from {n} matches of a game", league.min_matches),
        t.gettext("Matches with AI seats count") if league.ai_counts
        else t.gettext("Matches with AI seats do not count"),
    ]), notify=False)


def rating_lines(snapshot: TableSnapshot, ratings: Sequence[dict[str, Any]], t: T) -> list[str]:
    """Under a match result: what the match did to each person's season rating (+23 → 1023)."""
    names: dict[str, str] = {}
    for s in snapshot.table.seats:
        for pid in (s.player_id, s.owner):
            if pid:
                names.setdefault(pid, s.name or pid)
    out = [t.gettext("Season ratings:")]
    for r in ratings:
        before, after = round(float(r["before"])), round(float(r["after"]))
        name = names.get(str(r["player_id"]), str(r["player_id"]))
        if r.get("provisional"):
            out.append(t.gettext("{name}: {change} → {rating} (provisional)", name=name,
                                 change=t.signed(after - before), rating=after))
        else:
            out.append(t.gettext("{name}: {change} → {rating}", name=name, change=t.signed(after - before),
                                 rating=after))
    return out
