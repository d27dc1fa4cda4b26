"""Moved to :mod:`bot.tables.restore`; kept so that ``from bot.restore import replay`` still works."""

from bot.tables.restore import new_game, rebuild_game, replay

__all__ = ["new_game", "rebuild_game", "replay"]
