"""Logging of the long-running bots: one format, quiet HTTP clients, and no secret in any line.

:func:`setup_logging` configures the root logger once for ``majlis run``. Every handler on the
root logger gets a :class:`RedactingFilter`, which rewrites each record before it is formatted: the
configured tokens, anything shaped like a Telegram bot token (``123456:ABC…``, also inside a Bot
API URL ``…/bot<token>/getUpdates``), a Discord token (``MTIz….Gx….abc…``) or a Discord interaction
token (in a webhook URL or a payload's ``token`` key), a Telegram webhook's secret token (the
install's, added with :func:`add_secrets` once it is read from the database; any ``secret_token``
key or ``X-Telegram-Bot-Api-Secret-Token`` header) become ``***``, in the
message, its arguments, the formatted traceback and the stack. httpx and httpcore log every
request URL at INFO (and the Bot API URL holds the token), so they are held at WARNING whatever
the configured level, and so is aiosqlite (it logs every statement's parameters).
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from collections.abc import Iterable
from types import TracebackType

MASK = "***"
#: The loggers held at WARNING whatever the configured level (they log request URLs; aiosqlite logs
#: every statement with its parameters at DEBUG, the install's secrets among them).
QUIET = ("httpx", "httpcore", "hpack", "websockets.client", "aiohttp.access", "aiosqlite")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

#: A bot token in a Bot API URL path: ``/bot<anything up to the next slash>``.
_URL_TOKEN = re.compile(r"(/bot)([^/\s?#\"']+)")
#: A Telegram bot token on its own: ``<bot id>:<35 characters>``.
_TG_TOKEN = re.compile(r"\b\d{5,}:[A-Za-z0-9_-]{30,}")
#: A Discord bot token: base64 user id, timestamp and HMAC joined by dots.
_DC_TOKEN = re.compile(r"\b[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}")
#: A Discord interaction token in a webhook or callback URL (it lets anyone answer for the bot).
_WEBHOOK_TOKEN = re.compile(r"(/(?:webhooks|interactions)/\d+/)([A-Za-z0-9_.:-]{16,})")
#: A ``token`` key of a logged payload (discord.py logs gateway events at DEBUG, with the token
#: of every interaction).
_KEYED_TOKEN = re.compile(
    r"""(['"](?:token|access_token|refresh_token|secret_token)['"]\s*:\s*['"])([^'"]+)(['"])""")
#: The header Telegram sends a webhook's secret token in (as a header line or a dict entry).
_SECRET_HEADER = re.compile(r"""(X-Telegram-Bot-Api-Secret-Token['"]?\s*[:=]\s*['"]?)([A-Za-z0-9_-]+)""",
                            re.IGNORECASE)


class Redactor:
    """Replaces the given secrets and anything that looks like a bot token with :data:`MASK`."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        self.secrets: list[str] = []
        self.add(*secrets)

    def add(self, *secrets: str | None) -> None:
        """Also hide these (empty and None values are ignored; the longest are replaced first)."""
        for s in secrets:
            if s and s not in self.secrets:
                self.secrets.append(s)
        self.secrets.sort(key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for s in self.secrets:
            if s in text:
                text = text.replace(s, MASK)
        text = _URL_TOKEN.sub(lambda m: m.group(1) + MASK if m.group(2) != MASK else m.group(0), text)
        text = _WEBHOOK_TOKEN.sub(lambda m: m.group(1) + MASK, text)
        text = _KEYED_TOKEN.sub(lambda m: m.group(1) + MASK + m.group(3), text)
        text = _SECRET_HEADER.sub(lambda m: m.group(1) + MASK, text)
        text = _TG_TOKEN.sub(MASK, text)
        return _DC_TOKEN.sub(MASK, text)


class RedactingFilter(logging.Filter):
    """A handler filter that rewrites every record so that no secret reaches the formatter.

    The message is formatted here (``msg % args``) and the traceback too, both redacted; the record
    keeps no reference to the original arguments, so no later formatter can print them.
    """

    def __init__(self, redactor: Redactor) -> None:
        super().__init__("majlis-redact")
        self.redactor = redactor
        self._formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_majlis_redacted", False):
            return True
        redact = self.redactor
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: keep what we can show
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        # the traceback objects hold the values too; the formatted text is all a formatter needs
        if record.exc_info:
            record.exc_info = None
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        record._majlis_redacted = True
        return True


def add_secrets(*secrets: str | None, logger: logging.Logger | None = None) -> None:
    """Also hide these in every record from now on (a secret read after logging was set up: the
    Telegram webhook's, from the database). Every :class:`RedactingFilter` on ``logger`` (the root
    logger by default) and its handlers learns them."""
    logger = logger or logging.getLogger()
    for f in [*logger.filters, *(f for h in logger.handlers for f in h.filters)]:
        if isinstance(f, RedactingFilter):
            f.redactor.add(*secrets)


def install_redaction(redactor: Redactor, logger: logging.Logger | None = None) -> RedactingFilter:
    """Put one :class:`RedactingFilter` on the logger itself and on each of its handlers."""
    logger = logger or logging.getLogger()
    filt = RedactingFilter(redactor)
    logger.addFilter(filt)
    for handler in logger.handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(filt)
    return filt


def setup_logging(level: str, secrets: Iterable[str | None] = ()) -> Redactor:
    """Root logging for the bots: ``level``, one line per record on standard error, no secrets.

    Uncaught exceptions (of the main thread and of other threads) go through logging too, so that
    they are redacted like everything else.
    """
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(handler)
    root.setLevel(level.upper())
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    redactor = Redactor(secrets)
    install_redaction(redactor, root)
    logging.captureWarnings(True)

    def excepthook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        logging.getLogger("majlis").critical("uncaught exception", exc_info=(kind, value, tb))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        logging.getLogger("majlis").critical("uncaught exception in thread %s",
                                             args.thread.name if args.thread else "?",
                                             exc_info=(args.exc_type, args.exc_value, args.exc_traceback))

    sys.excepthook = excepthook
    threading.excepthook = thread_hook
    return redactor
