"""A duplicate challenge's texts (bot/present/render/challenges.py): a Trix challenge's deals against
the field in Trix words, and its ranking by points against the field, in English and Arabic."""

from __future__ import annotations

from bot.core.challenges import rank
from bot.present.i18n import translator
from bot.present.render.challenges import render_board_done, render_challenge, render_comparisons
from storage.records import BoardRecord, ChallengeRecord

DAY = 86400.0
CH = ChallengeRecord(1, "tg:-5", "trix", 5, 9, "tg:1", 0.0, DAY)


def _rows() -> list[BoardRecord]:
    # (score, units) per board of A, B and C: king, queens, diamonds, tricks, trix
    played = {"A": [(0, 0), (-25, 1), (-30, 3), (-45, 3), (150, 2)],
              "B": [(-75, 1), (-50, 2), (-10, 1), (-30, 2), (200, 1)],
              "C": [(0, 0), (-25, 1), (-40, 4), (-60, 4), (100, 3)]}
    return [BoardRecord(1, f"tg:{i}", name, k, 10 * i + k, score, units, None, 1.0 + k)
            for i, (name, boards) in enumerate(played.items(), start=1) for k, (score, units) in enumerate(boards)]


def test_a_trix_players_deals_against_the_field_are_told_in_the_contracts_words() -> None:
    view = rank(CH, _rows(), "tg:1")
    text = render_comparisons(view, translator("en"), 0.0).text
    assert "Deal 1 (King of Hearts): you did not take the King of Hearts, 0 points; 50% of the field " \
           "(2 players) took the King of Hearts, −37.5 points on average · +37.5 against the field" in text
    assert "Deal 2 (Queens): you took 1 queen, −25 points; the field (2 players) took 1.5 queens on average, " \
           "−37.5 points · +12.5 against the field" in text
    assert "Deal 3 (Diamonds): you took 3 diamonds, −30 points; the field (2 players) took 2.5 diamonds" in text
    assert "Deal 5 (Trix): you finished in place 2, +150 points; the field (2 players) finished in place 2.0 " \
           "on average, 150.0 points · 0 against the field" in text
    # A: +37.5 +12.5 -5 +0 +0 over 5 deals = +9
    assert "Your result: +9.0 points a deal against the field" in text
    ar = render_comparisons(view, translator("ar", "arabic"), 0.0).text.replace("\u2068", "").replace("\u2069", "")
    assert "التوزيعة ١ (شايب الكبة): لم تأخذ شايب الكبة، ٠ نقطة؛ أخذ شايب الكبة ٥٠٪ من الآخرين (لاعبان)" in ar
    assert "التوزيعة ٢ (البنات): أخذت بنتًا واحدة، −٢٥ نقطة؛ الآخرون (لاعبان) أخذوا ١٫٥ بنت في المتوسط" in ar
    assert "نتيجتك: +٩٫٠ نقطة في كل توزيعة مقارنةً بالآخرين" in ar


def test_a_closed_trix_challenge_ranks_by_points_against_the_field() -> None:
    closed = ChallengeRecord(1, "tg:-5", "trix", 5, 9, "tg:1", 0.0, DAY, closed_at=DAY)
    view = rank(closed, _rows())
    text = render_challenge(view, translator("en"), DAY).text
    assert "The final ranking (points a deal against the field):" in text
    lines = [line for line in text.splitlines() if "against the field ·" in line]
    # B: -75 -25 +25 +22.5 +75 = +22.5 / 5 = +4.5; A +9; C: +37.5 +12.5 -20 -22.5 -75 = -67.5 / 5 = -13.5
    assert lines == ["1. A · +9.0 against the field · 5 of 5 deals", "2. B · +4.5 against the field · 5 of 5 deals",
                     "3. C · −13.5 against the field · 5 of 5 deals"]


def test_the_last_deal_done_names_the_platforms_command() -> None:
    view = rank(CH, _rows(), "tg:1")
    assert "/majlis challenge action:show" in render_board_done(
        view, 4, translator("en"), show="/majlis challenge action:show").text
