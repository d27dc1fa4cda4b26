"""How much better the rule player (level "easy") plays than random legal moves.

    python bench/ai_rules.py            # about a minute
    python bench/ai_rules.py --deals 100 --matches 10

Every figure is measured on the same seeded deals with the seats swapped, so the cards cancel:
- classic Tarneeb: tricks per deal of a rule-player team against a random team, first with the
  same (rule-player) bids for all four seats so that only the card play differs (also against
  auto-only seats that always play the weakest legal card), then with each side bidding for
  itself; and whole matches won;
- Tarneeb 41: points per deal of a rule seat against a random seat, and matches won by a rule team;
- Trix: points per deal of one rule seat among three random (or auto-only) seats, minus what a
  random (auto-only) player scored in that seat on the same cards, per contract; matches won;
- the time per decision.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from ai.base import LegalPlayer
from ai.rules import RulePlayer
from engine import cards as C

RULE = RulePlayer()
RANDOM = LegalPlayer()


class AutoPlayer:
    """The timeout player: the weakest legal card (rules.md §0.6), no double, the rule player's bids."""

    def decide(self, view: dict[str, Any], game: str, rng: random.Random) -> str:
        legal = [a for a in view["legal"] if a.startswith("play ")]
        if not legal:
            return "done" if "done" in view["legal"] else str(RULE.decide(view, game, rng))
        trump = view.get("trump")
        mask = C.mask_of(a.split()[1] for a in legal)
        return "play " + C.code(C.weakest(mask, None if trump is None else C.parse_suit(trump)))


AUTO = AutoPlayer()
TIMES: list[float] = []


