"""What the benchmark scripts share (a leading underscore: ``majlis bench`` does not run it)."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values`` (the nearest rank at or below; NaN when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
