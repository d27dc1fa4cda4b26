"""Chat and player settings: the one place they are read, cached and changed.

:class:`Prefs` passes chat and player records through to storage and keeps the one preference
cache of the process (used by the table manager, the presenter and both chat adapters): bounded in
size (least recently used out first) and re-read from storage after ``ttl`` seconds.

Several processes on one PostgreSQL (:meth:`Prefs.listen`): every change a process stores is
announced on the channel ``majlis_prefs`` (``chat:<id>``, ``player:<id>``, ``subs:<id>``: a chat's
subscribers, bot/core/notify.py), and every process reads
an entry it holds again at once, so a language or a turn timer changed through one process is used
by all of them within one notification's time (``bench/routing.py`` measures it); the time bound
stays as the safety net (a lost listening connection clears the whole cache when it comes back).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import engine
from bot.core.advice import HINTS, engine_options
from bot.core.cache import TTLCache
from bot.core.errors import Refusal, TableError
from bot.core.identity import is_dc_channel, is_dm, is_tg_topic
from bot.core.lang import resolve_lang
from bot.core.model import Person
from engine import InvalidOptions
from storage.records import HANDS, ChatRecord, PlayerRecord
from storage.repository import Repository

log = logging.getLogger(__name__)

#: The channel on which stored settings changes are announced to the other processes.
PREFS_CHANNEL = "majlis_prefs"

#: Entries kept per cache, and the seconds after which an entry is read from storage again.
CACHE_SIZE = 10_000
CHAT_TTL = 300.0
PLAYER_TTL = 30.0
#: Subscribers of a chat read from storage (more than any one message may mention).
MAX_SUBSCRIBERS = 100
#: The meta key (with the player id) of a person who turned their tournament match pings off.
MATCH_PINGS_OFF = "notify-matches-off:"


def check_options(game: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The engine's resolved options of ``game``, else ``TableError(Refusal.BAD_OPTION/"unknown_game")``."""
    hints = options.get(HINTS)
    if hints is not None and type(hints) is not bool:
        raise TableError(Refusal.BAD_OPTION, detail=f"{HINTS} is true or false")
    try:
        probe = engine.new_game(game, seed=seed, options=engine_options(options))
    except InvalidOptions as e:
        raise TableError(Refusal.BAD_OPTION, detail=str(e)) from None
    except ImportError:
        raise TableError(Refusal.UNKNOWN_GAME, game=game) from None
    except (TypeError, ValueError) as e:
        raise TableError(Refusal.BAD_OPTION, detail=str(e)) from None
    resolved = dict(getattr(probe, "options", engine_options(options)))
    return resolved if hints is None else {**resolved, HINTS: hints}


