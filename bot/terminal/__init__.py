"""The terminal table: ``majlis play`` (see :mod:`bot.terminal.app`)."""
