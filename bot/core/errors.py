"""Refusals of the table manager: a code plus parameters; the edge turns them into words."""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Any


@unique
class Refusal(StrEnum):
    """Why a request was refused (a :class:`TableError`'s code). The values are what the wire between
    processes carries and what ``bot/present/render/errors.py`` has a sentence for."""

    NO_TABLE = "no_table"
    TABLE_EXISTS = "table_exists"
    TABLE_FULL = "table_full"
    ALREADY_SEATED = "already_seated"
    NOT_SEATED = "not_seated"
    SEAT_TAKEN = "seat_taken"
    NOT_STARTED = "not_started"
    ALREADY_STARTED = "already_started"
    NOT_ALLOWED = "not_allowed"
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"
    FINISHED = "finished"
    NOT_OVER = "not_over"
    ILLEGAL = "illegal"
    BAD_ACTION = "bad_action"
    UNKNOWN_GAME = "unknown_game"
    BAD_OPTION = "bad_option"
    # refused by the dispatch (bot/core/service.py): who may ask, from where
    WRONG_TABLE = "wrong_table"
    BAD_LINK = "bad_link"
    LINK_EXPIRED = "link_expired"
    NOT_MEMBER = "not_member"
    LEFT_SEAT = "left_seat"
    ANONYMOUS = "anonymous"
    ADMINS_ONLY = "admins_only"
    GROUP_ONLY = "group_only"
    # duplicate challenges (bot/core/challenges.py)
    NO_CHALLENGE = "no_challenge"  # no open challenge here (or it has ended)
    CHALLENGE_EXISTS = "challenge_exists"  # the chat has an open challenge already
    CHALLENGE_PLAYED = "challenge_played"  # the person played every deal of it
    PRIVATE_ONLY = "private_only"  # one's figures across every chat: shown only in one's private chat
    SEASON_OVER = "season_over"  # ending a season that is no longer the running one (bot/core/seasons.py)
    HINTS_OFF = "hints_off"  # hints and reviews asked at a table that does not allow them (bot/core/advice.py)
    AI_BUSY = "ai_busy"  # no hint or review within the cap (the AI pool busy with the tables' moves)
    TOURNAMENT = "tournament"  # a tournament's rule (bot/core/tournaments.py); ``reason`` says which
    INTERNAL = "internal"
    # a command forwarded to the process that holds the table (bot/core/cluster/routing.py) got no answer in time:
    # not applied (route_timeout), or perhaps applied (route_unknown: its holder stopped mid-way)
    ROUTE_TIMEOUT = "route_timeout"
    ROUTE_UNKNOWN = "route_unknown"


#: Every refusal code (equal to its string: ``"stale" in CODES``).
CODES = frozenset(Refusal)


class TableError(Exception):
    """A refused request. Nothing was changed. ``code`` is a :class:`Refusal`."""

    def __init__(self, code: Refusal, **params: Any) -> None:
        try:
            code = Refusal(code)
        except ValueError:
            raise ValueError(f"unknown TableError code {code!r}") from None
        super().__init__(code.value if not params else f"{code.value} {params}")
        self.code = code
        self.params = params
