"""The public live table of a running match: built from ``snapshot.public`` only."""

from __future__ import annotations

from bot.core.advice import hints_on
from bot.core.model import TableSnapshot
from bot.core.views import LastTrick, Phase, View
from bot.present import codec
from bot.present.i18n import T
from bot.present.render.cards import (
    SUIT_ORDER,
    SUIT_SYMBOL,
    card_label,
    contract_name,
    game_name,
    rank_glyph,
    trump_label,
)
from bot.present.render.common import (
    TEAM_GAMES,
    doubled_list,
    hand_button,
    score_lines,
    seat_name,
    seat_order,
    shown_bid,
    team_name,
    trick_line,
    viewer,
    winners_text,
)
from bot.present.render.message import Button, OutMessage, rows
from bot.present.render.turn import turn_line
from storage.records import CANCELLED, STOPPED

_LAYOUT_RANKS = "23456789TJQKA"
ENDED = frozenset({STOPPED, CANCELLED})


def trix_deals(pub: View) -> int:
    """Deals in a Trix match: 20 (kingdoms), 8 (complex)."""
    return 8 if (pub.get("options") or {}).get("mode") == "complex" else 20


def _header(snapshot: TableSnapshot, pub: View, t: T, me: int | None = None) -> str:
    """The title: game, table, deal (``deal_no``: every deal dealt, a thrown-in one too, as the score
    sheet and the replay number them); in Trix the kingdom and its owner ("yours" for the reader)."""
    game = snapshot.table.game
    if game == "trix":
        deals = trix_deals(pub)
        owner = int(pub.get("owner") or 0)
        params = {
            "game": game_name(game, t), "table": snapshot.table.table_id,
            "kingdom": min(int(pub.get("kingdom", 0)) + 1, 4),
            "deal": min(int(pub.get("deal_index", 0)) + 1, deals),
        }
        if owner == viewer(snapshot, me):
            if deals == 8:
                return t.gettext("{game} · table {table} · kingdom {kingdom} of 4 (yours) · deal {deal} of 8", **params)
            return t.gettext("{game} · table {table} · kingdom {kingdom} of 4 (yours) · deal {deal} of 20", **params)
        params["owner"] = seat_name(snapshot, owner, t)
        if deals == 8:
            return t.gettext("{game} · table {table} · kingdom {kingdom} of 4 ({owner}) · deal {deal} of 8", **params)
        return t.gettext("{game} · table {table} · kingdom {kingdom} of 4 ({owner}) · deal {deal} of 20", **params)
    return t.gettext("{game} · table {table} · deal {deal}", game=game_name(game, t),
                     table=snapshot.table.table_id, deal=int(pub.get("deal_no") or 1))


def seat_roles(snapshot: TableSnapshot, pub: View, seat: int, t: T, me: int | None = None) -> list[str]:
    """What a seat is this deal, in words: its team, dealer, kingdom owner, its bid or contract
    (the chat's table line and the web page's seat badges both show these)."""
    game = snapshot.table.game
    parts: list[str] = []
    if game in TEAM_GAMES or (pub.get("options") or {}).get("partnership"):
        parts.append(team_name(seat % 2, t, me))
    if pub.get("dealer") == seat:
        parts.append(t.gettext("dealer"))
    if game == "trix" and pub.get("owner") == seat:
        parts.append(t.gettext("kingdom owner"))
    if game == "tarneeb41":
        bid = (pub.get("bids") or [None] * 4)[seat]
        if bid is not None:
            parts.append(t.gettext("bid {bid}", bid=bid))
    if game == "tarneeb":
        contract = pub.get("contract")  # Tarneeb's: the winning bid (an int)
        if pub.get("declarer") == seat and isinstance(contract, int) and contract:
            parts.append(t.gettext("declarer, contract {bid}", bid=shown_bid(snapshot, contract)))
        elif (pub.get("passed") or [False] * 4)[seat] and pub.get("phase") == Phase.BID:
            parts.append(t.pgettext("auction", "passed"))
    return parts


def _seat_line(snapshot: TableSnapshot, pub: View, seat: int, t: T, me: int | None = None) -> str:
    game = snapshot.table.game
    name = seat_name(snapshot, seat, t)
    tricks = (pub.get("tricks") or [0, 0, 0, 0])[seat]
    parts = [t.gettext("{seat}. {name}", seat=seat, name=name), *seat_roles(snapshot, pub, seat, t, me)]
    if game == "trix" and pub.get("phase") == Phase.PLAY and pub.get("contract") == "trix":
        finished = pub.get("finished") or []
        if seat in finished:
            parts.append(t.gettext("out, place {place}", place=finished.index(seat) + 1))
        else:
            parts.append(t.ngettext("{n} card left", "{n} cards left", (pub.get("hand_sizes") or [0] * 4)[seat]))
    elif pub.get("phase") == Phase.PLAY:
        parts.append(t.ngettext("{n} trick", "{n} tricks", tricks))
    return " · ".join(parts)


