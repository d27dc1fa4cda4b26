"""The product's language in one file per language: ``python -m bot.present.samples`` writes
``locales/samples/ar.txt`` and ``locales/samples/en.txt`` (``--check`` writes nothing and exits 1 when
they differ from what it would write).

Part 1 renders the sentences about a seat through the presenter's own functions (the turn line, the
titles, the last trick, the results, the doubles, the notices, the replay), each said of the reader
("you", the player of ``majlis play`` and ``majlis web``), of a person and of an AI seat, so the file
shows what players see. Part 2 renders every message of the catalog: placeholders filled with
sample values, a seat's name as a person's and as an AI seat's, and what the code says instead when
the seat is the reader's (:data:`SAID_TO_THE_READER`); every plural message for the counts
:data:`COUNTS`. A message that names a seat is listed in exactly one of :data:`SAID_TO_THE_READER`,
:data:`READER_AS_A_NAME` and :data:`NEVER_THE_READER` (``tests/locales/test_samples.py`` holds it), so
a new sentence about a seat has to say what the reader reads.

The files leave out the invisible direction marks (isolates, RLM) so that they read plainly.
"""

from __future__ import annotations

import string
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
import locales
from bot.core.identity import TERMINAL_PLAYER
from bot.core.model import TableSnapshot
from bot.core.views import Phase, View
from bot.present.i18n import FSI, LRI, PDI, RLI, RLM, T, translator
from bot.present.render.cards import card_label, cards_line, contract_name, game_name, suit_label, trump_label
from bot.present.render.common import (
    doubled_list,
    score_lines,
    taken_by,
    trick_taken_text,
    winners_text,
)
from bot.present.render.hand import hand_text, render_turn_warning
from bot.present.render.summary import doubles_breakdown, notice_text
from bot.present.render.table import _header, game_lines, last_trick_line
from bot.present.render.turn import turn_line, turn_sentence
from bot.present.story import Story
from storage.records import Seat, TableRecord, TableStatus

LANGS = ("ar", "en")
OUT = Path(locales.__file__).resolve().parent / "samples"
COUNTS = (0, 1, 2, 3, 11, 100)
COMMAND = "python -m bot.present.samples"
#: The people at the sample table, in each language (seat 0 is the reader, seat 2 an AI).
PEOPLE = {"ar": ("علي", "سارة", "", "عمر"), "en": ("Ali", "Sara", "", "Omar")}
READER, PERSON, AI = 0, 1, 2
SUBJECTS = ((READER, "you"), (PERSON, "a person"), (AI, "an AI seat"))
_MARKS = str.maketrans(dict.fromkeys(map(ord, FSI + LRI + RLI + PDI + RLM)))

