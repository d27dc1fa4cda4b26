"""What one page is sent: the table as one viewer may see it, in their language.

Everything here is built from an engine view (a seat's own ``view(seat)`` or the public
``view(None)``) and the table record, with the renderers' own words (``bot/present/render``): the page
draws, it never decides. Legal moves are the engine's ``legal`` list; every text is a catalog
string formatted for the reader (digits by the chat's setting).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bot.core.advice import hints_on
from bot.core.model import TableSnapshot
from bot.core.views import DealScored, DealThrownIn, Phase, Play, View
from bot.present.i18n import T
from bot.present.render.cards import (
    SUIT_ORDER,
    by_suit,
    card_label,
    card_name,
    contract_name,
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
from bot.present.render.summary import swappable
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
RED_SUITS = frozenset("HD")


def alternating(codes: list[str]) -> list[str]:
    """A hand in suits whose colours alternate where they can (black, red, black, red), each suit
    high to low: two suits of one colour side by side are hard to tell apart on a small screen."""
    groups = by_suit(codes)
    black = [s for s in groups if s not in RED_SUITS]
    red = [s for s in groups if s in RED_SUITS]
    first, second = (black, red) if len(black) >= len(red) else (red, black)
    order: list[str] = []
    while first or second:
        if first:
            order.append(first.pop(0))
        if second:
            order.append(second.pop(0))
    return [c for suit in order for c in groups[suit]]


def initials(name: str) -> str:
    """The letters in a seat's circle: the first letter of the first two words, or of the first word
    and its number ("AI 2" → "A2", «لاعب آلي 2» → «ل2»)."""
    words = name.split()
    if not words:
        return "?"
    digits = "".join(ch for ch in words[-1] if ch.isdigit())
    if len(words) > 1 and digits:
        return words[0][:1] + digits[-2:]
    return "".join(w[:1] for w in words[:2])


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
        "profile_denied": t.gettext("This link is not valid any more. Ask for the profile again in the chat."),
        "tournament_denied": t.gettext("This link is not valid any more. Open the tournament's page again from "
                                       "its message in the group."),
        "keys": t.gettext("Keys: arrows choose a card, Enter plays it."),
        "turn_of": t.gettext("to act"),
        "replay": t.gettext("Replay"),
        "watch_replay": t.gettext("Replay the match trick by trick"),
        "previous": t.gettext("Previous"),
        "next": t.gettext("Next"),
        "dealer": t.gettext("dealer"),
        "play": t.gettext("Play"),
        "tap_again": t.gettext("Tap the card again, or Play, to play it."),
        "one_tap": t.gettext("One tap plays a card"),
        "close": t.gettext("Close"),
        "rematch_sent": t.gettext("Play again was sent to the chat: the new table is there."),
        "rematch_wait": t.gettext("Starting the new match…"),
        "hint": t.gettext("Hint"),
        "review": t.gettext("Review"),
        "thinking": t.gettext("Thinking…"),
    }


def _badges(snap: TableSnapshot, pub: View, seat: int, t: T) -> list[str]:
    game = snap.table.game
    team = team_name(seat % 2, t)  # the face's colour says it; the seat's label (for screen readers) too
    out = [r for r in seat_roles(snap, pub, seat, t) if r != team]
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
                                  for c in alternating([str(c) for c in v.get("hand") or []])] if me is not None else []
    levels = shown_bid(snap, 13) == 7
    actions = [{"code": c, "label": action_label(c, t, levels=levels),
                "style": "danger" if c.startswith("double") else ("secondary" if c in ("pass", "done") else "primary")}
               for c in legal if not c.startswith("play ")]
    seats = []
    for s in range(4):
        name = seat_name(snap, s, t)
        partners = rec.game in TEAM_GAMES or bool((rec.options or {}).get("partnership"))
        seats.append({"seat": s, "name": name, "initials": initials(name), "badges": _badges(snap, v, s, t),
                      "team_name": team_name(s % 2, t, me) if partners else "",
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
        result = winners_text(snap, list(v.get("winner") or []), rec.game, t, me=me)
    elif rec.status in ENDED:
        result = t.gettext("Table {table} was stopped.", table=rec.table_id)
    deadline = rec.deadline
    turn_seat = v.get("to_act")
    asked = "" if over or me is None else prompt(v, t)
    # Hint and Review (bot/core/advice.py): a seat's own, where the table allows them; Review once a deal
    # of cards has been scored (a thrown-in deal has none to review)
    casual = hints_on(rec.options)
    seated = casual and me is not None and not watching
    return {
        "table": rec.table_id,
        "version": rec.version,
        "game": rec.game,
        "status": rec.status,
        "me": me,
        "watching": watching,
        "banner": t.gettext("You are watching table {table}.", table=rec.table_id) if watching else "",
        "casual": t.gettext("Casual table: hints and deal reviews are on.") if casual else "",
        "can_hint": seated and bool(legal) and not over,
        "can_review": seated and any(not row.get("thrown_in") for row in rows),
        "title": _header(snap, v, t, me) if v else game_name(rec.game, t),
        "phase": v.get("phase"),
        "seats": seats,
        "to_act": turn_seat if not over else None,
        # the reader's own turn is told by the prompt below it ("Your turn: play a card."), in the second person
        "turn": "" if over or asked else turn_line(snap, v.get("phase"), None if turn_seat is None else int(turn_seat),
                                                   t, me),
        "prompt": asked,
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
        "contract": contract_name(str(v["contract"]), t) if rec.game == "trix" and v.get("contract") else "",
        "final": match_panel(snap, v, t, me=me, can_rematch=me is not None and not watching)
        if v.get("winner") is not None else None,
    }


# -- the result of a deal and of the match: panels of their own -----------------------------------------


def _order(me: int | None) -> list[int]:
    """Seats in the panel's order: the reader first, then round the table."""
    first = me or 0
    return [(first + k) % 4 for k in range(4)]