def deal_cards(seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    rng.shuffle(deck)
    return [deck[i::4] for i in range(4)]


def decide(player: Any, view: dict[str, Any], game: str, rng: random.Random) -> str:
    if player is RULE:
        t = time.perf_counter()
        a = str(RULE.decide(view, game, rng))
        TIMES.append(time.perf_counter() - t)
        return a
    return str(player.decide(view, game, rng))


def one_deal(
    game: str, seed: int, players: list[Any], bidders: list[Any] | None = None, contract: str | None = None
) -> dict[str, Any]:
    """Play one predetermined deal to its ``deal_scored`` event (a redeal counts as a new try)."""
    rng = random.Random(seed)
    g = engine.new_game(
        game, seed=seed, dealer=None if game == "trix" else 0, deals=[deal_cards(seed + k * 100_000) for k in range(20)]
    )
    while True:
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        if g.phase == "contract" and contract is not None:
            action = "contract " + contract
        elif g.phase in ("bid", "trump") and bidders is not None:
            action = decide(bidders[seat], view, game, rng)
        else:
            action = decide(players[seat], view, game, rng)
        for e in g.act(seat, action):
            if e["type"] == "deal_scored":
                return e


def match(game: str, seed: int, players: list[Any]) -> list[int]:
    rng = random.Random(seed)
    g = engine.new_game(game, seed=seed)
    while g.to_act is not None:
        seat = g.to_act
        g.act(seat, decide(players[seat], g.view(seat), game, rng))
    return g.winner or []


def mean_se(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{xs[0]:+.2f}" if xs else "n/a"
    return f"{statistics.mean(xs):+.2f} ± {statistics.stdev(xs) / len(xs) ** 0.5:.2f}"


def bench_tarneeb(deals: int, matches: int) -> None:
    play_only: list[float] = []
    vs_auto: list[float] = []
    with_bids: list[float] = []
    for i in range(deals):
        for rule_team in (0, 1):
            players = [RULE if s % 2 == rule_team else RANDOM for s in range(4)]
            e = one_deal("tarneeb", 1000 + i, players, bidders=[RULE] * 4)
            tricks = e["summary"]["tricks"]
            play_only.append(tricks[rule_team] - 6.5)
            autos = [RULE if s % 2 == rule_team else AUTO for s in range(4)]
            e = one_deal("tarneeb", 1000 + i, autos, bidders=[RULE] * 4)
            vs_auto.append(e["summary"]["tricks"][rule_team] - 6.5)
            e = one_deal("tarneeb", 1000 + i, players)
            d = e["deltas"]["teams"]
            with_bids.append(d[rule_team] - d[1 - rule_team])
    wins = 0
    for i in range(matches):
        rule_team = i % 2
        players = [RULE if s % 2 == rule_team else RANDOM for s in range(4)]
        wins += rule_team in [w % 2 for w in match("tarneeb", 5000 + i, players)]
    print(f"classic tarneeb, {deals} deals x 2 seatings")
    print(f"  rule team tricks per deal above 6.5, same bids, card play only: {mean_se(play_only)}")
    print(f"  the same against auto-only seats (weakest legal card):          {mean_se(vs_auto)}")
    print(f"  team score per deal, rule minus random, each side bidding:      {mean_se(with_bids)}")
    print(f"  matches won by the rule team: {wins}/{matches}")


def bench_tarneeb41(deals: int, matches: int) -> None:
    diff: list[float] = []
    for i in range(deals):
        for rule_team in (0, 1):
            players = [RULE if s % 2 == rule_team else RANDOM for s in range(4)]
            e = one_deal("tarneeb41", 2000 + i, players)
            p = e["deltas"]["players"]
            diff.append(
                sum(p[s] for s in range(4) if s % 2 == rule_team) / 2
                - sum(p[s] for s in range(4) if s % 2 != rule_team) / 2
            )
    wins = 0
    for i in range(matches):
        rule_team = i % 2
        players = [RULE if s % 2 == rule_team else RANDOM for s in range(4)]
        wins += rule_team in [w % 2 for w in match("tarneeb41", 6000 + i, players)]
    print(f"tarneeb 41, {deals} deals x 2 seatings")
    print(f"  points per deal of a rule seat minus a random seat: {mean_se(diff)}")
    print(f"  matches won by the rule team: {wins}/{matches}")


def bench_trix(deals: int, matches: int) -> None:
    per: dict[str, list[float]] = {c: [] for c in ("king", "queens", "diamonds", "tricks", "trix")}
    auto: dict[str, list[float]] = {c: [] for c in per}
    for i in range(deals):
        for contract, results in per.items():
            for seat in range(4):
                players = [RULE if s == seat else RANDOM for s in range(4)]
                e = one_deal("trix", 3000 + i, players, contract=contract)
                base = one_deal("trix", 3000 + i, [RANDOM] * 4, contract=contract)
                results.append(e["deltas"]["players"][seat] - base["deltas"]["players"][seat])
                e = one_deal("trix", 3000 + i, [RULE if s == seat else AUTO for s in range(4)], contract=contract)
                base = one_deal("trix", 3000 + i, [AUTO] * 4, contract=contract)
                auto[contract].append(e["deltas"]["players"][seat] - base["deltas"]["players"][seat])
    wins = 0
    for i in range(matches):
        seat = i % 4
        wins += seat in match("trix", 7000 + i, [RULE if s == seat else RANDOM for s in range(4)])
    print(f"trix, {deals} deals x 5 contracts x 4 seats: one rule seat minus a random seat, same cards")
    for c, xs in per.items():
        print(f"  {c:9s} {mean_se(xs)} points per deal (among auto-only seats: {mean_se(auto[c])})")
    print(f"  matches won by the one rule seat among three random seats: {wins}/{matches} (par {matches / 4:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--matches", type=int, default=12)
    a = ap.parse_args()
    t = time.perf_counter()
    bench_tarneeb(a.deals, a.matches)
    bench_tarneeb41(a.deals, a.matches)
    bench_trix(max(1, a.deals // 5), a.matches)
    ts = sorted(TIMES)
    print(
        f"rule player: {len(ts)} decisions, median {ts[len(ts) // 2] * 1e6:.0f} µs, "
        f"p99 {ts[int(len(ts) * 0.99)] * 1e6:.0f} µs (view building not included)"
    )
    print(f"total {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
