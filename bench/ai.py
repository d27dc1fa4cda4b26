"""Duplicate matches between two AI levels on the same seeded deals, and the event loop's lag.

    python bench/ai.py --game tarneeb --deals 40          # strong vs easy (the rule player)
    python bench/ai.py --game tarneeb --deals 40 --level strong --against normal
    python bench/ai.py --game tarneeb41 --deals 40
    python bench/ai.py --game trix --deals 8               # --jobs 2: two processes
    python bench/ai.py --game trix --deals 80 --contracts trix --trix-param exact_layout=8   # tuning
    python bench/ai.py --game trix --deals 8000 --contracts trix --level layout-value   # the learned layout value alone
    python bench/ai.py --game trix-kingdom --deals 320 --jobs 2 --cpu-only   # 16 kingdoms, the owner chooses
    python bench/ai.py --game trix-choice --deals 2000 --jobs 2 --cpu-only   # the owner's contract choice alone
    python bench/ai.py --game bids --deals 200             # Tarneeb bidding alone, in points
    python bench/ai.py --game lag --seconds 20             # 16 strong decisions in flight in the pool
    python bench/ai.py --game share --deals 100 --cpu-only # strong's gain as a share of the cheater's
    python bench/ai.py --game population --population noisy --deals 100 --cpu-only
    python bench/ai.py --game population --population ismcts --population-games tarneeb41 --deals 16 --cpu-only
    python bench/ai.py --game dd --deals 100 --dd-levels easy,normal,strong,cheater --cpu-only
    python bench/ai.py --game matches --deals 100 --cpu-only   # win rates, one strong seat among easy
    python bench/ai.py --game partner --deals 400 --cpu-only   # each level beside a noisy partner

Deal sets: ``--seeds report`` (the default) is held out: nothing was tuned on it; ``--seeds tune``
is the set the budgets and models were tuned on (the seeds this script always used before).
Levels: ``easy`` is the rule player, ``normal`` and ``strong`` the search, ``layout-value`` the
rule player with its Trix layout cards chosen by the learned layout value alone
(:mod:`ai.strong.trix_layout_value`); ``--level`` plays against ``--against``.

Classic Tarneeb: every deal is played twice with the teams swapped; the rule player bids in both
runs (so the contract is the same) and only the card play differs: the figure is the level's
tricks minus the other's tricks in the same seats. A second figure lets each side bid too and
compares team scores. Tarneeb 41: each deal twice with the teams swapped, bids and play by
the players; the figure is the mean personal score per deal of a level's seat minus the other's in
the same seat. Bids (``--game bids``, ``--bids`` one game or both): the card play is the rule
player's everywhere and only the bidding differs (classic: team points per deal, both seatings; 41:
a seat's points per deal minus the other's in the same seat, which summed over the four seats is
each seating's our-points-minus-theirs: the bidding is rewarded for the opponents' points it
prevents, a throw-in included). ``--level strong --against strong-rule-bids`` measures the bids
with the strong card play (``--whole-only``: classic without the card-play figure, which is then
the same on both sides). An all-pass classic deal counts as 0 for both teams.
Trix: each deal is played once with four ``--against`` players and once with the level's player
in each seat, for every contract (the owner's choice is forced); the figure is the level's seat
points minus the other's in that seat. (The search reads the owner's choice as evidence of its
cards, misleading here where the contract is imposed: the kingdoms are the measure.)
Trix kingdoms (``--game trix-kingdom``, ``--deals`` / 20
kingdoms): five deals, one per contract, the kingdom's owner choosing the order, so the contract
choice counts too; the figure is the same difference per deal. Prints means with standard errors
and the level's decision times (of decisions with a choice only: a forced move is answered at
once and would flatter the median; the opening lead apart), median, p95 and max: every decision
is under the one-second cap, thinking in this process (``--jobs``: contention included).

Honest measures (issue 33; docs/ai.md, "Measuring strength"). ``cheater`` is the strong search
given the true hands (:mod:`ai.strong.cheater`). Share (``--game share``, ``--share-in``): strong's
gain over easy and the cheater's on the same deals and seats (classic card play with the rule
player's bids, Tarneeb 41, each Trix contract imposed on ``--deals`` / 4 deals, optionally
``trix-kingdom`` on ``--deals`` / 20 kingdoms), and their ratio with its standard error (delta
method on the pairs). Populations (``--game population``, ``--population strong|noisy|ismcts``): the
three other seats of that population (``noisy``: the rule player with 30 % random legal moves, its
dice drawn from the position so both runs meet the same noise; ``ismcts``: OpenSpiel's ISMCTSBot,
``--ismcts-iterations`` simulations a decision, random rollouts, worlds drawn by the strong search's
deal sampler (in Trix the card play only, the doubles the rule player's): :mod:`bench._openspiel_game`,
the ``bench`` extra), in each
chair the level's points minus easy's in that chair, every player bidding (classic: the chair's team's
points minus the other team's). Double-dummy (``--game dd``, ``--dd-levels``): classic deals with the
rule player's bids, each level's side against easy's, declaring then defending: the declaring side's tricks below
double-dummy par (the tricks double-dummy at the opening lead) and the share of the level's cards
with a choice that lose a double-dummy trick. Matches (``--game matches``, ``--deals`` matches,
``--match-games``): whole matches with the default options, one seat of ``--level`` among three
easy seats in each chair, the share it wins (its team in the Tarneeb games; first place in Trix,
a shared first place split) against four easy seats on the same match seed. Partner (``--game
partner``, ``--partner-levels``): in Tarneeb 41 and classic Tarneeb, the level's seat (its chair the
deal's number mod 4) with a noisy rule partner against two easy seats, every seat bidding for
itself: the share of its cards with a choice that lose a double-dummy trick for its side, its
ruffs of a trick the partner was winning where a discard was legal (all, playing last, and the
share of those ruffs that lose a double-dummy trick), in
classic its bids over a partner's bid that had won the auction, and on the same classic deal's
auction with its side at the target minus 1 to 7 its bids above the lowest legal one (the lowest
already wins the match); pooled rates with a standard error over deals.

Lag (``--game lag``): ``--flight`` tables (16) ask the strong AI for a decision, one after another,
through the process pool (:mod:`ai.pool`), while a ticker measures how late the event loop
wakes up (p50/p99/max); the same with ``--lag-mode thread`` (``asyncio.to_thread``, the old way).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from ai.rules import RulePlayer
from ai.strong import StrongPlayer
from ai.strong.cheater import TRUE_HANDS, CheaterPlayer
from bench._ai_measure import (
    NoisyRulePlayer,
    dd_cards,
    jumps_near_target,
    overbids_partner,
    rate,
    ruff_over_partner,
    share,
)
from bench._stats import percentile

TIMES: dict[str, list[float]] = {"card": [], "lead": [], "bid": [], "cpu": []}
#: Seed offsets of the deal sets: "tune" is what the budgets and models were tuned on.
SEEDS = {"tune": 0, "report": 1_000_000}
OFFSET = SEEDS["report"]
#: ISMCTS simulations a decision (--population ismcts): about 0.3 s a Tarneeb 41 card in one process
ISMCTS_ITERATIONS = 100


def player(level: str) -> Any:
    """The AI of ``level``: the rule player for ``easy``, the search otherwise (``strong-rule-bids``:
    the strong level with the rule player's bids, to measure the bidding alone with strong card play)."""
    if level == "easy":
        return RulePlayer()
    if level == "noisy":  # the rule player with 30 % random legal moves (a population, --game population)
        return NoisyRulePlayer(0.3)
    if level == "cheater":  # the strong search given the true hands (--game share)
        return CheaterPlayer()
    if level == "layout-value":  # the rule player, its layout cards by the learned layout value
        from ai.strong.trix_layout_value import LayoutValuePlayer

        return LayoutValuePlayer()
    if level == "ismcts":  # OpenSpiel's ISMCTSBot (--population ismcts; needs the bench extra)
        from bench._openspiel_game import ISMCTSPlayer

        return ISMCTSPlayer(iterations=int(os.environ.get("MAJLIS_BENCH_ISMCTS_ITERATIONS", ISMCTS_ITERATIONS)))
    if level == "strong-rule-bids":
        p = StrongPlayer("strong")
        p.bid_games = set()
        return p
    p = StrongPlayer(level)
    if level == "strong":  # --trix-param: tuning a TrixBrain attribute (the default: as shipped)
        for item in filter(None, os.environ.get("MAJLIS_BENCH_TRIX_PARAMS", "").split(",")):
            name, value = item.split("=")
            old = getattr(p.trix, name)  # (an unknown name fails loudly)
            if isinstance(old, tuple):  # the inference's mixture (miss): a flat factor instead
                setattr(p.trix, name, float(value))
                continue
            setattr(p.trix, name, type(old)(float(value)) if not isinstance(old, bool) else value == "1")
    return p


def _deal_cards(seed: int) -> list[list[str]]:
    rng = random.Random(seed + OFFSET)
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    rng.shuffle(deck)
    return [deck[i::4] for i in range(4)]


def play_deal(game: str, cards: list[list[str]], players: list[Any], seed: int, *,
              bidders: list[Any] | None = None, contract: str | None = None,
              timed: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
    """Play one deal from ``cards`` to its ``deal_scored`` event; return that event."""
    dealer = 0 if game != "trix" else None
    g = engine.new_game(game, seed=seed + OFFSET, dealer=dealer, deals=[cards])
    rng = random.Random(seed + OFFSET)
    actions: list[str] = []  # the deal's actions so far (an ISMCTS seat rebuilds its OpenSpiel state from them)
    while True:
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        phase = g.phase
        if phase == "contract" and contract is not None:
            action = f"contract {contract}"
        else:
            who = (bidders or players)[seat] if phase in ("bid", "trump") else players[seat]
            if getattr(who, "needs_actions", False):
                action = who.decide_deal(game, cards, seed + OFFSET, actions, dealer)
            else:
                action = _decide(who, view, game, phase, rng, seat in timed, g)
        actions.append(action)
        for ev in g.act(seat, action):
            if ev["type"] in ("deal_scored", "deal_thrown_in"):
                return ev


def _decide(who: Any, view: dict[str, Any], game: str, phase: str, rng: random.Random, timed: bool,
            g: Any = None) -> str:
    """``who``'s action; a searching player's thinking time is recorded when it had a choice (the
    cheater is shown every hand of ``g``)."""
    if getattr(who, "needs_true_hands", False):
        view = {**view, TRUE_HANDS: [g.hand(s) for s in range(4)]}
    t0 = time.perf_counter()
    c0 = time.thread_time()
    if isinstance(who, StrongPlayer) and os.environ.get("MAJLIS_BENCH_CPU_ONLY"):
        action = str(who.decide(view, game, rng, deadline=time.monotonic() + 30.0))
    else:
        action = str(who.decide(view, game, rng))
    # (the cheater's decisions are not the level's: --game share times strong's alone)
    if timed and isinstance(who, StrongPlayer) and not isinstance(who, CheaterPlayer) and len(view["legal"]) > 1:
        kind = "bid"
        if phase == "play":  # the opening lead apart: it is the most expensive card
            kind = "card" if view.get("history") or view.get("trick") or view.get("layout_history") else "lead"
        TIMES[kind].append(time.perf_counter() - t0)
        TIMES["cpu"].append(time.thread_time() - c0)
    return action


def _mean_se(xs: list[float]) -> tuple[float, float]:
    if len(xs) < 2:
        return (xs[0] if xs else 0.0), 0.0
    return statistics.fmean(xs), statistics.stdev(xs) / len(xs) ** 0.5


def _fig(xs: list[float], unit: str, digits: int = 2) -> str:
    m, se = _mean_se(xs)
    z = m / se if se else float("inf")
    return f"{m:+.{digits}f} ± {se:.{digits}f} {unit} (n={len(xs)}, {z:+.1f} SE)"


def _tarneeb_deal(args: tuple[int, str, str, int, bool]) -> tuple[tuple[float | None, float | None],
                                                                  dict[str, list[float]]]:
    """One classic deal in both seatings: the card-play gain (rule bids) and the whole-deal gain
    (``whole_only``: the whole deal alone)."""
    i, level, against, offset, whole_only = args
    _set_offset(offset)
    a, b = player(level), player(against)
    before = _times_mark()
    cards = _deal_cards(1000 + i)
    tricks0: dict[int, int] = {}
    net0: dict[int, int] = {}
    for a_team in (0, 1):
        players = [a if s % 2 == a_team else b for s in range(4)]
        timed = {s for s in range(4) if s % 2 == a_team}
        same_bids = not any("tarneeb" in getattr(p, "bid_games", ()) for p in (a, b))
        ev = None
        if not (whole_only and not same_bids):
            ev = play_deal("tarneeb", cards, players, 1000 + i, bidders=[RulePlayer()] * 4, timed=timed)
            if ev["type"] == "deal_scored":
                tricks0[a_team] = ev["summary"]["tricks"][0]
        ev2 = ev if same_bids and ev is not None else play_deal("tarneeb", cards, players, 1000 + i, timed=timed)
        d = ev2["deltas"]["teams"] if ev2["type"] == "deal_scored" else [0, 0]  # all passed: nobody scores
        net0[a_team] = d[0] - d[1]
    # team 0's tricks with the level's players minus with the other's, same cards
    card = float(tricks0[0] - tricks0[1]) if len(tricks0) == 2 else None
    score = (net0[0] - net0[1]) / 2 if len(net0) == 2 else None
    return (card, score), _times_since(before)


def bench_tarneeb(deals: int, level: str, against: str, jobs: int = 1, whole_only: bool = False) -> None:
    card_gain: list[float] = []
    score_gain: list[float] = []
    work = [(i, level, against, OFFSET, whole_only) for i in range(SKIP, SKIP + deals)]
    for card, score in _in_workers(_tarneeb_deal, work, jobs):
        if card is not None:
            card_gain.append(card)
        if score is not None:
            score_gain.append(score)
    _dump("tarneeb-whole", level, against, score_gain)
    print(f"classic tarneeb, {level} vs {against}: {deals} deals, each in both seatings")
    if card_gain:
        print(f"  card play, same contract (rule bids): {_fig(card_gain, 'tricks per deal')}")
    print(f"  whole deal, each side bids and plays: {_fig(score_gain, 'points per deal per team')}")


def _t41_deal(args: tuple[int, str, str, int]) -> tuple[tuple[list[float], int], dict[str, list[float]]]:
    i, level, against, offset = args
    _set_offset(offset)
    a, b = player(level), player(against)
    before = _times_mark()
    cards = _deal_cards(2000 + i)
    per_seat: dict[tuple[int, int], int] = {}
    thrown = 0
    for a_team in (0, 1):
        players = [a if s % 2 == a_team else b for s in range(4)]
        ev = play_deal("tarneeb41", cards, players, 2000 + i, timed={s for s in range(4) if s % 2 == a_team})
        if ev["type"] != "deal_scored":
            thrown += 1
            d = [0, 0, 0, 0]
        else:
            d = ev["deltas"]["players"]
        for s in range(4):
            per_seat[(a_team, s)] = d[s]
    # seat s is the level's in the run a_team = s % 2
    diffs = [float(per_seat[(s % 2, s)] - per_seat[(1 - s % 2, s)]) for s in range(4)]
    return (diffs, thrown), _times_since(before)


def bench_tarneeb41(deals: int, level: str, against: str, jobs: int = 1) -> None:
    diffs: list[float] = []
    thrown = 0
    for d, t in _in_workers(_t41_deal, [(i, level, against, OFFSET) for i in range(SKIP, SKIP + deals)], jobs):
        diffs.extend(d)
        thrown += t
    _dump("tarneeb41", level, against, diffs)
    print(f"tarneeb41, {level} vs {against}: {deals} deals x 2 seatings ({thrown} runs thrown in)")
    print(f"  personal score per deal per seat: {_fig(diffs, 'points')}")


def _bids_deal(args: tuple[int, str, str, int, str]) -> tuple[tuple[float | None, list[float]], dict[str, list[float]]]:
    """Bidding alone on one classic and one Syrian deal: the rule player plays every card."""
    i, level, against, offset, which = args
    _set_offset(offset)
    _set_bids(which)
    a, b = player(level), player(against)
    rule = RulePlayer()
    before = _times_mark()
    cards = _deal_cards(7000 + i)
    net0: dict[int, int] = {0: 0, 1: 0}
    for a_team in (0, 1) if BIDS in ("both", "tarneeb") else ():
        bidders = [a if s % 2 == a_team else b for s in range(4)]
        ev = play_deal("tarneeb", cards, [rule] * 4, 7000 + i, bidders=bidders,
                       timed={s for s in range(4) if s % 2 == a_team})
        d = ev["deltas"]["teams"] if ev["type"] == "deal_scored" else [0, 0]
        net0[a_team] = d[0] - d[1]
    cards = _deal_cards(8000 + i)
    per_seat: dict[tuple[int, int], int] = {}
    if BIDS == "tarneeb":
        return ((net0[0] - net0[1]) / 2, []), _times_since(before)
    for a_team in (0, 1):
        bidders = [a if s % 2 == a_team else b for s in range(4)]
        ev = play_deal("tarneeb41", cards, [rule] * 4, 8000 + i, bidders=bidders,
                       timed={s for s in range(4) if s % 2 == a_team})
        p = ev["deltas"]["players"] if ev["type"] == "deal_scored" else [0, 0, 0, 0]
        for s in range(4):
            per_seat[(a_team, s)] = p[s]
    syrian = [float(per_seat[(s % 2, s)] - per_seat[(1 - s % 2, s)]) for s in range(4)]
    return (None if BIDS == "tarneeb41" else (net0[0] - net0[1]) / 2, syrian), _times_since(before)


def bench_bids(deals: int, level: str, against: str, jobs: int = 1) -> None:
    """Bidding alone: the rule player plays every card; only who bids differs (points, duplicate)."""
    classic: list[float] = []
    syrian: list[float] = []
    work = [(i, level, against, OFFSET, BIDS) for i in range(SKIP, SKIP + deals)]
    for c, sy in _in_workers(_bids_deal, work, jobs):
        if c is not None:
            classic.append(c)
        syrian.extend(sy)
    _dump("bids-tarneeb", level, against, classic)
    _dump("bids-tarneeb41", level, against, syrian)
    print(f"bidding alone (rule card play), {level} bids vs {against} bids: {deals} deals x 2 seatings")
    if classic:
        print(f"  classic tarneeb: {_fig(classic, 'points per deal per team')}")
    if syrian:
        print(f"  tarneeb41:       {_fig(syrian, 'points per deal per seat (the seat minus the other in it)')}")


CONTRACTS = ("king", "queens", "diamonds", "tricks", "trix")


def _trix_deal(args: tuple[int, str, str, int]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """One Trix deal, every contract, the level's player in each seat: the differences and move times."""
    i, level, against, offset = args
    _set_offset(offset)
    a, b = player(level), player(against)
    before = _times_mark()
    cards = _deal_cards(3000 + i)
    chosen = [c for c in CONTRACTS if c in os.environ.get("MAJLIS_BENCH_CONTRACTS", ",".join(CONTRACTS)).split(",")]
    out: dict[str, list[float]] = {c: [] for c in chosen}
    for contract in chosen:
        base = play_deal("trix", cards, [b] * 4, 3000 + i, contract=contract)["deltas"]["players"]
        for s in range(4):
            players = [a if x == s else b for x in range(4)]
            d = play_deal("trix", cards, players, 3000 + i, contract=contract, timed={s})["deltas"]["players"]
            out[contract].append(d[s] - base[s])
    return out, _times_since(before)


#: ``--dump FILE``: each figure's values (one per deal and seat, in order) as a JSON line there, so
#: two runs on the same deals can be compared pair by pair.
DUMP: str | None = None
#: ``--bids``: which game ``--game bids`` plays (both, tarneeb, tarneeb41).
BIDS = "both"
#: ``--skip N``: start at the set's deal (or kingdom) number N, to extend an earlier run with new deals.
SKIP = 0


def _dump(game: str, level: str, against: str, xs: list[float]) -> None:
    if DUMP:
        import json

        with open(DUMP, "a") as f:
            f.write(json.dumps({"game": game, "level": level, "against": against, "offset": OFFSET,
                                "values": xs}) + "\n")


def _set_bids(which: str) -> None:
    global BIDS
    BIDS = which


def _set_offset(offset: int) -> None:
    global OFFSET
    OFFSET = offset


def _times_mark() -> dict[str, int]:
    return {k: len(v) for k, v in TIMES.items()}


def _times_since(before: dict[str, int]) -> dict[str, list[float]]:
    """The move times recorded since ``before = _times_mark()`` (a worker sends them back)."""
    return {k: v[before[k]:] for k, v in TIMES.items()}


def _in_workers(fn: Any, work: list[Any], jobs: int) -> list[Any]:
    """``fn(w)`` for every ``w``, in ``jobs`` processes; ``fn`` returns (result, its move times), and
    the times join ``TIMES`` (in one process they are there already)."""
    if jobs > 1:
        with multiprocessing.get_context("forkserver").Pool(jobs) as pool:
            pairs = pool.map(fn, work, chunksize=1)
    else:
        pairs = [fn(w) for w in work]
    if jobs > 1:
        for _, ts in pairs:
            for k, v in ts.items():
                TIMES[k].extend(v)
    return [r for r, _ in pairs]


def play_kingdom(deals: list[list[list[str]]], players: list[Any], seed: int,
                 timed: set[int] | frozenset[int] = frozenset()) -> tuple[list[int], list[str], int, list[list[int]]]:
    """Play one Trix kingdom (one deal per contract, the owner choosing): each seat's points, the
    contracts in the order played, the owner, and each deal's points per seat (in that order)."""
    g = engine.new_game("trix", seed=seed + OFFSET, deals=deals)
    rng = random.Random(seed + OFFSET)
    total = [0, 0, 0, 0]
    order: list[str] = []
    per_deal: list[list[int]] = []
    owner = -1
    while len(order) < len(deals):
        seat = g.to_act
        assert seat is not None
        if g.phase == "contract":
            owner = seat
        action = _decide(players[seat], g.view(seat), "trix", g.phase, rng, seat in timed, g)
        for ev in g.act(seat, action):
            if ev["type"] == "deal_scored":
                d = [int(x) for x in ev["deltas"]["players"]]
                for s, x in enumerate(d):
                    total[s] += x
                per_deal.append(d)
                order.append(ev["summary"]["contract"])
    return total, order, owner, per_deal


KingdomResult = tuple[list[float], int, list[tuple[bool, dict[str, float]]]]


def _trix_kingdom(args: tuple[int, str, str, int]) -> tuple[KingdomResult, dict[str, list[float]]]:
    """One kingdom of five deals played by four ``against`` players, then by the level's player in
    each seat: that seat's points per deal minus the other's, the number of seats whose owner
    ordered the contracts differently, per seat whether it owned the kingdom and its points per
    contract minus the other's (the owner's order may differ, so a contract's deal may too), and
    the move times."""
    i, level, against, offset = args
    _set_offset(offset)
    a, b = player(level), player(against)
    before = _times_mark()
    deals = [_deal_cards(5000 + 5 * i + j) for j in range(len(CONTRACTS))]
    base, base_order, owner, base_deals = play_kingdom(deals, [b] * 4, 5000 + i)
    diffs: list[float] = []
    reordered = 0
    split: list[tuple[bool, dict[str, float]]] = []
    for s in range(4):
        players = [a if x == s else b for x in range(4)]
        got, order, _, got_deals = play_kingdom(deals, players, 5000 + i, timed={s})
        diffs.append((got[s] - base[s]) / len(deals))
        reordered += order != base_order
        mine = {c: float(d[s]) for c, d in zip(order, got_deals, strict=True)}
        theirs = {c: float(d[s]) for c, d in zip(base_order, base_deals, strict=True)}
        split.append((s == owner, {c: mine[c] - theirs[c] for c in mine}))
    return (diffs, reordered, split), _times_since(before)


def bench_trix_kingdoms(kingdoms: int, level: str, against: str, jobs: int = 1) -> None:
    """Whole kingdoms: the owner's contract choice, doubling and play all count."""
    allx: list[float] = []
    owner_x: list[float] = []
    other_x: list[float] = []
    per_contract: dict[str, list[float]] = {c: [] for c in CONTRACTS}
    reordered = 0
    work = [(i, level, against, OFFSET) for i in range(SKIP, SKIP + kingdoms)]
    for diffs, r, split in _in_workers(_trix_kingdom, work, jobs):
        allx.extend(diffs)
        reordered += r
        for (is_owner, by_c), x in zip(split, diffs, strict=True):
            (owner_x if is_owner else other_x).append(x)
            for c, v in by_c.items():
                per_contract[c].append(v)
    _dump("trix-kingdom", level, against, allx)
    print(f"trix kingdoms, {level} vs {against}: {kingdoms} kingdoms x 5 deals x 4 seats (owner chooses)")
    print(f"  points per deal per seat: {_fig(allx, 'points', 1)}"
          f" (contract order changed in {reordered} of {4 * kingdoms} runs)")
    print(f"    as the kingdom's owner:  {_fig(owner_x, 'points', 1)}")
    print(f"    as another seat:         {_fig(other_x, 'points', 1)}")
    for c, xs in per_contract.items():
        print(f"    {c:9s} {_fig(xs, 'points', 1)}")


class _ChoiceOnly:
    """The level's contract choice, ``against``'s every other decision (``--game trix-choice``)."""

    def __init__(self, chooser: Any, other: Any) -> None:
        self.chooser, self.other = chooser, other

    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        if view.get("phase") != "contract":
            return str(self.other.decide(view, game, rng))
        if os.environ.get("MAJLIS_BENCH_CPU_ONLY"):
            return str(self.chooser.decide(view, game, rng, deadline=time.monotonic() + 30.0))
        return str(self.chooser.decide(view, game, rng))


def _trix_choice(args: tuple[int, str, str, int]) -> tuple[float, dict[str, list[float]]]:
    """One kingdom played by four ``against`` players, then again with the owner's contract choice
    the level's: the owner's points per deal, the second minus the first."""
    i, level, against, offset = args
    _set_offset(offset)
    a, b = player(level), player(against)
    deals = [_deal_cards(5000 + 5 * i + j) for j in range(len(CONTRACTS))]
    base, _, owner, _ = play_kingdom(deals, [b] * 4, 5000 + i)
    players = [_ChoiceOnly(a, b) if s == owner else b for s in range(4)]
    got, _, _, _ = play_kingdom(deals, players, 5000 + i)
    return (got[owner] - base[owner]) / len(deals), {}


def bench_trix_choice(kingdoms: int, level: str, against: str, jobs: int = 1) -> None:
    """The owner's contract choice alone: everything else is ``against``'s play."""
    work = [(i, level, against, OFFSET) for i in range(SKIP, SKIP + kingdoms)]
    xs = _in_workers(_trix_choice, work, jobs)
    _dump("trix-choice", level, against, xs)
    print(f"trix contract choice alone, {level} vs {against}: {kingdoms} kingdoms, the owner's points a deal")
    print(f"  {_fig(xs, 'points', 1)}")


def bench_trix(deals: int, level: str, against: str, jobs: int = 1) -> None:
    diffs: dict[str, list[float]] = {c: [] for c in CONTRACTS}
    for out in _in_workers(_trix_deal, [(i, level, against, OFFSET) for i in range(SKIP, SKIP + deals)], jobs):
        for c, xs in out.items():
            diffs[c].extend(xs)
    diffs = {c: xs for c, xs in diffs.items() if xs}
    for c, xs in diffs.items():
        _dump(f"trix-{c}", level, against, xs)
    allx = [x for v in diffs.values() for x in v]
    print(f"trix, {level} vs {against}: {deals} deals x 5 contracts x 4 seats")
    print(f"  points per deal per seat: {_fig(allx, 'points', 1)}")
    for c, xs in diffs.items():
        print(f"    {c:9s} {_fig(xs, '', 1)}")


# ------------------------------------------------------------------ honest measures (issue 33)
#: ``--share-in``: the games (and Trix's five contracts, imposed) of the share of the cheater's gain
SHARE_GAMES = ("tarneeb", "tarneeb41", "trix", "trix-kingdom")


def _card_play_gain(i: int, a: Any, b: Any) -> float | None:
    """Classic deal ``i`` in both seatings, the rule player bidding: team 0's tricks with ``a``'s
    card play minus with ``b``'s (the card-play figure of :func:`bench_tarneeb`)."""
    cards = _deal_cards(1000 + i)
    tricks: dict[int, int] = {}
    for a_team in (0, 1):
        players = [a if s % 2 == a_team else b for s in range(4)]
        ev = play_deal("tarneeb", cards, players, 1000 + i, bidders=[RulePlayer()] * 4,
                       timed={s for s in range(4) if s % 2 == a_team})
        if ev["type"] == "deal_scored":
            tricks[a_team] = ev["summary"]["tricks"][0]
    return float(tricks[0] - tricks[1]) if len(tricks) == 2 else None


def _share_unit(args: tuple[str, int, int]) -> tuple[dict[str, list[tuple[float, float]]], dict[str, list[float]]]:
    """One deal (a kingdom) of ``game``: per figure, the pairs (strong's gain over easy, the
    cheater's gain over easy) on the same deal and seat."""
    game, i, offset = args
    _set_offset(offset)
    before = _times_mark()
    out: dict[str, list[tuple[float, float]]] = {}
    if game == "tarneeb":
        easy = player("easy")
        x, y = _card_play_gain(i, player("strong"), easy), _card_play_gain(i, player("cheater"), easy)
        if x is not None and y is not None:
            out["tarneeb card play (tricks)"] = [(x, y)]
    elif game == "tarneeb41":
        (xs, _), _ = _t41_deal((i, "strong", "easy", offset))
        (ys, _), _ = _t41_deal((i, "cheater", "easy", offset))
        out["tarneeb41 (points a seat)"] = list(zip(xs, ys, strict=True))
    elif game == "trix":
        sx, _ = _trix_deal((i, "strong", "easy", offset))
        sy, _ = _trix_deal((i, "cheater", "easy", offset))
        for c in sx:
            out[f"trix {c}"] = list(zip(sx[c], sy[c], strict=True))
    elif game == "trix-kingdom":
        (kx, _, _), _ = _trix_kingdom((i, "strong", "easy", offset))
        (ky, _, _), _ = _trix_kingdom((i, "cheater", "easy", offset))
        out["trix kingdoms (points a deal)"] = list(zip(kx, ky, strict=True))
    return out, _times_since(before)


def bench_share(deals: int, games: list[str], jobs: int = 1) -> None:
    """The strong level's gain over easy as a share of the cheater's, per game and contract, on
    the same deals and seats (the cheater: the same search given the true hands)."""
    pairs: dict[str, list[tuple[float, float]]] = {}
    for game in games:
        n = max(1, deals // 20) if game == "trix-kingdom" else max(1, deals // 4) if game == "trix" else deals
        work = [(game, i, OFFSET) for i in range(SKIP, SKIP + n)]
        for out in _in_workers(_share_unit, work, jobs):
            for label, ps in out.items():
                pairs.setdefault(label, []).extend(ps)
    print(f"share of the cheater's gain (strong over easy / cheater over easy, same deals): {deals} deals"
          " (trix: /4 deals x 5 contracts x 4 seats; kingdoms: /20)")
    for label, ps in pairs.items():
        xs, ys = [p[0] for p in ps], [p[1] for p in ps]
        _dump(f"share-{label}", "strong", "easy", xs)
        _dump(f"share-{label}", "cheater", "easy", ys)
        r, se = share(xs, ys)
        print(f"  {label:30s} share {r * 100:+.0f} ± {se * 100:.0f} %   strong {_fig(xs, '', 2)}"
              f"   cheater {_fig(ys, '', 2)}")


def _population_unit(args: tuple[int, str, str, int]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Deal ``i`` of each game with three seats of the population ``pop``: in every chair, the
    chair's points with ``level`` there minus with ``easy`` there (classic: the chair's team's
    points minus the other team's; Tarneeb 41: its own; Trix: its own, each contract imposed)."""
    i, level, pop, offset = args
    _set_offset(offset)
    before = _times_mark()
    a, e, p = player(level), player("easy"), player(pop)
    chosen = [c for c in CONTRACTS if c in os.environ.get("MAJLIS_BENCH_CONTRACTS", ",".join(CONTRACTS)).split(",")]
    games = os.environ.get("MAJLIS_BENCH_POP_GAMES", "tarneeb,tarneeb41,trix").split(",")
    out: dict[str, list[float]] = {}
    unscored: dict[str, list[float]] = {}  # per game, 1 for each run thrown in (41) or passed out (classic)
    for chair in range(4):
        def run(game: str, seed: int, contract: str | None = None, chair: int = chair) -> list[int]:
            got = []
            for who in (a, e):
                players = [who if s == chair else p for s in range(4)]
                ev = play_deal(game, _deal_cards(seed), players, seed, contract=contract,
                               timed={chair} if who is a else set())
                unscored.setdefault(game, []).append(float(ev["type"] != "deal_scored"))
                if ev["type"] != "deal_scored":
                    got.append(0)
                elif game == "tarneeb":
                    d = ev["deltas"]["teams"]
                    got.append(d[chair % 2] - d[1 - chair % 2])
                else:
                    got.append(int(ev["deltas"]["players"][chair]))
            return got
        if "tarneeb" in games:
            x, y = run("tarneeb", 1000 + i)
            out.setdefault("tarneeb (team points)", []).append(float(x - y))
        if "tarneeb41" in games:
            x, y = run("tarneeb41", 2000 + i)
            out.setdefault("tarneeb41 (own points)", []).append(float(x - y))
        if "trix" in games:
            for c in chosen:
                x, y = run("trix", 3000 + i, c)
                out.setdefault(f"trix {c}", []).append(float(x - y))
    for game in ("tarneeb", "tarneeb41"):
        if game in unscored:
            out[f"{game} runs not scored"] = unscored[game]
    return out, _times_since(before)


def bench_population(deals: int, level: str, pop: str, jobs: int = 1) -> None:
    """The level's seat minus easy's in the same chair, the three other seats ``pop``."""
    diffs: dict[str, list[float]] = {}
    for out in _in_workers(_population_unit, [(i, level, pop, OFFSET) for i in range(SKIP, SKIP + deals)], jobs):
        for label, xs in out.items():
            diffs.setdefault(label, []).extend(xs)
    print(f"population: three {pop} seats; the {level} seat minus the easy seat in the same chair:"
          f" {deals} deals x 4 chairs")
    for label, xs in diffs.items():
        _dump(f"population-{pop}-{label}", level, "easy", xs)
        if label.endswith("not scored"):  # thrown in (Tarneeb 41) or passed out (classic): 0 for both
            print(f"  {label:26s} {sum(xs):.0f} of {len(xs)} runs")
            continue
        print(f"  {label:24s} {_fig(xs, 'points a deal', 2)}")


def _dd_unit(args: tuple[int, str, int]) -> tuple[tuple[float | None, list[tuple[bool, int]]], dict[str, list[float]]]:
    """Classic deal ``i``, the rule player bidding (the same contract for every level), played twice:
    the level's two seats declaring against ``easy``, then defending. The declaring side's tricks
    below double-dummy par (par: the double-dummy tricks at the opening lead) in the first run,
    and for every card of the level with a choice: (declaring?, tricks it lost double-dummy)."""
    i, level, offset = args
    _set_offset(offset)
    before = _times_mark()
    a, e, rule = player(level), player("easy"), RulePlayer()
    cards = _deal_cards(1000 + i)
    below: float | None = None
    lost: list[tuple[bool, int]] = []
    for declaring in (True, False):
        g = engine.new_game("tarneeb", seed=1000 + i + OFFSET, dealer=0, deals=[cards])
        rng = random.Random(1000 + i + OFFSET)
        par: int | None = None
        side = -1
        while g.to_act is not None and g.phase != "over":
            seat = g.to_act
            view = g.view(seat)
            if g.phase != "play":
                action = _decide(rule, view, "tarneeb", g.phase, rng, False, g)
            else:
                side = int(view["declarer"]) % 2
                hands = [g.hand(s) for s in range(4)]
                if par is None:
                    best = max(dd_cards(view, hands).values())
                    par = best if seat % 2 == side else 13 - best
                ours = (seat % 2 == side) == declaring
                action = _decide(a if ours else e, view, "tarneeb", "play", rng, ours, g)
                if ours and len(view["legal"]) > 1:
                    dd = dd_cards(view, hands)
                    lost.append((declaring, max(dd.values()) - dd[action]))
            evs = g.act(seat, action)
            done = [ev for ev in evs if ev["type"] in ("deal_scored", "deal_thrown_in")]
            if done:
                if declaring and done[0]["type"] == "deal_scored" and par is not None:
                    below = float(par - done[0]["summary"]["tricks"][side])
                break
        if declaring and below is None:
            return (None, []), _times_since(before)  # all passed: no contract to measure
    return (below, lost), _times_since(before)


def bench_dd(deals: int, levels: list[str], jobs: int = 1) -> None:
    """Opponent-free yardsticks of classic Tarneeb card play, per level, against easy's cards."""
    print(f"classic tarneeb double-dummy yardsticks: {deals} deals, the rule player bidding;"
          " the level's side against easy's, declaring and defending")
    for level in levels:
        below: list[float] = []
        lost: list[tuple[bool, int]] = []
        for b, ls in _in_workers(_dd_unit, [(i, level, OFFSET) for i in range(SKIP, SKIP + deals)], jobs):
            if b is not None:
                below.append(b)
            lost.extend(ls)
        _dump("dd-below-par", level, "easy", below)
        share_lost = [float(x > 0) for _, x in lost]
        decl = [float(x > 0) for d, x in lost if d]
        defe = [float(x > 0) for d, x in lost if not d]
        tricks = [float(x) for _, x in lost]
        print(f"  {level}: declaring side's tricks below par {_fig(below, 'tricks a deal')}")
        print(f"  {level}: cards that lose a double-dummy trick {_fig(share_lost, '(share)', 3)};"
              f" declaring {_fig(decl, '', 3)}, defending {_fig(defe, '', 3)};"
              f" tricks lost a card {_fig(tricks, '', 3)}")


#: ``--game partner``: the games, and the measures in the order printed (key, what it counts).
PARTNER_GAMES = ("tarneeb41", "tarneeb")
PARTNER_MEASURES = (
    ("dd", "cards with a choice that lose a double-dummy trick for its side"),
    ("ruff", "ruffs of a trick the partner was winning, a discard legal"),
    ("ruff_sure", "  of them, playing last (the partner's card a sure winner)"),
    ("ruff_dd", "  of its ruffs, those that lose a double-dummy trick for its side"),
    ("overbid", "classic: bids over the partner's bid that had won the auction"),
    ("jump", "classic, near the target: bids above the lowest when the lowest wins the match"),
)


def _partner_unit(args: tuple[int, tuple[str, ...], int]) -> tuple[dict[str, tuple[int, int]], dict[str, list[float]]]:
    """Deal ``i`` of each Tarneeb game for every level: the level's seat in chair ``i % 4`` with a
    noisy rule partner (30 % random moves) against two easy seats, every seat bidding for itself.
    Per ``game|level|measure``, the deal's (hits, chances) of :data:`PARTNER_MEASURES`; the near-
    target measure on the same classic deal's auction with the level's side at the target minus
    1 to 7 (so the lowest bid wins the match) and the other side's score drawn from 0 to 30."""
    i, levels, offset = args
    _set_offset(offset)
    before = _times_mark()
    chair = i % 4
    out: dict[str, tuple[int, int]] = {}

    def count(key: str, hit: bool | None) -> None:
        if hit is not None:
            h, c = out.get(key, (0, 0))
            out[key] = (h + int(hit), c + 1)

    for level in levels:
        me, partner, easy = player(level), NoisyRulePlayer(0.3), RulePlayer()
        players = [easy] * 4
        players[chair], players[(chair + 2) % 4] = me, partner
        for game in PARTNER_GAMES:
            seed = (1000 if game == "tarneeb" else 2000) + i
            for key in ("dd", "ruff", "ruff_sure", "ruff_dd") + (("overbid",) if game == "tarneeb" else ()):
                out.setdefault(f"{game}|{level}|{key}", (0, 0))
            g = engine.new_game(game, seed=seed + OFFSET, dealer=0, deals=[_deal_cards(seed)])
            rng = random.Random(seed + OFFSET)
            while g.to_act is not None:
                seat = g.to_act
                view = g.view(seat)
                action = _decide(players[seat], view, game, g.phase, rng, seat == chair, g)
                if seat == chair:
                    count(f"{game}|{level}|overbid", overbids_partner(view, action))
                    if g.phase == "play" and len(view["legal"]) > 1:
                        dd = dd_cards(view, [g.hand(s) for s in range(4)])
                        lost = max(dd.values()) > dd[action]
                        count(f"{game}|{level}|dd", lost)
                        ruff = ruff_over_partner(view, action)
                        if ruff is not None:
                            count(f"{game}|{level}|ruff", ruff[0])
                            if ruff[1]:
                                count(f"{game}|{level}|ruff_sure", ruff[0])
                            if ruff[0]:
                                count(f"{game}|{level}|ruff_dd", lost)
                if any(ev["type"] in ("deal_scored", "deal_thrown_in") for ev in g.act(seat, action)):
                    break
        if level == "cheater":
            continue  # its bids are strong's
        # the near-target auction (classic): the bids alone
        seed = 1000 + i
        key = f"tarneeb|{level}|jump"
        out.setdefault(key, (0, 0))
        g = engine.new_game("tarneeb", seed=seed + OFFSET, dealer=0, deals=[_deal_cards(seed)])
        state = g.to_json()
        target = int(g.view(None)["target"])
        theirs = random.Random(f"partner-score:{seed + OFFSET}").randrange(target)
        state["team_scores"] = [0, 0]
        state["team_scores"][chair % 2] = target - 1 - i % 7
        state["team_scores"][1 - chair % 2] = theirs
        g = engine.load(state)
        rng = random.Random(seed + OFFSET)
        while g.to_act is not None and g.phase == "bid":
            seat = g.to_act
            view = g.view(seat)
            action = _decide(players[seat], view, "tarneeb", "bid", rng, False, g)
            if seat == chair:
                count(key, jumps_near_target(view, action))
            if any(ev["type"] in ("deal_scored", "deal_thrown_in") for ev in g.act(seat, action)):
                break
    return out, _times_since(before)


def bench_partner(deals: int, levels: list[str], jobs: int = 1) -> None:
    """Partner measures (issue 33): how each level plays beside a person-like partner."""
    per: dict[str, list[tuple[int, int]]] = {}
    for out in _in_workers(_partner_unit, [(i, tuple(levels), OFFSET) for i in range(SKIP, SKIP + deals)], jobs):
        for key, hc in out.items():
            per.setdefault(key, []).append(hc)
    print(f"partner: {deals} deals a game; the level's seat (chair: deal mod 4) with a noisy rule partner"
          " (30% random moves) against two easy seats; rates with their standard errors over deals")
    for game in PARTNER_GAMES:
        for level in levels:
            print(f"  {game} {level}:")
            for key, what in PARTNER_MEASURES:
                units = per.get(f"{game}|{level}|{key}")
                if units is None:
                    continue
                r, se, hits, chances = rate(units)
                _dump(f"partner-{game}-{key}", level, "noisy-partner", [float(h) for h, _ in units])
                shown = f"{r:.3f} ± {se:.3f}" if chances > 1 else "n/a"
                print(f"    {what:82s} {shown} ({hits} of {chances})")


def play_match(game: str, players: list[Any], seed: int, timed: set[int] | frozenset[int] = frozenset()) -> list[int]:
    """A whole match of ``game`` (its default options: to the target, or Trix's four kingdoms) from
    ``seed``: the winners' seats."""
    g = engine.new_game(game, seed=seed + OFFSET)
    rng = random.Random(seed + OFFSET)
    for _ in range(100_000):
        seat = g.to_act
        if seat is None:
            break
        g.act(seat, _decide(players[seat], g.view(seat), game, g.phase, rng, seat in timed, g))
    if g.winner is None:
        raise RuntimeError(f"{game} match {seed} did not end")
    return list(g.winner)


def _match_unit(args: tuple[str, int, str, int]) -> tuple[list[tuple[float, float]], dict[str, list[float]]]:
    """Match ``i`` with the level in each chair among three easy seats, and with four easy seats:
    per chair (the level's win, easy's win there), a shared first place split."""
    game, i, level, offset = args
    _set_offset(offset)
    before = _times_mark()
    a, e = player(level), player("easy")
    base = play_match(game, [e] * 4, 6000 + i)
    out = []
    for chair in range(4):
        won = play_match(game, [a if s == chair else e for s in range(4)], 6000 + i, timed={chair})
        win = (1 / len(won) if game == "trix" else 1.0) if chair in won else 0.0
        was = (1 / len(base) if game == "trix" else 1.0) if chair in base else 0.0
        out.append((win, was))
    return out, _times_since(before)


def bench_matches(matches: int, level: str, games: list[str], jobs: int = 1) -> None:
    """What users feel: one seat of ``level`` among three easy seats, whole matches."""
    print(f"whole matches, one {level} seat among three easy seats: {matches} matches x 4 chairs")
    for game in games:
        pairs: list[tuple[float, float]] = []
        for out in _in_workers(_match_unit, [(game, i, level, OFFSET) for i in range(SKIP, SKIP + matches)], jobs):
            pairs.extend(out)
        wins, base = [p[0] for p in pairs], [p[1] for p in pairs]
        what = "first place (ties split)" if game == "trix" else "its team wins the match"
        _dump(f"matches-{game}", level, "easy", wins)
        print(f"  {game:9s} {what}: {_fig(wins, '', 3)}; easy in the same chairs {_fig(base, '', 3)};"
              f" difference {_fig([w - b for w, b in pairs], '', 3)}")


# ---------------------------------------------------------------------- the event loop's lag
def _positions(n: int, seed: int) -> list[tuple[dict[str, Any], str]]:
    """``n`` real decisions (more than one legal action) from games played by the rule player."""
    rng = random.Random(seed)
    rule = RulePlayer()
    out: list[tuple[dict[str, Any], str]] = []
    games = ("tarneeb", "tarneeb41", "trix")
    while len(out) < n:
        game = games[len(out) % 3]
        g = engine.new_game(game, seed=rng.getrandbits(32))
        steps = rng.randrange(0, 60)
        for _ in range(steps):
            if g.to_act is None:
                break
            g.act(g.to_act, rule.decide(g.view(g.to_act), game, rng))
        if g.to_act is not None and len(g.legal()) > 1:
            out.append((g.view(g.to_act), game))
    return out


async def _lag(flight: int, seconds: float, mode: str, workers: int = 0) -> None:
    from ai.pool import AIPool

    positions = _positions(60, 11)
    pool = AIPool(workers or None) if mode == "pool" else None
    strong = StrongPlayer("strong")
    if pool is not None:
        await pool.start()
    lags: list[float] = []
    walls: list[float] = []

    #: per late tick of the measure: how late, and the CPU this process (all its threads) spent meanwhile
    late: list[tuple[float, float]] = []

    async def ticker(until: float, out: list[float], record: bool = False) -> None:
        while time.monotonic() < until:
            t = time.monotonic()
            cpu = time.process_time()
            await asyncio.sleep(0.005)
            lag = time.monotonic() - t - 0.005
            out.append(lag)
            if record and lag > 0.002:
                late.append((lag, time.process_time() - cpu))

    idle: list[float] = []
    await ticker(time.monotonic() + min(5.0, seconds / 2), idle)  # the machine's own noise, nothing thinking
    stop = time.monotonic() + seconds

    async def table(k: int) -> None:
        j = k
        while time.monotonic() < stop:
            view, game = positions[j % len(positions)]
            j += flight
            t = time.monotonic()
            if pool is not None:
                await pool.decide("strong", view, int(view["seat"]), j)
            else:
                await asyncio.to_thread(strong.decide, view, game, random.Random(j))
            walls.append(time.monotonic() - t)

    cpu0, wall0 = time.process_time(), time.monotonic()
    await asyncio.gather(ticker(stop, lags, True), *(table(k) for k in range(flight)))
    cpu_share = (time.process_time() - cpu0) / (time.monotonic() - wall0)
    print(f"event loop, {flight} strong decisions in flight for {seconds:.0f} s ({mode}):")
    print(f"  idle loop lag first (nothing thinking): p50 {percentile(idle, 0.5) * 1000:.1f} ms,"
          f" p99 {percentile(idle, 0.99) * 1000:.1f} ms, max {max(idle) * 1000:.1f} ms (n={len(idle)})")
    print(f"  loop lag p50 {percentile(lags, 0.5) * 1000:.1f} ms, p99 {percentile(lags, 0.99) * 1000:.1f} ms,"
          f" max {max(lags) * 1000:.1f} ms (n={len(lags)})")
    late.sort()
    worst = late[-max(1, len(late) // 10):]  # the slowest tenth of the late ticks
    busy = sum(c for _, c in worst) / sum(x + 0.005 for x, _ in worst) if worst else 0.0
    print(f"  where the loop's time went: this process (loop, executor and feeder threads) used"
          f" {cpu_share * 100:.1f}% of a core; during the slowest tenth of the late ticks it ran"
          f" {busy * 100:.0f}% of the time (the rest: waiting for a CPU the machine gave to other processes)")
    print(f"  decision wall time (queue included): median {percentile(walls, 0.5) * 1000:.0f} ms,"
          f" p95 {percentile(walls, 0.95) * 1000:.0f} ms, max {max(walls) * 1000:.0f} ms (n={len(walls)})")
    if pool is not None:
        st = pool.stats
        total = st.decided + st.late + st.queued_out + st.broken + st.failed
        print(f"  {st.decided} of {total} answered by the search ({st.late} late, {st.queued_out} waited out"
              f" the cap: the rule player answered); workers {pool.workers}, bound {pool.in_flight};"
              f" worker CPU per decision median {percentile(st.cpu, 0.5) * 1000:.0f} ms")
        await pool.close()


def main() -> None:
    global OFFSET, DUMP, SKIP, BIDS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="all", choices=["tarneeb", "tarneeb41", "trix", "trix-kingdom", "trix-choice",
                                                      "bids", "lag", "share", "population", "dd", "matches",
                                                      "partner", "all"])
    ap.add_argument("--deals", type=int, default=20)
    levels = ["easy", "normal", "strong", "strong-rule-bids", "cheater", "noisy", "layout-value"]
    ap.add_argument("--level", choices=levels, default="strong")
    ap.add_argument("--against", choices=levels, default="easy")
    ap.add_argument("--seeds", choices=sorted(SEEDS), default="report",
                    help="report: the held-out deal set (default); tune: the set tuned on")
    ap.add_argument("--jobs", type=int, default=1,
                    help="deals in this many processes at once (move times then include contention)")
    ap.add_argument("--cpu-only", action="store_true",
                    help="the levels' CPU budgets alone bound the search (no one-second wall cap in this"
                         " process): the strength a machine with a core free per worker gives, whatever the load")
    ap.add_argument("--skip", type=int, default=0,
                    help="begin at this deal (kingdom) of the set: more deals for an earlier run")
    ap.add_argument("--bids", choices=["both", "tarneeb", "tarneeb41"], default="both",
                    help="bids: the games whose bidding is measured")
    ap.add_argument("--whole-only", action="store_true",
                    help="tarneeb: only the whole-deal figure (each side bids and plays) when the bids differ")
    ap.add_argument("--dump", help="append each figure's values (per deal and seat) to this file, as JSON lines")
    ap.add_argument("--contracts", help="trix: only these contracts (comma-separated, e.g. king,tricks)")
    ap.add_argument("--trix-param", action="append", default=[], metavar="NAME=VALUE",
                    help="trix: set a strong TrixBrain attribute (tuning; e.g. exact_tricks=6)")
    ap.add_argument("--share-in", default="tarneeb,tarneeb41,trix",
                    help="share: these of " + ", ".join(SHARE_GAMES) + " (comma-separated)")
    ap.add_argument("--population", choices=["strong", "noisy", "ismcts"], default="strong",
                    help="population: the three seats that are not measured (noisy: the rule player with 30%%"
                         " random moves; ismcts: OpenSpiel's ISMCTSBot (Trix: its card play; the doubles are the"
                         " rule player's), needs the bench extra)")
    ap.add_argument("--ismcts-iterations", type=int, default=ISMCTS_ITERATIONS,
                    help="population ismcts: ISMCTS simulations a decision")
    ap.add_argument("--population-games", default="tarneeb,tarneeb41,trix",
                    help="population: these games (comma-separated)")
    ap.add_argument("--dd-levels", default="easy,strong", help="dd: the levels measured (comma-separated)")
    ap.add_argument("--partner-levels", default="easy,strong,cheater",
                    help="partner: the levels measured beside a noisy partner (comma-separated)")
    ap.add_argument("--match-games", default="tarneeb,tarneeb41,trix",
                    help="matches: these games (comma-separated); --deals is the number of matches")
    ap.add_argument("--flight", type=int, default=16, help="lag: decisions in flight")
    ap.add_argument("--seconds", type=float, default=20.0, help="lag: how long to measure")
    ap.add_argument("--lag-mode", choices=["pool", "thread"], default="pool")
    ap.add_argument("--workers", type=int, default=0, help="lag: worker processes (default: one per core)")
    a = ap.parse_args()
    OFFSET = SEEDS[a.seeds]
    DUMP = a.dump
    SKIP = a.skip
    BIDS = a.bids
    if a.cpu_only:
        os.environ["MAJLIS_BENCH_CPU_ONLY"] = "1"  # (before any worker process starts)
    if a.contracts:
        os.environ["MAJLIS_BENCH_CONTRACTS"] = a.contracts
    if a.trix_param:
        os.environ["MAJLIS_BENCH_TRIX_PARAMS"] = ",".join(a.trix_param)
        print(f"trix parameters: {', '.join(a.trix_param)}")
    t0 = time.perf_counter()
    print(f"deal set: {a.seeds} (seed offset {OFFSET})"
          + ("; CPU budgets only (no wall cap in the bench)" if a.cpu_only else ""))
    if a.game in ("tarneeb", "all"):
        bench_tarneeb(a.deals, a.level, a.against, a.jobs, a.whole_only)
    if a.game in ("tarneeb41", "all"):
        bench_tarneeb41(a.deals, a.level, a.against, a.jobs)
    if a.game in ("bids", "all"):
        bench_bids(a.deals, a.level, a.against, a.jobs)
    if a.game in ("trix", "all"):
        bench_trix(max(1, a.deals // 4), a.level, a.against, a.jobs)
    if a.game == "trix-choice":
        bench_trix_choice(max(1, a.deals // 20), a.level, a.against, a.jobs)
    if a.game in ("trix-kingdom", "all"):
        bench_trix_kingdoms(max(1, a.deals // 20), a.level, a.against, a.jobs)
    if a.game == "share":
        games = a.share_in.split(",")
        if unknown := set(games) - set(SHARE_GAMES):
            ap.error(f"--share-in: unknown {sorted(unknown)}")
        bench_share(a.deals, games, a.jobs)
    if a.game == "population":
        pop_games = a.population_games
        if a.population == "ismcts":
            if "trix" in pop_games.split(","):
                print("population ismcts: in Trix the ISMCTS seats search the card play; their doubles are"
                      " the rule player's")
            os.environ["MAJLIS_BENCH_ISMCTS_ITERATIONS"] = str(a.ismcts_iterations)
            print(f"population ismcts: {a.ismcts_iterations} ISMCTS simulations a decision")
        os.environ["MAJLIS_BENCH_POP_GAMES"] = pop_games
        bench_population(a.deals, a.level, a.population, a.jobs)
    if a.game == "dd":
        bench_dd(a.deals, a.dd_levels.split(","), a.jobs)
    if a.game == "partner":
        bench_partner(a.deals, a.partner_levels.split(","), a.jobs)
    if a.game == "matches":
        bench_matches(a.deals, a.level, a.match_games.split(","), a.jobs)
    for kind, ts in TIMES.items():
        if ts:
            what = "CPU of every timed decision" if kind == "cpu" else kind
            print(f"  {a.level} decision time ({what}, n={len(ts)}): median {percentile(ts, 0.5) * 1000:.0f} ms,"
                  f" p95 {percentile(ts, 0.95) * 1000:.0f} ms, max {max(ts) * 1000:.0f} ms")
    if a.game in ("lag", "all"):
        asyncio.run(_lag(a.flight, a.seconds, a.lag_mode, a.workers))
    print(f"  elapsed {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
