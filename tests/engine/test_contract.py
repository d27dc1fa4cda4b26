"""Conformance to docs/engine-contract.md and docs/architecture.md §1 for all three games."""

from __future__ import annotations

import inspect
import json
import random
from typing import Any

import pytest

import engine
from engine.base import Game

GAMES = [
    "tarneeb",
    "tarneeb41",
    "trix",
]
PHASES = {"bid", "trump", "double", "contract", "play", "over"}
COMMON_VIEW_KEYS = {
    "game",
    "phase",
    "seat",
    "to_act",
    "dealer",
    "deal_no",
    "hand_sizes",
    "trick",
    "leader",
    "last_trick",
    "tricks",
    "scores",
    "winner",
    "legal",
    "options",
}
GAME_VIEW_KEYS = {
    "tarneeb41": {"exposed", "trump", "bids", "target"},
    "tarneeb": {"bids", "high_bid", "passed", "declarer", "contract", "trump", "target"},
    "trix": {
        "kingdom",
        "owner",
        "deal_index",
        "contract",
        "contracts_left",
        "doubled",
        "layout",
        "finished",
        "taken",
        "deal_scores",
    },
}
EVENT_KEYS = {
    "deal_started": {"deal_no", "dealer", "first"},
    "bid_made": {"seat", "bid"},
    "passed": {"seat"},
    "auction_won": {"seat", "bid"},
    "trump_chosen": {"seat", "suit"},
    "deal_thrown_in": {"reason", "next_dealer"},
    "card_played": {"seat", "card"},
    "trick_taken": {"seat", "cards", "trick_no"},
    "deal_scored": {"deltas", "scores", "summary"},
    "match_over": {"winner", "scores"},
}
SCORE_KEYS = {"tarneeb": {"teams"}, "tarneeb41": {"players", "teams"}, "trix": {"players"}}


def play_match(game: str, seed: int, limit: int = 20_000) -> tuple[Any, list[dict[str, Any]]]:
    g: Any = engine.new_game(game, seed=seed, options={"target": 11} if game == "tarneeb41" else None)
    r = random.Random(seed)
    events: list[dict[str, Any]] = []
    for _ in range(limit):
        if g.to_act is None:
            break
        legal = g.legal()
        if g.phase == "bid" and "pass" in legal and r.random() < 0.7:
            a = "pass"
        elif g.phase == "bid":
            a = r.choice(legal[:3])
        else:
            a = r.choice(legal)
        events += g.act(g.to_act, a)
    return g, events


@pytest.mark.parametrize("game", GAMES)
def test_class_shape(game: str) -> None:
    cls = engine.game_class(game)
    assert issubclass(cls, Game) and cls.game_id == game
    params = inspect.signature(cls).parameters
    assert {"seed", "dealer", "deals", "options"} <= set(params)
    assert inspect.ismethod(cls.from_json)
    g = engine.new_game(game, seed=1, dealer=None, deals=None, options=None)
    assert isinstance(g.options, dict)  # type: ignore[attr-defined]
    assert type(g.clone()) is cls


def test_unknown_game_and_options_rejected() -> None:
    with pytest.raises(engine.InvalidOptions):
        engine.new_game("chess")
    for game in ("tarneeb", "tarneeb41"):
        with pytest.raises(engine.InvalidOptions):
            engine.new_game(game, options={"no_such_option": 1})
        with pytest.raises(engine.InvalidOptions):
            engine.new_game(game, dealer=4)
        with pytest.raises(engine.InvalidOptions):
            engine.new_game(game, deals=[[["AS"] * 13] * 4])


@pytest.mark.parametrize("game", GAMES)
def test_start_state(game: str) -> None:
    g = engine.new_game(game, seed=4)
    assert g.phase in PHASES and isinstance(g.to_act, int) and g.winner is None
    hands = [g.hand(s) for s in range(4)]
    assert all(len(h) == 13 for h in hands)
    assert len({c for h in hands for c in h}) == 52
    assert set(g.scores()) == SCORE_KEYS[game]
    legal = g.legal()
    assert legal and legal == g.legal()
    for a in legal:
        assert isinstance(a, str) and a.isascii() and len(a) <= 20 and a == " ".join(a.split())
    assert g.auto() in legal


