"""Tournaments run by the bot: pair tournaments of Tarneeb 41 or classic Tarneeb (docs/tournaments.md).

The knockout is here; what is particular to a Swiss and a round robin (their pairings, byes,
standings and champion) is in :mod:`bot.core.leagues`, called at four marked points (the start, a
round's opening, the last round's close, :func:`champion`), and :func:`_decide` moves nobody on in a league.

The rules are pure functions of a :class:`~storage.tournaments.Tournament` (a new one back, or the same
object when nothing changes); :class:`Tournaments` runs them against storage and the tables:

- registration (``register``/``withdraw``; fixed pairs: a person opens a pair, their partner joins it),
  check-in from ``checkin_at``, the start at ``start_at`` or when the organiser starts it: who did not
  check in is dropped, drawn pairs are drawn (seeded by the tournament), fewer than two pairs cancel it;
- the bracket: the next power of two, byes to the first pairs; where the organiser allowed AI, a bye
  is an AI pair (a played bye: the people go on only if they beat it; the AI never goes on);
- each round: its matches are called; their players press Ready before the round's deadline; a match
  whose four people are ready is played as a normal table of the chat, one after another (a chat has
  one live table); its result is read from the finished table; a table stopped before its end is
  called again. At the deadline every called match not being played is decided by the forfeit rule:
  the side with more people ready goes on; on a tie nobody does (its next opponent then has a bye);
- the review window: a played match's result is provisional for ``review_minutes`` (the match is in
  REVIEW); a person of the match may flag it then; unflagged, it becomes final when the window ends
  (the tick, exactly once); flagged, it waits for the organiser, who decides any match of the running
  round (:func:`decide`: uphold, set a winner, replay it, disqualify a pair; a Trix pool the same,
  but with no winner to set: :func:`_decide_pool_by`);
- every decision and every flag is written to the tournament's audit log.

Several processes: every change is a compare-and-set on the tournament's ``rev``
(:meth:`~storage.repository.Repository.save_tournament`), so a deadline or a result is applied once
whoever sees it first; opening a match's table is safe too, because a chat has one live table in
storage, and a table found live with exactly a called match's people is taken as that match's
(a process that died between opening it and writing it down).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.core import leagues, pools
from bot.core.errors import Refusal, TableError
from bot.core.listeners import tell
from bot.core.model import Person, TableUpdate
from bot.core.prefs import check_options
from bot.core.venues import Venue, VenueRefused, Venues
from storage.records import FINISHED, LIVE_STATUSES, LOBBY
from storage.tournaments import (
    How,
    MatchStatus,
    TAudit,
    TEntry,
    TMatch,
    Tournament,
    TournamentConflict,
    TournamentExists,
    TourneyStatus,
    TPlayer,
    TRound,
)

if TYPE_CHECKING:
    from bot.core.commands import Actor, NewTournament, TournamentAction
    from bot.core.manager import TableManager

log = logging.getLogger(__name__)

#: The games a pair knockout is played in.
PAIR_GAMES = ("tarneeb41", "tarneeb")
FORMATS = ("knockout", *leagues.KINDS)
PAIRINGS = ("draw", "fixed")
MINUTE = 60.0
#: The most people a tournament takes (a bracket of 32 pairs).
MAX_PLAYERS = 64
#: The organiser's decisions on a match (:func:`decide`).
DECISIONS = ("uphold", "winner", "replay", "disqualify")
#: The longest reason a flag keeps.
FLAG_REASON_CHARS = 200
Listener = Callable[[Tournament], Awaitable[None]]
FlagListener = Callable[[Tournament, TMatch], Awaitable[None]]
#: Told ``(tournament, match, kind, venue)`` when a match is called (``"called"``) and when its table
#: opens (``"table"``), once, by the process that wrote it (its players are pinged:
#: bot/present/tournament_notices.py); ``venue`` None: the group itself.
MatchListener = Callable[[Tournament, TMatch, str, Venue | None], Awaitable[None]]


def refuse(reason: str, **params: Any) -> TableError:
    """A tournament refusal (``bot/present/render/errors.py`` has a sentence per ``reason``)."""
    return TableError(Refusal.TOURNAMENT, reason=reason, **params)


# ---------------------------------------------------------------------- the rules (pure)

def new(chat_id: str, organiser: Person, game: str, *, pairing: str, now: float, start_minutes: int,
        checkin_minutes: int, round_minutes: int, ai: bool, options: dict[str, Any], lang: str | None,
        fmt: str = "knockout", review_minutes: int = 10, rounds: int | None = None) -> Tournament:
    """A tournament in registration, opening check-in ``checkin_minutes`` before its start; ``rounds``:
    a Swiss's rounds (None: ceil(log2 pairs))."""
    if game == pools.GAME:  # Trix: pools of four, each for themselves (bot/core/pools.py)
        if fmt not in ("knockout", pools.POOLS) or pairing != "draw":  # "knockout": the command's default
            raise refuse("format")
        if rounds is not None and (type(rounds) is not int or not 1 <= rounds <= pools.MAX_ROUNDS):
            raise refuse("rounds")
        fmt = pools.text(rounds)  # a played pool's result has its review window as a pair match's
        rounds = None
    elif game not in PAIR_GAMES:
        raise refuse("game")
    elif fmt not in FORMATS or pairing not in PAIRINGS:
        raise refuse("format")
    if rounds is not None:
        if fmt != leagues.SWISS or type(rounds) is not int or not 1 <= rounds <= leagues.MAX_SWISS_ROUNDS:
            raise refuse("rounds")
        fmt = leagues.text(fmt, rounds)
    for v in (start_minutes, checkin_minutes, round_minutes, review_minutes):
        if type(v) is not int or not 0 <= v <= 7 * 24 * 60:
            raise refuse("times")
    if round_minutes < 1 or checkin_minutes > start_minutes:
        raise refuse("times")
    start = now + start_minutes * MINUTE
    return Tournament(0, chat_id, game, fmt, pairing, organiser.player_id, organiser.name,
                      TourneyStatus.REGISTRATION, now, start - checkin_minutes * MINUTE, start, round_minutes,
                      ai_allowed=ai, options=dict(options), lang=lang, next_at=start - checkin_minutes * MINUTE,
                      review_minutes=review_minutes)


