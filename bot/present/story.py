"""A table's match told deal by deal, rebuilt from its seed and its action log.

The story of a finished match shows each deal's hands; the story of a live match shows only what
the table has seen (public events), since its players still hold their cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import engine
from bot.core.advice import engine_options
from bot.core.model import TableSnapshot
from bot.core.views import DealScored, DealStarted, Event, events_of, public_view
from bot.present.i18n import T
from bot.present.render.cards import card_label, cards_line, contract_name, game_name, suit_label
from bot.present.render.common import (
    TEAM_GAMES,
    doubled_list,
    score_lines,
    seat_name,
    team_name,
    trick_line,
    viewer,
    winners_text,
)
from storage.records import LIVE_STATUSES, ActionRecord, TableRecord, TableStatus
from storage.repository import Repository


def _status(record: TableRecord, t: T) -> str:
    if record.status in LIVE_STATUSES and record.parked:
        # its timer or AI move failed again and again: it waits for a person's move, begin or stop
        return t.pgettext("table status", "parked after repeated failures")
    return {
        TableStatus.LOBBY: t.pgettext("table status", "in the lobby"),
        TableStatus.PLAYING: t.pgettext("table status", "being played"),
        TableStatus.FINISHED: t.pgettext("table status", "finished"),
        TableStatus.CANCELLED: t.pgettext("table status", "cancelled"),
        TableStatus.STOPPED: t.pgettext("table status", "stopped"),
    }.get(record.status, record.status)


class Story:
    """Turns one table's engine events into lines of text in one language."""

    #: Events that the live notices already tell (bot/present/render/summary.py).
    NOTICED = frozenset({"deal_scored", "match_over", "deal_thrown_in"})

    def __init__(self, record: TableRecord, t: T, *, show_hands: bool, live: bool = False,
                 me: int | None = None) -> None:
        self.snap = TableSnapshot(table=record)
        self.me = viewer(self.snap, me)  # the reader's seat: their own moves are told in the second person
        self.t = t
        self.game = record.game
        self.show_hands = show_hands
        self.live = live
        self.lines: list[str] = []
        self.contract: str | None = None  # the Trix contract being played (the layout's cards are told one by one)

    def name(self, seat: int) -> str:
        """The seat's name."""
        return seat_name(self.snap, seat, self.t)

    def header(self, actions: int) -> None:
        """The title, the seats and the seed."""
        t, rec = self.t, self.snap.table
        self.lines.append(t.gettext(
            "{game} · table {table} · {status}", game=game_name(rec.game, t), table=rec.table_id,
            status=_status(rec, t),
        ))
        self.lines.append(t.gettext("Seed {seed}; {actions}", seed=str(rec.seed),
                                    actions=t.ngettext("{n} action", "{n} actions", actions)))
        for seat in range(4):
            self.lines.append("  " + t.gettext("Seat {seat}: {name}", seat=seat, name=self.name(seat)))

    def deal_hands(self, g: engine.Game) -> None:
        """Each seat's hand at the start of a deal (finished matches only)."""
        if not self.show_hands:
            return
        for seat in range(4):
            cards = cards_line(g.hand(seat), self.t)
            if seat == self.me:
                self.lines.append("  " + self.t.gettext("You hold {cards}", cards=cards))
            else:
                self.lines.append("  " + self.t.gettext("{name} holds {cards}", name=self.name(seat), cards=cards))

    def event(self, e: Event) -> None:
        """One event as zero or more lines."""
        t, kind = self.t, e["type"]
        add = self.lines.append
        if self.live and kind in self.NOTICED:
            return
        mine = e.get("seat") == self.me and self.me is not None
        if e["type"] == "card_played" and (self.live or self.contract == "trix"):
            card = card_label(e["card"], t)
            add("  " + (t.gettext("You play {card}", card=card) if mine else
                        t.gettext("{name} plays {card}", name=self.name(e["seat"]), card=card)))
        elif e["type"] == "trick_taken" and self.live:
            add("  " + (t.gettext("You take the trick.") if mine else
                        t.gettext("{name} takes the trick.", name=self.name(e["seat"]))))
        elif e["type"] == "layout_passed":
            auto = bool(e.get("automatic"))
            name = self.name(e["seat"])
            if mine:
                add("  " + (t.gettext("No card of yours fits the layout: you pass.") if auto
                            else t.gettext("You pass")))
            else:
                add("  " + (t.gettext("{name} has no card that fits the layout and passes.", name=name)
                            if auto else t.gettext("{name} passes", name=name)))
        elif e["type"] == "deal_started":
            self.contract = None
            add("")
            if self.game == "trix":
                deal, kingdom, owner = int(e.get("deal_index", 0)) + 1, int(e.get("kingdom", 0)) + 1, int(e["owner"])
                if owner == self.me:
                    add(t.gettext("Deal {deal} — kingdom {kingdom}, yours", deal=deal, kingdom=kingdom))
                else:
                    add(t.gettext("Deal {deal} — kingdom {kingdom} of {owner}", deal=deal, kingdom=kingdom,
                                  owner=self.name(owner)))
            elif int(e["dealer"]) == self.me:
                add(t.gettext("Deal {deal} — you deal", deal=int(e["deal_no"])))
            else:
                add(t.gettext("Deal {deal} — dealer {name}", deal=int(e["deal_no"]),
                              name=self.name(int(e["dealer"]))))
            exposed = e.get("exposed")
            if self.game == "tarneeb41" and exposed:
                add("  " + t.gettext("The dealer's exposed card: {card}; trump: {suit}",
                                     card=card_label(exposed, t), suit=suit_label(e["trump"], t)))
            elif self.game == "tarneeb41" and e.get("trump"):
                add("  " + t.gettext("Trump: {trump}", trump=suit_label(e["trump"], t)))
        elif e["type"] == "bid_made":
            bid = int(e["bid"])
            add("  " + (t.gettext("You bid {bid}", bid=bid) if mine else
                        t.gettext("{name} bids {bid}", name=self.name(e["seat"]), bid=bid)))
        elif e["type"] == "passed":
            add("  " + (t.gettext("You pass") if mine else t.gettext("{name} passes", name=self.name(e["seat"]))))
        elif e["type"] == "auction_won":
            bid = int(e["bid"])
            add("  " + (t.gettext("You win the auction with {bid}", bid=bid) if mine else
                        t.gettext("{name} wins the auction with {bid}", name=self.name(e["seat"]), bid=bid)))
        elif e["type"] == "trump_chosen":
            suit = suit_label(e["suit"], t)
            add("  " + (t.gettext("You name {suit} as trump", suit=suit) if mine else
                        t.gettext("{name} names {suit} as trump", name=self.name(e["seat"]), suit=suit)))
        elif e["type"] == "deal_thrown_in":
            add("  " + t.gettext("The deal is thrown in and dealt again."))
        elif e["type"] == "contract_chosen":
            self.contract = str(e["contract"])
            contract = contract_name(e["contract"], t)
            add("  " + (t.gettext("You choose {contract}", contract=contract) if mine else
                        t.gettext("{name} chooses {contract}", name=self.name(e["seat"]), contract=contract)))
        elif e["type"] == "doubles_revealed":
            doubles = e.get("doubles") or []
            if doubles:
                add("  " + t.gettext("Doubled: {cards}", cards=doubled_list(self.snap, doubles, t, self.me)))
            else:
                add("  " + t.gettext("Nobody doubled."))
        elif e["type"] == "card_doubled":
            card = card_label(e["card"], t)
            add("  " + (t.gettext("You double {card}", card=card) if mine else
                        t.gettext("{name} doubles {card}", name=self.name(e["seat"]), card=card)))
        elif e["type"] == "trick_taken":
            add("  " + t.gettext("Trick {n}: {cards} → {name}", n=int(e.get("trick_no", 0)),
                                 cards=trick_line(self.snap, e.get("cards") or [], t),
                                 name=self.name(e["seat"])))
        elif e["type"] == "player_out":
            place = int(e["place"])
            add("  " + (t.gettext("You are out in place {place}", place=place) if mine else
                        t.gettext("{name} is out in place {place}", name=self.name(e["seat"]), place=place)))
        elif e["type"] == "deal_scored":
            self._scored(e)
        elif e["type"] == "match_over":
            add("")
            add(winners_text(self.snap, list(e.get("winner") or []), self.game, t, me=self.me))
            add(t.gettext("Final scores:"))
            self.lines.extend("  " + x for x in score_lines(self.snap, e.get("scores") or {}, self.game, t, self.me))

    def _scored(self, e: DealScored) -> None:
        t = self.t
        deltas = e.get("deltas") or {}
        if self.game in TEAM_GAMES and deltas.get("teams"):
            changes = [t.gettext("{who} {change}", who=self.team(i), change=t.signed(int(d)))
                       for i, d in enumerate(deltas["teams"])]
        else:
            changes = [t.gettext("{who} {change}", who=self.name(i), change=t.signed(int(d)))
                       for i, d in enumerate(deltas.get("players") or [])]
        self.lines.append("  " + t.gettext("Deal scored: {changes}", changes=t.join(changes)))
        totals = score_lines(self.snap, e.get("scores") or {}, self.game, t, self.me)
        self.lines.append("  " + t.gettext("Totals: {totals}", totals=t.join(totals)))

    def team(self, team: int) -> str:
        """A team's name ("Us" / "Them" when the story is told to a seat)."""
        return team_name(team, self.t, self.me)


