"""``/help``: the commands, worded for the platform."""

from __future__ import annotations

from bot.i18n import T


def render_help(platform: str, t: T) -> str:
    """The command list for ``platform`` (``"telegram"``, ``"discord"``, ``"cli"``)."""
    if platform == "cli":
        lines = [
            t.gettext("Majlis in the terminal: type the number of a choice and press Enter."),
            t.gettext("Commands: h help, s scores, r rules, q quit (the match can be resumed)."),
        ]
        return "\n".join(lines)
    lines = [
        t.gettext("Majlis hosts Syrian Tarneeb 41, Tarneeb and Trix tables in this chat."),
        t.gettext("/new [game]: open a table (tarneeb41, tarneeb or trix)"),
        t.gettext("/join: take a seat · /leave: leave the table"),
        t.gettext("/begin: start the match; AI players fill the empty seats"),
        t.gettext("/hand: show your cards · /scores: the running scores"),
        t.gettext("/stop: stop the table (its creator or an admin)"),
        t.gettext("/top [game]: this chat's leaderboard · /stats: your record"),
        t.gettext("/rules [game]: the rules · /language ar|en: your language"),
        t.gettext("/settings: the chat's language, digits and turn timer (admins)"),
    ]
    if platform == "telegram":
        lines.append(t.gettext("Press Start in a private chat with me so that I can send you your cards."))
    elif platform == "discord":
        lines.append(t.gettext("Your cards are shown only to you; allow direct messages from this server "
                               "to get them privately as well."))
    return "\n".join(lines)
