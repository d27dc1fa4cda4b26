"""The one dispatch: every command from every platform is authorized here, then run by the manager.

Rules (README "Who may do what"):

- A command names a table only through the chat it came from: the table must be the live table
  of that chat. From a private chat (DM) it must be a table where the person sits (or owns an
  away seat). A button of another table, a payload naming another chat's table, or a table the
  person does not sit at is refused (``wrong_table``, ``not_seated``) and nothing changes.
- Joining from a private chat needs the lobby's signed invitation (:class:`Links`): an HMAC of the
  table id under a per-install secret kept in the database. A forged link is ``bad_link``, a link
  to a table that is no longer open ``link_expired``; where the platform can tell, the person must
  be a member of the table's chat (``not_member``).
- A person who left a running match may take back only the seat they left (``left_seat``); the
  leave (and its loss) stands otherwise.
- Stop: the table's creator or an admin of its chat. Language and settings of a chat: its admins.
- A sender who is not one person (Telegram's anonymous group admins) may use admin commands but
  cannot sit (``anonymous``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, assert_never, cast

import engine
from bot.core.advice import hints_on
from bot.core.challenges import ChallengeView
from bot.core.cluster.routing import Router
from bot.core.commands import (
    Act,
    Actor,
    Advice,
    Answer,
    Answers,
    Begin,
    ChangeNotify,
    ChangeSeason,
    ChangeSettings,
    Claim,
    Command,
    EndSeason,
    Hand,
    Hint,
    Join,
    JoinByLink,
    Leaderboards,
    Leave,
    NewTable,
    NewTournament,
    NextDeal,
    PlayChallenge,
    Rematch,
    Review,
    SetLanguage,
    ShowChallenge,
    ShowHand,
    ShowLeaderboard,
    ShowProfile,
    ShowScores,
    ShowSeason,
    ShowSeasonHistory,
    StartChallenge,
    Stop,
    TournamentAction,
)
from bot.core.errors import Refusal, TableError
from bot.core.identity import is_dm
from bot.core.links import Links
from bot.core.model import TableSnapshot
from bot.core.notify import NotifyState
from bot.core.profiles import Profile, Profiles
from bot.core.seasons import Standings
from bot.core.table import Table
from bot.core.tournaments import tournament_command, tournament_new
from storage.records import (
    ChallengeRecord,
    ChampionRecord,
    ChatRecord,
    LeagueRecord,
    PlayerRecord,
    SeasonSummary,
    TableStatus,
)
from storage.tournaments import Tournament

if TYPE_CHECKING:
    from bot.core.manager import TableManager

R = TypeVar("R")


def _checked(cmd: Answers[R], answer: R) -> R:
    """``answer``, which mypy holds to be what ``cmd`` declares it answers (the handlers below)."""
    return answer


class Service:
    """``dispatch(command, actor)``: authorize, then call the manager; refusals raise ``TableError``."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    async def ready(self) -> Links:
        """The install's join links (the secret is read from storage on first use)."""
        return await self.manager.join_links()

    async def dispatch(self, cmd: Answers[R], actor: Actor, *, route: bool = True) -> R:
        """Run ``cmd`` for ``actor`` if they may; returns what the command answers (its class says what).

        With several processes (``manager.router``), a command for a table another live process
        holds is forwarded there and its answer returned (``bot/core/cluster/routing.py``); ``route=False``: here.
        """
        if not isinstance(cmd, Command):
            raise TableError(Refusal.BAD_ACTION)
        # the handler of cmd's type answered (_run holds each handler to its command's answer type)
        return cast(R, await self.answer(cmd, actor, route=route))

    async def answer(self, cmd: Command, actor: Actor, *, route: bool = True) -> Answer:
        """:meth:`dispatch` for a command of any type (what the cross-process router forwards)."""
        router = self.manager.router
        if route and router is not None:
            return await router.dispatch(cmd, actor, lambda: self._run(cmd, actor))
        return await self._run(cmd, actor)

    async def _run(self, cmd: Command, actor: Actor) -> Answer:
        """The handler of each command type."""
        match cmd:
            case Act():
                return _checked(cmd, await self._act(cmd, actor))
            case NextDeal():
                return _checked(cmd, await self._next_deal(cmd, actor))
            case ShowHand():
                return _checked(cmd, await self._show_hand(cmd, actor))
            case Hint():
                return _checked(cmd, await self._hint(cmd, actor))
            case Review():
                return _checked(cmd, await self._review(cmd, actor))
            case ShowScores():
                return _checked(cmd, await self._show_scores(cmd, actor))
            case ShowLeaderboard():
                return _checked(cmd, await self._show_leaderboard(cmd, actor))
            case NewTable():
                return _checked(cmd, await self._new_table(cmd, actor))
            case JoinByLink():
                return _checked(cmd, await self._join_by_link(cmd, actor))
            case Join():
                return _checked(cmd, await self._join(cmd, actor))
            case Leave():
                return _checked(cmd, await self._leave(cmd, actor))
            case Begin():
                return _checked(cmd, await self._begin(cmd, actor))
            case Claim():
                return _checked(cmd, await self._claim(cmd, actor))
            case Stop():
                return _checked(cmd, await self._stop(cmd, actor))
            case Rematch():
                return _checked(cmd, await self._rematch(cmd, actor))
            case SetLanguage():
                return _checked(cmd, await self._set_language(cmd, actor))
            case ChangeSettings():
                return _checked(cmd, await self._change_settings(cmd, actor))
            case ShowSeason():
                return _checked(cmd, await self._show_season(cmd, actor))
            case ShowSeasonHistory():
                return _checked(cmd, await self._season_history(actor))
            case EndSeason():
                return _checked(cmd, await self._end_season(cmd, actor))
            case ChangeSeason():
                return _checked(cmd, await self._change_season(cmd, actor))
            case ChangeNotify():
                return _checked(cmd, await self._change_notify(cmd, actor))
            case ShowProfile():
                return _checked(cmd, await self._show_profile(cmd, actor))
            case NewTournament():
                return _checked(cmd, await self._new_tournament(cmd, actor))
            case TournamentAction():
                return _checked(cmd, await self._tournament(cmd, actor))
            case StartChallenge():
                return _checked(cmd, await self._start_challenge(cmd, actor))
            case PlayChallenge():
                return _checked(cmd, await self._play_challenge(cmd, actor))
            case ShowChallenge():
                return _checked(cmd, await self._show_challenge(actor))
            case _:
                assert_never(cmd)

    # ------------------------------------------------------------------ the handlers

    async def _act(self, cmd: Act, actor: Actor) -> TableSnapshot:
        self._table(cmd.table_id, actor, seated=True)
        if cmd.version is None:
            return await self.manager.act_current(cmd.table_id, actor.person, cmd.code)
        return await self.manager.act(cmd.table_id, actor.person, cmd.version, cmd.code)

    async def _next_deal(self, cmd: NextDeal, actor: Actor) -> TableSnapshot:
        self._table(cmd.table_id, actor, seated=True)
        return await self.manager.next_deal(cmd.table_id, actor.person)

    async def _show_hand(self, cmd: ShowHand, actor: Actor) -> Hand:
        table = self._table(cmd.table_id, actor, seated=True)
        seat = table.seat_of(actor.person.player_id)
        if seat is None:  # _table(seated=True) found the seat already
            raise TableError(Refusal.NOT_SEATED)
        if table.game is None:
            raise TableError(Refusal.NOT_STARTED)
        return Hand(table.snapshot(), seat, self.manager.view(table.table_id, seat))

    async def _hint(self, cmd: Hint, actor: Actor) -> Advice:
        """Only to the seated person whose turn it is, at a table that allows hints; the answer goes to
        them alone (nothing is published)."""
        if cmd.version is not None and type(cmd.version) is not int:
            raise TableError(Refusal.STALE)
        table, seat = self._advised(cmd.table_id, actor)
        return await self.manager.hint(table.table_id, seat, cmd.version)

    async def _review(self, cmd: Review, actor: Actor) -> Advice:
        """Only to a seated person, of their own cards, at a table that allows it; to them alone."""
        table, seat = self._advised(cmd.table_id, actor)
        return await self.manager.review(table.table_id, seat)

    def _advised(self, table_id: int | None, actor: Actor) -> tuple[Table, int]:
        table = self._table(table_id, actor, seated=True)
        seat = table.seat_of(actor.person.player_id)
        if seat is None:  # _table(seated=True) found the seat already
            raise TableError(Refusal.NOT_SEATED)
        if table.game is None:
            raise TableError(Refusal.NOT_STARTED)
        if not hints_on(table.record.options):
            raise TableError(Refusal.HINTS_OFF)
        return table, seat

    async def _show_scores(self, cmd: ShowScores, actor: Actor) -> TableSnapshot:
        self._group(actor)
        return self._table(cmd.table_id, actor).snapshot()

    async def _show_leaderboard(self, cmd: ShowLeaderboard, actor: Actor) -> Leaderboards:
        self._group(actor)
        return {game: await self.manager.leaderboard(actor.chat_id, game) for game in cmd.games}

    async def _new_table(self, cmd: NewTable, actor: Actor) -> TableSnapshot:
        self._group(actor)
        self._sitter(actor)
        return await self.manager.create(actor.chat_id, actor.person, cmd.game, cmd.options)

    async def _join(self, cmd: Join, actor: Actor) -> TableSnapshot:
        self._group(actor)
        self._sitter(actor)
        table = self._table(cmd.table_id, actor)
        return await self.manager.join(table.record.chat_id, actor.person, cmd.seat)

    async def _leave(self, cmd: Leave, actor: Actor) -> TableSnapshot:
        table = self._table(cmd.table_id, actor, seated=actor.in_dm)
        return await self.manager.leave(table.record.chat_id, actor.person)

    async def _begin(self, cmd: Begin, actor: Actor) -> TableSnapshot:
        table = self._table(cmd.table_id, actor, seated=actor.in_dm)
        admin = table.parked and not actor.in_dm and await actor.is_admin()  # a parked match goes on
        return await self.manager.begin(table.record.chat_id, actor.person, is_admin=admin)

    async def _claim(self, cmd: Claim, actor: Actor) -> TableSnapshot:
        self._group(actor)
        self._sitter(actor)
        table = self._table(cmd.table_id, actor)
        left = table.leavers().get(actor.person.player_id)
        if left is not None and cmd.seat != left:
            raise TableError(Refusal.LEFT_SEAT, seat=left)
        return await self.manager.claim(table.record.chat_id, actor.person, cmd.seat)

    async def _stop(self, cmd: Stop, actor: Actor) -> TableSnapshot:
        table = self._table(cmd.table_id, actor, seated=actor.in_dm)
        creator = actor.person.player_id == table.record.creator and actor.can_sit
        admin = not actor.in_dm and not creator and await actor.is_admin()
        if not (creator or admin):
            raise TableError(Refusal.NOT_ALLOWED)
        return await self.manager.stop(table.record.chat_id, actor.person, is_admin=admin)

    async def _rematch(self, cmd: Rematch, actor: Actor) -> TableSnapshot:
        """Play again: from the finished table's chat, or (the web page, a DM) by someone who sat at it."""
        self._sitter(actor)
        if type(cmd.table_id) is not int or type(cmd.swap) is not bool:
            raise TableError(Refusal.BAD_ACTION)
        old = self.manager.registry.find(cmd.table_id)
        record = old.record if old is not None else await self.manager.repo.get_table(cmd.table_id)
        if record is None:
            raise TableError(Refusal.NO_TABLE)
        me = actor.person.player_id
        sat = me in Table(record=record).humans().values()
        if actor.in_dm:
            if not sat:
                raise TableError(Refusal.NOT_SEATED)
        elif record.chat_id != actor.chat_id:
            raise TableError(Refusal.WRONG_TABLE)
        admin = not sat and me != record.creator and not actor.in_dm and await actor.is_admin()
        if not (sat or admin or me == record.creator):
            raise TableError(Refusal.NOT_ALLOWED, what="rematch")
        return await self.manager.rematch(record.chat_id, actor.person, cmd.table_id, swap=cmd.swap,
                                          is_admin=admin)

    async def _change_settings(self, cmd: ChangeSettings, actor: Actor) -> ChatRecord:
        prefs = self.manager.prefs
        self._group(actor)
        if not await actor.is_admin():
            raise TableError(Refusal.ADMINS_ONLY)
        if cmd.scope == "channel":
            return await prefs.update_chat(actor.chat_id, **cmd.changes)
        if cmd.scope == "reset":
            chat = await prefs.clear_override(actor.chat_id)
            if not cmd.changes:
                return chat
        return await prefs.update_chat(prefs.settings_scope(actor.chat_id), **cmd.changes)

    # seasons (bot/core/seasons.py): a group's or a server's; reading is for anyone there, changing for admins

    async def _show_season(self, cmd: ShowSeason, actor: Actor) -> Standings:
        self._group(actor)
        if cmd.game not in engine.GAME_IDS or type(cmd.all_time) is not bool:
            raise TableError(Refusal.UNKNOWN_GAME, game=str(cmd.game)[:40])
        return await self.manager.seasons.standings(actor.chat_id, cmd.game, actor.person.player_id,
                                                    all_time=cmd.all_time)

    async def _season_history(self, actor: Actor) -> list[ChampionRecord]:
        self._group(actor)
        return await self.manager.seasons.history(actor.chat_id)

    async def _end_season(self, cmd: EndSeason, actor: Actor) -> SeasonSummary:
        self._group(actor)
        if type(cmd.number) is not int:
            raise TableError(Refusal.BAD_ACTION)
        if not await actor.is_admin():
            raise TableError(Refusal.ADMINS_ONLY)
        return await self.manager.seasons.end(actor.chat_id, cmd.number)

    async def _change_season(self, cmd: ChangeSeason, actor: Actor) -> LeagueRecord:
        self._group(actor)
        if cmd == ChangeSeason():  # nothing to change: anyone may read the settings
            return await self.manager.seasons.settings(actor.chat_id)
        if not await actor.is_admin():
            raise TableError(Refusal.ADMINS_ONLY)
        return await self.manager.seasons.change(actor.chat_id, length_days=cmd.length_days,
                                                 min_matches=cmd.min_matches, ai_counts=cmd.ai_counts)

    async def _show_profile(self, cmd: ShowProfile, actor: Actor) -> Profile:
        """A person's figures in a league only in its chats; across every chat only to themselves, in private."""
        if type(cmd.everywhere) is not bool or not isinstance(cmd.player_id, str | None) \
                or not isinstance(cmd.name, str | None):
            raise TableError(Refusal.BAD_ACTION)
        me = actor.person.player_id
        whom = cmd.player_id or me
        if cmd.everywhere:
            if whom != me:
                raise TableError(Refusal.NOT_ALLOWED, what="profile")
            if not actor.in_dm:
                raise TableError(Refusal.PRIVATE_ONLY)
        else:
            self._group(actor)
        name = actor.person.name if whom == me else (cmd.name or whom)[:64]
        profiles = Profiles(self.manager.repo, self.manager.seasons)
        return await profiles.profile(whom, name, None if cmd.everywhere else actor.chat_id)

    # tournaments (bot/core/tournaments.py): in their group; made by its admins, run by their organiser

    async def _new_tournament(self, cmd: NewTournament, actor: Actor) -> Tournament:
        self._group(actor)
        if not await actor.is_admin():
            raise TableError(Refusal.ADMINS_ONLY)
        return await tournament_new(self.manager.tournaments, cmd, actor)

    async def _tournament(self, cmd: TournamentAction, actor: Actor) -> Tournament:
        self._group(actor)
        if cmd.verb not in ("show", "audit", "start", "cancel", "decide"):
            self._sitter(actor)
        return await tournament_command(self.manager.tournaments, cmd, actor)

    # duplicate challenges (bot/core/challenges.py): started by a group's admins, played in private

    async def _start_challenge(self, cmd: StartChallenge, actor: Actor) -> ChallengeRecord:
        self._group(actor)
        if not isinstance(cmd.game, str) or type(cmd.boards) is not int or type(cmd.days) is not int \
                or type(cmd.season) is not bool:
            raise TableError(Refusal.BAD_ACTION)
        if not await actor.is_admin():
            raise TableError(Refusal.ADMINS_ONLY)
        return await self.manager.challenges.start(actor.chat_id, actor.person, cmd.game, cmd.boards, cmd.days,
                                                   cmd.season)

    async def _play_challenge(self, cmd: PlayChallenge, actor: Actor) -> TableSnapshot:
        """From the group: its open challenge. From the private chat: a challenge the person started in
        its group (a stranger cannot reach another group's challenge by its number)."""
        self._sitter(actor)
        challenges = self.manager.challenges
        if actor.in_dm:
            if type(cmd.challenge_id) is not int:
                raise TableError(Refusal.NO_CHALLENGE)
            challenge = await self.manager.repo.get_challenge(cmd.challenge_id)
            if challenge is None or not await challenges.played_by(challenge.challenge_id, actor.person.player_id):
                raise TableError(Refusal.NO_CHALLENGE)
        else:
            challenge = await challenges.open_in(actor.chat_id)
            if cmd.challenge_id is not None and cmd.challenge_id != challenge.challenge_id:
                raise TableError(Refusal.STALE)
        return await challenges.play(challenge, actor.person)

    async def _show_challenge(self, actor: Actor) -> ChallengeView:
        self._group(actor)
        return await self.manager.challenges.view(actor.chat_id, actor.person.player_id)

    # ------------------------------------------------------------------ the rules

    def _table(self, table_id: int | None, actor: Actor, *, seated: bool = False) -> Table:
        """The table a command may touch: the chat's live one, or (from a DM) one the actor sits at."""
        registry = self.manager.registry
        if actor.in_dm:
            if table_id is None:
                raise TableError(Refusal.NO_TABLE)
            table = registry.table(table_id)
            if table.seat_of(actor.person.player_id) is None:
                raise TableError(Refusal.NOT_SEATED)
            return table
        live = registry.live_in_chat(actor.chat_id)
        if table_id is not None and (live is None or live.table_id != table_id):
            found = registry.find(table_id)
            if found is not None and found.record.chat_id != actor.chat_id:
                raise TableError(Refusal.WRONG_TABLE)
            raise TableError(Refusal.STALE)  # an ended table of this chat (or one no longer in memory)
        if live is None:
            raise TableError(Refusal.NO_TABLE)
        if seated and live.seat_of(actor.person.player_id) is None:
            raise TableError(Refusal.NOT_SEATED)
        return live

    @staticmethod
    def _group(actor: Actor) -> None:
        if actor.in_dm:
            raise TableError(Refusal.GROUP_ONLY)

    @staticmethod
    def _sitter(actor: Actor) -> None:
        if not actor.can_sit:
            raise TableError(Refusal.ANONYMOUS)

    async def _join_by_link(self, cmd: JoinByLink, actor: Actor) -> TableSnapshot:
        self._sitter(actor)
        links = await self.ready()
        table_id = links.table_of(cmd.payload)
        table = self.manager.registry.find(table_id)
        if table is None or not table.live:
            raise TableError(Refusal.LINK_EXPIRED)
        if table.seat_of(actor.person.player_id) is not None:
            return table.snapshot()
        if await actor.is_member(table.record.chat_id) is False:
            raise TableError(Refusal.NOT_MEMBER)
        if table.record.status != TableStatus.LOBBY:
            raise TableError(Refusal.LINK_EXPIRED)
        return await self.manager.join(table.record.chat_id, actor.person)

    async def _change_notify(self, cmd: ChangeNotify, actor: Actor) -> NotifyState:
        """One's own notifications: anyone for themselves; a chat's table calls only in a group that allows them."""
        prefs = self.manager.prefs
        me = actor.person.player_id
        if cmd.what == "turn":
            if cmd.share is not None and (type(cmd.share) is not int or not 1 <= cmd.share <= 100):
                raise TableError(Refusal.BAD_OPTION, detail="a share of the turn from 1% to 100%")
            await self.manager.player(actor.person)
            await prefs.update_player(me, turn_ping=cmd.share)
        elif cmd.what == "tables":
            self._group(actor)
            if type(cmd.on) is not bool:
                raise TableError(Refusal.BAD_ACTION)
            if cmd.on and not (await prefs.chat(actor.chat_id)).notify:
                raise TableError(Refusal.NOT_ALLOWED, what="notify")
            if cmd.on:
                await self.manager.player(actor.person)  # the name a call shows
            await prefs.subscribe(actor.chat_id, me, cmd.on, self.manager.clock.now())
        elif cmd.what == "matches":
            if type(cmd.on) is not bool:
                raise TableError(Refusal.BAD_ACTION)
            await prefs.set_match_pings(me, cmd.on)
        elif cmd.what != "show":
            raise TableError(Refusal.BAD_ACTION)
        record = await prefs.player_record(me)
        turn_ping = record.turn_ping if record is not None else None
        matches = await prefs.match_pings(me)
        if actor.in_dm:
            return NotifyState(turn_ping, matches=matches)
        subscribed = any(pid == me for pid, _ in await prefs.subscribers(actor.chat_id))
        return NotifyState(turn_ping, subscribed, (await prefs.chat(actor.chat_id)).notify, matches)

    async def _set_language(self, cmd: SetLanguage, actor: Actor) -> ChatRecord | PlayerRecord:
        m = self.manager
        if cmd.lang not in ("ar", "en"):
            raise TableError(Refusal.BAD_OPTION, detail="language is ar or en")
        if cmd.scope == "me" or is_dm(actor.chat_id):
            record = await m.update_player(actor.person.player_id, lang=cmd.lang)
            return record
        if not await actor.is_admin():
            raise TableError(Refusal.ADMINS_ONLY)
        return await m.prefs.update_chat(m.prefs.settings_scope(actor.chat_id), lang=cmd.lang)


def routed(manager: TableManager) -> Router:
    """The cross-process router of ``manager`` (pass it as ``TableManager(..., router=routed)``): it
    forwards commands for tables held elsewhere, and applies what is forwarded here through this
    dispatch (``route=False``), so a forwarded command is authorized exactly as a local one."""
    return Router(manager, lambda cmd, actor: Service(manager).answer(cmd, actor, route=False))
