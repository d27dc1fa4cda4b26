"""``majlis run``: one process, one repository, one table manager, one or both chat bots.

The runner owns the process's life:

1. open the repository once (a storage problem ends the run before anything is connected);
2. make one :class:`~bot.core.manager.TableManager` for every platform that runs (its
   ``chat_prefixes`` are those platforms', so a terminal match in the same database is left alone);
3. start each bot up to the point where its presenter is subscribed, then start the manager once
   (:class:`StartGate`): the live tables are restored and shown on every platform; then Telegram
   polls (or, with ``--webhook``, listens for Telegram's posts) and Discord connects to its gateway;
4. with ``MAJLIS_METRICS_PORT``, serve ``/metrics`` and ``/healthz`` (:mod:`bot.core.metrics`);
   wait for SIGTERM or SIGINT (or a bot that fails);
5. stop: Telegram stops polling, the manager stops its timers and waits for the moves in flight,
   the outboxes of both bots are drained in parallel within ``shutdown_grace`` seconds (default 10),
   the bots disconnect, the repository is closed; the exit code is 0 (1 if a bot failed).

Signals are taken by this module only (the bots' libraries never install their own handlers
here), so one SIGTERM from systemd or docker stops everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from bot.core import identity
from bot.core.settings import ManagerSettings, lease_owner

if TYPE_CHECKING:
    from bot.app.config import Config
    from bot.core.manager import TableManager
    from storage.repository import Repository

log = logging.getLogger(__name__)

#: Seconds each closing step besides the drain may take before the runner gives up on it.
STEP_TIMEOUT = 10.0
#: Seconds a chat's table waits after each deal before an AI opens the next, so that people (in the
#: chat, on the web page's result panel) read the result; short, since nobody can end it for the others.
CHAT_DEAL_PAUSE = 3.0


class BotFailed(Exception):
    """A bot could not start or stopped by itself (the message says which and why)."""


def manager_settings(config: Config, prefixes: tuple[str, ...]) -> ManagerSettings:
    """The manager's settings for the bots: the configured pace, timer and chat defaults."""
    return ManagerSettings(ai_delay=config.ai_delay, deal_pause=min(CHAT_DEAL_PAUSE, 3 * config.ai_delay),
                           default_turn_seconds=config.turn_seconds,
                           default_ai_level=config.ai_level, default_digits=config.digits,
                           chat_prefixes=prefixes, owner=lease_owner(config.db),
                           lease_seconds=config.lease_seconds, heartbeat_seconds=config.lease_seconds / 3)


class StartGate:
    """Starts the shared manager once, after every bot has subscribed its presenter.

    ``TableManager.start`` restores the live tables and announces each once, to the subscribers
    present at that moment; so each bot calls :meth:`arrive` when its presenter is in place, and
    every caller returns once the restore is done.
    """

    def __init__(self, manager: TableManager, parties: int) -> None:
        self.manager = manager
        self.parties = parties
        self.arrived = 0
        self._all = asyncio.Event()
        self._lock = asyncio.Lock()
        self.started = False

    async def arrive(self) -> None:
        self.arrived += 1
        if self.arrived >= self.parties:
            self._all.set()
        await self._all.wait()
        async with self._lock:
            if not self.started:
                await self.manager.start()
                self.started = True
                from bot.core.settings import tune_gc

                tune_gc()  # after the restore: fewer, later collections keep the p99 of an action low


@dataclass
class _Bot:
    name: str
    start: Callable[[], Awaitable[None]]   # returns once the bot is serving (or raises)
    stop: Callable[[float], Awaitable[None]]  # drain within the seconds given, disconnect
    done: asyncio.Future[Any] | None = None  # finishes if the bot stops by itself
    connected: Callable[[], Awaitable[tuple[bool, str]]] | None = None  # /healthz: (ok, what is wrong)
    extra: dict[str, Any] = field(default_factory=dict)


