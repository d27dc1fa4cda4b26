"""``/stats`` and ``/profile`` on Telegram (bot/core/profiles.py; the dispatch decides who sees what).

    /stats                 in a group: your season and all-time figures here; in private: across every chat
    /profile               in a group: your card here; in private: your card across every chat
    /profile (as a reply)  in a group: the card here of the person whose message you answer

A card across every chat is answered only in the private chat; its web page link (when the web
table runs) is signed for the person and opens their own page only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from telegram import Update
from telegram.ext import ContextTypes

from bot.adapters.telegram.common import GROUP_TYPES, person_of
from bot.core.commands import ShowProfile
from bot.core.errors import TableError
from bot.core.profiles import Profile
from bot.present.i18n import T
from bot.present.render.errors import render_error
from bot.present.render.profile import render_profile, render_record

if TYPE_CHECKING:
    from bot.adapters.telegram.handlers import Handlers


async def _profile(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE, *, other: bool,
                   ) -> tuple[Profile, str, T] | None:
    """The asker's profile (or, ``other`` and answering a message in a group, its sender's), the
    destination, and the words to answer in (the group's for a league's figures, else the person's)."""
    where = h._where(update)
    if where is None:
        return None
    message, user, dest = where
    in_group = message.chat.type in GROUP_TYPES
    cmd = ShowProfile(everywhere=not in_group)
    target = message.reply_to_message.from_user if other and message.reply_to_message else None
    if in_group and target is not None and not target.is_bot and target.id != user.id:
        who = person_of(target)
        cmd = ShowProfile(player_id=who.player_id, name=who.name)
    try:
        profile = await h.dispatch(cmd, h.actor(context, message, user))
    except TableError as e:
        t = await h.chat_t(dest, user) if in_group else await h.person_t(user)
        await h.reply(dest, render_error(e.code, e.params, t))
        return None
    t = await h.chat_t(dest, user) if profile.league is not None else await h.person_t(user)
    return profile, dest, t


async def stats(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/stats``: the sender's record (this group's league, or every chat in private)."""
    found = await _profile(h, update, context, other=False)
    if found is None:
        return
    profile, dest, t = found
    await h.reply(dest, render_record(profile, t))


async def profile(h: Handlers, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """``/profile``: the card (see the module)."""
    found = await _profile(h, update, context, other=True)
    if found is None:
        return
    card, dest, t = found
    link = h.s.profile_link(card.player_id, card.league) if h.s.profile_link is not None else None
    await h.reply(dest, render_profile(card, t, link))
