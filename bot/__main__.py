"""``python -m bot``: the ``majlis`` command."""

from bot.app.cli.main import main

raise SystemExit(main())