def tell(record: TableRecord, actions: Iterable[ActionRecord], t: T) -> str:
    """The story of ``record`` after replaying ``actions`` from its seed."""
    acts = list(actions)
    story = Story(record, t, show_hands=record.status not in LIVE_STATUSES)
    story.header(len(acts))
    if not acts and record.status not in (TableStatus.PLAYING, TableStatus.FINISHED):
        return "\n".join(story.lines)
    g = engine.new_game(record.game, seed=record.seed, dealer=record.dealer, options=engine_options(record.options))
    story.event(_first_deal(g))
    story.deal_hands(g)
    for a in acts:
        for e in events_of(g.act(a.seat, a.action)):
            story.event(e)
            if e["type"] == "deal_started":
                story.deal_hands(g)
    if g.winner is None and record.status in LIVE_STATUSES:
        story.lines.append("")
        story.lines.append(t.gettext("The match goes on."))
    return "\n".join(story.lines)


def _first_deal(g: engine.Game) -> DealStarted:
    """The ``deal_started`` event of the opening deal, which no action announced (from the view)."""
    v = public_view(g)
    dealer = v.get("dealer", 0)
    out: DealStarted = {"type": "deal_started", "deal_no": v.get("deal_no", 1), "dealer": dealer,
                        "first": (dealer + 1) % 4}
    if v.get("game") == "trix":
        out["kingdom"], out["deal_index"] = v.get("kingdom", 0), v.get("deal_index", 0)
        out["owner"] = out["first"] = v.get("owner", 0)
    if v.get("game") == "tarneeb41":
        out["exposed"] = v.get("exposed")
        trump = v.get("trump")
        if trump is not None:
            out["trump"] = trump
    return out


