"""A tournament for people: the one message of its group, edited in place (registration, check-in, the
bracket, the champion), with the buttons of its step. Pure: a tournament, the time and a translator."""

from __future__ import annotations

import math

from bot.core import leagues
from bot.core.tournaments import champion, current_round, people_of, rounds_count
from bot.present import codec
from bot.present.i18n import T
from bot.present.render.cards import game_name
from bot.present.render.message import Button, OutMessage, rows
from storage.tournaments import How, MatchStatus, TMatch, Tournament, TourneyStatus

#: How many open fixed pairs get a "Partner …" button (the others are named in the text).
OPEN_PAIR_BUTTONS = 6


def _minutes(seconds: float) -> int:
    return max(0, math.ceil(seconds / 60))


def _names(t: Tournament) -> dict[str, str]:
    return {p.player_id: p.name for p in t.players}


def pair_name(tour: Tournament, entry: int | None, t: T) -> str:
    """A pair as people read it: "Sara & Omar", an AI pair labelled, nobody as a dash."""
    e = tour.entry(entry)
    if e is None:
        return "—"
    if e.ai:
        return t.gettext("🤖 AI pair")
    names = _names(tour)
    return t.join([names.get(p, p) for p in e.players], " & ")


def _match_line(tour: Tournament, m: TMatch, t: T) -> str:
    a, b = pair_name(tour, m.a, t), pair_name(tour, m.b, t)
    if m.status == MatchStatus.DONE and leagues.is_league(tour):
        return _league_result(tour, m, t, a, b)
    if m.status == MatchStatus.DONE:
        if m.how == How.BYE:
            return t.gettext("{pair} goes on (bye)", pair=pair_name(tour, m.winner, t)) if m.winner is not None \
                else t.gettext("— nobody goes on")
        winner = pair_name(tour, m.winner, t) if m.winner is not None else None
        if m.how == How.FORFEIT:
            return t.gettext("{a} v {b}: {winner} go on by forfeit", a=a, b=b, winner=winner) if winner \
                else t.gettext("{a} v {b}: nobody came, both are out", a=a, b=b)
        if winner is None:
            return t.gettext("{a} v {b}: the AI pair won, nobody goes on", a=a, b=b)
        return t.gettext("{a} v {b}: {winner} won", a=a, b=b, winner=winner)
    if m.status == MatchStatus.PLAYING:
        return t.gettext("{a} v {b}: playing now", a=a, b=b)
    if m.status == MatchStatus.CALLED:
        ppl = people_of(tour, m)
        need = len(ppl[0]) + len(ppl[1])
        if len(m.ready) >= need:  # a chat has one live table: this match is next
            return t.gettext("{a} v {b}: all ready, they play when the table is free", a=a, b=b)
        return t.gettext("{a} v {b}: {ready} of {need} ready", a=a, b=b, ready=len(m.ready), need=need)
    return t.gettext("{a} v {b}: waiting", a=a, b=b)


def _league_result(tour: Tournament, m: TMatch, t: T, a: str, b: str) -> str:
    """A decided match of a Swiss or a round robin: who scored (nobody goes on or out)."""
    winner = pair_name(tour, m.winner, t) if m.winner is not None else None
    if m.how == How.BYE:
        return t.gettext("{pair}: a bye, scored as a win", pair=a)
    if m.how == How.FORFEIT:
        return t.gettext("{a} v {b}: {winner} won by forfeit", a=a, b=b, winner=winner) if winner \
            else t.gettext("{a} v {b}: nobody came, no points", a=a, b=b)
    if winner is None:
        return t.gettext("{a} v {b}: the AI pair won, no points", a=a, b=b)
    return t.gettext("{a} v {b}: {winner} won", a=a, b=b, winner=winner)


def _standings(tour: Tournament, t: T) -> list[str]:
    """The standings table: rank, pair, points and the first tie-break (Buchholz)."""
    out = []
    for rank, s in enumerate(leagues.table(tour), start=1):
        out.append(f"{t.number(rank)}. " + t.ngettext(
            "{pair}: {n} point, Buchholz {buchholz}", "{pair}: {n} points, Buchholz {buchholz}", s.points,
            pair=pair_name(tour, s.entry, t), buchholz=t.number(s.buchholz)))
    return out


def _league_running(tour: Tournament, t: T, now: float, lines: list[str], buttons: list[list[Button]]) -> None:
    """A Swiss or a round robin being played: the standings after the rounds played, then the current
    round's matches under its heading."""
    r = current_round(tour)
    if r is None:
        return
    if r.number > 1:
        lines.append(t.gettext("Standings after round {n}:", n=r.number - 1))
        lines += _standings(tour, t)
    lines.append(t.gettext("Round {n} of {total}", n=r.number, total=rounds_count(tour)))
    if any(m.status == MatchStatus.CALLED for m in tour.matches if m.round == r.number):
        lines.append(t.ngettext(
            "Players of a called match: press Ready within {n} minute. The side with more people ready "
            "wins; if neither has more, neither scores.",
            "Players of a called match: press Ready within {n} minutes. The side with more people ready "
            "wins; if neither has more, neither scores.", _minutes(r.deadline - now)))
        buttons.append([Button(t.gettext("Ready"), codec.encode("o", tour.tournament_id, None, "ready"),
                               style="success")])
    lines += ["• " + _match_line(tour, m, t) for m in tour.matches if m.round == r.number]


def _league_finished(tour: Tournament, t: T, lines: list[str]) -> None:
    won = champion(tour)
    lines.append(t.gettext("Champions: {pair} 🏆", pair=pair_name(tour, won.number, t)) if won is not None
                 else t.gettext("The tournament is over: no pair won a game."))
    lines.append(t.gettext("Final standings:"))
    lines += _standings(tour, t)
    last = rounds_count(tour)
    lines.append(t.gettext("Round {n}:", n=last))
    lines += ["• " + _match_line(tour, m, t) for m in tour.matches if m.round == last]


