"""The Trix owner's contract choice as a small assignment problem: what is left of the kingdom counts.

In a kingdom the owner plays each contract once, one deal each, choosing deal by deal with the hand
just dealt. Choosing ``c`` now gives ``c``'s value with this hand, and leaves the contracts ``S``
minus ``c`` for hands still to come, each of which will again be given the contract it suits
best. So the choice is ``argmax_c value(c | hand) + W(S - {c})``, where ``W(S)`` is the owner's
expected points from the contracts ``S`` with ``|S|`` random hands still to come, choosing the
same way (optimal stopping, by dynamic programming over the 32 sets of contracts). With two
contracts left this is the old rule (a contract's value minus its mean on a random hand); with
more, a contract whose value is spread widely over hands (the layout, K♥) is worth keeping for a
better hand, a contract with little spread is worth playing now.

``W`` is a table (:func:`shipped`, ``trix_choice.json``) made by ``bench/trix_choice_table.py``
from random hands valued by the same rollouts as :meth:`TrixBrain.contract` uses (the strong
player's quick policy, the owner leading): two independent halves of each hand's rollouts, one to
choose and one to value the choice, so that the table does not count the choice's luck as value.
The table holds for the table's default scoring only (``values``, ``trix_scores``); under other
options :func:`pick` answers None and the old rule stands.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ai.strong import trix_sim as S

CONTRACTS = ("king", "queens", "diamonds", "tricks", "trix")
PATH = Path(__file__).with_name("trix_choice.json")


def key(contracts: Sequence[str]) -> str:
    """The table's key of a set of contracts (their names in :data:`CONTRACTS` order)."""
    return ",".join(c for c in CONTRACTS if c in contracts)


def build_table(choose: Sequence[dict[str, float]], value: Sequence[dict[str, float]]) -> dict[str, float]:
    """``W`` for every set of contracts, from each sampled hand's values of every contract.

    ``choose[i]`` and ``value[i]`` are two independent estimates for hand ``i``: the owner picks by
    the first (plus what is left), the table counts the second. Each set is averaged over all the
    hands (the hands are random, every deal alike).
    """
    table: dict[str, float] = {"": 0.0}
    n = len(choose)
    for size in range(1, len(CONTRACTS) + 1):
        for mask in range(1 << len(CONTRACTS)):
            if mask.bit_count() != size:
                continue
            cs = [c for i, c in enumerate(CONTRACTS) if mask >> i & 1]
            rest = {c: table[key([x for x in cs if x != c])] for c in cs}
            total = 0.0
            for a, b in zip(choose, value, strict=True):
                best = max(cs, key=lambda c: a[c] + rest[c])
                total += b[best] + rest[best]
            table[key(cs)] = total / n
    return table


def load(path: Path = PATH) -> dict[str, Any] | None:
    """The shipped table (None when absent or unreadable: the old rule is then played)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("W"), dict) else None


_TABLE: list[dict[str, Any] | None] = []  # the shipped table, read on first use


def shipped() -> dict[str, Any] | None:
    """The shipped table (read once, when first asked: the choice table is off by default)."""
    if not _TABLE:
        _TABLE.append(load())
    return _TABLE[0]


def applies(table: dict[str, Any] | None, scoring: S.Scoring, scores: tuple[int, ...]) -> bool:
    """Whether ``table`` was made for this scoring (penalty values, layout points, self-capture)."""
    return (table is not None and tuple(table.get("values") or ()) == tuple(scoring.values)
            and tuple(table.get("trix_scores") or ()) == tuple(scores)
            and table.get("self_capture", "original_penalty") == scoring.self_capture)


def pick(means: dict[str, float], scoring: S.Scoring, scores: tuple[int, ...],
         table: dict[str, Any] | None = None) -> str | None:
    """The contract (a name of ``means``, the contracts left with this hand's values) maximising its
    value plus the table's worth of the rest; None when the table does not apply."""
    table = shipped() if table is None else table
    if not applies(table, scoring, scores) or not set(means) <= set(CONTRACTS):
        return None
    assert table is not None
    w = table["W"]
    left = list(means)
    rest = {c: float(w[key([x for x in left if x != c])]) for c in left}
    return max(left, key=lambda c: (means[c] + rest[c], -CONTRACTS.index(c)))


def hand_values(hand: int, me: int, rng: random.Random, rounds: int, scoring: S.Scoring = S.DEFAULT_SCORING,
                scores: tuple[int, ...] = S.DEFAULT_SCORES) -> dict[str, float]:
    """Seat ``me``'s mean points with ``hand`` in every contract, leading, over ``rounds`` random
    deals of the others' cards (the rollouts of :meth:`TrixBrain.contract`, for the table)."""
    rest = [c for c in range(52) if not hand >> c & 1]
    totals = dict.fromkeys(CONTRACTS, 0.0)
    for _ in range(rounds):
        rng.shuffle(rest)
        hands = [0, 0, 0, 0]
        hands[me] = hand
        others = [s for s in range(4) if s != me]
        for j, s in enumerate(others):
            hands[s] = sum(1 << c for c in rest[13 * j:13 * j + 13])
        for name in CONTRACTS:
            totals[name] += S.rollout_contract(name, hands, me, rng, scoring, scores)[me]
    return {c: t / rounds for c, t in totals.items()}
