"""One short localized sentence (≤ 200 characters) for every refusal: table codes and engine reasons."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.errors import Refusal
from bot.core.leagues import MAX_SWISS_ROUNDS
from bot.present.i18n import T
from bot.present.render.cards import card_label, suit_name

MAX_CHARS = 200

#: A sentence for every refusal code (``illegal``: its engine reason, below), and for the adapters'
#: own codes (``slow_down``, ``web_flood``).
_TABLE: dict[str, Callable[[T, dict[str, Any]], str]] = {
    Refusal.NO_TABLE: lambda t, p: t.gettext("There is no table here. Start one with {command}.",
                                       command=str(p.get("command") or "/new")),
    Refusal.TABLE_EXISTS: lambda t, p: t.gettext("There is already a table in this chat."),
    Refusal.TABLE_FULL: lambda t, p: t.gettext("The table is full."),
    Refusal.ALREADY_SEATED: lambda t, p: t.gettext("You are already seated at this table."),
    Refusal.NOT_SEATED: lambda t, p: t.gettext("You are not seated at this table."),
    Refusal.SEAT_TAKEN: lambda t, p: t.gettext("That seat is taken."),
    Refusal.NOT_STARTED: lambda t, p: t.gettext("The match has not started yet."),
    Refusal.ALREADY_STARTED: lambda t, p: t.gettext("The match has already started."),
    Refusal.NOT_ALLOWED: lambda t, p: (
        t.gettext("Only the people who played that match, or an admin, may play it again.")
        if p.get("what") == "rematch"
        else t.gettext("A tournament match is not played again: the bracket calls the next match.")
        if p.get("what") == "tournament"
        else t.gettext("This chat has table calls off; an admin may allow them (/settings notify=on).")
        if p.get("what") == "notify"
        else t.gettext("Only each person may see their own figures across every chat.") if p.get("what") == "profile"
        else t.gettext("Only the table's creator or an admin may do that.")),
    Refusal.TOURNAMENT: lambda t, p: _tournament(p.get("reason"), t, str(p.get("command") or "/tournament new")),
    Refusal.NOT_YOUR_TURN: lambda t, p: t.gettext("It is not your turn."),
    Refusal.STALE: lambda t, p: t.gettext("That button is out of date; use the newest message."),
    Refusal.FINISHED: lambda t, p: t.gettext("This match is over."),
    Refusal.NOT_OVER: lambda t, p: t.gettext("That match is not over yet."),
    "slow_down": lambda t, p: t.ngettext("Slow down: try again in {n} second.",
                                         "Slow down: try again in {n} seconds.", int(p.get("seconds", 1))),
    Refusal.BAD_ACTION: lambda t, p: t.gettext("That is not a move I understand."),
    Refusal.UNKNOWN_GAME: lambda t, p: t.gettext("Unknown game. Choose tarneeb41, tarneeb or trix."),
    Refusal.BAD_OPTION: lambda t, p: t.gettext("That table option is not allowed: {detail}",
                                         detail=str(p.get("detail", ""))[:80]),
    Refusal.WRONG_TABLE: lambda t, p: t.gettext("That button belongs to a table of another chat."),
    Refusal.BAD_LINK: lambda t, p: t.gettext("This invitation link is not valid. Press Join on the table's message."),
    Refusal.LINK_EXPIRED: lambda t, p: t.gettext("This invitation is no longer open: that table has started or ended."),
    Refusal.NOT_MEMBER: lambda t, p: t.gettext("Only members of the table's group may join it."),
    Refusal.LEFT_SEAT: lambda t, p: (
        t.gettext("You left seat {seat}; you may only take that seat back.", seat=int(p["seat"]))
        if isinstance(p.get("seat"), int) else t.gettext("You may only take back the seat you left.")),
    Refusal.ANONYMOUS: lambda t, p: t.gettext(
        "You are posting as the group (anonymous admin), so you cannot take a seat. Write as yourself to play."),
    Refusal.ADMINS_ONLY: lambda t, p: t.gettext("Only the group's admins may change this."),
    Refusal.GROUP_ONLY: lambda t, p: t.gettext("This works only in a group, not in a private chat."),
    Refusal.PRIVATE_ONLY: lambda t, p: t.gettext("Your figures across every chat are shown only in your private "
                                                 "chat with me: ask there."),
    Refusal.NO_CHALLENGE: lambda t, p: t.gettext("There is no open challenge here."),
    Refusal.CHALLENGE_EXISTS: lambda t, p: t.gettext("This group has an open challenge already; a new one can "
                                                     "start once it has ended."),
    Refusal.CHALLENGE_PLAYED: lambda t, p: t.gettext("You have played every deal of this challenge. Send "
                                                     "{command} to see your deals against the field.",
                                                     command=str(p.get("command") or "/challenge")),
    Refusal.SEASON_OVER: lambda t, p: t.gettext("That season has ended already; nothing was changed."),
    Refusal.HINTS_OFF: lambda t, p: t.gettext("Hints and reviews are off at this table (rated play)."),
    Refusal.AI_BUSY: lambda t, p: t.gettext("I could not think it through in time; ask again in a moment."),
    Refusal.INTERNAL: lambda t, p: t.gettext("Sorry, something went wrong on my side. Please try again."),
    Refusal.ROUTE_TIMEOUT: lambda t, p: t.gettext("The table did not answer in time, so nothing was changed. "
                                            "Please try again."),
    Refusal.ROUTE_UNKNOWN: lambda t, p: t.gettext("The table did not answer in time. Look at the table to see "
                                            "whether that went through before you try again."),
    "web_flood": lambda t, p: t.gettext("Too many messages from this page; wait a moment before the next move."),
}


def _tournament(reason: object, t: T, command: str) -> str:
    """Why a tournament press or command was refused (bot/core/tournaments.py); ``command`` starts one."""
    texts = {
        "none": lambda: t.gettext("There is no tournament here. An admin starts one with {command}.", command=command),
        "exists": lambda: t.gettext("This group has a tournament already; it must end before another starts."),
        "game": lambda: t.gettext("Tournaments are for pairs in tarneeb41 or tarneeb, or for players alone in "
                                  "trix (pools of four)."),
        "format": lambda: t.gettext("Choose the format (knockout, swiss or roundrobin) and the pairs: draw "
                                    "(partners drawn at the start) or fixed (pairs register together). A trix "
                                    "tournament is played in pools, each player alone."),
        "rounds": lambda: t.gettext("A Swiss or a trix tournament plays from 1 to {most} rounds; rounds= is not "
                                    "for a knockout or a round robin.", most=t.number(MAX_SWISS_ROUNDS)),
        "pool_winner": lambda: t.gettext("A trix pool has no winner to set: uphold its result, replay it, or "
                                         "disqualify a player by number."),
        "bad_person": lambda: t.gettext("That player does not play in that pool."),
        "times": lambda: t.gettext("Times are whole minutes: start=0 to 10080, check-in no longer than the time "
                                   "to the start, round=1 or more."),
        "closed": lambda: t.gettext("Registration for this tournament has closed."),
        "registered": lambda: t.gettext("You are registered already."),
        "full": lambda: t.gettext("The tournament is full."),
        "no_pair": lambda: t.gettext("That pair is no longer waiting for a partner."),
        "pair_full": lambda: t.gettext("That pair has both its players already."),
        "not_registered": lambda: t.gettext("You are not registered in this tournament."),
        "not_checkin": lambda: t.gettext("Check-in has not opened yet; you are registered."),
        "no_match": lambda: t.gettext("You have no match waiting for you in this round."),
        "organiser_only": lambda: t.gettext("Only the organiser or an admin may do that."),
        "no_review": lambda: t.gettext("You played no match whose result is in review."),
        "review_over": lambda: t.gettext("The review of your match has ended: its result stands."),
        "flagged": lambda: t.gettext("Your match is flagged already: the organiser decides."),
        "no_such_match": lambda: t.gettext("There is no such match: name it by round and number, as in 1-2."),
        "too_late": lambda: t.gettext("That match's round is over: its winner has played on."),
        "not_decidable": lambda: t.gettext("That match has no result to decide: it is waiting or being played."),
        "not_in_review": lambda: t.gettext("That match's result is final already: set a winner, replay it or "
                                           "disqualify a pair."),
        "bad_pair": lambda: t.gettext("That pair does not play in that match."),
        "ai_pair": lambda: t.gettext("The AI pair never goes on."),
        "decision": lambda: t.gettext("Decide with uphold, winner and a pair's number, replay, or disqualify and "
                                      "a pair's number."),
        "over": lambda: t.gettext("The tournament is over: its results stand."),
    }
    return texts.get(str(reason), lambda: t.gettext("That is not possible in this tournament."))()


def _suit(p: dict[str, Any], t: T) -> str:
    led = p.get("led") or p.get("suit")
    return suit_name(str(led), t) if isinstance(led, str) and led.upper() in "SHDC" and len(led) == 1 else ""


_REASONS: dict[str, Callable[[T, dict[str, Any]], str]] = {
    "not_your_turn": lambda t, p: t.gettext("It is not your turn."),
    "must_follow_suit": lambda t, p: (
        t.gettext("You must follow suit: play {suit}.", suit=_suit(p, t)) if _suit(p, t)
        else t.gettext("You must follow the suit that was led.")),
    "bid_too_low": lambda t, p: (
        t.gettext("Your bid must be at least {minimum}.", minimum=int(p["minimum"]))
        if isinstance(p.get("minimum"), int) else t.gettext("Your bid must be higher than the standing bid.")),
    "bid_out_of_range": lambda t, p: (
        t.gettext("A bid is from {minimum} to {maximum}.", minimum=int(p["minimum"]), maximum=int(p["maximum"]))
        if isinstance(p.get("minimum"), int) and isinstance(p.get("maximum"), int)
        else t.gettext("That bid is out of range.")),
    "must_lead_trump": lambda t, p: t.gettext("The first lead must be a trump."),
    "must_play_king": lambda t, p: t.gettext("You must play the King of Hearts now."),
    "no_heart_lead": lambda t, p: t.gettext("Hearts may not be led in the King of Hearts contract."),
    "no_trump_not_allowed": lambda t, p: t.gettext("No-trump is not allowed at this table."),
    "unknown_action": lambda t, p: t.gettext("That is not a move I understand."),
    "bad_seat": lambda t, p: t.gettext("There is no such seat."),
    "not_in_hand": lambda t, p: (
        t.gettext("You do not hold {card}.", card=card_label(str(p["card"]), t))
        if isinstance(p.get("card"), str) and len(p["card"]) == 2 and p["card"][1] in "SHDC"
        and p["card"][0] in "23456789TJQKA"
        else t.gettext("You do not hold that card.")),
    "pass_not_allowed": lambda t, p: t.gettext("You may not pass now."),
    "match_over": lambda t, p: t.gettext("This match is over."),
    "contract_already_played": lambda t, p: t.gettext("That contract has already been played in this kingdom."),
    "cannot_double": lambda t, p: t.gettext("You cannot double that card."),
    "already_doubled": lambda t, p: t.gettext("You have already doubled that card."),
    "must_play_when_able": lambda t, p: t.gettext("You have a card that fits the layout, so you must play."),
    "not_legal_in_layout": lambda t, p: t.gettext("That card does not fit the layout yet."),
    "wrong_phase": lambda t, p: t.gettext("That move does not belong to this stage of the deal."),
    "no_bid": lambda t, p: t.gettext("Nobody has bid yet."),
    "must_bid": lambda t, p: t.gettext("You must bid: passing is not allowed now."),
}

GENERIC = "That move is not allowed now."


def reason_text(reason: str, params: dict[str, Any], t: T) -> str:
    """The sentence for an engine ``IllegalAction.reason`` (a generic one for unknown reasons)."""
    f = _REASONS.get(reason)
    return f(t, params) if f else t.gettext("That move is not allowed now.")


def render_error(code: str, params: dict[str, Any], t: T) -> str:
    """A localized sentence for a :class:`bot.core.errors.TableError` code (``illegal``: its ``reason``)."""
    if code == Refusal.ILLEGAL:
        text = reason_text(str(params.get("reason", "")), params, t)
    else:
        f = _TABLE.get(code)
        text = f(t, params) if f else t.gettext("That move is not allowed now.")
    text = t.lines([text])
    if len(text) > MAX_CHARS:
        text = text[: MAX_CHARS - 1] + "…"
    return text


def known_reasons() -> frozenset[str]:
    """The engine reasons that have their own sentence."""
    return frozenset(_REASONS)


__all__ = ["GENERIC", "MAX_CHARS", "known_reasons", "reason_text", "render_error"]
