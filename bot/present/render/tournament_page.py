"""A tournament's web page (``/tournament#k=…``, bot/adapters/web/tournament.py): what its JSON holds.

Pure, like the chat message (:mod:`bot.present.render.tournaments`): a tournament, the time and a
translator give every word the page shows. The page draws the bracket as columns of rounds, first
round at the start of the reading direction (the right in Arabic), each match a card with its two
pairs, the pair that went on marked, and the match's state in a few words; while registration is
open it lists who registered. It shows the same tournament as the chat message, never more: names,
pairs, results, never a card.
"""

from __future__ import annotations

from typing import Any

from bot.core import leagues, pools
from bot.core.tournaments import champion, current_round, people_of, rounds_count
from bot.present.i18n import T
from bot.present.render.tournaments import (
    clock_time,
    match_label,
    pair_name,
    person_name,
    points_text,
    registration_line,
    tournament_title,
)
from storage.tournaments import How, MatchStatus, TMatch, Tournament, TourneyStatus


def match_state(tour: Tournament, m: TMatch, t: T) -> str:
    """A match's state in a few words (the card under its two pairs)."""
    if m.status == MatchStatus.REVIEW:
        if m.flagged_by is not None:
            name = next((p.name for p in tour.players if p.player_id == m.flagged_by), m.flagged_by)
            return t.gettext("flagged by {name}: the organiser decides", name=name)
        return t.gettext("result in review until {time} UTC", time=clock_time(m.review_until or 0.0, t))
    if m.pool and m.status == MatchStatus.DONE:  # a Trix pool
        return t.gettext("sitting out: an average table") if m.how == How.BYE else \
            t.gettext("not played: the forfeit rule") if m.how == How.FORFEIT else t.gettext("played")
    if m.status == MatchStatus.DONE:
        out = next((e for e in tour.entries if e.number in (m.a, m.b) and e.disqualified), None)
        if m.how == How.ORGANISER and out is not None:
            return t.gettext("{out} disqualified", out=pair_name(tour, out.number, t))
        if m.how == How.BYE:
            return t.gettext("bye") if m.winner is not None else t.gettext("nobody goes on")
        if m.how == How.FORFEIT:
            return t.gettext("decided by forfeit") if m.winner is not None else t.gettext("nobody came: both out")
        if m.how == How.ORGANISER:
            return t.gettext("decided by the organiser")
        if m.winner is None:
            return t.gettext("the AI pair won: nobody goes on")
        return t.gettext("played")
    if m.status == MatchStatus.PLAYING:
        return t.gettext("playing now")
    if m.status == MatchStatus.CALLED:
        a, b = people_of(tour, m)
        need = len(a) + len(b)
        if len(m.ready) >= need:
            return t.gettext("all ready: next at the table")
        return t.gettext("{ready} of {need} ready", ready=t.number(len(m.ready)), need=t.number(need))
    return t.gettext("waiting")


def _round_title(tour: Tournament, number: int, t: T) -> str:
    total = rounds_count(tour)
    if number == total and not leagues.is_league(tour) and not pools.is_pools(tour):
        return t.gettext("The final")
    return t.gettext("Round {n} of {total}", n=number, total=total)


def _status(tour: Tournament, t: T, now: float) -> str:
    """One sentence: where the tournament stands."""
    if tour.status in (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN):
        return registration_line(tour, t, now)
    if tour.status == TourneyStatus.RUNNING:
        r = current_round(tour)
        if r is None:
            return ""
        left = sum(m.status != MatchStatus.DONE for m in tour.matches if m.round == r.number)
        return t.ngettext("{round}: {n} match still to be decided", "{round}: {n} matches still to be decided",
                          left, round=_round_title(tour, r.number, t))
    if tour.status == TourneyStatus.FINISHED and pools.is_pools(tour):
        won = champion(tour)
        return (t.gettext("Champion: {name} 🏆", name=person_name(tour, won.number, t)) if won is not None
                else t.gettext("The tournament is over: nobody scored a point."))
    if tour.status == TourneyStatus.FINISHED:
        won = champion(tour)
        return (t.gettext("Champions: {pair} 🏆", pair=pair_name(tour, won.number, t)) if won is not None
                else t.gettext("The tournament is over: nobody reached the final's win."))
    too_few = any(a.action == "cancelled" and a.detail == "too_few" for a in tour.audit)
    return (t.gettext("Cancelled by the organiser.") if not too_few
            else t.gettext("Cancelled: too few players checked in.") if pools.is_pools(tour)
            else t.gettext("Cancelled: fewer than two pairs checked in."))