async def match_lang(repo: Repository, record: TableRecord) -> str | None:
    """The language the match was played in: the table's own (its chat's when it was opened), else its
    chat's setting now (a table older than its language). Not the chat's first: a chat's setting follows
    whoever opened the latest table there (``majlis play --lang``), not this match."""
    if record.lang:
        return record.lang
    chat = await repo.get_chat(record.chat_id)
    return chat.lang if chat is not None else None


async def replay_text(db: str | Path, table_id: int, t: T | None = None, *, digits: str | None = None) -> str | None:
    """The story of table ``table_id`` in the database ``db``; None if there is no such table.

    ``t``: the language to tell it in (None: the match's own language and digits)."""
    from bot.core.lang import resolve_lang
    from bot.present.i18n import translator
    from storage import open_repository

    repo = await open_repository(db, read_only=True)  # a story only reads: no lock, no journal
    try:
        record = await repo.get_table(table_id)
        if record is None:
            return None
        if t is None:
            chat = await repo.get_chat(record.chat_id)
            lang = resolve_lang(await match_lang(repo, record), None)
            t = translator(lang, digits or (chat.digits if chat is not None else "western"))
        return tell(record, await repo.actions(table_id), t)
    finally:
        await repo.close()


async def table_list(db: str | Path, t: T, limit: int = 50) -> list[str]:
    """One line per table in ``db`` (newest first): its id, game, status and players."""
    from storage import open_repository

    repo = await open_repository(db, read_only=True)  # a list only reads
    try:
        out = []
        for record in await repo.list_tables(limit):  # newest first
            snap = TableSnapshot(table=record)
            names = t.join([seat_name(snap, s, t) for s in range(4)])
            out.append(t.gettext("{table} · {game} · {status} · {names}", table=record.table_id,
                                 game=game_name(record.game, t), status=_status(record, t), names=names))
        return out
    finally:
        await repo.close()