#: A sentence about a seat, and what the code says instead when that seat is the reader's.
SAID_TO_THE_READER: dict[str, str] = {
    "Contract: {name} bid {bid}, trump {trump}": "Contract: you bid {bid}, trump {trump}",
    "Contract: {name} bid {bid}; trump not chosen yet": "Contract: you bid {bid}; name the trump",
    "Deal {deal} — dealer {name}": "Deal {deal} — you deal",
    "Deal {deal} — kingdom {kingdom} of {owner}": "Deal {deal} — kingdom {kingdom}, yours",
    "Everyone passed, so the deal is thrown in. {name} deals again.":
        "Everyone passed, so the deal is thrown in. You deal again.",
    "High bid: {bid} by {name}": "High bid: {bid}, yours",
    "Last trick: {cards} (taken by {name})": "Last trick: {cards} (taken by you)",
    "Taken by {name}": "Taken by you",
    "The bids total only {total}, so the deal is thrown in. {name} deals again.":
        "The bids total only {total}, so the deal is thrown in. You deal again.",
    "Trick {n}: taken by {name}": "Trick {n}: taken by you",
    "Turn: {name} to bid": "Your turn to bid.",
    "Turn: {name} to choose the contract": "Your turn to choose the contract.",
    "Turn: {name} to name the trump suit": "Your turn to name the trump suit.",
    "Turn: {name} to play": "Your turn to play.",
    "{card} (doubled by {name}) came back to its doubler: the normal {penalty} only.":
        "{card} (your double) came back to you: the normal {penalty} only.",
    "{card} (doubled by {name}) was not taken.": "{card} (your double) was not taken.",
    "{card} (doubled by {name}) taken by {taker}: {taker_change} for {taker}, {doubler_change} for {name}.":
        "{card} (your double) taken by {taker}: {taker_change} for {taker}, {doubler_change} for you.",
    "{card} by {name}": "{card} by you",
    "{contract} in the kingdom of {name}:": "{contract} in your kingdom:",
    "{game} · table {table} · kingdom {kingdom} of 4 ({owner}) · deal {deal} of 20":
        "{game} · table {table} · kingdom {kingdom} of 4 (yours) · deal {deal} of 20",
    "{game} · table {table} · kingdom {kingdom} of 4 ({owner}) · deal {deal} of 8":
        "{game} · table {table} · kingdom {kingdom} of 4 (yours) · deal {deal} of 8",
    "{name} (AI)": "You (AI)",
    "{name} ({team}) bid {bid} with {trump} as trump.": "You bid {bid} with {trump} as trump.",
    "{name} bids {bid}": "You bid {bid}",
    "{name} chooses {contract}": "You choose {contract}",
    "{name} doubles {card}": "You double {card}",
    "{name} has no card that fits the layout and passes.": "No card of yours fits the layout: you pass.",
    "{name} holds {cards}": "You hold {cards}",
    "{name} is away; an AI player plays the seat until they return.":
        "You are away; an AI player plays your seat until you return.",
    "{name} is back at the table.": "You are back at the table.",
    "{name} is out in place {place}": "You are out in place {place}",
    "{name} names {suit} as trump": "You name {suit} as trump",
    "{name} passes": "You pass",
    "{name} plays {card}": "You play {card}",
    "{name} takes the trick.": "You take the trick.",
    "{name} wins the auction with {bid}": "You win the auction with {bid}",
    "{name} wins the match!": "You win the match!",
    "{team} ({name_a} & {name_b}) wins the match!": "We win the match ({name_a} & {name_b})!",
}
#: Labels and lists where the reader's seat name ("You") stands as any name does.
READER_AS_A_NAME = frozenset({
    "Seat {seat}: {name}", "The match ends in a draw: {names} share the top score.",
    "They win the match ({name_a} & {name_b}).",
    "Trick {n}: {cards} → {name}", "We win the match ({name_a} & {name_b})!", "{game} starts at table {table}: "
    "{names}. Play passes {order}.", "{name} ({detail}): {change} → {total}", "{name} {cards}", "{name} {card}",
    "{name}: bid {bid}, {took} → {change} (total {total})", "{name}: pass", "{name}: {bid}",
    "{name}: {change} → {total}", "{name}: {score}", "{seat}. {name}", "{table} · {game} · {status} · {names}",
    "{team} ({name_a} & {name_b}): {total}", "{team}: {total} ({name_a} {score_a}, {name_b} {score_b})",
    "{who} {change}",
    # a duplicate challenge's list and ranking name everyone, the reader as well; its reply calls them by name
    "Finished: {names}", "{rank}. {name} · {percent}% · {played} of {boards} deals",
    "{rank}. {name} · {points} against the field · {played} of {boards} deals",
    # a Trix pool's people, told to each of them: the reader among the others, by name
    "Your pool {match} is called: {names}.", "The table of your pool {match} is open: {names}.",
    "{name}, your deal is waiting in our private chat.",
    # a Trix tournament's one group message names everyone in its pools and standings, the reader as well
    "Champion: {name} 🏆", "{name}: {points} point, Trix score {score}",
    "{label} · {names}: all ready, they play when the table is free", "{label} · {names}: playing now",
    "{label} · {names}: sitting out, {points} points each (an average table)", "{label} · {names}: waiting",
    "{label} · {names}: {ready} of {need} ready",
    # a flagged Trix pool's four people, told to the organiser by number (the organiser may be one of them)
    "{number}. {name}: Trix score {score}, {points} point",
})
#: Sentences that take a name but are never said of the reader, and why.
NEVER_THE_READER: dict[str, str] = {
    "Waiting for {name}.": "a hand waits only for another seat",
    "{card} (doubled by {name}) came to you: {taker_change} for you, {doubler_change} for {name}.":
        "the doubler here is another seat (the reader's own double says 'came back to you')",
    "{card} (your double) taken by {taker}: {taker_change} for {taker}, {doubler_change} for you.":
        "the taker here is another seat (the reader taking it is 'came back to you')",
    "{name} (or an admin) starts the match with Begin.": "a chat's lobby, naming its creator to the group",
    "{name} left the table; an AI player takes the seat.": "told to the others; the terminal's player never leaves",
    "{name}, I cannot send you your cards privately. Open a private chat with me, then press My hand.":
        "said to a named person in a group chat",
    "{name}, {n} second left, then a move is played for you.": "said to a named person in a group chat",
    "{rank}. {name} · rating {rating} · {matches} · {wins}": "a chat's leaderboard",
    "Stats · {name}": "a person's record, asked for in a chat",
    "Stats · {name} · every chat": "a person's record, titled with their name as the card is",
    "Profile · {name}": "a profile card, titled with the person's name (another person's too)",
    "Profile · {name} · every chat": "a profile card, titled with the person's name",
    "Favourite partner: {name} · {record}": "the partner is another person",
    "Champion of season {number} · {game}: {name}": "a chat's standings message, the same for everyone",
    "– {name} · rating {rating} · {matches} · provisional": "a league's season table",
    "Season {number} · {game}: {name} · rating {rating} · {matches}": "a league's champions",
    "Champion · {game}: {name} · rating {rating}": "a season's summary, posted to the group",
    "Most matches: {name} · {matches}": "a season's summary, posted to the group",
    "Best partnership: {names} · {wins}": "a season's summary, posted to the group",
    "{name}: {change} → {rating}": "season ratings under a group's match result (the terminal's matches, with "
                                   "AI seats, never count in a season)",
    "{name}: {change} → {rating} (provisional)": "season ratings under a group's match result (as above)",
    "The option {name} is a whole number from {low} to {high}.": "{name} is an option, not a seat",
    "The option {name} is one of: {values}.": "{name} is an option, not a seat",
    "The option {name} is {n} whole number separated by commas.": "{name} is an option, not a seat",
    "{game} has no option {name}. Its options: {names}.": "{name} is an option, not a seat",
    "Organiser: {name}": "a tournament's message in its group, the same for everyone",
    "Partner {name}": "a button of a tournament's message: joining that person's pair",
    "dropped who did not check in: {names}": "a tournament's log, the same for everyone who asks",
    "{time} · {who}: {what}": "a tournament's log, the same for everyone who asks",
    "{a} v {b}: {winner} won; flagged by {name}, the organiser decides":
        "a tournament's message in its group, the same for everyone",
    "{a} v {b}: the AI pair won; flagged by {name}, the organiser decides":
        "a tournament's message in its group, the same for everyone",
    "🚩 {name} flagged match {match} of the tournament.": "told to the organiser of another person's flag",
    "🚩 {name} flagged pool {match} of the tournament.": "told to the organiser of another person's flag",
    "{label} · played: {results}; flagged by {name}, the organiser decides":
        "a tournament's message in its group, the same for everyone",
    "the champion: {name}": "a tournament's log, the same for everyone who asks",
    "flagged by {name}: the organiser decides": "a tournament's web page, the same for everyone",
    "{names}: your match {match} is called. Press Ready on the tournament's message.":
        "a public call of a match's people by name (they are the ones addressed)",
    "{names}: the table of your match {match} is open here.":
        "a public call of a match's people by name (they are the ones addressed)",
    "Round {n} · {names}": "the name of a Trix pool's thread or topic, the same for everyone",
}
#: The placeholders that hold a seat's name.
SEAT_FIELDS = frozenset({"name", "owner", "taker", "name_a", "name_b", "names", "who"})
_FORMATTER = string.Formatter()


