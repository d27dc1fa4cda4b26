"""The command menu: ``setMyCommands`` in English (default) and Arabic, for all chats and for groups."""

from __future__ import annotations

from telegram import Bot, BotCommand, BotCommandScope, BotCommandScopeAllGroupChats, BotCommandScopeDefault

from bot.present.i18n import N_, T, translator

#: Command -> its menu description (a gettext message id).
COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", N_("Open a table: tarneeb41, tarneeb or trix")),
    ("join", N_("Take a seat at this table")),
    ("leave", N_("Leave your seat")),
    ("begin", N_("Start the match; AI players fill empty seats")),
    ("stop", N_("End the table (creator or admin)")),
    ("hand", N_("Send my cards to my private chat")),
    ("scores", N_("This table's scores")),
    ("leaderboard", N_("This group's best players")),
    ("stats", N_("Your record")),
    ("profile", N_("Your profile card")),
    ("season", N_("This season's table and your rank")),
    ("tournament", N_("This group's tournament: register, check in, the bracket")),
    ("challenge", N_("The duplicate challenge: same deals for everyone")),
    ("lang", N_("Language: ar or en (admins)")),
    ("settings", N_("Turn timer and defaults (admins)")),
    ("notify", N_("Your turn mention and table calls")),
    ("rules", N_("The rules in brief")),
    ("help", N_("How to play here")),
)
#: Commands that make sense in the private chat with the bot.
PRIVATE = frozenset({"hand", "stats", "profile", "lang", "notify", "rules", "help"})


def bot_commands(t: T, *, groups: bool) -> list[BotCommand]:
    """The menu in ``t``'s language, for groups or for the private chat."""
    return [BotCommand(name, t.gettext(desc)) for name, desc in COMMANDS if groups or name in PRIVATE]


async def register_commands(bot: Bot) -> None:
    """Set the menus: default scope and group scope, each in English (no language code) and Arabic."""
    scopes: tuple[tuple[BotCommandScope, bool], ...] = (
        (BotCommandScopeDefault(), False), (BotCommandScopeAllGroupChats(), True))
    for scope, groups in scopes:
        for lang in ("en", "ar"):
            await bot.set_my_commands(bot_commands(translator(lang), groups=groups), scope=scope,
                                      language_code=None if lang == "en" else lang)
