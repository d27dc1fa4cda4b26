"""Where the Trix inference stands: how much of the others' hands the sampled deals get right.

    python bench/trix_infer.py --deals 12 --contract trix
    python bench/trix_infer.py --deals 12 --contract queens --methods uniform,current,long

Four rule players (level ``easy``, the model the inference copies) play tune deals of
``bench/ai.py`` (``--seeds tune``: seed offset 0) with the contract imposed; at a few points of
each deal (``--points``: cards played), the seat to act (with a choice) draws deals by each
method, and the script prints per method and point: the overlap (the share of the unknown cards
that a sampled deal puts in the right seat, averaged over draws taken at random from the chain, as
the strong player takes them), the share of draws with no move the model would not have made
(zero misses, at every other seat), the chain's acceptance rate, steps and CPU milliseconds, and
the overlap on the contract's penalty cards alone (the K♥, the queens, the diamonds: the cards whose
place decides most; every card in Latoosh, none in the layout), and how many of the draws
(``--draws``) are distinct deals.
Uniform is :func:`sample_deal` (every consistent deal alike): the floor. With ``--noise``, the
players are not the model:
the inference must then stay at least as good as uniform. The owner's choice is not
read (the contract is imposed here, as in ``bench/ai.py --game trix``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from ai.rules import RulePlayer
from ai.strong import trix_infer as I
from ai.strong import trix_sim as S
from ai.strong.knowledge import Knowledge, from_view, sample_deal

Draws = Callable[[Knowledge, I.Story, random.Random, dict[str, int]], list[list[int]]]


def _deal_cards(seed: int) -> list[list[str]]:
    rng = random.Random(seed)  # bench/ai.py's tune set (seed offset 0)
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    rng.shuffle(deck)
    return [deck[i::4] for i in range(4)]


def snapshots(i: int, contract: str, points: list[int], noise: float = 0.0) -> list[tuple[dict[str, Any], list[int]]]:
    """The views (and the true hands) at the first decision with a choice once ``p`` cards are played;
    with ``noise``, that share of the cards is played at random instead of by the rule player."""
    from engine import cards as C

    g = engine.new_game("trix", seed=3000 + i, deals=[_deal_cards(3000 + i)])
    rng = random.Random(i)
    rule = RulePlayer()
    out: list[tuple[dict[str, Any], list[int]]] = []
    left = sorted(points)
    while left:
        seat = g.to_act
        if seat is None:
            break
        view = g.view(seat)
        if g.phase == "contract":
            action = f"contract {contract}"
        else:
            played = 52 - sum(int(x) for x in view.get("hand_sizes") or [13] * 4)
            if g.phase == "play" and len(view["legal"]) > 1 and played >= left[0]:
                while left and played >= left[0]:
                    left.pop(0)
                out.append((view, [C.mask_of(g.view(s)["hand"]) for s in range(4)]))
            action = rule.decide(view, "trix", rng)
            if g.phase == "play" and noise and rng.random() < noise:
                action = rng.choice(view["legal"])
        done = False
        for ev in g.act(seat, action):
            done = done or ev["type"] == "deal_scored"
        if done:
            break
    return out


def misses(story: I.Story, seat: int, hand: int) -> int:
    """How many of ``seat``'s moves (and doubles) the model would not have made with ``hand``."""
    return I.misses(story, seat, hand)


def overlap(k: Knowledge, truth: list[int], hands: list[int], cards: int = (1 << 52) - 1) -> float:
    """The share of the hidden ``cards`` that ``hands`` puts in their true seats (1.0 if none is)."""
    hidden = 0
    right = 0
    for s in range(4):
        if s == k.seat:
            continue
        free = truth[s] & ~k.known[s] & cards
        hidden += free.bit_count()
        right += (hands[s] & free).bit_count()
    return right / hidden if hidden else 1.0


def chain_method(steps: int | None, miss: float, cpu: float = 0.06, **kw: Any) -> Draws:
    """The production chain with ``steps`` steps (or ``cpu`` seconds of CPU, as the strong player)."""
    def draw(k: Knowledge, story: I.Story, rng: random.Random, stats: dict[str, int]) -> list[list[int]]:
        if steps is None:
            t0 = time.thread_time()
            return I.posterior(k, story, rng, going=lambda: time.thread_time() - t0 < cpu, miss=miss,
                               stats=stats, **kw)
        return I.posterior(k, story, rng, going=lambda: True, min_steps=steps, max_steps=steps, miss=miss,
                           stats=stats, **kw)
    return draw