def _title(tour: Tournament, t: T) -> str:
    kind = t.gettext("drawn pairs") if tour.pairing == "draw" else t.gettext("fixed pairs")
    game = game_name(tour.game, t)
    fmt = leagues.kind_of(tour)
    if fmt == leagues.SWISS:
        return t.gettext("🏆 {game} tournament: pair Swiss, {kind}", game=game, kind=kind)
    if fmt == leagues.ROUND_ROBIN:
        return t.gettext("🏆 {game} tournament: pair round robin, {kind}", game=game, kind=kind)
    return t.gettext("🏆 {game} tournament: pair knockout, {kind}", game=game, kind=kind)


def render_tournament(tour: Tournament, t: T, now: float) -> OutMessage:
    """The tournament's message now, with the buttons of its step."""
    tid = tour.tournament_id
    league = leagues.is_league(tour)
    lines = [_title(tour, t), t.gettext("Organiser: {name}", name=tour.organiser_name)]
    if tour.ai_allowed:
        lines.append(t.gettext("Byes are played against an AI pair: the people score only if they win.") if league
                     else t.gettext("Byes are played against an AI pair: the people go on only if they win."))
    buttons: list[list[Button]] = []
    status = tour.status
    if status in (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN):
        if status == TourneyStatus.REGISTRATION:
            lines.append(t.ngettext("Registration is open. Check-in opens in {n} minute.",
                                    "Registration is open. Check-in opens in {n} minutes.",
                                    _minutes(tour.checkin_at - now)))
        else:
            lines.append(t.ngettext("Check-in is open: press Check in. The tournament starts in {n} minute.",
                                    "Check-in is open: press Check in. The tournament starts in {n} minutes.",
                                    _minutes(tour.start_at - now)))
        names = _names(tour)
        if tour.pairing == "fixed":
            lines.append(t.ngettext("{n} pair registered:", "{n} pairs registered:", len(tour.entries)))
            for e in tour.entries:
                checked = {p.player_id for p in tour.players if p.checked_in}
                people = [names.get(p, p) + (" ✅" if p in checked else "") for p in e.players]
                lines.append(f"{t.number(e.number)}. " + t.join(people if len(people) == 2
                                                                  else [*people, t.gettext("(a partner wanted)")],
                                                                  " & "))
        else:
            lines.append(t.ngettext("{n} player registered:", "{n} players registered:", len(tour.players)))
            if tour.players:
                lines.append(t.join([p.name + (" ✅" if p.checked_in else "") for p in tour.players]))
        first = [Button(t.gettext("Check in"), codec.encode("o", tid, None, "checkin"), style="success")] \
            if status == TourneyStatus.CHECKIN else []
        buttons.append([*first, Button(t.gettext("Register"), codec.encode("o", tid, None, "register"),
                                       style="primary"),
                        Button(t.gettext("Withdraw"), codec.encode("o", tid, None, "withdraw"))])
        if tour.pairing == "fixed":
            open_pairs = [e for e in tour.entries if len(e.players) == 1][:OPEN_PAIR_BUTTONS]
            buttons += [[Button(t.gettext("Partner {name}", name=names.get(e.players[0], "?")),
                                codec.encode("o", tid, None, f"register {e.number}"))] for e in open_pairs]
        buttons.append([Button(t.gettext("Start now (organiser)"), codec.encode("o", tid, None, "start"))])
    elif status == TourneyStatus.RUNNING and league:
        _league_running(tour, t, now, lines, buttons)
    elif status == TourneyStatus.FINISHED and league:
        _league_finished(tour, t, lines)
    elif status == TourneyStatus.RUNNING:
        r = current_round(tour)
        total = rounds_count(tour)
        for number in range(1, r.number if r is not None else 1):  # the rounds played, in order
            lines.append(t.gettext("Round {n}:", n=number))
            lines += ["• " + _match_line(tour, m, t) for m in tour.matches if m.round == number]
        if r is not None:  # then the round being played, under its heading
            lines.append(t.gettext("The final") if r.number == total else
                         t.gettext("Round {n} of {total}", n=r.number, total=total))
            if any(m.status == MatchStatus.CALLED for m in tour.matches if m.round == r.number):
                lines.append(t.ngettext(
                    "Players of a called match: press Ready within {n} minute. The side with more people ready "
                    "goes on; if neither has more, both are out.",
                    "Players of a called match: press Ready within {n} minutes. The side with more people ready "
                    "goes on; if neither has more, both are out.", _minutes(r.deadline - now)))
                buttons.append([Button(t.gettext("Ready"), codec.encode("o", tid, None, "ready"), style="success")])
            lines += ["• " + _match_line(tour, m, t) for m in tour.matches if m.round == r.number]
    elif status == TourneyStatus.FINISHED:
        won = champion(tour)
        lines.append(t.gettext("Champions: {pair} 🏆", pair=pair_name(tour, won.number, t)) if won is not None
                     else t.gettext("The tournament is over: nobody reached the final's win."))
        for number in range(1, rounds_count(tour) + 1):
            lines.append(t.gettext("Round {n}:", n=number))
            lines += ["• " + _match_line(tour, m, t) for m in tour.matches if m.round == number]
    else:
        too_few = any(a.action == "cancelled" and a.detail == "too_few" for a in tour.audit)
        lines.append(t.gettext("Cancelled: fewer than two pairs checked in.") if too_few
                     else t.gettext("Cancelled by the organiser."))
    return OutMessage(t.lines(lines), rows(buttons))
