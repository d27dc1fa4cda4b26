"""Fit the learned own-seat policy of the Trix trick contracts (ai/strong/trix_policy.json).

    python bench/trix_policy_train.py --positions 3000 --rollouts 24 --rounds 2 --seed 1

For each trick contract: positions from deals played by four rule players (seeded random deals,
a seed range neither of bench/ai.py's deal sets uses), at a seat with a choice; every legal card
is valued by rollouts from the *true* hands with common random numbers (the same dice for every
card), the seat's own later moves by the current policy (round 1: the rule player's), the others
by the rule player's. The weights are the ridge fit of those values, centred per position, on
features the seat can see (``trix_policy.features``). Each round then plays the seat by the new
weights. Before saving it prints, on positions not fitted on and with fresh dice, what the learned
choice is worth over the rule player's choice (points a decision).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.strong import trix_policy as P
from ai.strong import trix_sim as S
from engine import cards as C

CONTRACTS = ("king", "queens", "diamonds", "tricks")
SEED_BASE = 5_000_000  # bench/ai.py deals from 0 (tune) and 1_000_000 (report)
Position = tuple[list[int], list[tuple[int, int]], int]


def deal(rng: random.Random) -> list[int]:
    """Four random hands, as card sets."""
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[i::4]) for i in range(4)]


def seen(contract: str, pos: Position) -> tuple[int, int, int]:
    """What the seat to play sees of ``pos``: its hand, the cards still out, and the rule player's card."""
    hands, trick, seat = pos
    hand = hands[seat]
    return hand, (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand, S.choose_trick_card(
        contract, hand, trick, random.Random(0), 0.0)


def positions(contract: str, n: int, rng: random.Random, rate: float = 0.25) -> list[Position]:
    """``n`` positions (hands, trick, seat to play) with a choice, from rule players' deals."""
    out: list[Position] = []
    while len(out) < n:
        hands = deal(rng)
        seat = rng.randrange(4)
        trick: list[tuple[int, int]] = []
        pen_left = S.PENALTY[contract]
        while hands[seat] and (contract == "tricks" or pen_left):
            cards = P.legal(hands[seat], trick)
            if cards & (cards - 1) and rng.random() < rate and len(out) < n:
                out.append((list(hands), list(trick), seat))
            c = S.choose_trick_card(contract, hands[seat], trick, rng)
            hands[seat] &= ~(1 << c)
            trick.append((seat, c))
            seat = (seat + 1) % 4
            if len(trick) == 4:
                cs = [x for _, x in trick]
                seat = trick[C.trick_winner(cs, None)][0]
                for x in cs:
                    pen_left &= ~(1 << x)
                trick = []
    return out


def values(contract: str, pos: Position, k: int, seed: int, policy: S.OwnPolicy | None) -> dict[int, float]:
    """Each legal card's mean points for the seat over ``k`` rollouts (the same dice for all)."""
    hands, trick, seat = pos
    out: dict[int, float] = {}
    for c in C.card_ids(P.legal(hands[seat], trick)):
        h = list(hands)
        h[seat] &= ~(1 << c)
        t = [*trick, (seat, c)]
        total = 0
        for j in range(k):
            total += S.rollout_tricks(contract, h, t, t[0][0], {}, random.Random(seed * 1000 + j),
                                      own=seat, policy=policy)[seat]
        out[c] = total / k
    return out


def rows(contract: str, pos: Position, vals: dict[int, float]) -> tuple[str, np.ndarray, np.ndarray]:
    trick = pos[1]
    hand, others, rule = seen(contract, pos)
    x = np.array([P.features(contract, hand, others, trick, c, rule) for c in vals])
    y = np.array(list(vals.values()))
    return P.situation(hand, trick), x - x.mean(axis=0), y - y.mean()


def fit(data: list[tuple[str, np.ndarray, np.ndarray]], ridge: float) -> dict[str, list[float]]:
    w: dict[str, list[float]] = {}
    for sit in P.SITUATIONS:
        xs = [x for s, x, _ in data if s == sit]
        ys = [y for s, _, y in data if s == sit]
        if not xs:
            w[sit] = [0.0] * len(P.NAMES)  # (with the margin: the rule player's card)
            continue
        x, y = np.vstack(xs), np.concatenate(ys)
        a = x.T @ x + ridge * len(y) * np.eye(x.shape[1])
        w[sit] = [round(float(v), 6) for v in np.linalg.solve(a, x.T @ y)]
    return w


MARGINS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 1e9)  # 1e9: always the rule player's card


