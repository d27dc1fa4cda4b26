"""The terminal table: ``majlis play`` (see :mod:`bot.adapters.terminal.app`)."""