def fields(text: str) -> set[str]:
    """The named placeholders of a message."""
    return {name for _, name, _, _ in _FORMATTER.parse(text) if name}


def plain(text: str) -> str:
    """``text`` without the invisible direction marks."""
    return text.translate(_MARKS)


def sample_record(lang: str, game: str, *, reader: bool = True, options: dict[str, Any] | None = None) -> TableRecord:
    """The sample table: seat 0 the reader (the terminal's player) or a person, 1 a person, 2 an AI, 3 a person."""
    names = PEOPLE[lang]
    seats = (Seat(player_id=TERMINAL_PLAYER, name="You") if reader else Seat(player_id="tg:0", name=names[0]),
             Seat(player_id="tg:1", name=names[1]), Seat(player_id="ai:normal:2", is_ai=True),
             Seat(player_id="tg:3", name=names[3]))
    return TableRecord(table_id=7, chat_id="tg:-100", game=game, options=options or {}, seed=1, dealer=3,
                       creator="tg:1", status=TableStatus.PLAYING, seats=seats, version=5)


def snap(lang: str, game: str, public: View | None = None, to_act: int | None = None, *,
         reader: bool = True) -> TableSnapshot:
    """A snapshot of the sample table."""
    return TableSnapshot(sample_record(lang, game, reader=reader), public, to_act)


# -- Part 1: through the presenter --------------------------------------------------------------

Section = tuple[str, list[str]]


def _who(seat: int) -> str:
    return dict(SUBJECTS).get(seat, "a person")


def _turns(t: T) -> list[str]:
    out = []
    for phase in (Phase.BID, Phase.TRUMP, Phase.CONTRACT, Phase.PLAY):
        for seat, who in SUBJECTS:
            out.append(f"[{phase}, {who}] " + turn_line(snap(t.lang, "tarneeb"), phase, seat, t))
    out.append("[doubling, at the terminal] " + turn_line(snap(t.lang, "trix"), Phase.DOUBLE, 1, t))
    out.append("[doubling, in a group] " + turn_line(snap(t.lang, "trix", reader=False), Phase.DOUBLE, 1, t))
    for phase in (Phase.BID, Phase.TRUMP, Phase.CONTRACT, Phase.DOUBLE, Phase.PLAY):
        out.append(f"[{phase}, the private ping] " + turn_sentence(phase, t, at=(7, game_name("trix", t))))
    return out


