"""The one-second cap and CPU budgets of the strong AI, with a stubbed slow solver on a fake clock.

The clock is fake (no test here waits or depends on the machine's speed): the stubbed solvers
and rollouts give the real answers but move the fake wall clock by a set amount each, as a slow
or loaded machine would; the CPU clock moves only where a test says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import engine
from ai import think as T
from ai.strong import StrongPlayer, bidsim, dds
from ai.strong import tarneeb as strong_tarneeb
from ai.strong import trix as strong_trix
from ai.strong import trix_sim as S

pytestmark = pytest.mark.skipif(not dds.available(), reason="endplay (DDS) not installed")


class FakeTime:
    """``time`` for the AI modules: a wall clock and a CPU clock that move only when told."""

    def __init__(self) -> None:
        self.wall = 1000.0
        self.cpu = 5.0

    def monotonic(self) -> float:
        return self.wall

    perf_counter = monotonic

    def thread_time(self) -> float:
        return self.cpu


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    fake = FakeTime()
    for mod in (T, strong_tarneeb, strong_trix, bidsim):
        monkeypatch.setattr(mod, "time", fake)
    return fake


def slow(monkeypatch: pytest.MonkeyPatch, clock: FakeTime, mod: Any, name: str, wall: float,
         cpu: float = 0.0) -> list[int]:
    """Replace ``mod.name`` by the real function that also moves the fake clocks; count the calls."""
    real: Callable[..., Any] = getattr(mod, name)
    calls: list[int] = []

    def stub(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        clock.wall += wall
        clock.cpu += cpu
        return real(*args, **kw)

    monkeypatch.setattr(mod, name, stub)
    return calls


def position(game: str, phase: str, seed: int = 4) -> engine.Game:
    """A game at a decision of ``phase`` with a real choice."""
    for s in range(seed, seed + 50):
        g = engine.new_game(game, seed=s)
        while g.to_act is not None:
            if g.phase == phase and len(g.legal()) > 1:
                return g
            legal = g.legal()
            if game == "tarneeb41" and g.phase == "bid":
                g.act(g.to_act, "bid 3")  # auto bids would throw the deal in
            elif game == "tarneeb" and g.phase == "bid":  # one bid of 7, then passes (auto would all pass)
                high = g.view(g.to_act)["high_bid"]
                g.act(g.to_act, "pass" if high is not None else next(a for a in legal if a.startswith("bid ")))
            else:
                g.act(g.to_act, g.auto())
    raise AssertionError(f"no {phase} decision found")


def decide(g: engine.Game, clock: FakeTime, player: StrongPlayer | None = None) -> tuple[str, float]:
    seat = g.to_act
    assert seat is not None
    started = clock.wall
    action = (player or StrongPlayer("strong")).decide(g.view(seat), g.to_json()["game"], random.Random(3))
    assert action in g.legal()
    return action, clock.wall - started


TARNEEB_CASES = [
    ("tarneeb", "play", "score_cards", 0.3),
    ("tarneeb41", "play", "score_cards", 0.3),
]


@pytest.mark.parametrize(("game", "phase", "solver", "seconds"), TARNEEB_CASES)
def test_a_slow_solver_never_takes_a_decision_past_the_cap(
        monkeypatch: pytest.MonkeyPatch, clock: FakeTime, game: str, phase: str, solver: str,
        seconds: float) -> None:
    """Whatever the minimum of samples, no solve is begun that would end past the cap."""
    g = position(game, phase)
    calls = slow(monkeypatch, clock, dds, solver, seconds)
    player = StrongPlayer("strong")
    _, took = decide(g, clock, player)
    assert calls, "the search itself decided"
    assert took <= T.HARD_CAP - T.MARGIN + 1e-9
    assert len(calls) < StrongPlayer("strong").tarneeb.min_samples


@pytest.mark.parametrize(("game", "phase"), [("tarneeb41", "bid"), ("tarneeb", "bid"), ("tarneeb", "trump")])
def test_slow_bid_rollouts_never_take_a_bid_past_the_cap(monkeypatch: pytest.MonkeyPatch, clock: FakeTime,
                                                         game: str, phase: str) -> None:
    """The simulated bids (classic ones too, off by default) with rollouts of 0.1 s each and a CPU
    budget that never ends: no rollout is begun that would end past the cap, and the minimum of
    kept samples does not override it (the rule player then bids)."""
    g = position(game, phase)
    calls = slow(monkeypatch, clock, bidsim, "rollout", 0.1)
    player = StrongPlayer("strong")
    player.bid_games = {"tarneeb", "tarneeb41"}
    player.tarneeb.bid_seconds = player.tarneeb.classic_bid_seconds = 100.0
    _, took = decide(g, clock, player)
    assert calls, "the simulation itself ran"
    assert took <= T.HARD_CAP - T.MARGIN + 1e-9
    assert len(calls) <= (T.HARD_CAP - T.MARGIN) / 0.1


def test_a_solve_slower_than_the_cap_is_not_followed_by_another(monkeypatch: pytest.MonkeyPatch,
                                                                  clock: FakeTime) -> None:
    """One solve that takes 2 s (a machine far too busy): the answer comes right after it (the pool
    answers with the rule player at the cap itself: test_ai_pool)."""
    g = position("tarneeb41", "play")
    calls = slow(monkeypatch, clock, dds, "score_cards", 2.0)
    decide(g, clock)
    assert len(calls) == 1


@pytest.mark.parametrize(("phase", "fn"), [("play", "rollout_tricks"), ("contract", "rollout_tricks"),
                                           ("double", "rollout_tricks")])
def test_slow_trix_rollouts_never_take_a_decision_past_the_cap(
        monkeypatch: pytest.MonkeyPatch, clock: FakeTime, phase: str, fn: str) -> None:
    g = position("trix", phase)
    calls = slow(monkeypatch, clock, S, fn, 0.02)
    slow(monkeypatch, clock, S, "rollout_layout", 0.02)
    player = StrongPlayer("strong")
    player.trix.card_seconds = player.trix.choice_seconds = 100.0  # the CPU budget never ends
    _, took = decide(g, clock, player)
    assert calls
    assert took <= T.HARD_CAP - T.MARGIN + 1e-9


@pytest.mark.slow
def test_the_budget_is_cpu_time_so_a_loaded_machine_plays_the_same(monkeypatch: pytest.MonkeyPatch,
                                                                   clock: FakeTime) -> None:
    """A solve costs 20 ms of CPU; on a machine three times as busy it takes 60 ms of wall time.
    The decision does the same work, and plays the same card, as long as it fits in the cap."""
    g = position("tarneeb41", "play", seed=9)
    results = []
    for wall in (0.02, 0.06):
        calls = slow(monkeypatch, clock, dds, "score_cards", wall, cpu=0.02)
        action, took = decide(g, clock)
        results.append((action, len(calls)))
        assert took < T.HARD_CAP
        monkeypatch.undo()
        for mod in (T, strong_tarneeb, strong_trix, bidsim):
            monkeypatch.setattr(mod, "time", clock)
    assert results[0] == results[1]
    budget = StrongPlayer("strong").tarneeb.card_seconds
    assert results[0][1] == pytest.approx(budget / 0.02, abs=1.01)