def game_lines(snapshot: TableSnapshot, pub: View, t: T, me: int | None = None, *,
               compact: bool = False) -> list[str]:
    """The game's own lines: trump and exposed card, auction and contract, Trix contract, doubles, layout.

    ``me``: the reader's seat, whose own bids and contract are said in the second person."""
    game = snapshot.table.game
    out: list[str] = []
    trump = pub.get("trump")
    exposed = pub.get("exposed")
    if game in TEAM_GAMES and trump and exposed and compact:
        out.append(t.gettext("Trump: {trump} (exposed {card})", trump=trump_label(trump, t),
                             card=card_label(exposed, t)))
    elif game in TEAM_GAMES and trump and exposed:
        out.append(t.gettext("Trump: {trump} (sister suit of the exposed {card} in the dealer's hand)",
                             trump=trump_label(trump, t), card=card_label(exposed, t)))
    elif game == "tarneeb41" and trump:
        out.append(t.gettext("Trump: {trump}", trump=trump_label(trump, t)))
    if game == "tarneeb41":
        bids = [b for b in (pub.get("bids") or []) if isinstance(b, int)]  # Tarneeb 41's: a bid or None by seat
        if bids and pub.get("phase") == Phase.BID and pub.get("seat") is not None:
            said = [t.gettext("{name}: {bid}", name=seat_name(snapshot, s, t), bid=b)
                    for s, b in enumerate(pub.get("bids") or []) if b is not None]
            out.append(t.gettext("Bids: {bids}", bids=t.join(said)))
        if bids and pub.get("phase") == Phase.BID:
            minimum = pub.get("min_total") or (pub.get("options") or {}).get("min_total", 11)
            out.append(t.gettext("Bids so far total {total} (at least {minimum} to play)", total=sum(bids),
                                 minimum=int(minimum)))
    elif game == "tarneeb":
        history = [h for h in pub.get("bids") or [] if isinstance(h, dict)]  # Tarneeb's: the auction's calls
        if pub.get("phase") == Phase.BID and history:
            words = []
            for h in history:
                name, called = seat_name(snapshot, h["seat"], t), h.get("bid")
                if called is None:
                    words.append(t.gettext("{name}: pass", name=name))
                else:
                    words.append(t.gettext("{name}: {bid}", name=name, bid=shown_bid(snapshot, called)))
            out.append(t.gettext("Auction: {bids}", bids=t.join(words)))
        high = pub.get("high_bid")
        if pub.get("phase") == Phase.BID and high:
            if high["seat"] == me:
                out.append(t.gettext("High bid: {bid}, yours", bid=shown_bid(snapshot, high["bid"])))
            else:
                out.append(t.gettext("High bid: {bid} by {name}", bid=shown_bid(snapshot, high["bid"]),
                                     name=seat_name(snapshot, high["seat"], t)))
        declarer, contract = pub.get("declarer"), pub.get("contract")
        if declarer is not None and isinstance(contract, int) and contract:
            trump = pub.get("trump")
            name = seat_name(snapshot, declarer, t)
            bid = shown_bid(snapshot, contract)
            mine = declarer == me
            if trump and mine:
                out.append(t.gettext("Contract: you bid {bid}, trump {trump}", bid=bid, trump=trump_label(trump, t)))
            elif trump:
                out.append(t.gettext("Contract: {name} bid {bid}, trump {trump}", name=name, bid=bid,
                                     trump=trump_label(trump, t)))
            elif mine:
                out.append(t.gettext("Contract: you bid {bid}; name the trump", bid=bid))
            else:
                out.append(t.gettext("Contract: {name} bid {bid}; trump not chosen yet", name=name, bid=bid))
    elif game == "trix":
        contract = pub.get("contract")  # Trix's: the contract's name
        if isinstance(contract, str) and contract:
            out.append(t.gettext("Contract: {contract}", contract=contract_name(contract, t)))
        left = [c for c in pub.get("contracts_left") or [] if c != contract]
        if left:
            out.append(t.gettext("Still to play in this kingdom: {contracts}",
                                 contracts=t.join([contract_name(c, t) for c in left])))
        doubled = pub.get("doubled") or []
        if doubled:
            out.append(t.gettext("Doubled: {cards}", cards=doubled_list(snapshot, doubled, t, me)))
        twos = pub.get("exposed_twos") or {}
        shown = [t.gettext("{name} {cards}", name=seat_name(snapshot, int(seat), t),
                           cards=" ".join(card_label(c, t) for c in cards))
                 for seat, cards in sorted(twos.items()) if cards]
        if shown:
            out.append(t.gettext("Twos shown: {list}", list=t.join(shown)))
        layout = pub.get("layout")
        if contract == "trix" and isinstance(layout, dict) and compact:
            rows = []
            for s in SUIT_ORDER:
                row = layout.get(s)
                span = f"{rank_glyph(row[0], t)}–{rank_glyph(row[1], t)}" if row else "—"
                rows.append(f"{SUIT_SYMBOL[s]} {t.isolate(span)}")
            out.append(t.gettext("Layout: {rows}", rows=t.join(rows, sep=" · ")))
        elif contract == "trix" and isinstance(layout, dict):
            out.append(t.gettext("Layout:"))
            for s in SUIT_ORDER:
                row = layout.get(s)
                if row:
                    lo, hi = _LAYOUT_RANKS.index(row[0]), _LAYOUT_RANKS.index(row[1])
                    ranks = " ".join(rank_glyph(r, t) for r in _LAYOUT_RANKS[lo:hi + 1])
                    out.append(f"{SUIT_SYMBOL[s]} {t.isolate(ranks)}")
                else:
                    not_started = t.gettext("not started")
                    out.append(f"{SUIT_SYMBOL[s]} {not_started}")
    return out


