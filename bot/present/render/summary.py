"""Notices: new messages when people must be told something (a deal scored, the match over, ...)."""

from __future__ import annotations

from bot.core.model import TableSnapshot, TableUpdate
from bot.core.views import DealScored, DealThrownIn, Double, Event, MatchOver
from bot.present import codec
from bot.present.i18n import T
from bot.present.render.cards import card_name, contract_name, game_name, trump_label
from bot.present.render.common import (
    doubled_list,
    score_lines,
    seat_name,
    seat_order,
    shown_bid,
    team_name,
    viewer,
    winners_text,
)
from bot.present.render.message import Button, OutMessage
from bot.present.render.seasons import rating_lines
from engine.trix.contracts import DEFAULT_PENALTIES


def _tarneeb_summary(snapshot: TableSnapshot, ev: DealScored, t: T, me: int | None = None) -> list[str]:
    s = ev.get("summary") or {}
    declarer = int(s.get("declarer", 0))
    bid = int(s.get("bid", 0))
    team = declarer % 2
    took = int((s.get("tricks") or [0, 0])[team])
    trump = s.get("trump")
    trump_text = trump_label(str(trump or "N"), t)
    if declarer == me:
        lines = [t.gettext("You bid {bid} with {trump} as trump.", bid=shown_bid(snapshot, bid), trump=trump_text)]
    else:
        lines = [t.gettext("{name} ({team}) bid {bid} with {trump} as trump.",
                           name=seat_name(snapshot, declarer, t), team=team_name(team, t, me),
                           bid=shown_bid(snapshot, bid), trump=trump_text)]
    made = took >= bid
    if me is not None and team == me % 2:
        lines.append(t.ngettext("We took {n} trick: the contract is made.", "We took {n} tricks: the contract is made.",
                                took) if made else
                     t.ngettext("We took {n} trick: the contract is broken.",
                                "We took {n} tricks: the contract is broken.", took))
    elif me is not None:
        lines.append(t.ngettext("They took {n} trick: the contract is made.",
                                "They took {n} tricks: the contract is made.", took) if made else
                     t.ngettext("They took {n} trick: the contract is broken.",
                                "They took {n} tricks: the contract is broken.", took))
    else:
        tricks = t.ngettext("{n} trick", "{n} tricks", took)
        if made:
            lines.append(t.gettext("{team} took {tricks}: the contract is made.", team=team_name(team, t),
                                   tricks=tricks))
        else:
            lines.append(t.gettext("{team} took {tricks}: the contract is broken.", team=team_name(team, t),
                                   tricks=tricks))
    teams = (ev.get("deltas") or {}).get("teams") or [0, 0]
    totals = (ev.get("scores") or {}).get("teams") or [0, 0]
    for tm in (me % 2, 1 - me % 2) if me is not None else (0, 1):
        lines.append(t.gettext("{team}: {change} → {total}", team=team_name(tm, t, me),
                               change=t.signed(int(teams[tm])), total=int(totals[tm])))
    return lines


def _tarneeb41_summary(snapshot: TableSnapshot, ev: DealScored, t: T, me: int | None = None) -> list[str]:
    s = ev.get("summary") or {}
    bids = s.get("bids") or [0] * 4
    tricks = s.get("tricks") or [0] * 4
    deltas = (ev.get("deltas") or {}).get("players") or [0] * 4
    totals = (ev.get("scores") or {}).get("players") or [0] * 4
    lines = []
    for seat in range(4):
        took = t.ngettext("took {n} trick", "took {n} tricks", int(tricks[seat]))
        lines.append(t.gettext("{name}: bid {bid}, {took} → {change} (total {total})",
                               name=seat_name(snapshot, seat, t), bid=int(bids[seat] or 0), took=took,
                               change=t.signed(int(deltas[seat])), total=int(totals[seat])))
    if me is not None:
        my_bid, my_took = int(bids[me] or 0), int(tricks[me])
        if my_took >= my_bid:
            lines.append(t.gettext("You made your bid of {bid}.", bid=my_bid))
        else:
            lines.append(t.ngettext("You missed your bid of {bid}: you took only {n} trick.",
                                    "You missed your bid of {bid}: you took only {n} tricks.", my_took, bid=my_bid))
    teams = (ev.get("scores") or {}).get("teams")
    if teams:
        a, b = (me % 2, 1 - me % 2) if me is not None else (0, 1)
        lines.append(t.gettext("{team_a}: {total_a} · {team_b}: {total_b}", team_a=team_name(a, t, me),
                               total_a=int(teams[a]), team_b=team_name(b, t, me), total_b=int(teams[b])))
    return lines