def _person(snap: TableSnapshot, seat: int, me: int | None, t: T) -> dict[str, Any]:
    name = seat_name(snap, seat, t)
    return {"seat": seat, "name": t.gettext("You") if seat == me else name, "initials": initials(name),
            "team": seat % 2}


def _tarneeb_headline(snap: TableSnapshot, ev: DealScored, t: T, me: int | None) -> tuple[list[str], bool]:
    """Classic Tarneeb: who bid what with which trump, and whether the contract was made."""
    s = ev.get("summary") or {}
    declarer, bid = int(s.get("declarer", 0)), int(s.get("bid", 0))
    team = declarer % 2
    took = int((s.get("tricks") or [0, 0])[team])
    trump = trump_label(str(s.get("trump") or "N"), t)
    if declarer == me:
        lines = [t.gettext("You bid {bid} with {trump} as trump.", bid=shown_bid(snap, bid), trump=trump)]
    else:
        lines = [t.gettext("{name} ({team}) bid {bid} with {trump} as trump.", name=seat_name(snap, declarer, t),
                           team=team_name(team, t, me), bid=shown_bid(snap, bid), trump=trump)]
    made = took >= bid
    tricks = t.ngettext("{n} trick", "{n} tricks", took)
    if made:
        lines.append(t.gettext("{team} took {tricks}: the contract is made.", team=team_name(team, t, me),
                               tricks=tricks))
    else:
        lines.append(t.gettext("{team} took {tricks}: the contract is broken.", team=team_name(team, t, me),
                               tricks=tricks))
    good = made == (me is None or team == me % 2)
    return lines, good


