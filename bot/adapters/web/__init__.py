"""The web adapter: the table in a browser, as a Telegram Mini App, and behind Discord links.

- :mod:`bot.adapters.web.server`: the aiohttp application (page, WebSocket, Mini App sign-in, replays);
- :mod:`bot.adapters.web.hub`: subscribes to the table manager, fans states out to open pages;
- :mod:`bot.adapters.web.view`: what one viewer is sent (their own view only, in their language);
- :mod:`bot.adapters.web.actions`: the one door through which a page changes a table;
- :mod:`bot.adapters.web.tokens` / :mod:`bot.adapters.web.links`: signed credentials and addresses;
- :mod:`bot.adapters.web.telegram_auth`: Telegram ``initData`` validation;
- :mod:`bot.adapters.web.local`: ``majlis web``.
"""