class Prefs:
    """Chat and player records through one bounded, expiring cache."""

    def __init__(self, repo: Repository, *, default_turn_seconds: int = 60, size: int = CACHE_SIZE,
                 chat_ttl: float = CHAT_TTL, player_ttl: float = PLAYER_TTL, default_ai_level: str = "normal",
                 default_digits: str = "western") -> None:
        self.repo = repo
        self.default_turn_seconds = default_turn_seconds
        self.default_ai_level = default_ai_level  # a chat's until it stores its own (MAJLIS_AI_LEVEL)
        self.default_digits = default_digits  # likewise (MAJLIS_DIGITS)
        self._chats: TTLCache[str, tuple[ChatRecord | None]] = TTLCache(size, chat_ttl)  # the stored record
        self._players: TTLCache[str, PlayerRecord | None] = TTLCache(size, player_ttl)
        self._parents: TTLCache[str, str] = TTLCache(size)
        self._subs: TTLCache[str, tuple[tuple[str, str], ...]] = TTLCache(size, chat_ttl)  # scope -> subscribers
        self._notify: Any = None  # the repository's notify() once listening (several processes)
        self._refreshing: set[asyncio.Task[None]] = set()
        self.refreshed = 0  # entries read again because another process changed them (tests, bench)

    # -- several processes: announce what is stored, hear what the others store -----------------

    async def listen(self) -> bool:
        """Hear the other processes' changes (PostgreSQL LISTEN/NOTIFY); False where storage cannot."""
        listen = getattr(self.repo, "listen", None)
        if listen is None or self._notify is not None:
            return self._notify is not None
        await listen(PREFS_CHANNEL, self._heard)
        self._notify = self.repo.notify  # type: ignore[attr-defined]
        return True

    async def _announce(self, kind: str, key: str) -> None:
        if self._notify is not None:
            try:
                await self._notify(PREFS_CHANNEL, f"{kind}:{key}")
            except Exception:  # stored already; the others see it when their entry expires
                log.warning("could not announce the change of %s %s", kind, key, exc_info=True)

    def _heard(self, payload: str) -> None:
        if payload == "*":  # the listening connection came back: anything may have changed
            self._chats.clear()
            self._players.clear()
            self._subs.clear()
            return
        kind, _, key = payload.partition(":")
        cache: Any = {"chat": self._chats, "player": self._players, "subs": self._subs}.get(kind)
        if cache is None or key not in cache:
            return
        task = asyncio.get_running_loop().create_task(self._reread(kind, key))
        self._refreshing.add(task)
        task.add_done_callback(self._refreshing.discard)

    async def _reread(self, kind: str, key: str) -> None:
        try:
            if kind == "chat":
                self._chats.put(key, (await self.repo.get_chat(key),))
            elif kind == "subs":
                self._subs.put(key, tuple(await self.repo.subscribers(key, MAX_SUBSCRIBERS)))
            else:
                self._players.put(key, await self.repo.get_player(key))
            self.refreshed += 1
        except Exception:  # storage away: forget it, so that the next use reads it
            forget: Any = {"chat": self._chats, "subs": self._subs}.get(kind, self._players)
            forget.discard(key)

    # -- chats ----------------------------------------------------------------------------------
    #
    # A chat may have a parent whose settings it uses while it has none of its own: a Discord
    # channel uses its server's (``dc:guild:<id>``) unless a channel override was stored.

    async def _stored(self, chat_id: str) -> ChatRecord | None:
        hit = self._chats.get(chat_id)
        if hit is None:
            hit = (await self.repo.get_chat(chat_id),)
            self._chats.put(chat_id, hit)
        return hit[0]

    async def link_parent(self, chat_id: str, parent_id: str) -> None:
        """Remember durably that ``chat_id`` belongs to ``parent_id`` (a channel to its server)."""
        if self._parents.peek(chat_id) == parent_id:
            return
        value = await self.repo.set_meta_if_absent(f"parent:{chat_id}", parent_id)
        self._parents.put(chat_id, value)

    async def parent(self, chat_id: str) -> str | None:
        """The chat's parent (its Discord server; a tournament venue's topic: its group), if known."""
        hit = self._parents.peek(chat_id)
        if hit is None and (is_dc_channel(chat_id) or is_tg_topic(chat_id)):  # a topic: a tournament's venue
            hit = await self.repo.get_meta(f"parent:{chat_id}") or ""  # "": none (remembered too)
            self._parents.put(chat_id, hit)
        return hit or None

    def settings_scope(self, chat_id: str) -> str:
        """Where a chat's admins change its settings: its server if it has one, else the chat."""
        return self._parents.peek(chat_id) or chat_id

    async def has_override(self, chat_id: str) -> bool:
        """Whether a chat that has a parent stores settings of its own (a Discord channel override)."""
        return await self.parent(chat_id) is not None and await self._stored(chat_id) is not None

    async def chat(self, chat_id: str) -> ChatRecord:
        """The chat's settings: its own, else its parent's, else the defaults."""
        own = await self._stored(chat_id)
        if own is not None:
            return own
        parent = await self.parent(chat_id)
        if parent is not None:
            inherited = await self._stored(parent)
            if inherited is not None:
                return dataclasses.replace(inherited, chat_id=chat_id)
        return ChatRecord(chat_id=chat_id, turn_seconds=self.default_turn_seconds, ai_level=self.default_ai_level,
                          digits=self.default_digits)

    def turn_seconds(self, chat_id: str) -> float:
        """The chat's turn timer as last read (the default if it was never read)."""
        hit = self._chats.peek(chat_id)
        chat = hit[0] if hit is not None else None
        if chat is None:
            parent = self._parents.peek(chat_id)
            hit = self._chats.peek(parent) if parent else None
            chat = hit[0] if hit is not None else None
        return float(chat.turn_seconds) if chat is not None else float(self.default_turn_seconds)

    def hands(self, chat_id: str) -> str:
        """Where the chat's hands go as last read (``ChatRecord.hands``; the default if never read)."""
        hit = self._chats.peek(chat_id)
        chat = hit[0] if hit is not None else None
        return chat.hands if chat is not None else HANDS[0]

    async def update_chat(self, chat_id: str, **changes: Any) -> ChatRecord:
        """Change and store chat settings (``lang``, ``turn_seconds``, ``default_options`` ...)."""
        chat = await self.chat(chat_id)
        fields = {f.name for f in dataclasses.fields(ChatRecord)} - {"chat_id"}
        unknown = set(changes) - fields
        if unknown:
            raise TableError(Refusal.BAD_OPTION, detail=f"unknown chat settings {sorted(unknown)}")
        if "turn_seconds" in changes and (type(changes["turn_seconds"]) is not int
                                          or changes["turn_seconds"] < 0):
            raise TableError(Refusal.BAD_OPTION, detail="turn_seconds must be a whole number of seconds")
        if changes.get("ai_level", "easy") not in ("easy", "normal", "strong"):
            raise TableError(Refusal.BAD_OPTION, detail="ai_level is easy, normal or strong")
        if changes.get("digits", "western") not in ("western", "arabic"):
            raise TableError(Refusal.BAD_OPTION, detail="digits is western or arabic")
        if changes.get("hands", HANDS[0]) not in HANDS:
            raise TableError(Refusal.BAD_OPTION, detail="hands is both, group or dm")
        if type(changes.get("notify", False)) is not bool:
            raise TableError(Refusal.BAD_OPTION, detail="notify is on or off")
        if "default_options" in changes:
            for game, opts in dict(changes["default_options"]).items():
                if game not in engine.GAME_IDS:
                    raise TableError(Refusal.UNKNOWN_GAME, game=str(game))
                check_options(game, 0, dict(opts))
        chat = dataclasses.replace(chat, **changes)
        await self.repo.save_chat(chat)
        self._chats.put(chat_id, (chat,))
        await self._announce("chat", chat_id)
        return chat

    async def clear_override(self, chat_id: str) -> ChatRecord:
        """Forget a channel's own settings: it follows its server's again (nothing to do elsewhere)."""
        if await self.parent(chat_id) is not None:
            await self.repo.delete_chat(chat_id)
            self._chats.put(chat_id, (None,))
            await self._announce("chat", chat_id)
        return await self.chat(chat_id)

    # -- languages: the one order, for the presenter and both adapters ---------------------------
    #
    # Public messages (a chat's table, replies in the chat): the chat's language (chosen with /lang,
    # or taken from the person who opened the chat's first table and stored then), else the
    # table's, else the platform hint of the person asking, else Arabic.
    # Private messages: the person's own choice, else the language of the chat concerned, else
    # their platform hint, else Arabic.

    async def public_lang(self, chat_id: str, fallback: str | None = None) -> tuple[str, str]:
        """(language, digits) of what is shown in a chat."""
        chat = await self.chat(chat_id)
        return resolve_lang(chat.lang, fallback), chat.digits

    async def private_lang(self, player_id: str, chat_id: str | None = None,
                           hint: str | None = None) -> tuple[str, str]:
        """(language, digits) of what one person is told, about ``chat_id``'s table or command."""
        record = await self.player_record(player_id)
        chat = await self.chat(chat_id) if chat_id and not is_dm(chat_id) else None
        lang = (record.lang if record is not None else None) or (chat.lang if chat is not None else None)
        return resolve_lang(lang, hint), chat.digits if chat is not None else "western"

    async def adopt_lang(self, chat_id: str, hint: str | None) -> ChatRecord:
        """A chat that never chose a language takes the one of the person opening its first table."""
        chat = await self.chat(chat_id)
        if chat.lang is not None:
            return chat
        await self.update_chat(self.settings_scope(chat_id), lang=resolve_lang(None, hint))
        return await self.chat(chat_id)

    # -- players --------------------------------------------------------------------------------

    async def player_record(self, player_id: str) -> PlayerRecord | None:
        """The stored record of a player (None if never seen), read only."""
        hit = self._players.get(player_id)
        if hit is None:  # never read, expired, or not stored yet
            hit = await self.repo.get_player(player_id)
            self._players.put(player_id, hit)
        return hit

    async def touch_player(self, person: Person) -> PlayerRecord:
        """The person's record, created on first sight; the stored name follows the platform's."""
        record = await self.player_record(person.player_id)
        changed = False
        if record is None:
            record = PlayerRecord(player_id=person.player_id, name=person.name)
            await self.repo.save_player(record)
            changed = True
        elif record.name != person.name and person.name:
            record = dataclasses.replace(record, name=person.name)
            await self.repo.save_player(record)
            changed = True
        self._players.put(person.player_id, record)
        if changed:
            await self._announce("player", person.player_id)
        return record

    async def update_player(self, player_id: str, **changes: Any) -> PlayerRecord:
        """Change and store a player's record (``lang``, ``dm_ok`` ...)."""
        record = await self.repo.get_player(player_id) or PlayerRecord(player_id=player_id, name="")
        fields = {f.name for f in dataclasses.fields(PlayerRecord)} - {"player_id"}
        if set(changes) - fields:
            raise TableError(Refusal.BAD_OPTION, detail=f"unknown player settings {sorted(set(changes) - fields)}")
        share = changes.get("turn_ping")
        if share is not None and (type(share) is not int or not 1 <= share <= 100):
            raise TableError(Refusal.BAD_OPTION, detail="turn_ping is a share of the turn timer from 1 to 100 (%)")
        record = dataclasses.replace(record, **changes)
        await self.repo.save_player(record)
        self._players.put(player_id, record)
        await self._announce("player", player_id)
        return record

    # -- subscriptions: who asked to be called when a table opens or a seat frees (bot/core/notify.py)

    async def notify_scope(self, chat_id: str) -> str:
        """Where a chat's subscriptions live: its Discord server if it has one, else the chat."""
        return await self.parent(chat_id) or chat_id

    async def subscribers(self, chat_id: str) -> tuple[tuple[str, str], ...]:
        """(player id, stored name) of who asked to be called in the chat (its server's), oldest first."""
        scope = await self.notify_scope(chat_id)
        hit = self._subs.get(scope)
        if hit is None:
            hit = tuple(await self.repo.subscribers(scope, MAX_SUBSCRIBERS))
            self._subs.put(scope, hit)
        return hit

    async def subscribe(self, chat_id: str, player_id: str, on: bool, now: float) -> bool:
        """Store that ``player_id`` asks (``on``) or no longer asks to be called in the chat; True if it
        changed. The other processes hear it (``subs:<scope>``)."""
        scope = await self.notify_scope(chat_id)
        changed = await self.repo.subscribe(scope, player_id, on, now)
        self._subs.discard(scope)
        if changed:
            await self._announce("subs", scope)
        return changed

    # -- a tournament match's private pings (bot/present/tournament_notices.py; /notify matches on|off)

    async def match_pings(self, player_id: str) -> bool:
        """Whether the person is told in private when their tournament match is called or its table opens
        (on unless they turned it off). Kept in meta (``notify-matches-off:<player>``: no migration), read
        each time: pings are few, and another process may have changed it."""
        return await self.repo.get_meta(f"{MATCH_PINGS_OFF}{player_id}") is None

    async def set_match_pings(self, player_id: str, on: bool) -> None:
        """Turn the person's tournament match pings on or off."""
        key = f"{MATCH_PINGS_OFF}{player_id}"
        if on:
            await self.repo.delete_meta(key)
        else:
            await self.repo.set_meta_if_absent(key, "off")

    def forget_chat(self, chat_id: str) -> None:
        """Read the chat's settings from storage next time (they moved, or changed elsewhere)."""
        self._chats.discard(chat_id)

    def forget_player(self, player_id: str) -> None:
        """Read the player's record from storage next time."""
        self._players.discard(player_id)
