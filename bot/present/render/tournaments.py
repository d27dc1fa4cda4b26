"""A tournament for people: the one message of its group, edited in place (registration, check-in, the
bracket, the champion), with the buttons of its step. Pure: a tournament, the time and a translator."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence

import engine
from bot.core import leagues, pools
from bot.core.advice import engine_options
from bot.core.model import TableSnapshot
from bot.core.tournaments import champion, current_round, people_of, rounds_count
from bot.core.venues import Venue
from bot.core.views import events_of
from bot.present import codec
from bot.present.i18n import T
from bot.present.render.cards import game_name
from bot.present.render.common import score_lines, winners_text
from bot.present.render.message import Button, OutMessage, rows
from bot.present.render.notify import stand_in, with_mentions
from storage.records import LIVE_STATUSES, ActionRecord, TableRecord
from storage.tournaments import How, MatchStatus, TAudit, TMatch, Tournament, TourneyStatus

#: How many open fixed pairs get a "Partner …" button (the others are named in the text).
OPEN_PAIR_BUTTONS = 6


def _minutes(seconds: float) -> int:
    return max(0, math.ceil(seconds / 60))


def _names(t: Tournament) -> dict[str, str]:
    return {p.player_id: p.name for p in t.players}


def clock_time(at: float, t: T) -> str:
    """``at`` as HH:MM (UTC) in the reader's digits."""
    hm = time.strftime("%H:%M", time.gmtime(at))
    return "".join(t.number(int(c)) if c.isdigit() else c for c in hm)


def registration_line(tour: Tournament, t: T, now: float) -> str:
    """Where registration stands (a tournament in registration or check-in), with the minutes left."""
    if tour.status == TourneyStatus.REGISTRATION:
        return t.ngettext("Registration is open. Check-in opens in {n} minute.",
                          "Registration is open. Check-in opens in {n} minutes.", _minutes(tour.checkin_at - now))
    return t.ngettext("Check-in is open: press Check in. The tournament starts in {n} minute.",
                      "Check-in is open: press Check in. The tournament starts in {n} minutes.",
                      _minutes(tour.start_at - now))


def match_label(m: TMatch, t: T) -> str:
    """How a match is named to the organiser: "1-2" (round 1, its second match)."""
    return t.isolate(f"{t.number(m.round)}-{t.number(m.slot + 1)}")


def _in_window(m: TMatch, now: float) -> bool:
    return m.status == MatchStatus.REVIEW and m.flagged_by is None and (m.review_until or 0.0) > now


def pair_name(tour: Tournament, entry: int | None, t: T) -> str:
    """A pair as people read it: "Sara & Omar", an AI pair labelled, nobody as a dash."""
    e = tour.entry(entry)
    if e is None:
        return "—"
    if e.ai:
        return t.gettext("🤖 AI pair")
    names = _names(tour)
    return t.join([names.get(p, p) for p in e.players], " & ")


def _match_line(tour: Tournament, m: TMatch, t: T, venues: Mapping[tuple[int, int], Venue] | None = None) -> str:
    venue = (venues or {}).get((m.round, m.slot))
    where = f" · {venue_text(venue, t)}" if venue is not None and m.status in (MatchStatus.CALLED,
                                                                             MatchStatus.PLAYING) else ""
    return f"{match_label(m, t)} · {_match_state(tour, m, t)}{where}"


#: The longest name of a thread or topic (Discord's limit for a thread, Telegram's is 128).
VENUE_NAME_CHARS = 100
_BIDI = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069\u200e\u200f\u202a\u202b\u202c\u202d\u202e"))


def venue_name(tour: Tournament, m: TMatch, t: T) -> str:
    """The name of a match's thread or topic: "Round 1 · Sara & Omar v Lina & Hadi" (no direction
    marks: the platform shows a name as a line of its own)."""
    if m.pool:  # a Trix pool: its people
        text = t.gettext("Round {n} · {names}", n=m.round, names=t.join([person_name(tour, x, t) for x in m.pool]))
    else:
        text = t.gettext("Round {n} · {a} v {b}", n=m.round, a=pair_name(tour, m.a, t), b=pair_name(tour, m.b, t))
    return text.translate(_BIDI)[:VENUE_NAME_CHARS]


