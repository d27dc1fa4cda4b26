"""Failures that the code logs and survives must still fail the tests.

The table manager logs and swallows an exception raised by a subscriber (a renderer bug must not
stop a table), and the AI players fall back to a simpler decision when they fail. In production
that is right; in tests it once hid a broken integration (every "your turn" message gone) until a
count happened to notice. So any such log record fails the test that produced it, unless the test
is marked ``expected_hidden_errors`` because provoking one is its point.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

#: (logger name prefix, message prefix) of the errors that are logged and survived
HIDDEN = (
    ("bot.core.tables", "a subscriber failed"),
    ("bot.core.tables", "table parked"),
    ("ai", "strong AI failed"),
    ("ai", "rule player failed"),
    ("bot.present.outbox", "outbox %s: delivering"),
    ("bot.present.outbox", "outbox callback failed"),
    ("bot.present.presenter", "presenting table"),
)


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = str(record.msg)
        if any(record.name.startswith(n) and text.startswith(m) for n, m in HIDDEN):
            self.seen.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture(autouse=True)
def _fail_on_hidden_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    collector = _Collector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield
    finally:
        root.removeHandler(collector)
    if collector.seen and request.node.get_closest_marker("expected_hidden_errors") is None:
        pytest.fail("an error was logged and survived:\n" + "\n".join(collector.seen[:5]), pytrace=False)


# A real PostgreSQL for the tests that need one (tests/pg.py): ``pg_server`` and ``pg_url``.
from tests.pg import pg_server, pg_url, report_unavailable  # noqa: E402, F401


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    report_unavailable(terminalreporter)  # one visible line when PostgreSQL was not available
