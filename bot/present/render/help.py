"""``/help``: the commands, worded for the platform."""

from __future__ import annotations

from bot.present.i18n import T
from bot.present.render.seasons import formula_text
from storage.records import LeagueRecord

#: How each platform spells a command (Discord groups them under ``/majlis``).
PREFIX = {"telegram": "/", "discord": "/majlis "}


def render_help(platform: str, t: T) -> str:
    """The command list for ``platform`` (``"telegram"``, ``"discord"``, ``"cli"``).

    Commands are parameters, so that they stay isolated (and left-to-right) in Arabic lines.
    """
    if platform == "cli":
        return t.lines([
            t.gettext("Majlis in the terminal: type the number of a choice and press Enter."),
            t.gettext("Commands: {help} help, {scores} scores, {rules} rules, {quit} quit (the match can be "
                      "resumed).", help="h", scores="s", rules="r", quit="q"),
        ])
    p = PREFIX.get(platform, "/")
    lines = [
        t.gettext("Majlis hosts Syrian Tarneeb 41, Tarneeb and Trix tables in this chat."),
        t.gettext("{command} [game]: open a table ({games})", command=p + "new", games="tarneeb41 · tarneeb · trix"),
        t.gettext("{command}: take a seat", command=p + "join"),
        t.gettext("{command}: leave the table", command=p + "leave"),
        t.gettext("{command}: start the match; AI players fill the empty seats", command=p + "begin"),
        t.gettext("{command}: show your cards", command=p + "hand"),
        t.gettext("{command}: the running scores", command=p + "scores"),
        t.gettext("{command}: stop the table (its creator or an admin)", command=p + "stop"),
        t.gettext("{command} [game]: this chat's leaderboard", command=p + "leaderboard"),
        t.gettext("{command}: your record", command=p + "stats"),
        t.gettext("{command} [game]: this season's table and your rank; {history}: the champions",
                  command=p + "season", history=p + "season history"),
        t.gettext("{command}: your profile card", command=p + "profile"),
        t.gettext("{command}: this chat's tournament (register, check in, the bracket)", command=p + "tournament"),
        t.gettext("{command}: your turn mention and table calls", command=p + "notify"),
        t.gettext("{command} [game]: the rules", command=p + "rules"),
        t.gettext("{command}: your language", command=p + "lang ar|en"),
        t.gettext("{command}: the chat's language, digits and turn timer (admins)", command=p + "settings"),
    ]
    if platform in ("telegram", "discord"):
        lines.insert(-3, t.gettext("{command}: the duplicate challenge, the same deals for everyone at their own "
                                   "time", command=p + "challenge"))
    if platform == "telegram":
        lines.append(t.gettext("Press Start in a private chat with me so that I can send you your cards."))
    elif platform == "discord":
        lines.append(t.gettext("Your cards are shown only to you; allow direct messages from this server "
                               "to get them privately as well."))
    lines.append(formula_text(t, LeagueRecord("").min_matches))
    return t.lines(lines)
