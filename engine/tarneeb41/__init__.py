"""Syrian Tarneeb 41 (rules.md §2): exposed dealer card, personal bids 2–13, qualification at 41."""

from engine.tarneeb41.game import Tarneeb41Game

__all__ = ["Tarneeb41Game"]
