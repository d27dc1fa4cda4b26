"""Make ``ai/strong/trix_layout_value.json``: the strong Trix player's learned layout value.

    nice -n 10 python bench/trix_layout_value_train.py --deals 16000 --seed 7000000 --jobs 2

(the defaults; about 13 minutes of CPU for the positions and 7 for the fit; ``--data F.npz``
keeps the positions, 1.9 GB, to fit again without making them). The same arguments write the
same file (byte for byte, on one machine). Layout deals from seeds
``seed, seed+1, ...`` (a range neither deal set of ``bench/ai.py`` uses: those are offsets 0 and
1,000,000 plus a few thousand) are played by four rule players with a little noise
(``--gen-eps``, for varied positions), the kingdom's owner (the first to play) drawn at random.
At every position where the seat to move has more than one legal card, each card is valued from
the TRUE hands: the deal played out by the rule player's policy without noise (as ``easy``
plays), the seat's own later moves searched exactly once it holds at most ``--exact`` cards
(:func:`trix_exact.rollout_then_exact`, as the strong player plays its endgame): its points from
here. The model (:mod:`ai.strong.trix_layout_value`, two hidden layers) is fitted by Adam on the
cards' values minus their position's mean from what the seat sees (:func:`trix_layout_value.encode`),
so it learns a card's expected value given the seat's information.

Checks printed at the end, on positions and deals held out of training (``--eval`` deals from
``seed + 100000``): the mean regret of the model's card (the best card's value minus the chosen
card's, from the true hands) against the rule player's, and one seat playing the model among
three rule players against the same deal all rule players (pair by pair, every seat).
"""

from __future__ import annotations

import argparse
import base64
import itertools
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.strong import trix_exact as E
from ai.strong import trix_infer as I
from ai.strong import trix_layout_value as V
from ai.strong import trix_sim as S
from engine.trix import layout as L

SCORES = S.DEFAULT_SCORES
#: hands, rows, seat to move, finished, excluded (per seat)
Position = tuple[list[int], S.Rows, int, list[int], list[int]]


def deal(seed: int) -> tuple[list[int], int]:
    """Four random hands and a random first seat, from ``seed``."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[i::4]) for i in range(4)], rng.randrange(4)


#: A seat's choice in :func:`walk`: (seat, hands, legal cards, rows, finished, excluded) -> a card
Chooser = Callable[[int, list[int], int, S.Rows, list[int], list[int]], int]


def walk(hands0: list[int], seat: int, choose: Chooser,
         record: Callable[[Position], None] | None = None) -> list[int]:
    """Play a layout deal from ``hands0`` with ``seat`` first, each card by ``choose``, and return
    every seat's points; ``record`` sees each position where the seat to move has a choice (with
    the passes seen so far: a seat that passes holds none of the cards open then)."""
    hands = list(hands0)
    rows = list(S.EMPTY_ROWS)
    finished: list[int] = []
    excluded = [0, 0, 0, 0]
    out = [0, 0, 0, 0]
    for _ in range(400):
        if len(finished) >= 3:
            break
        if hands[seat]:
            legal = S.layout_legal(hands[seat], rows)
            if not legal:
                excluded[seat] |= L.open_cards(rows)  # a pass: what was open is not in that hand
            else:
                if record is not None and legal & (legal - 1):
                    record((list(hands), list(rows), seat, list(finished), list(excluded)))
                c = choose(seat, hands, legal, rows, finished, excluded)
                hands[seat] &= ~(1 << c)
                S.place(rows, c)
                if not hands[seat]:
                    out[seat] += SCORES[len(finished)]
                    finished.append(seat)
        seat = (seat + 1) % 4
    last = next(s for s in range(4) if s not in finished)
    out[last] += SCORES[3]
    return out


def positions(seed: int, eps: float) -> list[Position]:
    """The positions of a rule-player deal (noise ``eps``) where the seat to move has a choice."""
    hands, seat = deal(seed)
    rng = random.Random(seed ^ 0x5EED)
    out: list[Position] = []
    walk(hands, seat, lambda s, h, legal, rows, fin, exc: S.choose_layout_card(h[s], legal, rows, rng, eps),
         out.append)
    return out


def label(pos: Position, c: int, exact: int, nodes: int) -> float:
    """The seat's points after playing ``c``, from the true hands (see the module's doc)."""
    hands, rows, seat, finished, _ = pos
    hands = list(hands)
    rows = list(rows)
    hands[seat] &= ~(1 << c)
    S.place(rows, c)
    if not hands[seat]:
        return float(SCORES[len(finished)])
    return E.rollout_then_exact(hands, rows, (seat + 1) % 4, list(finished), SCORES, seat,
                                I.QUIET_RNG, 0.0, None, exact, nodes)


def sizes_of(hands: list[int]) -> list[int]:
    return [h.bit_count() for h in hands]


def encode(pos: Position) -> tuple[list[int], np.ndarray]:
    hands, rows, seat, finished, excluded = pos
    legal = S.layout_legal(hands[seat], rows)
    return V.encode(hands[seat], legal, rows, seat, sizes_of(hands), finished, excluded, SCORES)


def _deal_data(args: tuple[int, float, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One deal's positions: inputs, labels, position numbers (within the deal), rule-choice flags."""
    seed, eps, exact, nodes = args
    xs: list[np.ndarray] = []
    ys: list[float] = []
    gs: list[int] = []
    rule: list[float] = []
    for g, pos in enumerate(positions(seed, eps)):
        hands, rows, seat, _, _ = pos
        cards, x = encode(pos)
        r = S.choose_layout_card(hands[seat], S.layout_legal(hands[seat], rows), rows, I.QUIET_RNG, eps=0.0)
        for c in cards:
            ys.append(label(pos, c, exact, nodes))
            gs.append(g)
            rule.append(float(c == r))
        xs.append(x)
    return (np.concatenate(xs).astype(np.float32) if xs else np.zeros((0, V.N_IN), np.float32),
            np.array(ys), np.array(gs, dtype=np.int64), np.array(rule))