def _trix_summary(snapshot: TableSnapshot, ev: DealScored, t: T, me: int | None = None) -> list[str]:
    s = ev.get("summary") or {}
    contract = str(s.get("contract", ""))
    owner = int(s.get("owner", 0))
    if owner == viewer(snapshot, me):
        lines = [t.gettext("{contract} in your kingdom:", contract=contract_name(contract, t))]
    else:
        lines = [t.gettext("{contract} in the kingdom of {name}:", contract=contract_name(contract, t),
                           name=seat_name(snapshot, owner, t))]
    deltas = (ev.get("deltas") or {}).get("players") or [0] * 4
    totals = (ev.get("scores") or {}).get("players") or [0] * 4
    taken = s.get("taken") or {}
    places = list(s.get("places") or [])
    for seat in range(4):
        detail = ""
        if contract == "trix" and seat in places:
            detail = t.gettext("place {place}", place=places.index(seat) + 1)
        elif contract == "tricks":
            detail = t.ngettext("{n} trick", "{n} tricks", int((s.get("tricks") or [0] * 4)[seat]))
        else:
            got = taken.get(str(seat)) if isinstance(taken, dict) else None  # by seat as str (JSON's keys)
            cards = [str(c) for c in got or []]
            tricks = int((s.get("tricks") or [0] * 4)[seat]) if contract == "complex" else 0
            detail = _taken_words(contract, cards, tricks, t)
        if detail:
            lines.append(t.gettext("{name} ({detail}): {change} → {total}", name=seat_name(snapshot, seat, t),
                                   detail=detail, change=t.signed(int(deltas[seat])), total=int(totals[seat])))
        else:
            lines.append(t.gettext("{name}: {change} → {total}", name=seat_name(snapshot, seat, t),
                                   change=t.signed(int(deltas[seat])), total=int(totals[seat])))
    return lines


def _taken_words(contract: str, cards: list[str], tricks: int, t: T) -> str:
    """What a seat took in a Trix penalty contract, in words (the cards belong to a finished deal;
    naming them by code would look like the new deal's hands): "King of Hearts, 2 queens"."""
    every = contract == "complex"
    parts = []
    if (every or contract == "king") and "KH" in cards:
        parts.append(card_name("KH", t))
    queens = sum(1 for c in cards if c[0] == "Q")
    if (every or contract == "queens") and queens:
        parts.append(t.ngettext("{n} queen", "{n} queens", queens))
    diamonds = sum(1 for c in cards if c[1] == "D")
    if (every or contract == "diamonds") and diamonds:
        parts.append(t.ngettext("{n} diamond", "{n} diamonds", diamonds))
    if tricks:
        parts.append(t.ngettext("{n} trick", "{n} tricks", tricks))
    return t.join(parts)


def doubles_breakdown(snapshot: TableSnapshot, doubles: list[Double], ev: DealScored, t: T,
                      me: int | None = None) -> list[str]:
    """What each double did to a Trix deal's scores: the taker pays double, the doubler gains the base
    value; a doubler who takes their own card pays the normal penalty only (X-B5, the default
    ``self_capture``). ``me``: the reader's seat (else the terminal's player), told in the second person.
    ``doubles``: the revealed ``{"card", "seat"}`` of the deal that ``ev`` scores."""
    s = ev.get("summary") or {}
    taken = s.get("taken") or {}
    options = snapshot.table.options or {}
    penalties = list(options.get("penalties") or DEFAULT_PENALTIES)
    lines = []
    me = viewer(snapshot, me)
    for d in doubles:
        card, doubler = str(d["card"]), int(d["seat"])
        value = int(penalties[0] if card == "KH" else penalties[1])
        taker = next((int(seat) for seat, cards in (taken.items() if isinstance(taken, dict) else [])
                      if card in (cards or [])), None)
        label, by = card_name(card, t), seat_name(snapshot, doubler, t)  # in words, as _taken_words says why
        if taker is None and doubler == me:
            lines.append(t.gettext("{card} (your double) was not taken.", card=label))
        elif taker is None:
            lines.append(t.gettext("{card} (doubled by {name}) was not taken.", card=label, name=by))
        elif taker == doubler == me:
            lines.append(t.gettext("{card} (your double) came back to you: the normal {penalty} only.",
                                   card=label, penalty=t.signed(-value)))
        elif taker == doubler:
            lines.append(t.gettext("{card} (doubled by {name}) came back to its doubler: the normal {penalty} only.",
                                   card=label, name=by, penalty=t.signed(-value)))
        elif taker == me:
            lines.append(t.gettext("{card} (doubled by {name}) came to you: {taker_change} for you, "
                                   "{doubler_change} for {name}.", card=label, name=by,
                                   taker_change=t.signed(-2 * value), doubler_change=t.signed(value)))
        elif doubler == me:
            lines.append(t.gettext("{card} (your double) taken by {taker}: {taker_change} for {taker}, "
                                   "{doubler_change} for you.", card=label, taker=seat_name(snapshot, taker, t),
                                   taker_change=t.signed(-2 * value), doubler_change=t.signed(value)))
        else:
            lines.append(t.gettext("{card} (doubled by {name}) taken by {taker}: {taker_change} for {taker}, "
                                   "{doubler_change} for {name}.", card=label, name=by,
                                   taker=seat_name(snapshot, taker, t), taker_change=t.signed(-2 * value),
                                   doubler_change=t.signed(value)))
    return lines


