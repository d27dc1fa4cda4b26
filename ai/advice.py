"""Advice for a person at the table: a hint at their turn, a review of their cards after a deal.

::

    h = hint(view, "tarneeb", seed=s, deadline=deadline_in())      # Hint | None
    steps = deal_steps("trix", seed, dealer, options, actions, seat)  # the last finished deal
    r = review(steps, "trix", seed=s, deadline=deadline_in())       # Review | None

A **hint** is the ``strong`` level's own search (:class:`ai.strong.StrongPlayer`) on the seat's view,
with a budget counted in samples instead of CPU seconds (:class:`Counted`), so the same position and
seed give the same hint on any machine; with each candidate's mean over the sampled deals it tells
how much the next best card loses on average (Tarneeb 41: the side's tricks; classic Tarneeb: the
contract's points for the side; Trix: the seat's points). A Tarneeb bid (and the classic trump
choice) is the bid simulation's (:mod:`ai.strong.bidsim`): the next best is the candidate with the
best mean score (the side's points minus the other side's, on the simulated deals with the rule
player's auction and card play), and what it loses is the chosen one's mean minus its own, never
below 0: the simulation keeps the rule player's bid unless another beats it by a standard error, so
a candidate slightly above it on average is "about as good". The Trix contract and doubles are
compared as their search decides (:class:`ai.strong.trix.TrixBrain`): a contract by the seat's points
over what the contract usually scores, on the sampled deals; a double by what it gains over not
doubling, less the quarter of the card's value a double must beat (it tells the table where the card
is). With one legal move the hint says so (``only``).

A **review** replays the last finished deal with every hand known: in the Tarneeb games each card the
seat played is scored double-dummy (:func:`ai.strong.dds.score_cards`, tricks), in Trix by the
exact search of :mod:`ai.strong.trix_exact` with all hands (rollouts on those true hands where the
exact search would be too deep), in points. The card that cost most is named with what it cost
and one reason from the search the seat could have made then: in how many of the deals consistent
with what it saw the better card did at least as well.

Both run in the AI process pool's workers (:meth:`ai.pool.AIPool.advise`) before a deadline; a
search cut short by the deadline answers None rather than a different answer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ai.think import Think

#: Sampled deals of a Tarneeb card hint (the strong level samples 6 to 40 in 0.2 s of CPU).
TARNEEB_SAMPLES = 12
#: Rollout rounds of a Trix card hint, and steps of its inference chain.
TRIX_ROUNDS = 20
TRIX_CHAIN = 300
#: Samples of the bid simulation and of the Trix contract choice and doubles.
CHOICE_SAMPLES = 60
#: Sampled deals (Tarneeb) or rounds (Trix) of a review's reason.
REASON_SAMPLES = 8
#: Rollouts a Trix card is scored with in a review where the exact search would be too deep.
REVIEW_ROLLOUTS = 6


def advice_seed(table_seed: int, version: int, seat: int, what: str = "hint") -> int:
    """The seed of the advice on the position ``version`` of a table for ``seat`` (reproducible)."""
    return random.Random(f"{what}:{table_seed}:{version}:{seat}").getrandbits(32)


class Counted(Think):
    """A budget of ``units`` units of work (sampled deals, rollout rounds) and ``side`` steps of a
    side search (the Trix inference chain) instead of CPU seconds, under the wall-clock
    ``deadline``. ``cut`` says the deadline stopped the work early (the answer is then not the
    reproducible one)."""

    __slots__ = ("cut", "limit", "side", "side_used")

    def __init__(self, units: int, deadline: float | None, side: int = 0) -> None:
        super().__init__(0.0, deadline)
        self.limit = units
        self.side = side
        self.side_used = 0
        self.cut = False

    def more(self, n: int, min_units: int = 1, cpu: float | None = None) -> bool:
        if cpu is not None:
            self.side_used += 1
            going = self.side_used <= self.side
        else:
            going = n < self.limit
        if going and not self.fits():
            self.cut = True
            return False
        return going

    def cpu_used(self) -> float:
        return 0.0


@dataclass(frozen=True, slots=True)
class Hint:
    """What the strong search would do: ``action``, and (card play, Tarneeb bids and trump) the next
    best ``runner_up`` with what it loses on average (``loss`` >= 0, in ``unit``: ``"tricks"`` or
    ``"points"``) over ``samples`` sampled deals; ``only``: the one legal move."""

    action: str
    runner_up: str | None = None
    loss: float | None = None
    unit: str = "tricks"
    samples: int = 0
    only: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One card a seat played: its view just before, every seat's cards then, the code it played."""

    view: dict[str, Any]
    hands: tuple[int, int, int, int]
    played: str


