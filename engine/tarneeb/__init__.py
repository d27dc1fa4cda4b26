"""Classic Tarneeb (rules.md §1): auction 7–13, trump chosen by the declarer, team scoring."""

from engine.tarneeb.game import TarneebGame

__all__ = ["TarneebGame"]
