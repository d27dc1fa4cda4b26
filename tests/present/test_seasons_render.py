"""Seasons as people read them: the rating change under a match result, the table with one's own
line, the summary and the stated formula, in English and Arabic."""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.core.model import TableUpdate
from bot.core.seasons import Standing, Standings
from bot.core.views import Event
from bot.present.i18n import translator
from bot.present.render.help import render_help
from bot.present.render.seasons import render_season, render_summary
from bot.present.render.summary import render_notices
from bot.present.samples import snap
from storage.records import ChampionRecord, LeaderRow, LeagueRecord, SeasonRecord, SeasonSummary

MARKS = str.maketrans(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200F]))


def plain(text: str) -> str:
    return text.translate(MARKS)


def match_end(lang: str) -> TableUpdate:
    s = snap(lang, "tarneeb", reader=False)
    ids = [seat.player_id for seat in s.table.seats]
    ratings = [{"player_id": ids[0], "before": 1000.0, "after": 1023.4, "matches": 6, "provisional": False},
               {"player_id": ids[1], "before": 1100.0, "after": 1081.0, "matches": 2, "provisional": True}]
    events = cast(list[Event], [
        {"type": "match_over", "winner": [0, 2], "scores": {"teams": [41, 20]}},
        {"type": "match_recorded", "results": [], "ratings": ratings},
    ])
    return TableUpdate(s, events, reason="ended")


@pytest.mark.parametrize(("lang", "up", "down"), [("en", "+23 → 1023", "−19 → 1081 (provisional)"),
                                                  ("ar", "+23 ← 1023", "−19 ← 1081 (مؤقت)")])
def test_the_match_result_says_what_each_person_s_season_rating_did(lang: str, up: str, down: str) -> None:
    t = translator(lang)
    update = match_end(lang)
    (notice,) = [m for m in render_notices(update, t) if m.buttons]
    text = plain(notice.text)
    names = [seat.name for seat in update.snapshot.table.seats]
    assert f"{names[0]}: {up}" in text and f"{names[1]}: {down}" in text
    if lang == "ar":  # the signed change and the rating are isolates of their own in the Arabic line
        assert "\u2068+23\u2069" in notice.text


def test_no_rating_lines_when_the_match_did_not_count() -> None:
    t = translator("en")
    update = match_end("en")
    cast(dict[str, Any], update.events[1]).pop("ratings")
    assert all("Season ratings" not in m.text for m in render_notices(update, t))


def standings(mine_rank: int | None) -> Standings:
    rows = [LeaderRow(f"tg:{i}", f"P{i}", 10, 5, 1500.0 - i) for i in range(1, 13)]
    lines = [Standing(i, r) for i, r in enumerate(rows, 1)] + [Standing(None, LeaderRow("tg:99", "New", 1, 1, 990.0))]
    mine = lines[11] if mine_rank == 12 else lines[-1]
    return Standings(LeagueRecord("tg:-1"), SeasonRecord("tg:-1", 3, 0.0, 10 * 86400.0), "tarneeb",
                     tuple(lines), mine, 0 if mine_rank else 4)


def test_the_table_shows_the_top_and_the_asker_s_own_line_below_it() -> None:
    t = translator("en")
    text = render_season(standings(12), t, now=86400.0 * 2).text
    assert "Season 3 · Tarneeb" in text and "8 days left" in text
    assert "…\n12. P12" in text and "Your rank: 12 of 12" in text and "11. P11" not in text
    provisional = render_season(standings(None), t, now=0.0).text
    assert "– New · rating 990 · 1 match · provisional" in provisional
    assert "You are provisional: 4 more matches to be ranked." in provisional


def test_the_summary_names_the_champion_who_played_most_and_the_best_pair() -> None:
    season = SeasonRecord("tg:-1", 3, 0.0, 1.0, 2.0)
    champion = ChampionRecord("tg:-1", 3, "tarneeb", "tg:1", "Ali", 1234.4, 12, 9)
    summary = SeasonSummary(season, "tg:-1", (champion,), ("tg:2", "Huda", 20),
                            ("tg:1", "Ali", "tg:3", "Omar", 7, 9))
    text = plain(render_summary(summary, translator("en")).text)
    assert "Season 3 is over." in text and "Champion · Tarneeb: Ali · rating 1234" in text
    assert "Most matches: Huda · 20 matches" in text
    assert "Best partnership: Ali, Omar · 7 wins together in 9 matches" in text
    arabic = plain(render_summary(summary, translator("ar")).text)
    assert "انتهى الموسم 3." in arabic and "البطل" in arabic


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_help_states_the_formula(platform: str) -> None:
    assert "1000 + 40 × (μ − 3σ)" in render_help(platform, translator("en"))
    assert "1000 + 40 × (μ − 3σ)" in render_help(platform, translator("ar"))
