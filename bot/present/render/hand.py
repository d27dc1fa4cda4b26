"""A seat's private hand with the actions it may take now, and the short "your turn" ping."""

from __future__ import annotations

from bot.core.advice import hints_on
from bot.core.model import TableSnapshot
from bot.core.views import Phase, View
from bot.present import codec
from bot.present.i18n import T
from bot.present.render.cards import SUIT_SYMBOL, by_suit, card_label, cards_line, game_name, sort_key
from bot.present.render.common import action_button, hand_button, seat_name, trick_line
from bot.present.render.message import Button, OutMessage, rows
from bot.present.render.table import game_lines
from bot.present.render.turn import turn_sentence


def prompt(view: View, t: T) -> str:
    """What the viewer is asked to do now (empty when it is not their turn)."""
    phase = view.get("phase")
    game = view.get("game")
    if view.get("to_act") is None or view.get("to_act") != view.get("seat"):
        return ""
    if phase == Phase.BID:
        if game == "tarneeb41":
            return t.gettext("Your bid: how many tricks will you take yourself?")
        return t.gettext("Your bid: how many tricks will your team take, or pass?")
    if phase == Phase.TRUMP:
        return t.gettext("You won the auction: name the trump suit.")
    if phase == Phase.CONTRACT:
        return t.gettext("Your kingdom: choose the contract for this deal.")
    if phase == Phase.DOUBLE:
        return t.gettext("Double any of these cards, then press Done.")
    if game == "trix" and view.get("contract") == "trix":
        return t.gettext("Your turn: put a card on the layout.")
    return t.gettext("Your turn: play a card.")


def hand_text(snapshot: TableSnapshot, view: View, t: T) -> str:
    """The text of a seat's private hand message (also used by the terminal)."""
    seat = view.get("seat")
    lines = [t.gettext("Your hand · {game} · table {table}", game=game_name(snapshot.table.game, t),
                       table=snapshot.table.table_id)]
    groups = by_suit(view.get("hand") or [])
    if not groups:
        lines.append(t.gettext("No cards in your hand."))
    for suit, codes in groups.items():
        lines.append(f"{SUIT_SYMBOL[suit]} {t.isolate(' '.join(card_label(c, t)[:-1] for c in codes))}")
    context = game_lines(snapshot, view, t, seat if isinstance(seat, int) else None)
    if view.get("game") == "tarneeb41" and view.get("phase") == Phase.PLAY and isinstance(seat, int):
        bid = (view.get("bids") or [None] * 4)[seat]
        if isinstance(bid, int):  # Tarneeb 41's bids: a bid or None by seat
            context.append(bid_progress(int(bid), int((view.get("tricks") or [0] * 4)[seat]), t))
    trick = view.get("trick") or []
    if trick:
        context.append(t.gettext("On the table: {cards}", cards=trick_line(snapshot, trick, t)))
    if context:
        lines.append("")
        lines += context
    mine = view.get("my_doubles") or []
    if mine:
        lines.append(t.gettext("You doubled: {cards}", cards=" ".join(card_label(c, t) for c in mine)))
    ask = prompt(view, t)
    playable = playable_cards(view)
    if ask and playable is not None and len(playable) < len(view.get("hand") or []):
        lines.append(t.gettext("Playable now: {cards}", cards=cards_line(playable, t)))
    if ask:
        lines.append(ask)
    elif view.get("phase") == Phase.DOUBLE:
        lines.append(t.gettext("Doubling is open; please wait."))
    elif snapshot.to_act is not None and snapshot.to_act != seat and view.get("phase") != Phase.OVER:
        lines.append(t.gettext("Waiting for {name}.", name=seat_name(snapshot, snapshot.to_act, t)))
    return t.lines(lines)


def playable_cards(view: View) -> list[str] | None:
    """The viewer's cards that may be played now, in hand order (None when no card is to be played)."""
    legal = [c.split()[1] for c in view.get("legal") or [] if c.startswith("play ")]
    if view.get("to_act") is None or view.get("to_act") != view.get("seat") or not legal:
        return None
    return sorted(legal, key=sort_key)


