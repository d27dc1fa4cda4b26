"""Pairings of a league of pairs: Swiss rounds, round robin (Berger tables), byes and standings.

Pure (no I/O, no clock): entries are numbers given in seed order (the first is the best seed); a
round played is a list of :class:`Game`. The tournament code (bot/core/tournaments.py) turns its
matches into games and back; docs/tournaments.md states the rules for people.

- **Side** plays the role of colour in chess: side A sits at seats 1 and 3, side B at seats 2 and 4.
  Each entry keeps a side history; the pairing prefers to give each the side it has had less, else the
  other side than last time. As in chess, equal scores come first: an entry may end two games off
  balance when its score group leaves no other way (measured: 104 of 3,900 entries over 390 random
  Swiss events of 4 to 16 entries, the others within one), never three off nor three times in a row
  at one side unless every other pairing is worse still.
- **Swiss** (:func:`swiss_round`): the bye first, to the lowest-ranked entry that has not had one
  (and whose removal leaves the others a pairing without repeats); then a maximum-weight matching of
  the others (:func:`networkx.max_weight_matching`, maximum cardinality) whose weights, in tiers each
  far heavier than the next, forbid a repeat, prefer equal scores, then balanced sides, then the
  Dutch order inside a score group (its top half against its bottom half); a pairing past the sides'
  absolute limit (three off, or three in a row) weighs more than a score gap. A pairing without a repeat
  always exists for at most n/2 rounds of n entries (each can still meet at least half the field:
  Dirac's theorem); past that an unlucky history can leave none, and then the matching takes the
  fewest repeats it can: every pair still plays.
- **Round robin** (:func:`round_robin`): the circle method in the order of the Berger tables, with a
  bye per round for an odd field (each entry has exactly one).
- **Standings** (:func:`standings`): match points (a win, a bye and a forfeit won score 1; a loss, a
  forfeit lost, a match where neither side came and a played bye lost to the AI score 0), then
  Buchholz (the sum of the points of the opponents met; a bye counts 0), then Sonneborn-Berger (the
  sum of the points of the opponents beaten), then the seed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

A, B = "A", "B"
#: The weight tiers of a Swiss matching. Over a whole round (at most 33 entries, 16 edges; at most 15
#: rounds): a repeat (10**14) outweighs every score gap and side penalty together (< 6 * 10**12); a
#: score gap of one point (10**9) outweighs all the ordinary side penalties (16 * 10**7) and Dutch
#: penalties (< 16 * 33**2); a side past the absolute limit (10**11) outweighs a gap of up to ten points;
#: a mild side penalty (10**5) outweighs all the Dutch ones. _BASE keeps every weight positive.
_BASE = 10**17
_REPEAT = 10**14
_SCORE = 10**9
_SIDE = 10**5
#: How much an entry wants a side: it has had the other side more often (strong), or only the other
#: side last time (mild: alternation).
_STRONG, _MILD = 100, 1
#: A side past the absolute limit: three off, or three times in a row (see _side_penalty).
_ABSOLUTE = 10**6


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a round: ``a`` at seats 1+3, ``b`` at seats 2+4 (None: a bye, played against the AI
    or not); ``winner`` the entry that scored (None: nobody did)."""

    a: int
    b: int | None
    winner: int | None


@dataclass(frozen=True, slots=True)
class Standing:
    entry: int
    points: int
    buchholz: int
    sonneborn: int
    seed: int        # 0 = the first seed
    byes: int
    sides: int       # games at side A minus games at side B
    last_side: str | None
    streak: int = 0  # games in a row at ``last_side``

    def key(self) -> tuple[int, int, int, int]:
        """Larger is better first: points, Buchholz, Sonneborn-Berger, then the better (smaller) seed."""
        return (-self.points, -self.buchholz, -self.sonneborn, self.seed)


def opponents(entry: int, games: Iterable[Game]) -> list[int]:
    """The entries ``entry`` was paired with (a bye is no one)."""
    out = []
    for g in games:
        if g.b is not None and entry in (g.a, g.b):
            out.append(g.b if g.a == entry else g.a)
    return out