def collect(seeds: range, eps: float, exact: int, nodes: int, jobs: int) -> tuple[np.ndarray, ...]:
    """Inputs, labels, position ids and rule flags over the deals of ``seeds`` (in seed order)."""
    work = [(s, eps, exact, nodes) for s in seeds]
    if jobs > 1:
        with multiprocessing.get_context("forkserver").Pool(jobs) as pool:
            parts = pool.map(_deal_data, work, chunksize=20)
    else:
        parts = [_deal_data(w) for w in work]
    xs, ys, gs, rs = [], [], [], []
    base = 0
    for x, y, g, r in parts:
        if len(y):
            xs.append(x)
            ys.append(y)
            gs.append(g + base)
            rs.append(r)
            base += int(g.max()) + 1
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs), np.concatenate(rs)


def centred(y: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``y`` minus its position's mean."""
    n = int(g.max()) + 1
    out: np.ndarray = y - (np.bincount(g, weights=y, minlength=n) / np.bincount(g, minlength=n))[g]
    return out


class MLP:
    """Two hidden layers of rectified units, trained by Adam on the per-position centred error."""

    def __init__(self, n_in: int, hidden: tuple[int, ...], rng: np.random.Generator) -> None:
        dims = [n_in, *hidden, 1]
        self.p: list[np.ndarray] = []
        for a, b in itertools.pairwise(dims):
            self.p.append(rng.normal(0.0, np.sqrt(2.0 / a), (a, b)))
            self.p.append(np.zeros(b))
        self.m = [np.zeros_like(q) for q in self.p]
        self.v = [np.zeros_like(q) for q in self.p]
        self.t = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        acts = [x]
        h = x
        n = len(self.p) // 2
        for i in range(n):
            h = h @ self.p[2 * i] + self.p[2 * i + 1]
            if i < n - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        return h[:, 0], acts

    def step(self, x: np.ndarray, t: np.ndarray, g: np.ndarray, lr: float, l2: float) -> float:
        """One Adam step on a batch of whole positions (``g`` their ids, ``t`` centred targets)."""
        out, acts = self.forward(x)
        r = centred(out, g) - t
        loss = float(np.mean(r * r))
        d = (2.0 / len(r)) * r[:, None]  # d loss / d out (the centring's own term sums to 0)
        n = len(self.p) // 2
        grads: list[np.ndarray] = [np.zeros(0)] * len(self.p)
        for i in reversed(range(n)):
            grads[2 * i] = acts[i].T @ d + l2 * self.p[2 * i]
            grads[2 * i + 1] = d.sum(axis=0)
            if i:
                d = (d @ self.p[2 * i].T) * (acts[i] > 0)
        self.t += 1
        for k, gr in enumerate(grads):
            self.m[k] = 0.9 * self.m[k] + 0.1 * gr
            self.v[k] = 0.999 * self.v[k] + 0.001 * gr * gr
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss


def train(x: np.ndarray, y: np.ndarray, g: np.ndarray, hidden: tuple[int, ...], epochs: int, batch: int,
          lr: float, l2: float, seed: int, log: bool = True) -> tuple[MLP, np.ndarray, np.ndarray]:
    """The fitted model and the inputs' mean and scale (the model sees standardised inputs)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0, dtype=np.float64)
    scale = x.std(axis=0, dtype=np.float64)
    scale[scale < 1e-6] = 1.0
    mean, scale = (a.astype(np.float32).astype(np.float64) for a in (mean, scale))  # as the file keeps them
    z = ((x - mean) / scale).astype(np.float32)
    t = centred(y, g)
    n_g = int(g.max()) + 1
    starts = np.searchsorted(g, np.arange(n_g))
    ends = np.searchsorted(g, np.arange(n_g), side="right")
    net = MLP(x.shape[1], hidden, rng)
    for ep in range(epochs):
        order = rng.permutation(n_g)
        rate = lr * (0.5 * (1 + np.cos(np.pi * ep / epochs)))  # cosine decay
        losses = []
        for b0 in range(0, n_g, batch):
            gsel = order[b0:b0 + batch]
            lens = ends[gsel] - starts[gsel]
            idx = np.repeat(starts[gsel] - np.cumsum(lens) + lens, lens) + np.arange(lens.sum())
            gid = np.repeat(np.arange(len(gsel)), lens)
            losses.append(net.step(z[idx].astype(np.float64), t[idx], gid, rate, l2))
        if log:
            print(f"  epoch {ep + 1}: centred squared error {np.mean(losses):.1f}", flush=True)
    return net, mean, scale


def regret(pred: np.ndarray, y: np.ndarray, g: np.ndarray) -> float:
    """Mean over positions of the best card's value minus the value of the card ``pred`` ranks first."""
    n = int(g.max()) + 1
    best = np.full(n, -1e18)
    np.maximum.at(best, g, y)
    top = np.full(n, -1e18)
    np.maximum.at(top, g, pred)
    # the first card (card order) among those the prediction ranks top
    chosen = np.full(n, np.nan)
    for i in range(len(g)):
        if pred[i] >= top[g[i]] and np.isnan(chosen[g[i]]):
            chosen[g[i]] = y[i]
    return float(np.mean(best - chosen))


def to_file(net: MLP, mean: np.ndarray, scale: np.ndarray, made_by: str, notes: dict[str, object]) -> dict[str, object]:
    def enc(a: np.ndarray) -> dict[str, object]:
        return {"shape": list(a.shape), "b64": base64.b64encode(a.astype("<f4").tobytes()).decode()}

    arrays = {"mean": enc(mean), "scale": enc(scale)}
    for i in range(len(net.p) // 2):
        arrays[f"w{i}"] = enc(net.p[2 * i])
        arrays[f"b{i}"] = enc(net.p[2 * i + 1])
    return {"n_in": V.N_IN, "layers": len(net.p) // 2, "made_by": made_by, "notes": notes, "arrays": arrays}


def play_eval(seeds: range, m: V.Model) -> tuple[float, float, float]:
    """One seat on the model among three rule players, minus the same seat with four rule players
    (no noise), over every seat of the deals of ``seeds``: mean, standard error, share changed."""
    diffs = []
    for seed in seeds:
        hands0, first = deal(seed)
        base = _play(hands0, first, -1, m)
        for s in range(4):
            diffs.append(_play(hands0, first, s, m)[s] - base[s])
    d = np.array(diffs, dtype=float)
    return float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d))), float((d != 0).mean())


