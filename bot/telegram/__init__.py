"""Telegram adapter: Majlis tables in groups, hands in private chats (python-telegram-bot v22).

::

    app = build_application(token, manager, base_url=None)   # handlers, presenter, outbox transport
    await start_polling(app); ...; await stop_polling(app)
    await run(config)                                          # `majlis run --telegram`
"""

from bot.telegram.app import build_application, run, start_polling, stop_polling
from bot.telegram.transport import TelegramTransport

__all__ = ["TelegramTransport", "build_application", "run", "start_polling", "stop_polling"]
