"""Rendering from hand-built views: the public table, a private hand, lobby, errors, limits."""

from __future__ import annotations

from bot.core.errors import CODES
from bot.present.codec import decode
from bot.present.i18n import FSI, translator
from bot.present.render import render_error, render_hand, render_lobby, render_table
from bot.present.render.message import Button, OutMessage
from tests.present.test_render_helpers import snapshot

T41_PUBLIC = {
    "game": "tarneeb41", "phase": "play", "seat": None, "to_act": None, "dealer": 0, "deal_no": 1,
    "hand_sizes": [13, 12, 12, 13], "trick": [{"seat": 1, "card": "QS"}, {"seat": 2, "card": "3S"}],
    "leader": 1, "last_trick": None, "tricks": [0, 0, 0, 0],
    "scores": {"players": [0, 0, 0, 0], "teams": [0, 0]}, "winner": None, "legal": [], "options": {},
    "exposed": "7C", "trump": "S", "bids": [3, 4, 2, 5], "target": 41,
}


def check_limits(msg: OutMessage) -> None:
    assert len(msg.buttons) <= 5
    for row in msg.buttons:
        assert 1 <= len(row) <= 5
        for b in row:
            assert isinstance(b, Button)
            assert (b.payload is None) != (b.url is None)
            assert 0 < len(b.label) <= 80  # Discord's label limit
            if b.payload:
                assert len(b.payload.encode()) <= 64
                decode(b.payload)


def test_public_table_names_turn_trick_trump_and_scores() -> None:
    snap = snapshot("tarneeb41", T41_PUBLIC, to_act=3)
    msg = render_table(snap, translator("en"), platform="telegram")
    check_limits(msg)
    assert "Turn: Huda to play" in msg.text
    assert "Sara Q♠ · Omar 3♠" in msg.text
    assert "7♣" in msg.text and "Spades" in msg.text
    assert "0 → 1 → 2 → 3" in msg.text
    assert decode(msg.buttons[0][0].payload or "").verb == "h"


def test_public_table_in_arabic_isolates_names_and_uses_arabic_words() -> None:
    snap = snapshot("tarneeb41", T41_PUBLIC, to_act=3)
    text = render_table(snap, translator("ar", digits="arabic"), platform="discord").text
    assert FSI + "Huda" in text
    assert "٤١" in text


def test_private_hand_groups_by_suit_and_disables_illegal_cards() -> None:
    snap = snapshot("tarneeb41", T41_PUBLIC, to_act=3)
    view = dict(T41_PUBLIC, seat=3, to_act=3, hand=["AS", "KS", "2H", "TD", "9D", "7C", "3C", "4C", "5C",
                                                    "6C", "8C", "9C", "JC"], legal=["play AS", "play KS"])
    msg = render_hand(snap, view, translator("en"))
    check_limits(msg)
    flat = [b for row in msg.buttons for b in row]
    assert len(flat) == 13
    enabled = {decode(b.payload or "").arg for b in flat if not b.disabled}
    assert enabled == {"play AS", "play KS"}
    assert all(decode(b.payload or "").version == 5 for b in flat)
    assert msg.buttons[0][0].label == "A♠"


def test_lobby_has_join_begin_leave_and_join_url() -> None:
    snap = snapshot("tarneeb", None, status="lobby", seated=2)
    msg = render_lobby(snap, translator("en"), platform="discord")
    check_limits(msg)
    assert [decode(b.payload or "").verb for b in msg.buttons[0]] == ["j", "b", "l"]
    url_msg = render_lobby(snap, translator("en"), platform="telegram", join_url="https://t.me/bot?start=j7")
    assert url_msg.buttons[0][0].url == "https://t.me/bot?start=j7"
    assert "2 seats are free" in msg.text


def test_every_table_error_code_has_a_short_sentence() -> None:
    for lang in ("en", "ar"):
        t = translator(lang)
        for code in CODES:
            text = render_error(code, {"reason": "must_follow_suit", "detail": "x"}, t)
            assert text and len(text) <= 200
    assert render_error("illegal", {"reason": "no_such_reason"}, translator("en")) == "That move is not allowed now."


def test_leaderboard_stats_and_scores() -> None:
    from bot.present.render import render_leaderboard, render_scores, render_stats
    from storage.records import LeaderRow, PlayerStats

    rows = [LeaderRow("tg:1", "Ali", 3, 1, 27.4), LeaderRow("tg:2", "Sara", 1, 1, 12.0)]
    text = render_leaderboard(rows, "trix", translator("en")).text
    assert text.splitlines() == ["Leaderboard · Trix", "1. Ali · rating 27 · 3 matches · 1 win",
                                 "2. Sara · rating 12 · 1 match · 1 win"]
    ar = render_leaderboard(rows, "trix", translator("ar")).text
    assert "مباراة واحدة" in ar and "فوز واحد" in ar and "تركس" in ar
    assert "No finished matches yet." in render_leaderboard([], "tarneeb", translator("en")).text
    stats = [PlayerStats("tarneeb41", 2, 0, 1, 20.0, -12)]
    st = render_stats(stats, "Ali", translator("en")).text
    assert st.splitlines()[1] == "Syrian Tarneeb 41: 2 matches, 0 wins, left 1 time · rating 20 · points −12"
    scores = render_scores(snapshot("tarneeb41", T41_PUBLIC), translator("en")).text
    assert "Team A: 0 (Ali 0, Omar 0)" in scores and "Target: 41" in scores
    assert "not started" in render_scores(snapshot("trix", None), translator("en")).text