def _titles(t: T) -> list[str]:
    out = []
    for mode, deals in (({}, 20), ({"mode": "complex"}, 8)):
        for seat, who in SUBJECTS:
            pub: View = {"game": "trix", "kingdom": 1, "owner": seat, "deal_index": 6, "options": mode}
            out.append(f"[{deals} deals, the kingdom of {who}] " + _header(snap(t.lang, "trix"), pub, t))
    out.append("[Tarneeb 41, deal 25] " + _header(snap(t.lang, "tarneeb41"), {"deal_no": 25}, t))
    return out


def _tricks(t: T) -> list[str]:
    out = []
    plays = [{"seat": 3, "card": "QS"}, {"seat": 0, "card": "3S"}, {"seat": 1, "card": "AS"}, {"seat": 2, "card": "TS"}]
    for seat, who in SUBJECTS:
        last = {"seat": seat, "cards": plays}
        s = snap(t.lang, "tarneeb")
        out.append(f"[taken by {who}] " + last_trick_line(s, last, t))  # type: ignore[arg-type]
        out.append(f"[taken by {who}, the web page] " + taken_by(s, seat, t))
        out.append(f"[taken by {who}, the web replay] " + trick_taken_text(s, 4, seat, t))
    return out


def _auction(t: T) -> list[str]:
    out = []
    s = snap(t.lang, "tarneeb")
    bids = [{"seat": 0, "bid": 7}, {"seat": 1, "bid": None}, {"seat": 2, "bid": 8}]
    pub: Any = {"game": "tarneeb", "phase": Phase.BID, "bids": bids, "high_bid": {"seat": 2, "bid": 8}}
    out += ["[the auction so far] " + x for x in game_lines(s, pub, t, 0)]
    for seat, who in SUBJECTS:
        pub = {"game": "tarneeb", "phase": Phase.BID, "high_bid": {"seat": seat, "bid": 9}}
        out += [f"[high bid by {who}] " + x for x in game_lines(s, pub, t, 0)]
        for trump in ("H", None):
            pub = {"game": "tarneeb", "phase": Phase.PLAY, "declarer": seat, "contract": 9}
            if trump:
                pub["trump"] = trump
            out += [f"[contract of {who}, trump {'named' if trump else 'not named'}] " + x
                    for x in game_lines(s, pub, t, 0)]
    s41 = snap(t.lang, "tarneeb41")
    pub = {"game": "tarneeb41", "phase": Phase.BID, "seat": 2, "bids": [3, 2, None, None], "min_total": 11}
    out += ["[Tarneeb 41 bids] " + x for x in game_lines(s41, pub, t, 0)]
    return out


def _doubles(t: T) -> list[str]:
    out = []
    s = snap(t.lang, "trix")
    listed = [{"card": "KH", "seat": 0}, {"card": "QS", "seat": 1}, {"card": "QD", "seat": 2}]
    out.append("[the doubled cards] " + t.gettext("Doubled: {cards}", cards=doubled_list(s, listed, t)))  # type: ignore[arg-type]
    for doubler, d_who in SUBJECTS:
        for taker, t_who in (*SUBJECTS, (3, "a person"), (None, "nobody")):
            taken = {} if taker is None else {str(taker): ["KH"]}
            ev = {"type": "deal_scored", "summary": {"contract": "king", "taken": taken}}
            lines = doubles_breakdown(s, [{"card": "KH", "seat": doubler}], ev, t)  # type: ignore[arg-type]
            out += [f"[doubled by {d_who}, taken by {t_who}] " + x for x in lines]
    return out


