"""The ``/majlis`` slash command group: names, options, choices and descriptions.

Discord's locale list has no Arabic, so names stay English and each description carries the
Arabic words beside the English ones; the stored language of the server and of each player
decides the words of the answers. Every subcommand delegates to :class:`Handlers`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.adapters.discord import challenges, profile, seasons, tournaments
from bot.adapters.discord.handlers import GAMES

if TYPE_CHECKING:
    from bot.adapters.discord.handlers import Handlers

Interaction = discord.Interaction[Any]
Choice = app_commands.Choice

GAME_CHOICES = [
    Choice(name="Syrian Tarneeb 41 · طرنيب ٤١", value="tarneeb41"),
    Choice(name="Tarneeb · طرنيب", value="tarneeb"),
    Choice(name="Trix · تركس", value="trix"),
]
LANG_CHOICES = [Choice(name="العربية (Arabic)", value="ar"), Choice(name="English", value="en")]
SCOPE_CHOICES = [Choice(name="this server · هذا الخادم", value="server"), Choice(name="me · أنا", value="me")]
SETTINGS_SCOPE_CHOICES = [Choice(name="this server · هذا الخادم", value="server"),
                          Choice(name="this channel only · هذه القناة فقط", value="channel"),
                          Choice(name="this channel follows the server again · القناة تتبع الخادم من جديد",
                                 value="reset")]
TURN_PING_CHOICES = [Choice(name="off · لا", value="off"),
                     *(Choice(name=f"{n}%", value=str(n)) for n in (25, 50, 75, 90))]
DIGIT_CHOICES = [Choice(name="0123456789", value="western"), Choice(name="٠١٢٣٤٥٦٧٨٩", value="arabic")]
SEASON_VIEWS = [Choice(name="this season · هذا الموسم", value="table"),
                Choice(name="all time · كل المواسم", value="all"),
                Choice(name="champions · الأبطال", value="history"),
                Choice(name="post the standings in this channel · نشر الترتيب في القناة", value="standings"),
                Choice(name="end the season (Manage Server) · إنهاء الموسم", value="end")]
TOURNAMENT_ACTIONS = [
    Choice(name="show its message here · اعرض رسالتها هنا", value="show"),
    Choice(name="new (Manage Server) · بطولة جديدة", value="new"),
    Choice(name="register · سجّلني", value="register"),
    Choice(name="withdraw · انسحب", value="withdraw"),
    Choice(name="check in · أكّد حضوري", value="checkin"),
    Choice(name="ready for my match · جاهز لمباراتي", value="ready"),
    Choice(name="start now (organiser) · ابدأ الآن", value="start"),
    Choice(name="cancel (organiser) · ألغِ البطولة", value="cancel"),
    Choice(name="flag my match's result · اعترض على نتيجة مباراتي", value="flag"),
    Choice(name="decide a match (organiser) · قرار في مباراة", value="decide"),
    Choice(name="the log · سجلّ البطولة", value="audit"),
]
DECISION_CHOICES = [Choice(name="uphold the result · أقرّ النتيجة", value="uphold"),
                    Choice(name="set the winner (pair) · حدّد الفائز", value="winner"),
                    Choice(name="replay the match · أعد المباراة", value="replay"),
                    Choice(name="disqualify a pair (pair) · استبعد زوجًا", value="disqualify")]
#: The games of a tournament: the pair games and Trix (pools of four, each player alone)
TOURNAMENT_GAME_CHOICES = GAME_CHOICES[:3]
PAIRING_CHOICES = [Choice(name="partners drawn at the start · الشركاء بالقرعة", value="draw"),
                   Choice(name="pairs register together · أزواج ثابتة", value="fixed")]
FORMAT_CHOICES = [Choice(name="knockout · خروج المغلوب", value="knockout"),
                  Choice(name="Swiss · النظام السويسري", value="swiss"),
                  Choice(name="round robin · دوري", value="roundrobin"),
                  Choice(name="Trix pools of four · مجموعات رباعية للتركس", value="pools")]
CHALLENGE_ACTIONS = [
    Choice(name="show its message here · اعرض رسالته هنا", value="show"),
    Choice(name="new (Manage Server) · تحدٍّ جديد", value="new"),
    Choice(name="play my next deal, in direct messages · العب توزيعتي التالية في الرسائل الخاصة", value="play"),
]
AI_CHOICES = [Choice(name="easy · سهل", value="easy"), Choice(name="normal · عادي", value="normal"),
              Choice(name="strong · قوي", value="strong")]

assert [c.value for c in GAME_CHOICES] == list(GAMES)
assert tuple(c.value for c in TOURNAMENT_ACTIONS) == tournaments.ACTIONS
assert tuple(c.value for c in CHALLENGE_ACTIONS) == challenges.ACTIONS


def build_group(handlers: Handlers) -> app_commands.Group:
    """The ``/majlis`` group wired to ``handlers``."""
    group = app_commands.Group(name="majlis", description="Tarneeb, Tarneeb 41 and Trix tables · طاولات طرنيب وتركس",
                               guild_only=True)

    @group.command(name="new", description="Open a table in this channel · افتح طاولة في هذه القناة")
    @app_commands.describe(game="The game · اللعبة", target="Points to win (optional) · نقاط الفوز")
    @app_commands.choices(game=GAME_CHOICES)
    async def new(interaction: Interaction, game: Choice[str],
                  target: app_commands.Range[int, 1, 1000] | None = None) -> None:
        await handlers.new(interaction, game.value, target)

    @group.command(name="join", description="Take a seat · اجلس إلى الطاولة")
    async def join(interaction: Interaction) -> None:
        await handlers.join(interaction)

    @group.command(name="leave", description="Leave your seat · غادر مقعدك")
    async def leave(interaction: Interaction) -> None:
        await handlers.leave(interaction)

    @group.command(name="begin", description="Start now; AI fills empty seats · ابدأ الآن")
    async def begin(interaction: Interaction) -> None:
        await handlers.begin(interaction)

    @group.command(name="stop", description="Stop the table (creator or Manage Server) · أوقف الطاولة")
    async def stop(interaction: Interaction) -> None:
        await handlers.stop(interaction)

    @group.command(name="hand", description="Your cards, only for you · أوراقك لك وحدك")
    async def hand(interaction: Interaction) -> None:
        await handlers.hand(interaction)

    @group.command(name="scores", description="This table's scores · نتائج الطاولة")
    async def scores(interaction: Interaction) -> None:
        await handlers.scores(interaction)

    @group.command(name="leaderboard", description="This channel's best players · أفضل اللاعبين")
    @app_commands.describe(game="The game · اللعبة")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(interaction: Interaction, game: Choice[str] | None = None) -> None:
        await handlers.leaderboard(interaction, game.value if game else None)

    @group.command(name="stats", description="Your record · سجلك")
    async def stats(interaction: Interaction) -> None:
        await profile.stats(handlers, interaction)

    @group.command(name="profile", description="A profile card · بطاقة اللاعب")
    @app_commands.describe(member="Whose card (in this server) · بطاقة من (في هذا الخادم)")
    async def profile_card(interaction: Interaction, member: discord.User | None = None) -> None:
        await profile.profile(handlers, interaction, member)

    @group.command(name="season", description="This season's table and your rank · جدول الموسم وترتيبك")
    @app_commands.describe(game="The game · اللعبة", view="What to show · ماذا تعرض",
                           confirm="The number of the season to end · رقم الموسم المراد إنهاؤه")
    @app_commands.choices(game=GAME_CHOICES, view=SEASON_VIEWS)
    async def season(interaction: Interaction, game: Choice[str] | None = None, view: Choice[str] | None = None,
                     confirm: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        await seasons.season(handlers, interaction, game.value if game else None,
                             view.value if view else "table", confirm)

    @group.command(name="season_settings", description="Season length, minimum, AI (Manage Server) · إعدادات الموسم")
    @app_commands.describe(length="Days per season, 0 for a calendar month · أيام الموسم، ٠ لشهر",
                           minimum="Matches to be ranked · مباريات للترتيب",
                           ai="Matches with AI seats count · مباريات الذكاء تُحتسب")
    async def season_settings(interaction: Interaction, length: app_commands.Range[int, 0, 365] | None = None,
                              minimum: app_commands.Range[int, 1, 100] | None = None,
                              ai: bool | None = None) -> None:
        await seasons.season_settings(handlers, interaction, length, minimum, ai)

    @group.command(name="tournament", description="This channel's tournament · بطولة القناة")
    @app_commands.describe(action="What to do (default: show its message) · ماذا تفعل",
                           game="new: the game · اللعبة", pairing="new: how pairs are made · كيف تتشكّل الأزواج",
                           start="new: minutes until the start · دقائق حتى البداية",
                           checkin="new: check-in opens this many minutes before · تأكيد الحضور قبل البداية بـ",
                           round_minutes="new: minutes to be ready for a match · دقائق الاستعداد للمباراة",
                           ai="new: byes are played against an AI pair · الاستراحة ضد زوج ذكاء اصطناعي",
                           target="new: points to win a match · نقاط الفوز",
                           pair="register: join fixed pair number; decide: the pair · رقم الزوج",
                           review="new: minutes a played result stays in review · دقائق مراجعة النتيجة",
                           match="decide: the match, as 1-2 (round-number) · المباراة",
                           decision="decide: what the organiser decides · القرار",
                           reason="flag: why, in a few words · السبب",
                           format="new: knockout, Swiss, round robin, or Trix pools · نظام البطولة",
                           rounds="new, Swiss or Trix: how many rounds · عدد الجولات")
    @app_commands.choices(action=TOURNAMENT_ACTIONS, game=TOURNAMENT_GAME_CHOICES, pairing=PAIRING_CHOICES,
                          decision=DECISION_CHOICES, format=FORMAT_CHOICES)
    @app_commands.rename(round_minutes="round")
    async def tournament(interaction: Interaction, action: Choice[str] | None = None,
                         game: Choice[str] | None = None, pairing: Choice[str] | None = None,
                         start: app_commands.Range[int, 0, 10080] | None = None,
                         checkin: app_commands.Range[int, 0, 10080] | None = None,
                         round_minutes: app_commands.Range[int, 1, 10080] | None = None,
                         ai: bool | None = None, target: app_commands.Range[int, 1, 1000] | None = None,
                         pair: app_commands.Range[int, 1, 64] | None = None,
                         review: app_commands.Range[int, 0, 10080] | None = None,
                         match: app_commands.Range[str, 1, 12] | None = None,
                         decision: Choice[str] | None = None,
                         reason: app_commands.Range[str, 0, 200] | None = None,
                         format: Choice[str] | None = None,
                         rounds: app_commands.Range[int, 1, 15] | None = None) -> None:
        await tournaments.tournament(handlers, interaction, action.value if action else "show",
                                     game=game.value if game else None, pairing=pairing.value if pairing else None,
                                     start=start, checkin=checkin, round_minutes=round_minutes, ai=ai, target=target,
                                     pair=pair, review=review, match=match,
                                     decision=decision.value if decision else None, reason=reason,
                                     fmt=format.value if format else None, rounds=rounds)

    @group.command(name="challenge", description="The duplicate challenge: the same deals for all · تحدي التوزيعات")
    @app_commands.describe(action="What to do (default: show its message) · ماذا تفعل",
                           game="new: the game · اللعبة", deals="new: how many deals · عدد التوزيعات",
                           days="new: how many days it stays open · عدد الأيام",
                           season="new: it counts in the server's season · يُحتسب في الموسم")
    @app_commands.choices(action=CHALLENGE_ACTIONS, game=GAME_CHOICES)
    async def challenge(interaction: Interaction, action: Choice[str] | None = None,
                        game: Choice[str] | None = None, deals: app_commands.Range[int, 1, 16] | None = None,
                        days: app_commands.Range[int, 1, 14] | None = None, season: bool | None = None) -> None:
        await challenges.challenge(handlers, interaction, action.value if action else "show",
                                   game=game.value if game else None, deals=deals, days=days, season=season)

    @group.command(name="lang", description="Language of the server (Manage Server) or yours · اللغة")
    @app_commands.describe(language="ar or en · العربية أو الإنجليزية",
                           scope="The server (default) or only you · الخادم أو أنت")
    @app_commands.choices(language=LANG_CHOICES, scope=SCOPE_CHOICES)
    async def lang(interaction: Interaction, language: Choice[str], scope: Choice[str] | None = None) -> None:
        await handlers.lang(interaction, language.value, scope.value if scope else "server")

    @group.command(name="settings", description="Turn timer, digits, AI level (Manage Server) · الإعدادات")
    @app_commands.describe(turn="Seconds per turn · ثوانٍ لكل دور", digits="Digits · الأرقام",
                           ai="AI level · مستوى الذكاء",
                           scope="The server (default), this channel only, or back to the server's · الخادم أو القناة",
                           notify="People may ask to be called when a table opens · السماح بنداء الطاولات")
    @app_commands.choices(digits=DIGIT_CHOICES, ai=AI_CHOICES, scope=SETTINGS_SCOPE_CHOICES)
    async def settings(interaction: Interaction, turn: app_commands.Range[int, 10, 600] | None = None,
                       digits: Choice[str] | None = None, ai: Choice[str] | None = None,
                       scope: Choice[str] | None = None, notify: bool | None = None) -> None:
        await handlers.settings(interaction, turn, digits.value if digits else None, ai.value if ai else None,
                                scope.value if scope else "server", notify=notify)

    @group.command(name="notify", description="Your turn mention and table calls · تنبيهاتك")
    @app_commands.describe(turn="Mention me after this share of my turn · نبّهني بعد هذا القدر من وقت دوري",
                           tables="Call me when a table opens or a seat frees · نادِني عند فتح طاولة أو خلوّ مقعد",
                           matches="Tell me of my tournament matches · أخبرني بمبارياتي في البطولات")
    @app_commands.choices(turn=TURN_PING_CHOICES)
    async def notify(interaction: Interaction, turn: Choice[str] | None = None, tables: bool | None = None,
                     matches: bool | None = None) -> None:
        await handlers.notify(interaction, turn.value if turn else None, tables, matches)

    @group.command(name="rules", description="The rules in brief · القواعد باختصار")
    @app_commands.describe(game="The game · اللعبة")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(interaction: Interaction, game: Choice[str] | None = None) -> None:
        await handlers.rules(interaction, game.value if game else None)

    @group.command(name="help", description="The commands · الأوامر")
    async def help_(interaction: Interaction) -> None:
        await handlers.help(interaction)

    return group