def _audit(t: Tournament, now: float, actor: str, action: str, detail: str = "") -> tuple[TAudit, ...]:
    return (*t.audit, TAudit(len(t.audit) + 1, now, actor, action, detail))


def register(t: Tournament, person: Person, now: float, partner_of: int | None = None) -> Tournament:
    """``person`` registers: alone (drawn pairs), opening a pair, or (fixed) joining pair ``partner_of``."""
    if t.status not in (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN):
        raise refuse("closed")
    if t.player(person.player_id) is not None:
        raise refuse("registered")
    if len(t.players) >= MAX_PLAYERS:
        raise refuse("full")
    checked = t.status == TourneyStatus.CHECKIN  # registering during check-in is checking in
    if t.pairing == "draw":
        if partner_of is not None:
            raise TableError(Refusal.BAD_ACTION)
        return replace(t, players=(*t.players, TPlayer(person.player_id, person.name, now, checked)))
    entries = list(t.entries)
    if partner_of is None:
        number = max((e.number for e in entries), default=0) + 1
        entries.append(TEntry(number, (person.player_id,)))
    else:
        pair = t.entry(partner_of)
        if type(partner_of) is not int or pair is None:
            raise refuse("no_pair")
        if len(pair.players) >= 2:
            raise refuse("pair_full")
        number = pair.number
        entries = [replace(e, players=(*e.players, person.player_id)) if e.number == number else e for e in entries]
    return replace(t, entries=tuple(entries),
                   players=(*t.players, TPlayer(person.player_id, person.name, now, checked, number)))


def withdraw(t: Tournament, player_id: str) -> Tournament:
    """Leave before the start (a fixed pair's partner stays, waiting for another partner)."""
    if t.status not in (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN):
        raise refuse("closed")
    me = t.player(player_id)
    if me is None:
        raise refuse("not_registered")
    entries = tuple(e2 for e2 in (replace(e, players=tuple(p for p in e.players if p != player_id))
                                  for e in t.entries) if e2.players)
    return replace(t, players=tuple(p for p in t.players if p.player_id != player_id), entries=entries)


def check_in(t: Tournament, player_id: str) -> Tournament:
    if t.status != TourneyStatus.CHECKIN:
        raise refuse("not_checkin")
    me = t.player(player_id)
    if me is None:
        raise refuse("not_registered")
    if me.checked_in:
        return t
    return replace(t, players=tuple(replace(p, checked_in=True) if p.player_id == player_id else p
                                    for p in t.players))


def seed_order(size: int) -> list[int]:
    """The standard bracket: seed numbers (1 = best) in bracket order, so that seeds 1 and 2 can meet
    only in the final and byes (the seeds past the field) go to the first seeds."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [x for s in order for x in (s, n - s)]
    return order


def start(t: Tournament, now: float, actor: str = "bot") -> Tournament:
    """Close check-in and draw round 1 (or cancel for want of two pairs)."""
    if t.status not in (TourneyStatus.REGISTRATION, TourneyStatus.CHECKIN):
        raise refuse("closed")
    # started by the organiser before check-in opened: everyone registered plays
    here = [p for p in t.players if p.checked_in or t.status == TourneyStatus.REGISTRATION]
    rng = random.Random(f"{t.tournament_id}:{t.created_at}")
    dropped: list[str] = []
    if pools.is_pools(t):
        return _start_pools(t, here, rng, now, actor)
    if t.pairing == "draw":
        ids = [p.player_id for p in here]
        rng.shuffle(ids)
        if len(ids) % 2:
            dropped.append(ids.pop())
        pairs = [(ids[i], ids[i + 1]) for i in range(0, len(ids), 2)]
    else:
        checked = {p.player_id for p in here}
        pairs = []
        for e in t.entries:
            if len(e.players) == 2 and set(e.players) <= checked:
                pairs.append((e.players[0], e.players[1]))
            else:
                dropped += [p for p in e.players if p in checked]
    entries = tuple(TEntry(i + 1, pair) for i, pair in enumerate(pairs))
    number_of = {pid: e.number for e in entries for pid in e.players}
    players = tuple(replace(p, entry=number_of.get(p.player_id), checked_in=p in here) for p in t.players)
    audit = _audit(t, now, actor, "start", f"{len(entries)}")
    if dropped:
        audit = (*audit, TAudit(len(audit) + 1, now, "bot", "dropped", ",".join(dropped)))
    if len(entries) < 2:
        return replace(t, status=TourneyStatus.CANCELLED, players=players, entries=entries, next_at=None,
                       audit=(*audit, TAudit(len(audit) + 1, now, "bot", "cancelled", "too_few")))
    if leagues.is_league(t):  # Swiss or round robin: every round's boards, drawn as each opens
        t = leagues.begin(replace(t, status=TourneyStatus.RUNNING, players=players, entries=entries, audit=audit))
        return _open_round(t, 1, now)
    size = 1
    while size < len(entries):
        size *= 2
    order = seed_order(size)
    all_entries = list(entries)
    matches = []
    for slot in range(size // 2):
        a, b = order[2 * slot], order[2 * slot + 1]
        ea = a if a <= len(entries) else None
        eb = b if b <= len(entries) else None
        if eb is None and t.ai_allowed:  # a played bye: an AI pair the people must beat
            number = len(all_entries) + 1
            all_entries.append(TEntry(number, (), ai=True))
            eb = number
        matches.append(TMatch(1, slot, ea, eb))
    rounds_count = size.bit_length() - 1
    for r in range(2, rounds_count + 1):
        matches += [TMatch(r, s, None, None) for s in range(size >> r)]
    t = replace(t, status=TourneyStatus.RUNNING, players=players, entries=tuple(all_entries),
                matches=tuple(matches), audit=audit)
    return _open_round(t, 1, now)


def _start_pools(t: Tournament, here: list[TPlayer], rng: random.Random, now: float, actor: str) -> Tournament:
    """A Trix tournament starts: an entry per person checked in, numbered in a seeded draw's order."""
    ids = [p.player_id for p in here]
    rng.shuffle(ids)
    entries = tuple(TEntry(i + 1, (pid,)) for i, pid in enumerate(ids))
    number_of = {pid: i + 1 for i, pid in enumerate(ids)}
    players = tuple(replace(p, entry=number_of.get(p.player_id), checked_in=p in here) for p in t.players)
    audit = _audit(t, now, actor, "start", f"{len(entries)}")
    dropped = [p.player_id for p in t.players if p not in here]  # registered, never checked in
    if dropped:
        audit = (*audit, TAudit(len(audit) + 1, now, "bot", "dropped", ",".join(dropped)))
    if not pools.enough(t, len(entries)):
        return replace(t, status=TourneyStatus.CANCELLED, players=players, entries=entries, next_at=None,
                       audit=(*audit, TAudit(len(audit) + 1, now, "bot", "cancelled", "too_few")))
    t = pools.begin(replace(t, status=TourneyStatus.RUNNING, players=players, entries=entries, audit=audit))
    return _open_round(t, 1, now)