def standings(entries: Sequence[int], games: Sequence[Game]) -> list[Standing]:
    """The entries ranked: points, Buchholz, Sonneborn-Berger, seed (see the module)."""
    points = dict.fromkeys(entries, 0)
    for g in games:
        if g.winner in points:
            points[g.winner] += 1
    out = []
    for seed, e in enumerate(entries):
        mine = [g for g in games if e in (g.a, g.b)]
        opp = opponents(e, mine)
        beaten = [g.b if g.a == e else g.a for g in mine if g.b is not None and g.winner == e]
        sides = [A if g.a == e else B for g in mine if g.b is not None]
        streak = next((i for i, x in enumerate(reversed(sides)) if x != sides[-1]), len(sides))
        out.append(Standing(e, points[e], sum(points.get(o, 0) for o in opp),
                            sum(points.get(o or 0, 0) for o in beaten), seed, sum(g.b is None for g in mine),
                            sides.count(A) - sides.count(B), sides[-1] if sides else None, streak))
    return sorted(out, key=Standing.key)


def _want(s: Standing) -> tuple[str | None, int]:
    """The side ``s`` wants and how much."""
    if s.sides:
        return (A if s.sides < 0 else B), _STRONG
    if s.last_side is not None:
        return (B if s.last_side == A else A), _MILD
    return None, 0


def _sides(x: Standing, y: Standing, board: int) -> tuple[int, int]:
    """Who of two paired entries sits at side A (first) and at side B: each gets the side it wants; if
    both want the same, the stronger want, then the higher rank gets it; with no history, the higher
    rank alternates by board (A on the first board, B on the second ...)."""
    wx, sx = _want(x)
    wy, sy = _want(y)
    hi, lo = (x, y) if x.key() < y.key() else (y, x)
    if wx is None and wy is None:
        return (hi.entry, lo.entry) if board % 2 == 0 else (lo.entry, hi.entry)
    if wx != wy:
        if wx == A or wy == B:
            return x.entry, y.entry
        return y.entry, x.entry
    first = x if sx > sy else y if sy > sx else hi  # both want wx: the stronger want, then the higher rank
    other = y if first is x else x
    return (first.entry, other.entry) if wx == A else (other.entry, first.entry)


def _side_penalty(x: Standing, y: Standing) -> int:
    """What pairing ``x`` with ``y`` costs in side balance: ``_ABSOLUTE`` when one of them would be
    three games off balance or at one side three times in a row (the chess rule's absolute limit),
    ``_STRONG`` when one would be two games off, ``_MILD`` when one would not alternate."""
    a = _sides(x, y, 0)[0]
    worst = 0
    for s, side in ((x, A if a == x.entry else B), (y, A if a == y.entry else B)):
        after = s.sides + (1 if side == A else -1)
        streak = s.streak + 1 if side == s.last_side else 1
        if abs(after) >= 3 or streak >= 3:
            worst = max(worst, _ABSOLUTE)
        elif abs(after) == 2:
            worst = max(worst, _STRONG)
        elif streak == 2:
            worst = max(worst, _MILD)
    return worst


def _matching(table: list[Standing], met: dict[frozenset[int], int]) -> list[tuple[Standing, Standing]]:
    """The best pairing of ``table`` (ranked, even in number) by the weights of the module."""
    groups: dict[int, list[int]] = {}
    for s in table:
        groups.setdefault(s.points, []).append(s.entry)
    rank = {s.entry: i for i, s in enumerate(table)}
    g = nx.Graph()
    for i, x in enumerate(table):
        for y in table[i + 1:]:
            if x.points == y.points:
                grp = groups[x.points]
                gap = abs(grp.index(x.entry) - grp.index(y.entry))
                dutch = (2 * gap - len(grp)) ** 2 // 4  # 0 when x and y are half the group apart
            else:
                dutch = (rank[x.entry] - rank[y.entry]) ** 2 // 4  # a floater meets the nearest rank
            weight = (_BASE - _REPEAT * met.get(frozenset((x.entry, y.entry)), 0)
                      - _SCORE * (x.points - y.points) ** 2 - _SIDE * _side_penalty(x, y) - dutch)
            g.add_edge(x.entry, y.entry, weight=weight)
    by = {s.entry: s for s in table}
    pairs = [(by[u], by[v]) for u, v in nx.max_weight_matching(g, maxcardinality=True)]
    return sorted(((x, y) if x.key() < y.key() else (y, x) for x, y in pairs), key=lambda p: p[0].key())


