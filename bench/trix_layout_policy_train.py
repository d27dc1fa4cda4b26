"""Make ``ai/strong/trix_layout_policy.json``: the strong player's own policy in layout rollouts.

    python bench/trix_layout_policy_train.py --deals 10000 --rounds 2 --seed 5000000   # about 6 minutes

Layout deals from seeds ``seed, seed+1, ...`` (a range neither bench deal set uses: ``bench/ai.py``
plays offsets 0 and 1,000,000 plus a few thousand) are played by four rule players (with a little
noise, ``--gen-eps``, for varied positions). At every position where the seat to move has more than
one legal card, each card is valued by playing the deal out from the TRUE hands
(:func:`trix_sim.rollout_layout`, the others on the rule policy without noise, as the strong level's
rollouts and the real rule players play): the seat's points after it. The target is a card's value
minus the position's mean; a ridge regression per hand-size bucket (``BUCKETS``) fits it on the features
(:func:`trix_layout_policy.features`) minus their position mean. Round 2 on values the seat's own
later moves in those play-outs by round 1's policy (one step of policy iteration), and so on; the
round whose policy did best on the check deals is written.

After each round the policy is checked on other deals (``--eval`` from ``seed + 100000``): one seat
plays it, the other three the rule policy, against the same deal all on the rule policy (pair by
pair). numpy is used here only, not in the shipped module.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.strong import trix_layout_policy as P
from ai.strong import trix_sim as S

SCORES = S.DEFAULT_SCORES
Position = tuple[list[int], S.Rows, int, list[int]]


def deal(seed: int) -> tuple[list[int], int]:
    """Four random hands and a random first seat, from ``seed``."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[i::4]) for i in range(4)]
    return hands, rng.randrange(4)


def positions(seed: int, eps: float) -> list[Position]:
    """The positions of a rule-player deal (noise ``eps``) where the seat to move has a choice."""
    hands, seat = deal(seed)
    rng = random.Random(seed ^ 0x5EED)
    rows = list(S.EMPTY_ROWS)
    finished: list[int] = []
    out: list[Position] = []
    for _ in range(400):
        if len(finished) >= 3:
            break
        if hands[seat]:
            legal = S.layout_legal(hands[seat], rows)
            if legal:
                if legal & (legal - 1):
                    out.append((list(hands), list(rows), seat, list(finished)))
                c = S.choose_layout_card(hands[seat], legal, rows, rng, eps)
                hands[seat] &= ~(1 << c)
                S.place(rows, c)
                if not hands[seat]:
                    finished.append(seat)
        seat = (seat + 1) % 4
    return out


def value(pos: Position, c: int, w: list[list[float]] | None) -> float:
    """The seat's points after playing ``c``, the deal played out (its own moves by ``w`` if given)."""
    hands, rows, seat, finished = pos
    hands = list(hands)
    rows = list(rows)
    finished = list(finished)
    hands[seat] &= ~(1 << c)
    S.place(rows, c)
    bonus = 0
    if not hands[seat]:
        bonus = SCORES[len(finished)]
        finished.append(seat)
    own = None if w is None else (lambda h, lg, r: P.choose(h, lg, r, w))
    out = S.rollout_layout(hands, rows, (seat + 1) % 4, finished, SCORES, random.Random(0), 0.0, own=seat, policy=own)
    return float(out[seat] + bonus)


Data = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def collect(seeds: range, eps: float, w: list[list[float]] | None) -> Data:
    """Features, centered targets, position ids and weight buckets over the deals of ``seeds``."""
    xs: list[list[float]] = []
    ys: list[float] = []
    gs: list[int] = []
    bs: list[int] = []
    g = 0
    for seed in seeds:
        for pos in positions(seed, eps):
            hands, rows, seat, _ = pos
            legal = S.layout_legal(hands[seat], rows)
            cands = P.candidates(hands[seat], legal, rows)
            vals = [value(pos, c, w) for c, _ in cands]
            m = sum(vals) / len(vals)
            b = P.bucket(hands[seat].bit_count())
            for (_, f), v in zip(cands, vals, strict=True):
                xs.append(f)
                ys.append(v - m)
                gs.append(g)
                bs.append(b)
            g += 1
    return np.array(xs), np.array(ys), np.array(gs), np.array(bs)