def test_rules_and_help_for_every_game_and_platform() -> None:
    from bot.present.render import render_help, render_rules

    for lang in ("en", "ar"):
        t = translator(lang)
        texts = {g: render_rules(g, t) for g in ("tarneeb41", "tarneeb", "trix")}
        assert len(set(texts.values())) == 3
        assert all(len(x) < 1500 for x in texts.values())
        assert render_rules("", t).count("\n\n") == 2
        helps = {p: render_help(p, t) for p in ("telegram", "discord", "cli")}
        assert len(set(helps.values())) == 3
        assert "/new" in helps["telegram"] and "/majlis new" in helps["discord"]
    assert "41" in render_rules("tarneeb41", translator("en"))
    assert "شايب الكبة" in render_rules("trix", translator("ar"))


def test_turn_ping_warning_and_dm_failure() -> None:
    from bot.present.render import render_dm_failed, render_turn_ping, render_turn_warning

    snap = snapshot("tarneeb41", T41_PUBLIC, to_act=3)
    ping = render_turn_ping(snap, 3, translator("en"))
    check_limits(ping)
    assert ping.notify and ping.text == "Your turn to play at table 7 (Syrian Tarneeb 41)."
    warn = render_turn_warning(snap, 3, 1, translator("en"))
    assert warn.text == "Huda, 1 second left, then a move is played for you."
    assert "ثانيتان" in render_turn_warning(snap, 3, 2, translator("ar")).text
    dm = render_dm_failed("Huda", "https://t.me/majlis_bot?start=hand", translator("en"))
    assert dm.buttons[0][0].url == "https://t.me/majlis_bot?start=hand"
    assert render_dm_failed("Huda", None, translator("en")).buttons == ()


def test_notices_for_table_events() -> None:
    from bot.core.model import TableUpdate
    from bot.present.render import render_notices

    snap = snapshot("trix", None)
    en = translator("en")
    events = [{"type": "table_started"}, {"type": "seat_to_ai", "seat": 1, "reason": "timeouts"},
              {"type": "seat_to_ai", "seat": 2, "reason": "left"}, {"type": "seat_reclaimed", "seat": 1},
              {"type": "table_cancelled", "reason": "lobby_timeout"}, {"type": "card_played", "seat": 0, "card": "2C"},
              {"type": "deal_thrown_in", "reason": "low_total", "total": 9, "next_dealer": 2}]
    texts = [m.text for m in render_notices(TableUpdate(snap, events), en)]
    assert texts == [
        "Trix starts at table 7: Ali, Sara, Omar, Huda. Play passes 0 → 1 → 2 → 3.",
        "Sara is away; an AI player plays the seat until they return.",
        "Omar left the table; an AI player takes the seat.",
        "Sara is back at the table.",
        "Table 7 was closed: nobody started it in time.",
        "The bids total only 9, so the deal is thrown in. Omar deals again.",
    ]


def test_ai_seats_are_named() -> None:
    import dataclasses

    from bot.core.model import TableSnapshot
    from bot.present.render.common import seat_name
    from storage.records import Seat

    snap = snapshot("tarneeb", None)
    seats = list(snap.table.seats)
    seats[1] = Seat(player_id="ai:easy:1", is_ai=True)
    seats[2] = Seat(player_id="ai:easy:2", name="Omar", is_ai=True, owner="tg:2", away=True)
    snap = TableSnapshot(dataclasses.replace(snap.table, seats=tuple(seats)))
    en = translator("en")
    assert [seat_name(snap, i, en) for i in range(4)] == ["Ali", "AI 1", "Omar (AI)", "Huda"]
    assert "آلي" in seat_name(snap, 1, translator("ar"))


def test_a_stopped_table_says_so_and_has_no_buttons() -> None:
    msg = render_table(snapshot("tarneeb41", T41_PUBLIC, to_act=3, status="stopped"), translator("en"),
                       platform="telegram")
    assert msg.buttons == ()
    assert msg.text.endswith("Table 7 was stopped.")
    assert "Turn:" not in msg.text


