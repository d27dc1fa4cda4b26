"""``/rules`` and ``majlis rules GAME``: a compact summary of each game's rules, and the table's options
(docs/rules.md is the full rule book)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.present.i18n import T
from bot.present.render.cards import game_name
from bot.present.render.common import seat_order


def _common(t: T, *, trumps: bool) -> list[str]:
    lines = [t.gettext("Four players, 13 cards each. Play passes {order} (counter-clockwise).", order=seat_order(t))]
    if trumps:
        lines.append(t.gettext("Follow the suit that was led if you can; otherwise play any card. "
                               "The highest card of the suit led wins the trick, unless a trump is played."))
    else:
        lines.append(t.gettext("Follow the suit that was led if you can; otherwise play any card. "
                               "There is no trump: the highest card of the suit led wins the trick."))
    return lines


def _defaults(game: str) -> dict[str, Any]:
    from engine.base import resolve_options

    if game == "tarneeb41":
        from engine.tarneeb41.rules import OPTIONS
    elif game == "tarneeb":
        from engine.tarneeb.rules import OPTIONS
    else:
        from engine.trix.contracts import OPTIONS
    return resolve_options(OPTIONS, None)


def option_lines(game: str, options: Mapping[str, Any] | None, t: T) -> list[str]:
    """The table's options that differ from the game's defaults, in words where it matters."""
    if not options:
        return []
    defaults = _defaults(game)
    changed = {k: v for k, v in options.items() if k in defaults and defaults[k] != v}
    out = []
    if changed.get("trump_mode") == "hearts_fixed":
        out.append(t.gettext("At this table hearts are always trump (no exposed card)."))
    if changed.get("mode") == "complex":
        out.append(t.gettext("At this table Trix is played Complex: the four penalty contracts are played as "
                             "one deal, so each kingdom has two deals (8 deals in all)."))
    if changed.get("partnership"):
        out.append(t.gettext("At this table Trix is played in partnership: seats 0 and 2 against 1 and 3, "
                             "scores added."))
    if changed.get("only_contract") not in (None, "any"):
        from bot.present.render.cards import contract_name

        out.append(t.gettext("At this table every deal is {contract}, chosen in advance.",
                             contract=contract_name(str(changed["only_contract"]), t)))
    if changed.get("no_heart_lead_in_king"):
        out.append(t.gettext("King of Hearts: hearts may not be led (unless you hold nothing else)."))
    if changed.get("king_must_be_discarded_when_void"):
        out.append(t.gettext("King of Hearts: with no card of the suit led, you must play the King of Hearts."))
    if changed.get("king_on_ace_of_hearts"):
        out.append(t.gettext("King of Hearts: when the Ace of Hearts is led, the King of Hearts must be played on "
                             "it."))
    rest = {k: v for k, v in changed.items() if k not in ("trump_mode", "mode", "partnership", "only_contract",
                                                          "no_heart_lead_in_king",
                                                          "king_must_be_discarded_when_void",
                                                          "king_on_ace_of_hearts")}
    if rest:
        shown = ", ".join(f"{k}={_value(v)}" for k, v in sorted(rest.items()))
        out.append(t.gettext("Other options at this table: {options}", options=shown))
    return out


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ",".join(str(x) for x in v)
    return str(v)


def render_rules(game: str, t: T, *, options: Mapping[str, Any] | None = None) -> str:
    """The rules summary of ``game`` (all three games for an unknown id), with the table's ``options``."""
    if game == "tarneeb41":
        body = [
            t.gettext("Seats 0 and 2 play against seats 1 and 3, but every player bids and scores alone: a partner's "
                      "tricks never count for your bid."),
            t.gettext("The dealer's last card is shown to everyone. Trump is the other suit of the same "
                      "colour: hearts and diamonds swap, clubs and spades swap. The exposed card itself is never "
                      "trump, and the dealer plays it like any other card."),
            t.gettext("Each player bids once, from 2 to 13 tricks, starting right of the dealer; the dealer bids "
                      "last. There is no pass. If the bids total less than 11, the deal is thrown in."),
            t.gettext("The first bidder (right of the dealer) leads the first trick, whatever the bids. "
                      "Take at least your bid: plus your bid; otherwise minus your bid."),
            t.gettext("A team wins when one partner has 41 or more and the other partner has more than 0; "
                      "if both teams qualify, the higher team total wins."),
        ]
        trumps = True
    elif game == "tarneeb":
        body = [
            t.gettext("Seats 0 and 2 play against seats 1 and 3."),
            t.gettext("Bid 7 to 13 tricks for your team, each bid higher than the last, or pass; "
                      "a pass is final. If everyone passes, the cards are dealt again."),
            t.gettext("The highest bidder names the trump suit and leads the first trick."),
            t.gettext("Made: the team scores the tricks it took (16 for all 13, 26 for a bid of 13 made). "
                      "Broken: the team loses its bid and the other team scores its tricks."),
            t.gettext("The first team to reach the target (31 by default) wins."),
        ]
        trumps = True
    elif game == "trix":
        body = [
            t.gettext("Everyone plays alone. Four kingdoms of five contracts: 20 deals. The holder of the "
                      "seven of hearts owns the first kingdom; then ownership passes right."),
            t.gettext("The owner chooses each contract once: King of Hearts (−75), Queens (−25 each), "
                      "Diamonds (−10 each), Latoosh (−15 a trick) and Trix."),
            t.gettext("The kingdom's owner leads the first trick. King of Hearts ends when the King of Hearts is "
                      "taken; Queens and Diamonds end when the last one is taken."),
            t.gettext("In King of Hearts and Queens, the holder may double the card before the first lead: "
                      "whoever takes it pays double and the doubler gains the base value."),
            t.gettext("By default nothing restricts the King of Hearts: hearts may be led and the king is played "
                      "like any card (the table's options may add those restrictions)."),
            t.gettext("Trix: rows are built up and down from each jack; the owner plays first; play a card that "
                      "fits or, with none, pass. Places score +200, +150, +100 and +50."),
            t.gettext("The highest total after 20 deals wins."),
        ]
        trumps = False
    else:
        return "\n\n".join(render_rules(g, t) for g in ("tarneeb41", "tarneeb", "trix"))
    return t.lines([game_name(game, t), *_common(t, trumps=trumps), *body, *option_lines(game, options, t)])
