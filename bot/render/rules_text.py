"""``/rules``: a compact summary of each game's rules (docs/rules.md is the full rule book)."""

from __future__ import annotations

from bot.i18n import T
from bot.render.cards import game_name
from bot.render.common import seat_order


def _common(t: T) -> list[str]:
    return [
        t.gettext("Four players, 13 cards each. Play passes {order} (counter-clockwise).", order=seat_order(t)),
        t.gettext("Follow the suit that was led if you can; otherwise play any card. "
                  "The highest card of the suit led wins the trick, unless a trump is played."),
    ]


def render_rules(game: str, t: T) -> str:
    """The rules summary of ``game`` (all three games for an unknown id)."""
    if game == "tarneeb41":
        body = [
            t.gettext("Seats 0 and 2 play against seats 1 and 3, but every player bids and scores alone."),
            t.gettext("The dealer's last card is shown to everyone. Trump is the other suit of the same "
                      "colour: hearts and diamonds swap, clubs and spades swap."),
            t.gettext("Each player bids once, from 2 to 13 tricks, starting right of the dealer. "
                      "There is no pass. If the bids total less than 11, the deal is thrown in."),
            t.gettext("The first bidder leads. Take at least your bid: plus your bid; otherwise minus your bid."),
            t.gettext("A team wins when one partner has 41 or more and the other has more than 0."),
        ]
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
    elif game == "trix":
        body = [
            t.gettext("Everyone plays alone. Four kingdoms of five contracts: 20 deals. The holder of the "
                      "seven of hearts owns the first kingdom; then ownership passes right."),
            t.gettext("The owner chooses each contract once: King of Hearts (−75), Queens (−25 each), "
                      "Diamonds (−10 each), Latoosh (−15 a trick) and Trix."),
            t.gettext("In King of Hearts and Queens, the holder may double the card before the first lead: "
                      "whoever takes it pays double and the doubler gains the base value."),
            t.gettext("Trix: rows are built up and down from each jack; play a card that fits or pass. "
                      "Places score +200, +150, +100 and +50."),
            t.gettext("The highest total after 20 deals wins."),
        ]
    else:
        return "\n\n".join(render_rules(g, t) for g in ("tarneeb41", "tarneeb", "trix"))
    return t.lines([game_name(game, t), *_common(t), *body])
