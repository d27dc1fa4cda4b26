"""``/majlis challenge`` in a Discord channel: the duplicate challenge (bot/core/challenges.py).

One subcommand whose ``action`` says what to do, as Telegram's ``/challenge``:

    /majlis challenge [action:show]        the channel's challenge message, posted anew; to the asker
                                           alone, how far they are, and once they played every deal
                                           their deals against the field
    /majlis challenge action:new game:<tarneeb41|tarneeb|trix> [deals:<1-16>] [days:<1-14>] [season:True]
                                           Manage Server: a challenge in this channel (8 deals, 3 days;
                                           season: it counts in the server's season)
    /majlis challenge action:play          your current deal, dealt in your direct messages with the bot,
                                           played there by its buttons (each deal a table of its own,
                                           at ``dm:dc:<user>``; the next is dealt when one ends)

The channel's message is posted and edited by :func:`bot.present.challenge_notices.announce_challenges`
(set up by the client), like Telegram's. Answers to the person who typed the command are ephemeral.
"""

from __future__ import annotations

from bot.adapters.discord.base import HandlerBase, Interaction
from bot.adapters.discord.common import _error, chat_of
from bot.core.commands import PlayChallenge, ShowChallenge, StartChallenge
from bot.core.errors import TableError
from bot.present.challenge_notices import challenge_key
from bot.present.i18n import translator
from bot.present.outbox.hub import OutboxHub
from bot.present.render.challenges import render_challenge, render_comparisons

#: The ``action`` choices, in the order Discord shows them.
ACTIONS = ("show", "new", "play")
#: The commands the challenge's texts name on Discord.
PLAY_COMMAND = "/majlis challenge action:play"
SHOW_COMMAND = "/majlis challenge"
NEW_COMMAND = "/majlis challenge action:new"
DEFAULT_BOARDS, DEFAULT_DAYS = 8, 3


async def challenge(h: HandlerBase, interaction: Interaction, action: str, *, game: str | None = None,
                    deals: int | None = None, days: int | None = None, season: bool | None = None) -> None:
    """``/majlis challenge`` (see the module): acknowledged at once, answered to the asker only."""
    await h.ack(interaction)
    t = await h.translator_for(interaction)
    now = h.manager.clock.now()
    try:
        if action == "new":
            if game is None:
                await h.answer(interaction, t.gettext(
                    "Name the game: {command} game:tarneeb41 (or tarneeb, or trix), with the number of deals "
                    "and of days.", command=NEW_COMMAND))
                return
            await h.dispatch(StartChallenge(game, deals or DEFAULT_BOARDS, days or DEFAULT_DAYS, bool(season)),
                             interaction)
            text = t.gettext("Done: the challenge's message in this channel says how to play it.")
        elif action == "play":
            await h.dispatch(PlayChallenge(), interaction)
            text = t.gettext("Your deal is waiting in our direct messages.")
        else:
            view = await h.dispatch(ShowChallenge(), interaction)
            hub = getattr(h.presenter, "hubs", {}).get("dc")
            if isinstance(hub, OutboxHub) and view.challenge.closed_at is None:  # the one message, posted anew
                public = translator(*await h.manager.prefs.public_lang(chat_of(interaction), view.challenge.lang))
                hub.replace(chat_of(interaction), challenge_key(view.challenge.challenge_id),
                            render_challenge(view, public, now, play=PLAY_COMMAND))
            text = render_comparisons(view, t, now, play=PLAY_COMMAND).text
    except TableError as e:
        text = _error(e.code, e.params, t)
    await h.answer(interaction, text)