def _results(t: T) -> list[str]:
    out = []
    for seat, who in SUBJECTS:
        ev = {"type": "deal_scored", "deltas": {"teams": [9, 0]}, "scores": {"teams": [21, 14]},
              "summary": {"declarer": seat, "bid": 9, "tricks": [9, 4] if seat % 2 == 0 else [4, 9], "trump": "H"}}
        out += [f"[Tarneeb, {who} bid] " + x for x in notice_text(snap(t.lang, "tarneeb"), ev, t).split("\n")]  # type: ignore[arg-type]
    for took in (0, 1, 2, 3, 11):
        ev = {"type": "deal_scored", "deltas": {"teams": [0, 8]}, "scores": {"teams": [0, 8]},
              "summary": {"declarer": 1, "bid": 12, "tricks": [13 - took, took], "trump": "S"}}
        group = notice_text(snap(t.lang, "tarneeb", reader=False), ev, t).split("\n")  # type: ignore[arg-type]
        mine = notice_text(snap(t.lang, "tarneeb"), ev, t).split("\n")  # type: ignore[arg-type]
        out += [f"[Tarneeb, the other team took {took}, in a group] " + group[2],
                f"[Tarneeb, they took {took}, at the terminal] " + mine[2]]
    for took in (0, 1, 2, 3, 5):
        ev = {"type": "deal_scored", "deltas": {"players": [5 if took >= 5 else -5, 3, -2, 4], "teams": [3, 7]},
              "scores": {"players": [12, 3, -2, 4], "teams": [10, 7]},
              "summary": {"bids": [5, 3, 2, 4], "tricks": [took, 3, 1, 13 - took - 4]}}
        out += [f"[Tarneeb 41, you took {took} of 5] " + x
                for x in notice_text(snap(t.lang, "tarneeb41"), ev, t).split("\n")]  # type: ignore[arg-type]
    for seat, who in SUBJECTS:
        ev = {"type": "deal_scored", "deltas": {"players": [-75, 0, 0, 0]}, "scores": {"players": [-75, 0, 0, 0]},
              "summary": {"contract": "complex", "owner": seat, "tricks": [4, 3, 3, 3], "places": [],
                          "taken": {"0": ["KH", "QS", "QD", "2D"], "1": ["3D"], "2": [], "3": ["QC"]}}}
        out += [f"[Trix complex, the kingdom of {who}] " + x
                for x in notice_text(snap(t.lang, "trix"), ev, t).split("\n")]  # type: ignore[arg-type]
    return out


def _notices(t: T) -> list[str]:
    out = []
    s = snap(t.lang, "tarneeb41")
    for seat, who in SUBJECTS:
        for ev in ({"type": "deal_thrown_in", "reason": "low_total", "total": 9, "next_dealer": seat},
                   {"type": "deal_thrown_in", "reason": "all_passed", "next_dealer": seat},
                   {"type": "seat_to_ai", "seat": seat, "reason": "away"},
                   {"type": "seat_to_ai", "seat": seat, "reason": "left"},
                   {"type": "seat_reclaimed", "seat": seat}):
            if seat == READER and ev.get("reason") == "left":
                continue  # the terminal's player never leaves (NEVER_THE_READER)
            out.append(f"[{ev['type']}, {who}] " + notice_text(s, ev, t))  # type: ignore[arg-type]
    ends: tuple[Any, ...] = ({"type": "table_started"}, {"type": "table_cancelled", "reason": "lobby_timeout"},
                             {"type": "table_cancelled"}, {"type": "table_parked"},
                             {"type": "doubles_revealed", "doubles": []})
    for end in ends:
        out.append(f"[{end['type']}] " + notice_text(s, end, t))
    out.append("[a hand, waiting for a person] " + hand_text(snap(t.lang, "trix", None, 1),
                                                             {"seat": 0, "hand": ["2H"], "phase": Phase.PLAY}, t)
               .split("\n")[-1])
    out.append("[a hand, waiting for an AI] " + hand_text(snap(t.lang, "trix", None, 2),
                                                          {"seat": 0, "hand": ["2H"], "phase": Phase.PLAY}, t)
               .split("\n")[-1])
    for n in COUNTS:
        out.append(f"[the timer warning in a group, {n} s] " + render_turn_warning(
            snap(t.lang, "trix", reader=False), 1, n, t).text)
    return out


def _endings(t: T) -> list[str]:
    out = []
    for seat, who in SUBJECTS:
        out.append(f"[Trix, {who} won] " + winners_text(snap(t.lang, "trix"), [seat], "trix", t))
    out.append("[Trix, a draw] " + winners_text(snap(t.lang, "trix"), [0, 1], "trix", t))
    out.append("[Tarneeb, your team won] " + winners_text(snap(t.lang, "tarneeb"), [0, 2], "tarneeb", t))
    out.append("[Tarneeb, the other team won] " + winners_text(snap(t.lang, "tarneeb"), [1, 3], "tarneeb", t))
    group = snap(t.lang, "tarneeb", reader=False)
    out.append("[Tarneeb, in a group] " + winners_text(group, [1, 3], "tarneeb", t))
    scores: Any = {"teams": [31, 12], "players": [20, 5, 11, 7]}
    out += ["[Tarneeb 41 scores, at the terminal] " + x for x in score_lines(snap(t.lang, "tarneeb41"), scores,
                                                                             "tarneeb41", t, 0)]
    out += ["[Tarneeb 41 scores, in a group] " + x for x in score_lines(group, scores, "tarneeb41", t)]
    trix: Any = {"players": [150, -75, 0, 25]}
    out += ["[Trix scores] " + x for x in score_lines(snap(t.lang, "trix"), trix, "trix", t)]
    return out


