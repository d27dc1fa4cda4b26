"""What the terminal shows at the player's turn: the table, the hand with its keys, the choices.

The table's lines come from :func:`bot.present.render.table.table_lines` with the player's seat (second
person, "Us / Them"); the hand is drawn here, a suit to a row, each playable card with the key that
plays it, the others dimmed and without a key.
"""

from __future__ import annotations

from bot.adapters.terminal.choices import PASS_KEY, Menu
from bot.adapters.terminal.screen import DIM_OFF, DIM_ON
from bot.core.model import TableSnapshot
from bot.core.views import Phase, View
from bot.present.i18n import T
from bot.present.render.cards import SUIT_ORDER, SUIT_SYMBOL, by_suit, card_label, rank_glyph, sort_key
from bot.present.render.common import action_label, shown_bid
from bot.present.render.hand import bid_progress, prompt
from bot.present.render.table import table_lines


def display_order(legal: list[str]) -> list[str]:
    """Cards in the order the hand shows them (by suit, high to low), other actions as given."""
    plays = [c for c in legal if c.startswith(("play ", "double "))]
    if not plays:
        return legal
    rest = [c for c in legal if not c.startswith(("play ", "double "))]
    return sorted(plays, key=lambda c: sort_key(c.split()[1])) + rest


def menu_for(snap: TableSnapshot, legal: list[str], t: T) -> Menu:
    """The choices of a prompt, keyed (bids by their value as the table shows them)."""
    offset = 6 if shown_bid(snap, 13) == 7 else 0
    labels = {code: action_label(code, t, levels=offset == 6) for code in legal}
    return Menu(legal, labels, bid_offset=offset)


def hand_rows(view: View, menu: Menu | None, t: T) -> list[str]:
    """The hand, a suit to a row; with a card menu, each playable card's key before it."""
    keys = {c.code.split()[1]: c.key for c in menu.choices if c.code.startswith(("play ", "double "))} if menu else {}
    rows = []
    groups = by_suit(view.get("hand") or [])
    for suit in SUIT_ORDER:
        codes = groups.get(suit)
        if not codes:
            continue
        items = []
        for code in codes:
            rank = rank_glyph(code[0], t)
            if not keys:
                items.append(rank)
            elif code in keys:
                items.append(f"{keys[code]}·{rank}")
            else:
                items.append(f"{DIM_ON}{rank}{DIM_OFF}")
        rows.append(f"{SUIT_SYMBOL[suit]}  " + "  ".join(items))
    return rows or [t.gettext("No cards in your hand.")]


def hand_box(snap: TableSnapshot, view: View, menu: Menu | None, t: T) -> list[str]:
    """The right-hand box: the hand and what is asked of the player."""
    lines = hand_rows(view, menu, t)
    seat = view.get("seat")
    if view.get("game") == "tarneeb41" and view.get("phase") == Phase.PLAY and isinstance(seat, int):
        bid = (view.get("bids") or [None] * 4)[seat]
        if isinstance(bid, int):  # Tarneeb 41's bids: a bid or None by seat
            lines += ["", bid_progress(int(bid), int((view.get("tricks") or [0] * 4)[seat]), t)]
    mine = view.get("my_doubles") or []
    if mine:
        lines.append(t.gettext("You doubled: {cards}", cards=" ".join(card_label(c, t) for c in mine)))
    ask = prompt(view, t)
    if view.get("phase") == Phase.DOUBLE and ask:  # the chat bots' words speak of a button
        ask = t.gettext("Double a card by its letter, or choose Done.")
    if ask:
        lines += ["", ask]
    return lines


def table_box(snap: TableSnapshot, seat: int | None, t: T) -> list[str]:
    """The left-hand box: the public table as the player sees it."""
    return table_lines(snap, t, seat, compact=True)


def choices_line(menu: Menu, t: T) -> str:
    """The choices under the boxes: ``Bid: 7 8 9 … 13 · p pass`` or ``a King of Hearts · b Queens``."""
    if menu.is_bid:
        nums = " ".join(t.number(int(c.key)) for c in menu.choices if c.code.startswith("bid "))
        line = t.gettext("Bids: {bids}", bids=nums)
        if "pass" in menu.legal:
            line += " · " + t.gettext("{key} pass", key=PASS_KEY)
        return line
    if all(c.code.startswith(("play ", "double ")) or c.code in ("pass", "done") for c in menu.choices):
        extra = [f"{c.key} {c.label}" for c in menu.choices if c.code in ("pass", "done")]
        if any(c.code.startswith("double ") for c in menu.choices):
            extra = [f"{c.key} {c.label}" for c in menu.choices]
        return " · ".join(extra)
    return " · ".join(f"{c.key} {c.label}" for c in menu.choices)


def ask_text(menu: Menu, t: T) -> str:
    """The prompt itself, in the screen's digits."""
    if menu.is_bid:
        values = [int(c.key) for c in menu.choices if c.code.startswith("bid ")]
        lo, hi = min(values), max(values)
        if "pass" in menu.legal:
            return t.gettext("Your bid ({low}–{high}, {key} to pass, h for help): ", low=lo, high=hi, key=PASS_KEY)
        return t.gettext("Your bid ({low}–{high}, h for help): ", low=lo, high=hi)
    keys = [c.key for c in menu.choices if c.key]
    span = f"{keys[0]}–{keys[-1]}" if len(keys) > 1 else (keys[0] if keys else "")
    if any(c.code.startswith("play ") for c in menu.choices):
        return t.gettext("Your card ({keys}, h for help): ", keys=span)
    return t.gettext("Your choice ({keys}, h for help): ", keys=span)