@pytest.mark.parametrize("game", GAMES)
def test_views(game: str) -> None:
    g = engine.new_game(game, seed=4)
    for seat in (None, 0, 1, 2, 3):
        v = g.view(seat)
        json.dumps(v)
        assert set(v) >= COMMON_VIEW_KEYS, COMMON_VIEW_KEYS - set(v)
        assert GAME_VIEW_KEYS[game] <= set(v), GAME_VIEW_KEYS[game] - set(v)
        assert v["game"] == game and v["seat"] == seat and v["phase"] == g.phase
        if seat is None:
            assert "hand" not in v and v["legal"] == []
        else:
            assert v["hand"] == g.hand(seat)
            assert v["legal"] == (g.legal() if seat == g.to_act else [])


@pytest.mark.parametrize("game", GAMES)
def test_match_events_and_end(game: str) -> None:
    g, events = play_match(game, seed=2)
    assert g.to_act is None and g.phase == "over" and g.legal() == []
    assert isinstance(g.winner, list) and g.winner == sorted(g.winner) and g.winner
    assert [e["type"] for e in events].count("match_over") == 1 and events[-1]["type"] == "match_over"
    assert events[-1] == {"type": "match_over", "winner": g.winner, "scores": g.scores()}
    assert any(e["type"] == "deal_scored" for e in events)
    for e in events:
        json.dumps(e)
        want = EVENT_KEYS.get(e["type"])
        if want is not None:
            assert want <= set(e), (e["type"], want - set(e))
        if e["type"] == "deal_scored":
            assert set(e["deltas"]) == set(e["scores"]) == SCORE_KEYS[game]
        if e["type"] == "card_played":
            assert len(e["card"]) == 2
    with pytest.raises(engine.IllegalAction) as err:
        g.act(0, "pass")
    assert isinstance(err.value, ValueError) and err.value.reason


@pytest.mark.parametrize("game", GAMES)
def test_json_round_trip_continues_identically(game: str) -> None:
    g: Any = engine.new_game(game, seed=8)
    r = random.Random(1)
    for _ in range(77):
        legal = g.legal()
        if g.phase == "bid":
            g.act(g.to_act, "pass" if "pass" in legal and r.random() < 0.6 else r.choice(legal[:3]))
        else:
            g.act(g.to_act, r.choice(legal))
    twin = engine.load(json.loads(json.dumps(g.to_json())))
    assert twin.to_json() == g.to_json()
    for _ in range(300):
        if g.to_act is None:
            break
        a = g.auto()
        assert twin.auto() == a and twin.legal() == g.legal()
        assert twin.act(twin.to_act, a) == g.act(g.to_act, a)  # type: ignore[arg-type]
    assert twin.to_json() == g.to_json()


@pytest.mark.parametrize("game", GAMES)
def test_refusals_leave_game_unchanged(game: str) -> None:
    g = engine.new_game(game, seed=5)
    before = g.to_json()
    wrong = (g.to_act + 1) % 4  # type: ignore[operator]
    cases = [(wrong, g.legal()[0], "not_your_turn"), (g.to_act, "dance", "unknown_action")]
    cases += [(g.to_act, "play AS KS", "unknown_action"), (g.to_act, "bid 7 8", "unknown_action")]
    cases += [(9, g.legal()[0], None), (-1, g.legal()[0], None)]
    for seat, action, why in cases:
        with pytest.raises(engine.IllegalAction) as e:
            g.act(seat, action)  # type: ignore[arg-type]
        if why:
            assert e.value.reason == why
        assert g.to_json() == before


@pytest.mark.parametrize("game", ["tarneeb", "tarneeb41"])
def test_card_codes_parse_lower_case_and_10(game: str) -> None:
    g: Any = engine.new_game(game, seed=1, dealer=3)
    for a in ["bid 7", "pass", "pass", "pass", "trump S"] if game == "tarneeb" else ["bid 3"] * 4:
        g.act(g.to_act, a)
    a = g.legal()[0]
    code = a.split()[1]
    low = ("10" + code[1] if code[0] == "T" else code).lower()
    twin = g.clone()
    assert g.act(g.to_act, "play " + low) == twin.act(twin.to_act, a)


@pytest.mark.parametrize(
    "module",
    [
        "engine.cards",
        "engine.trick",
        "engine.tarneeb.game",
        "engine.tarneeb.scoring",
        "engine.tarneeb41.game",
        "engine.tarneeb41.scoring",
    ],
)
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("game_id", ["tarneeb", "tarneeb41"])
def test_decision_view_defaults_to_the_whole_view(game_id: str) -> None:
    """Games without a narrower one give the whole seat view (``Game.decision_view``)."""
    g = engine.new_game(game_id, seed=5)
    for _ in range(30):
        if g.to_act is None:
            break
        assert g.decision_view(g.to_act) == g.view(g.to_act)
        g.act(g.to_act, g.auto())
