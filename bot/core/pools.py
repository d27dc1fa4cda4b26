"""Trix tournaments in pools of four: points over rounds, each person for themselves (docs/tournaments.md).

Pure functions of a :class:`~storage.tournaments.Tournament` whose ``format`` is ``"pools"`` or
``"pools:<rounds>"``, called by bot/core/tournaments.py at marked points (the start, a round's opening,
a pool's table ending, the forfeit rule, the champion). An entry is one person; a match is a pool
(:attr:`~storage.tournaments.TMatch.pool`: its entries in seat order, ``a``/``b`` None).

- **Seating** (:func:`seat_round`): round 1 in the seeded draw's order (the entries are numbered in
  that order at the start), later rounds by the standings, the top four together, the next four, …
  (as a Swiss by score groups), and a pool that would repeat a table of four already played is
  changed by swapping its last person with the nearest person below (else above) who makes every pool
  new, when one does.
- **Not a multiple of four**: with AI allowed, the last pool is filled with labelled AI seats (AI
  entries, never in the standings); without, the lowest-ranked people who have not sat out yet sit
  out (the fewest times first) with a **bye** scored as an average table: 2½ points and a Trix score
  of 0 (a whole Trix game's scores add up to 0, so 0 is its average).
- **Points**: by rank at the table by Trix score, 4/3/2/1; tied people share the points of the ranks
  they cover (two tied first: 3½ each). Kept in halves (7 is 3½) so that they are whole numbers.
  People's ranks count the AI seats like anyone (an AI that beat them takes the rank's points away),
  but an AI never ranks in the standings nor wins anything.
- **Forfeit** (:func:`forfeit_points`): at the deadline a pool whose people are not all ready is not
  played: the people who pressed Ready share the top ranks' points (one ready: 4; two: 3½ each; three:
  3 each), the others score 0, and nobody's Trix score changes.
- **Standings** (:func:`table`): points, then the sum of the Trix scores (the first tie-break), then
  the seed (the draw's order); only final pools count (a played pool is first in review:
  bot/core/tournaments.py). A person the organiser disqualified is seated in no later round (an AI
  seat is added where allowed and the last pool falls short) and never champion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.core.leagues import MAX_SWISS_ROUNDS
from storage.tournaments import MatchStatus, TEntry, TMatch, Tournament

POOLS = "pools"
GAME = "trix"
SEATS = 4
DEFAULT_ROUNDS = 3
MAX_ROUNDS = MAX_SWISS_ROUNDS  # as a Swiss
#: The points of ranks 1 to 4, in halves.
RANK_HALVES = (8, 6, 4, 2)
#: A sit-out's bye: an average table's points (2½) and Trix score (0).
BYE_HALVES = 5


def is_pools(t: Tournament) -> bool:
    return t.format.partition(":")[0] == POOLS


def planned(t: Tournament) -> int:
    """The organiser's number of rounds (``"pools:4"``), else :data:`DEFAULT_ROUNDS`."""
    rounds = t.format.partition(":")[2]
    return int(rounds) if rounds.isdigit() else DEFAULT_ROUNDS


def text(rounds: int | None) -> str:
    return POOLS if rounds is None else f"{POOLS}:{rounds}"


def people(t: Tournament) -> list[int]:
    """The entries of people (not the AI seats), in seed order."""
    return [e.number for e in t.entries if not e.ai]


def enough(t: Tournament, n: int) -> bool:
    """Whether ``n`` people make a tournament: two with AI seats, a whole table (four) without."""
    return n >= (2 if t.ai_allowed else SEATS)