def _telegram(config: Config, manager: TableManager, gate: StartGate, front: Any) -> _Bot:
    from bot.adapters.telegram.app import (
        RUN_CONCURRENCY,
        Webhook,
        build_application,
        default_presenter,
        serve_polling,
        start_webhook,
        stop_polling,
        webhook_secret,
    )

    os.environ.setdefault("PTB_TIMEDELTA", "1")
    assert config.telegram_token

    def presenter(m: TableManager, transport: Any, clock: Any) -> Any:
        return default_presenter(m, transport, clock, hand_link=front.telegram_button if front else None,
                                 table_link=front.watch_button if front else None)

    app = build_application(
        config.telegram_token, manager, base_url=config.telegram_base_url,
        concurrent_updates=config.telegram_concurrent_updates or RUN_CONCURRENCY,
        outbox_pool_size=config.telegram_outbox_pool_size or 32,
        start_manager=gate.arrive, close_manager=False, presenter_factory=presenter, limits=config.limits())
    if front is not None:  # /profile's card offers the person's page on the web table
        app.bot_data["majlis"].services.profile_link = front.profile_link
        app.bot_data["majlis"].services.tournament_link = front.tournament_button

    async def start() -> None:
        if not config.telegram_webhook:
            await serve_polling(app)
            log.info("telegram: polling as @%s", app.bot.username)
            return
        from bot.app.logs import add_secrets

        assert config.telegram_webhook_url  # checked by the command line
        # hidden from the log before anything can write it (PTB logs setWebhook's parameters at DEBUG)
        secret = await webhook_secret(manager.repo, config.telegram_webhook_secret, hide=add_secrets)
        hook = Webhook(config.telegram_webhook_url, config.telegram_webhook_listen, config.telegram_webhook_port,
                       secret)
        await start_webhook(app, hook)
        log.info("telegram: webhook %s, listening on %s:%d%s as @%s", hook.url, hook.listen, hook.port, hook.path,
                 app.bot.username)

    async def stop(grace: float) -> None:
        app.bot_data["majlis"].drain_seconds = grace
        await stop_polling(app)

    async def connected() -> tuple[bool, str]:
        if not (app.running and app.updater is not None and app.updater.running):
            return False, "not running"
        await app.bot.get_me(read_timeout=2.0, connect_timeout=2.0, pool_timeout=1.0)  # the Bot API answers
        return True, ""

    bot = _Bot("telegram", start, stop, connected=connected)
    bot.extra["app"] = app
    return bot


def _discord(config: Config, manager: TableManager, gate: StartGate, front: Any) -> _Bot:
    from bot.adapters.discord import build_client, redirect

    assert config.discord_token
    token = config.discord_token
    redirect(config.discord_api_base, config.discord_gateway)
    options: dict[str, Any] = {}
    if front is not None:
        from bot.adapters.discord.components import activity_button
        from bot.app.config import discord_activity
        from bot.present.presenter import Presenter

        activity = discord_activity(config)
        if activity is not None:  # "Open table" under a table message opens it inside Discord
            front.server.settings = replace(front.server.settings, discord=activity)
            log.info("discord: the table opens inside Discord (an Activity of application %s)", activity.client_id)
        table_link = activity_button if activity is not None else front.watch_button

        def presenter(m: TableManager, transport: Any) -> Presenter:
            return Presenter(m, {"dc": transport}, table_link=table_link)

        options["presenter"] = presenter
    sharded = config.discord_sharded
    if config.discord_shards:  # this process runs some of the shards (bot.app.config.parse_shards)
        from bot.app.config import parse_shards

        options["shard_ids"], options["shard_count"] = parse_shards(config.discord_shards)
        sharded = True
        log.info("discord: shards %s of %s", options["shard_ids"], options["shard_count"])
    client = build_client(manager, sharded=sharded, start_manager=False, on_setup=gate.arrive,
                          limits=config.limits(), **options)
    if front is not None:
        client.handlers.web_link = front.discord_button
        client.handlers.profile_link = front.profile_link
        client.handlers.tournament_link = front.tournament_button
    task: asyncio.Task[None] | None = None
    ready = asyncio.Event()

    async def run_client() -> None:
        async with client:
            await client.start(token)

    async def start() -> None:
        nonlocal task
        task = asyncio.ensure_future(run_client())
        bot.done = task
        waiter = asyncio.ensure_future(client.wait_until_ready())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        if task.done():
            task.result()  # raises what stopped it
            raise BotFailed("the Discord client stopped while connecting")
        ready.set()
        user = client.user
        log.info("discord: connected as %s", user.name if user else "?")

    async def stop(grace: float) -> None:
        await client.shutdown(drain_seconds=grace)
        await client.close()
        if task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, STEP_TIMEOUT)

    async def connected() -> tuple[bool, str]:
        if not ready.is_set() or client.is_closed() or not client.is_ready():
            return False, "not connected"
        shards = getattr(client, "shards", None)  # AutoShardedClient: a ShardInfo per shard of this process
        closed = any(s.is_closed() for s in shards.values()) if shards else client.ws is None or not client.ws.open
        return (False, "gateway closed") if closed else (True, "")

    bot = _Bot("discord", start, stop, connected=connected)
    bot.extra["client"] = client
    return bot