def deal_summary(snapshot: TableSnapshot, ev: DealScored, t: T, me: int | None = None) -> str:
    """The end-of-deal summary for a ``deal_scored`` event: who bid what, who made it, the changes
    (``me``: the reader's seat, told in the second person, teams as "Us" / "Them")."""
    game = snapshot.table.game
    head = t.gettext("Deal scored · {game} · table {table}", game=game_name(game, t),
                     table=snapshot.table.table_id)
    if game == "tarneeb":
        body = _tarneeb_summary(snapshot, ev, t, me)
    elif game == "tarneeb41":
        body = _tarneeb41_summary(snapshot, ev, t, me)
    else:
        body = _trix_summary(snapshot, ev, t, me)
        doubles = (ev.get("summary") or {}).get("doubles") or []
        body += doubles_breakdown(snapshot, list(doubles), ev, t, me)
    return t.lines([head, *body])


def match_over_text(snapshot: TableSnapshot, ev: MatchOver, t: T, me: int | None = None) -> str:
    """The end of the match: the winners and the final scores."""
    game = snapshot.table.game
    lines = [t.gettext("Match over · {game} · table {table}", game=game_name(game, t),
                       table=snapshot.table.table_id)]
    lines.append(winners_text(snapshot, list(ev.get("winner") or []), game, t, me=me))
    lines.append(t.gettext("Final scores:"))
    lines += ["  " + x for x in score_lines(snapshot, ev.get("scores") or {}, game, t, me)]
    return t.lines(lines)


def _thrown_in(snapshot: TableSnapshot, ev: DealThrownIn, t: T, me: int | None = None) -> str:
    seat = int(ev.get("next_dealer", 0))
    dealer = seat_name(snapshot, seat, t)
    if seat == me:
        if ev.get("reason") == "low_total":
            return t.gettext("The bids total only {total}, so the deal is thrown in. You deal again.",
                             total=int(ev.get("total", 0)))
        return t.gettext("Everyone passed, so the deal is thrown in. You deal again.")
    if ev.get("reason") == "low_total":
        return t.gettext("The bids total only {total}, so the deal is thrown in. {name} deals again.",
                         total=int(ev.get("total", 0)), name=dealer)
    return t.gettext("Everyone passed, so the deal is thrown in. {name} deals again.", name=dealer)


def render_notices(update: TableUpdate, t: T) -> list[OutMessage]:
    """The notices an update calls for, in event order (possibly none)."""
    out: list[OutMessage] = []
    for ev in update.events:
        text = notice_text(update.snapshot, ev, t)
        if text and ev["type"] == "match_over":  # with what it did to the season ratings
            ratings = next((e.get("ratings") for e in update.events if e["type"] == "match_recorded"), None)
            if ratings:
                text = "\n".join([text, *rating_lines(update.snapshot, ratings, t)])
        if text:
            buttons = play_again_buttons(update.snapshot, t) if ev["type"] == "match_over" else ()
            out.append(OutMessage(t.lines(text.split("\n")), buttons,
                                  notify=ev.get("type") != "doubles_revealed"))
    return out


