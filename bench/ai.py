"""Duplicate matches between two AI players on the same seeded deals.

    python bench/ai.py --game tarneeb --deals 40          # strong vs rule-based, classic card play
    python bench/ai.py --game tarneeb41 --deals 40
    python bench/ai.py --game trix --deals 8               # --jobs 2: two processes (Trix only)
    python bench/ai.py --game trix-kingdom --deals 160     # 8 kingdoms, the owner chooses

Classic Tarneeb: every deal is played twice with the teams swapped; the rule player bids in both
runs (so the contract is the same) and only the card play differs: the figure is the strong team's
tricks minus the rule team's tricks in the same seats. A second figure lets the strong player bid
too and compares team scores. Tarneeb 41: each deal twice with the teams swapped, bids and play by
the players; the figure is the mean personal score per deal of a strong seat minus a rule seat in
the same seat. Trix: each deal is played once with four rule players and once with the strong
player in each seat, for every contract (the owner's choice is forced); the figure is the strong
seat's points minus the rule player's points in that seat. Trix kingdoms (``--game trix-kingdom``,
``--deals`` / 20 kingdoms): five deals, one per contract, the kingdom's owner choosing the order, so
the contract choice counts too; the figure is the same difference per deal. Prints means with
standard errors and the strong player's move times (of decisions with a choice only: a forced move
is answered at once and would flatter the median; the opening lead apart, its limit is 2 s).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from bench._stats import percentile
from bot.ai.rules import RulePlayer
from bot.ai.strong import StrongPlayer

TIMES: dict[str, list[float]] = {"card": [], "lead": [], "bid": []}


def _deal_cards(seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    rng.shuffle(deck)
    return [deck[i::4] for i in range(4)]


def play_deal(game: str, cards: list[list[str]], players: list[Any], seed: int, *,
              bidders: list[Any] | None = None, contract: str | None = None,
              timed: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
    """Play one deal from ``cards`` to its ``deal_scored`` event; return that event."""
    g = engine.new_game(game, seed=seed, dealer=0 if game != "trix" else None, deals=[cards])
    rng = random.Random(seed)
    while True:
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        phase = g.phase
        if phase == "contract" and contract is not None:
            action = f"contract {contract}"
        else:
            who = (bidders or players)[seat] if phase in ("bid", "trump") else players[seat]
            action = _decide(who, view, game, phase, rng, seat in timed)
        for ev in g.act(seat, action):
            if ev["type"] in ("deal_scored", "deal_thrown_in"):
                return ev


def _decide(who: Any, view: dict[str, Any], game: str, phase: str, rng: random.Random, timed: bool) -> str:
    """``who``'s action; a strong player's thinking time is recorded when it had a choice."""
    t0 = time.perf_counter()
    action = str(who.decide(view, game, rng))
    if timed and isinstance(who, StrongPlayer) and len(view["legal"]) > 1:
        kind = "bid"
        if phase == "play":  # the opening lead has its own budget (2 s, like a bid)
            kind = "card" if view.get("history") or view.get("trick") or view.get("layout_history") else "lead"
        TIMES[kind].append(time.perf_counter() - t0)
    return action


def _mean_se(xs: list[float]) -> tuple[float, float]:
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), 0.0
    return statistics.fmean(xs), statistics.stdev(xs) / len(xs) ** 0.5


def bench_tarneeb(deals: int, level: str) -> None:
    strong, rule = StrongPlayer(level), RulePlayer()
    card_gain: list[float] = []
    score_gain: list[float] = []
    for i in range(deals):
        cards = _deal_cards(1000 + i)
        tricks0: dict[int, int] = {}
        net0: dict[int, int] = {}
        for strong_team in (0, 1):
            players = [strong if s % 2 == strong_team else rule for s in range(4)]
            ev = play_deal("tarneeb", cards, players, 1000 + i, bidders=[rule] * 4,
                           timed={s for s in range(4) if s % 2 == strong_team})
            if ev["type"] == "deal_scored":
                tricks0[strong_team] = ev["summary"]["tricks"][0]
            ev2 = play_deal("tarneeb", cards, players, 1000 + i)
            if ev2["type"] == "deal_scored":
                d = ev2["deltas"]["teams"]
                net0[strong_team] = d[0] - d[1]
        if len(tricks0) == 2:  # team 0's tricks with strong players minus with rule players, same cards
            card_gain.append(tricks0[0] - tricks0[1])
        if len(net0) == 2:
            score_gain.append((net0[0] - net0[1]) / 2)
    m, se = _mean_se(card_gain)
    print(f"classic tarneeb, level={level}: {len(card_gain)} deals played in both seatings (rule bids)")
    print(f"  card play, same contract: strong minus rule = {m:+.2f} ± {se:.2f} tricks per deal")
    m, se = _mean_se(score_gain)
    print(f"  whole deal, strong bids too ({len(score_gain)} deals): net score {m:+.2f} ± {se:.2f}")


def bench_tarneeb41(deals: int, level: str) -> None:
    strong, rule = StrongPlayer(level), RulePlayer()
    diffs: list[float] = []
    s_scores: list[float] = []
    r_scores: list[float] = []
    thrown = 0
    for i in range(deals):
        cards = _deal_cards(2000 + i)
        per_seat: dict[tuple[int, int], int] = {}
        for strong_team in (0, 1):
            players = [strong if s % 2 == strong_team else rule for s in range(4)]
            ev = play_deal("tarneeb41", cards, players, 2000 + i,
                           timed={s for s in range(4) if s % 2 == strong_team})
            if ev["type"] != "deal_scored":
                thrown += 1
                d = [0, 0, 0, 0]
            else:
                d = ev["deltas"]["players"]
            for s in range(4):
                per_seat[(strong_team, s)] = d[s]
        for s in range(4):
            st = s % 2  # the run where seat s is strong
            diffs.append(per_seat[(st, s)] - per_seat[(1 - st, s)])
            s_scores.append(per_seat[(st, s)])
            r_scores.append(per_seat[(1 - st, s)])
    m, se = _mean_se(diffs)
    print(f"tarneeb41, {deals} deals x 2 seatings ({thrown} thrown in), level={level}")
    ms, mr = statistics.fmean(s_scores), statistics.fmean(r_scores)
    print(f"  personal score per deal: strong {ms:+.2f}, rule {mr:+.2f};"
          f" difference {m:+.2f} ± {se:.2f} (2 SE = {2 * se:.2f})")


CONTRACTS = ("king", "queens", "diamonds", "tricks", "trix")


def _trix_deal(args: tuple[int, str]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """One Trix deal, every contract, the strong player in each seat: the differences and move times."""
    i, level = args
    strong, rule = StrongPlayer(level), RulePlayer()
    before = _times_mark()
    cards = _deal_cards(3000 + i)
    out: dict[str, list[float]] = {c: [] for c in CONTRACTS}
    for contract in CONTRACTS:
        base = play_deal("trix", cards, [rule] * 4, 3000 + i, contract=contract)["deltas"]["players"]
        for s in range(4):
            players = [strong if x == s else rule for x in range(4)]
            d = play_deal("trix", cards, players, 3000 + i, contract=contract, timed={s})["deltas"]["players"]
            out[contract].append(d[s] - base[s])
    return out, _times_since(before)


def _times_mark() -> dict[str, int]:
    return {k: len(v) for k, v in TIMES.items()}


def _times_since(before: dict[str, int]) -> dict[str, list[float]]:
    """The move times recorded since ``before = _times_mark()`` (a worker sends them back)."""
    return {k: v[before[k]:] for k, v in TIMES.items()}


def _in_workers(fn: Any, work: list[Any], jobs: int) -> list[Any]:
    """``fn(w)`` for every ``w``, in ``jobs`` processes; ``fn`` returns (result, its move times), and
    the times join ``TIMES`` (in one process they are there already)."""
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            pairs = pool.map(fn, work, chunksize=1)
    else:
        pairs = [fn(w) for w in work]
    if jobs > 1:
        for _, ts in pairs:
            for k, v in ts.items():
                TIMES[k].extend(v)
    return [r for r, _ in pairs]


def play_kingdom(deals: list[list[list[str]]], players: list[Any], seed: int,
                 timed: set[int] | frozenset[int] = frozenset()) -> tuple[list[int], list[str]]:
    """Play one Trix kingdom (one deal per contract, the owner choosing); each seat's points and the
    contracts in the order played."""
    g = engine.new_game("trix", seed=seed, deals=deals)
    rng = random.Random(seed)
    total = [0, 0, 0, 0]
    order: list[str] = []
    while len(order) < len(deals):
        seat = g.to_act
        assert seat is not None
        action = _decide(players[seat], g.view(seat), "trix", g.phase, rng, seat in timed)
        for ev in g.act(seat, action):
            if ev["type"] == "deal_scored":
                for s, d in enumerate(ev["deltas"]["players"]):
                    total[s] += d
                order.append(ev["summary"]["contract"])
    return total, order


def _trix_kingdom(args: tuple[int, str]) -> tuple[tuple[list[float], int], dict[str, list[float]]]:
    """One kingdom of five deals played by four rule players, then by the strong player in each seat:
    the strong seat's points per deal minus the rule player's, the number of seats whose owner
    ordered the contracts differently, and the move times."""
    i, level = args
    strong, rule = StrongPlayer(level), RulePlayer()
    before = _times_mark()
    deals = [_deal_cards(5000 + 5 * i + j) for j in range(len(CONTRACTS))]
    base, base_order = play_kingdom(deals, [rule] * 4, 5000 + i)
    diffs: list[float] = []
    reordered = 0
    for s in range(4):
        players = [strong if x == s else rule for x in range(4)]
        got, order = play_kingdom(deals, players, 5000 + i, timed={s})
        diffs.append((got[s] - base[s]) / len(deals))
        reordered += order != base_order
    return (diffs, reordered), _times_since(before)


def bench_trix_kingdoms(kingdoms: int, level: str, jobs: int = 1) -> None:
    """Whole kingdoms: the owner's contract choice, doubling and play all count."""
    allx: list[float] = []
    reordered = 0
    for diffs, r in _in_workers(_trix_kingdom, [(i, level) for i in range(kingdoms)], jobs):
        allx.extend(diffs)
        reordered += r
    m, se = _mean_se(allx)
    print(f"trix kingdoms, {kingdoms} kingdoms x 5 deals x 4 seats (owner chooses), level={level}")
    print(f"  strong seat - rule seat, points per deal per seat: {m:+.1f} ± {se:.1f}"
          f" (contract order changed in {reordered} of {4 * kingdoms} runs)")