def venue_text(venue: Venue, t: T) -> str:
    """Where a match is played, for its line and its players' pings: its thread's or topic's name."""
    return t.gettext("in «{venue}»", venue=venue.name)


def render_match_ping(tour: Tournament, m: TMatch, kind: str, venue: Venue | None, t: T, now: float,
                      button: Button | None = None, stop: str = "/notify matches off") -> OutMessage:
    """What a player of match ``m`` is told in private: ``kind`` "called" (press Ready on the
    tournament's message) or "table" (its table is open, and where; ``button``: their seat on the web);
    ``stop``: the platform's command that turns these messages off."""
    label, a, b = match_label(m, t), pair_name(tour, m.a, t), pair_name(tour, m.b, t)
    names = t.join([person_name(tour, x, t) for x in m.pool])
    lines = [tournament_title(tour, t)]
    if kind == "called":
        r = current_round(tour)
        lines.append(t.gettext("Your pool {match} is called: {names}.", match=label, names=names) if m.pool
                     else t.gettext("Your match {match} is called: {a} v {b}.", match=label, a=a, b=b))
        lines.append(t.ngettext("Press Ready on the tournament's message within {n} minute.",
                                "Press Ready on the tournament's message within {n} minutes.",
                                _minutes((r.deadline if r is not None else now) - now)))
    else:
        lines.append(t.gettext("The table of your pool {match} is open: {names}.", match=label, names=names)
                     if m.pool else
                     t.gettext("The table of your match {match} is open: {a} v {b}.", match=label, a=a, b=b))
        lines.append(t.gettext("Play it {venue}.", venue=venue_text(venue, t)) if venue is not None
                     else t.gettext("Play it in the tournament's chat, under its message."))
        if venue is not None and venue.url:
            lines.append(venue.url)
        if button is not None:
            lines.append(t.gettext("Or play at your seat on the web: the button below."))
    lines.append(t.gettext("To stop these messages: {command}", command=stop))
    return OutMessage(t.lines(lines), rows([[button]] if button is not None else []))


def render_match_call(tour: Tournament, m: TMatch, kind: str, people: Sequence[tuple[str, str]], t: T) -> OutMessage:
    """The public call of match ``m``'s people who asked for table calls (``/notify tables on``, in a
    chat that allows them: bot/core/notify.py), mentioning only them."""
    names = t.join([stand_in(i) for i in range(len(people))])
    head = t.gettext("{names}: your match {match} is called. Press Ready on the tournament's message.",
                     names=names, match=match_label(m, t)) if kind == "called" else \
        t.gettext("{names}: the table of your match {match} is open here.", names=names, match=match_label(m, t))
    foot = t.gettext("You get this call because you asked for it (/notify tables off to stop).")
    text, mentions = with_mentions(t.lines([head, foot]), people, t)
    return OutMessage(text, (), notify=True, mentions=mentions)


def _match_state(tour: Tournament, m: TMatch, t: T) -> str:
    a, b = pair_name(tour, m.a, t), pair_name(tour, m.b, t)
    if m.status == MatchStatus.REVIEW:
        winner = pair_name(tour, m.winner, t) if m.winner is not None else None
        if m.flagged_by is not None:
            who = _names(tour).get(m.flagged_by, m.flagged_by)
            return t.gettext("{a} v {b}: {winner} won; flagged by {name}, the organiser decides", a=a, b=b,
                             winner=winner, name=who) if winner else \
                t.gettext("{a} v {b}: the AI pair won; flagged by {name}, the organiser decides", a=a, b=b, name=who)
        until = clock_time(m.review_until or 0.0, t)
        return t.gettext("{a} v {b}: {winner} won, result in review until {time} UTC", a=a, b=b, winner=winner,
                         time=until) if winner else \
            t.gettext("{a} v {b}: the AI pair won, result in review until {time} UTC", a=a, b=b, time=until)
    if m.status == MatchStatus.DONE and leagues.is_league(tour):
        return _league_result(tour, m, t, a, b)
    if m.status == MatchStatus.DONE and m.how == How.ORGANISER:
        out = next((e for e in tour.entries if e.number in (m.a, m.b) and e.disqualified), None)
        if out is not None:
            gone = pair_name(tour, out.number, t)
            return t.gettext("{a} v {b}: {out} disqualified, {winner} go on", a=a, b=b, out=gone,
                             winner=pair_name(tour, m.winner, t)) if m.winner is not None else \
                t.gettext("{a} v {b}: {out} disqualified, nobody goes on", a=a, b=b, out=gone)
        return t.gettext("{a} v {b}: the organiser decided, {winner} go on", a=a, b=b,
                         winner=pair_name(tour, m.winner, t))
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


