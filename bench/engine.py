"""Engine speed: random full deals/s on the fast path against OpenSpiel hearts, plus step, act, rollouts, clone.

Run ``python bench/engine.py [--seconds 1] [--slices 5] [--rounds 5] [--extra 0.3]`` (about two
minutes with the defaults). The headline, per game and round: random full deals per second
through ``playout()`` (the search rollout hot path: auction or contract, play, scoring and the
next deal's shuffle; a new match when one ends) against OpenSpiel hearts random games per second
(``pyspiel``, the ``bench`` extra), measured in alternating slices: ours, hearts driven from
Python with plain random legal actions (the anchor of the ratio), hearts wholly in C++
(``evaluate_bots``, the stretch figure), ours again, and so on. Each round gives one ratio from
its interleaved triple; medians and ranges over the rounds are printed. Figures are printed,
never asserted (speed is not a test).

Rates use this process's CPU time (``time.process_time``), so a busy machine skews them less.
Every driver picks uniformly at random with ``floor(random() * n)`` (OpenSpiel included; the
same index as ``int(random() * n)``, a cheaper call). The secondary figures: the integer fast path
driven one action at a time (``legal_ids`` / ``step``, no events), the public string API
(``legal`` / ``act`` with events), rollouts from a clone of a mid-deal state, and ``clone()``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from math import floor
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
            g.step(ids[floor(rnd() * len(ids))])
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
                    g.step(ids[floor(rnd() * len(ids))])
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


def trix_contracts(seconds: float) -> dict[str, float]:
    """Microseconds per Trix deal through ``playout()``, per kingdom contract.

    Each from a state just after the contract was chosen (doubling, play, scoring and the next
    deal's shuffle), on copies loaded from JSON so no generator is shared (no copy at the deal's
    end); the layout (``trix``) and the penalty contracts differ a lot.
    """
    from engine.trix.contracts import CONTRACT_NAMES, KINGDOM_CONTRACTS

    out: dict[str, float] = {}
    for c in KINGDOM_CONTRACTS["kingdoms"]:
        starts: list[dict[str, Any]] = []
        seed = 0
        while len(starts) < 40:
            r = random.Random(seed)
            g: Any = engine.new_game("trix", seed=seed)
            seed += 1
            while g.to_act is not None:
                if g.phase == "contract" and c in g.contracts_left():  # the owner picks this contract
                    g.step(g.legal_ids()[g.contracts_left().index(c)])
                    if g.contract == c and g.phase != "contract":
                        starts.append(g.to_json())
                    break
                ids = g.legal_ids()
                g.step(ids[floor(r.random() * len(ids))])
        rnd = random.Random(4).random
        n = 0
        spent = 0.0
        while spent < seconds:
            games = [engine.load(d) for d in starts]
            t0 = _clock()
            for g in games:
                g.playout(rnd)
            spent += _clock() - t0
            n += len(games)
        out[CONTRACT_NAMES[c]] = spent / n * 1e6
    return out


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def _spread(xs: list[float], digits: int = 2) -> str:
    """``median (min–max)`` of some figures."""
    if not xs:
        return "-"
    return f"{_median(xs):.{digits}f} ({min(xs):.{digits}f}–{max(xs):.{digits}f})"


class _Meter:
    """A resumable driver: ``run(seconds)`` plays on from where it stopped and adds to the tallies.

    ``tick()`` plays a little and returns how many units (deals, games) it completed; the meter
    sums units and this process's CPU time over all the slices it was given.
    """

    def __init__(self, tick: Callable[[], int]) -> None:
        self.tick = tick
        self.units = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        tick = self.tick
        units = 0
        t0 = _clock()
        end = t0 + seconds
        while _clock() < end:
            units += tick()
        self.cpu += _clock() - t0
        self.units += units

    @property
    def rate(self) -> float:
        return self.units / self.cpu if self.cpu else float("nan")


def playout_meter(game: str) -> _Meter:
    """Random full deals through ``playout()`` (a new match when one ends), 20 playouts a tick."""
    rnd = random.Random(1).random
    st: dict[str, Any] = {"seed": 0, "g": engine.new_game(game, seed=0)}

    def tick() -> int:
        g = st["g"]
        done = 0
        for _ in range(20):
            g.playout(rnd)
            done += 1
            if g.to_act is None:
                st["seed"] += 1
                g = st["g"] = engine.new_game(game, seed=st["seed"])
        return done

    return _Meter(tick)


def hearts_meter() -> _Meter | None:
    """OpenSpiel hearts games driven from Python with plain random legal actions (the anchor).

    Every node, chance nodes included, takes ``legal[floor(rnd() * len(legal))]`` from
    ``legal_actions()``, the same draw as the engine's drivers (hearts' chance outcomes are
    uniform, so this is a fair random game). None without pyspiel.
    """
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    hearts = pyspiel.load_game("hearts")
    rnd = random.Random(1).random

    def tick() -> int:
        for _ in range(5):
            s = hearts.new_initial_state()
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[floor(rnd() * len(legal))])
        return 5

    return _Meter(tick)


def hearts_cpp_meter() -> _Meter | None:
    """OpenSpiel hearts games with the whole game in C++ (``evaluate_bots``, uniform random bots)."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    hearts = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(4)]
    st = [0]

    def tick() -> int:
        for _ in range(20):
            pyspiel.evaluate_bots(hearts.new_initial_state(), bots, st[0])
            st[0] += 1
        return 20

    return _Meter(tick)


