"""Engine speed: random full deals/s, rollouts/s from a cloned mid-deal state, clone() time.

Run ``python bench/engine.py [--seconds 1] [--rounds 5]``. When ``pyspiel`` (open-spiel, the ``bench``
extra) is importable, three anchors are measured inside every round, interleaved with the games:
OpenSpiel hearts random games/s driven from Python with plain random legal actions (the anchor of
the ratios, measured just before each game's fast path), the whole game in C++ (``evaluate_bots``,
just after it), and once a round the same Python driver through ``chance_outcomes()`` (the old,
slower anchor, for reference). Figures are printed, never asserted (speed is not a test).

Rates use this process's CPU time (``time.process_time``), so a busy machine skews them less.
Every driver picks uniformly at random with ``int(random() * n)`` (OpenSpiel included).
Two drivers per game: the integer fast path that search code uses (``legal_ids`` / ``step``, no
events) and the public string API (``legal`` / ``act`` with events).
"""

from __future__ import annotations

import argparse
import random
import statistics
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


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def openspiel_hearts(seconds: float) -> float | None:
    """OpenSpiel hearts random full games per second driven from Python with plain random legal actions.

    The anchor: every node, chance nodes included, takes ``legal[int(rnd() * len(legal))]`` from
    ``legal_actions()`` (hearts' chance outcomes are uniform, so this is a fair random game).
    None without pyspiel.
    """
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game("hearts")
    rnd = random.Random(1).random
    n = 0
    t0 = _clock()
    end = t0 + seconds
    while _clock() < end:
        s = game.new_initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[int(rnd() * len(legal))])
        n += 1
    return n / (_clock() - t0)


def openspiel_hearts_chance(seconds: float) -> float | None:
    """The old anchor, for reference: chance nodes through ``chance_outcomes()`` (slower per game)."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game("hearts")
    rnd = random.Random(1).random
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


def openspiel_hearts_cpp(seconds: float) -> float | None:
    """OpenSpiel hearts random full games per second with the whole game in C++.

    ``pyspiel.evaluate_bots`` with four uniform random bots: chance sampling, legal actions and
    moves all run in C++; Python makes one call per game.
    """
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(4)]
    n = 0
    t0 = _clock()
    end = t0 + seconds
    while _clock() < end:
        for _ in range(20):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, n)
            n += 1
    return n / (_clock() - t0)


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def _spread(xs: list[float], digits: int = 2) -> str:
    """``median (min–max)`` of some figures."""
    if not xs:
        return "-"
    return f"{_median(xs):.{digits}f} ({min(xs):.{digits}f}–{max(xs):.{digits}f})"


def main(argv: list[str] | None = None) -> int:
    """Print the figures: medians over ``--rounds`` rounds, the anchors measured inside every round.

    In each round every game's fast path is measured between two anchors: OpenSpiel hearts from
    Python (plain random legal actions) just before it and OpenSpiel's C++ just after; each ratio
    is taken from that adjacent pair, and the median over rounds is printed with the range.
    """
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; medians over rounds are printed")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    args = ap.parse_args(argv)
    games = [g for g in args.games if _available(g)]
    cols = ("playout", "step", "act", "rollouts", "clone")
    fig: dict[str, dict[str, list[float]]] = {g: {c: [] for c in (*cols, "xh", "xcpp")} for g in games}
    anchors: dict[str, list[float]] = {"plain": [], "chance": [], "cpp": []}
    for _ in range(args.rounds):
        chance = openspiel_hearts_chance(args.seconds)
        if chance is not None:
            anchors["chance"].append(chance)
        for game in games:
            f = fig[game]
            # the headline pair: the plain anchor just before the game's fast path, C++ just after
            plain = openspiel_hearts(args.seconds)
            po = deals_playout(game, args.seconds)
            cpp = openspiel_hearts_cpp(args.seconds)
            f["step"].append(deals_fast(game, args.seconds))
            f["act"].append(deals_public(game, args.seconds))
            f["rollouts"].append(rollouts(game, args.seconds))
            f["clone"].append(clone_us(game))
            fast = po if po is not None else f["step"][-1]
            if po is not None:
                f["playout"].append(po)
            if plain is not None and cpp is not None:
                anchors["plain"].append(plain)
                anchors["cpp"].append(cpp)
                f["xh"].append(fast / plain)
                f["xcpp"].append(fast / cpp)
    if not anchors["plain"]:
        print("OpenSpiel hearts: pyspiel not importable, skipped")
    else:
        print(f"medians of {args.rounds} rounds of {args.seconds:g} s each (range in brackets), process CPU time")
        print(f"OpenSpiel hearts, Python, plain random legal actions: {_spread(anchors['plain'], 0)} games/s")
        print(f"OpenSpiel hearts, Python, chance_outcomes() (old anchor): {_spread(anchors['chance'], 0)} games/s")
        print(f"OpenSpiel hearts, C++ (evaluate_bots, uniform random): {_spread(anchors['cpp'], 0)} games/s")
    print("deals/s: random full deals per second via playout() / legal_ids+step / legal+act;")
    print("rollouts/s: from a clone of a mid-deal state to the deal's end;")
    print("×hearts, ×C++: the fast path (playout) deals/s ÷ OpenSpiel hearts games/s measured beside it")
    head = ("game", "playout", "step", "act()", "rollouts/s", "clone µs", "×hearts (Python)", "×C++")
    print("{:10} {:>9} {:>9} {:>9} {:>11} {:>9} {:>22} {:>20}".format(*head))
    for game in args.games:
        if game not in fig:
            print(f"{game:10} not available")
            continue
        f = fig[game]
        po_s = f"{_median(f['playout']):9.0f}" if f["playout"] else "        -"
        print(
            f"{game:10} {po_s} {_median(f['step']):9.0f} {_median(f['act']):9.0f} {_median(f['rollouts']):11.0f}"
            f" {_median(f['clone']):9.2f} {_spread(f['xh']):>22} {_spread(f['xcpp']):>20}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