@dataclass(frozen=True, slots=True)
class Review:
    """The card of the deal ``deal_no`` that cost the seat most (None: none cost anything): ``played``
    instead of ``better``, ``cost`` in ``unit`` with every hand known, in trick ``trick_no`` (from 1);
    ``share``: of the ``samples`` deals consistent with what the seat saw, the share in which
    ``better`` did at least as well (None: no search to say)."""

    deal_no: int
    cards: int
    played: str | None = None
    better: str | None = None
    cost: float = 0.0
    unit: str = "tricks"
    trick_no: int = 0
    share: float | None = None
    samples: int = 0


def _player(units: int, deadline: float | None) -> tuple[Any, Counted]:
    from ai.strong import StrongPlayer

    player = StrongPlayer("strong")
    think = Counted(units, deadline, side=TRIX_CHAIN)
    made: list[Counted] = []

    def new_think(cpu: float, dl: float | None) -> Think:
        made.append(think)
        return think

    player.tarneeb.new_think = new_think
    player.trix.new_think = new_think
    player.tarneeb.trace = {}
    player.trix.trace = {}
    return player, think


def _unit(view: dict[str, Any], game: str) -> str:
    if game == "tarneeb41":
        return "tricks"
    return "points"


def hint(view: dict[str, Any], game: str, seed: int, deadline: float | None = None) -> Hint | None:
    """The strong search's choice for the seat whose ``view`` this is (None: cut by the deadline)."""
    legal = [str(a) for a in view.get("legal") or []]
    if not legal:
        return None
    if len(legal) == 1:
        return Hint(legal[0], only=True)
    phase = view.get("phase")
    card_play = phase == "play"
    units = (TRIX_ROUNDS if game == "trix" else TARNEEB_SAMPLES) if card_play else CHOICE_SAMPLES
    player, think = _player(units, deadline)
    action = str(player.decide(view, game, random.Random(seed), deadline=deadline))
    if think.cut:
        return None
    trace: dict[str, list[float]] = (player.trix if game == "trix" else player.tarneeb).trace or {}
    compared = card_play or phase in (("contract", "double") if game == "trix" else ("bid", "trump"))
    if not compared or action not in trace or len(trace) < 2:
        return Hint(action)  # the rule player's answer (too few samples) or a choice without means
    means = {a: sum(v) / len(v) for a, v in trace.items() if v and a in legal}
    if action not in means or len(means) < 2:
        return Hint(action)
    runner = max((a for a in means if a != action), key=lambda a: (means[a], a))
    unit = _unit(view, game) if card_play else "points"
    return Hint(action, runner, max(0.0, means[action] - means[runner]), unit, len(trace[action]))


# ---------------------------------------------------------------------- the review of a deal
def deal_steps(game_id: str, seed: int, dealer: int | None, options: dict[str, Any],
               actions: Sequence[tuple[int, str]], seat: int) -> tuple[int, list[Step]]:
    """Replay a match's ``actions`` (seat, code) from its seed: the number of its last finished deal
    in which ``seat`` played a card, and the cards it played there (0 and [] when none)."""
    import engine

    g = engine.new_game(game_id, seed=seed, dealer=dealer, options=options)
    by_deal: dict[int, list[Step]] = {}
    for s, code in actions:
        public = g.view(None)
        if public.get("phase") == "play" and s == seat and code.startswith("play "):
            hands: Any = getattr(g, "hands")  # noqa: B009 - both card games keep the hands so
            by_deal.setdefault(int(public.get("deal_no") or 0), []).append(
                Step(g.view(seat), (int(hands[0]), int(hands[1]), int(hands[2]), int(hands[3])), code))
        g.act(s, code)
    public = g.view(None)
    over = public.get("winner") is not None or public.get("phase") in ("over", "finished")
    now = int(public.get("deal_no") or 0)
    done = [d for d in by_deal if d < now or over]
    if not done:
        return 0, []
    last = max(done)
    return last, by_deal[last]


def _tarneeb_costs(step: Step) -> dict[str, float]:
    from ai.strong import dds
    from ai.strong.knowledge import from_view
    from engine import cards as C

    view = step.view
    k = from_view(view)
    trump = C.parse_suit(str(view["trump"])) if view.get("trump") else None
    leader = k.trick[0][0] if k.trick else k.seat
    scored = dds.score_cards(list(step.hands), trump, leader, [c for _, c in k.trick])
    legal = [str(a) for a in view.get("legal") or [] if str(a).startswith("play ")]
    return {a: float(scored.get(C.parse(a[5:]), 0)) for a in legal}