def last_trick_line(snapshot: TableSnapshot, last: LastTrick, t: T, me: int | None = None) -> str:
    """"Last trick: Ali Q♠ · Sara 3♠ (taken by Sara)"; "(taken by you)" for the reader (``me``, else the
    terminal's player)."""
    cards = trick_line(snapshot, last["cards"], t)
    if last["seat"] == viewer(snapshot, me):
        return t.gettext("Last trick: {cards} (taken by you)", cards=cards)
    return t.gettext("Last trick: {cards} (taken by {name})", cards=cards, name=seat_name(snapshot, last["seat"], t))


def table_lines(snapshot: TableSnapshot, t: T, me: int | None = None, *, compact: bool = False) -> list[str]:
    """The lines of the public table; ``me``: the reader's seat (the terminal's player), whose turn,
    bids and team are said in the second person ("Your turn", "Us / Them"); ``compact``: shorter,
    for a terminal's 80×24 (no order-of-play line, no "Scores:" heading, the target in one line)."""
    pub: View = snapshot.public or {}
    game = snapshot.table.game
    me = viewer(snapshot, me)
    lines = [_header(snapshot, pub, t, me)]
    if hints_on(snapshot.table.options):
        lines.append(t.gettext("Casual table: hints and deal reviews are on."))
    if not compact:
        lines.append(t.gettext("Play passes {order}", order=seat_order(t)))
    lines += [_seat_line(snapshot, pub, s, t, me) for s in range(4)]
    lines += game_lines(snapshot, pub, t, me, compact=compact)
    trick = pub.get("trick") or []
    if trick:
        lines.append(t.gettext("On the table: {cards}", cards=trick_line(snapshot, trick, t)))
    last = pub.get("last_trick")
    if last and last.get("cards"):
        lines.append(last_trick_line(snapshot, last, t, me))
    scores = pub.get("scores") or {}
    target = pub.get("target")
    if compact:
        lines += score_lines(snapshot, scores, game, t, me)
        if target:
            lines[-1] += " · " + t.gettext("Target: {target}", target=target)
    else:
        lines.append(t.gettext("Scores:"))
        lines += ["  " + x for x in score_lines(snapshot, scores, game, t, me)]
        if target:
            lines.append(t.gettext("Target: {target}", target=target))
    if pub.get("winner") is not None or pub.get("phase") == Phase.OVER:
        result = winners_text(snapshot, list(pub.get("winner") or []), game, t, me=me)
        if result:
            lines.append(result)
    elif snapshot.table.status in ENDED:
        lines.append(t.gettext("Table {table} was stopped.", table=snapshot.table.table_id))
    else:
        turn = turn_line(snapshot, pub.get("phase"), snapshot.to_act, t, me)
        if turn:
            lines.append(turn)
    return lines


def table_text(snapshot: TableSnapshot, t: T, me: int | None = None) -> str:
    """The text of the public table (``me``: see :func:`table_lines`)."""
    return t.lines(table_lines(snapshot, t, me))


def render_table(snapshot: TableSnapshot, t: T, *, platform: str) -> OutMessage:
    """The public table message, edited in place. Uses ``snapshot.public`` only."""
    pub: View = snapshot.public or {}
    over = pub.get("winner") is not None or pub.get("phase") == Phase.OVER or snapshot.table.status in ENDED
    if over:
        return OutMessage(table_text(snapshot, t), (), notify=False)
    return OutMessage(table_text(snapshot, t), _table_buttons(snapshot, t, platform), notify=False)


_BUTTONS = object()


def _table_buttons(snapshot: TableSnapshot, t: T, platform: str) -> tuple[tuple[Button, ...], ...]:
    """"My hand" and a "Take seat" per seat an AI plays for nobody; they change only with the seats,
    so the translator keeps them for the table's seats tuple."""
    seats = snapshot.table.seats
    key = (_BUTTONS, snapshot.table.table_id, id(seats), platform)
    hit = t.recall(key)
    if hit is not None and hit[0] is seats:
        buttons: tuple[tuple[Button, ...], ...] = hit[1]
        return buttons
    claims: list[Button] = []
    if platform != "cli":  # anyone may take over a seat an AI plays for nobody
        for i, seat in enumerate(seats):
            if seat.is_ai and not seat.away:
                payload = codec.encode("c", snapshot.table.table_id, None, str(i))
                claims.append(Button(t.gettext("Take seat {seat}", seat=i), payload=payload, style="success"))
    buttons = rows([[hand_button(snapshot, t)], claims])
    t.keep(key, (seats, buttons))
    return buttons
