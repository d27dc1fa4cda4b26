"""Trix (kingdoms), rules.md §3: contracts, doubling, the layout and the match state machine."""

from __future__ import annotations

from engine.trix.game import TrixGame

__all__ = ["TrixGame"]
