"""The league formats of a pair tournament: ``swiss`` and ``roundrobin`` (docs/tournaments.md).

Pure functions of a :class:`~storage.tournaments.Tournament`, called by bot/core/tournaments.py at
three points only, so that the knockout's path is untouched:

- :func:`begin` at the start: every round's matches as placeholders (a round has ceil(n/2) boards;
  the number of rounds is known at the start), and with ``ai=on`` in an odd field one AI pair for the
  played byes;
- :func:`draw_round` when a round opens (the previous one closed): its boards from
  :mod:`bot.core.pairings` (Swiss: from the standings so far; round robin: the Berger tables), side A
  (seats 1+3) as ``a``; the bye as ``(entry, None)``, decided as a win by the round's opening, or
  ``(entry, AI pair)``: a played bye the people score only by winning;
- :func:`champion_number` when the last round closes: the top of the final standings (None if it has
  no point: nobody won a game).

A match's ``winner`` is the pair that scored (None: nobody did: neither side came, or the AI won).
The Swiss rounds the organiser chose travel in the format's text, ``"swiss:5"`` (no column of its
own: ``format`` is text already); :func:`parse` reads it.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core.pairings import Game, Standing, max_rounds, round_robin, standings, swiss_round, swiss_rounds
from storage.tournaments import MatchStatus, TEntry, TMatch, Tournament

SWISS, ROUND_ROBIN = "swiss", "roundrobin"
KINDS = (SWISS, ROUND_ROBIN)
#: The most Swiss rounds an organiser may ask for (a field of 32 pairs plays 5 by default).
MAX_SWISS_ROUNDS = 15


def parse(fmt: str) -> tuple[str, int | None]:
    """``"swiss:5"`` as ``("swiss", 5)``; ``"roundrobin"`` as ``("roundrobin", None)``."""
    kind, _, rounds = fmt.partition(":")
    return kind, int(rounds) if rounds.isdigit() else None


def text(kind: str, rounds: int | None) -> str:
    return kind if rounds is None else f"{kind}:{rounds}"


def is_league(t: Tournament) -> bool:
    return parse(t.format)[0] in KINDS


def kind_of(t: Tournament) -> str:
    return parse(t.format)[0]


def people(t: Tournament) -> list[int]:
    """The pairs of people (not the AI pair), in seed order."""
    return [e.number for e in t.entries if not e.ai]


def planned_rounds(t: Tournament, n: int) -> int:
    """How many rounds ``n`` pairs play: a round robin all of them; a Swiss the organiser's count (else
    ceil(log2 n)), at most a round robin's (more would pair someone twice)."""
    kind, asked = parse(t.format)
    if kind == ROUND_ROBIN:
        return max_rounds(n)
    return min(asked or swiss_rounds(n), max_rounds(n))


def begin(t: Tournament) -> Tournament:
    """``t`` with its pairs drawn: every round's matches as placeholders (and the AI pair of the played
    byes where the organiser allowed AI and the field is odd)."""
    n = len(t.entries)
    entries = t.entries
    if t.ai_allowed and n % 2:
        entries = (*entries, TEntry(n + 1, (), ai=True))
    boards = (n + 1) // 2
    matches = tuple(TMatch(r, s, None, None) for r in range(1, planned_rounds(t, n) + 1) for s in range(boards))
    return replace(t, entries=entries, matches=matches)


def games(t: Tournament) -> list[Game]:
    """The decided matches as games of the pairings: a bye (played against the AI or not) has no
    opponent; ``winner`` the pair that scored."""
    ai = {e.number for e in t.entries if e.ai}
    out = []
    for m in sorted(t.matches, key=lambda m: (m.round, m.slot)):
        if m.status != MatchStatus.DONE or m.a is None:
            continue
        out.append(Game(m.a, None if m.b is None or m.b in ai else m.b, m.winner))
    return out


def table(t: Tournament) -> list[Standing]:
    """The standings of the people's pairs (the AI pair is never in them)."""
    return standings(people(t), games(t))


def draw_round(t: Tournament, number: int) -> Tournament:
    """Round ``number``'s boards written into its placeholder matches (see the module)."""
    mine = sorted((m for m in t.matches if m.round == number), key=lambda m: m.slot)
    if not mine or any(m.a is not None for m in mine):
        return t  # drawn already
    entries = people(t)
    if kind_of(t) == ROUND_ROBIN:
        boards = round_robin(entries)[number - 1]
    else:  # a pair the organiser disqualified is not drawn again (a round robin keeps its tables:
        # the disqualified pair's later opponents get a bye, bot/core/tournaments.py _open_round)
        out = {e.number for e in t.entries if e.disqualified}
        boards = swiss_round([e for e in entries if e not in out], games(t))
    ai = next((e.number for e in t.entries if e.ai), None)
    drawn = {(number, slot): (a, ai if b is None else b) for slot, (a, b) in enumerate(boards)}
    return replace(t, matches=tuple(replace(m, a=drawn[(m.round, m.slot)][0], b=drawn[(m.round, m.slot)][1])
                                    if (m.round, m.slot) in drawn else m for m in t.matches))


def champion_number(t: Tournament) -> int | None:
    """The top of the standings, if it scored at all."""
    top = table(t)
    return top[0].entry if top and top[0].points > 0 else None