def _league_running(tour: Tournament, t: T, now: float, lines: list[str], buttons: list[list[Button]],
                    venues: Mapping[tuple[int, int], Venue] | None = None) -> None:
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
    mine = [m for m in tour.matches if m.round == r.number]
    _review_row(tour, mine, t, now, lines, buttons)
    lines += ["• " + _match_line(tour, m, t, venues) for m in mine]
    if any(a.action == "venues_off" for a in tour.audit):
        lines.append(_venues_off(t))


def _review_row(tour: Tournament, mine: list[TMatch], t: T, now: float, lines: list[str],
                buttons: list[list[Button]]) -> None:
    """While a match of the round is in its review window: what that means, and the Flag button."""
    if any(_in_window(m, now) for m in mine):
        lines.append(t.gettext("A played pool's result stands once its review ends. Until then a player of the "
                               "pool may press Flag; the organiser then decides.") if pools.is_pools(tour) else
                     t.gettext("A played match's result stands once its review ends. Until then a player "
                               "of the match may press Flag; the organiser then decides."))
        buttons.append([Button(t.gettext("Flag the result"), codec.encode("o", tour.tournament_id, None, "flag"),
                               style="danger")])


def _league_finished(tour: Tournament, t: T, lines: list[str]) -> None:
    won = champion(tour)
    lines.append(t.gettext("Champions: {pair} 🏆", pair=pair_name(tour, won.number, t)) if won is not None
                 else t.gettext("The tournament is over: no pair won a game."))
    lines.append(t.gettext("Final standings:"))
    lines += _standings(tour, t)
    last = rounds_count(tour)
    lines.append(t.gettext("Round {n}:", n=last))
    lines += ["• " + _match_line(tour, m, t) for m in tour.matches if m.round == last]


# ---------------------------------------------------------------------- Trix pools (bot/core/pools.py)

def points_text(halves: int, t: T) -> str:
    """Tournament points kept in halves as people read them: "3", "3½", "½"."""
    whole, half = pools.shown(halves)
    if not half:
        return t.number(whole)
    return ("" if whole == 0 else t.number(whole)) + "½"