def _story(t: T) -> list[str]:
    out = []
    rec = sample_record(t.lang, "tarneeb")
    g = engine.new_game("tarneeb41", seed=1, dealer=3)
    hands = Story(sample_record(t.lang, "tarneeb41"), t, show_hands=True)
    hands.deal_hands(g)
    out += ["[the replay's hands] " + x.strip() for x in hands.lines]
    events: list[Callable[[int], Any]] = [
        lambda s: {"type": "deal_started", "deal_no": 3, "dealer": s, "first": 0},
        lambda s: {"type": "bid_made", "seat": s, "bid": 8},
        lambda s: {"type": "passed", "seat": s},
        lambda s: {"type": "auction_won", "seat": s, "bid": 8},
        lambda s: {"type": "trump_chosen", "seat": s, "suit": "H"},
        lambda s: {"type": "card_played", "seat": s, "card": "QS"},
        lambda s: {"type": "trick_taken", "seat": s, "cards": [], "trick_no": 4},
    ]
    for make in events:
        for seat, who in SUBJECTS:
            ev = make(seat)
            story = Story(rec, t, show_hands=False, live=True)
            story.event(ev)
            out += [f"[{ev['type']}, {who}] " + x.strip() for x in story.lines if x.strip()]
    plays = [{"seat": 1, "card": "QS"}, {"seat": 2, "card": "3S"}, {"seat": 3, "card": "AS"}, {"seat": 0, "card": "TS"}]
    for seat, who in SUBJECTS:
        story = Story(rec, t, show_hands=False)
        story.event({"type": "trick_taken", "seat": seat, "cards": plays, "trick_no": 4})  # type: ignore[typeddict-item]
        out += [f"[a trick in the replay, taken by {who}] " + x.strip() for x in story.lines]
    trix = sample_record(t.lang, "trix")
    trix_events: list[Callable[[int], Any]] = [
        lambda s: {"type": "deal_started", "deal_no": 7, "dealer": 0, "first": s, "kingdom": 1,
                   "deal_index": 6, "owner": s},
        lambda s: {"type": "contract_chosen", "seat": s, "contract": "queens"},
        lambda s: {"type": "card_doubled", "seat": s, "card": "QS"},
        lambda s: {"type": "layout_passed", "seat": s, "automatic": True},
        lambda s: {"type": "layout_passed", "seat": s, "automatic": False},
        lambda s: {"type": "player_out", "seat": s, "place": 2},
    ]
    for make in trix_events:
        for seat, who in SUBJECTS:
            ev = make(seat)
            story = Story(trix, t, show_hands=False, live=True)
            story.event(ev)
            out += [f"[{ev['type']}, {who}] " + x.strip() for x in story.lines if x.strip()]
    story = Story(trix, t, show_hands=False, live=True)
    story.event({"type": "doubles_revealed", "doubles": [{"card": "KH", "seat": 0}, {"card": "QS", "seat": 2}]})
    out += ["[doubles_revealed] " + x.strip() for x in story.lines]
    story = Story(rec, t, show_hands=False)
    story.event({"type": "deal_thrown_in", "reason": "all_passed", "next_dealer": 1})
    story.event({"type": "deal_scored", "deltas": {"teams": [9, 0]}, "scores": {"teams": [21, 14]},
                 "summary": {"declarer": 0, "bid": 9, "tricks": [9, 4], "trump": "H"}})
    story.event({"type": "match_over", "winner": [0, 2], "scores": {"teams": [31, 14]}})
    out += ["[the replay's deal end and match end] " + x.strip() for x in story.lines if x.strip()]
    return out


def scenes(t: T) -> list[Section]:
    """Part 1's sections, each rendered through the presenter."""
    return [
        ("Whose turn: the table's line (terminal, web page, chat) and the private ping", _turns(t)),
        ("Titles: the Trix kingdom and its owner; the deal number", _titles(t)),
        ("The last trick", _tricks(t)),
        ("The auction and the contract (Tarneeb, Tarneeb 41)", _auction(t)),
        ("Doubles in Trix: the list, and what each double did", _doubles(t)),
        ("Deal results", _results(t)),
        ("Notices", _notices(t)),
        ("The end of a match, and the scores", _endings(t)),
        ("The play-by-play log and the replay (majlis replay)", _story(t)),
    ]


# -- Part 2: every message of the catalog -------------------------------------------------------

