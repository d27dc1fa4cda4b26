"""The TypedDicts of bot/core/views.py, pinned to the engine: seeded random matches of each game, and
every view and every event the engine makes has exactly the keys its TypedDict allows, each value
of the type it names; every optional key and every event kind is seen at least once, so that the
types can drift from the engine in neither direction."""

from __future__ import annotations

import random
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import engine
from bot.core import views as V

#: Each game's views: ``view(seat)`` and ``view(None)``, and ``decision_view(seat)``.
VIEWS: dict[str, tuple[type, type]] = {
    "tarneeb": (V.TarneebView, V.TarneebView),
    "tarneeb41": (V.Tarneeb41View, V.Tarneeb41View),
    "trix": (V.TrixView, V.TrixDecisionView),
}
#: The option sets the matches are played with: between them, every optional key shows up.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "tarneeb": [{}, {"trump_mode": "exposed_sister_suit", "no_trump_allowed": True, "target": 41}],
    "tarneeb41": [{}, {"trump_mode": "hearts_fixed", "min_total": 13}],
    "trix": [{}, {"partnership": True, "partnership_expose_twos": True, "doubling_procedure": "sequential_public"},
             {"mode": "complex", "auto_pass_in_layout": False}],
}
ENGINE_EVENTS: dict[str, type] = {get_args(get_type_hints(cls)["type"])[0]: cls for cls in get_args(V.EngineEvent)}


Check = typing.Callable[[Any], "str | None"]  # a value's fault, or None


class Shapes:
    """Checks values against TypedDicts and remembers which keys of each TypedDict it has seen."""

    def __init__(self) -> None:
        self.seen: dict[Any, set[str]] = {}
        self._checks: dict[Any, Check] = {}

    def check(self, value: Any, tp: Any, where: str) -> None:
        """Raise AssertionError unless ``value`` is of type ``tp`` (TypedDicts: exactly their keys)."""
        fault = self._check(tp)(value)
        assert fault is None, f"{where}: {fault}"

    def unseen(self, tp: Any) -> set[str]:
        """The keys of ``tp`` no checked value had."""
        return (set(tp.__required_keys__) | set(tp.__optional_keys__)) - self.seen.get(tp, set())

    def _check(self, tp: Any) -> Check:
        check = self._checks.get(tp)
        if check is None:
            check = self._checks[tp] = self._make(tp)
        return check

    def _make(self, tp: Any) -> Check:
        if tp is Any:
            return lambda value: None
        if tp is None or tp is type(None):
            return lambda value: None if value is None else f"{value!r} is not None"
        origin, args = get_origin(tp), get_args(tp)
        if origin in (Union, types.UnionType):
            def union(value: Any) -> str | None:
                faults = []
                for arg in args:
                    fault = self._check(arg)(value)
                    if fault is None:
                        return None
                    faults.append(fault)
                return f"{value!r} is none of {tp}: {faults}"
            return union
        if origin is Literal:
            return lambda value: None if value in args else f"{value!r} is not one of {args}"
        if origin is list:
            def each(value: Any) -> str | None:
                if type(value) is not list:
                    return f"{value!r} is not a list"
                item = self._check(args[0])
                for i, x in enumerate(value):
                    fault = item(x)
                    if fault is not None:
                        return f"[{i}]: {fault}"
                return None
            return each
        if origin is dict:
            def pairs(value: Any) -> str | None:
                if type(value) is not dict:
                    return f"{value!r} is not a dict"
                key, item = self._check(args[0]), self._check(args[1])
                for k, x in value.items():
                    fault = key(k) or item(x)
                    if fault is not None:
                        return f"[{k!r}]: {fault}"
                return None
            return pairs
        if is_typeddict(tp):
            return self._typed_dict(tp)
        assert tp in (int, str, bool), f"no check for {tp}"
        return lambda value: None if type(value) is tp else f"{value!r} is not a {tp.__name__}"

    def _typed_dict(self, tp: Any) -> Check:
        required, allowed = set(tp.__required_keys__), set(tp.__required_keys__) | set(tp.__optional_keys__)
        hints = get_type_hints(tp)
        seen = self.seen.setdefault(tp, set())

        def fields(value: Any) -> str | None:
            if type(value) is not dict:
                return f"{value!r} is not a dict"
            keys = value.keys()
            if not required <= keys:
                return f"{tp.__name__} misses {sorted(required - keys)}"
            if not keys <= allowed:
                return f"{tp.__name__} has no {sorted(keys - allowed)}"
            for k, x in value.items():
                fault = self._check(hints[k])(x)
                if fault is not None:
                    return f".{k}: {fault}"
            seen.update(keys)
            return None
        return fields


def pick(g: Any, r: random.Random) -> str:
    """A random legal action, biased so that random matches end: low bids, frequent passes."""
    legal: list[str] = g.legal()
    if g.phase == "bid":
        passes = [a for a in legal if a == "pass"]
        if passes and r.random() < 0.7:
            return passes[0]
        bids = [a for a in legal if a not in passes]
        return r.choice(bids[:3] if passes else bids[-12:][:3])
    return r.choice(legal)


