"""The lobby message: the seats, the options, and Join / Begin / Leave buttons."""

from __future__ import annotations

from bot.core.advice import hints_on
from bot.core.model import TableSnapshot
from bot.present import codec
from bot.present.i18n import T
from bot.present.render.cards import contract_name, game_name
from bot.present.render.message import Button, OutMessage


def lobby_text(snapshot: TableSnapshot, t: T) -> str:
    """The text of the lobby (also used by the terminal)."""
    table = snapshot.table
    lines = [t.gettext("{game} · table {table} · waiting for players", game=game_name(table.game, t),
                       table=table.table_id)]
    for i, seat in enumerate(table.seats):
        if seat.player_id:
            lines.append(t.gettext("{seat}. {name}", seat=i, name=seat.name or seat.player_id))
        else:
            lines.append(t.gettext("{seat}. (free)", seat=i))
    target = (table.options or {}).get("target")
    if target:
        lines.append(t.gettext("Target: {target}", target=int(target)))
    options = table.options or {}
    if table.game == "trix" and options.get("mode") == "complex":
        lines.append(t.gettext("Variant: {contract} (8 deals)", contract=contract_name("complex", t)))
    if hints_on(options):
        lines.append(t.gettext("Casual table: hints and deal reviews are on."))
    if table.game != "trix" or options.get("partnership"):
        lines.append(t.gettext("Seats 0 and 2 play against seats 1 and 3."))
    free = sum(1 for s in table.seats if not s.player_id)
    if free:
        lines.append(t.ngettext("{n} seat is free; AI players fill the empty seats when the game begins.",
                                "{n} seats are free; AI players fill the empty seats when the game begins.",
                                free))
    else:
        lines.append(t.gettext("All four seats are taken."))
    creator = next((s.name for s in table.seats if s.player_id == table.creator and s.name), None)
    if creator:
        lines.append(t.gettext("{name} (or an admin) starts the match with Begin.", name=creator))
    return t.lines(lines)


def render_lobby(snapshot: TableSnapshot, t: T, *, platform: str, join_url: str | None = None) -> OutMessage:
    """The lobby message. On Telegram the Join button may be a deep link (``join_url``)."""
    tid = snapshot.table.table_id
    if join_url:
        join = Button(t.gettext("Join"), url=join_url, style="success")
    else:
        join = Button(t.gettext("Join"), payload=codec.encode("j", tid, None), style="success")
    begin = Button(t.gettext("Begin"), payload=codec.encode("b", tid, None), style="primary")
    leave = Button(t.gettext("Leave"), payload=codec.encode("l", tid, None), style="danger")
    return OutMessage(lobby_text(snapshot, t), ((join, begin, leave),), notify=False)
