"""Ratings with openskill (Plackett-Luce): team ratings for the Tarneeb games, free-for-all for Trix.

Pure functions shared by every repository: given a finished match and the players' current
ratings, compute their new ratings. AI seats (``player_id`` starting with ``"ai:"``) take part
in the computation with the fixed default rating but are never rated themselves. A player who
left mid-match is rated as a loss (ranked last), whatever the final result of their seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from storage.records import PlayerResult

#: Games played in two fixed partnerships: seats 0 and 2 against seats 1 and 3.
TEAM_GAMES = frozenset({"tarneeb", "tarneeb41"})
#: The rating scope that spans every chat.
GLOBAL = "*"
#: A displayed rating is ``DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma)``: a new player shows 1000.
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating: mean skill and its uncertainty."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> float:
        """The ordinal scaled for people, rounded to one decimal."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * self.ordinal, 1)


DEFAULT = Rating()


def is_ai(player_id: str) -> bool:
    """AI seats are ``"ai:<level>:<n>"``; they are never rated nor listed."""
    return player_id.startswith("ai:")


def rated_players(results: Iterable[PlayerResult]) -> list[str]:
    """The people (not AI) whose rating a match changes, in seat order, without duplicates."""
    seen: dict[str, None] = {}
    for r in sorted(results, key=lambda r: r.seat):
        if not is_ai(r.player_id):
            seen.setdefault(r.player_id, None)
    return list(seen)


def competition_ranks(values: Sequence[float]) -> list[int]:
    """Rank 1 for the highest value; ties share a rank (1, 2, 2, 4)."""
    return [1 + sum(1 for other in values if other > v) for v in values]


def unique_results(results: Sequence[PlayerResult]) -> list[PlayerResult]:
    """One entry per player (a person listed twice keeps the entry where they did not leave)."""
    by_player: dict[str, PlayerResult] = {}
    for r in results:
        kept = by_player.get(r.player_id)
        if kept is None or (kept.left and not r.left):
            by_player[r.player_id] = r
    return sorted(by_player.values(), key=lambda r: (r.seat, r.player_id))


def _rate(groups: list[list[PlayerResult]], ranks: list[int], current: Mapping[str, Rating]
          ) -> dict[str, Rating]:
    teams = [
        [_MODEL.rating(*_as_pair(DEFAULT if is_ai(r.player_id) else current.get(r.player_id, DEFAULT)))
         for r in group]
        for group in groups
    ]
    rated = _MODEL.rate(teams, ranks=[float(x) for x in ranks])
    out: dict[str, Rating] = {}
    for group, new_team in zip(groups, rated, strict=True):
        for r, new in zip(group, new_team, strict=True):
            if not is_ai(r.player_id):
                out[r.player_id] = Rating(float(new.mu), float(new.sigma))
    return out


def _as_pair(r: Rating) -> tuple[float, float]:
    return (r.mu, r.sigma)


def rate_match(game: str, results: Sequence[PlayerResult], current: Mapping[str, Rating]
               ) -> dict[str, Rating]:
    """New ratings of the people in ``results`` (AI seats excluded), from their ``current`` ones.

    Team games: two teams by seat parity, the winning team ranked first. A leaver's rating is
    computed from the same match with their team ranked last. Trix: each seat alone, ranked by
    final score (ties share a rank), leavers after everyone else.
    """
    entries = unique_results(results)
    if len(entries) < 2:
        return {}
    if game in TEAM_GAMES:
        groups = [[r for r in entries if r.seat % 2 == t] for t in (0, 1)]
        groups = [g for g in groups if g]
        if len(groups) < 2:
            return {}
        won = [any(r.won and not r.left for r in g) for g in groups]
        ranks = [1 if w else 2 for w in won]
        new = _rate(groups, ranks, current)
        for t, group in enumerate(groups):
            if any(r.left for r in group):
                as_loss = _rate(groups, [2 if i == t else 1 for i in range(len(groups))], current)
                for r in group:
                    if r.left and r.player_id in as_loss:
                        new[r.player_id] = as_loss[r.player_id]
        return new
    stayed = [r for r in entries if not r.left]
    left = [r for r in entries if r.left]
    ranks = competition_ranks([float(r.score) for r in stayed]) + [len(stayed) + 1] * len(left)
    return _rate([[r] for r in stayed + left], ranks, current)


def rate_field(ranks: Mapping[str, int], current: Mapping[str, Rating]) -> dict[str, Rating]:
    """New ratings of people who each played alone against the same field (a duplicate challenge):
    a free-for-all ranked by ``ranks`` (1 the best; ties share a rank), as Trix rates its seats."""
    people = sorted(p for p in ranks if not is_ai(p))
    if len(people) < 2:
        return {}
    groups = [[PlayerResult(p, 0, 0, False)] for p in people]
    return _rate(groups, [ranks[p] for p in people], current)