def slots(t: Tournament, n: int) -> int:
    """The matches of a round of ``n`` people: a pool per four (and with AI one for the rest; without,
    one bye match for the sit-outs)."""
    return -(-n // SEATS)


def begin(t: Tournament) -> Tournament:
    """``t`` with its AI seats (where allowed and needed) and every round's matches as placeholders."""
    n = len(t.entries)
    entries = t.entries
    if t.ai_allowed and n % SEATS:
        entries = (*entries, *(TEntry(n + 1 + i, (), ai=True) for i in range(SEATS - n % SEATS)))
    matches = tuple(TMatch(r, s, None, None) for r in range(1, planned(t) + 1) for s in range(slots(t, n)))
    return replace(t, entries=entries, matches=matches)


def halves_by_rank(scores: Sequence[int]) -> tuple[int, ...]:
    """Each seat's points in halves from its Trix score: 4/3/2/1 by rank, ties sharing their ranks'."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    out = [0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(RANK_HALVES[i:j + 1]) // (j - i + 1)  # always whole: see the module
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return tuple(out)


def forfeit_points(t: Tournament, m: TMatch) -> tuple[int, ...]:
    """A pool not played by its deadline: the people who pressed Ready share the top ranks' points."""
    ready = {e.number for e in t.entries if not e.ai and e.players and e.players[0] in m.ready}
    came = [n for n in m.pool if n in ready]
    share = sum(RANK_HALVES[:len(came)]) // len(came) if came else 0
    return tuple(share if n in ready else 0 for n in m.pool)


@dataclass(frozen=True, slots=True)
class Standing:
    entry: int
    halves: int      # tournament points in halves
    score: int       # the sum of the Trix scores: the first tie-break
    seed: int        # 0 = the first seed
    byes: int
    played: int = 0  # pools played (a forfeit and a bye count as not played)

    def key(self) -> tuple[int, int, int]:
        return (-self.halves, -self.score, self.seed)


def table(t: Tournament) -> list[Standing]:
    """The standings of the people (an AI seat is never in them)."""
    seeds = people(t)
    halves = dict.fromkeys(seeds, 0)
    score = dict.fromkeys(seeds, 0)
    byes = dict.fromkeys(seeds, 0)
    played = dict.fromkeys(seeds, 0)
    for m in t.matches:
        if m.status != MatchStatus.DONE or not m.points:
            continue
        for i, n in enumerate(m.pool):
            if n not in halves:
                continue
            halves[n] += m.points[i]
            score[n] += m.scores[i] if i < len(m.scores) else 0
            if is_bye(m):
                byes[n] += 1
            elif m.table_id is not None:
                played[n] += 1
    rows = [Standing(n, halves[n], score[n], i, byes[n], played[n]) for i, n in enumerate(seeds)]
    return sorted(rows, key=Standing.key)


def tables_played(t: Tournament) -> set[frozenset[int]]:
    """The tables of four people already seated together (any pool drawn before, played or not)."""
    ai = {e.number for e in t.entries if e.ai}
    return {frozenset(n for n in m.pool if n not in ai) for m in t.matches
            if m.a is None and len([n for n in m.pool if n not in ai]) == SEATS and m.status != MatchStatus.WAITING}


def seat_round(order: Sequence[int], ai: Sequence[int], byes: dict[int, int],
               seen: set[frozenset[int]]) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """The pools of a round and its sit-outs: ``order`` the people best first; ``ai`` the AI seats to
    fill the last pool with (empty: the lowest-ranked with the fewest byes sit out instead);
    ``byes`` how often each sat out; ``seen`` the tables of four played before."""
    rest = list(order)
    out: tuple[int, ...] = ()
    extra = len(rest) % SEATS
    if extra and not ai:
        # the lowest-ranked among those who sat out least (stable: ranks kept among equals)
        pick = sorted(reversed(rest), key=lambda n: byes.get(n, 0))[:extra]
        out = tuple(n for n in order if n in pick)
        rest = [n for n in rest if n not in pick]
    groups = [rest[i:i + SEATS] for i in range(0, len(rest), SEATS)]
    _avoid_repeats(groups, seen)
    pools = [tuple(g) for g in groups]
    if extra and ai:
        pools[-1] = (*pools[-1], *ai[:SEATS - len(pools[-1])])
    return pools, out


def _avoid_repeats(groups: list[list[int]], seen: set[frozenset[int]]) -> None:
    """Swap people between neighbouring groups (nearest in rank first) so that no full group repeats a
    table in ``seen``, where a swap that keeps every other group new exists."""
    def new(g: list[int]) -> bool:
        return len(g) < SEATS or frozenset(g) not in seen

    for gi, g in enumerate(groups):
        if new(g):
            continue
        fixed = False
        for mine in range(len(g) - 1, -1, -1):  # the lowest of the group first
            # candidates nearest in rank: the groups below, then the groups above
            others = [(oi, k) for oi in (*range(gi + 1, len(groups)), *range(gi - 1, -1, -1))
                      for k in range(len(groups[oi]))]
            for oi, k in others:
                a, b = list(g), list(groups[oi])
                a[mine], b[k] = b[k], a[mine]
                if new(a) and new(b) and all(new(x) for j, x in enumerate(groups) if j not in (gi, oi)):
                    groups[gi], groups[oi] = a, b
                    fixed = True
                    break
            if fixed:
                break


def draw_round(t: Tournament, number: int) -> Tournament:
    """Round ``number``'s pools written into its placeholder matches: round 1 in seed order, later
    rounds by the standings; the sit-outs' bye (if any) in the last slot."""
    mine = sorted((m for m in t.matches if m.round == number), key=lambda m: m.slot)
    if not mine or any(m.pool for m in mine):
        return t  # drawn already
    out_ = {e.number for e in t.entries if e.disqualified}  # disqualified by the organiser: seated no more
    ranked = [n for n in ([s.entry for s in table(t)] if number > 1 else people(t)) if n not in out_]
    ai = [e.number for e in t.entries if e.ai]
    short = (-len(ranked)) % SEATS if t.ai_allowed else 0
    if len(ai) < short:  # a disqualification left the last pool shorter than the AI seats made at the start
        top = max((e.number for e in t.entries), default=0)
        more = [TEntry(top + 1 + i, (), ai=True) for i in range(short - len(ai))]
        t = replace(t, entries=(*t.entries, *more))
        ai += [e.number for e in more]
    byes = {s.entry: s.byes for s in table(t)}
    pools, out = seat_round(ranked, ai, byes, tables_played(t))
    drawn = [*pools, *([out] if out else [])]
    by_slot = dict(enumerate(drawn))
    return replace(t, matches=tuple(replace(m, pool=by_slot[m.slot]) if m.round == number and m.slot in by_slot
                                    else m for m in t.matches))


def people_of(t: Tournament, m: TMatch) -> tuple[str, ...]:
    """The people of a pool, in seat order (the AI seats have none)."""
    out: list[str] = []
    for n in m.pool:
        e = t.entry(n)
        if e is not None and not e.ai and not e.disqualified:
            out += e.players
    return tuple(out)


def seats(t: Tournament, m: TMatch) -> dict[int, str]:
    """A pool's people by seat (an AI seat, or a disqualified person's in a pool played again, is left
    empty: the table's begin fills it)."""
    out: dict[int, str] = {}
    for seat, n in enumerate(m.pool):
        e = t.entry(n)
        if e is not None and not e.ai and not e.disqualified and e.players:
            out[seat] = e.players[0]
    return out


def is_bye(m: TMatch) -> bool:
    """A round's sit-outs (a pool with AI seats has four entries)."""
    return bool(m.pool) and len(m.pool) < SEATS


def champion_number(t: Tournament) -> int | None:
    """The top of the standings who was not disqualified, if they scored at all."""
    out = {e.number for e in t.entries if e.disqualified}
    top = [s for s in table(t) if s.entry not in out]
    return top[0].entry if top and top[0].halves > 0 else None


def shown(halves: int) -> tuple[int, bool]:
    """Points in halves as (whole points, and a half)."""
    return halves // 2, bool(halves % 2)
