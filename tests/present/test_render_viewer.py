"""Words that fit the reader (issue 15): second person for the viewer, third person for the others and
the group table, Arabic that forces no gender on a name, Arabic numbers that agree, "Us / Them",
refusals that name the rule, rules text true to docs/rules.md."""

from __future__ import annotations

import dataclasses

import pytest
from test_render_basic import T41_PUBLIC
from test_render_helpers import snapshot

from bot.present.i18n import translator
from bot.present.render.errors import GENERIC, known_reasons, render_error
from bot.present.render.hand import bid_progress, hand_text
from bot.present.render.rules_text import render_rules
from bot.present.render.summary import doubles_breakdown, notice_text
from bot.present.render.table import table_lines, table_text
from bot.present.story import Story
from storage.records import Seat

AR = translator("ar")
EN = translator("en")


def plain(text: str) -> str:
    return text.translate(dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069\u200f")))


def terminal_snapshot(game: str, public: dict, to_act: int | None = None):
    """A table whose seat 0 is the terminal's player, stored with the Arabic name "أنت"."""
    snap = snapshot(game, public, to_act)
    seats = (Seat(player_id="cli:you", name="أنت"), *snap.table.seats[1:])
    return dataclasses.replace(snap, table=dataclasses.replace(snap.table, seats=seats))


def test_the_terminal_player_is_you_in_the_language_of_the_screen_whatever_was_stored() -> None:
    snap = terminal_snapshot("tarneeb41", dict(T41_PUBLIC, phase="bid"), to_act=0)
    text = plain(table_text(snap, EN, me=0))
    assert "0. You" in text and "أنت" not in text
    assert "Your turn to bid." in text and "You to bid" not in text


def test_teams_are_us_and_them_for_the_viewer_and_a_b_for_the_group() -> None:
    snap = terminal_snapshot("tarneeb41", T41_PUBLIC, to_act=2)
    mine = plain("\n".join(table_lines(snap, EN, 1)))
    assert "Us: 0 (Sara 0, Huda 0)" in mine and "Them: 0" in mine
    assert mine.index("Us:") < mine.index("Them:")  # the reader's team first
    group = plain(table_text(snapshot("tarneeb41", T41_PUBLIC, to_act=2), EN))
    assert "Team A" in group and "Us" not in group
    ar = plain("\n".join(table_lines(snap, AR, 1)))
    assert "لنا" in ar and "لهم" in ar


def test_notices_about_the_viewer_are_in_the_second_person() -> None:
    snap = terminal_snapshot("tarneeb41", T41_PUBLIC)
    thrown = {"type": "deal_thrown_in", "reason": "low_total", "total": 9, "next_dealer": 0}
    assert plain(notice_text(snap, thrown, EN, 0)).endswith("You deal again.")
    assert "Ali deals again." in plain(notice_text(snapshot("tarneeb41", T41_PUBLIC), thrown, EN))
    assert plain(notice_text(snap, {"type": "seat_reclaimed", "seat": 0}, EN, 0)) == "You are back at the table."
    assert "You is" not in plain(notice_text(snap, {"type": "seat_reclaimed", "seat": 0}, EN))


@pytest.mark.parametrize(("event", "banned"), [
    ({"type": "passed", "seat": 1}, "يقول"),
    ({"type": "card_played", "seat": 1, "card": "QS"}, "يلعب"),
    ({"type": "trick_taken", "seat": 1, "cards": [], "trick_no": 1}, "يأخذ"),
    ({"type": "bid_made", "seat": 1, "bid": 5}, "يطلب"),
    ({"type": "contract_chosen", "seat": 1, "contract": "king"}, "يختار"),
])
def test_arabic_sentences_about_a_name_use_no_gendered_verb(event: dict, banned: str) -> None:
    story = Story(snapshot("trix", None).table, AR, show_hands=False, live=True, me=0)
    story.event(event)
    assert story.lines and banned not in story.lines[0]


def test_arabic_turn_lines_and_you_lines() -> None:
    snap = snapshot("tarneeb41", dict(T41_PUBLIC, phase="play"), to_act=1)
    text = plain(table_text(snap, AR))
    assert "دور Sara في اللعب" in text and "يلعب" not in text and "لـ" not in text
    story = Story(snap.table, AR, show_hands=False, live=True, me=0)
    story.event({"type": "passed", "seat": 0})
    assert plain(story.lines[0]).strip() == "تمرّر"
    assert "تعهّد" not in plain(table_text(snap, AR))  # one word for a 41 bid: طلب


@pytest.mark.parametrize(("took", "expected"), [
    (0, "ولم تأخذ أي لمة"), (1, "لمة واحدة"), (2, "لمتين"), (3, "3 لمات"), (10, "10 لمات"), (11, "11 لمة"),
])
def test_arabic_numbers_agree_zero_dual_few_many(took: int, expected: str) -> None:
    text = plain(bid_progress(5, took, AR))
    assert expected in text, text
    assert "0 لمة" not in text and "لمتان" not in text


def test_a_41_deal_result_tells_the_viewer_whether_the_bid_was_made() -> None:
    snap = terminal_snapshot("tarneeb41", T41_PUBLIC)
    ev = {"type": "deal_scored", "deltas": {"players": [-4, 3, 2, 5], "teams": [-2, 8]},
          "scores": {"players": [-4, 3, 2, 5], "teams": [-2, 8]},
          "summary": {"bids": [4, 3, 2, 5], "tricks": [2, 3, 3, 5]}}
    en = plain(notice_text(snap, ev, EN, 0))
    assert "You missed your bid of 4: you took only 2 tricks." in en
    assert "Us: −2 · Them: 8" in en
    assert "لم تحقّق طلبك 4: أخذت لمتين فقط." in plain(notice_text(snap, ev, AR, 0))


def test_doubles_are_broken_down_in_a_trix_result() -> None:
    snap = terminal_snapshot("trix", {"game": "trix"})
    ev = {"summary": {"contract": "king", "taken": {"0": ["KH"]}}}
    lines = doubles_breakdown(snap, [{"card": "KH", "seat": 2}], ev, EN, me=0)
    assert plain(lines[0]) == "King of Hearts (doubled by Omar) came to you: −150 for you, +75 for Omar."
    lines = doubles_breakdown(snap, [{"card": "QS", "seat": 0}], {"summary": {"taken": {1: ["QS"]}}}, EN, me=0)
    assert plain(lines[0]) == "Queen of Spades (your double) taken by Sara: −50 for Sara, +25 for you."


def test_the_groups_trix_result_says_what_each_double_did() -> None:
    snap = snapshot("trix", {"game": "trix"})
    ev = {"type": "deal_scored", "deltas": {"players": [0, 75, 0, -150]}, "scores": {"players": [0, 75, 0, -150]},
          "summary": {"contract": "king", "owner": 2, "tricks": [3, 3, 3, 4], "places": [],
                      "taken": {"0": [], "1": [], "2": [], "3": ["KH"]}, "doubles": [{"card": "KH", "seat": 1}]}}
    en = plain(notice_text(snap, ev, EN))
    name1, name3 = snap.table.seats[1].name, snap.table.seats[3].name
    assert f"King of Hearts (doubled by {name1}) taken by {name3}: −150 for {name3}, +75 for {name1}." in en
    assert "♥" not in en  # a finished deal's cards in words: a symbol would read like a card of the new hands
    assert "شايب كبة" in plain(notice_text(snap, ev, AR))
    no_doubles = dict(ev, summary=dict(ev["summary"], doubles=[]))
    assert "doubled by" not in plain(notice_text(snap, no_doubles, EN))


@pytest.mark.parametrize("reason", ["must_follow_suit", "no_heart_lead", "must_play_king", "not_legal_in_layout",
                                    "must_play_when_able", "bid_too_low", "must_lead_trump", "not_in_hand"])
@pytest.mark.parametrize("t", [EN, AR], ids=["en", "ar"])
def test_every_refusal_names_its_rule_in_both_languages(reason: str, t) -> None:
    assert reason in known_reasons()
    text = render_error("illegal", {"reason": reason, "led": "D", "card": "QH", "minimum": 8}, t)
    assert text != t.gettext(GENERIC) and text.strip()


def test_the_hand_marks_the_playable_cards() -> None:
    snap = snapshot("tarneeb41", T41_PUBLIC, to_act=3)
    view = dict(T41_PUBLIC, seat=3, to_act=3, hand=["AS", "KS", "2H", "TD"], legal=["play AS", "play KS"])
    assert "Playable now: A♠ K♠" in plain(hand_text(snap, view, EN))


def test_rules_text_is_true_to_the_rule_book() -> None:
    trix = plain(render_rules("trix", EN))
    assert "unless a trump is played" not in trix and "There is no trump" in trix
    assert "King of Hearts" in trix and "hearts may be led" in trix
    t41 = plain(render_rules("tarneeb41", EN))
    assert "right of the dealer" in t41 and "leads the first trick" in t41 and "more than 0" in t41
    fixed = plain(render_rules("tarneeb41", EN, options={"trump_mode": "hearts_fixed"}))
    assert "hearts are always trump" in fixed
    kh = plain(render_rules("trix", AR, options={"no_heart_lead_in_king": True}))
    assert "لا يجوز فتح الكبة" in kh
    assert "طرنيب في تركس" in plain(render_rules("trix", AR))  # «لا طرنيب في تركس»


# -- issue 29, item 2: the reader is "you" on every surface, and «ل» never glued to a name --------

def reader_snapshot(game: str, public: dict, to_act: int | None = None):
    """The terminal's (and majlis web's) table: seat 0 is the reader, stored as "You"."""
    snap = snapshot(game, public, to_act)
    seats = (Seat(player_id="cli:you", name="You"), *snap.table.seats[1:])
    return dataclasses.replace(snap, table=dataclasses.replace(snap.table, seats=seats))


def test_the_readers_turn_reads_dorak_in_arabic_even_without_a_seat_given() -> None:
    from bot.present.render.turn import turn_line

    snap = reader_snapshot("tarneeb41", dict(T41_PUBLIC, phase="play"), to_act=0)
    assert plain(turn_line(snap, "play", 0, AR)) == "دورك في اللعب."  # the web page passes no seat
    assert plain(turn_line(snap, "play", 0, EN)) == "Your turn to play."
    assert plain(turn_line(snap, "play", 1, AR)) == "دور Sara في اللعب"


def test_the_readers_kingdom_reads_mamlakatak_in_the_title_the_result_and_the_replay() -> None:
    from bot.present.render.table import _header

    snap = reader_snapshot("trix", {"game": "trix", "owner": 0, "kingdom": 1, "deal_index": 5})
    assert "(مملكتك)" in plain(_header(snap, snap.public, AR)) and "أنت" not in plain(_header(snap, snap.public, AR))
    ev = {"type": "deal_scored", "deltas": {"players": [0] * 4}, "scores": {"players": [0] * 4},
          "summary": {"contract": "queens", "owner": 0, "taken": {}}}
    assert "البنات في مملكتك:" in plain(notice_text(snap, ev, AR))
    story = Story(snap.table, AR, show_hands=False)
    story.event({"type": "deal_started", "deal_no": 6, "dealer": 3, "first": 0, "kingdom": 1, "deal_index": 5,
                 "owner": 0})
    assert plain(story.lines[-1]) == "التوزيعة 6 — المملكة 2، مملكتك"


def test_the_readers_win_reads_fozt_and_a_names_win_needs_no_la() -> None:
    from bot.present.render.common import winners_text

    snap = reader_snapshot("trix", {"game": "trix"})
    assert plain(winners_text(snap, [0], "trix", AR)) == "فزت بالمباراة!"
    assert plain(winners_text(snap, [0], "trix", EN)) == "You win the match!"
    ai = dataclasses.replace(snap.table, seats=(*snap.table.seats[:2], Seat(player_id="ai:normal:2", is_ai=True),
                                                 snap.table.seats[3]))
    text = plain(winners_text(dataclasses.replace(snap, table=ai), [2], "trix", AR))
    assert text == "الفوز بالمباراة من نصيب لاعب آلي 2!" and "لـ" not in text


def test_the_last_trick_taken_by_the_reader_is_min_nasibak() -> None:
    from bot.present.render.table import last_trick_line

    snap = reader_snapshot("tarneeb", {})
    last = {"seat": 0, "cards": [{"seat": 1, "card": "QS"}, {"seat": 0, "card": "AS"}]}
    assert plain(last_trick_line(snap, last, AR)).endswith("(من نصيبك)")
    assert plain(last_trick_line(snap, last, EN)).endswith("(taken by you)")
    assert plain(last_trick_line(snap, dict(last, seat=1), AR)).endswith("(من نصيب Sara)")


def test_the_doubled_card_lines_say_your_double_and_glue_no_la_to_the_doubler() -> None:
    snap = reader_snapshot("trix", {"game": "trix"})
    took = {"summary": {"contract": "king", "taken": {"0": ["KH"]}}}
    line = plain(doubles_breakdown(snap, [{"card": "KH", "seat": 2}], took, AR)[0])
    assert line == "شايب كبة (تدبيل Omar) من نصيبك: −150 عليك، و+75 لصالح Omar."
    nobody = plain(doubles_breakdown(snap, [{"card": "KH", "seat": 0}], {"summary": {"taken": {}}}, EN)[0])
    assert nobody == "King of Hearts (your double) was not taken."
    story = Story(snap.table, EN, show_hands=False, live=True)
    story.event({"type": "doubles_revealed", "doubles": [{"card": "KH", "seat": 0}, {"card": "QS", "seat": 1}]})
    assert plain(story.lines[-1]).strip() == "Doubled: K♥ by you, Q♠ by Sara"


def test_the_replay_of_ones_own_match_says_you_hold() -> None:
    import engine

    snap = reader_snapshot("tarneeb41", {})
    for t, mine, theirs in ((EN, "You hold ", "Sara holds "), (AR, "معك: ", "مع Sara: ")):
        story = Story(snap.table, t, show_hands=True)
        story.deal_hands(engine.new_game("tarneeb41", seed=1, dealer=0))
        lines = [plain(x).strip() for x in story.lines]
        assert lines[0].startswith(mine) and lines[1].startswith(theirs)
        assert not any(x.startswith(("You holds", "مع أنت")) for x in lines)
