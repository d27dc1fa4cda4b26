"""The engine's one error type."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that the game refuses; the game is left unchanged.

    ``reason`` is a short machine-readable string (``"not_your_turn"``, ``"must_follow_suit"``,
    ``"bid_too_low"``, ``"unknown_action"``, ...); ``details`` carries the facts a renderer needs
    to explain it (for example ``{"expected": 2}`` or ``{"led": "H"}``).
    """

    def __init__(self, reason: str, message: str = "", **details: Any) -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.details: dict[str, Any] = details


class InvalidOptions(ValueError):
    """Unknown option names or values out of range, given to ``new_game``."""