def _points_count(halves: int) -> int:
    """The count that chooses a points phrase's plural: 3½ reads as more than three."""
    return -(-halves // 2)


def person_name(tour: Tournament, entry: int | None, t: T) -> str:
    """An entry of a Trix tournament: the person's name, an AI seat labelled."""
    e = tour.entry(entry)
    if e is None:
        return "—"
    if e.ai:
        return t.gettext("🤖 AI")
    return _names(tour).get(e.players[0], e.players[0]) if e.players else "—"


def _pool_standings(tour: Tournament, t: T) -> list[str]:
    """The standings: rank, name, points, and the first tie-break (the sum of the Trix scores)."""
    return [f"{t.number(rank)}. " + t.ngettext(
        "{name}: {points} point, Trix score {score}", "{name}: {points} points, Trix score {score}",
        _points_count(s.halves), name=person_name(tour, s.entry, t), points=points_text(s.halves, t),
        score=t.number(s.score)) for rank, s in enumerate(pools.table(tour), start=1)]


def _pool_line(tour: Tournament, m: TMatch, t: T, venues: Mapping[tuple[int, int], Venue] | None = None) -> str:
    """A pool: its label, its people in seat order and its state (and its venue while called or played)."""
    venue = (venues or {}).get((m.round, m.slot))
    if venue is not None and m.status in (MatchStatus.CALLED, MatchStatus.PLAYING):
        return f"{_pool_line(tour, m, t)} · {venue_text(venue, t)}"
    names = [person_name(tour, n, t) for n in m.pool]
    label = match_label(m, t)
    if m.status == MatchStatus.DONE and m.how == How.BYE:
        return t.gettext("{label} · {names}: sitting out, {points} points each (an average table)", label=label,
                         names=t.join(names), points=points_text(pools.BYE_HALVES, t))
    if m.status in (MatchStatus.DONE, MatchStatus.REVIEW):
        results = [f"{name} {points_text(p, t)}" + (f" ({t.number(sc)})" if m.how == How.PLAYED else "")
                   for name, p, sc in zip(names, m.points, m.scores or (0,) * len(names), strict=False)]
        if m.status == MatchStatus.REVIEW and m.flagged_by is not None:
            return t.gettext("{label} · played: {results}; flagged by {name}, the organiser decides", label=label,
                             results=t.join(results), name=_names(tour).get(m.flagged_by, m.flagged_by))
        if m.status == MatchStatus.REVIEW:
            return t.gettext("{label} · played: {results}; in review until {time} UTC", label=label,
                             results=t.join(results), time=clock_time(m.review_until or 0.0, t))
        if m.how == How.FORFEIT:
            return t.gettext("{label} · not played by the deadline, the players who were ready score: {results}",
                             label=label, results=t.join(results))
        return t.gettext("{label} · played: {results}", label=label, results=t.join(results))
    table = t.join(names)
    if m.status == MatchStatus.PLAYING:
        return t.gettext("{label} · {names}: playing now", label=label, names=table)
    if m.status == MatchStatus.CALLED:
        need = len(people_of(tour, m)[0])
        if len(m.ready) >= need:
            return t.gettext("{label} · {names}: all ready, they play when the table is free", label=label,
                             names=table)
        return t.gettext("{label} · {names}: {ready} of {need} ready", label=label, names=table,
                         ready=t.number(len(m.ready)), need=t.number(need))
    return t.gettext("{label} · {names}: waiting", label=label, names=table)


def _pools_running(tour: Tournament, t: T, now: float, lines: list[str], buttons: list[list[Button]],
                   venues: Mapping[tuple[int, int], Venue] | None = None) -> None:
    """A Trix tournament being played: the standings after the rounds played, then the round's pools."""
    r = current_round(tour)
    if r is None:
        return
    if r.number > 1:
        lines.append(t.gettext("Standings after round {n}:", n=r.number - 1))
        lines += _pool_standings(tour, t)
    lines.append(t.gettext("Round {n} of {total}", n=r.number, total=rounds_count(tour)))
    mine = [m for m in tour.matches if m.round == r.number and m.pool]
    if any(m.status == MatchStatus.CALLED for m in mine):
        lines.append(t.ngettext(
            "Players of a called pool: press Ready within {n} minute. A pool not all ready by then is not "
            "played: the players who were ready share the top places' points, the others score nothing.",
            "Players of a called pool: press Ready within {n} minutes. A pool not all ready by then is not "
            "played: the players who were ready share the top places' points, the others score nothing.",
            _minutes(r.deadline - now)))
        buttons.append([Button(t.gettext("Ready"), codec.encode("o", tour.tournament_id, None, "ready"),
                               style="success")])
    _review_row(tour, mine, t, now, lines, buttons)
    lines += ["• " + _pool_line(tour, m, t, venues) for m in mine]
    if any(a.action == "venues_off" for a in tour.audit):
        lines.append(_venues_off(t))


def _pools_finished(tour: Tournament, t: T, lines: list[str]) -> None:
    won = champion(tour)
    lines.append(t.gettext("Champion: {name} 🏆", name=person_name(tour, won.number, t)) if won is not None
                 else t.gettext("The tournament is over: nobody scored a point."))
    lines.append(t.gettext("Final standings:"))
    lines += _pool_standings(tour, t)
    last = rounds_count(tour)
    lines.append(t.gettext("Round {n}:", n=last))
    lines += ["• " + _pool_line(tour, m, t) for m in tour.matches if m.round == last and m.pool]


def tournament_title(tour: Tournament, t: T) -> str:
    """The tournament's heading: its game, its format and how pairs are made."""
    if pools.is_pools(tour):
        return t.gettext("🏆 {game} tournament: pools of four, each player alone", game=game_name(tour.game, t))
    kind = t.gettext("drawn pairs") if tour.pairing == "draw" else t.gettext("fixed pairs")
    game = game_name(tour.game, t)
    fmt = leagues.kind_of(tour)
    if fmt == leagues.SWISS:
        return t.gettext("🏆 {game} tournament: pair Swiss, {kind}", game=game, kind=kind)
    if fmt == leagues.ROUND_ROBIN:
        return t.gettext("🏆 {game} tournament: pair round robin, {kind}", game=game, kind=kind)
    return t.gettext("🏆 {game} tournament: pair knockout, {kind}", game=game, kind=kind)


def render_tournament(tour: Tournament, t: T, now: float, link: Button | None = None,
                      venues: Mapping[tuple[int, int], Venue] | None = None) -> OutMessage:
    """The tournament's message now, with the buttons of its step (and ``link``, its web page, last);
    ``venues``: the threads or topics of the matches (bot/core/venues.py), named on their lines."""
    tid = tour.tournament_id
    league = leagues.is_league(tour)
    in_pools = pools.is_pools(tour)
    lines = [tournament_title(tour, t), t.gettext("Organiser: {name}", name=tour.organiser_name)]
    if tour.ai_allowed and in_pools:
        lines.append(t.gettext("A pool short of four players is filled with AI players: they never rank, and "
                               "the points against them count."))
    elif tour.ai_allowed:
        lines.append(t.gettext("Byes are played against an AI pair: the people score only if they win.") if league
                     else t.gettext("Byes are played against an AI pair: the people go on only if they win."))
    buttons: list[list[Button]] = []
    status = tour.status
    if status in (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN):
        lines.append(registration_line(tour, t, now))
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
    elif status == TourneyStatus.RUNNING and in_pools:
        _pools_running(tour, t, now, lines, buttons, venues)
    elif status == TourneyStatus.FINISHED and in_pools:
        _pools_finished(tour, t, lines)
    elif status == TourneyStatus.RUNNING and league:
        _league_running(tour, t, now, lines, buttons, venues)
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
            mine = [m for m in tour.matches if m.round == r.number]
            _review_row(tour, mine, t, now, lines, buttons)
            lines += ["• " + _match_line(tour, m, t, venues) for m in mine]
            if any(a.action == "venues_off" for a in tour.audit):
                lines.append(_venues_off(t))
    elif status == TourneyStatus.FINISHED:
        won = champion(tour)
        lines.append(t.gettext("Champions: {pair} 🏆", pair=pair_name(tour, won.number, t)) if won is not None
                     else t.gettext("The tournament is over: nobody reached the final's win."))
        for number in range(1, rounds_count(tour) + 1):
            lines.append(t.gettext("Round {n}:", n=number))
            lines += ["• " + _match_line(tour, m, t) for m in tour.matches if m.round == number]
    else:
        too_few = any(a.action == "cancelled" and a.detail == "too_few" for a in tour.audit)
        lines.append(t.gettext("Cancelled by the organiser.") if not too_few
                     else t.gettext("Cancelled: too few players checked in.") if in_pools
                     else t.gettext("Cancelled: fewer than two pairs checked in."))
    if link is not None:
        buttons.append([link])
    return OutMessage(t.lines(lines), rows(buttons))


def _venues_off(t: T) -> str:
    """Said once, on the message and in the log, when the bot may not open venues."""
    return t.gettext("The bot may not open a thread or topic per match here: the matches are played in this "
                     "chat, one after another.")


# ---------------------------------------------------------------------- the audit log and a flag's notice

#: The most lines of the audit log one message shows (the newest).
AUDIT_LINES = 40


def _match_of(tour: Tournament, detail: str) -> tuple[TMatch | None, list[str]]:
    """The match an audit line names ("round:slot:…") and the rest of its detail."""
    parts = detail.split(":", 3)
    try:
        m = tour.match(int(parts[0]), int(parts[1]))
    except (ValueError, IndexError):
        return None, []
    return m, parts[2:]


def audit_line(tour: Tournament, a: TAudit, t: T) -> str:
    """One line of the audit log as people read it: when, who, what."""
    names = _names(tour)
    who = t.gettext("the bot") if a.actor == "bot" else names.get(a.actor, tour.organiser_name
                                                                 if a.actor == tour.organiser else a.actor)
    m, rest = _match_of(tour, a.detail)
    label = match_label(m, t) if m is not None else "?"
    pair = pair_name(tour, int(rest[0]), t) if m is not None and rest and rest[0].isdigit() else "—"
    out = person_name(tour, int(rest[1]) if len(rest) > 1 and rest[1].isdigit() else None, t)
    pooled = {  # a Trix pool's decisions (bot/core/pools.py): points per person, nobody goes on
        "result": lambda: t.gettext("pool {match}: played, its points in review", match=label),
        "played": lambda: t.gettext("pool {match}: played, its points recorded", match=label),
        "replay": lambda: t.gettext("pool {match}: called again", match=label),
        "flag": lambda: t.gettext("flagged pool {match}: {reason}", match=label, reason=rest[0] if rest and rest[0]
                                  else t.gettext("no reason given")),
        "uphold": lambda: t.gettext("upheld the result of pool {match}", match=label),
        "disqualify": lambda: t.gettext("disqualified {out} in pool {match}: no points for the round, no later "
                                        "rounds", match=label, out=out),
        "champion": lambda: t.gettext("the champion: {name}", name=person_name(
            tour, int(a.detail) if a.detail.isdigit() else None, t)),
        "forfeit": lambda: t.gettext("pool {match}: decided by the forfeit rule", match=label),
        "bye": lambda: t.gettext("pool {match}: a bye for the players sitting out", match=label),
    } if pools.is_pools(tour) else {}
    what = pooled[a.action]() if a.action in pooled else {
        "start": lambda: t.gettext("started the tournament"),
        "dropped": lambda: t.gettext("dropped who did not check in: {names}", names=t.join(
            [names.get(p, p) for p in a.detail.split(",") if p])),
        "cancelled": lambda: t.gettext("cancelled the tournament"),
        "bye": lambda: t.gettext("match {match}: {pair} goes on by a bye", match=label, pair=pair),
        "table": lambda: t.gettext("match {match}: its table opened", match=label),
        "result": lambda: t.gettext("match {match}: {pair} won at the table, in review", match=label, pair=pair),
        "played": lambda: t.gettext("match {match}: the result is final, {pair} go on", match=label, pair=pair),
        "ai_bye": lambda: t.gettext("match {match}: the result against the AI pair is final ({pair})",
                                    match=label, pair=pair),
        "forfeit": lambda: t.gettext("match {match}: decided by the forfeit rule ({pair})", match=label, pair=pair),
        "replay": lambda: t.gettext("match {match}: called again", match=label),
        "champion": lambda: t.gettext("the champions: {pair}", pair=pair_name(
            tour, int(a.detail) if a.detail.isdigit() else None, t)),
        "flag": lambda: t.gettext("flagged match {match}: {reason}", match=label, reason=rest[0] if rest and rest[0]
                                  else t.gettext("no reason given")),
        "uphold": lambda: t.gettext("upheld the result of match {match}", match=label),
        "winner": lambda: t.gettext("set the winner of match {match}: {pair}", match=label, pair=pair),
        "disqualify": lambda: t.gettext("disqualified {out} in match {match}", match=label, out=pair_name(
            tour, int(rest[1]) if len(rest) > 1 and rest[1].isdigit() else None, t)),
        "organiser": lambda: t.gettext("set the winner of match {match}: {pair}", match=label, pair=pair),
        "venues_off": lambda: _venues_off(t),
    }.get(a.action, lambda: a.action)()
    return t.gettext("{time} · {who}: {what}", time=clock_time(a.at, t), who=who, what=what)


def render_audit(tour: Tournament, t: T) -> OutMessage:
    """The tournament's audit log (the newest :data:`AUDIT_LINES`), with its pairs by number."""
    lines = [t.gettext("🏆 The tournament's log (times in UTC)")]
    pairs = [e for e in tour.entries if not e.ai]
    if pairs:
        lines.append((t.gettext("Players:") if pools.is_pools(tour) else t.gettext("Pairs:")) + " " + t.join(
            [f"{t.number(e.number)}. {pair_name(tour, e.number, t)}" for e in pairs], "; "))
    shown = tour.audit[-AUDIT_LINES:]
    if len(tour.audit) > len(shown):
        lines.append(t.ngettext("({n} earlier line is not shown)", "({n} earlier lines are not shown)",
                                len(tour.audit) - len(shown)))
    lines += [audit_line(tour, a, t) for a in shown]
    if not tour.audit:
        lines.append(t.gettext("Nothing has been decided yet."))
    return OutMessage(t.lines(lines))


def deal_results(record: TableRecord, actions: Iterable[ActionRecord], t: T) -> list[str]:
    """A short line per deal of a finished table (the totals after it), then the winners: what the
    organiser reads of a flagged match. Rebuilt from the table's seed and action log like the replay."""
    if record.status in LIVE_STATUSES:
        return []
    snap = TableSnapshot(table=record)
    g = engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=engine_options(record.options))
    out: list[str] = []
    for a in actions:
        for e in events_of(g.act(a.seat, a.action)):
            if e["type"] == "deal_scored":
                out.append(t.gettext("Deal {n}: {totals}", n=len(out) + 1, totals=t.join(
                    score_lines(snap, e.get("scores") or {}, record.game, t))))
            elif e["type"] == "match_over":
                out.append(winners_text(snap, list(e.get("winner") or []), record.game, t))
    return out