def bid_progress(bid: int, took: int, t: T) -> str:
    """"You bid 5 and have taken 2 tricks." (Arabic: the dual, 3-10, 11+, and "none yet" for zero)."""
    return t.ngettext("You bid {bid} and have taken {n} trick so far.",
                      "You bid {bid} and have taken {n} tricks so far.", took, bid=bid)


def advice_buttons(snapshot: TableSnapshot, view: View, t: T) -> tuple[Button, ...]:
    """At a table that allows them (``hints``): "Hint" at the viewer's turn, and "Review"."""
    if not hints_on(snapshot.table.options) or view.get("phase") == Phase.OVER:
        return ()
    tid = snapshot.table.table_id
    out = [Button(t.gettext("Review"), payload=codec.encode("v", tid, None), style="secondary")]
    if view.get("to_act") is not None and view.get("to_act") == view.get("seat"):
        out.insert(0, Button(t.gettext("Hint"), payload=codec.encode("t", tid, snapshot.table.version),
                             style="secondary"))
    return tuple(out)


def hand_buttons(snapshot: TableSnapshot, view: View, t: T) -> tuple[tuple[Button, ...], ...]:
    """The action buttons for the viewer's legal moves now (none when it is not their turn), and
    the Hint and Review buttons where the table allows them."""
    advice = advice_buttons(snapshot, view, t)
    moves = _move_buttons(snapshot, view, t)
    return (*moves, advice) if advice else moves


def _move_buttons(snapshot: TableSnapshot, view: View, t: T) -> tuple[tuple[Button, ...], ...]:
    if view.get("to_act") is None or view.get("to_act") != view.get("seat"):
        return ()
    legal: list[str] = list(view.get("legal") or [])
    phase = view.get("phase")
    if phase == Phase.PLAY:
        groups: list[list[Button]] = []
        allowed = set(legal)
        for codes in by_suit(view.get("hand") or []).values():
            groups.append([action_button(snapshot, f"play {c}", t, enabled=f"play {c}" in allowed)
                           for c in codes])
        extra = [action_button(snapshot, c, t, style="secondary") for c in legal if not c.startswith("play ")]
        if extra:
            groups.append(extra)
        return rows(groups)
    if phase == Phase.DOUBLE:
        doubles = [action_button(snapshot, c, t, style="danger") for c in legal if c != "done"]
        done = [action_button(snapshot, c, t, style="success") for c in legal if c == "done"]
        return rows([doubles, done])
    if phase == Phase.BID:
        bids = [action_button(snapshot, c, t) for c in legal if c != "pass"]
        passes = [action_button(snapshot, c, t, style="secondary") for c in legal if c == "pass"]
        return rows([bids, passes])
    return rows([[action_button(snapshot, c, t) for c in legal]])


def render_hand(snapshot: TableSnapshot, view: View, t: T) -> OutMessage:
    """A seat's private hand (``view`` = the engine's ``view(seat)``), edited in place."""
    return OutMessage(hand_text(snapshot, view, t), hand_buttons(snapshot, view, t), notify=False)


def render_turn_ping(snapshot: TableSnapshot, seat: int, t: T) -> OutMessage:
    """A short new message telling ``seat`` it is their turn (with a "My hand" button)."""
    pub: View = snapshot.public or {}
    text = turn_sentence(pub.get("phase"), t, at=(snapshot.table.table_id, game_name(snapshot.table.game, t)))
    return OutMessage(t.lines([text]), ((hand_button(snapshot, t),),), notify=True)


def render_turn_warning(snapshot: TableSnapshot, seat: int, seconds_left: int, t: T) -> OutMessage:
    """A reminder that ``seat``'s time runs out (a ``turn_warning`` table event)."""
    text = t.ngettext(
        "{name}, {n} second left, then a move is played for you.",
        "{name}, {n} seconds left, then a move is played for you.",
        seconds_left, name=seat_name(snapshot, seat, t),
    )
    return OutMessage(t.lines([text]), ((hand_button(snapshot, t),),), notify=True)