def _values(t: T, n: int = 3) -> dict[str, Any]:
    """Sample values for every placeholder of the catalog (the seat names are set per line)."""
    game = game_name("tarneeb41", t)
    return {
        "n": n, "table": 7, "game": game, "bid": 5, "path": "/srv/majlis/majlis.db", "command": "majlis play --resume",
        "other": card_label("9S", t), "better": card_label("9S", t), "amount": "0.4", "percent": 83, "trick": 5,
        "hint": "t", "review": "v",
        "action": card_label("QS", t),
        "card": card_label("QS", t), "cards": cards_line(["QS", "TH", "3C"], t), "deal": 4, "total": 9, "seat": 2,
        "trump": trump_label("H", t), "team": t.gettext("Team A"), "detail": "disk I/O error",
        "db": "majlis.db", "reason": "timed out", "kingdom": 2, "contract": contract_name("queens", t),
        "suit": suit_label("S", t), "change": t.signed(-5), "variable": "MAJLIS_TELEGRAM_TOKEN", "place": 2,
        "example": "q", "taker_change": t.signed(-50), "rows": t.ngettext("{n} row", "{n} rows", 120),
        "order": t.join([t.number(i) for i in range(4)], sep=" ← " if t.rtl else " → "), "minimum": 11,
        "low": 2, "key": "p", "high": 13, "doubler_change": t.signed(25),
        "wins": t.ngettext("{n} win", "{n} wins", 4), "where": "/etc/majlis.toml", "tricks": t.ngettext(
            "{n} trick", "{n} tricks", 7), "target": 41, "tables": t.ngettext("{n} table", "{n} tables", 3),
        "status": t.pgettext("table status", "finished"), "scores": "s", "rules": "r", "rating": 1512, "rank": 1,
        "quit": "q", "penalty": t.signed(-75), "options": "target=31", "matches": t.ngettext(
            "{n} match", "{n} matches", 12), "keys": "a–m", "help": "h", "folder": "/srv/majlis", "entry": "xyz",
        "choice": card_label("QS", t), "bids": t.join([t.gettext("{name}: {bid}", name=PEOPLE[t.lang][1], bid=5)]),
        "word": "pass", "version": 7, "variables": "MAJLIS_TELEGRAM_TOKEN", "values": "easy, normal, strong",
        "totals": "…", "total_a": 21, "total_b": 14, "took": t.ngettext("took {n} trick", "took {n} tricks", 3),
        "ten": "10h", "telegram": "MAJLIS_TELEGRAM_TOKEN", "team_a": t.gettext("Us"), "team_b": t.gettext("Them"),
        "record": t.gettext("{matches} · {wins}", matches=t.ngettext("{n} match", "{n} matches", 12),
                            wins=t.ngettext("{n} win", "{n} wins", 4)),
        "chart": "▁▂▄▃▅▇", "now": t.ngettext("{n} win in a row", "{n} wins in a row", 3),
        "best": t.ngettext("{n} win in a row", "{n} wins in a row", 5),
        "seed": "1234", "seconds": 60, "score": 25, "score_a": 20, "score_b": 11, "problem": "No module named endplay",
        "points": 240, "maximum": 13, "list": "…", "level": "normal", "left": t.ngettext("left {n} time",
                                                                                         "left {n} times", 1),
        "last": "l", "language": t.pgettext("language", "Arabic"), "games": "tarneeb41, tarneeb, trix", "full": "13!",
        "form": "key=value", "discord": "MAJLIS_DISCORD_TOKEN", "digits": "western", "contracts": t.join(
            [contract_name("king", t), contract_name("trix", t)]), "changes": "…", "actions": t.ngettext(
            "{n} action", "{n} actions", 52),
        "number": 3, "count": 14, "length": t.gettext("a calendar month"), "history": "/season history",
        "mention": PEOPLE[t.lang][1], "share": 50, "usage": "/notify turn 50%",
        "boards": 8, "played": 5, "play": "/challenge play",
        "which": t.gettext("Deal {number}:", number=3),
        "mine": t.ngettext("you bid {bid} and made {n} trick, {score} points",
                           "you bid {bid} and made {n} tricks, {score} points", 5, bid=4, score=t.signed(4)),
        "field": t.ngettext("the field ({n} player) made {tricks} tricks on average, {score} points",
                            "the field ({n} players) made {tricks} tricks on average, {score} points", 5,
                            tricks="3.4", score="−1.2"),
        "kind": t.gettext("drawn pairs"), "pair": t.join([PEOPLE[t.lang][1], PEOPLE[t.lang][2]], " & "),
        "a": t.join([PEOPLE[t.lang][1], PEOPLE[t.lang][2]], " & "), "b": t.gettext("🤖 AI pair"),
        "winner": t.join([PEOPLE[t.lang][1], PEOPLE[t.lang][2]], " & "), "ready": 3, "need": 4,
        "match": t.isolate(f"{t.number(1)}-{t.number(2)}"), "time": "21:40", "what": "…",
        "out": t.join([PEOPLE[t.lang][1], PEOPLE[t.lang][2]], " & "), "url": "https://majlis.example/replay/7#k=…",
        "round": t.gettext("Round {n} of {total}", n=1, total=3),
        "buchholz": 5, "most": 15, "units": "2.1", "show": "/challenge",
        "label": t.isolate(f"{t.number(2)}-{t.number(1)}"),
        "results": t.join([f"{PEOPLE[t.lang][1]} {t.number(3)}½ ({t.number(120)})",
                           f"{PEOPLE[t.lang][2]} {t.number(1)} ({t.number(-40)})"]),
    }