def _pool_detail(m: TMatch, points: tuple[int, ...]) -> str:
    """An audit line's detail for pool ``m``: ``round:slot:entry=halves,…``."""
    return f"{m.round}:{m.slot}:" + ",".join(f"{n}={p}" for n, p in zip(m.pool, points, strict=True))


def _decide_pool(t: Tournament, m: TMatch, how: How, points: tuple[int, ...], scores: tuple[int, ...],
                 now: float, note: str = "", actor: str = "bot", action: str | None = None) -> Tournament:
    """Pool ``m`` is decided: each seat's tournament points (halves) and Trix score, final (out of any
    review window; a flag stays, for the record). ``action``: the audit line's name when it is not
    ``how`` (the organiser's uphold and disqualify)."""
    t = _set(t, m, status=MatchStatus.DONE, how=how, decided_at=now, ready=(), points=points, scores=scores,
             review_until=None)
    detail = _pool_detail(m, points)
    t = replace(t, audit=_audit(t, now, actor, action or str(how), detail + (f":{note}" if note else "")))
    return _advance(t, now)


def rounds_count(t: Tournament) -> int:
    return max((m.round for m in t.matches), default=0)


def current_round(t: Tournament) -> TRound | None:
    return t.rounds[-1] if t.rounds else None


def _set(t: Tournament, m: TMatch, **changes: Any) -> Tournament:
    return replace(t, matches=tuple(replace(x, **changes) if (x.round, x.slot) == (m.round, m.slot) else x
                                    for x in t.matches))


