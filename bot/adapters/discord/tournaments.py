"""``/majlis tournament`` in a Discord channel (bot/core/tournaments.py, docs/tournaments.md).

One subcommand whose ``action`` says what to do (the fake and Discord both take a flat option list):

    /majlis tournament                      the channel's tournament message, posted anew
    /majlis tournament action:new game:<tarneeb41|tarneeb|trix> [format:knockout|swiss|roundrobin|pools]
                       [rounds:<n>] [pairing:draw|fixed] [start:<min>] [checkin:<min>] [round:<min>]
                       [ai:True|False] [target:<points>]
                                            Manage Server: a pair tournament in this channel
    /majlis tournament action:register [pair:<n>] | withdraw | checkin | ready
                                            what the message's buttons do (pair: join fixed pair n)
    /majlis tournament action:start | cancel
                                            the organiser (or Manage Server)
    /majlis tournament action:flag [reason:<words>]
                                            a player flags their match while its result is in review
    /majlis tournament action:decide match:<round>-<n> decision:<uphold|winner|replay|disqualify> [pair:<n>]
                                            the organiser (or Manage Server) decides a match
    /majlis tournament action:audit         the tournament's log (to the asker)

The tournament's message is the channel's, posted and edited by
:class:`~bot.present.tournament_notices.Brackets` (set up by the client); its buttons (codec verb
``o``) are handled with the other buttons in :mod:`bot.adapters.discord.handlers`. Answers to the
person who typed the command are ephemeral.
"""

from __future__ import annotations

from typing import Any

from bot.adapters.discord.base import HandlerBase, Interaction
from bot.adapters.discord.common import _error, chat_of
from bot.core.commands import NewTournament, TournamentAction
from bot.core.errors import TableError
from bot.present.keys import tournament_key
from bot.present.outbox.hub import OutboxHub
from bot.present.render.tournaments import render_audit, render_tournament

#: The ``action`` choices, in the order Discord shows them.
ACTIONS = ("show", "new", "register", "withdraw", "checkin", "ready", "start", "cancel", "flag", "decide", "audit")
#: How Discord's "there is no tournament" names the command that starts one.
NEW_COMMAND = "/majlis tournament action:new"


async def tournament(h: HandlerBase, interaction: Interaction, action: str, *, game: str | None = None,
                     pairing: str | None = None, start: int | None = None, checkin: int | None = None,
                     round_minutes: int | None = None, ai: bool | None = None, target: int | None = None,
                     pair: int | None = None, review: int | None = None, match: str | None = None,
                     decision: str | None = None, reason: str | None = None, fmt: str | None = None,
                     rounds: int | None = None) -> None:
    """``/majlis tournament`` (see the module): acknowledged at once, answered to the asker only."""
    await h.ack(interaction)
    t = await h.translator_for(interaction)
    try:
        if action == "new":
            if game is None:
                await h.answer(interaction, t.gettext(
                    "Name the game: {command} game:tarneeb41 (or tarneeb), with format knockout, swiss or "
                    "roundrobin and pairing draw or fixed; or game:trix for pools of four, each player alone.",
                    command=NEW_COMMAND))
                return
            fields: dict[str, Any] = {}
            for name, value in (("pairing", pairing), ("start_minutes", start), ("checkin_minutes", checkin),
                                ("round_minutes", round_minutes), ("ai", ai), ("review_minutes", review),
                                ("format", fmt), ("rounds", rounds)):
                if value is not None:
                    fields[name] = value
            await h.dispatch(NewTournament(game, options={"target": target} if target else None, **fields),
                             interaction)  # the message is posted by the tournament's listener
        elif action == "audit":  # the log, to the asker alone
            tour = await h.dispatch(TournamentAction("audit"), interaction)
            await h.answer(interaction, render_audit(tour, t).text)
            return
        elif action == "flag":
            await h.dispatch(TournamentAction("flag", reason=reason or ""), interaction)
            await h.answer(interaction, t.gettext("Flagged: the result waits for the organiser's decision."))
            return
        elif action == "decide":
            await h.dispatch(TournamentAction("decide", pair=pair, match=match, decision=decision or ""), interaction)
            await h.answer(interaction, t.gettext("Decided: the tournament's message and the log show it."))
            return
        elif action in ACTIONS[2:]:
            await h.dispatch(TournamentAction(action, pair=pair), interaction)
        else:
            tour = await h.dispatch(TournamentAction("show"), interaction)
            hub = getattr(h.presenter, "hubs", {}).get("dc")
            if isinstance(hub, OutboxHub) and tour.open and tour.chat_id == chat_of(interaction):
                # the one message, posted anew in its channel (not in a match's thread), edited from now on
                msg = h.brackets.message(tour, t) if h.brackets is not None else \
                    render_tournament(tour, t, h.manager.clock.now())
                hub.replace(chat_of(interaction), tournament_key(tour.tournament_id), msg)
            else:  # over (or no outbox): where it stands, to the asker
                await h.answer(interaction, render_tournament(tour, t, h.manager.clock.now()).text)
                return
    except TableError as e:
        await h.answer(interaction, _error(e.code, e.params, t))
        return
    await h.answer(interaction, t.gettext("Done: the tournament's message in this channel shows where it stands."))
