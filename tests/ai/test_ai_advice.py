"""The hint's next best choice (ai/advice.py) for cards, Tarneeb bids and the classic trump choice,
and its text in both languages (bot/present/render/advice.py)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import engine
from ai import advice
from ai.advice import Hint
from ai.rules import RulePlayer
from ai.strong import dds
from bot.present.i18n import translator
from bot.present.render.advice import hint_text
from bot.present.render.cards import card_label

needs_dds = pytest.mark.skipif(not dds.available(), reason="the double-dummy solver endplay is not installed")


def _far() -> float:
    """A deadline no loaded machine reaches: the hints here are the counted, reproducible ones."""
    return time.monotonic() + 60.0


def _position(game: str, seed: int, want: Any) -> dict[str, Any]:
    """Play a deal by the rule player from ``seed`` until ``want(view)`` holds for the seat to act."""
    g = engine.new_game(game, seed=seed, dealer=0)
    rule = RulePlayer()
    rng = random.Random(seed)
    for _ in range(400):
        seat = g.to_act
        assert seat is not None
        view = g.view(seat)
        if want(view):
            return view
        g.act(seat, str(rule.decide(view, game, rng)))
    raise AssertionError("no such position")


def _choice_in(phase: str) -> Any:
    return lambda v: v.get("phase") == phase and len(v.get("legal") or []) > 2


def _check_compared(h: Hint | None, view: dict[str, Any], unit: str) -> Hint:
    assert h is not None
    legal = [str(a) for a in view["legal"]]
    assert h.action in legal and h.runner_up in legal and h.runner_up != h.action
    assert h.loss is not None and h.loss >= 0 and h.unit == unit and h.samples > 0 and not h.only
    return h


@needs_dds
@pytest.mark.slow
@pytest.mark.parametrize(("game", "unit"), [("tarneeb41", "tricks"), ("tarneeb", "points")])
def test_a_card_hint_names_a_different_next_best_card_with_a_loss_of_at_least_zero(game: str, unit: str) -> None:
    view = _position(game, 11, _choice_in("play"))
    first = _check_compared(advice.hint(view, game, seed=5, deadline=_far()), view, unit)
    assert advice.hint(view, game, seed=5, deadline=_far()) == first  # the same position and seed


@needs_dds
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_tarneeb41_bid_hint_names_the_next_best_bid_and_what_it_costs_in_points(seed: int) -> None:
    view = _position("tarneeb41", seed, _choice_in("bid"))
    first = _check_compared(advice.hint(view, "tarneeb41", seed=7, deadline=_far()), view, "points")
    assert first.runner_up is not None and first.runner_up.startswith("bid ")
    assert first.samples >= 8  # the simulation's minimum of kept deals
    assert advice.hint(view, "tarneeb41", seed=7, deadline=_far()) == first


@needs_dds
@pytest.mark.parametrize("seed", [1, 4])
def test_a_classic_bid_hint_compares_passing_and_the_lowest_bids(seed: int) -> None:
    view = _position("tarneeb", seed, lambda v: v.get("phase") == "bid" and "pass" in v["legal"])
    first = _check_compared(advice.hint(view, "tarneeb", seed=3, deadline=_far()), view, "points")
    lowest = sorted((a for a in view["legal"] if a.startswith("bid ")), key=lambda a: int(a[4:]))[:3]
    assert {first.action, first.runner_up} <= {"pass", *lowest}
    assert advice.hint(view, "tarneeb", seed=3, deadline=_far()) == first


@needs_dds
def test_a_classic_trump_hint_names_the_next_best_suit() -> None:
    view = _position("tarneeb", 2, lambda v: v.get("phase") == "trump")
    first = _check_compared(advice.hint(view, "tarneeb", seed=3, deadline=_far()), view, "points")
    assert first.action.startswith("trump ") and first.runner_up is not None and first.runner_up.startswith("trump ")


@pytest.mark.slow
def test_a_trix_contract_hint_names_the_next_best_contract_and_what_it_loses() -> None:
    view = _position("trix", 3, lambda v: v.get("phase") == "contract" and len(v["legal"]) > 1)
    first = _check_compared(advice.hint(view, "trix", seed=4, deadline=_far()), view, "points")
    assert first.action.startswith("contract ") and first.runner_up is not None
    assert first.runner_up.startswith("contract ") and first.samples == advice.CHOICE_SAMPLES
    assert advice.hint(view, "trix", seed=4, deadline=_far()) == first  # the same position and seed
    en = hint_text(first, translator("en"))
    assert en.startswith("Hint: choose ") and "less over what it usually scores" in en, en
    assert "اختر" in hint_text(first, translator("ar"))


@pytest.mark.slow
def test_a_trix_double_hint_compares_doubling_with_not_doubling() -> None:
    view = _position("trix", 2, lambda v: v.get("phase") == "double"
                     and any(a.startswith("double ") for a in v["legal"]))
    first = _check_compared(advice.hint(view, "trix", seed=4, deadline=_far()), view, "points")
    assert "done" in {first.action, first.runner_up} or (
        first.action.startswith("double ") and first.runner_up is not None and first.runner_up.startswith("double "))
    assert advice.hint(view, "trix", seed=4, deadline=_far()) == first
    text = hint_text(first, translator("en"))
    assert "doubl" in text.lower() and "{" not in text, text


def test_with_one_legal_move_the_hint_says_it_is_the_only_one() -> None:
    view = _position("tarneeb41", 6, lambda v: v.get("phase") == "play" and len(v["legal"]) == 1)
    h = advice.hint(view, "tarneeb41", seed=1, deadline=_far())
    assert h == Hint(view["legal"][0], only=True)
    label = card_label(view["legal"][0][5:], translator("en"))
    assert hint_text(h, translator("en")) == f"Hint: {label} is your only legal card."
    assert "الورقة الوحيدة" in hint_text(h, translator("ar"))
    assert hint_text(Hint("bid 7", only=True), translator("en")) == "Hint: 7 is your only legal move."
    assert "لا خيار لك سوى" in hint_text(Hint("bid 7", only=True), translator("ar"))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_hint_text_is_complete_in_both_languages(lang: str) -> None:
    t = translator(lang)
    hints = [Hint("bid 9", "bid 8", 1.34, "points", 60), Hint("pass", "bid 7", 0.5, "points", 2),
             Hint("trump S", "trump H", 2.0, "points", 1), Hint("bid 8", "pass", 0.0, "points", 60),
             Hint("play QS", "play 9S", 0.4, "tricks", 12), Hint("play QS", "play 9S", 1.5, "points", 12),
             Hint("play QS", "play 9S", 0.0, "tricks", 12), Hint("play QS", only=True), Hint("pass", only=True),
             Hint("bid 9"), Hint("pass"), Hint("trump S"),
             Hint("contract queens", "contract trix", 3.2, "points", 60),
             Hint("contract queens", "contract trix", 0.0, "points", 60),
             Hint("double KH", "done", 4.5, "points", 60), Hint("done", "double QS", 1.0, "points", 60),
             Hint("double QS", "double QD", 2.0, "points", 1), Hint("contract king")]
    for h in hints:
        text = hint_text(h, t)
        assert text and "{" not in text and "}" not in text, text
        assert len(text) <= 200, text  # a Telegram alert
    en = hint_text(hints[0], translator("en"))
    assert "1.3 points" in en and "60 deals" in en and "a bid of" in en
    if lang == "ar":
        assert "توزيعة" in hint_text(hints[0], t) and "التوزيعتين" in hint_text(hints[1], t)


def test_a_classic_hint_at_a_table_that_shows_levels_names_the_bid_as_a_level() -> None:
    t = translator("en")
    assert "a bid of 2," in hint_text(Hint("pass", "bid 8", 1.0, "points", 60), t, levels=True)
    assert "a bid of 8," in hint_text(Hint("pass", "bid 8", 1.0, "points", 60), t)