def render_flag_notice(tour: Tournament, m: TMatch, deals: list[str], replay_url: str | None, command: str,
                       t: T) -> OutMessage:
    """What the organiser is told, privately, of a flagged match: who flagged it and why, the pairs by
    number, each deal's result, the replay's link, and how to decide (``command``, the platform's)."""
    names = _names(tour)
    who = names.get(m.flagged_by or "", m.flagged_by or "?")
    if m.pool:
        return _pool_flag_notice(tour, m, who, deals, replay_url, command, t)
    lines = [t.gettext("🚩 {name} flagged match {match} of the tournament.", name=who, match=match_label(m, t))]
    if m.flag_reason:
        lines.append(t.gettext("Reason: {reason}", reason=m.flag_reason))
    for number in (m.a, m.b):
        if number is not None:
            lines.append(t.gettext("Pair {n}: {pair}", n=t.number(number), pair=pair_name(tour, number, t)))
    lines.append(t.gettext("Recorded result: {winner} won.", winner=pair_name(tour, m.winner, t))
                 if m.winner is not None else t.gettext("Recorded result: the AI pair won."))
    lines += deals
    if replay_url:
        lines.append(t.gettext("The replay of every deal: {url}", url=replay_url))
    lines.append(t.gettext("Decide in the group with {command}: uphold, winner (with a pair's number), replay, "
                           "or disqualify (with a pair's number).", command=command))
    return OutMessage(t.lines(lines))


def _pool_flag_notice(tour: Tournament, m: TMatch, who: str, deals: list[str], replay_url: str | None,
                      command: str, t: T) -> OutMessage:
    """A flagged Trix pool's notice: its four people by number with their Trix scores and points."""
    lines = [t.gettext("🚩 {name} flagged pool {match} of the tournament.", name=who, match=match_label(m, t))]
    if m.flag_reason:
        lines.append(t.gettext("Reason: {reason}", reason=m.flag_reason))
    lines.append(t.gettext("Recorded result:"))
    for n, p, sc in zip(m.pool, m.points, m.scores, strict=False):
        lines.append(t.ngettext("{number}. {name}: Trix score {score}, {points} point",
                                "{number}. {name}: Trix score {score}, {points} points", _points_count(p),
                                number=t.number(n), name=person_name(tour, n, t), score=t.number(sc),
                                points=points_text(p, t)))
    lines += deals
    if replay_url:
        lines.append(t.gettext("The replay of every deal: {url}", url=replay_url))
    lines.append(t.gettext("Decide in the group with {command}: uphold, replay, or disqualify (with a player's "
                           "number: no points for the round, and no later rounds).", command=command))
    return OutMessage(t.lines(lines))