def tune_margins(contract: str, test: list[Position], w: dict[str, list[float]], k: int, seed: int,
                 policy: S.OwnPolicy | None) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each situation's margin (how much more than the rule card another must score) that makes
    the learned card worth most over the rule card on ``test``, and that worth a decision (mean, SE)."""
    per: dict[str, list[tuple[dict[int, float], dict[int, float], int]]] = {s: [] for s in P.SITUATIONS}
    for i, pos in enumerate(test):
        trick = pos[1]
        hand, others, rule = seen(contract, pos)
        sit = P.situation(hand, trick)
        score = {c: P.score(w[sit], P.features(contract, hand, others, trick, c, rule))
                 for c in C.card_ids(P.legal(hand, trick))}
        vals = values(contract, pos, k, seed + i, policy)
        per[sit].append((score, vals, rule))
    out: dict[str, list[float]] = {}
    worth: dict[str, list[float]] = {}
    for sit, items in per.items():
        best: tuple[float, float, float] = (-1e18, 0.0, 1e9)
        for m in MARGINS:
            d = []
            for score, vals, rule in items:
                pick = max(score, key=lambda c: score[c] + (m if c == rule else 0.0))
                d.append(vals[pick] - vals[rule])
            if d:
                mean = float(np.mean(d))
                se = float(np.std(d, ddof=1) / np.sqrt(len(d))) if len(d) > 1 else 0.0
                if mean > best[0]:
                    best = (mean, se, m)
        out[sit] = [*w[sit], best[2]]
        worth[sit] = [round(best[0], 3), round(best[1], 3), best[2], len(items)]
    return out, worth


def duel(contract: str, deals: int, seed: int) -> tuple[float, float]:
    """The learned policy as a player: its seat's points minus the rule player's in the same seat,
    the three others rule players, the same deals and leaders, no noise (mean, SE a deal)."""
    rng = random.Random(seed)
    d = []
    for _ in range(deals):
        hands = deal(rng)
        lead = rng.randrange(4)
        base = S.rollout_tricks(contract, hands, [], lead, {}, rng, eps=0.0)
        for s in range(4):
            d.append(S.rollout_tricks(contract, hands, [], lead, {}, rng, eps=0.0, own=s, policy=P.choose)[s] - base[s])
    x = np.array(d, dtype=float)
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=3000, help="positions a contract a round")
    ap.add_argument("--rollouts", type=int, default=24, help="rollouts a card")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--test", type=int, default=400, help="held-out positions a contract for the report")
    ap.add_argument("--duel", type=int, default=1500, help="deals a contract, the final duel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(P.PATH))
    a = ap.parse_args()
    t0 = time.perf_counter()
    weights: dict[str, dict[str, list[float]]] = {}
    report: dict[str, Any] = {}
    for contract in CONTRACTS:
        rng = random.Random(SEED_BASE + a.seed * 7919 + CONTRACTS.index(contract))
        test = positions(contract, a.test, rng)
        policy: S.OwnPolicy | None = None
        for r in range(a.rounds):
            data = [rows(contract, pos, values(contract, pos, a.rollouts, rng.getrandbits(30), policy))
                    for pos in positions(contract, a.positions, rng)]
            weights[contract], worth = tune_margins(contract, test, fit(data, a.ridge), a.rollouts * 2,
                                                    rng.getrandbits(30), policy)
            P._WEIGHTS = weights
            policy = P.choose
            report[f"{contract} round {r + 1}"] = worth
            for sit, (m, se, margin, n) in worth.items():
                print(f"{contract} round {r + 1} {sit:7s}: learned card - rule card {m:+.3f} +- {se:.3f} points"
                      f" a decision at margin {margin:g} ({n} held-out positions)"
                      f"  [{time.perf_counter() - t0:.0f} s]", flush=True)
    for contract in CONTRACTS:
        m, se = duel(contract, a.duel, SEED_BASE + 999 + a.seed)
        report[f"{contract} duel"] = [round(m, 3), round(se, 3)]
        print(f"{contract}: the learned policy as a player - the rule player {m:+.2f} +- {se:.2f} points a deal"
              f" ({a.duel} deals x 4 seats)", flush=True)
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump({"features": list(P.NAMES), "seed": a.seed, "positions": a.positions, "rollouts": a.rollouts,
                   "rounds": a.rounds, "ridge": a.ridge, "held_out": report, "weights": weights}, f, indent=1)
        f.write("\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