def deal_panel(snap: TableSnapshot, ev: DealScored, t: T, *, me: int | None, deal_no: int,
               seconds: float) -> dict[str, Any]:
    """What the result panel after a deal shows: each seat's (or team's) figures, the change to the
    score and the totals; ``seconds``: how long it stays when nobody presses Next deal."""
    from bot.present.render.summary import _taken_words, doubles_breakdown

    game = snap.table.game
    s = ev.get("summary") or {}
    deltas = (ev.get("deltas") or {}).get("players") or [0] * 4
    totals = (ev.get("scores") or {}).get("players") or [0] * 4
    team_deltas = list((ev.get("deltas") or {}).get("teams") or [])
    team_totals = list((ev.get("scores") or {}).get("teams") or [])
    rows: list[dict[str, Any]] = []
    lines: list[str] = []
    mood = "neutral"
    if game == "tarneeb":
        heads = [t.gettext("Team"), t.gettext("Tricks"), t.gettext("This deal"), t.gettext("Total")]
        tricks = list(s.get("tricks") or [0, 0])
        if len(team_deltas) < 2:
            team_deltas = [deltas[0] + deltas[2], deltas[1] + deltas[3]] if len(deltas) == 4 else [0, 0]
        for team in ((me % 2, 1 - me % 2) if me is not None else (0, 1)):
            rows.append({"team": team, "name": team_name(team, t, me),
                         "faces": [_person(snap, seat, me, t) for seat in (team, team + 2)],
                         "cells": [t.number(int(tricks[team])), t.signed(int(team_deltas[team])),
                                   t.number(int(team_totals[team]) if team_totals else 0)],
                         "delta": int(team_deltas[team])})
        lines, good = _tarneeb_headline(snap, ev, t, me)
        mood = "good" if good else "bad"
    elif game == "tarneeb41":
        heads = [t.gettext("Player"), t.gettext("Bid"), t.gettext("Tricks"), t.gettext("This deal"), t.gettext("Total")]
        bids = list(s.get("bids") or [0] * 4)
        tricks = list(s.get("tricks") or [0] * 4)
        for seat in _order(me):
            bid, took = int(bids[seat] or 0), int(tricks[seat])
            rows.append({**_person(snap, seat, me, t), "made": took >= bid,
                         "cells": [t.number(bid), t.number(took), t.signed(int(deltas[seat])),
                                   t.number(int(totals[seat]))], "delta": int(deltas[seat])})
        if me is not None:
            my_bid, my_took = int(bids[me] or 0), int(tricks[me])
            if my_took >= my_bid:
                lines.append(t.gettext("You made your bid of {bid}.", bid=my_bid))
                mood = "good"
            else:
                lines.append(t.ngettext("You missed your bid of {bid}: you took only {n} trick.",
                                        "You missed your bid of {bid}: you took only {n} tricks.", my_took,
                                        bid=my_bid))
                mood = "bad"
        if team_totals:
            a, b = (me % 2, 1 - me % 2) if me is not None else (0, 1)
            lines.append(t.gettext("{team_a}: {total_a} · {team_b}: {total_b}", team_a=team_name(a, t, me),
                                   total_a=int(team_totals[a]), team_b=team_name(b, t, me),
                                   total_b=int(team_totals[b])))
    else:  # Trix: each player's points in the kingdom's contract
        contract = str(s.get("contract", ""))
        heads = [t.gettext("Player"), contract_name(contract, t), t.gettext("This deal"), t.gettext("Total")]
        lines.append(t.gettext("{contract} in the kingdom of {name}:", contract=contract_name(contract, t),
                               name=seat_name(snap, int(s.get("owner", 0)), t)).rstrip(":："))
        taken = s.get("taken") or {}
        places = list(s.get("places") or [])
        for seat in _order(me):
            if contract == "trix":
                detail = t.gettext("place {place}", place=places.index(seat) + 1) if seat in places else ""
            elif contract == "tricks":
                detail = t.ngettext("{n} trick", "{n} tricks", int((s.get("tricks") or [0] * 4)[seat]))
            else:
                got = taken.get(str(seat)) if isinstance(taken, dict) else None
                n = int((s.get("tricks") or [0] * 4)[seat]) if contract == "complex" else 0
                detail = _taken_words(contract, [str(c) for c in got or []], n, t)
            rows.append({**_person(snap, seat, me, t), "made": int(deltas[seat]) >= 0,
                         "cells": [detail or "—", t.signed(int(deltas[seat])), t.number(int(totals[seat]))],
                         "delta": int(deltas[seat])})
        lines += doubles_breakdown(snap, list(s.get("doubles") or []), ev, t, me)
        if me is not None:
            mood = "good" if int(deltas[me]) >= 0 else "bad"
    partners = game in TEAM_GAMES or bool((snap.table.options or {}).get("partnership"))
    return {"kind": "deal", "title": t.gettext("Result of deal {n}", n=deal_no), "lines": lines,
            "partners": partners,
            "heads": heads, "rows": rows, "mood": mood, "seconds": seconds,
            "next": t.gettext("Next deal")}


def thrown_panel(snap: TableSnapshot, ev: DealThrownIn, t: T, *, me: int | None, seconds: float) -> dict[str, Any]:
    """A deal thrown in (everyone passed; the bids too low): said as such, nobody scores."""
    from bot.present.render.summary import notice_text

    return {"kind": "thrown", "title": t.gettext("Deal thrown in"), "lines": [notice_text(snap, ev, t, me)],
            "heads": [], "rows": [], "mood": "neutral", "seconds": seconds, "next": t.gettext("Next deal")}


def match_panel(snap: TableSnapshot, v: View, t: T, *, me: int | None, can_rematch: bool) -> dict[str, Any]:
    """The end of the match: who won, the final scores, and Play again (with partners swapped too, in
    a partnership game) for a person who sat at the table."""
    game = snap.table.game
    winner = list(v.get("winner") or [])
    scores = v.get("scores") or {}
    headline = winners_text(snap, winner, game, t, me=me) if winner else ""
    won = me is not None and me in winner
    rows: list[dict[str, Any]] = []
    players = list(scores.get("players") or [])
    teams = list(scores.get("teams") or [])
    if game in TEAM_GAMES and teams:
        heads = [t.gettext("Team"), t.gettext("Total")]
        for team in ((me % 2, 1 - me % 2) if me is not None else (0, 1)):
            rows.append({"team": team, "name": team_name(team, t, me), "won": team in {w % 2 for w in winner},
                         "faces": [_person(snap, seat, me, t) for seat in (team, team + 2)],
                         "cells": [t.number(int(teams[team]))]})
    else:
        heads = [t.gettext("Player"), t.gettext("Total")]
        for seat in _order(me):
            rows.append({**_person(snap, seat, me, t), "won": seat in winner,
                         "cells": [t.number(int(players[seat]) if seat < len(players) else 0)]})
    partners = game in TEAM_GAMES or bool((snap.table.options or {}).get("partnership"))
    again = []
    if can_rematch:
        again.append({"swap": False, "label": t.gettext("Play again")})
        if swappable(snap):
            again.append({"swap": True, "label": t.gettext("Play again, partners swapped")})
    return {"kind": "match", "title": t.gettext("Match over"), "lines": [headline] if headline else [],
            "heads": heads, "rows": rows, "mood": "good" if won else ("bad" if me is not None else "neutral"),
            "again": again, "seconds": 0, "partners": partners}