def _seat_names(t: T, subject: int) -> dict[str, str]:
    s = snap(t.lang, "tarneeb41")
    from bot.present.render.common import seat_name

    name = seat_name(s, subject, t)
    other = seat_name(s, 3, t)
    return {"name": name, "owner": name, "taker": name, "name_a": name, "name_b": other,
            "names": t.join([name, other]), "who": name}


def _render(t: T, msgid: str, plural: str | None, context: str | None, n: int, subject: int) -> str:
    values = {**_values(t, n), **_seat_names(t, subject)}
    if "not a seat" in NEVER_THE_READER.get(msgid, ""):
        values.update(name="target", names="target, bid_display")
    if plural is not None:
        text = t.ngettext(msgid, plural, n, **{k: v for k, v in values.items() if k in fields(msgid + plural) - {"n"}})
    elif context is not None:
        text = t.pgettext(context, msgid, **{k: v for k, v in values.items() if k in fields(msgid)})
    else:
        text = t.gettext(msgid, **{k: v for k, v in values.items() if k in fields(msgid)})
    return plain(text)


def catalog_messages() -> list[tuple[str, str | None, str | None]]:
    """Every message of the catalog: (msgid, plural id or None, context or None), in the catalog's order."""
    from babel.messages.pofile import read_po

    with (Path(locales.__file__).resolve().parent / "messages.pot").open("rb") as f:
        cat = read_po(f)
    out: list[tuple[str, str | None, str | None]] = []
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, tuple | list):
            out.append((str(m.id[0]), str(m.id[1]), m.context))
        else:
            out.append((str(m.id), None, m.context))
    return out


def catalog(t: T) -> list[str]:
    """Part 2: every message, each kind of seat where it names one, every count where it counts."""
    out: list[str] = []
    for msgid, plural, context in catalog_messages():
        head = f"* {msgid}" + (f"  |  {plural}" if plural else "") + (f"  (context: {context})" if context else "")
        out.append(head)
        names_a_seat = bool(fields(msgid + (plural or "")) & SEAT_FIELDS)
        seated = names_a_seat and "not a seat" not in NEVER_THE_READER.get(msgid, "")
        counts = COUNTS if plural else (3,)
        for n in counts:
            tag = f"n={n}" if plural else ""
            if not seated:
                out.append(f"    {tag + ': ' if tag else ''}{_render(t, msgid, plural, context, n, PERSON)}")
                continue
            for seat, who in ((PERSON, "a person"), (AI, "an AI seat")):
                label = f"{tag}, {who}" if tag else who
                out.append(f"    [{label}] {_render(t, msgid, plural, context, n, seat)}")
            label = f"{tag}, you" if tag else "you"
            if msgid in SAID_TO_THE_READER:
                twin = SAID_TO_THE_READER[msgid]
                out.append(f"    [{label}] {_render(t, twin, None, None, n, PERSON)}")
            elif msgid in READER_AS_A_NAME:
                out.append(f"    [{label}] {_render(t, msgid, plural, context, n, READER)}")
            else:
                out.append(f"    [{label}] never said of the reader: {NEVER_THE_READER[msgid]}")
    return out


def sample_text(lang: str) -> str:
    """The whole sample file of ``lang``."""
    t = translator(lang)
    title = {"ar": "Arabic", "en": "English"}[lang]
    lines = [
        f"Majlis in {title}: every message as players read it.",
        f"Made by `{COMMAND}`; do not edit: tests/locales/test_samples.py compares this file with a fresh run.",
        "Seats: 0 is the reader (\"you\": the player of majlis play and majlis web), 1 a person, 2 an AI seat, "
        "3 a person. Direction marks are left out.",
        "",
        "=" * 100,
        "Part 1. Through the presenter: the sentences about a seat as each surface prints them",
        "=" * 100,
    ]
    for heading, body in scenes(t):
        lines += ["", f"--- {heading} ---", *(plain(x) for x in body)]
    lines += ["", "=" * 100, "Part 2. Every message of the catalog (messages.pot order)", "=" * 100, ""]
    lines += catalog(t)
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the sample files (``--check``: only say which differ)."""
    check = "--check" in argv
    stale = []
    for lang in LANGS:
        path = OUT / f"{lang}.txt"
        text = sample_text(lang)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
    for path in stale:
        print(("out of date: " if check else "updated: ") + str(path))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
