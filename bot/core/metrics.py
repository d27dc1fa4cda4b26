"""Prometheus metrics of ``majlis run`` (one module: the rest of the code calls one function per event;
the HTTP side, ``/metrics`` and ``/healthz``, is :mod:`bot.app.health`).

Metrics (``prometheus-client``, in :data:`REGISTRY`):

- ``majlis_actions_total{reason}``: engine actions committed (``reason``: ``action`` a person's move,
  ``ai``, ``timeout``; the last move of a match counts under its own reason); its rate is actions/s;
- ``majlis_action_seconds``: a histogram of an action's latency, from taking the table's lock to
  the update being queued (the engine, the commit, the swap);
- ``majlis_ai_think_seconds{game}``: how long an AI seat's decision took (pool, thread or inline);
- ``majlis_rate_limited_total{platform}``: 429 answers (``RetryAfter``) the outboxes got;
- ``majlis_outbox_queue_depth{platform}``: messages waiting in the outboxes (read at each scrape);
- ``majlis_live_tables{status}``: tables held in memory that are a lobby or playing (at each scrape).
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.core.identity import platform_of

log = logging.getLogger(__name__)

# no *_created series: a scrape holds what the README lists, nothing more
disable_created_metrics()  # type: ignore[no-untyped-call]
REGISTRY = CollectorRegistry()

ACTIONS = Counter("majlis_actions", "Engine actions committed", ["reason"], registry=REGISTRY)
ACTION_SECONDS = Histogram(
    "majlis_action_seconds", "Latency of an action: table lock to update queued (engine, commit, swap)",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0), registry=REGISTRY)
AI_THINK = Histogram(
    "majlis_ai_think_seconds", "Time an AI seat took to decide", ["game"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 3.0), registry=REGISTRY)
RATE_LIMITED = Counter("majlis_rate_limited", "429 answers (retry after) the outboxes got", ["platform"],
                       registry=REGISTRY)
# The labelled series, made once: ``labels()`` hashes and locks on every call (2-3 % of a busy
# process's CPU when called per action). The three reasons are present from the first scrape, so
# rate() sees them start at 0.
_ACTIONS_BY = {kind: ACTIONS.labels(kind) for kind in ("person", "ai", "timeout")}
_AI_THINK_BY: dict[str, Any] = {}

_hubs: weakref.WeakSet[Any] = weakref.WeakSet()
_managers: weakref.WeakSet[Any] = weakref.WeakSet()


# ---------------------------------------------------------------------- what the code calls

def action(reason: str, seconds: float) -> None:
    """An engine action was committed (``bot/core/tables/pipeline.py``)."""
    series = _ACTIONS_BY.get(reason)
    if series is None:
        series = _ACTIONS_BY[reason] = ACTIONS.labels(reason)
    series.inc()
    ACTION_SECONDS.observe(seconds)


def rate_limited(dest: str) -> None:
    """An outbox got a 429 (``bot/present/outbox/queue.py``)."""
    RATE_LIMITED.labels(platform_of(dest)).inc()


class _Thinking:
    """``with ai_thinking(game):`` (a plain class: a generator-based context manager costs more,
    and it is entered once per AI move)."""

    __slots__ = ("series", "started")

    def __init__(self, series: Any) -> None:
        self.series = series
        self.started = 0.0

    def __enter__(self) -> None:
        self.started = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.series.observe(time.perf_counter() - self.started)


def ai_thinking(game: str) -> _Thinking:
    """Times an AI decision (``bot/core/tables/ai_runner.py``)."""
    series = _AI_THINK_BY.get(game)
    if series is None:
        series = _AI_THINK_BY[game] = AI_THINK.labels(game)
    return _Thinking(series)


def track_hub(hub: Any) -> None:
    """Count this outbox hub's waiting messages in ``majlis_outbox_queue_depth`` (weakly held)."""
    _hubs.add(hub)


def track_manager(manager: Any) -> None:
    """Count this table manager's live tables in ``majlis_live_tables`` (weakly held)."""
    _managers.add(manager)


class _Collected(Collector):
    """The gauges read at each scrape: outbox queue depth, live tables."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily("majlis_outbox_queue_depth", "Messages waiting in the outboxes",
                                  labels=["platform"])
        waiting: dict[str, int] = {}
        for hub in list(_hubs):
            for dest, box in list(hub.outboxes.items()):
                p = platform_of(dest)
                waiting[p] = waiting.get(p, 0) + box.pending()
        for p, n in sorted(waiting.items()):
            depth.add_metric([p], n)
        yield depth
        tables = GaugeMetricFamily("majlis_live_tables", "Tables in memory that are a lobby or playing",
                                   labels=["status"])
        counts = {"lobby": 0, "playing": 0}
        for manager in list(_managers):
            for table in list(manager.registry.tables.values()):
                if table.live:
                    counts[table.record.status] = counts.get(table.record.status, 0) + 1
        for status, n in sorted(counts.items()):
            tables.add_metric([status], n)
        yield tables


REGISTRY.register(_Collected())
