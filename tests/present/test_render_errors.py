"""Refusals in words: every table code and every engine reason, short, localized, with details."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from bot.core.errors import CODES
from bot.present.i18n import FSI, PDI, translator
from bot.present.render.errors import MAX_CHARS, known_reasons, reason_text, render_error

ROOT = Path(__file__).resolve().parents[2]
GENERIC = {"en": "That move is not allowed now."}


def engine_reasons() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        found |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


def test_every_reason_the_engines_raise_has_its_own_sentence() -> None:
    reasons = engine_reasons()
    assert {"not_your_turn", "must_follow_suit", "bid_too_low", "unknown_action"} <= reasons
    assert reasons - known_reasons() == set()


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_every_code_and_reason_reads_differently_from_the_generic_sentence(lang: str) -> None:
    t = translator(lang)
    generic = t.gettext("That move is not allowed now.")
    for code in CODES - {"illegal"}:
        text = render_error(code, {"detail": "target must be 31, 41 or 61" * 20}, t)
        assert text != generic and 0 < len(text) <= MAX_CHARS
    for reason in known_reasons():
        text = render_error("illegal", {"reason": reason}, t)
        assert text != generic and 0 < len(text) <= MAX_CHARS
    assert render_error("illegal", {"reason": "something_new"}, t) == generic
    assert render_error("no_such_code", {}, t) == generic


def test_details_from_a_real_refusal_are_used() -> None:
    g = engine.new_game("tarneeb", seed=1, dealer=0)
    with pytest.raises(engine.IllegalAction) as caught:
        g.act(g.to_act, "bid 6")
    e = caught.value
    assert render_error("illegal", {"reason": e.reason, **e.details}, translator("en")) == "A bid is from 7 to 13."
    g.act(g.to_act, "bid 9")
    with pytest.raises(engine.IllegalAction) as caught:
        g.act(g.to_act, "bid 8")
    e = caught.value
    assert reason_text(e.reason, e.details, translator("en")) == "Your bid must be at least 10."
    ar = reason_text(e.reason, e.details, translator("ar", digits="arabic"))
    assert f"{FSI}١٠{PDI}" in ar


def test_follow_suit_names_the_suit() -> None:
    assert render_error("illegal", {"reason": "must_follow_suit", "led": "H"}, translator("en")) == (
        "You must follow suit: play Hearts.")
    assert "كبة" in render_error("illegal", {"reason": "must_follow_suit", "led": "H"}, translator("ar"))
    assert render_error("illegal", {"reason": "not_in_hand", "card": "QS"}, translator("en")) == "You do not hold Q♠."