def _match(tour: Tournament, m: TMatch, t: T) -> dict[str, Any]:
    decided = m.status in (MatchStatus.DONE, MatchStatus.REVIEW)  # in review: the provisional winner

    def side(entry: int | None) -> dict[str, Any]:
        e = tour.entry(entry)
        return {"name": pair_name(tour, entry, t) if entry is not None or m.status == MatchStatus.DONE else "",
                "ai": bool(e is not None and e.ai), "out": bool(e is not None and e.disqualified),
                "won": decided and entry is not None and m.winner == entry}

    view = {"label": match_label(m, t), "a": side(m.a), "b": side(m.b), "state": match_state(tour, m, t),
            "live": m.status == MatchStatus.PLAYING, "done": m.status == MatchStatus.DONE,
            "review": m.status == MatchStatus.REVIEW}
    if m.pool:  # a Trix pool: its four (or its sit-outs) in seat order, with their points once decided
        ai = {e.number for e in tour.entries if e.ai}
        out = {e.number for e in tour.entries if e.disqualified}
        best = max((p for n, p in zip(m.pool, m.points, strict=False) if n not in ai), default=None)
        view["seats"] = [{"name": person_name(tour, n, t) + (f" · {points_text(m.points[i], t)}"
                                                             if i < len(m.points) else ""),
                          "ai": n in ai, "out": n in out,
                          "won": decided and m.how == How.PLAYED and n not in ai
                          and i < len(m.points) and m.points[i] == best}
                         for i, n in enumerate(m.pool)]
    return view


def tournament_view(tour: Tournament, t: T, now: float) -> dict[str, Any]:
    """The page's JSON: its words in ``t``'s language, the rounds and their matches in bracket order."""
    view: dict[str, Any] = {
        "type": "tournament", "lang": t.lang, "rtl": t.rtl, "digits": t.digits,
        "title": tournament_title(tour, t),
        "organiser": t.gettext("Organiser: {name}", name=tour.organiser_name),
        "status": _status(tour, t, now),
        "ai": "" if not tour.ai_allowed else
        t.gettext("Byes are played against an AI pair: the people score only if they win.") if leagues.is_league(tour)
        else t.gettext("Byes are played against an AI pair: the people go on only if they win."),
        "open": tour.open,
        "refresh": t.gettext("This page follows the tournament by itself."),
        "rounds": [], "registered": None, "standings": None,
    }
    if pools.is_pools(tour):
        view["ai"] = t.gettext("A pool short of four players is filled with AI players: they never rank, and the "
                               "points against them count.") if tour.ai_allowed else ""
    if pools.is_pools(tour) and tour.status in (TourneyStatus.RUNNING, TourneyStatus.FINISHED):
        view["standings"] = {
            "title": t.gettext("Final standings:") if tour.status == TourneyStatus.FINISHED else t.gettext("Standings"),
            "head": [t.gettext("Player"), t.gettext("Points"), t.gettext("Trix score")],
            "rows": [{"rank": t.number(rank), "pair": person_name(tour, s.entry, t),
                      "points": points_text(s.halves, t), "buchholz": t.number(s.score)}
                     for rank, s in enumerate(pools.table(tour), start=1)]}
    elif leagues.is_league(tour) and tour.status in (TourneyStatus.RUNNING, TourneyStatus.FINISHED):
        view["standings"] = {
            "title": t.gettext("Final standings:") if tour.status == TourneyStatus.FINISHED else t.gettext("Standings"),
            "head": [t.gettext("Pair"), t.gettext("Points"), t.gettext("Buchholz")],
            "rows": [{"rank": t.number(rank), "pair": pair_name(tour, s.entry, t), "points": t.number(s.points),
                      "buchholz": t.number(s.buchholz)}
                     for rank, s in enumerate(leagues.table(tour), start=1)]}
    if tour.status in (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN):
        names = {p.player_id: p.name for p in tour.players}
        checked = {p.player_id for p in tour.players if p.checked_in}
        if tour.pairing == "fixed":
            items = [{"name": t.join([names.get(p, p) for p in e.players], " & "),
                      "wanted": len(e.players) < 2, "checked": set(e.players) <= checked} for e in tour.entries]
            heading = t.ngettext("{n} pair registered:", "{n} pairs registered:", len(tour.entries))
        else:
            items = [{"name": p.name, "wanted": False, "checked": p.checked_in} for p in tour.players]
            heading = t.ngettext("{n} player registered:", "{n} players registered:", len(tour.players))
        view["registered"] = {"title": heading, "items": items, "wanted": t.gettext("(a partner wanted)"),
                              "checked": t.gettext("checked in")}
    for number in range(1, rounds_count(tour) + 1):
        matches = sorted((m for m in tour.matches if m.round == number), key=lambda m: m.slot)
        current = current_round(tour)
        view["rounds"].append({"title": _round_title(tour, number, t),
                               "now": tour.status == TourneyStatus.RUNNING and current is not None
                               and current.number == number,
                               "matches": [_match(tour, m, t) for m in matches]})
    return view