def _trix_costs(step: Step, seed: int) -> dict[str, float]:
    from ai.strong import LEVELS
    from ai.strong import trix_exact as E
    from ai.strong.knowledge import from_view
    from ai.strong.trix import TrixBrain
    from engine import cards as C

    lv = LEVELS["strong"]
    brain = TrixBrain(card_seconds=lv.trix_card, infer_share=0.0, eps=lv.trix_eps, layout_eps=lv.trix_layout_eps)
    view = step.view
    k = from_view(view)
    contract = str(view.get("contract"))
    hands = list(step.hands)
    legal = [str(a) for a in view.get("legal") or [] if str(a).startswith("play ")]
    out: dict[str, float] = {}
    try:
        for a in legal:
            budget = E.Budget(brain.exact_layout_nodes if contract == "trix" else brain.exact_nodes)
            out[a] = brain._value_after(view, k, contract, hands, C.parse(a[5:]), random.Random(seed), budget)
    except E.TooDeep:  # too many cards left for the exact search: rollouts on the true hands
        out = {a: sum(brain._value_after(view, k, contract, hands, C.parse(a[5:]), random.Random(seed + i), None)
                      for i in range(REVIEW_ROLLOUTS)) / REVIEW_ROLLOUTS for a in legal}
    return out


def review(steps: Sequence[Step], game: str, seed: int, deadline: float | None = None,
           deal_no: int = 0) -> Review | None:
    """The costliest of ``steps`` (a seat's cards of one deal) with every hand known, and the share
    of the seat's own sampled deals in which the better card did at least as well (None: the
    deadline came first, or the game's review needs what is missing here)."""
    if game == "trix":
        opts = (steps[0].view.get("options") or {}) if steps else {}
        if opts.get("mode") == "complex" or opts.get("partnership"):
            return None  # the simulator has neither merged scoring nor team play
    else:
        from ai.strong import dds

        if not dds.available():
            return None
    think = Counted(len(steps), deadline)
    worst: tuple[float, int, str, str] | None = None
    for i, step in enumerate(steps):
        if not think.more(i):
            return None
        import time

        t = time.monotonic()
        costs = _tarneeb_costs(step) if game != "trix" else _trix_costs(step, seed + i)
        think.measured(t)
        if step.played not in costs or len(costs) < 2:
            continue
        best = max(costs, key=lambda a: (costs[a], a == step.played))
        cost = float(costs[best] - costs[step.played])
        if cost > 1e-9 and (worst is None or cost > worst[0] + 1e-9):
            worst = (cost, i, step.played, best)
    unit = "points" if game == "trix" else "tricks"
    if worst is None:
        return Review(deal_no, len(steps), unit=unit)
    cost, i, played, better = worst
    view = steps[i].view
    trick_no = int(view.get("trick_no") or 0) + 1
    share, samples = _share(view, game, seed, deadline, played, better)
    return Review(deal_no, len(steps), played, better, cost, unit, trick_no, share, samples)


def review_deal(game: str, table_seed: int, dealer: int | None, options: dict[str, Any],
                actions: Sequence[tuple[int, str]], seat: int, deadline: float | None = None) -> Review | None:
    """:func:`review` of ``seat``'s last finished deal of a match (its ``actions`` from the table's
    seed), seeded from the table's seed, the deal and the seat: the same deal gives the same review."""
    deal_no, steps = deal_steps(game, table_seed, dealer, options, actions, seat)
    return review(steps, game, advice_seed(table_seed, deal_no, seat, "review"), deadline, deal_no)


def _share(view: dict[str, Any], game: str, seed: int, deadline: float | None, played: str,
           better: str) -> tuple[float | None, int]:
    """Of the deals the seat's own search draws at ``view``, the share in which ``better`` did at
    least as well as ``played``, and how many deals that is."""
    player, think = _player(REASON_SAMPLES, deadline)
    player.decide(view, game, random.Random(seed), deadline=deadline)
    trace = (player.trix if game == "trix" else player.tarneeb).trace or {}
    a, b = trace.get(better) or [], trace.get(played) or []
    if think.cut or not a or len(a) != len(b):
        return None, 0
    return sum(x >= y for x, y in zip(a, b, strict=True)) / len(a), len(a)
