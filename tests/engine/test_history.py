"""Views carry the deal's completed tricks (``history``): public facts the AI seats reason from."""

from __future__ import annotations

import random

import pytest

import engine


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41", "trix"])
def test_view_history_lists_this_deals_tricks(game: str) -> None:
    rng = random.Random(1)
    g = engine.new_game(game, seed=3)
    taken: list[dict[str, object]] = []
    for _ in range(2000):
        seat = g.to_act
        if seat is None:
            break
        events = g.act(seat, rng.choice(g.legal()))
        for e in events:
            if e["type"] == "trick_taken":
                taken.append({"seat": e["seat"], "cards": e["cards"]})
            if e["type"] in ("deal_started",):
                taken = []
        if g.to_act is None:
            break
        for viewer in (None, g.to_act):
            history = g.view(viewer)["history"]
            assert [{"seat": h["seat"], "cards": h["cards"]} for h in history] == taken
            assert all(h["leader"] == h["cards"][0]["seat"] for h in history)
        # survives JSON and clone
        assert engine.load(g.to_json()).view(None)["history"] == g.view(None)["history"]
        assert g.clone().view(None)["history"] == g.view(None)["history"]
