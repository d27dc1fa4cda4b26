"""The help shown at a prompt (``h`` or ``?``): what to type now, and the commands."""

from __future__ import annotations

from bot.adapters.terminal.choices import PASS_KEY, Menu
from bot.core.identity import ascii_int
from bot.present.i18n import T


def help_text(menu: Menu, t: T) -> str:
    """How to answer this prompt, then the commands that work at every prompt."""
    lines = []
    if menu.is_bid:
        key = ascii_int(menu.choices[0].key) if menu.choices else None
        first = key if key is not None else 7
        full = "bid " + t.number(13 - menu.bid_offset)
        lines.append(t.gettext("Type your bid as a number: {example} bids {example}. To bid all 13 tricks type "
                               "{full} (a plain 13 asks once more).", example=first,
                               full=full))
        if "pass" in menu.legal:
            lines.append(t.gettext("Type {key} or {word} to pass.", key=PASS_KEY, word="pass"))
    elif any(c.code.startswith("play ") for c in menu.choices):
        lines.append(t.gettext("Type the letter shown before a card in your hand, or the card itself "
                               "({example}: queen of spades, {ten}: ten of hearts). Dimmed cards may not be "
                               "played now; typing one tells you why.", example="qs", ten="10h"))
    else:
        lines.append(t.gettext("Type the letter shown before your choice."))
    lines.append(t.gettext("At every prompt: {help} this help, {rules} the rules of this game and table, "
                           "{scores} the scores, {last} the last trick, {quit} save and quit (continue with "
                           "{command}).", help="h ?", rules="r", scores="s", last="l", quit="q",
                           command="majlis play --resume"))
    lines.append(t.gettext("At a casual table: {hint} a hint for this turn, {review} the review of your last deal.",
                           hint="t", review="v"))
    return "\n".join(lines)
