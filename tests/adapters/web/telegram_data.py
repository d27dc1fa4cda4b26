"""Telegram Mini App ``initData`` as Telegram signs it (for tests: any bot token)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from bot.adapters.web.telegram_auth import init_data_hash


def init_data(user_id: int, name: str, auth_date: int, bot_token: str, lang: str = "en") -> str:
    """A query string signed with ``bot_token``."""
    user = json.dumps({"id": user_id, "first_name": name, "language_code": lang}, separators=(",", ":"))
    fields = {"query_id": "AAHdF6IQAAAAAN0XohDhr8c", "user": user, "auth_date": str(auth_date)}
    return urlencode({**fields, "hash": init_data_hash(fields, bot_token)})
