"""Engine speed: random full deals/s, rollouts/s from a cloned mid-deal state, clone() time.

Run ``python bench/engine.py [--seconds 2]``. When ``pyspiel`` (open-spiel) is importable, OpenSpiel
hearts random games/s driven from Python is measured in the same run, with the ratio. Figures are
printed, never asserted (speed is not a test).

Rates use this process's CPU time (``time.process_time``), so a busy machine skews them less.
Every driver picks uniformly at random with ``int(random() * n)`` (OpenSpiel included).
Two drivers per game: the integer fast path that search code uses (``legal_ids`` / ``step``, no
events) and the public string API (``legal`` / ``act`` with events).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine

GAMES = ("tarneeb", "tarneeb41", "trix")
#: CPU time of this process: the machine is shared, and wall time would measure the neighbours too.
_clock = time.process_time


def _available(game: str) -> bool:
    try:
        engine.game_class(game)
    except ImportError:
        return False
    return True


def deals_fast(game: str, seconds: float) -> float:
    """Random full deals per second through ``legal_ids`` / ``step``."""
    r = random.Random(1)
    rnd = r.random
    seed = 0
    g: Any = engine.new_game(game, seed=seed)
    deals = 0
    start = g.deal_no
    t0 = _clock()
    end = t0 + seconds
    while True:
        for _ in range(200):
            ids = g.legal_ids()
            g.step(ids[int(rnd() * len(ids))])
            if g.to_act is None:
                deals += g.deal_no - start
                seed += 1
                g = engine.new_game(game, seed=seed)
                start = g.deal_no
        if _clock() > end:
            break
    deals += g.deal_no - start
    return deals / (_clock() - t0)


def deals_playout(game: str, seconds: float) -> float | None:
    """Random full deals per second through ``playout()`` (the search rollout hot path)."""
    probe: Any = engine.new_game(game, seed=0)
    if not hasattr(probe, "playout"):
        return None
    rnd = random.Random(1).random
    seed = 0
    g: Any = probe
    deals = 0
    start = g.deal_no
    t0 = _clock()
    end = t0 + seconds
    while True:
        for _ in range(20):
            g.playout(rnd)
            if g.to_act is None:
                deals += g.deal_no - start
                seed += 1
                g = engine.new_game(game, seed=seed)
                start = g.deal_no
        if _clock() > end:
            break
    deals += g.deal_no - start
    return deals / (_clock() - t0)


def deals_public(game: str, seconds: float) -> float:
    """Random full deals per second through ``legal`` / ``act`` (strings and events)."""
    r = random.Random(1)
    seed = 0
    g: Any = engine.new_game(game, seed=seed)
    deals = 0
    start = g.deal_no
    t0 = _clock()
    end = t0 + seconds
    while _clock() < end:
        for _ in range(100):
            legal = g.legal()
            g.act(g.to_act, legal[r.randrange(len(legal))])
            if g.to_act is None:
                deals += g.deal_no - start
                seed += 1
                g = engine.new_game(game, seed=seed)
                start = g.deal_no
    deals += g.deal_no - start
    return deals / (_clock() - t0)


def mid_deal(game: str) -> Any:
    """A state in the play phase with a few tricks played."""
    r = random.Random(3)
    g: Any = engine.new_game(game, seed=3)
    while not (g.phase == "play" and 8 <= sum(g.view(None)["tricks"]) * 4 + len(g.trick) <= 24):
        ids = g.legal_ids()
        g.step(ids[r.randrange(len(ids))])
    return g


def rollouts(game: str, seconds: float) -> float:
    """Random rollouts to the end of the deal per second, each from a clone of one mid-deal state.

    Uses ``playout()`` where the game has it, else ``legal_ids`` / ``step``.
    """
    r = random.Random(2)
    rnd = r.random
    root = mid_deal(game)
    deal_no = root.deal_no
    fast = hasattr(root, "playout")
    n = 0
    t0 = _clock()
    end = t0 + seconds
    while _clock() < end:
        for _ in range(50):
            g = root.clone()
            if fast:
                g.playout(rnd)
            else:
                while g.deal_no == deal_no and g.to_act is not None:
                    ids = g.legal_ids()
                    g.step(ids[int(rnd() * len(ids))])
            n += 1
    return n / (_clock() - t0)


def clone_us(game: str) -> float:
    """Microseconds per ``clone()`` of a mid-deal state (best of 5 runs)."""
    g = mid_deal(game)
    best = float("inf")
    for _ in range(5):
        t0 = _clock()
        for _ in range(20_000):
            g.clone()
        best = min(best, (_clock() - t0) / 20_000)
    return best * 1e6


def openspiel_hearts(seconds: float) -> float | None:
    """OpenSpiel hearts random full games per second driven from Python, or None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    r = random.Random(1)
    rnd = r.random
    n = 0
    t0 = _clock()
    end = t0 + seconds
    while _clock() < end:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rnd() * len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rnd() * len(legal))])
        n += 1
    return n / (_clock() - t0)


def main(argv: list[str] | None = None) -> int:
    """Print the figures (each the best of ``--rounds`` alternating runs, to resist a busy machine)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each is kept")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    args = ap.parse_args(argv)
    games = [g for g in args.games if _available(g)]
    best: dict[str, list[float]] = {g: [0.0, 0.0, 0.0, float("inf"), 0.0] for g in games}
    hearts: float | None = 0.0
    for _ in range(args.rounds):
        h = openspiel_hearts(args.seconds)
        hearts = None if h is None else max(hearts or 0.0, h)
        for game in games:
            b = best[game]
            b[0] = max(b[0], deals_fast(game, args.seconds))
            b[1] = max(b[1], deals_public(game, args.seconds))
            b[2] = max(b[2], rollouts(game, args.seconds))
            b[3] = min(b[3], clone_us(game))
            b[4] = max(b[4], deals_playout(game, args.seconds) or 0.0)
    if hearts is None:
        print("OpenSpiel hearts: pyspiel not importable, skipped")
    else:
        print(f"OpenSpiel hearts (C++ via Python): {hearts:9.0f} random games/s")
    print("deals/s: random full deals per second via playout() / legal_ids+step / legal+act;")
    print("rollouts/s: random rollouts from a clone of a mid-deal state to the deal's end; ×hearts: deals/s ÷ hearts")
    head = ("game", "playout", "step", "act()", "rollouts/s", "clone µs", "×h playout", "×h step")
    print("{:10} {:>9} {:>9} {:>9} {:>11} {:>9} {:>11} {:>8}".format(*head))
    for game in args.games:
        if game not in best:
            print(f"{game:10} not available")
            continue
        fast, pub, roll, cl, po = best[game]
        r_po = f"{po / hearts:11.2f}" if hearts and po else "          -"
        r_fast = f"{fast / hearts:8.2f}" if hearts else "       -"
        po_s = f"{po:9.0f}" if po else "        -"
        print(f"{game:10} {po_s} {fast:9.0f} {pub:9.0f} {roll:11.0f} {cl:9.2f} {r_po} {r_fast}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
