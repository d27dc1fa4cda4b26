"""Telling listeners: every one is called, in order, and one that fails is logged and passed over.

A listener shows something (a table's message, a bracket, a season's summary); its failure must not
stop the change it hears of nor the listeners after it (the table manager, the seasons, the
tournaments and the challenges all tell theirs this way).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

V = TypeVar("V")


async def tell(listeners: Iterable[Callable[[V], Awaitable[Any]]], value: V, log: logging.Logger,
               failed: str, *args: object) -> None:
    """Call each of ``listeners`` with ``value``; a failure is logged on ``log`` as ``failed % args``."""
    for listener in list(listeners):
        try:
            await listener(value)
        except Exception:
            log.exception(failed, *args)