def play(game: str, options: dict[str, Any], seed: int, shapes: Shapes, *, views_every: int) -> None:
    """One seeded random match, every event checked, and the views at every ``views_every``-th step
    (at every step of the first deal); 0: no views."""
    full, decision = VIEWS[game]
    r = random.Random(seed)
    g: Any = engine.new_game(game, seed=seed, options=options)
    step = 0
    while True:
        where = f"{game} {options} seed {seed} step {step}"
        if views_every and (g.deal_no == 1 or step % views_every == 0 or g.to_act is None):
            for seat in (None, 0, 1, 2, 3):
                view = g.view(seat)
                shapes.check(view, full, f"{where} view({seat})")
                shapes.check(view, V.View, f"{where} view({seat})")
            if g.to_act is not None:
                shapes.check(g.decision_view(g.to_act), decision, f"{where} decision_view")
        if g.to_act is None:
            return
        for event in g.act(g.to_act, pick(g, r)):
            kind = event.get("type")
            assert kind in ENGINE_EVENTS, f"{where}: no TypedDict for the event {event!r}"
            shapes.check(event, ENGINE_EVENTS[kind], f"{where} {kind}")
        step += 1


def test_the_merged_view_has_exactly_the_keys_of_the_games_views() -> None:
    games = {k for full, decision in VIEWS.values() for tp in (full, decision) for k in get_type_hints(tp)}
    assert set(get_type_hints(V.View)) == games
    assert not V.View.__required_keys__


def test_every_event_kind_has_a_literal_type_of_its_own() -> None:
    for union in (V.EngineEvent, V.TableEvent):
        kinds = [get_args(get_type_hints(cls)["type"]) for cls in get_args(union)]
        assert all(len(k) == 1 for k in kinds)
        assert len({k[0] for k in kinds}) == len(kinds)
    assert set(get_args(V.Event)) == set(get_args(V.EngineEvent)) | set(get_args(V.TableEvent))


@pytest.mark.parametrize("game", sorted(VIEWS))
def test_every_view_and_event_of_seeded_matches_fits_its_typed_dict(game: str) -> None:
    shapes = Shapes()
    for i, options in enumerate(VARIANTS[game]):
        for seed in range(2):
            play(game, options, 100 * i + seed, shapes, views_every=9)
    full, decision = VIEWS[game]
    assert not shapes.unseen(full), f"{full.__name__}: never seen {sorted(shapes.unseen(full))}"
    assert not shapes.unseen(decision), f"{decision.__name__}: never seen {sorted(shapes.unseen(decision))}"
    parts = {"tarneeb": (V.AuctionBid, V.HighBid), "tarneeb41": (), "trix": (V.LayoutMove, V.Double)}[game]
    for tp in (*parts, V.Play, V.LastTrick, V.PastTrick):
        assert not shapes.unseen(tp), f"{tp.__name__}: never seen {sorted(shapes.unseen(tp))}"
    kinds = {tp for tp in shapes.seen if tp in ENGINE_EVENTS.values()}
    expected = {
        "tarneeb": {"card_played", "trick_taken", "deal_started", "bid_made", "passed", "auction_won",
                    "trump_chosen", "deal_thrown_in", "deal_scored", "match_over"},
        "tarneeb41": {"card_played", "trick_taken", "deal_started", "bid_made", "deal_thrown_in", "deal_scored",
                      "match_over"},
        "trix": {"card_played", "trick_taken", "deal_started", "deal_scored", "contract_chosen",
                 "doubling_opened", "card_doubled", "doubles_revealed", "layout_passed", "player_out", "match_over"},
    }[game]
    assert {k for k, tp in ENGINE_EVENTS.items() if tp in kinds} >= expected


def test_every_optional_key_of_an_event_is_seen_in_some_game() -> None:
    shapes = Shapes()
    for game in sorted(VIEWS):
        for i, options in enumerate(VARIANTS[game]):
            play(game, options, 7 + i, shapes, views_every=0)
    for tp in (*ENGINE_EVENTS.values(), V.DealSummary, V.Scores):
        assert tp in shapes.seen, f"{tp.__name__}: never seen"
        assert not shapes.unseen(tp), f"{tp.__name__}: never seen {sorted(shapes.unseen(tp))}"


def test_the_checker_refuses_a_missing_an_extra_and_a_mistyped_key() -> None:
    shapes = Shapes()
    good = {"type": "card_played", "seat": 1, "card": "QS"}
    shapes.check(good, V.CardPlayed, "good")
    for bad in ({"type": "card_played", "seat": 1}, {**good, "extra": 1}, {**good, "seat": "1"},
                {**good, "seat": True}, {**good, "type": "trick_taken"}):
        with pytest.raises(AssertionError):
            shapes.check(bad, V.CardPlayed, "bad")


def test_the_boundary_casts_only() -> None:
    g = engine.new_game("tarneeb", seed=1)
    view = g.view(None)
    assert typing.cast(Any, V.public_view(g)) == view
    assert V.seat_views(g) == g.view
    events = g.act(g.to_act, g.legal()[0])  # type: ignore[arg-type]
    assert V.events_of(events) is events
