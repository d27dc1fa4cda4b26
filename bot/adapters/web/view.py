"""What one page is sent: the table as one viewer may see it, in their language.

Everything here is built from an engine view (a seat's own ``view(seat)`` or the public
``view(None)``) and the table record, with the renderers' own words (``bot/present/render``): the page
draws, it never decides. Legal moves are the engine's ``legal`` list; every text is a catalog
string formatted for the reader (digits by the chat's setting).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot.core.model import TableSnapshot
from bot.core.views import DealScored, DealThrownIn, Phase, Play, View
from bot.present.i18n import T
from bot.present.render.cards import (
    SUIT_ORDER,
    by_suit,
    card_label,
    card_name,
    game_name,
    rank_glyph,
    suit_name,
    trump_label,
)
from bot.present.render.common import (
    TEAM_GAMES,
    action_label,
    score_lines,
    seat_name,
    shown_bid,
    taken_by,
    team_name,
    winners_text,
)
from bot.present.render.hand import prompt
from bot.present.render.table import ENDED, _header, game_lines, seat_roles
from bot.present.render.turn import turn_line
from storage.records import LIVE_STATUSES

Card = dict[str, str]


@lru_cache(maxsize=4096)
def _card(code: str, t: T) -> tuple[tuple[str, str], ...]:
    return (("code", code), ("rank", rank_glyph(code[0], t)), ("suit", code[1]),
            ("label", card_label(code, t)), ("name", card_name(code, t)))


def card(code: str, t: T) -> Card:
    """A card as the page draws it: code, rank glyph (reader's digits), suit letter, label, name."""
    return dict(_card(code, t))


LAYOUT_RANKS = "23456789TJQKA"


def layout_rows(view: View, t: T) -> list[dict[str, Any]]:
    """The Trix layout as rows of cards, one per suit started (low to high)."""
    layout = view.get("layout")
    if view.get("contract") != "trix" or not isinstance(layout, dict):
        return []
    rows = []
    for suit in SUIT_ORDER:
        span = layout.get(suit)
        cards = []
        if span:
            lo, hi = LAYOUT_RANKS.index(span[0]), LAYOUT_RANKS.index(span[1])
            cards = [card(r + suit, t) for r in LAYOUT_RANKS[lo:hi + 1]]
        rows.append({"suit": suit, "name": suit_name(suit, t), "cards": cards})
    return rows


def played(snap: TableSnapshot, play: Play, t: T) -> dict[str, Any]:
    """A card on the table: who played it, and a label for screen readers ("Sara Queen of Spades")."""
    seat = int(play["seat"])
    code = str(play["card"])
    return {"seat": seat, **card(code, t),
            "aria": t.gettext("{name} {card}", name=seat_name(snap, seat, t), card=card_name(code, t))}


def ui_strings(t: T) -> dict[str, str]:
    """The page's fixed words, sent once per connection."""
    return {
        "title": t.gettext("Majlis"),
        "last_trick": t.gettext("Last trick"),
        "hide_last_trick": t.gettext("Hide the last trick"),
        "no_last_trick": t.gettext("No trick has been taken yet."),
        "sheet": t.gettext("Score sheet"),
        "deal": t.gettext("Deal"),
        "total": t.gettext("Total"),
        "trump": t.gettext("Trump"),
        "exposed": t.gettext("Exposed card"),
        "your_hand": t.gettext("Your hand"),
        "trick": t.gettext("Cards on the table"),
        "log": t.gettext("Play by play"),
        "connecting": t.gettext("Connecting…"),
        "reconnecting": t.gettext("The connection was lost. Reconnecting…"),
        "denied": t.gettext("This link is not valid any more. Open the table again from the chat."),
        "keys": t.gettext("Keys: arrows choose a card, Enter plays it."),
        "turn_of": t.gettext("to act"),
        "replay": t.gettext("Replay"),
        "watch_replay": t.gettext("Replay the match trick by trick"),
        "previous": t.gettext("Previous"),
        "next": t.gettext("Next"),
        "dealer": t.gettext("dealer"),
    }


def _badges(snap: TableSnapshot, pub: View, seat: int, t: T) -> list[str]:
    game = snap.table.game
    out = seat_roles(snap, pub, seat, t)
    layout = game == "trix" and pub.get("contract") == "trix"
    if layout and seat in (pub.get("finished") or []):
        out.append(t.gettext("out, place {place}", place=list(pub["finished"]).index(seat) + 1))
    elif pub.get("phase") == Phase.PLAY and not layout:
        out.append(t.ngettext("{n} trick", "{n} tricks", int((pub.get("tricks") or [0] * 4)[seat])))
    return out


def sheet_columns(snap: TableSnapshot, me: int | None, t: T) -> tuple[list[str], list[int] | None]:
    """The score sheet's column heads, and for team games the team order (yours first)."""
    if snap.table.game in TEAM_GAMES:
        mine = (me or 0) % 2
        order = [mine, 1 - mine]
        if me is None:
            return [team_name(0, t), team_name(1, t)], [0, 1]
        return [t.gettext("Us"), t.gettext("Them")], order
    return [seat_name(snap, s, t) for s in range(4)], None


def sheet(snap: TableSnapshot, rows: list[dict[str, Any]], me: int | None, t: T) -> dict[str, Any]:
    """The score sheet: a row per deal dealt, numbered as the title and the replay number them (a
    thrown-in deal is a row that says so and changes nothing), and the totals."""
    heads, order = sheet_columns(snap, me, t)
    body: list[list[str]] = []
    totals: list[str] = []
    for i, row in enumerate(rows):
        if row.get("thrown_in"):
            body.append([t.gettext("{deal} (thrown in)", deal=i + 1), *("—" for _ in heads)])
            continue
        if order is not None:
            deltas = [row["teams"][k] for k in order]
            totals = [t.number(int(row["team_totals"][k])) for k in order]
        else:
            deltas = list(row["players"])
            totals = [t.number(int(x)) for x in row["player_totals"]]
        body.append([t.number(i + 1), *(t.signed(int(d)) for d in deltas)])
    return {"heads": [t.gettext("Deal"), *heads], "rows": body, "totals": totals}


def sheet_row(event: DealScored | DealThrownIn, game: str) -> dict[str, Any]:
    """One score-sheet row from a public ``deal_scored`` or ``deal_thrown_in`` event."""
    if event["type"] == "deal_thrown_in":
        return {"thrown_in": True}
    deltas = event.get("deltas") or {}
    totals = event.get("scores") or {}
    players = list(deltas.get("players") or [])
    teams = list(deltas.get("teams") or [])
    if game in TEAM_GAMES and not teams and players:
        teams = [players[0] + players[2], players[1] + players[3]]
    return {"players": players, "teams": teams, "player_totals": list(totals.get("players") or []),
            "team_totals": list(totals.get("teams") or [])}


def build_state(snap: TableSnapshot, view: View | None, t: T, *, me: int | None,
                rows: list[dict[str, Any]], now: float, watching: bool) -> dict[str, Any]:
    """The state of the table for one viewer: ``view`` is that viewer's engine view (their seat's,
    or the public one for a spectator), ``me`` their seat (None: watching)."""
    rec = snap.table
    v: View = view or {}
    legal = [str(c) for c in v.get("legal") or []] if me is not None and v.get("to_act") == me else []
    playable = {c.split(" ", 1)[1] for c in legal if c.startswith("play ")}
    hand: list[dict[str, Any]] = [{**card(c, t), "playable": c in playable}
            for codes in by_suit(v.get("hand") or []).values() for c in codes] if me is not None else []
    levels = shown_bid(snap, 13) == 7
    actions = [{"code": c, "label": action_label(c, t, levels=levels),
                "style": "danger" if c.startswith("double") else ("secondary" if c in ("pass", "done") else "primary")}
               for c in legal if not c.startswith("play ")]
    seats = []
    for s in range(4):
        seats.append({"seat": s, "name": seat_name(snap, s, t), "badges": _badges(snap, v, s, t),
                      "cards": int((v.get("hand_sizes") or [0] * 4)[s]), "ai": rec.seats[s].is_ai,
                      "cards_text": t.ngettext("{n} card left", "{n} cards left",
                                               int((v.get("hand_sizes") or [0] * 4)[s])),
                      "team": s % 2})
    trick = [played(snap, p, t) for p in v.get("trick") or []]
    last = v.get("last_trick")
    last_trick = None
    if last and last.get("cards"):
        last_trick = {"winner": int(last["seat"]),
                      "text": taken_by(snap, int(last["seat"]), t, me),
                      "cards": [played(snap, p, t) for p in last["cards"]]}
    trump = v.get("trump")
    exposed = v.get("exposed")
    over = rec.status not in LIVE_STATUSES or v.get("phase") == Phase.OVER or v.get("winner") is not None
    result = ""
    if v.get("winner") is not None:
        result = winners_text(snap, list(v.get("winner") or []), rec.game, t)
    elif rec.status in ENDED:
        result = t.gettext("Table {table} was stopped.", table=rec.table_id)
    deadline = rec.deadline
    turn_seat = v.get("to_act")
    return {
        "table": rec.table_id,
        "version": rec.version,
        "game": rec.game,
        "status": rec.status,
        "me": me,
        "watching": watching,
        "banner": t.gettext("You are watching table {table}.", table=rec.table_id) if watching else "",
        "title": _header(snap, v, t) if v else game_name(rec.game, t),
        "phase": v.get("phase"),
        "seats": seats,
        "to_act": turn_seat if not over else None,
        "turn": "" if over else turn_line(snap, v.get("phase"), None if turn_seat is None else int(turn_seat), t),
        "prompt": "" if over else prompt(v, t) if me is not None else "",
        "hand": hand,
        "actions": actions,
        "trick": trick,
        "leader": v.get("leader"),
        "last_trick": last_trick,
        "trump": {"suit": trump, "label": trump_label(str(trump), t),
                  "name": suit_name(trump, t) if trump in ("S", "H", "D", "C") else ""} if trump else None,
        "exposed": card(str(exposed), t) if exposed else None,
        "info": game_lines(snap, v, t) if v else [],
        "scores": score_lines(snap, v.get("scores") or {}, rec.game, t) if v else [],
        "target": t.gettext("Target: {target}", target=int(v["target"])) if v.get("target") else "",
        "sheet": sheet(snap, rows, me, t),
        "deadline_in": max(0.0, round(deadline - now, 1)) if deadline and not over and turn_seat is not None else None,
        "over": over,
        "result": result,
        "rtl": t.rtl,
        "digits": t.digits,
        "replay": "",
        "layout": layout_rows(v, t),
    }
