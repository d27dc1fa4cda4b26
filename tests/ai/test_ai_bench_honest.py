"""bench/ai.py's honest measures (issue 33) on tiny seeded samples: the cheater sees the true hands and
never loses a double-dummy trick, and every report prints its figures in the shape documented in
docs/ai.md. (Strength itself is for the lead's long runs: nothing here asserts who is stronger.)"""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import engine
from ai import ai_player
from ai.strong import StrongPlayer, dds
from ai.strong.cheater import TRUE_HANDS, CheaterPlayer, knowing
from ai.strong.knowledge import sample_deal
from engine import cards as C

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not dds.available(), reason="endplay (DDS) not installed")


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ai_under_test", ROOT / "bench" / "ai.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _quick(p: StrongPlayer) -> StrongPlayer:
    """Tiny budgets: the same search, a sample or a rollout round a decision."""
    p.tarneeb.card_seconds = p.tarneeb.bid_seconds = p.tarneeb.classic_bid_seconds = 0.0
    p.tarneeb.min_samples = 1
    p.trix.card_seconds = p.trix.choice_seconds = 0.0
    p.trix.exact_layout = 0  # no exact layout search (a rollout round a card)
    return p


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    mod = _bench()
    real = mod.player

    def player(level: str) -> Any:
        p = real(level)
        return _quick(p) if isinstance(p, StrongPlayer) else p

    monkeypatch.setattr(mod, "player", player)
    return mod


def _run(bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    monkeypatch.setattr(sys, "argv", ["ai.py", *args])
    bench.main()
    return capsys.readouterr().out


def test_the_cheater_level_is_in_the_registry_and_refuses_a_view_without_the_true_hands() -> None:
    p = ai_player("cheater")
    assert isinstance(p, CheaterPlayer)
    g = engine.new_game("tarneeb41", seed=3)
    view = g.view(g.to_act)
    with pytest.raises(ValueError, match="true hands"):
        p.decide(view, "tarneeb41", random.Random(1))
    assert ai_player("strong").level == "strong"  # the others are as they were


def test_the_cheaters_sampler_draws_the_true_deal_only() -> None:
    g = engine.new_game("trix", seed=5)
    rule = ai_player("easy")
    rng = random.Random(2)
    while g.phase != "play" or len(g.view(g.to_act)["history"] or []) < 3:  # a few tricks into a deal
        g.act(g.to_act, rule.decide(g.view(g.to_act), "trix", rng))
    seat = g.to_act
    hands = [g.hand(s) for s in range(4)]
    k = knowing({**g.view(seat), TRUE_HANDS: hands})
    for _ in range(5):
        assert sample_deal(k, rng) == [C.mask_of(h) for h in hands]
    other = (seat + 1) % 4
    swapped = [hands[other] if s == seat else hands[seat] if s == other else h for s, h in enumerate(hands)]
    with pytest.raises(ValueError, match="own hand"):
        knowing({**g.view(seat), TRUE_HANDS: swapped})


def _figure(line: str) -> tuple[float, float, int]:
    m = re.search(r"([+-]\d+\.\d+) ± (\d+\.\d+) .*?\(n=(\d+)", line)
    assert m, line
    return float(m[1]), float(m[2]), int(m[3])


@pytest.mark.slow
def test_the_dd_yardsticks_show_the_cheater_never_losing_a_double_dummy_trick(
        bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run(bench, capsys, monkeypatch, "--game", "dd", "--deals", "2", "--dd-levels", "easy,cheater")
    cheat = next(ln for ln in out.splitlines() if ln.startswith("  cheater: cards that lose"))
    mean, se, n = _figure(cheat)
    assert (mean, se) == (0.0, 0.0) and n > 20  # its every card is double-dummy best
    easy = next(ln for ln in out.splitlines() if ln.startswith("  easy: cards that lose"))
    share, _, n_easy = _figure(easy)
    assert 0.0 <= share <= 1.0 and n_easy > 20
    for level in ("easy", "cheater"):
        par = next(ln for ln in out.splitlines() if ln.startswith(f"  {level}: declaring side's tricks below par"))
        below, _, deals = _figure(par)
        assert -13 <= below <= 13 and 1 <= deals <= 2


@pytest.mark.slow
def test_the_share_report_prints_a_share_per_game_and_contract(
        bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run(bench, capsys, monkeypatch, "--game", "share", "--deals", "4", "--share-in", "tarneeb41,trix",
               "--contracts", "king,trix")
    rows = [ln for ln in out.splitlines() if " share " in ln]
    assert [r.split(" share ")[0].strip() for r in rows] == ["tarneeb41 (points a seat)", "trix king", "trix trix"]
    for r in rows:
        assert re.search(r"share ([+-]\d+|nan) ± (\d+|nan) %", r), r
        assert "strong " in r and "cheater " in r
        assert _figure(r.split("strong ")[1])[2] == _figure(r.split("cheater ")[1])[2]  # paired: the same units
    assert _figure(rows[0].split("strong ")[1])[2] == 16  # 4 deals x 4 seats
    assert _figure(rows[1].split("strong ")[1])[2] == 4  # 1 deal x 4 seats


@pytest.mark.slow
@pytest.mark.parametrize("population", ["noisy", "strong"])
def test_a_population_report_gives_each_game_a_figure_per_chair(
        bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        population: str) -> None:
    out = _run(bench, capsys, monkeypatch, "--game", "population", "--population", population, "--deals", "1",
               "--population-games", "tarneeb41,trix", "--contracts", "queens")
    rows = [ln for ln in out.splitlines() if "points a deal" in ln]
    assert [r.split("  ")[1].strip() for r in rows] == ["tarneeb41 (own points)", "trix queens"]
    assert all(_figure(r)[2] == 4 for r in rows)


@pytest.mark.slow
def test_easy_measured_against_itself_in_a_population_differs_by_nothing(
        bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The level and easy in the same chair, the same deal and the same noise: identical runs."""
    out = _run(bench, capsys, monkeypatch, "--game", "population", "--population", "noisy", "--level", "easy",
               "--deals", "2", "--population-games", "tarneeb,tarneeb41")
    rows = [ln for ln in out.splitlines() if "points a deal" in ln]
    assert len(rows) == 2 and all(_figure(r)[:2] == (0.0, 0.0) for r in rows)


@pytest.mark.slow
def test_the_match_report_gives_win_rates_that_are_shares(
        bench: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = _run(bench, capsys, monkeypatch, "--game", "matches", "--level", "easy", "--deals", "1")
    rows = {ln.split()[0]: ln for ln in out.splitlines() if "difference" in ln}
    assert set(rows) == {"tarneeb", "tarneeb41", "trix"}
    for game, r in rows.items():
        win, _, n = _figure(r)
        assert n == 4 and 0.0 <= win <= 1.0
        assert _figure(r.split("difference ")[1])[:2] == (0.0, 0.0)  # easy against easy: the same matches
        # a team game: two of the four chairs win; trix: the first place shared out, 1 in all
        assert win * 4 == pytest.approx(2.0 if game != "trix" else 1.0)
