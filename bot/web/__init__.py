"""The web adapter: the table in a browser, as a Telegram Mini App, and behind Discord links.

- :mod:`bot.web.server`: the aiohttp application (page, WebSocket, Mini App sign-in, replays);
- :mod:`bot.web.hub`: subscribes to the table manager, fans states out to open pages;
- :mod:`bot.web.view`: what one viewer is sent (their own view only, in their language);
- :mod:`bot.web.actions`: the one door through which a page changes a table;
- :mod:`bot.web.tokens` / :mod:`bot.web.links`: signed credentials and addresses;
- :mod:`bot.web.telegram_auth`: Telegram ``initData`` validation;
- :mod:`bot.web.local`: ``majlis web``.
"""