class Runner:
    """One run of the bots (see the module's docstring). ``run()`` returns the exit code."""

    def __init__(self, config: Config, *, telegram: bool, discord: bool,
                 repo: Repository | None = None, install_signals: bool = True) -> None:
        if not (telegram or discord):
            raise ValueError("nothing to run")
        self.config = config
        self.want = {"telegram": telegram, "discord": discord}
        self.repo = repo
        self.install_signals = install_signals
        self.stop_requested = asyncio.Event()
        self.manager: TableManager | None = None
        self.bots: list[_Bot] = []
        self._signals = 0

    def request_stop(self, sig: signal.Signals | None = None) -> None:
        """Begin the orderly stop (what SIGTERM and SIGINT do)."""
        self._signals += 1
        if self._signals == 1:
            log.info("stopping (%s): draining the outboxes for up to %.0f s", sig.name if sig else "asked",
                     self.config.shutdown_grace)
        else:
            log.info("already stopping (%s)", sig.name if sig else "asked")
        self.stop_requested.set()

    async def run(self) -> int:
        from bot.core.manager import TableManager
        from bot.core.service import routed
        from storage import open_repository

        own_repo = self.repo is None
        repo = self.repo if self.repo is not None else await open_repository(
            self.config.db, durability=self.config.durability)
        try:
            # The bots write from their first move on: find out now whether they can (a database that
            # another process keeps locked fails here, after the busy timeout, as one clear line).
            await repo.set_meta_if_absent("first_run_at", f"{time.time():.0f}")
        except BaseException:
            if own_repo:
                await repo.close()
            raise
        from bot.app.startup import warn_missing_ai

        warn_missing_ai()  # loudly, at start, if the Tarneeb AI's solver cannot load
        loop = asyncio.get_running_loop()
        installed: list[signal.Signals] = []
        if self.install_signals:
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, self.request_stop, sig)
                    installed.append(sig)
        try:
            wanted = ((identity.TELEGRAM, "telegram"), (identity.DISCORD, "discord"))
            prefixes = tuple(identity.chat_prefix(p) for p, name in wanted if self.want[name])
            manager = self.manager = TableManager(repo, router=routed, settings=manager_settings(self.config, prefixes))
            gate = StartGate(manager, parties=sum(self.want.values()))
            from bot.adapters.web import service as web
            from bot.app.config import web_config

            # MAJLIS_WEB_URL: the web table beside the bots (Mini App, "Watch" and "Open table" links)
            front = await web.attach(manager, web_config(self.config),
                                     telegram_token=self.config.telegram_token if self.want["telegram"] else None)
            if front is not None:  # a flagged match's notice links its replay; a match's pings, the seats
                manager.tournaments.replay_link = front.replay_link
                manager.tournaments.seat_link = front.seat_link  # a match's players' seats, in their pings
            try:
                if self.want["telegram"]:
                    self.bots.append(_telegram(self.config, manager, gate, front))
                if self.want["discord"]:
                    self.bots.append(_discord(self.config, manager, gate, front))
                served = await self._metrics(repo, manager)
                try:
                    return await self._serve()
                finally:
                    if served is not None:
                        await served.close()
            finally:
                await web.detach(front)
        finally:
            for sig in installed:
                loop.remove_signal_handler(sig)
            if own_repo:
                await repo.close()
            log.info("stopped")

    async def _metrics(self, repo: Repository, manager: TableManager) -> Any:
        """``/metrics`` and ``/healthz`` (bot/app/health.py) when a port is configured; the server or None."""
        if self.config.metrics_port is None:
            return None
        from bot.app import health
        from bot.core import metrics

        metrics.track_manager(manager)

        async def storage() -> tuple[bool, str]:
            await repo.get_meta("first_run_at")
            return True, ""

        checks: dict[str, health.Check] = {"storage": storage}
        for b in self.bots:
            if b.connected is not None:
                checks[b.name] = b.connected
        server = health.MetricsServer(self.config.metrics_host, self.config.metrics_port, checks)
        try:
            await server.start()
        except OSError as e:
            await server.close()
            from bot.app.config import ConfigError

            raise ConfigError(f"MAJLIS_METRICS_PORT: cannot listen on {self.config.metrics_host}:"
                              f"{self.config.metrics_port} ({e.strerror or e})",
                              "choose a free port, or unset it") from None
        return server

    async def _serve(self) -> int:
        failed: str | None = None
        stopping: asyncio.Future[Any] = asyncio.ensure_future(self.stop_requested.wait())
        starts: dict[asyncio.Future[Any], _Bot] = {asyncio.ensure_future(b.start()): b for b in self.bots}
        try:
            pending: set[asyncio.Future[Any]] = set(starts)
            while pending and not stopping.done():
                done, pending = await asyncio.wait(pending | {stopping}, return_when=asyncio.FIRST_COMPLETED)
                pending.discard(stopping)
                for fut in done:
                    if fut is stopping:
                        continue
                    if fut.exception() is not None:
                        failed = self._failure(starts[fut].name, fut.exception())
                        break
                if failed:
                    break
            for fut in pending:
                fut.cancel()
            if not failed and not stopping.done():
                watch: dict[asyncio.Future[Any], _Bot] = {b.done: b for b in self.bots if b.done is not None}
                done, _ = await asyncio.wait({stopping, *watch}, return_when=asyncio.FIRST_COMPLETED)
                for fut in done:
                    if fut is not stopping:
                        exc = fut.exception() if not fut.cancelled() else None
                        failed = self._failure(watch[fut].name, exc or BotFailed("it stopped by itself"))
        finally:
            stopping.cancel()
            await self._shutdown()
        return 1 if failed else 0

    def _failure(self, name: str, exc: BaseException | None) -> str:
        from bot.app.cli.failures import describe

        text = describe(exc) if exc is not None else None
        log.error("%s bot failed: %s", name, text or f"{type(exc).__name__}: {exc}")
        return name

    async def _shutdown(self) -> None:
        grace = self.config.shutdown_grace
        for b in self.bots:  # stop taking updates first
            app = b.extra.get("app")
            if app is not None and app.updater is not None and app.updater.running:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(app.updater.stop(), STEP_TIMEOUT)
        if self.manager is not None:
            try:
                await asyncio.wait_for(self.manager.close(), STEP_TIMEOUT)
            except Exception:
                log.exception("closing the table manager failed")
        results = await asyncio.gather(
            *(asyncio.wait_for(b.stop(grace), grace + STEP_TIMEOUT) for b in self.bots), return_exceptions=True)
        for b, r in zip(self.bots, results, strict=True):
            if isinstance(r, BaseException):
                log.error("stopping the %s bot failed: %s: %s", b.name, type(r).__name__, r)


async def run(config: Config, *, telegram: bool, discord: bool) -> int:
    """Run the chosen bots until SIGTERM/SIGINT; the exit code."""
    return await Runner(config, telegram=telegram, discord=discord).run()