def _play(hands0: list[int], seat: int, own: int, m: V.Model) -> list[int]:
    """A layout deal with seat ``own`` on the model and the others on the rule policy, no noise."""
    def choose(s: int, hands: list[int], legal: int, rows: S.Rows, finished: list[int], excluded: list[int]) -> int:
        if s == own:
            return V.choose(hands[s], legal, rows, s, sizes_of(hands), finished, excluded, SCORES, m)
        return S.choose_layout_card(hands[s], legal, rows, I.QUIET_RNG, 0.0)

    return walk(hands0, seat, choose)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=16000, help="training deals")
    ap.add_argument("--seed", type=int, default=7_000_000)
    ap.add_argument("--gen-eps", type=float, default=0.1, help="the noise of the deals the positions come from")
    ap.add_argument("--exact", type=int, default=6, help="the seat's own moves searched exactly from this many cards")
    ap.add_argument("--nodes", type=int, default=8000, help="moves an exact search may follow")
    ap.add_argument("--hidden", default="64,32")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=512, help="positions a step")
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--holdout", type=float, default=0.1, help="the share of training deals held out for checks")
    ap.add_argument("--eval", type=int, default=2000, help="deals to play the model on (x 4 seats)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--data", help="cache the generated positions in this .npz (read it if it exists)")
    ap.add_argument("--out", default=str(V.PATH))
    a = ap.parse_args()
    t0 = time.time()
    if a.data and Path(a.data).exists():
        with np.load(a.data) as f:
            x, y, g, rule = f["x"], f["y"], f["g"], f["rule"]
    else:
        x, y, g, rule = collect(range(a.seed, a.seed + a.deals), a.gen_eps, a.exact, a.nodes, a.jobs)
        if a.data:
            np.savez(a.data, x=x, y=y, g=g, rule=rule)
    n_g = int(g.max()) + 1
    print(f"{n_g} positions, {len(y)} cards from {a.deals} deals ({time.time() - t0:.0f} s)", flush=True)
    cut = int(np.searchsorted(g, int(n_g * (1 - a.holdout))))  # positions in deal order: the last deals held out
    hidden = tuple(int(h) for h in a.hidden.split(","))
    net, mean, scale = train(x[:cut], y[:cut], g[:cut], hidden, a.epochs, a.batch,
                             a.lr, a.l2, a.seed)
    made_by = (f"bench/trix_layout_value_train.py --deals {a.deals} --seed {a.seed} --gen-eps {a.gen_eps}"
               f" --exact {a.exact} --nodes {a.nodes} --hidden {a.hidden} --epochs {a.epochs}"
               f" --batch {a.batch} --lr {a.lr} --l2 {a.l2} --holdout {a.holdout} --eval {a.eval}")
    notes: dict[str, object] = {"positions": n_g, "cards": len(y)}
    if cut < len(y):
        xh, yh, gh = x[cut:].astype(np.float64), y[cut:], g[cut:] - g[cut]
        pred, _ = net.forward((xh - mean) / scale)
        notes["holdout_regret_model"] = round(regret(pred, yh, gh), 3)
        notes["holdout_regret_rule"] = round(regret(rule[cut:], yh, gh), 3)
        notes["holdout_regret_random"] = round(float(np.mean(
            np.maximum.reduceat(yh, np.searchsorted(gh, np.arange(int(gh.max()) + 1)))
            - np.bincount(gh, weights=yh) / np.bincount(gh))), 3)
        print(f"held-out positions: regret (points lost to the best card, true hands) model "
              f"{notes['holdout_regret_model']}, rule {notes['holdout_regret_rule']}, "
              f"a random card {notes['holdout_regret_random']}", flush=True)
    data = to_file(net, mean, scale, made_by, notes)
    if a.eval:
        ev = play_eval(range(a.seed + 100_000, a.seed + 100_000 + a.eval), V.Model(data))
        notes["eval_gain"] = round(ev[0], 3)
        notes["eval_se"] = round(ev[1], 3)
        print(f"one seat on the model among rule players vs the rule player, {a.eval} deals x 4 seats: "
              f"{ev[0]:+.2f} +- {ev[1]:.2f} points ({ev[2]:.0%} changed)", flush=True)
    Path(a.out).write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {a.out} ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
