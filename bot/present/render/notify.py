"""The opt-in notices of bot/core/notify.py: a person's turn mention, a chat's table call, and what
``/notify`` answers. Each mention is a :class:`~bot.present.render.message.Mention` of the text, so
that no one but the people named is ever pinged."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.notify import NotifyState
from bot.present.i18n import FSI, PDI, T
from bot.present.render.cards import game_name
from bot.present.render.message import Mention, OutMessage

#: A mentioned name is cut to this many characters (a call names up to 100 people).
NAME_CHARS = 32
_MARK = 0xE000  # private-use characters stand for the names while the sentence is put together


def _name(name: str, t: T) -> str:
    name = " ".join(name.split())[:NAME_CHARS] or t.gettext("player")
    return name.replace(FSI, "").replace(PDI, "")


def with_mentions(text: str, people: Sequence[tuple[str, str]], t: T) -> tuple[str, tuple[Mention, ...]]:
    """``text`` with each stand-in (:func:`stand_in`) replaced by its person's name, and the mentions."""
    out: list[str] = []
    mentions: list[Mention] = []
    size = 0
    for ch in text:
        i = ord(ch) - _MARK
        if 0 <= i < len(people):
            pid, name = people[i]
            shown = _name(name, t)
            wrapped = t.isolate(shown) if not (out and out[-1] == FSI) else shown
            start = size + wrapped.index(shown)
            mentions.append(Mention(pid, start, len(shown)))
            out.append(wrapped)
            size += len(wrapped)
        else:
            out.append(ch)
            size += 1
    return "".join(out), tuple(mentions)


def stand_in(i: int) -> str:
    """What stands for the ``i``-th person's name in a sentence until :func:`with_mentions`."""
    return chr(_MARK + i)


def render_turn_mention(player: tuple[str, str], table_id: int, game: str, t: T) -> OutMessage:
    """The group's reminder that it is one person's turn, mentioning them (``/notify turn``)."""
    text = t.gettext("{mention}, it is your turn at table {table} ({game}).", mention=stand_in(0), table=table_id,
                     game=game_name(game, t))
    text, mentions = with_mentions(t.lines([text]), [player], t)
    return OutMessage(text, (), notify=True, mentions=mentions)


def render_table_call(kind: str, game: str, people: Sequence[tuple[str, str]], t: T, *,
                      max_chars: int) -> OutMessage:
    """One message calling the chat's subscribers: ``kind`` "lobby" (a table is starting) or "seat" (a
    running match has a free seat). As many of ``people`` (oldest subscriber first) as fit ``max_chars``."""
    if kind == "lobby":
        head = t.gettext("A table of {game} is starting here: press Join on its message.", game=game_name(game, t))
    else:
        head = t.gettext("A seat is free at the {game} table here: take it from the table's message.",
                         game=game_name(game, t))
    foot = t.gettext("You get this call because you asked for it (/notify tables off to stop).")
    chosen = list(people)
    while True:
        names = t.join([stand_in(i) for i in range(len(chosen))])
        text, mentions = with_mentions(t.lines([head, names, foot]), chosen, t)
        if len(text) <= max_chars or len(chosen) <= 1:
            return OutMessage(text, (), notify=True, mentions=mentions)
        chosen = chosen[:-1]


#: How each chat spells the changes (commands are not translated).
TELEGRAM_USAGE = ("/notify turn 50% · /notify turn off · /notify tables on · /notify tables off · "
                  "/notify matches on · /notify matches off")
DISCORD_USAGE = "/majlis notify turn: 50% · turn: off · tables: True · tables: False · matches: True · matches: False"


def render_notify_state(state: NotifyState, t: T, *, usage: str = TELEGRAM_USAGE) -> str:
    """What ``/notify`` answers: one's turn mention, this chat's calls, and how to change them."""
    lines = [t.gettext("Your turn mention in the group: after {share}% of your turn.", share=state.turn_ping)
             if state.turn_ping is not None else t.gettext("Your turn mention in the group: off.")]
    if state.chat_allows is False:
        lines.append(t.gettext("This chat has table calls off (an admin may turn them on: /settings notify=on)."))
    elif state.tables is not None:
        lines.append(t.gettext("Table calls in this chat: on.") if state.tables
                     else t.gettext("Table calls in this chat: off."))
    lines.append(t.gettext("Your tournament matches, in private: on.") if state.matches
                 else t.gettext("Your tournament matches, in private: off."))
    lines.append(t.gettext("To change: {usage}", usage=usage))
    return t.lines(lines)
