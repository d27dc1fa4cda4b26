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