def _decide(t: Tournament, m: TMatch, winner: int | None, how: How, now: float, actor: str = "bot",
            note: str = "", action: str | None = None) -> Tournament:
    """Match ``m`` is decided; its winner (None: nobody) goes to the next round. ``action``: the audit
    line's name when it is not ``how`` (the organiser's decisions: uphold, winner, disqualify)."""
    # review_until cleared: a decided match is out of its window (a flag stays, for the record)
    t = _set(t, m, status=MatchStatus.DONE, winner=winner, how=how, decided_at=now, ready=(), review_until=None)
    detail = f"{m.round}:{m.slot}:{'-' if winner is None else winner}" + (f":{note}" if note else "")
    t = replace(t, audit=_audit(t, now, actor, action or str(how), detail))
    if m.round < rounds_count(t) and not leagues.is_league(t) and not pools.is_pools(t):  # only a knockout moves on
        nxt = t.match(m.round + 1, m.slot // 2)
        assert nxt is not None
        t = _set(t, nxt, **({"a": winner} if m.slot % 2 == 0 else {"b": winner}))
    return _advance(t, now)


def _open_round(t: Tournament, number: int, now: float) -> Tournament:
    """Open round ``number``: its matches with two sides are called, the others decided as byes."""
    t = replace(t, rounds=(*t.rounds, TRound(number, now, now + t.round_minutes * MINUTE)))
    if leagues.is_league(t):  # its boards are drawn now, from the rounds before (bot/core/leagues.py)
        t = leagues.draw_round(t, number)
    if pools.is_pools(t):  # Trix: its pools seated now from the standings (bot/core/pools.py)
        t = pools.draw_round(t, number)
        for m in [m for m in t.matches if m.round == number and len(m.pool) == pools.SEATS]:
            t = _set(t, m, status=MatchStatus.CALLED)
        for m in [m for m in t.matches if m.round == number and m.status == MatchStatus.WAITING]:
            if t.status != TourneyStatus.RUNNING or not m.pool:  # an empty slot: nobody sits there
                t = _set(t, m, status=MatchStatus.DONE, decided_at=now)
                continue
            t = _decide_pool(t, m, How.BYE, (pools.BYE_HALVES,) * len(m.pool), (0,) * len(m.pool), now)
        return _advance(t, now)
    for m in [m for m in t.matches if m.round == number]:  # a disqualified pair still listed is skipped
        out = {e.number for e in t.entries if e.disqualified}
        if m.a in out or m.b in out:
            t = _set(t, m, a=None if m.a in out else m.a, b=None if m.b in out else m.b)
    for m in [m for m in t.matches if m.round == number and m.a is not None and m.b is not None]:
        t = _set(t, m, status=MatchStatus.CALLED)
    while t.status == TourneyStatus.RUNNING and (current_round(t) or TRound(0, 0, 0)).number == number:
        w = next((m for m in t.matches if m.round == number and m.status == MatchStatus.WAITING), None)
        if w is None:
            return _advance(t, now)
        t = _decide(t, w, w.a if w.a is not None else w.b, How.BYE, now)
    return t


def _advance(t: Tournament, now: float) -> Tournament:
    """Close the round when all its matches are decided: open the next, or finish; ``next_at`` kept true."""
    r = current_round(t)
    if r is None or t.status != TourneyStatus.RUNNING:
        return t
    mine = [m for m in t.matches if m.round == r.number]
    if all(m.status == MatchStatus.DONE for m in mine) and r.closed_at is None:
        t = replace(t, rounds=tuple(replace(x, closed_at=now) if x.number == r.number else x for x in t.rounds))
        if r.number == rounds_count(t):
            # a knockout's champion won the final; a league's tops the final standings
            won = leagues.champion_number(t) if leagues.is_league(t) else \
                pools.champion_number(t) if pools.is_pools(t) else mine[0].winner
            return replace(t, status=TourneyStatus.FINISHED, next_at=None,
                           audit=_audit(t, now, "bot", "champion", "-" if won is None else str(won)))
        return _open_round(t, r.number + 1, now)
    called = any(m.status == MatchStatus.CALLED for m in mine)
    return replace(t, next_at=_next_step(t, called))  # the round's deadline or a review window's end


def _next_step(t: Tournament, deadline_pending: bool) -> float | None:
    """When the running round's next step is due: its deadline (if ``deadline_pending``) or the end of
    the first unflagged review window (a flagged match waits for the organiser: no time of its own)."""
    r = current_round(t)
    if r is None:
        return None
    ends = [m.review_until for m in t.matches if m.round == r.number and m.status == MatchStatus.REVIEW
            and m.flagged_by is None and m.review_until is not None]
    return min([*ends, *([r.deadline] if deadline_pending else [])], default=None)


def _called(t: Tournament) -> bool:
    r = current_round(t)
    return r is not None and any(m.round == r.number and m.status == MatchStatus.CALLED for m in t.matches)


def champion(t: Tournament) -> TEntry | None:
    """The pair that won the final, or topped a league's standings (None: not finished, or nobody won)."""
    if t.status != TourneyStatus.FINISHED:
        return None
    if leagues.is_league(t):
        return t.entry(leagues.champion_number(t))
    if pools.is_pools(t):
        return t.entry(pools.champion_number(t))
    final = t.match(rounds_count(t), 0)
    return None if final is None else t.entry(final.winner)


def people_of(t: Tournament, m: TMatch) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The people of each side of a match (an AI side has none); a Trix pool's all on the first."""
    if m.pool:
        return pools.people_of(t, m), ()
    ea, eb = t.entry(m.a), t.entry(m.b)
    return ((() if ea is None or ea.ai else ea.players), (() if eb is None or eb.ai else eb.players))


def match_seats(t: Tournament, m: TMatch) -> dict[int, str]:
    """Where the people of match ``m`` sit at its table: a pair as partners (seats 1+3 against 2+4),
    a Trix pool in seat order (bot/core/pools.py); AI seats are left out."""
    if m.pool:
        return pools.seats(t, m)
    a, b = people_of(t, m)
    seats = {0: a[0], 2: a[1]} if a else {}
    if b:
        seats |= {1: b[0], 3: b[1]}
    return seats


def match_of(t: Tournament, player_id: str) -> TMatch | None:
    """The person's match of the running round that is called or being played."""
    r = current_round(t)
    for m in t.matches:
        if r is not None and m.round == r.number and m.status in (MatchStatus.CALLED, MatchStatus.PLAYING):
            a, b = people_of(t, m)
            if player_id in a or player_id in b:
                return m
    return None


def ready(t: Tournament, player_id: str) -> Tournament:
    m = match_of(t, player_id)
    if t.status != TourneyStatus.RUNNING or m is None:
        raise refuse("no_match")
    if m.status != MatchStatus.CALLED or player_id in m.ready:
        return t
    return _set(t, m, ready=(*m.ready, player_id))


def all_ready(t: Tournament, m: TMatch) -> bool:
    a, b = people_of(t, m)
    return m.status == MatchStatus.CALLED and set(a) | set(b) <= set(m.ready)


def deadline(t: Tournament, now: float) -> Tournament:
    """Run the pending step due by ``now``: check-in opens, the start, or a round's deadline."""
    if t.status == TourneyStatus.REGISTRATION and now >= t.checkin_at:
        t = replace(t, status=TourneyStatus.CHECKIN, next_at=t.start_at)
    if t.status == TourneyStatus.CHECKIN and now >= t.start_at:
        return start(t, now)
    t = close_reviews(t, now)
    r = current_round(t)
    if t.status != TourneyStatus.RUNNING or r is None or now < r.deadline:
        return t
    while t.status == TourneyStatus.RUNNING and (current_round(t) or r).number == r.number:
        m = next((m for m in t.matches if m.round == r.number and m.status == MatchStatus.CALLED
                  and not all_ready(t, m)), None)
        if m is None:  # only matches whose people are all ready remain: they wait for the chat's table
            nxt = _next_step(t, False)  # a review window's end, if one is left
            return t if nxt == t.next_at else replace(t, next_at=nxt)
        if m.pool:  # a Trix pool: the people ready share the top ranks' points (bot/core/pools.py)
            got = pools.forfeit_points(t, m)
            t = _decide_pool(t, m, How.FORFEIT, got, (0,) * len(m.pool), now, note=str(len(m.ready)))
            continue
        a, b = people_of(t, m)
        ea, eb = t.entry(m.a), t.entry(m.b)
        na = 2 if ea is not None and ea.ai else sum(p in m.ready for p in a)
        nb = 2 if eb is not None and eb.ai else sum(p in m.ready for p in b)
        winner = m.a if na > nb else m.b if nb > na else None
        if winner is not None and (t.entry(winner) or TEntry(0, (), ai=True)).ai:
            winner = None  # an AI pair never goes on
        t = _decide(t, m, winner, How.FORFEIT, now, note=f"{na}-{nb}")
    return t


def m_deadline(t: Tournament) -> float:
    r = current_round(t)
    return 0.0 if r is None else r.deadline


def table_ended(t: Tournament, m: TMatch, winners: set[int] | None, now: float,
                scores: dict[int, int] | None = None) -> Tournament:
    """Match ``m``'s table ended: ``winners`` the seats that won (None: stopped, no result: called again);
    ``scores``: each seat's final score (a Trix pool's points come from them)."""
    if m.status != MatchStatus.PLAYING:
        return t
    if winners is None:  # called again, with a whole round's time to be ready
        t = _set(t, m, status=MatchStatus.CALLED, table_id=None, ready=())
        until = max(m_deadline(t), now + t.round_minutes * MINUTE)
        t = replace(t, rounds=tuple(replace(r, deadline=until) if r.number == m.round else r for r in t.rounds))
        t = replace(t, next_at=_next_step(t, True))
        return replace(t, audit=_audit(t, now, "bot", "replay", f"{m.round}:{m.slot}:{m.table_id}"))
    if m.pool:  # a Trix pool: points by rank at the table, in review as a pair match's result
        got = tuple((scores or {}).get(seat, 0) for seat in range(len(m.pool)))
        out = {e.number for e in t.entries if e.disqualified}  # a pool played again: they score nothing
        points = tuple(0 if n in out else p for n, p in zip(m.pool, pools.halves_by_rank(got), strict=True))
        if t.review_minutes > 0:  # provisional: final when its window ends unflagged (close_reviews)
            t = _set(t, m, points=points, scores=got)
            return _in_review(t, m, None, How.PLAYED, now)
        return _decide_pool(t, m, How.PLAYED, points, got, now, note=f"table {m.table_id}")
    side_a = bool(winners & {0, 2})
    winner = m.a if side_a else m.b
    ea, eb = t.entry(m.a), t.entry(m.b)
    vs_ai = (ea is not None and ea.ai) or (eb is not None and eb.ai)
    if (t.entry(winner) or TEntry(0, (), ai=True)).ai:
        winner = None
    how = How.AI_BYE if vs_ai else How.PLAYED
    if t.review_minutes > 0:  # provisional: final when its window ends unflagged (close_reviews)
        return _in_review(t, m, winner, how, now)
    return _decide(t, m, winner, how, now, note=f"table {m.table_id}")


def _in_review(t: Tournament, m: TMatch, winner: int | None, how: How, now: float) -> Tournament:
    """Match ``m``'s table gave ``winner``: recorded, in review until the window ends."""
    t = _set(t, m, status=MatchStatus.REVIEW, winner=winner, how=how, decided_at=now, ready=(),
             review_until=now + t.review_minutes * MINUTE)
    x = t.match(m.round, m.slot)
    detail = (_pool_detail(m, x.points) if x is not None and m.pool
              else f"{m.round}:{m.slot}:{'-' if winner is None else winner}")  # a pool: each one's points
    t = replace(t, audit=_audit(t, now, "bot", "result", f"{detail}:table {m.table_id}"))
    return replace(t, next_at=_next_step(t, _called(t)))


def close_reviews(t: Tournament, now: float) -> Tournament:
    """Every unflagged review window ended by ``now``: its result becomes final (the same object when
    none has; run by the tick, so with the compare-and-set on ``rev`` each window closes once)."""
    while t.status == TourneyStatus.RUNNING:
        m = next((m for m in t.matches if m.status == MatchStatus.REVIEW and m.flagged_by is None
                  and m.review_until is not None and m.review_until <= now), None)
        if m is None:
            break
        if m.pool:  # a Trix pool: its recorded points become final
            t = _decide_pool(t, m, m.how or How.PLAYED, m.points, m.scores, now, note=f"table {m.table_id}")
            continue
        t = _decide(t, m, m.winner, m.how or How.PLAYED, now, note=f"table {m.table_id}")
    return t


def review_of(t: Tournament, player_id: str) -> TMatch | None:
    """The person's played match whose result is in review (a person has one at most: the next round
    opens once every match of the round is final)."""
    return next((m for m in t.matches if m.status == MatchStatus.REVIEW
                 and player_id in (*people_of(t, m)[0], *people_of(t, m)[1])), None)


def flag(t: Tournament, player_id: str, now: float, reason: str = "") -> Tournament:
    """A person of a match in review flags it: it waits for the organiser (no window, no timeout)."""
    if not isinstance(reason, str):
        raise TableError(Refusal.BAD_ACTION)
    m = review_of(t, player_id)
    if m is None:
        played = any(m.how in (How.PLAYED, How.AI_BYE) and player_id in (*people_of(t, m)[0], *people_of(t, m)[1])
                     for m in t.matches if m.status == MatchStatus.DONE)
        raise refuse("review_over" if played else "no_review")
    if m.flagged_by is not None:
        raise refuse("flagged")
    if m.review_until is not None and now >= m.review_until:
        raise refuse("review_over")  # the tick makes it final (it may not have run yet)
    why = " ".join(reason.split())[:FLAG_REASON_CHARS]
    t = _set(t, m, flagged_by=player_id, flag_reason=why)
    t = replace(t, audit=_audit(t, now, player_id, "flag", f"{m.round}:{m.slot}:{why}"))
    return replace(t, next_at=_next_step(t, _called(t)))


def parse_match(text: object) -> tuple[int, int] | None:
    """``"1-2"`` (round 1, its second match) as ``(1, 1)``: round and slot; None if it is not that."""
    from bot.core.identity import ascii_int

    if not isinstance(text, str):
        return None
    r, dash, n = text.strip().partition("-")
    rn, nn = ascii_int(r), ascii_int(n)
    if not dash or rn is None or nn is None or rn < 1 or nn < 1:
        return None
    return rn, nn - 1


def decide(t: Tournament, actor: str, now: float, round_: int, slot: int, verb: str,
           pair: int | None = None) -> Tournament:
    """The organiser's decision on match ``round_``:``slot`` of the running round: ``uphold`` its result
    (in review), set ``winner`` ``pair``, ``replay`` it (called again), or ``disqualify`` ``pair`` (out
    of the tournament; its opponent goes on). A match of an earlier round is not changed (its winner has
    played on), nor one being played, nor one whose sides are not known yet."""
    if verb not in DECISIONS:
        raise refuse("decision")
    if t.status != TourneyStatus.RUNNING:
        raise refuse("no_such_match" if t.open else "over")
    m = t.match(round_, slot)
    r = current_round(t)
    if m is None or r is None or m.round > r.number:
        raise refuse("no_such_match")
    if m.round < r.number:
        raise refuse("too_late")
    if m.status in (MatchStatus.WAITING, MatchStatus.PLAYING):
        raise refuse("not_decidable")
    if m.pool:  # a Trix pool (bot/core/pools.py): no winner to set
        return _decide_pool_by(t, m, actor, now, r, verb, pair)
    if verb in ("winner", "disqualify"):
        if type(pair) is not int or pair not in (m.a, m.b):
            raise refuse("bad_pair")
        if (t.entry(pair) or TEntry(0, (), ai=True)).ai:
            raise refuse("ai_pair")
    if verb == "uphold":
        if m.status != MatchStatus.REVIEW:
            raise refuse("not_in_review")
        return _decide(t, m, m.winner, m.how or How.PLAYED, now, actor, action="uphold")
    if verb == "winner":
        return _decide(t, m, pair, How.ORGANISER, now, actor, action="winner")
    if verb == "disqualify":
        other = m.b if pair == m.a else m.a
        e = t.entry(other)
        goes_on = other if e is not None and not e.ai and not e.disqualified else None
        t = replace(t, entries=tuple(replace(x, disqualified=True) if x.number == pair else x for x in t.entries))
        return _decide(t, m, goes_on, How.ORGANISER, now, actor, note=str(pair), action="disqualify")
    if m.status == MatchStatus.CALLED:
        raise refuse("not_decidable")  # not played yet: nothing to play again
    # replay: called again with a whole round's time; a winner it had sent on comes back
    t = _set(t, m, status=MatchStatus.CALLED, winner=None, how=None, decided_at=None, table_id=None, ready=(),
             review_until=None, flagged_by=None, flag_reason="")
    nxt = t.match(m.round + 1, m.slot // 2)
    if nxt is not None:
        t = _set(t, nxt, **({"a": None} if m.slot % 2 == 0 else {"b": None}))
    until = max(r.deadline, now + t.round_minutes * MINUTE)
    t = replace(t, rounds=tuple(replace(x, deadline=until) if x.number == r.number else x for x in t.rounds),
                audit=_audit(t, now, actor, "replay", f"{m.round}:{m.slot}:{m.table_id}"))
    return replace(t, next_at=_next_step(t, True))


def _decide_pool_by(t: Tournament, m: TMatch, actor: str, now: float, r: TRound, verb: str,
                    pair: int | None) -> Tournament:
    """The organiser's decision on a Trix pool of the running round with a result (in review, or final:
    played or forfeited): ``uphold`` (in review), ``replay`` (called again: its points are undone), or
    ``disqualify`` a person of it (0 points for the round and seated in no later round; the others keep
    their ranks' points). ``winner`` is refused: a pool of four ranks people, it has no winner to set.
    A called pool has no result to decide on, nor has a round's sit-outs' bye."""
    if verb == "winner":
        raise refuse("pool_winner")
    if m.status == MatchStatus.CALLED or pools.is_bye(m):
        raise refuse("not_decidable")
    if verb == "uphold":
        if m.status != MatchStatus.REVIEW:
            raise refuse("not_in_review")
        return _decide_pool(t, m, m.how or How.PLAYED, m.points, m.scores, now, actor=actor, action="uphold")
    if verb == "disqualify":
        if type(pair) is not int or pair not in m.pool:
            raise refuse("bad_person")
        if (t.entry(pair) or TEntry(0, (), ai=True)).ai:
            raise refuse("ai_pair")
        points = tuple(0 if n == pair else p for n, p in zip(m.pool, m.points, strict=True))
        t = replace(t, entries=tuple(replace(x, disqualified=True) if x.number == pair else x for x in t.entries))
        return _decide_pool(t, m, m.how or How.PLAYED, points, m.scores, now, note=str(pair), actor=actor,
                            action="disqualify")
    # replay: called again with a whole round's time; its points are undone
    t = _set(t, m, status=MatchStatus.CALLED, how=None, decided_at=None, table_id=None, ready=(), points=(),
             scores=(), review_until=None, flagged_by=None, flag_reason="")
    until = max(r.deadline, now + t.round_minutes * MINUTE)
    t = replace(t, rounds=tuple(replace(x, deadline=until) if x.number == r.number else x for x in t.rounds),
                audit=_audit(t, now, actor, "replay", f"{m.round}:{m.slot}:{m.table_id}"))
    return replace(t, next_at=_next_step(t, True))


def cancel(t: Tournament, now: float, actor: str) -> Tournament:
    if not t.open:
        raise refuse("closed")
    return replace(t, status=TourneyStatus.CANCELLED, next_at=None,
                   audit=_audit(t, now, actor, "cancelled", "organiser"))


# ---------------------------------------------------------------------- running it

class Tournaments:
    """The tournaments of every chat: the commands' changes, the clock's steps, the match tables."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.repo = manager.repo
        self._listeners: list[Listener] = []
        self._flag_listeners: list[FlagListener] = []
        #: The signed address of a finished table's replay on the web (set by the runner when the web
        #: table is configured: bot/app/runner.py); None: no web table.
        self.replay_link: Callable[[int], str | None] | None = None
        #: A match's player's seat on the web table, for their ping: (table, seat, player) -> (address,
        #: whether Telegram opens it as its Mini App); set by the runner with the web table, else None.
        self.seat_link: Callable[[int, int, str], tuple[str, bool] | None] | None = None
        self._busy: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Where matches are played (bot/core/venues.py): the adapters register how to open threads/topics.
        self.venues = Venues(self.repo)
        self._match_listeners: list[MatchListener] = []
        self._opening: dict[int, asyncio.Lock] = {}  # one opening of tables at a time per tournament
        self._again: set[int] = set()  # tournaments changed while their tables were being opened
        manager.subscribe(self._on_update)

    def on_change(self, callback: Listener) -> None:
        """Call ``callback(tournament)`` after every change this process writes (to show the bracket)."""
        self._listeners.append(callback)

    def on_flag(self, callback: FlagListener) -> None:
        """Call ``callback(tournament, match)`` when a person's flag is written by this process (once per
        flag: the organiser is told of it; bot/present/tournament_notices.py)."""
        self._flag_listeners.append(callback)

    def on_match(self, callback: MatchListener) -> None:
        """Call ``callback(tournament, match, kind, venue)`` when a match is called or its table opens
        (see :data:`MatchListener`)."""
        self._match_listeners.append(callback)

    async def _tell_match(self, t: Tournament, m: TMatch, kind: str, venue: Venue | None) -> None:
        for listener in list(self._match_listeners):
            try:
                await listener(t, m, kind, venue)
            except Exception:
                log.exception("telling of match %s:%s of tournament %s failed", m.round, m.slot, t.tournament_id)

    async def flagged(self, t: Tournament, player_id: str) -> None:
        """Tell the flag's listeners of the match ``player_id`` just flagged in ``t``."""
        m = review_of(t, player_id)
        if m is not None and m.flagged_by == player_id:
            for listener in list(self._flag_listeners):
                try:
                    await listener(t, m)
                except Exception:
                    log.exception("telling of the flag in tournament %s failed", t.tournament_id)

    async def _tell(self, t: Tournament) -> None:
        await tell(self._listeners, t, log, "showing tournament %s failed", t.tournament_id)

    async def in_chat(self, chat_id: str) -> Tournament | None:
        """The chat's tournament; in a match's thread or topic, its group's (bot/core/venues.py)."""
        return await self.repo.chat_tournament(await self.venues.home(chat_id))

    async def create(self, t: Tournament) -> Tournament:
        try:
            stored = await self.repo.create_tournament(t)
        except TournamentExists:
            raise refuse("exists") from None
        await self._tell(stored)
        return stored

    async def change(self, tournament_id: int, fn: Callable[[Tournament], Tournament]) -> Tournament:
        """Apply ``fn`` to the stored tournament and write it (again on a conflict); tell and play on."""
        lock = self._busy.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            for _ in range(8):
                t = await self.repo.get_tournament(tournament_id)
                if t is None:
                    raise refuse("none")
                before = t
                new_t = fn(t)
                if new_t is t:
                    return t
                try:
                    t = await self.repo.save_tournament(new_t)
                except TournamentConflict:
                    continue  # another process wrote it: read it again and decide again
                break
            else:
                raise TableError(Refusal.INTERNAL)
        await self._tell(t)
        await self._after(before, t)
        return await self._play(t)

    async def _after(self, before: Tournament, t: Tournament) -> None:
        """The newly called matches of a written change are told (their players are pinged). A venue
        is not closed when its match ends: its table's last messages are still being edited there, and
        the platform archives it when it falls quiet (bot/adapters/discord/venues.py)."""
        for m in t.matches:
            old = before.match(m.round, m.slot)
            if m.status == MatchStatus.CALLED and (old is None or old.status != MatchStatus.CALLED):
                await self._tell_match(t, m, "called", await self.venues.of(t, m))

    async def _play(self, t: Tournament) -> Tournament:
        """Open the tables of the matches whose people are all ready: each in its venue (a thread or
        forum topic, bot/core/venues.py) at once, or in the group when it has none, one after another."""
        if t.status != TourneyStatus.RUNNING or not any(all_ready(t, m) for m in t.matches):
            return t
        tid = t.tournament_id
        lock = self._opening.setdefault(tid, asyncio.Lock())
        if lock.locked():  # this process is opening tables of it: that loop looks again (below)
            self._again.add(tid)
            return t
        async with lock:  # a match's venue and table are opened once here (storage decides between processes)
            progress = True
            while progress or tid in self._again:
                self._again.discard(tid)
                progress = False
                fresh = await self.repo.get_tournament(tid)
                t = fresh if fresh is not None else t
                for m in [m for m in t.matches if all_ready(t, m)]:
                    opened = await self._open(t, m)
                    if opened is not None:
                        t, progress = opened, True
        return t

    async def _venue(self, t: Tournament, m: TMatch) -> Venue | None:
        """The match's venue, opened now if it needs one; None: the group. A platform that refuses
        (the bot may not create threads or topics) is written down once: the group from then on."""
        if not self.venues.can_open(t) or any(a.action == "venues_off" for a in t.audit):
            return await self.venues.of(t, m)
        try:
            return await self.venues.open(t, m)
        except VenueRefused as e:
            log.info("tournament %s: no venue for match %s:%s (%s): played in the group", t.tournament_id,
                     m.round, m.slot, e)
            now = self.manager.clock.now()

            def off(cur: Tournament) -> Tournament:
                if any(a.action == "venues_off" for a in cur.audit):
                    return cur
                return replace(cur, audit=_audit(cur, now, "bot", "venues_off", ""))

            await self.change(t.tournament_id, off)
            return None

    async def _open(self, t: Tournament, m: TMatch) -> Tournament | None:
        """Open match ``m``'s table in its venue (None: it waits, for the group's table or a retry)."""
        names = {p.player_id: p.name for p in t.players}
        seats = match_seats(t, m)
        venue = await self._venue(t, m)  # its thread or topic (bot/core/venues.py), None: the group
        chat = t.chat_id if venue is None else venue.chat_id
        if venue is None:  # in the group: one match after another
            for x in t.matches:
                if x.status == MatchStatus.PLAYING and await self.venues.of(t, x) is None:
                    return None
        live = self.manager.table_in_chat(chat)
        if live is not None:  # the chat is busy, or it is this match's table (opened by a process that died)
            people = {s.player_id for s in live.table.seats if s.player_id is not None and not s.is_ai}
            if people != set(seats.values()) or live.table.game != t.game:
                return None
            table_id = live.table.table_id
        else:
            first = min(seats)
            try:
                made = await self.manager.create(chat, Person(seats[first], names[seats[first]]), t.game,
                                                 t.options or None)
                for seat in sorted(seats):
                    if seat != first:
                        await self.manager.join(chat, Person(seats[seat], names[seats[seat]]), seat)
                table_id = made.table.table_id
                snap = self.manager.get(table_id)
                if snap is not None and snap.table.status == LOBBY:  # with AI seats, or no auto-begin
                    await self.manager.begin(chat, Person(seats[first], names[seats[first]]))
            except TableError as e:
                log.info("tournament %s: match %s:%s waits for the chat (%s)", t.tournament_id, m.round, m.slot, e)
                return None
        now = self.manager.clock.now()
        wrote = False

        def playing(cur: Tournament) -> Tournament:
            nonlocal wrote
            x = cur.match(m.round, m.slot)
            wrote = x is not None and x.status == MatchStatus.CALLED
            if x is None or not wrote:
                return cur
            cur = _set(cur, x, status=MatchStatus.PLAYING, table_id=table_id)
            return replace(cur, audit=_audit(cur, now, "bot", "table", f"{m.round}:{m.slot}:{table_id}"))

        done = await self.change(t.tournament_id, playing)
        now_m = done.match(m.round, m.slot)
        if wrote and now_m is not None and now_m.table_id == table_id:  # written here: its players told once
            await self._tell_match(done, now_m, "table", venue)
        return done

    async def _on_update(self, update: TableUpdate) -> None:
        """A table ended: if it is a match's, record it (in a task: this listener opens tables)."""
        record = update.snapshot.table
        if record.status in LIVE_STATUSES:
            return
        task = asyncio.get_running_loop().create_task(self._ended(record.chat_id, record.table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for the recording of the tables that ended (tests; a closing process)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _ended(self, chat_id: str, table_id: int) -> None:
        try:
            await self._record_if_match(chat_id, table_id)
        except Exception:
            log.exception("recording the end of table %s for its tournament failed (the tick tries again)",
                          table_id)

    async def _record_if_match(self, chat_id: str, table_id: int) -> None:
        record_chat = await self.venues.home(chat_id)  # a table played in a venue: its tournament's chat
        t = await self.repo.chat_tournament(record_chat)
        if t is not None and t.open and any(m.table_id == table_id and m.status == MatchStatus.PLAYING
                                            for m in t.matches):
            await self.table_done(t.tournament_id, table_id)

    async def table_done(self, tournament_id: int, table_id: int) -> Tournament:
        """A match's table ended (seen by the update, or by :meth:`tick` after a restart): record it."""
        stored = await self.repo.get_table(table_id)
        if stored is None or stored.status in LIVE_STATUSES:
            t = await self.repo.get_tournament(tournament_id)
            assert t is not None
            return t
        result = await self.repo.table_results(table_id) if stored.status == FINISHED else None
        winners = None if result is None else {r.seat for r in result.results if r.won}
        scores = None if result is None else {r.seat: r.score for r in result.results if not r.left}
        now = self.manager.clock.now()

        def ended(t: Tournament) -> Tournament:
            m = next((m for m in t.matches if m.table_id == table_id and m.status == MatchStatus.PLAYING), None)
            return t if m is None else table_ended(t, m, winners, now, scores)

        return await self.change(tournament_id, ended)

    async def tick(self) -> None:
        """Run every due step, record the match tables that ended, and open the next ones (each
        process does it; storage lets one write each change)."""
        now = self.manager.clock.now()
        for tid in await self.repo.due_tournaments(now):
            await self.change(tid, lambda t: deadline(t, now))
        for tid in await self.repo.open_tournaments():
            t = await self.repo.get_tournament(tid)
            if t is None:
                continue
            for m in t.matches:
                if m.status == MatchStatus.PLAYING and m.table_id is not None:
                    t = await self.table_done(tid, m.table_id)
            await self._play(t)


# ---------------------------------------------------------------------- the commands (bot/core/service.py)

async def tournament_new(tournaments: Tournaments, cmd: NewTournament, actor: Actor) -> Tournament:
    """An admin's ``/tournament new`` in the group of ``actor`` (the dispatch checked both)."""
    m = tournaments.manager
    if not isinstance(cmd.options, dict | None) or type(cmd.ai) is not bool:
        raise TableError(Refusal.BAD_ACTION)
    options = dict(cmd.options or {})
    if cmd.game in (*PAIR_GAMES, pools.GAME):  # the table options are checked now, not when round 1 is drawn
        check_options(cmd.game, 0, {**(await m.prefs.chat(actor.chat_id)).default_options.get(cmd.game, {}),
                                    **options})
    chat = await m.prefs.chat(actor.chat_id)
    t = new(actor.chat_id, actor.person, cmd.game, pairing=cmd.pairing, now=m.clock.now(),
            start_minutes=cmd.start_minutes, checkin_minutes=cmd.checkin_minutes, round_minutes=cmd.round_minutes,
            ai=cmd.ai, options=options, lang=chat.lang, fmt=cmd.format, review_minutes=cmd.review_minutes,
            rounds=cmd.rounds)
    return await tournaments.create(t)


async def tournament_command(tournaments: Tournaments, cmd: TournamentAction, actor: Actor) -> Tournament:
    """A person's tournament button or command in its group (the dispatch checked where it came from)."""
    t = await tournaments.in_chat(actor.chat_id)
    if cmd.tournament_id is not None:
        if type(cmd.tournament_id) is not int:
            raise TableError(Refusal.BAD_ACTION)
        if t is None or t.tournament_id != cmd.tournament_id:
            other = await tournaments.repo.get_tournament(cmd.tournament_id)
            if other is not None and other.chat_id != await tournaments.venues.home(actor.chat_id):
                raise TableError(Refusal.WRONG_TABLE)
            raise TableError(Refusal.STALE)
    if t is None:
        raise refuse("none")
    if cmd.verb in ("show", "audit"):
        return t
    if cmd.pair is not None and (type(cmd.pair) is not int or cmd.verb not in ("register", "decide")):
        raise TableError(Refusal.BAD_ACTION)
    me, now = actor.person, tournaments.manager.clock.now()
    if cmd.verb == "flag":  # before the open check: a finished tournament's results stand ("review_over")
        if not isinstance(cmd.reason, str):
            raise TableError(Refusal.BAD_ACTION)
        await tournaments.manager.player(me)
        flagged = await tournaments.change(t.tournament_id, lambda x: flag(x, me.player_id, now, cmd.reason))
        await tournaments.flagged(flagged, me.player_id)
        return flagged
    if cmd.verb in ("start", "cancel", "decide"):
        if me.player_id != t.organiser and not await actor.is_admin():
            raise refuse("organiser_only")
        if cmd.verb == "decide":
            where = parse_match(cmd.match)
            if where is None:
                raise refuse("no_such_match")
            verb = cmd.decision if isinstance(cmd.decision, str) else ""
            return await tournaments.change(t.tournament_id, lambda x: decide(x, me.player_id, now, *where, verb,
                                                                              cmd.pair))
    if not t.open:
        raise refuse("closed")
    if cmd.verb in ("start", "cancel"):
        if cmd.verb == "start":
            return await tournaments.change(t.tournament_id, lambda x: start(x, now, me.player_id))
        return await tournaments.change(t.tournament_id, lambda x: cancel(x, now, me.player_id))
    steps: dict[str, Callable[[Tournament], Tournament]] = {
        "register": lambda x: register(x, me, now, cmd.pair),
        "withdraw": lambda x: withdraw(x, me.player_id),
        "checkin": lambda x: check_in(x, me.player_id),
        "ready": lambda x: ready(x, me.player_id),
    }
    step = steps.get(cmd.verb)
    if step is None:
        raise TableError(Refusal.BAD_ACTION)
    await tournaments.manager.player(me)  # the name the bracket shows
    return await tournaments.change(t.tournament_id, step)