def uniform(k: Knowledge, story: I.Story, rng: random.Random, stats: dict[str, int]) -> list[list[int]]:
    return [sample_deal(k, rng) for _ in range(200)]


METHODS: dict[str, Draws] = {
    "uniform": uniform,
    "current": chain_method(None, I.MISS),
    "long": chain_method(20000, I.MISS),
    "sharp": chain_method(20000, 0.01),
    "cur-0.05": chain_method(None, 0.05),
    "cur-0.01": chain_method(None, 0.01),
    "mix": chain_method(None, I.MODEL),
    "mix-b": chain_method(None, ((0.7, 0.01), (0.2, 0.2), (0.1, 0.6))),
    "mix-long": chain_method(20000, I.MODEL),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--contract", default="trix", choices=["king", "queens", "diamonds", "tricks", "trix"])
    ap.add_argument("--points", default="8,20,32", help="cards played at the snapshots")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--noise", type=float, default=0.0, help="the share of cards played at random")
    ap.add_argument("--draws", type=int, default=100, help="draws taken from each chain")
    a = ap.parse_args()
    points = [int(x) for x in a.points.split(",")]
    names = a.methods.split(",")
    rows: dict[tuple[str, int], list[tuple[float, float, float, int, float, float, int]]] = {}
    for i in range(a.deals):
        for view, truth in snapshots(i, a.contract, points, a.noise):
            k = from_view(view)
            story = I.story_of(view)
            story.owner = None  # the contract is imposed: the owner chose nothing
            played = 52 - sum(int(x) for x in view["hand_sizes"])
            p = max(x for x in points if x <= played)
            rows.setdefault(("truth", p), []).append(
                (1.0, float(all(misses(story, s, truth[s]) == 0 for s in range(4) if s != k.seat)),
                 float("nan"), 0, 0.0, 1.0, 1))
            for name in names:
                rng = random.Random(1000 * i + p)
                stats: dict[str, int] = {}
                t0 = time.thread_time()
                chain = METHODS[name](k, story, rng, stats)
                ms = (time.thread_time() - t0) * 1000
                picks = [chain[rng.randrange(len(chain))] for _ in range(a.draws)]
                ov = statistics.fmean(overlap(k, truth, h) for h in picks)
                key = statistics.fmean(overlap(k, truth, h, S.PENALTY.get(a.contract, 0)) for h in picks)
                zero = statistics.fmean(
                    all(misses(story, s, h[s]) == 0 for s in range(4) if s != k.seat) for h in picks)
                acc = stats.get("accepted", 0) / stats["proposed"] if stats.get("proposed") else float("nan")
                distinct = len({tuple(h) for h in picks})
                rows.setdefault((name, p), []).append((ov, zero, acc, stats.get("steps", 0), ms, key, distinct))
    print(f"trix inference, contract {a.contract}: {a.deals} tune deals, rule players everywhere"
          + (f" playing {a.noise:.0%} of their cards at random" if a.noise else ""))
    print(f"  {'method':10s} {'cards':>5s} {'n':>3s} {'overlap':>15s} {'zero-miss':>9s} {'accept':>7s}"
          f" {'steps':>6s} {'cpu ms':>7s} {'penalty cards':>13s} {'distinct':>8s}")
    for p in points:
        for name in ["truth", *names]:
            r = rows.get((name, p))
            if not r:
                continue
            ovs = [x[0] for x in r]
            se = statistics.stdev(ovs) / len(ovs) ** 0.5 if len(ovs) > 1 else 0.0
            print(f"  {name:10s} {p:5d} {len(r):3d} {statistics.fmean(ovs):8.3f} ± {se:.3f}"
                  f" {statistics.fmean(x[1] for x in r):9.2f} {statistics.fmean(x[2] for x in r):7.2f}"
                  f" {statistics.fmean(x[3] for x in r):6.0f} {statistics.fmean(x[4] for x in r):7.1f}"
                  f" {statistics.fmean(x[5] for x in r):13.3f} {statistics.fmean(x[6] for x in r):8.1f}")


if __name__ == "__main__":
    main()
