"""Shared helpers for the engine tests, offered as the ``tk`` fixture (no module imports needed).

- ``tk.deal({seat: "AS KS ..."}, ...)``: a predetermined deal; unnamed cards fill the other seats
  in ascending order; ``last={seat: "7C"}`` puts a card last in that seat's list (the exposed card).
- ``tk.run(g, ["bid 7", "pass", ...])``: play actions for whoever is to act; returns all events.
- ``tk.steer(g, groups, goal)``: a deterministic search for a card play that ends the deal with
  exactly ``goal`` tricks per group (``groups[seat]`` names the group: teams or seats).
- ``tk.with_state(g, **fields)``: a copy of ``g`` loaded from its JSON with some fields changed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

import engine
from engine import cards as C
from engine.trick import TrickGame, action_code


class _Toolkit:
    @staticmethod
    def deal(hands: dict[int, str] | None = None, last: dict[int, str] | None = None) -> list[list[str]]:
        hands = hands or {}
        last = last or {}
        out: list[list[str]] = [[C.code(C.parse(x)) for x in hands.get(s, "").split()] for s in range(4)]
        tail = {s: C.code(C.parse(x)) for s, x in last.items()}
        used = {c for h in out for c in h} | set(tail.values())
        assert len(used) == sum(len(h) for h in out) + len(tail), "a card is named twice"
        free = [c for c in C.CODES if c not in used]
        for s in range(4):
            need = 13 - len(out[s]) - (1 if s in tail else 0)
            assert need >= 0
            out[s].extend(free[:need])
            del free[:need]
            if s in tail:
                out[s].append(tail[s])
        assert not free
        return out

    @staticmethod
    def run(g: engine.Game, actions: Sequence[str]) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for a in actions:
            assert g.to_act is not None
            events += g.act(g.to_act, a)
        return events

    @staticmethod
    def autoplay(g: engine.Game, until: Any = None, limit: int = 10_000) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for _ in range(limit):
            if g.to_act is None or (until is not None and until(g)):
                break
            events += g.act(g.to_act, g.auto())
        return events

    @staticmethod
    def steer(g: TrickGame, groups: Sequence[int], goal: Sequence[int], limit: int = 400_000) -> list[str]:
        """Card codes that, played from the start of the play phase, give ``goal`` tricks per group."""
        assert g.phase == "play" and g.trick_no == 0 and not g.trick
        ngroups = len(goal)
        nodes = 0

        def counts(s: TrickGame) -> list[int]:
            out = [0] * ngroups
            for seat in range(4):
                out[groups[seat]] += s.tricks[seat]
            return out

        def rec(s: TrickGame) -> list[int] | None:
            nonlocal nodes
            nodes += 1
            if nodes > limit:
                raise AssertionError("steer: no play found within the node limit")
            if not s.trick:
                have = counts(s)
                if any(h > w for h, w in zip(have, goal, strict=True)):
                    return None
                if sum(w - h for h, w in zip(have, goal, strict=True)) > 13 - s.trick_no:
                    return None
                if s.trick_no == 12:
                    lead = s.leader
                    last = [C.lowest(s.hands[(lead + i) & 3]) for i in range(4)]
                    w = (lead + C.trick_winner(last, s.trump)) & 3
                    have[groups[w]] += 1
                    return last if have == list(goal) else None
            for a in s.legal_ids():
                c = s.clone()
                c.step(a)
                r = rec(c)
                if r is not None:
                    return [a, *r]
            return None

        path = rec(g.clone())
        assert path is not None, "steer: the goal cannot be reached with this deal"
        return [action_code(a) for a in path]

    def scenario(
        self,
        game_id: str,
        actions: Sequence[str],
        groups: Sequence[int],
        goal: Sequence[int],
        *,
        dealer: int = 3,
        options: dict[str, Any] | None = None,
        state: dict[str, Any] | None = None,
        seeds: int = 60,
    ) -> tuple[engine.Game, list[dict[str, Any]]]:
        """The first seed whose deal, after ``actions``, can end with ``goal`` tricks per group.

        Returns the game after the whole deal was played and the events of the play.
        """
        for seed in range(seeds):
            g = engine.new_game(game_id, seed=seed, dealer=dealer, options=options)
            if state:
                g = self.with_state(g, **state)
            self.run(g, actions)
            assert isinstance(g, TrickGame)
            try:
                plays = self.steer(g, groups, goal, limit=20_000)
            except AssertionError:
                continue
            return g, self.run(g, plays)
        raise AssertionError("no seed gives that outcome")

    @staticmethod
    def with_state(g: engine.Game, **fields: Any) -> engine.Game:
        d = json.loads(json.dumps(g.to_json()))
        d.update(fields)
        return engine.load(d)

    @staticmethod
    def of_type(events: Sequence[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
        return [e for e in events if e["type"] == kind]


@pytest.fixture
def tk() -> _Toolkit:
    """The engine-test toolkit (see the module docstring)."""
    return _Toolkit()
