"""What each slash command and each button press does: decode, call the table manager, answer.

Every interaction is acknowledged first (a defer, well inside Discord's 3 seconds) and then
answered by editing that response; the interaction's token is never kept, so nothing relies on a
token older than 15 minutes. Answers that concern one person (a hand, a refusal, a confirmation)
are ephemeral. Public table messages are the presenter's: they go through the outbox.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.adapters.discord.base import HandlerBase, Interaction
from bot.adapters.discord.common import _error, chat_of, lang_set, person_of, summary_text
from bot.adapters.discord.components import ACTIVITY_PREFIX
from bot.adapters.discord.transport import dm_dest, player_id
from bot.core.commands import (
    Act,
    Answers,
    Begin,
    ChangeNotify,
    ChangeSettings,
    Claim,
    Hint,
    Join,
    Leave,
    NewTable,
    Rematch,
    Review,
    SetLanguage,
    ShowHand,
    ShowLeaderboard,
    ShowScores,
    Stop,
    TournamentAction,
)
from bot.core.errors import Refusal, TableError
from bot.core.identity import ascii_int
from bot.core.model import TableSnapshot
from bot.core.notify import NotifyState, parse_share
from bot.present import codec
from bot.present.i18n import T, translator
from bot.present.outbox import Forbidden, TransportError
from bot.present.render import (
    render_hand,
    render_help,
    render_leaderboard,
    render_rules,
    render_scores,
)
from bot.present.render.advice import advice_text
from bot.present.render.cards import game_name
from bot.present.render.message import OutMessage
from bot.present.render.notify import DISCORD_USAGE, render_notify_state

log = logging.getLogger(__name__)

GAMES = ("tarneeb41", "tarneeb", "trix")


class Handlers(HandlerBase):
    """The adapter's behaviour, independent of how commands are declared.

    ``presenter`` (optional) is told when a person's DMs work again, so that their hands resume.
    ``web_link(snapshot, seat, player_id, t)`` (optional, set by ``run`` with the web table on) gives
    the ephemeral hand an "Open table" link to the player's signed web page.
    """

    # ---- slash commands ----

    async def new(self, interaction: Interaction, game: str, target: int | None) -> None:
        """``/majlis new``: open a table in this channel with the caller in seat 0."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        options = {"target": target} if target else None
        try:
            snap = await self.dispatch(NewTable(game, options), interaction)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        text = t.gettext("{game} · table {table} · waiting for players", game=game_name(game, t),
                         table=snap.table_id)
        await self.answer(interaction, await self._dm_probe(interaction, snap, 0, t, text))

    async def join(self, interaction: Interaction) -> None:
        """``/majlis join``: sit at this channel's table."""
        await self.ack(interaction)
        await self._join(interaction, None, None)

    async def leave(self, interaction: Interaction) -> None:
        """``/majlis leave``."""
        await self.ack(interaction)
        await self._simple(interaction, Leave())

    async def begin(self, interaction: Interaction) -> None:
        """``/majlis begin``: start the match now (AI players take empty seats)."""
        await self.ack(interaction)
        await self._simple(interaction, Begin())

    async def stop(self, interaction: Interaction) -> None:
        """``/majlis stop``: the creator, or anyone with Manage Server."""
        await self.ack(interaction)
        await self._simple(interaction, Stop())

    async def hand(self, interaction: Interaction) -> None:
        """``/majlis hand``: your cards here, only for you, with the moves you may make now."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        await self._show_hand(interaction, None, t)

    async def scores(self, interaction: Interaction) -> None:
        """``/majlis scores``."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        try:
            snap = await self.dispatch(ShowScores(), interaction)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        await self.answer(interaction, render_scores(snap, t).text)

    async def leaderboard(self, interaction: Interaction, game: str | None) -> None:
        """``/majlis leaderboard``: this channel's best players of one game."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        if game is None:
            snap = self.manager.table_in_chat(chat_of(interaction))
            game = snap.table.game if snap else GAMES[0]
        try:
            boards = await self.dispatch(ShowLeaderboard((game,)), interaction)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        await self.answer(interaction, render_leaderboard(boards[game], game, t).text)

    async def rules(self, interaction: Interaction, game: str | None) -> None:
        """``/majlis rules``."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        if game is None:
            snap = self.manager.table_in_chat(chat_of(interaction))
            game = snap.table.game if snap else ""
        await self.answer(interaction, render_rules(game or "", t))

    async def help(self, interaction: Interaction) -> None:
        """``/majlis help``."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        await self.answer(interaction, render_help("discord", t))

    async def lang(self, interaction: Interaction, language: str, scope: str) -> None:
        """``/majlis lang``: the server's language (Manage Server) or your own."""
        await self.ack(interaction)
        person = person_of(interaction)
        try:
            await self.dispatch(SetLanguage(language, "me" if scope == "me" else "chat"), interaction)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, await self.translator_for(interaction)))
            return
        if scope == "me":
            self.forget(person.player_id)
        # the confirmation names the language chosen, in that language
        await self.answer(interaction, lang_set(translator(language)))

    async def settings(self, interaction: Interaction, turn: int | None, digits: str | None,
                       ai: str | None, scope: str = "server", *, notify: bool | None = None) -> None:
        """``/majlis settings``: turn timer, digits and AI level of the server, or of this channel only
        (``scope: channel``, an override; ``scope: reset`` forgets it); Manage Server."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        changes: dict[str, Any] = {}
        if turn is not None:
            changes["turn_seconds"] = turn
        if digits is not None:
            changes["digits"] = digits
        if ai is not None:
            changes["ai_level"] = ai
        if notify is not None:
            changes["notify"] = notify
        actor = await self.actor(interaction)
        chat_id = chat_of(interaction)
        try:
            if changes or scope == "reset":  # "channel": an override of this channel only
                await self.service.dispatch(ChangeSettings(changes, scope), actor)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        chat = await self.manager.chat_settings(chat_id)
        t = await self.translator_for(interaction)
        override = await self.manager.prefs.has_override(chat_id)
        lines = [t.gettext("Turn timer: {seconds} s", seconds=chat.turn_seconds),
                 t.gettext("Digits: {digits}", digits=chat.digits),
                 t.gettext("AI level: {level}", level=chat.ai_level),
                 t.gettext("Table calls (/notify tables on): allowed") if chat.notify
                 else t.gettext("Table calls (/notify tables on): not allowed"),
                 t.gettext("These settings apply to this channel only (an override of the server's).")
                 if override else t.gettext("These settings apply to the whole server.")]
        await self.answer(interaction, "\n".join(lines))

    async def notify(self, interaction: Interaction, turn: str | None, tables: bool | None,
                     matches: bool | None = None) -> None:
        """``/majlis notify``: one's own turn mention (``turn``: a share of the turn, or off), this
        server's table calls (``tables``) and one's private tournament match pings (``matches``);
        without options: what is chosen (bot/core/notify.py)."""
        await self.ack(interaction)
        t = await self.translator_for(interaction)
        actor = await self.actor(interaction)
        state: NotifyState | None = None
        try:
            if turn is not None:
                share = None if turn == "off" else parse_share(turn)
                if turn != "off" and share is None:
                    raise TableError(Refusal.BAD_OPTION, detail="turn: off, 25, 50, 75 or 90")
                state = await self.service.dispatch(ChangeNotify("turn", share), actor)
            if tables is not None:
                state = await self.service.dispatch(ChangeNotify("tables", on=tables), actor)
            if matches is not None:
                state = await self.service.dispatch(ChangeNotify("matches", on=matches), actor)
            if state is None:
                state = await self.service.dispatch(ChangeNotify(), actor)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        await self.answer(interaction, render_notify_state(state, t, usage=DISCORD_USAGE))

    # ---- buttons ----

    async def on_payload(self, interaction: Interaction, payload: str) -> None:
        """A pressed button or a chosen select option (any message, any age)."""
        try:
            cmd = codec.to_command(payload)
        except TableError as e:  # a forged, malformed or unknown payload: refused like any other press
            await self.ack(interaction)
            t = await self.translator_for(interaction)
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        if isinstance(cmd, Act):
            await self._act(interaction, cmd)
            return
        if isinstance(cmd, TournamentAction):  # bot/adapters/discord/tournaments.py
            await self._tournament_press(interaction, cmd)
            return
        await self.ack(interaction)
        snap = self.manager.get(cmd.table_id) if cmd.table_id is not None else None
        t = await self.translator_for(interaction, snap.table.chat_id if snap else None)
        if isinstance(cmd, ShowHand):
            await self._show_hand(interaction, cmd.table_id, t)
        elif isinstance(cmd, Join):
            await self._join(interaction, cmd.table_id, cmd.seat)
        elif isinstance(cmd, Hint | Review):
            await self._advice(interaction, cmd)
        else:
            await self._simple(interaction, cmd)

    async def _tournament_press(self, interaction: Interaction, cmd: TournamentAction) -> None:
        """A button of a tournament's message: acknowledged silently, since the message itself shows the
        change (edited by its listener); a refusal is told to the presser alone."""
        await self.ack(interaction, update=True)
        try:
            await self.dispatch(cmd, interaction)
        except TableError as e:
            await self.tell(interaction, _error(e.code, e.params, await self.translator_for(interaction)))

    async def launch(self, interaction: Interaction, payload: str) -> None:
        """"Open table" on a table message: the web table opens inside Discord, as an Activity, for
        the person who pressed (their seat, or a spectator's view: the page signs them in). The
        launch is the first and only response; a table that is not this channel's live one is refused."""
        table_id = ascii_int(payload.removeprefix(ACTIVITY_PREFIX))
        snap = self.manager.table_in_chat(chat_of(interaction))
        if snap is None or snap.table_id != table_id:
            await self.ack(interaction)
            t = await self.translator_for(interaction)
            await self.answer(interaction, _error(Refusal.NO_TABLE, {}, t))
            return
        await interaction.response.launch_activity()

    async def _act(self, interaction: Interaction, cmd: Act) -> None:
        """A move from a hand: the DM hand is refreshed by the presenter, an ephemeral one here."""
        message = interaction.message
        ephemeral = bool(message is not None and message.flags.ephemeral)
        await self.ack(interaction, update=True)
        snap = self.manager.get(cmd.table_id)
        t = await self.translator_for(interaction, snap.table.chat_id if snap else None)
        try:
            await self.dispatch(cmd, interaction)
        except TableError as e:
            await self.tell(interaction, _error(e.code, e.params, t))
            if ephemeral and e.code in (Refusal.STALE, Refusal.NOT_YOUR_TURN, Refusal.ILLEGAL):
                await self._refresh_hand(interaction, cmd.table_id, t)
            return
        if ephemeral:
            await self._refresh_hand(interaction, cmd.table_id, t)

    # ---- shared steps ----

    async def _advice(self, interaction: Interaction, cmd: Hint | Review) -> None:
        """A hint or a review: in the presser's ephemeral answer only (never the channel)."""
        t = await self.translator_for(interaction)
        try:
            answer = await self.dispatch(cmd, interaction)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        await self.answer(interaction, advice_text(answer, t))

    async def _simple(self, interaction: Interaction, cmd: Answers[TableSnapshot]) -> None:
        t = await self.translator_for(interaction)
        person = person_of(interaction)
        try:
            snap = await self.dispatch(cmd, interaction)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        if isinstance(cmd, (Begin, Claim, Rematch)) and snap.seat_of(person.player_id) is not None and snap.public:
            await self._show_hand(interaction, snap.table_id, t)
            return
        await self.answer(interaction, summary_text(snap, t))

    async def _join(self, interaction: Interaction, table_id: int | None, seat: int | None) -> None:
        t = await self.translator_for(interaction)
        person = person_of(interaction)
        try:
            snap = await self.dispatch(Join(table_id, seat), interaction)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        mine = snap.seat_of(person.player_id)
        if mine is None:  # the table filled and began with the join; show where things stand
            await self.answer(interaction, summary_text(snap, t))
            return
        text = t.gettext("Seat {seat}: {name}", seat=mine, name=person.name)
        await self.answer(interaction, await self._dm_probe(interaction, snap, mine, t, text))

    async def _dm_probe(self, interaction: Interaction, snap: TableSnapshot, seat: int, t: T, text: str) -> str:
        """Greet the new player by DM; if Discord refuses (50007), say to use My hand instead."""
        if self.transport is None:
            return text
        person = person_of(interaction)
        greeting = t.gettext("You sit in seat {seat} at table {table} ({game}). Your cards will come here.",
                             seat=seat, table=snap.table_id, game=game_name(snap.table.game, t))
        try:
            await self.transport.send(dm_dest(interaction.user.id), OutMessage(greeting, notify=False))
        except Forbidden:
            await self.manager.update_player(person.player_id, dm_ok=False)
            self.forget(person.player_id)
            return text + "\n" + t.gettext(
                "{name}, I cannot send you your cards privately. Open a private chat with me, then press My hand.",
                name=person.name)
        except TransportError:
            log.info("greeting %s by DM failed", person.player_id)
            return text
        rec = await self.manager.player(person)
        if rec.dm_ok is False:
            if self.presenter is not None:
                await self.presenter.dm_restored(person.player_id)
            else:
                await self.manager.update_player(person.player_id, dm_ok=True)
        return text

    async def _hand_message(self, interaction: Interaction, table_id: int | None, t: T) -> OutMessage:
        hand = await self.dispatch(ShowHand(table_id), interaction)
        msg = render_hand(hand.snapshot, hand.view, t)
        link = self.web_link(hand.snapshot, hand.seat, player_id(interaction.user.id), t) if self.web_link else None
        return OutMessage(msg.text, (*msg.buttons, (link,)), msg.notify) if link is not None else msg

    async def _show_hand(self, interaction: Interaction, table_id: int | None, t: T) -> None:
        try:
            msg = await self._hand_message(interaction, table_id, t)
        except TableError as e:
            await self.answer(interaction, _error(e.code, e.params, t))
            return
        await self.answer(interaction, msg.text, msg)

    async def _refresh_hand(self, interaction: Interaction, table_id: int, t: T) -> None:
        try:
            msg = await self._hand_message(interaction, table_id, t)
        except TableError:
            return
        await self.answer(interaction, msg.text, msg)
