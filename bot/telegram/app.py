"""Building and running the python-telegram-bot ``Application`` around a table manager."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram import Bot
from telegram.ext import Application, ApplicationBuilder
from telegram.request import HTTPXRequest

from bot.presenter import dm_dest, hand_key
from bot.telegram.commands import register_commands
from bot.telegram.common import Services, join_payload
from bot.telegram.handlers import Handlers
from bot.telegram.ordering import PerChatProcessor
from bot.telegram.transport import TelegramTransport
from bot.types import Person, TableSnapshot

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.config import Config
    from bot.manager import TableManager
    from bot.presenter import Presenter

log = logging.getLogger(__name__)

TgApp = Application[Any, Any, Any, Any, Any, Any]
#: Updates handled at once by ``run`` (``[telegram] concurrent_updates`` in the config file): tables
#: have their own locks, so presses in different groups need not wait for each other.
RUN_CONCURRENCY = 16
#: ``getUpdates`` long-poll timeout (seconds) that ``run`` asks for.
POLL_TIMEOUT = 10


@dataclass
class Majlis:
    """What ``build_application`` wires: kept in ``application.bot_data["majlis"]``."""

    manager: TableManager
    services: Services
    presenter: Presenter | None = None
    transport: TelegramTransport | None = None


def file_url_of(base_url: str) -> str:
    """``http://h/bot`` → ``http://h/file/bot`` (the Bot API's file endpoint beside it)."""
    if base_url.endswith("/bot"):
        return base_url[: -len("/bot")] + "/file/bot"
    return base_url.rstrip("/") + "/file/bot"


def build_application(
    token: str,
    manager: TableManager,
    *,
    base_url: str | None = None,
    base_file_url: str | None = None,
    outbox_clock: Clock | None = None,
    start_manager: bool = True,
    close_manager: bool = True,
    set_commands: bool = True,
    concurrent_updates: int = 4,
    connection_pool_size: int = 8,
    outbox_pool_size: int = 32,
    presenter_factory: Callable[[TableManager, TelegramTransport, Clock | None], Presenter] | None = None,
) -> TgApp:
    """The Application: handlers installed; on ``initialize()`` the transport and presenter are made,
    the command menus set and the manager started (its tables restored and shown again).
    Use :func:`start_polling` / :func:`stop_polling`, which run those hooks.

    ``base_url`` points at a self-hosted Bot API server (or a test fake). ``outbox_clock`` paces
    the outboxes (the manager's clock by default). ``close_manager``: stopping closes it.

    The outboxes send through a second ``Bot`` with its own HTTP pool (``outbox_pool_size``), so
    that answering a button press never queues behind the table and hand updates of other groups;
    the Application's own pool (``connection_pool_size``) serves the handlers. httpcore scans every
    pooled connection on each request, so PTB's default of 256 costs more CPU than it saves.
    """
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = (
        Application.builder().token(token).concurrent_updates(PerChatProcessor(concurrent_updates))
        .connection_pool_size(connection_pool_size).pool_timeout(30.0))
    file_url = (base_file_url or file_url_of(base_url)) if base_url else None
    if base_url and file_url:
        builder = builder.base_url(base_url).base_file_url(file_url)
    outbox_request = HTTPXRequest(connection_pool_size=outbox_pool_size, pool_timeout=30.0)
    outbox_bot = (Bot(token, base_url=base_url, base_file_url=file_url, request=outbox_request)
                  if base_url and file_url else Bot(token, request=outbox_request))
    services = Services(manager=manager)
    state = Majlis(manager=manager, services=services)

    async def post_init(app: TgApp) -> None:
        await outbox_bot.initialize()
        transport = TelegramTransport(outbox_bot)
        services.transport = transport
        state.transport = transport
        factory = presenter_factory or default_presenter
        presenter = factory(manager, transport, outbox_clock)
        state.presenter = presenter
        services.sender = presenter.hubs["tg"]

        async def on_started(person: Person) -> None:
            await presenter.dm_restored(person.player_id)

        async def on_hand(person: Person, snap: TableSnapshot | None) -> None:
            if snap is not None and snap.seat_of(person.player_id) is not None:
                presenter.hubs["tg"].remember(dm_dest(person.player_id), hand_key(snap.table_id, person.player_id),
                                              None)  # forget the old message: the hand is sent anew
            await presenter.dm_restored(person.player_id)

        services.on_started = on_started
        services.on_hand = on_hand
        services.on_lang = presenter.forget_player
        if set_commands:
            await register_commands(app.bot)
        if start_manager:
            await manager.start()

    async def post_stop(app: TgApp) -> None:
        # The manager first (no new moves or timers), then deliver what is queued while the HTTP
        # client is still open: cancelling a request in flight orphans its connection.
        if close_manager:
            await manager.close()
        if state.presenter is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(state.presenter.drain(), 5.0)
            await state.presenter.close()
        await outbox_bot.shutdown()

    app = builder.post_init(post_init).post_stop(post_stop).build()
    app.bot_data["majlis"] = state
    Handlers(services).install(app)
    return app


