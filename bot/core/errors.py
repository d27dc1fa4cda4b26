"""Refusals of the table manager: a code plus parameters; the edge turns them into words."""

from __future__ import annotations

from typing import Any

CODES = frozenset(
    {
        "no_table", "table_exists", "table_full", "already_seated", "not_seated", "seat_taken",
        "not_started", "already_started", "not_allowed", "not_your_turn", "stale", "finished",
        "illegal", "bad_action", "unknown_game", "bad_option",
        # refused by the dispatch (bot/core/service.py): who may ask, from where
        "wrong_table", "bad_link", "link_expired", "not_member", "left_seat", "anonymous",
        "admins_only", "group_only", "internal",
        # a command forwarded to the process that holds the table (bot/core/cluster/routing.py) got no answer in time:
        # not applied (route_timeout), or perhaps applied (route_unknown: its holder stopped mid-way)
        "route_timeout", "route_unknown",
    }
)


class TableError(Exception):
    """A refused request. Nothing was changed. ``code`` is one of :data:`CODES`."""

    def __init__(self, code: str, **params: Any) -> None:
        if code not in CODES:
            raise ValueError(f"unknown TableError code {code!r}")
        super().__init__(code if not params else f"{code} {params}")
        self.code = code
        self.params = params
