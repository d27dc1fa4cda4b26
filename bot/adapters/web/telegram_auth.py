"""Telegram Mini App sign-in: validating ``initData`` as Telegram's Mini App documentation says.

The data is a query string. ``secret_key = HMAC_SHA256(key="WebAppData", msg=bot_token)``; the
string to check is every received field but ``hash``, sorted by key, as ``key=value`` lines joined
with ``"\\n"`` (values URL-decoded); it is genuine when ``hex(HMAC_SHA256(secret_key, that)) == hash``.
``auth_date`` (epoch seconds) must not be older than ``max_age`` seconds, so that a copied
``initData`` stops working.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.adapters.web.tokens import Expired, Forged, Missing
from bot.core import identity

MAX_INIT_DATA = 4096
#: Seconds a Mini App sign-in stays valid by default (MAJLIS_WEB_TG_MAX_AGE).
DEFAULT_MAX_AGE = 3600


@dataclass(frozen=True, slots=True)
class TelegramUser:
    """The person Telegram vouches for."""

    user_id: int
    name: str
    language_code: str | None
    auth_date: int

    @property
    def player_id(self) -> str:
        """The platform-neutral id (``"tg:<user>"``)."""
        return identity.person_id(identity.TELEGRAM, self.user_id)


def check_string(fields: dict[str, str]) -> str:
    """The data-check-string of the fields (``hash`` left out)."""
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def init_data_hash(fields: dict[str, str], bot_token: str) -> str:
    """The hex HMAC Telegram puts in ``hash`` for these fields (also what tests sign with)."""
    secret_key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    return hmac.new(secret_key, check_string(fields).encode(), hashlib.sha256).hexdigest()


def validate_init_data(init_data: str | None, bot_token: str, *, now: float,
                       max_age: float = DEFAULT_MAX_AGE) -> TelegramUser:
    """The user of a genuine, fresh ``initData``; raises ``Missing``/``Forged``/``Expired``."""
    if not init_data:
        raise Missing("no initData")
    if len(init_data) > MAX_INIT_DATA:
        raise Forged("initData too long")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Forged("malformed initData") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Forged("a field given twice")
    given = fields.get("hash", "")
    if not given or not hmac.compare_digest(init_data_hash(fields, bot_token), given.lower()):
        raise Forged("bad initData hash")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise Forged("initData without a user") from None
    if now - auth_date > max_age or auth_date > now + 300:
        raise Expired("initData too old")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    lang = user.get("language_code")
    return TelegramUser(user_id=user_id, name=name or str(user.get("username") or user_id),
                        language_code=lang if isinstance(lang, str) else None, auth_date=auth_date)
