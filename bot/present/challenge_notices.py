"""What a chat and its people are told of a duplicate challenge (bot/core/challenges.py).

The group gets one message for the challenge, kept under its key and edited as people finish (their
names, never their scores while it is open); when it closes, that message shows the final ranking and
the ranking is posted as a new message too. A person is told in private after each deal how far they
are. The close is announced only by the process that closed it (storage closes it once); the group's
message is edited by the process where each person played (a message id is kept per process, so after
a restart the next edit is a new message).
"""

from __future__ import annotations

from bot.core.challenges import Challenges, ChallengeUpdate
from bot.core.identity import dm_dest
from bot.core.prefs import Prefs
from bot.present.i18n import translator
from bot.present.outbox.hub import OutboxHub
from bot.present.outbox.types import EDIT, NEW
from bot.present.render.challenges import render_board_done, render_challenge


def challenge_key(challenge_id: int) -> str:
    """The outbox key of a challenge's group message."""
    return f"challenge:{challenge_id}"


def announce_challenges(challenges: Challenges, prefs: Prefs, hub: OutboxHub, prefix: str,
                        *, play: str = "/challenge play", show: str = "/challenge") -> None:
    """Tell the chats of one platform (``prefix``, ``"tg:"``) through ``hub`` of their challenges
    (``play`` and ``show``: the platform's commands that play and show one)."""

    async def on_update(update: ChallengeUpdate) -> None:
        ch = update.view.challenge
        if not ch.chat_id.startswith(prefix):
            return
        now = challenges.clock.now()
        if update.reason == "board" and update.player is not None and update.board is not None:
            record = await prefs.player_record(update.player)
            t = translator((record.lang if record is not None else None) or ch.lang)
            hub.put(dm_dest(update.player), None, render_board_done(update.view, update.board, t, show=show), NEW)
            return
        t = translator(*await prefs.public_lang(ch.chat_id, ch.lang))
        msg = render_challenge(update.view, t, now, play=play)
        hub.put(ch.chat_id, challenge_key(ch.challenge_id), msg, EDIT)
        if update.reason == "closed":
            hub.put(ch.chat_id, None, msg, NEW)

    challenges.subscribe(on_update)
