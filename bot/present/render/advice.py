"""A hint and a deal review, in the asker's language, for them alone (an alert, an ephemeral answer,
the terminal's line, the web page's panel): short enough for Telegram's 200-character alert."""

from __future__ import annotations

from ai.advice import Hint, Review
from bot.core.commands import Advice
from bot.present.i18n import T
from bot.present.render.cards import card_label
from bot.present.render.common import action_label, shown_bid


def amount(x: float, t: T) -> str:
    """``x`` with one decimal, in the reader's digits (Arabic-Indic with «٫»)."""
    tenths = round(abs(x) * 10)
    whole, frac = divmod(tenths, 10)
    sep = "\u066b" if t.digits == "arabic" else "."
    return ("\u2212" if x < 0 and tenths else "") + t.number(whole) + sep + t.number(frac)


def _card(code: str, t: T, levels: bool = False) -> str:
    return card_label(code[5:], t) if code.startswith("play ") else action_label(code, t, levels=levels)


def _choice(code: str, t: T, levels: bool) -> str:
    """A bid, a pass or a trump suit as the noun phrase a hint compares with ("a bid of 8")."""
    label = t.isolate(_card(code, t, levels))
    if code.startswith("bid "):
        return t.gettext("a bid of {bid}", bid=label)
    if code == "pass":
        return t.gettext("passing")
    if code.startswith("trump "):
        return t.gettext("{suit} as trump", suit=label)
    if code.startswith("double "):
        return t.gettext("doubling {card}", card=t.isolate(card_label(code.split()[1], t)))
    if code == "done":
        return t.gettext("doubling nothing")
    return label


def hint_text(hint: Hint, t: T, levels: bool = False) -> str:
    """"Hint: play Q♠; the next best, 9♠, loses 0.4 tricks on average." (or the search's bid, with
    what the next best bid scores less in the simulated deals). ``levels``: classic bids as 1..7."""
    best = t.isolate(_card(hint.action, t, levels))
    card = hint.action.startswith("play ")
    if hint.only:
        if card:
            return t.gettext("Hint: {card} is your only legal card.", card=best)
        return t.gettext("Hint: {action} is your only legal move.", action=best)
    if hint.runner_up is None or hint.loss is None:
        if hint.action.startswith("bid "):
            return t.gettext("Hint: bid {bid}.", bid=best)
        if hint.action == "pass":
            return t.gettext("Hint: pass.")
        return t.gettext("Hint: {action}.", action=best)
    other = t.isolate(_card(hint.runner_up, t, levels))
    if not card:
        other = _choice(hint.runner_up, t, levels)
        if hint.action.startswith("bid "):
            first = t.gettext("Hint: bid {bid}.", bid=best)
        elif hint.action == "pass":
            first = t.gettext("Hint: pass.")
        elif hint.action.startswith("trump "):
            first = t.gettext("Hint: name {suit} as trump.", suit=best)
        elif hint.action.startswith("contract "):
            first = t.gettext("Hint: choose {contract}.", contract=best)
        elif hint.action.startswith("double "):
            first = t.gettext("Hint: double {card}.", card=t.isolate(card_label(hint.action.split()[1], t)))
        elif hint.action == "done":
            first = t.gettext("Hint: double nothing.")
        else:
            first = t.gettext("Hint: {action}.", action=best)
        if hint.loss < 0.05:
            then = t.gettext("The next best, {other}, is about as good in the deals I simulated.", other=other)
        elif hint.runner_up.startswith("contract "):
            then = t.ngettext(
                "The next best, {other}, gains you {amount} points less over what it usually scores, "
                "on average over the {n} deal I simulated.",
                "The next best, {other}, gains you {amount} points less over what it usually scores, "
                "on average over the {n} deals I simulated.",
                hint.samples, other=other, amount=amount(hint.loss, t))
        elif hint.runner_up.startswith("double ") or hint.runner_up == "done":
            then = t.ngettext(
                "The next best, {other}, scores you {amount} points less, on average over the {n} deal "
                "I simulated.",
                "The next best, {other}, scores you {amount} points less, on average over the {n} deals "
                "I simulated.",
                hint.samples, other=other, amount=amount(hint.loss, t))
        else:
            then = t.ngettext(
                "The next best, {other}, costs your side {amount} points against the other side, "
                "on average over the {n} deal I simulated.",
                "The next best, {other}, costs your side {amount} points against the other side, "
                "on average over the {n} deals I simulated.",
                hint.samples, other=other, amount=amount(hint.loss, t))
        return first + " " + then
    if hint.loss < 0.05:
        return t.gettext("Hint: play {card}; the next best, {other}, is about as good.", card=best, other=other)
    if hint.unit == "tricks":
        return t.gettext("Hint: play {card}; the next best, {other}, loses {amount} tricks on average.",
                         card=best, other=other, amount=amount(hint.loss, t))
    return t.gettext("Hint: play {card}; the next best, {other}, loses {amount} points on average.",
                     card=best, other=other, amount=amount(hint.loss, t))


def review_text(review: Review, t: T) -> str:
    """The costliest card of the asker's last finished deal, what it cost, and one reason."""
    if not review.cards:
        return t.gettext("Review: no deal of yours has finished yet at this table.")
    if review.played is None or review.better is None:
        return t.ngettext("Review of deal {deal}: none of your {n} card cost anything, all hands known.",
                          "Review of deal {deal}: none of your {n} cards cost anything, all hands known.",
                          review.cards, deal=review.deal_no)
    played, better = t.isolate(_card(review.played, t)), t.isolate(_card(review.better, t))
    if review.unit == "tricks":
        cost = t.ngettext("Review of deal {deal}: your {card} in trick {trick} cost {n} trick; {better} was better.",
                          "Review of deal {deal}: your {card} in trick {trick} cost {n} tricks; {better} was better.",
                          round(review.cost), deal=review.deal_no, card=played, trick=review.trick_no,
                          better=better)
    else:
        cost = t.gettext("Review of deal {deal}: your {card} in trick {trick} cost {amount} points; "
                         "{better} was better.", deal=review.deal_no, card=played, trick=review.trick_no,
                         amount=amount(review.cost, t), better=better)
    if review.share is None or not review.samples:
        return cost
    reason = t.ngettext("The better card did at least as well in {percent}% of the {n} deal I considered.",
                        "The better card did at least as well in {percent}% of the {n} deals I considered.",
                        review.samples, percent=t.number(round(100 * review.share)))
    return t.lines([cost, reason])


def advice_text(answer: Advice, t: T) -> str:
    """What a Hint or Review command answered, as one short text."""
    if answer.hint is not None:
        return hint_text(answer.hint, t, levels=shown_bid(answer.snapshot, 13) == 7)
    if answer.review is not None:
        return review_text(answer.review, t)
    return ""
