"""Join invitations that cannot be guessed: the table id signed with an HMAC under a per-install secret.

The secret is created on the first start and kept in the database (``meta`` key ``link_secret``),
so links survive restarts and differ between installs. A payload is ``j<table_id>_<signature>``:
only ``[A-Za-z0-9_-]`` and far below Telegram's 64-character ``/start`` parameter.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from bot.core.errors import Refusal, TableError
from bot.core.identity import ascii_int
from storage.repository import Repository

SECRET_KEY = "link_secret"
JOIN_PREFIX = "j"
_SIG_CHARS = 22  # 132 bits of base64url: j<id>_<sig> stays far below Telegram's 64 characters


class Links:
    """Signs and checks the lobby's join invitations (Telegram ``/start`` payloads)."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    @classmethod
    async def load(cls, repo: Repository) -> Links:
        """The install's links, with the secret read from storage (created on the first start)."""
        value = await repo.set_meta_if_absent(SECRET_KEY, secrets.token_urlsafe(32))
        return cls(value.encode())

    def _sig(self, table_id: int) -> str:
        mac = hmac.new(self._secret, f"join:{table_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode()[:_SIG_CHARS].replace("=", "")

    def join_payload(self, table_id: int) -> str:
        """``j<table_id>_<signature>``: only [A-Za-z0-9_-], at most 64 characters."""
        return f"{JOIN_PREFIX}{table_id}_{self._sig(table_id)}"

    def table_of(self, payload: str) -> int:
        """The table a join payload invites to; ``TableError(Refusal.BAD_LINK)`` unless it is ours and intact."""
        body = payload[len(JOIN_PREFIX):] if payload.startswith(JOIN_PREFIX) else None
        number, _, sig = (body or "").partition("_")
        table_id = ascii_int(number)
        if table_id is None or table_id <= 0 or len(sig) != _SIG_CHARS \
                or not hmac.compare_digest(sig, self._sig(table_id)):
            raise TableError(Refusal.BAD_LINK)
        return table_id
