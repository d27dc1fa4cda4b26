"""``/metrics`` and ``/healthz`` of ``majlis run``: the HTTP side of :mod:`bot.core.metrics`.

``majlis run`` starts :class:`MetricsServer` only when ``MAJLIS_METRICS_PORT`` (or ``[metrics] port``)
is set, on ``MAJLIS_METRICS_HOST`` (default 127.0.0.1): ``GET /metrics`` (the text format) and
``GET /healthz`` (200 and a small JSON when the storage answers and every bot is connected, else 503
with the same JSON naming what is wrong).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from prometheus_client import generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.core.metrics import REGISTRY

log = logging.getLogger(__name__)

#: A check of one part: ``(ok, detail)``.
Check = Callable[[], Awaitable[tuple[bool, str]]]
#: Seconds one health check may take before it counts as failed.
CHECK_TIMEOUT = 3.0


async def health(checks: dict[str, Check]) -> tuple[bool, dict[str, Any]]:
    """Run every check (in parallel, each bounded by :data:`CHECK_TIMEOUT`)."""

    async def one(check: Check) -> tuple[bool, str]:
        try:
            return await asyncio.wait_for(check(), CHECK_TIMEOUT)
        except TimeoutError:
            return False, "no answer"
        except Exception as e:
            return False, type(e).__name__

    names = list(checks)
    results = await asyncio.gather(*(one(checks[n]) for n in names))
    body = {n: ("ok" if ok else detail or "down") for n, (ok, detail) in zip(names, results, strict=True)}
    ok = all(ok for ok, _ in results)
    return ok, {"status": "ok" if ok else "unavailable", **body}


class MetricsServer:
    """``/metrics`` and ``/healthz`` on ``host:port`` (aiohttp, in the bot's event loop)."""

    def __init__(self, host: str, port: int, checks: dict[str, Check]) -> None:
        self.host, self.port, self.checks = host, port, checks
        self._runner: Any = None

    async def start(self) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("metrics: http://%s:%d/metrics and /healthz", self.host, self.port)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: Any) -> Any:
        from aiohttp import web

        return web.Response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: Any) -> Any:
        from aiohttp import web

        ok, body = await health(self.checks)
        return web.Response(text=json.dumps(body), status=200 if ok else 503, content_type="application/json")