def fit(x: np.ndarray, y: np.ndarray, g: np.ndarray, lam: float) -> tuple[list[float], np.ndarray]:
    """Ridge regression of ``y`` on ``x`` centered per position (features scaled to unit spread)."""
    _, g = np.unique(g, return_inverse=True)
    n_g = int(g.max()) + 1
    sums = np.zeros((n_g, x.shape[1]))
    np.add.at(sums, g, x)
    counts = np.bincount(g, minlength=n_g)[:, None]
    xc = x - (sums / counts)[g]
    sd = xc.std(axis=0)
    sd[sd == 0] = 1.0
    z = xc / sd
    a = z.T @ z + lam * len(y) * np.eye(x.shape[1])
    beta = np.linalg.solve(a, z.T @ y)
    return [float(b) for b in beta / sd], beta


def evaluate(seeds: range, w: list[list[float]]) -> tuple[float, float, float]:
    """Mean and SE of (one seat on the policy - the same seat on the rule policy), and the share
    of changed deals, over every seat of the deals of ``seeds``."""
    diffs = []
    for seed in seeds:
        hands, first = deal(seed)
        base = S.rollout_layout(hands, list(S.EMPTY_ROWS), first, [], SCORES, random.Random(0), 0.0)
        for s in range(4):
            out = S.rollout_layout(hands, list(S.EMPTY_ROWS), first, [], SCORES, random.Random(0), 0.0,
                                   own=s, policy=lambda h, lg, r: P.choose(h, lg, r, w))
            diffs.append(out[s] - base[s])
    d = np.array(diffs, dtype=float)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d))), float((d != 0).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10000, help="training deals a round")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=5_000_000)
    ap.add_argument("--gen-eps", type=float, default=0.1, help="the noise of the deals the positions come from")
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--eval", type=int, default=5000, help="deals to check each round's policy on")
    ap.add_argument("--out", default=str(P.PATH))
    a = ap.parse_args()
    w: list[list[float]] | None = None
    history: list[dict[str, float]] = []
    best: tuple[float, int, list[list[float]]] | None = None
    for k in range(a.rounds):
        t = time.process_time()
        seeds = range(a.seed + k * a.deals, a.seed + (k + 1) * a.deals)  # fresh deals each round
        x, y, g, b = collect(seeds, a.gen_eps, w)
        fits = [fit(x[b == i], y[b == i], g[b == i], a.ridge) for i in range(len(P.BUCKETS) + 1)]
        w = [f[0] for f in fits]
        t_fit = time.process_time() - t
        ev = evaluate(range(a.seed + 100_000, a.seed + 100_000 + a.eval), w)
        history.append({"round": k + 1, "positions": int(g.max()) + 1, "cards": len(y),
                        "eval_gain": round(ev[0], 3), "eval_se": round(ev[1], 3)})
        print(f"round {k + 1}: {int(g.max()) + 1} positions, {len(y)} cards, {t_fit:.0f}s; "
              f"vs the rule policy on {a.eval} deals x 4 seats: {ev[0]:+.2f} +- {ev[1]:.2f} points "
              f"({ev[2]:.0%} changed)", flush=True)
        for i, name in enumerate(P.NAMES):
            print(f"    {name:14s} " + "  ".join(f"{f[0][i]:+8.3f} ({f[1][i]:+6.2f})" for f in fits))
        if best is None or ev[0] > best[0]:
            best = (ev[0], k + 1, w)
    assert best is not None
    data = {"features": list(P.NAMES), "buckets": list(P.BUCKETS),
            "weights": [[round(v, 6) for v in wb] for wb in best[2]],
            "made_by": f"bench/trix_layout_policy_train.py --deals {a.deals} --rounds {a.rounds} "
                       f"--seed {a.seed} --gen-eps {a.gen_eps} --ridge {a.ridge} --eval {a.eval}",
            "round_kept": best[1], "rounds": history}
    Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
