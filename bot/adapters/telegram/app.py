"""Building and running the python-telegram-bot ``Application`` around a table manager."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from telegram import Bot, Update
from telegram.ext import Application, ApplicationBuilder, ContextTypes, MessageHandler, filters
from telegram.request import HTTPXRequest

from bot.adapters.telegram.commands import register_commands
from bot.adapters.telegram.common import Services, join_payload
from bot.adapters.telegram.handlers import Handlers
from bot.adapters.telegram.hands import GroupHands
from bot.adapters.telegram.ordering import PerChatProcessor
from bot.adapters.telegram.transport import TelegramTransport, group_dest
from bot.adapters.telegram.venues import register_topics
from bot.adapters.throttle import CommandLimits
from bot.core.identity import dm_dest
from bot.core.model import Person, TableSnapshot
from bot.present.challenge_notices import announce_challenges
from bot.present.keys import hand_key
from bot.present.season_notices import announce_seasons
from bot.present.tournament_notices import Brackets

if TYPE_CHECKING:
    from bot.core.clock import Clock
    from bot.core.manager import TableManager
    from bot.present.presenter import Presenter

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
    #: How long stopping waits for the outboxes to deliver what is queued (seconds).
    drain_seconds: float = 5.0


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
    start_manager: bool | Callable[[], Awaitable[None]] = True,
    close_manager: bool = True,
    set_commands: bool = True,
    concurrent_updates: int = 4,
    connection_pool_size: int = 8,
    outbox_pool_size: int = 32,
    presenter_factory: Callable[[TableManager, TelegramTransport, Clock | None], Presenter] | None = None,
    limits: CommandLimits | None = None,
) -> TgApp:
    """The Application: handlers installed; on ``initialize()`` the transport and presenter are made,
    the command menus set and the manager started (its tables restored and shown again).
    Use :func:`start_polling` / :func:`stop_polling`, which run those hooks.

    ``base_url`` points at a self-hosted Bot API server (or a test fake). ``outbox_clock`` paces
    the outboxes (the manager's clock by default). ``close_manager``: stopping closes it.
    ``limits``: how often one person may send commands and press buttons (bot/core/settings.py, on the
    manager's clock). ``start_manager`` may be a coroutine function, awaited instead of ``manager.start()`` once the
    presenter is subscribed (the runner's gate, when two bots share the manager).

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
    services = Services(manager=manager, limits=limits or CommandLimits())
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
        services.hands = GroupHands(manager, presenter.hubs["tg"], transport)
        # a season's end, posted once; each chat's standings message, edited after every counted match
        services.standings = announce_seasons(manager.seasons, presenter.hubs["tg"], "tg:", tables=manager,
                                              repo=manager.repo)
        announce_challenges(manager.challenges, manager.prefs, presenter.hubs["tg"], "tg:")
        # each tournament's message, edited in place, with its web page's button when the web runs
        services.brackets = Brackets(manager.tournaments, presenter.hubs["tg"], "tg:",
                                     link=lambda tour, t: services.tournament_link(tour, t)
                                     if services.tournament_link is not None else None)
        register_topics(app.bot, manager)  # a forum topic per tournament match (bot/adapters/telegram/venues.py)

        async def on_started(person: Person) -> None:
            await presenter.dm_restored(person.player_id)

        async def on_hand(person: Person, snap: TableSnapshot | None) -> None:
            if snap is not None and snap.seat_of(person.player_id) is not None:
                presenter.hubs["tg"].remember(dm_dest(person.player_id), hand_key(snap.table_id, person.player_id),
                                              None)  # forget the old message: the hand is sent anew
            await presenter.dm_restored(person.player_id)

        async def on_migrated(old: int, new: int) -> None:
            await manager.move_chat(group_dest(old), group_dest(new))

        services.on_started = on_started
        services.on_hand = on_hand
        services.on_lang = presenter.forget_player
        transport.on_migrated = on_migrated
        if set_commands:
            await register_commands(app.bot)
        if callable(start_manager):
            await start_manager()
        elif start_manager:
            await manager.start()

    async def post_stop(app: TgApp) -> None:
        # The manager first (no new moves or timers), then deliver what is queued while the HTTP
        # client is still open: cancelling a request in flight orphans its connection.
        if close_manager:
            await manager.close()
        if state.presenter is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(state.presenter.drain(), state.drain_seconds)
            await state.presenter.close()
        await outbox_bot.shutdown()

    app = builder.post_init(post_init).post_stop(post_stop).build()
    app.bot_data["majlis"] = state
    Handlers(services).install(app)

    async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Telegram's service message of a group that became a supergroup (in the old or the new chat)."""
        msg = update.effective_message
        if msg is None or state.transport is None:
            return
        if msg.migrate_to_chat_id:
            await state.transport.migrated(msg.chat.id, msg.migrate_to_chat_id)
        elif msg.migrate_from_chat_id:
            await state.transport.migrated(msg.migrate_from_chat_id, msg.chat.id)

    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate), group=-1)
    return app


def default_presenter(manager: TableManager, transport: TelegramTransport, clock: Clock | None, *,
                      hand_link: Any = None, table_link: Any = None) -> Presenter:
    from bot.present.presenter import Presenter

    def join_link(snap: TableSnapshot) -> str | None:
        if manager.prefs.hands(snap.table.chat_id) == "group":  # no private chat needed: join in the group
            return None
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


serve_polling = start_polling

#: The ``meta`` key of the install's webhook secret (made once; every worker on the database reads it).
WEBHOOK_SECRET_KEY = "telegram_webhook_secret"


@dataclass(frozen=True)
class Webhook:
    """Where PTB's webhook server listens and the address Telegram is told to post to."""

    url: str           # the public address (``setWebhook``); a proxy forwards it to listen:port
    listen: str = "127.0.0.1"
    port: int = 8443
    secret: str = ""   # checked in ``X-Telegram-Bot-Api-Secret-Token`` (403 when missing or wrong)

    @property
    def path(self) -> str:
        """The path served locally: the public address's own (the proxy keeps it)."""
        from urllib.parse import urlsplit

        return urlsplit(self.url).path or "/"


async def webhook_secret(repo: Any, configured: str | None = None,
                         hide: Callable[[str], None] | None = None) -> str:
    """The configured secret, else the install's: made on first use and kept in ``meta``
    (``set_meta_if_absent``: of racing workers the first one's wins for all).

    ``hide`` is given every candidate before it goes anywhere (the log redaction: a database
    driver may log a statement's parameters)."""
    if configured:
        return configured
    import secrets

    stored = await repo.get_meta(WEBHOOK_SECRET_KEY)
    if not stored:
        candidate = secrets.token_urlsafe(32)
        if hide is not None:
            hide(candidate)
        stored = await repo.set_meta_if_absent(WEBHOOK_SECRET_KEY, candidate)
    if hide is not None:
        hide(str(stored))
    return str(stored)


async def start_webhook(app: TgApp, hook: Webhook) -> None:
    """``initialize`` (+ ``post_init``) + ``start`` + PTB's webhook server (tornado) on
    ``hook.listen:hook.port``, after ``setWebhook(hook.url, secret_token=hook.secret)``.

    Stop with :func:`stop_polling` (the updater stops the server; the webhook itself stays set at
    Telegram, so that the other workers behind the same address keep receiving)."""
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    await app.start()
    assert app.updater is not None
    await app.updater.start_webhook(listen=hook.listen, port=hook.port, url_path=hook.path,
                                    webhook_url=hook.url, secret_token=hook.secret or None)

