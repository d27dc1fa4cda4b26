"""``/tournament`` in a Telegram group (bot/core/tournaments.py, docs/tournaments.md).

    /tournament                         the group's tournament message, posted anew
    /tournament new <game> [knockout|swiss|roundrobin] [rounds=<n>] [draw|fixed] [start=<min>] [checkin=<min>]
                    [round=<min>] [review=<min>] [ai=on|off] [<option>=<value> …]
                                        an admin makes a pair tournament of tarneeb41 or tarneeb
    /tournament new trix [pools] [rounds=<n>] [start=…] [checkin=…] [round=…] [ai=on|off] [<option>=<value> …]
                                        an admin makes a Trix tournament: pools of four, points over rounds
    /tournament register|withdraw|checkin|ready     what the message's buttons do
    /tournament flag [<reason>]         a player flags their match while its result is in review
    /tournament audit                   the tournament's log, with its pairs by number
    /tournament start|cancel            the organiser (or an admin)
    /tournament decide <round>-<n> uphold|winner <pair>|replay|disqualify <pair>
                                        the organiser (or an admin) decides a match of the running round
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from telegram import Update
from telegram.ext import ContextTypes

from bot.adapters.telegram import texts
from bot.core.commands import NewTournament, TournamentAction
from bot.core.identity import ascii_int
from bot.present.keys import tournament_key
from bot.present.outbox.hub import OutboxHub
from bot.present.render.tournaments import render_audit, render_tournament

if TYPE_CHECKING:
    from bot.adapters.telegram.handlers import Handlers

VERBS = ("register", "withdraw", "checkin", "ready", "start", "cancel")
#: The words of a format (bot/core/tournaments.py FORMATS), with a spelling or two people type.
FORMAT_WORDS = {"knockout": "knockout", "swiss": "swiss", "roundrobin": "roundrobin", "round-robin": "roundrobin",
                "league": "roundrobin", "pools": "pools"}


def parse_new(args: list[str]) -> NewTournament | None:
    """``/tournament new …``'s words as the command (None: no game named); bad values are passed on
    as values the core refuses with its reason."""
    if not args:
        return None
    game = texts.GAME_ALIASES.get(args[0].lower(), args[0].lower())
    fields: dict[str, Any] = {}
    options: dict[str, Any] = {}
    for word in args[1:]:
        key, eq, value = word.lower().partition("=")
        if not eq and key in ("draw", "fixed"):
            fields["pairing"] = key
        elif not eq and key in FORMAT_WORDS:
            fields["format"] = FORMAT_WORDS[key]
        elif key == "rounds" and eq:
            n = ascii_int(value)
            fields["rounds"] = -1 if n is None else n  # refused by the core unless a Swiss's 1 to 15
        elif key in ("start", "checkin", "round", "review"):
            n = ascii_int(value)
            fields[f"{key}_minutes"] = -1 if n is None else n
        elif key == "ai" and value in texts.ON_WORDS + texts.OFF_WORDS:
            fields["ai"] = value in texts.ON_WORDS
        elif eq:
            n = ascii_int(value)
            options[key] = n if n is not None else value
        else:
            fields["pairing"] = key  # refused by the core: not a pairing it knows
    return NewTournament(game, options=options or None, **fields)


async def tournament(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/tournament …`` (see the module)."""
    where = h._where(update)
    if where is None:
        return
    _, user, dest = where
    args = list(context.args or [])
    word = args[0].lower() if args else ""
    if word == "new":
        cmd = parse_new(args[1:])
        if cmd is None:
            await h.reply(dest, (await h.chat_t(dest, user)).gettext(
                "Name the game: /tournament new tarneeb41 (or tarneeb), then knockout, swiss or roundrobin, "
                "and draw or fixed pairs; or /tournament new trix rounds=3 for pools of four, each player alone."))
            return
        await h._command(update, context, cmd)  # the message is posted by the tournament's listener
        return
    if word == "flag":
        if await h._command(update, context, TournamentAction("flag", reason=" ".join(args[1:]))) is not None:
            await h.reply(dest, (await h.chat_t(dest, user)).gettext(
                "Flagged: the result waits for the organiser's decision."))
        return
    if word == "decide":
        decision = args[2].lower() if len(args) > 2 else ""
        pair = ascii_int(args[3]) if len(args) > 3 else None
        if await h._command(update, context, TournamentAction(
                "decide", match=args[1] if len(args) > 1 else None, decision=decision,
                pair=-1 if len(args) > 3 and pair is None else pair)) is not None:  # not a number: "bad_pair"
            await h.reply(dest, (await h.chat_t(dest, user)).gettext(
                "Decided: the tournament's message and /tournament audit show it."))
        return
    if word == "audit":
        tour = await h._command(update, context, TournamentAction("audit"))
        if tour is not None:
            await h.reply(dest, render_audit(tour, await h.chat_t(dest, user)))
        return
    if word in VERBS:
        await h._command(update, context, TournamentAction(word, pair=ascii_int(args[1]) if len(args) > 1 else None))
        return
    tour = await h._command(update, context, TournamentAction("show"))
    if tour is None:
        return
    t = await h.chat_t(dest, user)
    msg = h.s.brackets.message(tour, t) if h.s.brackets is not None else \
        render_tournament(tour, t, h.s.manager.clock.now())
    if isinstance(h.s.sender, OutboxHub) and tour.open and tour.chat_id == dest:
        # the one message, posted anew in its group (not in a match's topic) and edited from now on
        h.s.sender.replace(dest, tournament_key(tour.tournament_id), msg)
    else:
        await h.reply(dest, msg)