def headline(game: str, seconds: float, slices: int) -> tuple[float, float | None, float | None]:
    """One round of the headline pair: (ours, hearts from Python, hearts in C++) per second.

    The three drivers take turns in ``slices`` short slices each (ours, the anchor, C++, ours,
    ...), so a neighbour's load on this shared machine falls on all three alike.
    """
    ours = playout_meter(game)
    anchor = hearts_meter()
    cpp = hearts_cpp_meter()
    part = seconds / slices
    for _ in range(slices):
        ours.run(part)
        if anchor is not None:
            anchor.run(part)
        if cpp is not None:
            cpp.run(part)
    return ours.rate, None if anchor is None else anchor.rate, None if cpp is None else cpp.rate


def main(argv: list[str] | None = None) -> int:
    """Print the figures: medians over ``--rounds`` rounds, the anchors measured inside every round.

    In each round every game's fast path (``playout``) and the two OpenSpiel anchors are measured
    in alternating slices (:func:`headline`); each round's ratio is taken from that interleaved
    triple, and the median over rounds is printed with the range. The other figures (``step``,
    ``act``, rollouts, clone) are measured once per round after the headline.
    """
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per driver per headline round")
    ap.add_argument("--slices", type=int, default=5, help="alternating slices per headline round")
    ap.add_argument("--rounds", type=int, default=5, help="rounds; medians over rounds are printed")
    ap.add_argument("--extra", type=float, default=0.3, help="seconds per secondary figure (0: skip them)")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    args = ap.parse_args(argv)
    games = [g for g in args.games if _available(g)]
    cols = ("ours", "hearts", "cpp", "xh", "xcpp", "step", "act", "rollouts", "clone")
    fig: dict[str, dict[str, list[float]]] = {g: {c: [] for c in cols} for g in games}
    contracts: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for game in games:
            f = fig[game]
            ours, hearts, cpp = headline(game, args.seconds, args.slices)
            f["ours"].append(ours)
            if hearts is not None and cpp is not None:
                f["hearts"].append(hearts)
                f["cpp"].append(cpp)
                f["xh"].append(ours / hearts)
                f["xcpp"].append(ours / cpp)
            if args.extra > 0:
                f["step"].append(deals_fast(game, args.extra))
                f["act"].append(deals_public(game, args.extra))
                f["rollouts"].append(rollouts(game, args.extra))
                f["clone"].append(clone_us(game))
                if game == "trix":
                    for name, us in trix_contracts(args.extra / 2).items():
                        contracts.setdefault(name, []).append(us)
    print(
        f"medians of {args.rounds} rounds (range in brackets); per round and game {args.seconds:g} s of CPU time"
        f" per driver in {args.slices} alternating slices (ours, hearts from Python, hearts in C++)"
    )
    print("ours: random full deals/s through playout(); hearts: OpenSpiel hearts games/s, Python driver with")
    print("plain random legal actions (chance nodes included); C++: evaluate_bots with uniform random bots")
    if not any(fig[g]["hearts"] for g in games):
        print("OpenSpiel hearts: pyspiel not importable, anchors skipped")
    head = ("game", "ours deals/s", "hearts/s (Python)", "× hearts", "hearts/s (C++)", "× C++")
    print("{:10} {:>22} {:>22} {:>18} {:>24} {:>18}".format(*head))
    for game in args.games:
        if game not in fig:
            print(f"{game:10} not available")
            continue
        f = fig[game]
        print(
            f"{game:10} {_spread(f['ours'], 0):>22} {_spread(f['hearts'], 0):>22} {_spread(f['xh']):>18}"
            f" {_spread(f['cpp'], 0):>24} {_spread(f['xcpp']):>18}"
        )
    if args.extra > 0:
        print(f"secondary figures, medians ({args.extra:g} s each): deals/s through legal_ids+step and legal+act;")
        print("rollouts/s from a clone of a mid-deal state to the deal's end (through playout); clone() µs")
        print("{:10} {:>9} {:>9} {:>11} {:>9}".format("game", "step", "act()", "rollouts/s", "clone µs"))
        for game in games:
            f = fig[game]
            print(
                f"{game:10} {_median(f['step']):9.0f} {_median(f['act']):9.0f} {_median(f['rollouts']):11.0f}"
                f" {_median(f['clone']):9.2f}"
            )
        if contracts:
            print("trix, µs per deal through playout() from the chosen contract (doubling, play, scoring,")
            print("the next deal's shuffle), per contract:")
            print("  " + ", ".join(f"{name} {_median(us):.0f}" for name, us in contracts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
