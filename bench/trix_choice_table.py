"""Make ``ai/strong/trix_choice.json``: what the contracts left are worth to a Trix kingdom's owner.

    python bench/trix_choice_table.py --hands 600 --rounds 120 --seed 1

Random hands of the owner (seat 0, leading) are valued in every contract by the rollouts
:meth:`TrixBrain.contract` uses (:func:`trix_choice.hand_values`), in two independent halves of
``--rounds`` each; :func:`trix_choice.build_table` then gives ``W(S)`` for every set of contracts
left (choosing by one half, counting the other). Reproducible from ``--seed``; the hands are drawn
afresh (not the bench's deal sets). Prints the table and, per set size, how far it is from the old
rule's sum of baselines.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.heuristics_trix import baseline
from ai.strong import trix_choice as T
from ai.strong import trix_sim as S


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=120, help="rollout rounds a hand (split in two halves)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(T.PATH))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    scoring, scores = S.DEFAULT_SCORING, S.DEFAULT_SCORES
    choose, value = [], []
    t = time.process_time()
    for i in range(a.hands):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:13])
        choose.append(T.hand_values(hand, 0, rng, a.rounds // 2, scoring, scores))
        value.append(T.hand_values(hand, 0, rng, a.rounds - a.rounds // 2, scoring, scores))
        if (i + 1) % 100 == 0:
            print(f"{i + 1} hands, {time.process_time() - t:.0f} s CPU", file=sys.stderr)
    w = T.build_table(choose, value)
    data = {"values": list(scoring.values), "trix_scores": list(scores), "self_capture": scoring.self_capture,
            "hands": a.hands, "rounds": a.rounds, "seed": a.seed, "W": {k: round(v, 2) for k, v in w.items()}}
    Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    for k, v in w.items():
        names = [c for c in k.split(",") if c]
        old = sum(baseline(c, scoring.values, scores) for c in names)
        print(f"  {k or '-':32s} W {v:+8.1f}   sum of baselines {old:+8.1f}   gain {v - old:+6.1f}")


if __name__ == "__main__":
    main()