def bench_trix(deals: int, level: str, jobs: int = 1) -> None:
    diffs: dict[str, list[float]] = {c: [] for c in CONTRACTS}
    for out in _in_workers(_trix_deal, [(i, level) for i in range(deals)], jobs):
        for c, xs in out.items():
            diffs[c].extend(xs)
    allx = [x for v in diffs.values() for x in v]
    m, se = _mean_se(allx)
    print(f"trix, {deals} deals x 5 contracts x 4 seats, level={level}")
    print(f"  strong seat - rule seat, points per deal per seat: {m:+.1f} ± {se:.1f}")
    for c, xs in diffs.items():
        cm, cse = _mean_se(xs)
        print(f"    {c:9s} {cm:+7.1f} ± {cse:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["tarneeb", "tarneeb41", "trix", "trix-kingdom", "all"], default="all")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--level", choices=["normal", "strong"], default="strong")
    ap.add_argument("--jobs", type=int, default=1,
                    help="Trix: deals in this many processes at once (move times then include contention)")
    a = ap.parse_args()
    t0 = time.perf_counter()
    if a.game in ("tarneeb", "all"):
        bench_tarneeb(a.deals, a.level)
    if a.game in ("tarneeb41", "all"):
        bench_tarneeb41(a.deals, a.level)
    if a.game in ("trix", "all"):
        bench_trix(max(1, a.deals // 4), a.level, a.jobs)
    if a.game in ("trix-kingdom", "all"):
        bench_trix_kingdoms(max(1, a.deals // 20), a.level, a.jobs)
    for kind, ts in TIMES.items():
        if ts:
            print(f"  strong move time ({kind}, n={len(ts)}): median {percentile(ts, 0.5) * 1000:.0f} ms,"
                  f" p90 {percentile(ts, 0.9) * 1000:.0f} ms, max {max(ts) * 1000:.0f} ms")
    print(f"  elapsed {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