#: The games played by partners (seats 0 and 2 against 1 and 3), where Play again may swap partners.
PARTNER_GAMES = frozenset({"tarneeb", "tarneeb41"})


def swappable(snapshot: TableSnapshot) -> bool:
    """Whether Play again may swap partners: a game of partners with at least two people at the table
    (alone with the AI, swapping seats 1 and 2 only trades one AI partner for another)."""
    table = snapshot.table
    if table.game not in PARTNER_GAMES and not (table.options or {}).get("partnership"):
        return False
    people = [s for s in table.seats if (s.away and s.owner) or (not s.is_ai and s.player_id)]
    return len(people) >= 2


def play_again_buttons(snapshot: TableSnapshot, t: T) -> tuple[tuple[Button, ...], ...]:
    """The match result's Play again (and, where partners may be swapped, Swap partners) buttons."""
    tid = snapshot.table.table_id
    again = Button(t.gettext("Play again"), payload=codec.encode("r", tid, None), style="success")
    if not swappable(snapshot):
        return ((again,),)
    return ((again, Button(t.gettext("Swap partners"), payload=codec.encode("r", tid, None, "swap"))),)


#: The events :func:`notice_text` tells in a notice.
NOTICE_KINDS = frozenset({"table_started", "deal_scored", "deal_thrown_in", "match_over", "table_cancelled",
                          "seat_to_ai", "seat_reclaimed", "table_parked", "doubles_revealed"})


def notice_text(snap: TableSnapshot, ev: Event, t: T, me: int | None = None) -> str:
    """The notice for one event ("" if it calls for none); ``me``: the reader's seat (the terminal)."""
    kind = ev["type"]
    if kind not in NOTICE_KINDS:  # most events (a card played, a trick taken) call for none
        return ""
    me = viewer(snap, me)
    text = ""
    if ev["type"] == "table_started":
        names = t.join([seat_name(snap, s, t) for s in range(4)])
        text = t.gettext("{game} starts at table {table}: {names}. Play passes {order}.",
                         game=game_name(snap.table.game, t), table=snap.table.table_id, names=names,
                         order=seat_order(t))
    elif ev["type"] == "deal_scored":
        text = deal_summary(snap, ev, t, me)
    elif ev["type"] == "deal_thrown_in":
        text = _thrown_in(snap, ev, t, me)
    elif ev["type"] == "match_over":
        text = match_over_text(snap, ev, t, me)
    elif ev["type"] == "table_cancelled":
        if ev.get("reason") == "lobby_timeout":
            text = t.gettext("Table {table} was closed: nobody started it in time.", table=snap.table.table_id)
        else:
            text = t.gettext("Table {table} was stopped.", table=snap.table.table_id)
    elif ev["type"] == "seat_to_ai":
        name = seat_name(snap, int(ev.get("seat", 0)), t)
        if int(ev.get("seat", 0)) == me:
            text = t.gettext("You are away; an AI player plays your seat until you return.")
        elif ev.get("reason") == "left":
            text = t.gettext("{name} left the table; an AI player takes the seat.", name=name)
        else:
            text = t.gettext("{name} is away; an AI player plays the seat until they return.", name=name)
    elif ev["type"] == "seat_reclaimed":
        if int(ev.get("seat", 0)) == me:
            text = t.gettext("You are back at the table.")
        else:
            text = t.gettext("{name} is back at the table.", name=seat_name(snap, int(ev.get("seat", 0)), t))
    elif ev["type"] == "table_parked":
        text = t.gettext("Table {table} has run into a problem and is paused, also after a restart. It goes "
                         "on after someone's move or a new begin command (its creator, a player or an admin); "
                         "the creator or an admin can also stop it.", table=snap.table.table_id)
    elif ev["type"] == "doubles_revealed":
        doubles = ev.get("doubles") or []
        if doubles:
            text = t.gettext("Doubled: {cards}", cards=doubled_list(snap, doubles, t, me))
        else:
            text = t.gettext("Nobody doubled.")
    return text


def render_dm_failed(name: str, start_url: str | None, t: T) -> OutMessage:
    """Told in the chat when a private message to ``name`` failed (with a "Start the bot" link)."""
    text = t.gettext("{name}, I cannot send you your cards privately. Open a private chat with me, then press "
                     "My hand.", name=name)
    buttons = ((Button(t.gettext("Start the bot"), url=start_url),),) if start_url else ()
    return OutMessage(t.lines([text]), buttons)
