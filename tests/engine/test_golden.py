"""Golden playthroughs: one seeded, human-readable match transcript per game and notable variant.

Each file in ``tests/engine/golden/`` records every decision of a seeded match (cut after a few
deals): who acts, the phase, the legal actions, the action taken and the public events it caused,
with all four hands printed at each deal start. The test replays and diffs; after an intended rule
change, regenerate with::

    python -m tests.engine.test_golden --regen
"""

from __future__ import annotations

import difflib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import engine

GOLDEN = Path(__file__).parent / "golden"

#: name -> (game, seed, options, deals to record)
CASES: dict[str, tuple[str, int, dict[str, Any], int]] = {
    "tarneeb": ("tarneeb", 11, {}, 3),
    "tarneeb_open_auction_exposed_trump": (
        "tarneeb",
        12,
        {"pass_is_final": False, "trump_mode": "exposed_sister_suit", "all_pass": "dealer_forced_min"},
        2,
    ),
    "tarneeb41": ("tarneeb41", 21, {}, 3),
    "tarneeb41_levant400_rising": (
        "tarneeb41",
        22,
        {"value_table": "levant400", "rising_minimums": True, "first_lead": "highest_bidder"},
        2,
    ),
    "trix": ("trix", 31, {}, 5),
    "trix_complex": ("trix", 32, {"mode": "complex"}, 2),
}


def _choose(g: Any, legal: list[str], r: random.Random) -> str:
    if g.phase == "bid":
        if "pass" in legal and r.random() < 0.6:
            return "pass"
        bids = [a for a in legal if a != "pass"]
        return r.choice(bids[:4])
    return r.choice(legal)


def transcript(name: str) -> str:
    """The golden text of one case, produced from scratch."""
    game, seed, options, deals = CASES[name]
    g: Any = engine.new_game(game, seed=seed, options=options)
    r = random.Random(seed)
    lines = [
        f"# golden playthrough: {name}",
        f"# game={game} seed={seed} options={json.dumps(options, sort_keys=True)}",
        f"# resolved options={json.dumps(g.options, sort_keys=True)}",
        "",
    ]
    deal_seen = 0

    def show_hands() -> None:
        pub = g.view(None)
        extra = "".join(f"  {k}={pub[k]}" for k in ("exposed", "trump", "owner", "contract") if pub.get(k) is not None)
        lines.append(f"== deal {g.deal_no}  dealer={pub.get('dealer')}{extra}  scores={json.dumps(g.scores())}")
        for s in range(4):
            lines.append(f"   seat {s}: {' '.join(g.hand(s))}")

    show_hands()
    step = 0
    while g.to_act is not None:
        legal = g.legal()
        action = _choose(g, legal, r)
        step += 1
        lines.append(f"{step:4d} [{g.phase}] seat {g.to_act} auto={g.auto()} -> {action}")
        lines.append(f"      legal: {' | '.join(legal)}")
        before = g.deal_no
        for e in g.act(g.to_act, action):
            lines.append("      " + json.dumps(e, sort_keys=True))
        if g.deal_no != before:
            deal_seen += 1
            if deal_seen >= deals:
                break
            show_hands()
    lines.append("")
    lines.append(f"final phase={g.phase} winner={g.winner} scores={json.dumps(g.scores())}")
    lines.append("public view: " + json.dumps(g.view(None), sort_keys=True))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    assert path.exists(), f"missing {path}; run python -m tests.engine.test_golden --regen"
    want = path.read_text(encoding="utf-8")
    got = transcript(name)
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now"))[:80])
        pytest.fail(f"{name} differs from its golden file:\n{diff}")


def main(argv: list[str]) -> int:
    """``--regen``: rewrite every golden file; otherwise list which differ."""
    GOLDEN.mkdir(exist_ok=True)
    bad = 0
    for name in sorted(CASES):
        path = GOLDEN / f"{name}.txt"
        text = transcript(name)
        if "--regen" in argv:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({text.count(chr(10))} lines)")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"differs: {path}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
