"""The shared check of the Tarneeb rule tests: an action is refused and changes nothing."""

from __future__ import annotations

import pytest

import engine


def reason(g: engine.Game, seat: int, action: str) -> str:
    """Send ``action`` for ``seat``; assert it is refused with the game unchanged; return the reason."""
    before = g.to_json()
    with pytest.raises(engine.IllegalAction) as e:
        g.act(seat, action)
    assert g.to_json() == before
    return e.value.reason
