"""Telegram commands → table manager calls: tables, information, admin settings, deep-link joins.

What the table looks like afterwards is the presenter's business: it hears the manager and edits the
live messages through the outbox. Button presses are in ``bot/adapters/telegram/buttons.py``.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes, filters

from bot.adapters.telegram import challenges, profile, seasons, texts, tournaments
from bot.adapters.telegram.buttons import Buttons
from bot.adapters.telegram.common import GROUP_TYPES, Base, Services, join_payload, person_of
from bot.adapters.telegram.transport import player_id
from bot.core.commands import (
    Answers,
    Begin,
    ChangeNotify,
    ChangeSettings,
    Join,
    JoinByLink,
    Leave,
    NewTable,
    R,
    SetLanguage,
    ShowHand,
    ShowLeaderboard,
    ShowScores,
    Stop,
)
from bot.core.errors import Refusal, TableError
from bot.core.identity import ascii_int
from bot.core.lang import normalize_lang, resolve_lang
from bot.core.notify import parse_share
from bot.present.i18n import translator
from bot.present.outbox import TransportError
from bot.present.render import render_help, render_leaderboard, render_rules, render_scores
from bot.present.render.errors import render_error
from bot.present.render.notify import TELEGRAM_USAGE, render_notify_state
from storage.records import HANDS

log = logging.getLogger(__name__)

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]

__all__ = ["Handlers", "Services", "join_payload"]  # Services and join_payload live in common


class Handlers(Base):
    """The update handlers of one Application."""

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Register every command and the button handler on ``app``."""
        commands: dict[str, Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]] = {
            "start": self.start, "new": self.new, "join": self.join, "leave": self.leave,
            "begin": self.begin, "stop": self.stop, "scores": self.scores,
            "leaderboard": self.leaderboard, "stats": functools.partial(profile.stats, self), "lang": self.lang,
            "settings": self.settings, "rules": self.rules, "help": self.help, "notify": self.notify,
            "top": self.leaderboard, "language": self.lang, "hand": self.hand,
            "season": functools.partial(seasons.season, self),
            "challenge": functools.partial(challenges.challenge, self),
            "profile": functools.partial(profile.profile, self),
            "tournament": functools.partial(tournaments.tournament, self),
        }
        for name, callback in commands.items():
            app.add_handler(CommandHandler(name, self._guarded(callback), filters=filters.UpdateType.MESSAGE))
        app.add_handler(CallbackQueryHandler(Buttons(self.s).press))
        app.add_error_handler(self.error)
    def _guarded(self, callback: Handler) -> Handler:
        """Every command is answered: what a handler did not expect is logged and apologized for."""
        async def guarded(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            try:
                if await self._throttled(update):
                    return
                await callback(update, context)
            except Exception:
                log.exception("telegram command failed on %r", update)
                where = self._where(update)
                if where is not None:
                    try:
                        t = (await self.chat_t(where[2], where[1]) if where[0].chat.type in GROUP_TYPES
                             else await self.person_t(where[1]))
                    except Exception:
                        t = translator(resolve_lang(None, where[1].language_code))
                    await self.reply(where[2], render_error("internal", {}, t))
        return guarded

    async def _throttled(self, update: Update) -> bool:
        """Whether the sender is over their command limit in this chat (bot/core/settings.py
        ``CommandLimits``): the first command over it is answered "slow down", later ones in the
        same window are dropped without a word (a reply would spend the group's budget)."""
        where = self._where(update)
        if where is None:
            return False
        message, user, dest = where
        verdict = self.s.command_verdict(dest, player_id(user.id))
        if verdict.ok:
            return False
        log.info("command of %s in %s dropped (over the limit for %.1f s)", user.id, dest, verdict.wait)
        if verdict.first:
            t = await self.chat_t(dest, user) if message.chat.type in GROUP_TYPES else await self.person_t(user)
            await self.reply(dest, render_error("slow_down", {"seconds": max(1, math.ceil(verdict.wait))}, t))
        return True

    async def _command(self, update: Update, context: ContextTypes.DEFAULT_TYPE, cmd: Answers[R]) -> R | None:
        """Dispatch a group command; a refusal is answered in the group. None if refused."""
        where = self._where(update)
        if where is None:
            return None
        message, user, chat_id = where
        if message.chat.type not in GROUP_TYPES:
            await self.reply(chat_id, texts.private_only(await self.person_t(user)))
            return None
        try:
            return await self.dispatch(cmd, self.actor(context, message, user))
        except TableError as e:
            await self.reply(chat_id, render_error(e.code, e.params, await self.chat_t(chat_id, user)))
            return None

    # ------------------------------------------------------------------ table commands

    async def new(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/new <game> [key=value ...]``."""
        args = list(context.args or [])
        game = texts.GAME_ALIASES.get(args[0].lower()) if args else None
        if game is None:
            where = self._where(update)
            if where is not None:
                t = (await self.chat_t(where[2], where[1]) if where[0].chat.type in GROUP_TYPES
                     else await self.person_t(where[1]))
                await self.reply(where[2], texts.new_usage(t))
            return
        options = texts.parse_options(args[1:])
        await self._command(update, context, NewTable(game, options or None))

    async def join(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/join [seat]``."""
        args = context.args or []
        seat = ascii_int(args[0]) if args else None
        await self._command(update, context, Join(seat=seat))

    async def leave(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/leave``."""
        await self._command(update, context, Leave())

    async def begin(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/begin``: start now, AI players in the empty seats."""
        await self._command(update, context, Begin())

    async def stop(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/stop`` (the creator or an admin)."""
        await self._command(update, context, Stop())

    # ------------------------------------------------------------------ information commands

    async def scores(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/scores``: this table's running totals."""
        snap = await self._command(update, context, ShowScores())
        where = self._where(update)
        if snap is not None and where is not None:
            await self.reply(where[2], render_scores(snap, await self.chat_t(where[2], where[1])))

    async def leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/leaderboard [game]``: this group's best per game."""
        args = context.args or []
        wanted = texts.GAME_ALIASES.get(args[0].lower()) if args else None
        boards = await self._command(update, context, ShowLeaderboard((wanted,) if wanted else texts.GAMES))
        where = self._where(update)
        if boards is None or where is None:
            return
        t = await self.chat_t(where[2], where[1])
        await self.reply(where[2], "\n\n".join(render_leaderboard(rows, game, t).text
                                               for game, rows in boards.items()))

    async def rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/rules [game]``."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        args = context.args or []
        game = texts.GAME_ALIASES.get(args[0].lower()) if args else None
        t = await self.chat_t(dest, user) if message.chat.type in GROUP_TYPES else await self.person_t(user)
        await self.reply(dest, render_rules(game or "", t))

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/help``."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        t = await self.chat_t(dest, user) if message.chat.type in GROUP_TYPES else await self.person_t(user)
        await self.reply(dest, render_help("telegram", t))

    async def hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/hand``: a fresh copy of the sender's hand in the private chat (the group is told if that
        fails); in the group, the hand at this group's table (the dispatch checks they sit there; a
        refusal is answered in the group), shown to them only in the group when the chat's hands go
        only there (``hands=group``). In private: the hands of every table they sit at."""
        where = self._where(update)
        if where is None or self.s.on_hand is None:
            return
        message, user, dest = where
        snap = None
        if message.chat.type in GROUP_TYPES:
            shown = await self._command(update, context, ShowHand())
            if shown is None:
                return
            snap = shown.snapshot
            hands = self.s.hands
            if hands is not None and (await self.s.manager.chat_settings(dest)).hands == "group":
                try:
                    await hands.show(snap, person_of(user).player_id)
                except TransportError:
                    log.info("ephemeral hand for %s refused", user.id, exc_info=True)
                else:
                    return
        await self.s.on_hand(person_of(user), snap)

    # ------------------------------------------------------------------ admin commands

    async def lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/lang ar|en``: the group's language (admins), or one's own in private."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        args = context.args or []
        lang = normalize_lang(args[0]) if args else None
        in_group = message.chat.type in GROUP_TYPES
        if lang is None:
            t = await self.chat_t(dest, user) if in_group else await self.person_t(user)
            await self.reply(dest, texts.lang_usage(t))
            return
        try:
            record = await self.dispatch(SetLanguage(lang, "chat" if in_group else "me"),
                                         self.actor(context, message, user))
        except TableError as e:
            t = await self.chat_t(dest, user) if in_group else await self.person_t(user)
            await self.reply(dest, render_error(e.code, e.params, t))
            return
        if not in_group and self.s.on_lang is not None:
            self.s.on_lang(player_id(user.id))
        # the confirmation names the language chosen, in that language
        await self.reply(dest, texts.lang_set(translator(lang, getattr(record, "digits", "western"))))

    async def settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/settings [turn=N] [digits=…] [ai=…] [hands=both|group|dm] [GAME.key=value]`` (admins
        change, anyone reads)."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        if message.chat.type not in GROUP_TYPES:
            await self.reply(dest, texts.private_only(await self.person_t(user)))
            return
        t = await self.chat_t(dest, user)
        args = context.args or []
        if not args:
            await self.reply(dest, texts.settings_text(await self.s.manager.chat_settings(dest), t))
            return
        changes = _settings_changes(texts.parse_options(args),
                                    (await self.s.manager.chat_settings(dest)).default_options)
        try:
            if changes is None:
                if not await self.actor(context, message, user).is_admin():
                    raise TableError(Refusal.ADMINS_ONLY)
                await self.reply(dest, texts.settings_usage(t))
                return
            chat = await self.dispatch(ChangeSettings(changes), self.actor(context, message, user))
        except TableError as e:
            await self.reply(dest, render_error(e.code, e.params, t))
            return
        await self.reply(dest, texts.settings_text(chat, await self.chat_t(dest, user)))

    async def notify(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/notify``: one's own notifications (bot/core/notify.py): ``turn 50%`` / ``turn off`` (a mention
        in the group when still one's turn after that share of it), ``tables on|off`` (this group's
        calls, where an admin allowed them); without words: what is chosen."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        in_group = message.chat.type in GROUP_TYPES
        t = await self.chat_t(dest, user) if in_group else await self.person_t(user)
        cmd = notify_command([a.lower() for a in context.args or []])
        try:
            if cmd is None:
                raise TableError(Refusal.BAD_OPTION, detail=TELEGRAM_USAGE)
            state = await self.dispatch(cmd, self.actor(context, message, user))
        except TableError as e:
            await self.reply(dest, render_error(e.code, e.params, t))
            return
        await self.reply(dest, render_notify_state(state, t))

    # ------------------------------------------------------------------ private chat

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/start [payload]`` in private: the person can now be messaged; a join payload seats them."""
        where = self._where(update)
        if where is None:
            return
        message, user, dest = where
        person = person_of(user)
        if message.chat.type in GROUP_TYPES:
            await self.reply(dest, render_help("telegram", await self.chat_t(dest, user)))
            return
        await self.s.manager.player(person)
        await self.s.manager.update_player(person.player_id, dm_ok=True)
        t = await self.person_t(user)
        args = context.args or []
        if not args:
            await self.reply(dest, texts.welcome_text(t))
        else:
            try:
                snap = await self.dispatch(JoinByLink(args[0]), self.actor(context, message, user))
            except TableError as e:
                await self.reply(dest, render_error(e.code, e.params, t))
            else:
                seat = snap.seat_of(person.player_id)
                if seat is not None:  # in the language the table's chat speaks, unless they chose theirs
                    lang, digits = await self.s.manager.prefs.private_lang(
                        person.player_id, snap.table.chat_id, user.language_code)
                    await self.reply(dest, texts.joined_text(snap, seat, translator(lang, digits)))
        if self.s.on_started is not None:
            await self.s.on_started(person)

    async def error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log what a handler did not expect."""
        log.error("telegram handler failed on %r", update, exc_info=context.error)


def _settings_changes(opts: dict[str, Any], defaults: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """``update_chat`` keyword changes from ``/settings`` words, or None if one is not understood."""
    changes: dict[str, Any] = {}
    new_defaults = {g: dict(o) for g, o in defaults.items()}
    for key, value in opts.items():
        if isinstance(value, str) and _foreign_digits(value):
            return None  # "turn=٣٠", "tarneeb.target=٤١", "turn=²": numbers are ASCII digits only
        if key in ("turn", "timer", "turn_seconds") and isinstance(value, int) and value >= 0:
            changes["turn_seconds"] = value
        elif key == "digits" and value in ("western", "arabic"):
            changes["digits"] = value
        elif key in ("ai", "ai_level") and value in ("easy", "normal", "strong"):
            changes["ai_level"] = value
        elif key == "hands" and value in HANDS:
            changes["hands"] = value
        elif key == "notify" and isinstance(value, bool):  # parse_options reads on/off as True/False
            changes["notify"] = value
        elif "." in key and texts.GAME_ALIASES.get(key.split(".", 1)[0]):
            game = texts.GAME_ALIASES[key.split(".", 1)[0]]
            new_defaults.setdefault(game, {})[key.split(".", 1)[1]] = value
        else:
            return None
    if new_defaults != defaults:
        changes["default_options"] = new_defaults
    return changes or None


def notify_command(words: list[str]) -> ChangeNotify | None:
    """The ``ChangeNotify`` of ``/notify`` words, None if they are not understood."""
    if not words:
        return ChangeNotify()
    if len(words) == 2 and words[0] == "turn":
        if words[1] == "off":
            return ChangeNotify("turn", None)
        share = parse_share(words[1])
        return ChangeNotify("turn", share) if share is not None else None
    if len(words) == 2 and words[0] in ("tables", "matches") and words[1] in ("on", "off"):
        return ChangeNotify(words[0], on=words[1] == "on")
    return None


def _foreign_digits(text: str) -> bool:
    """Whether ``text`` holds a digit or number sign that is not ASCII (Arabic-Indic ``٣``, ``۳``,
    ``²``, ``①``): ``int()`` would read some of them, ``bot.core.identity.ascii_int`` reads none."""
    return any(not ch.isascii() and ch.isnumeric() for ch in text)
