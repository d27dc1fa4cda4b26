"""The redaction filter of ``majlis run`` (bot/app/logs.py): no token in any formatted log line."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.app.logs import MASK, QUIET, RedactingFilter, Redactor, add_secrets, install_redaction, setup_logging

TG = "7012345678:AAHfakeFAKEfake_fake-FAKEfakeFAKEfak"  # shaped like a BotFather token; not a real one
DC = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GAbCdE.fakefakefakefakefakefakefakefake12"  # shaped like a Discord token


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A private logger tree writing formatted lines (tracebacks included) to a string."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    top = logging.getLogger("redaction-test")
    top.propagate = False
    top.setLevel(logging.DEBUG)
    top.addHandler(handler)
    handler.addFilter(RedactingFilter(Redactor([TG, DC, "short-secret"])))
    try:
        yield top, stream
    finally:
        top.removeHandler(handler)


def test_tokens_in_messages_arguments_and_urls_are_masked(captured: tuple[logging.Logger, io.StringIO]) -> None:
    top, stream = captured
    child = top.getChild("httpx")  # a child logger's records pass the handler's filter too
    child.info('HTTP Request: POST http://127.0.0.1:1/bot%s/getUpdates "HTTP/1.1 200 OK"', TG)
    top.warning("identify with %s", {"token": DC})
    top.info("configured: %s", "short-secret")
    out = stream.getvalue()
    assert TG not in out and DC not in out and "short-secret" not in out
    assert f"/bot{MASK}/getUpdates" in out
    assert out.count(MASK) == 3


def test_a_token_inside_an_exception_and_its_traceback_is_masked(
        captured: tuple[logging.Logger, io.StringIO]) -> None:
    top, stream = captured
    url = f"https://api.telegram.org/bot{TG}/sendMessage"
    try:
        raise RuntimeError(f"request to {url} failed")
    except RuntimeError:
        top.exception("sending failed")
    out = stream.getvalue()
    assert "Traceback" in out and "RuntimeError: request to" in out
    assert TG not in out
    assert f"/bot{MASK}/sendMessage" in out


def test_token_shapes_are_masked_even_when_not_configured() -> None:
    redact = Redactor()
    assert redact(f"token={TG}") == f"token={MASK}"
    assert redact(f"Authorization: Bot {DC}") == f"Authorization: Bot {MASK}"
    assert redact("POST http://h/bot123:TEST/getMe") == f"POST http://h/bot{MASK}/getMe"
    hook = "POST https://discord.com/api/v10/webhooks/1234/aW50ZXJhY3Rpb246dG9rZW46ZmFrZQ/messages/@original"
    assert redact(hook) == f"POST https://discord.com/api/v10/webhooks/1234/{MASK}/messages/@original"
    event = "WebSocket Event: {'op': 0, 'd': {'id': '11', 'token': 'tok-1100000000000000004', 'type': 2}}"
    assert redact(event) == f"WebSocket Event: {{'op': 0, 'd': {{'id': '11', 'token': '{MASK}', 'type': 2}}}}"
    # ordinary lines are left alone
    assert redact("table 12 seat 3 played QS at 12:30:45") == "table 12 seat 3 played QS at 12:30:45"


def test_setup_logging_quiets_the_http_clients_and_filters_the_root_handlers() -> None:
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), list(root.filters),
             {n: logging.getLogger(n).level for n in QUIET})
    import sys
    import threading

    hooks = (sys.excepthook, threading.excepthook)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root.addHandler(handler)
    try:
        setup_logging("DEBUG", [TG, None, DC])
        assert root.level == logging.DEBUG
        assert all(logging.getLogger(n).level == logging.WARNING for n in QUIET)
        logging.getLogger("httpx").info("HTTP Request: POST http://x/bot%s/getUpdates", TG)  # held back
        logging.getLogger("telegram.ext").debug("calling with %s", TG)
        out = stream.getvalue()
        assert "HTTP Request" not in out
        assert "calling with " + MASK in out and TG not in out
    finally:
        root.removeHandler(handler)
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        root.filters[:] = saved[2]
        for n, level in saved[3].items():
            logging.getLogger(n).setLevel(level)
        sys.excepthook, threading.excepthook = hooks
        logging.captureWarnings(False)


def test_install_redaction_is_not_doubled_on_a_handler() -> None:
    logger = logging.getLogger("redaction-twice")
    handler = logging.NullHandler()
    logger.addHandler(handler)
    try:
        install_redaction(Redactor([TG]), logger)
        install_redaction(Redactor([TG]), logger)
        assert sum(isinstance(f, RedactingFilter) for f in handler.filters) == 1
    finally:
        logger.removeHandler(handler)
        logger.filters.clear()


def test_a_webhook_secret_is_masked_by_shape_and_once_added(captured: tuple[logging.Logger, io.StringIO]) -> None:
    top, stream = captured
    secret = "Zk3_-secretFromTheDatabase0123456789abcdef"
    top.debug("Calling Bot API endpoint `setWebhook` with parameters `%s`",
              {"url": "https://x/tg", "secret_token": secret})
    top.debug("headers: %s", {"X-Telegram-Bot-Api-Secret-Token": secret})
    top.debug("X-Telegram-Bot-Api-Secret-Token: %s", secret)
    add_secrets("later-secret", logger=top)
    top.info("the stored one: %s", "later-secret")
    out = stream.getvalue()
    assert secret not in out and "later-secret" not in out
    assert out.count(MASK) == 4
