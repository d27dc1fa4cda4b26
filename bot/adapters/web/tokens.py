"""Signed web credentials: who may open which table as whom, until when.

A credential is ``v1.<payload>.<signature>``: the payload is compact JSON in URL-safe base64
(``k`` kind, ``t`` table id, ``s`` seat, ``p`` player id, ``l`` league, ``e`` expiry in epoch seconds), the
signature the first 16 bytes of HMAC-SHA256 over ``v1.<payload>`` under the install's secret. Kinds:

- ``play``: the person ``p`` in seat ``s`` of table ``t`` (their own hand, their moves);
- ``watch``: the public view of table ``t`` (spectators);
- ``replay``: the story of finished table ``t``;
- ``profile``: the profile page of person ``p`` in league ``l`` (a Telegram group, a Discord
  server), or across every chat when ``l`` is null (given only to the person themselves, in their
  private chat: bot/core/service.py). ``t`` is 0; ``l`` is always present, so that a league's
  link can never be read as an across-chats one;
- ``tournament``: the page of tournament ``t`` (its bracket or standings: public to whoever has
  the link, which sits under the tournament's message in its group).

Nothing in a credential is trusted before :func:`verify` checked its signature and expiry; the
seat it names is checked again against the live table on every connection and every move.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

VERSION = "v1"
KINDS = ("play", "watch", "replay", "profile", "tournament")
_KIND_CODE = {"play": "p", "watch": "w", "replay": "r", "profile": "f", "tournament": "b"}
_CODE_KIND = {v: k for k, v in _KIND_CODE.items()}
SIG_BYTES = 16
MAX_TOKEN = 600
#: The ``meta`` key of the install's secret (shared with the signed join links, bot/core/links.py).
SECRET_META_KEY = "link_secret"


class CredentialError(Exception):
    """A credential that cannot be used; ``status`` is the HTTP answer (401 or 403)."""

    status = 403


class Missing(CredentialError):
    """No credential at all."""

    status = 401


class Expired(CredentialError):
    """A genuine credential whose time is over (open the link again from the chat)."""

    status = 401


class Forged(CredentialError):
    """A credential that is malformed or whose signature does not match."""

    status = 403


@dataclass(frozen=True, slots=True)
class Grant:
    """What a verified credential allows."""

    kind: str
    table_id: int
    seat: int | None = None
    player_id: str | None = None
    expires: float = 0.0
    #: A profile's league (None: across every chat); only in ``profile`` grants.
    league: str | None = None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sig(secret: bytes, body: str) -> str:
    return _b64(hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()[:SIG_BYTES])


def sign(secret: bytes, grant: Grant) -> str:
    """The credential for ``grant`` (its ``expires`` is absolute, epoch seconds)."""
    if grant.kind not in KINDS:
        raise ValueError(f"unknown credential kind {grant.kind!r}")
    payload: dict[str, Any] = {"k": _KIND_CODE[grant.kind], "t": grant.table_id, "e": int(grant.expires)}
    if grant.seat is not None:
        payload["s"] = grant.seat
    if grant.player_id is not None:
        payload["p"] = grant.player_id
    if grant.kind == "profile":
        if grant.player_id is None:
            raise ValueError("a profile credential names its person")
        payload["l"] = grant.league
    body = VERSION + "." + _b64(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
    return body + "." + _sig(secret, body)


def verify(secret: bytes, token: str | None, now: float) -> Grant:
    """The grant of a genuine, unexpired credential; :class:`CredentialError` otherwise."""
    if not token:
        raise Missing("no credential")
    if len(token) > MAX_TOKEN or not token.isascii() or token.count(".") != 2:
        raise Forged("malformed credential")
    version, payload, sig = token.split(".")
    if version != VERSION:
        raise Forged("unknown credential version")
    if not hmac.compare_digest(_sig(secret, f"{version}.{payload}"), sig):
        raise Forged("bad signature")
    try:
        data = json.loads(_unb64(payload))
        kind = _CODE_KIND[data["k"]]
        table_id = data["t"]
        expires = data["e"]
        seat = data.get("s")
        player = data.get("p")
        league = data.get("l")
    except (ValueError, KeyError, TypeError):
        raise Forged("malformed payload") from None
    if type(table_id) is not int or type(expires) is not int:
        raise Forged("malformed payload")
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        raise Forged("malformed payload")
    if kind == "play" and (seat is None or not isinstance(player, str)):
        raise Forged("malformed payload")
    if kind == "profile" and (not isinstance(player, str) or "l" not in data
                              or not isinstance(league, str | None) or seat is not None):
        raise Forged("malformed payload")
    if kind != "profile" and "l" in data:
        raise Forged("malformed payload")
    if expires < now:
        raise Expired("credential expired")
    return Grant(kind=kind, table_id=table_id, seat=seat, player_id=player, expires=float(expires),
                 league=league if kind == "profile" else None)


async def install_secret(repo: Any) -> bytes:
    """The web's signing key, derived from the install's one secret.

    The secret is the one the join invitations use (``meta`` key :data:`SECRET_META_KEY`, made on
    first use with ``set_meta_if_absent``, so every process of the install agrees on it); the web
    signs with ``HMAC(secret, "majlis web credentials")``, so a web credential and a join link can
    never stand for each other. A repository without ``set_meta_if_absent`` gets a secret for this
    process only: links it signs stop working when the process ends.
    """
    set_meta = getattr(repo, "set_meta_if_absent", None)
    if set_meta is None:
        return secrets.token_bytes(32)
    stored = str(await set_meta(SECRET_META_KEY, secrets.token_urlsafe(32)))
    return hmac.new(stored.encode(), b"majlis web credentials", hashlib.sha256).digest()
