"""Rendering from hand-built views: the public table, a private hand, lobby, errors, limits."""

from __future__ import annotations

from test_render_helpers import snapshot

from bot.codec import decode
from bot.errors import CODES
from bot.i18n import FSI, translator
from bot.render import render_error, render_hand, render_lobby, render_table
from bot.render.message import Button, OutMessage

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
    msg = render_hand(snap, view, translator("en"), platform="discord")
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
