"""Whose turn it is, in words: the one place a phase becomes a sentence (the table message, the web
table and the terminal through :func:`turn_line`, the "your turn" ping through :func:`turn_sentence`)."""

from __future__ import annotations

from typing import Any

from bot.core.model import TableSnapshot
from bot.core.views import Phase
from bot.present.i18n import T
from bot.present.render.common import seat_name, viewer


def turn_sentence(phase: Any, t: T, *, name: str | None = None, at: tuple[int, str] | None = None) -> str:
    """What the one to act does now, by ``phase``:

    - ``name``: someone's turn, said to everyone ("Turn: Sara to bid");
    - ``at`` (table id, game name): the reader's, in a message away from the table ("Your turn to bid
      at table 12 (Trix).");
    - neither: the reader's, at the table ("Your turn to bid.").
    """
    if name is not None:
        if phase == Phase.BID:
            return t.gettext("Turn: {name} to bid", name=name)
        if phase == Phase.TRUMP:
            return t.gettext("Turn: {name} to name the trump suit", name=name)
        if phase == Phase.CONTRACT:
            return t.gettext("Turn: {name} to choose the contract", name=name)
        return t.gettext("Turn: {name} to play", name=name)
    if at is not None:
        table, game = at
        if phase == Phase.BID:
            return t.gettext("Your turn to bid at table {table} ({game}).", table=table, game=game)
        if phase == Phase.TRUMP:
            return t.gettext("Name the trump suit at table {table} ({game}).", table=table, game=game)
        if phase == Phase.CONTRACT:
            return t.gettext("Choose your contract at table {table} ({game}).", table=table, game=game)
        if phase == Phase.DOUBLE:
            return t.gettext("You may double at table {table} ({game}).", table=table, game=game)
        return t.gettext("Your turn to play at table {table} ({game}).", table=table, game=game)
    if phase == Phase.BID:
        return t.gettext("Your turn to bid.")
    if phase == Phase.TRUMP:
        return t.gettext("Your turn to name the trump suit.")
    if phase == Phase.CONTRACT:
        return t.gettext("Your turn to choose the contract.")
    return t.gettext("Your turn to play.")


def turn_line(snapshot: TableSnapshot, phase: Any, seat: int | None, t: T, me: int | None = None) -> str:
    """The table's "whose turn" line: ``seat`` acts in ``phase`` (None: nobody, ""); ``me``: the one
    reader's seat, else the terminal's player (the one person of ``majlis play`` and ``majlis web``),
    whose turn is said in the second person. The doubling window names nobody."""
    me = viewer(snapshot, me)
    if phase == Phase.DOUBLE:
        if me is not None:  # one reader (the terminal): no private chats to speak of
            return t.gettext("Doubling is open: the holders of the cards that may be doubled decide.")
        return t.gettext("Doubling is open: the holders of the cards that may be doubled decide in private.")
    if seat is None:
        return ""
    if seat == me:
        return turn_sentence(phase, t)
    return turn_sentence(phase, t, name=seat_name(snapshot, seat, t))
