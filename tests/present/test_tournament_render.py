"""A tournament's message as people read it, in English and Arabic: its buttons at each step spell
payloads the codec turns back into the tournament's commands, and a forged one is refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.commands import TournamentAction
from bot.core.errors import Refusal, TableError
from bot.core.model import Person
from bot.core.tournaments import check_in, deadline, register, start
from bot.present import codec
from bot.present.i18n import translator
from bot.present.render.tournaments import render_tournament
from storage.tournaments import MatchStatus, Tournament, TourneyStatus

_MARKS = str.maketrans(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F]))


def plain(text: str) -> str:
    return text.translate(_MARKS)


PEOPLE = [Person(f"tg:{i}", n) for i, n in enumerate(["سارة", "Omar", "Lina", "هادي", "Maya", "Karim"], start=11)]


def fixed(n_people: int) -> Tournament:
    t = Tournament(3, "tg:-100", "tarneeb41", "knockout", "fixed", "tg:1", "Organiser", TourneyStatus.REGISTRATION,
                   0.0, 300.0, 600.0, 5, ai_allowed=True)
    for i, p in enumerate(PEOPLE[:n_people]):
        t = register(t, p, float(i), None if i % 2 == 0 else i // 2 + 1)
    return t


def test_registration_shows_the_pairs_and_a_partner_button_for_an_open_pair() -> None:
    msg = render_tournament(fixed(5), translator("en"), 0.0)
    assert "Check-in opens in 5 minutes." in msg.text and "3 pairs registered:" in msg.text
    labels = [b.label for row in msg.buttons for b in row]
    assert labels[:2] == ["Register", "Withdraw"] and "Partner Maya" in labels
    commands = [codec.to_command(b.payload) for row in msg.buttons for b in row if b.payload]
    assert TournamentAction("register", 3, 3) in commands and TournamentAction("start", 3) in commands


def test_the_bracket_in_arabic_names_the_ai_pair_and_the_forfeit() -> None:
    t = replace(fixed(6), status=TourneyStatus.CHECKIN)
    for p in PEOPLE[:6]:
        t = check_in(t, p.player_id)
    t = start(t, 600.0)
    ar = render_tournament(t, translator("ar"), 600.0)
    assert "زوج ذكاء اصطناعي" in ar.text and "جاهز" in [b.label for row in ar.buttons for b in row]
    after = deadline(t, 600.0 + 300.0)
    en = render_tournament(after, translator("en"), 900.0).text
    assert "nobody came, both are out" in en and "The tournament is over" in en


@pytest.mark.parametrize("payload", ["mj1:o:3:-:dance", "mj1:o:3:-:ready_2", "mj1:o:x:-:ready"])
def test_a_forged_tournament_button_is_refused(payload: str) -> None:
    with pytest.raises(TableError) as e:
        codec.to_command(payload)
    assert e.value.code == Refusal.BAD_ACTION


def test_a_result_in_review_shows_its_end_and_a_flag_button_and_a_flag_shows_who_flagged_it() -> None:
    from bot.core.tournaments import flag, table_ended

    t = start(replace(fixed(4), ai_allowed=False, review_minutes=10), 0.0)
    m = replace(t.match(1, 0), status=MatchStatus.PLAYING, table_id=9)  # type: ignore[arg-type]
    t = table_ended(replace(t, matches=(m,)), m, {0, 2}, 1_800_000_000.0)  # the review ends at 08:10 UTC
    en = render_tournament(t, translator("en"), 1_800_000_000.0)
    assert "1-1 · سارة & Omar v Lina & هادي: سارة & Omar won, result in review until 08:10 UTC" in plain(en.text)
    flag_button = [b for row in en.buttons for b in row if b.label == "Flag the result"]
    assert flag_button and codec.to_command(flag_button[0].payload or "") == TournamentAction("flag", 3)
    assert not [b for row in render_tournament(t, translator("en"), 1_800_000_600.0).buttons for b in row
                if b.label == "Flag the result"]  # the window is over (the tick has not run yet)
    ar = render_tournament(flag(t, "tg:13", 1_800_000_100.0, "x"), translator("ar", "arabic"), 1_800_000_100.0)
    assert "واعترض Lina، والقرار للمنظّم" in plain(ar.text) and not [b for row in ar.buttons for b in row]


def test_the_organiser_reads_a_flag_with_the_pairs_the_deals_and_the_replay_link() -> None:
    from bot.core.tournaments import flag, table_ended
    from bot.present.render.tournaments import render_audit, render_flag_notice

    t = start(replace(fixed(4), ai_allowed=False), 0.0)
    m = replace(t.match(1, 0), status=MatchStatus.PLAYING, table_id=9)  # type: ignore[arg-type]
    t = flag(table_ended(replace(t, matches=(m,)), m, {1, 3}, 100.0), "tg:11", 150.0, "the bid was hidden")
    m = t.match(1, 0)
    assert m is not None
    msg = render_flag_notice(t, m, ["Deal 1: Team A 12, Team B 3"], "https://m.example/replay/9#k=x",
                             "/tournament decide 1-1", translator("en"))
    assert plain(msg.text).split("\n") == [
        "🚩 سارة flagged match 1-1 of the tournament.", "Reason: the bid was hidden", "Pair 1: سارة & Omar",
        "Pair 2: Lina & هادي", "Recorded result: Lina & هادي won.", "Deal 1: Team A 12, Team B 3",
        "The replay of every deal: https://m.example/replay/9#k=x",
        "Decide in the group with /tournament decide 1-1: uphold, winner (with a pair's number), replay, or "
        "disqualify (with a pair's number)."]
    log = plain(render_audit(t, translator("en")).text)
    assert "00:02 · سارة: flagged match 1-1: the bid was hidden" in log
    assert "Pairs: 1. سارة & Omar; 2. Lina & هادي" in log


def test_a_swiss_shows_the_standings_then_the_round_being_played_with_byes_and_scores() -> None:
    t = replace(fixed(6), format="swiss:2", ai_allowed=False)  # three pairs: a bye each round
    t = start(t, 600.0)
    en = render_tournament(t, translator("en"), 600.0)
    lines = en.text.split("\n")
    assert "tournament: pair Swiss, fixed pairs" in lines[0]
    assert "Round 1 of 2" in lines and not any("Standings" in x for x in lines)  # nothing played yet
    assert any("a bye, scored as a win" in x for x in lines) and "Ready" in [b.label for r in en.buttons for b in r]
    after = deadline(t, 900.0)  # nobody came to round 1's match: no points; round 2 is drawn
    lines = render_tournament(after, translator("en"), 900.0).text.split("\n")
    top = lines.index("Standings after round 1:")
    assert top < lines.index("Round 2 of 2")
    assert "1 point, Buchholz 0" in lines[top + 1]  # the bye's pair leads on its win
    ar = render_tournament(after, translator("ar"), 900.0).text
    ar = ar.translate(dict.fromkeys([0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F]))  # the isolates
    assert "الترتيب بعد الدور 1:" in ar and "نقطة واحدة" in ar and "الدور 2 من 2" in ar


def trix_pools(ai: bool, review: int = 0) -> Tournament:
    """A Trix tournament of five people (and three AI seats with ``ai``), started: round 1 called."""
    from bot.core.tournaments import new

    t = replace(new("tg:-100", Person("tg:1", "Organiser"), "trix", pairing="draw", now=0.0, start_minutes=10,
                    checkin_minutes=5, round_minutes=5, ai=ai, options={}, lang="en", rounds=2,
                    review_minutes=review), tournament_id=4)
    for i, p in enumerate([*PEOPLE[:5]]):
        t = register(t, p, float(i))
    return start(t, 600.0)


def test_a_trix_pool_tournament_shows_its_pools_points_with_halves_and_the_trix_score_in_both_languages() -> None:
    from bot.core.tournaments import table_ended
    from bot.present.render.tournament_page import tournament_view

    t = trix_pools(ai=True)
    msg = render_tournament(t, translator("en"), 600.0)
    text = plain(msg.text)
    assert "Trix tournament: pools of four, each player alone" in text and "Round 1 of 2" in text
    assert "0 of 4 ready" in text and "0 of 1 ready" in text and "🤖 AI" in text
    assert [b.label for row in msg.buttons for b in row] == ["Ready"]
    m = replace(t.matches[0], status=MatchStatus.PLAYING, table_id=9)
    t = replace(t, matches=(m, *t.matches[1:]))
    t = table_ended(t, m, set(), 700.0, {0: 100, 1: 100, 2: -50, 3: -150})
    t = deadline(t, t.rounds[-1].deadline)  # the other pool: nobody came
    assert len(t.rounds) == 2
    text = plain(render_tournament(t, translator("en"), 1000.0).text)
    assert "Standings after round 1:" in text and "3½ points, Trix score 100" in text
    assert text.index("Standings after round 1:") < text.index("Round 2 of 2")
    ar = plain(render_tournament(t, translator("ar"), 1000.0).text)
    assert "الترتيب بعد الدور ١:" in ar or "الترتيب بعد الدور 1:" in ar
    assert "رصيد التركس" in ar and "½" in ar
    view = tournament_view(t, translator("en"), 1000.0)
    assert view["standings"]["head"] == ["Player", "Points", "Trix score"]
    assert view["standings"]["rows"][0]["points"] == "3½" and len(view["standings"]["rows"]) == 5
    round1 = view["rounds"][0]["matches"]
    assert [len(c["seats"]) for c in round1] == [4, 4] and round1[1]["seats"][1]["ai"]
    assert sum(s["won"] for s in round1[0]["seats"]) == 2  # the two tied first


def test_without_ai_a_trix_pool_tournament_shows_who_sits_out_with_the_average_tables_points() -> None:
    text = plain(render_tournament(trix_pools(ai=False), translator("en"), 600.0).text)
    assert "sitting out, 2½ points each (an average table)" in text
    assert "AI" not in text


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_trix_pool_in_review_shows_its_points_and_the_flag_button_and_the_organiser_reads_its_four(
        lang: str) -> None:
    from bot.core.tournaments import flag, table_ended
    from bot.present.render.tournaments import render_audit, render_flag_notice

    t = trix_pools(ai=True, review=10)
    m = replace(t.matches[0], status=MatchStatus.PLAYING, table_id=9)
    t = replace(t, matches=(m, *t.matches[1:]))
    t = table_ended(t, m, set(), 700.0, {0: 100, 1: 100, 2: -50, 3: -150})
    tr = translator(lang)
    msg = render_tournament(t, tr, 710.0)
    text = plain(msg.text)
    flag_label = {"en": "Flag the result", "ar": tr.gettext("Flag the result")}[lang]
    assert flag_label in [b.label for row in msg.buttons for b in row]
    assert ("in review until 00:21 UTC" in text) if lang == "en" else ("٠٠:٢١" in text or "00:21" in text)
    assert ("3½" in text) and (PEOPLE[0].name in text)
    who = t.match(1, 0).pool  # type: ignore[union-attr]
    flagger = next(e.players[0] for e in t.entries if e.number == who[1])
    t = flag(t, flagger, 720.0, "a card was played twice")
    m2 = t.match(1, 0)
    assert m2 is not None
    text = plain(render_tournament(t, tr, 730.0).text)
    assert flag_label not in [b.label for row in render_tournament(t, tr, 730.0).buttons for b in row]
    notice = plain(render_flag_notice(t, m2, ["Deal 1: …"], None, "/tournament decide 1-1", tr).text)
    names = {p.player_id: p.name for p in t.players}
    for n in who:  # the four people by number with their Trix scores
        e = t.entry(n)
        assert e is not None and names[e.players[0]] in notice
    assert "a card was played twice" in notice and "/tournament decide 1-1" in notice
    if lang == "en":
        assert "flagged by" in text and "flagged pool 1-1 of the tournament" in notice
        assert "Trix score 100, 3½ points" in notice and "winner" not in notice
    else:
        assert "والقرار للمنظّم" in text and "على المجموعة 1-1" in notice
        assert "رصيد التركس 100، النقاط 3½" in notice
    audit = plain(render_audit(t, tr).text)
    assert "a card was played twice" in audit
