"""Scoreboards: a chat's leaderboard for a game, a player's stats, a table's current scores."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.model import TableSnapshot
from bot.core.views import View
from bot.present.i18n import T
from bot.present.render.cards import game_name
from bot.present.render.common import score_lines
from bot.present.render.message import OutMessage
from storage.records import LeaderRow, PlayerStats


def render_leaderboard(rows: Sequence[LeaderRow], game: str, t: T) -> OutMessage:
    """The top players of a chat in one game."""
    lines = [t.gettext("Leaderboard · {game}", game=game_name(game, t))]
    if not rows:
        lines.append(t.gettext("No finished matches yet."))
    for i, r in enumerate(rows, 1):
        lines.append(t.gettext(
            "{rank}. {name} · rating {rating} · {matches} · {wins}",
            rank=i, name=r.name, rating=round(r.rating),
            matches=t.ngettext("{n} match", "{n} matches", r.matches),
            wins=t.ngettext("{n} win", "{n} wins", r.wins),
        ))
    return OutMessage(t.lines(lines), notify=False)


def render_stats(stats: Sequence[PlayerStats], name: str, t: T) -> OutMessage:
    """A player's record per game."""
    lines = [t.gettext("Stats · {name}", name=name)]
    if not stats:
        lines.append(t.gettext("No finished matches yet."))
    for s in stats:
        lines.append(t.gettext(
            "{game}: {matches}, {wins}, {left} · rating {rating} · points {points}",
            game=game_name(s.game, t), matches=t.ngettext("{n} match", "{n} matches", s.matches),
            wins=t.ngettext("{n} win", "{n} wins", s.wins),
            left=t.ngettext("left {n} time", "left {n} times", s.left),
            rating=round(s.rating), points=s.total_score,
        ))
    return OutMessage(t.lines(lines), notify=False)


def render_scores(snapshot: TableSnapshot, t: T) -> OutMessage:
    """The running scores of a table (``/scores``)."""
    pub: View = snapshot.public or {}
    game = snapshot.table.game
    lines = [t.gettext("Scores · {game} · table {table}", game=game_name(game, t), table=snapshot.table.table_id)]
    if not pub:
        lines.append(t.gettext("The match has not started yet."))
    else:
        lines += score_lines(snapshot, pub.get("scores") or {}, game, t)
        if pub.get("target"):
            lines.append(t.gettext("Target: {target}", target=int(pub["target"])))
    return OutMessage(t.lines(lines), notify=False)