def _repeat_free(table: list[Standing], met: dict[frozenset[int], int]) -> bool:
    """Whether ``table`` has a pairing in which no two entries meet again."""
    g = nx.Graph()
    g.add_nodes_from(s.entry for s in table)
    g.add_edges_from((x.entry, y.entry) for i, x in enumerate(table) for y in table[i + 1:]
                     if frozenset((x.entry, y.entry)) not in met)
    return len(nx.max_weight_matching(g, maxcardinality=True)) * 2 == len(table)


def swiss_round(entries: Sequence[int], games: Sequence[Game]) -> list[tuple[int, int | None]]:
    """The next Swiss round of ``entries`` (seed order) after ``games``: ``(a, b)`` per board from the
    top, ``a`` at side A; the bye last, as ``(entry, None)``."""
    table = standings(entries, games)
    met: dict[frozenset[int], int] = {}
    for gm in games:
        if gm.b is not None:
            key = frozenset((gm.a, gm.b))
            met[key] = met.get(key, 0) + 1
    bye: Standing | None = None
    if len(table) % 2:
        fewest = min(s.byes for s in table)
        candidates = [s for s in reversed(table) if s.byes == fewest]  # the lowest-ranked first
        bye = next((s for s in candidates if _repeat_free([x for x in table if x is not s], met)), candidates[0])
        table = [s for s in table if s is not bye]
    boards = [_sides(x, y, i) for i, (x, y) in enumerate(_matching(table, met))]
    out: list[tuple[int, int | None]] = list(boards)
    if bye is not None:
        out.append((bye.entry, None))
    return out


def swiss_rounds(n: int) -> int:
    """The default number of Swiss rounds for ``n`` entries: ceil(log2 n), at least 1."""
    return max(1, math.ceil(math.log2(max(n, 2))))


def max_rounds(n: int) -> int:
    """The most rounds ``n`` entries can play without a repeat (a round robin's count)."""
    return n - 1 if n % 2 == 0 else n


def round_robin(entries: Sequence[int]) -> list[list[tuple[int, int | None]]]:
    """Every round of a round robin of ``entries`` (seed order) by the Berger tables: ``(a, b)`` per
    board, ``a`` at side A; in an odd field the entry paired with no one has the bye, as ``(entry, None)``
    last. Everyone meets everyone once, and each entry's sides differ by at most one."""
    players: list[int | None] = list(entries)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        return []
    rounds: list[list[tuple[int, int | None]]] = []
    fixed, ring = players[-1], players[:-1]
    for r in range(n - 1):
        # Berger: each round the ring turns by n/2 places, and the fixed player changes side
        rot = [ring[(i + r * (n // 2)) % (n - 1)] for i in range(n - 1)]
        boards: list[tuple[int | None, int | None]] = [(rot[0], fixed) if r % 2 == 0 else (fixed, rot[0])]
        boards += [(rot[i], rot[n - 1 - i]) for i in range(1, n // 2)]
        out: list[tuple[int, int | None]] = []
        bye: tuple[int, int | None] | None = None
        for a, b in boards:
            if a is None or b is None:
                bye = (b if a is None else a, None)  # type: ignore[assignment]
            else:
                out.append((a, b))
        rounds.append(out + ([bye] if bye is not None else []))
    return rounds
