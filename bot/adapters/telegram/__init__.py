"""Telegram adapter: Majlis tables in groups, hands in private chats (python-telegram-bot v22).

::

    app = build_application(token, manager, base_url=None)   # handlers, presenter, outbox transport
    await start_polling(app); ...; await stop_polling(app)

``majlis run --telegram`` runs it through :mod:`bot.app.runner`.
"""

from bot.adapters.telegram.app import build_application, start_polling, stop_polling
from bot.adapters.telegram.transport import TelegramTransport

__all__ = ["TelegramTransport", "build_application", "start_polling", "stop_polling"]