def test_seats_played_by_an_ai_for_nobody_can_be_taken() -> None:
    import dataclasses

    from bot.core.model import TableSnapshot
    from storage.records import Seat

    snap = snapshot("tarneeb41", T41_PUBLIC, to_act=3)
    seats = list(snap.table.seats)
    seats[1] = Seat(player_id="ai:easy:1", is_ai=True)
    seats[2] = Seat(player_id="ai:easy:2", name="Omar", is_ai=True, owner="tg:2", away=True)
    snap = TableSnapshot(dataclasses.replace(snap.table, seats=tuple(seats)), snap.public, 3)
    msg = render_table(snap, translator("en"), platform="telegram")
    check_limits(msg)
    payloads = [[decode(b.payload or "") for b in row] for row in msg.buttons]
    assert [[(p.verb, p.table_id, p.arg) for p in row] for row in payloads] == [[("h", 7, "")], [("c", 7, "1")]]
    assert msg.buttons[1][0].label == "Take seat 1"
    assert len(render_table(snap, translator("en"), platform="cli").buttons) == 1


def test_classic_bids_in_levels_when_the_table_says_so() -> None:
    public = {"game": "tarneeb", "phase": "bid", "dealer": 0, "deal_no": 1, "hand_sizes": [13] * 4, "trick": [],
              "last_trick": None, "tricks": [0] * 4, "scores": {"teams": [0, 0]}, "winner": None, "legal": [],
              "bids": [{"seat": 1, "bid": 9}], "high_bid": {"seat": 1, "bid": 9}, "passed": [False] * 4,
              "declarer": None, "contract": None, "trump": None, "target": 31, "bid_display": "levels"}
    snap = snapshot("tarneeb", public, to_act=2)
    assert "High bid: 3 by Sara" in render_table(snap, translator("en"), platform="discord").text
    view = dict(public, seat=2, to_act=2, hand=["AS"], legal=["bid 10", "bid 13", "pass"])
    labels = [b.label for row in render_hand(snap, view, translator("en")).buttons for b in row]
    assert labels == ["4", "7", "Pass"]
    tricks = dict(public, bid_display="tricks")
    assert "High bid: 9 by Sara" in render_table(snapshot("tarneeb", tricks, to_act=2), translator("en"),
                                                 platform="discord").text


def test_names_and_buttons_follow_a_seat_change_with_the_same_translator() -> None:
    """Seat names and the table's buttons are kept per seats tuple: a new seats tuple (a person takes
    an AI's seat) renders anew, and a record that keeps its seats renders what it rendered before."""
    import dataclasses

    from bot.core.model import TableSnapshot
    from storage.records import Seat

    en, ar = translator("en"), translator("ar", digits="arabic")
    snap = snapshot("tarneeb41", T41_PUBLIC, to_act=3)
    seats = list(snap.table.seats)
    seats[1] = Seat(player_id="ai:easy:1", is_ai=True)
    ai = TableSnapshot(dataclasses.replace(snap.table, seats=tuple(seats)), snap.public, 3)
    before = render_table(ai, en, platform="telegram")
    assert "AI 1" in before.text and [b.label for b in before.buttons[1]] == ["Take seat 1"]
    seats[1] = Seat(player_id="tg:9", name="Rami")
    taken = TableSnapshot(dataclasses.replace(ai.table, seats=tuple(seats), version=6), snap.public, 3)
    after = render_table(taken, en, platform="telegram")
    assert "Rami" in after.text and "AI 1" not in after.text
    assert [[decode(b.payload or "").verb for b in row] for row in after.buttons] == [["h"]]
    moved = TableSnapshot(dataclasses.replace(ai.table, version=7), snap.public, 3)  # the same seats tuple
    assert render_table(moved, en, platform="telegram") == before
    assert render_table(ai, ar, platform="telegram").buttons[1][0].label == f"خذ المقعد {FSI}١\u2069"
    assert render_table(ai, en, platform="cli").buttons == before.buttons[:1]


def test_whose_turn_is_said_once_for_the_table_the_web_and_the_ping() -> None:
    from bot.core.views import Phase
    from bot.present.render.turn import turn_line, turn_sentence

    t = translator("en")
    snap = snapshot("tarneeb", {"phase": "bid"}, to_act=1)
    assert turn_line(snap, Phase.BID, 1, t) == "Turn: Sara to bid"
    assert turn_line(snap, Phase.TRUMP, 1, t) == "Turn: Sara to name the trump suit"
    assert turn_line(snap, Phase.CONTRACT, 1, t) == "Turn: Sara to choose the contract"
    assert turn_line(snap, Phase.PLAY, 1, t) == "Turn: Sara to play"
    assert turn_line(snap, Phase.BID, 1, t, me=1) == "Your turn to bid."
    assert turn_line(snap, Phase.PLAY, 1, t, me=1) == "Your turn to play."
    assert turn_line(snap, Phase.PLAY, None, t) == ""
    assert turn_line(snap, Phase.DOUBLE, None, t).endswith("decide in private.")
    assert turn_line(snap, Phase.DOUBLE, None, t, me=0).endswith("decide.")
    assert turn_sentence(Phase.TRUMP, t, at=(7, "Tarneeb")) == "Name the trump suit at table 7 (Tarneeb)."
    assert turn_sentence(Phase.DOUBLE, t, at=(7, "Trix")) == "You may double at table 7 (Trix)."