def default_presenter(manager: TableManager, transport: TelegramTransport, clock: Clock | None, *,
                      hand_link: Any = None, table_link: Any = None) -> Presenter:
    from bot.presenter import Presenter

    def join_link(snap: TableSnapshot) -> str:
        return transport.start_link(join_payload(snap.table_id, manager))

    return Presenter(manager, {"tg": transport}, clock=clock, join_link=join_link, hand_link=hand_link,
                     table_link=table_link)


async def start_polling(app: TgApp, *, poll_interval: float = 0.0, poll_timeout: int = POLL_TIMEOUT) -> None:
    """``initialize`` (+ ``post_init``) + ``start`` + long polling (stop with :func:`stop_polling`).

    PTB runs ``post_init``/``post_stop`` only inside ``run_polling``; these two run them here.
    """
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=poll_interval, timeout=poll_timeout)


async def stop_polling(app: TgApp) -> None:
    """Stop polling and the application, run ``post_stop`` (drain the outboxes, close the manager),
    then shut down (the HTTP client last)."""
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
        if app.post_stop is not None:
            await app.post_stop(app)
    await app.shutdown()


async def run(config: Config) -> None:
    """``majlis run --telegram``: poll until SIGINT/SIGTERM, on the configured database.

    Reads the token and the optional Bot API base URL (``MAJLIS_TELEGRAM_TOKEN``,
    ``MAJLIS_TELEGRAM_BASE_URL``), and from the file's ``[telegram]`` table ``concurrent_updates``
    and ``outbox_pool_size``.
    """
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    if not config.telegram_token:
        raise ValueError("MAJLIS_TELEGRAM_TOKEN is not set")
    from bot.manager import TableManager
    from bot.settings import ManagerSettings, tune_gc
    from storage import open_repository

    repo = await open_repository(config.db, durability=config.durability)
    manager = TableManager(repo, settings=ManagerSettings(
        ai_delay=config.ai_delay, default_turn_seconds=config.turn_seconds, chat_prefixes=("tg:",)))
    section = config.section("telegram")
    from bot.web import service as web

    front = await web.attach(manager, config, telegram_token=config.telegram_token)  # MAJLIS_WEB_URL: Mini App

    def presenter(m: TableManager, transport: TelegramTransport, clock: Clock | None) -> Presenter:
        return default_presenter(m, transport, clock, hand_link=front.telegram_button if front else None,
                                 table_link=front.watch_button if front else None)

    app = build_application(config.telegram_token, manager, base_url=config.telegram_base_url,
                            concurrent_updates=int(section.get("concurrent_updates", RUN_CONCURRENCY)),
                            outbox_pool_size=int(section.get("outbox_pool_size", 32)),
                            presenter_factory=presenter)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await start_polling(app)
        tune_gc()  # after the restore: fewer, later collections keep the p99 of an action low
        log.info("telegram: polling as @%s", app.bot.username)
        await stop.wait()
    finally:
        await stop_polling(app)
        await web.detach(front)
        await repo.close()
