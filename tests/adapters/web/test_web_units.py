"""Credentials, Telegram initData and the per-viewer state, without a socket."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from bot.adapters.web.telegram_auth import validate_init_data
from bot.adapters.web.tokens import Expired, Forged, Grant, Missing, sign, verify
from bot.adapters.web.view import build_state
from bot.core.model import TableSnapshot
from bot.present.i18n import translator
from storage.records import Seat, TableRecord
from tests.adapters.web.telegram_data import init_data

SECRET = b"k" * 32


def test_credential_round_trip_and_refusals() -> None:
    g = Grant("play", 7, 2, "tg:5", 1000.0)
    token = sign(SECRET, g)
    assert verify(SECRET, token, 999.0) == g
    with pytest.raises(Expired):
        verify(SECRET, token, 1001.0)
    with pytest.raises(Forged):
        verify(b"other" * 8, token, 999.0)
    with pytest.raises(Missing):
        verify(SECRET, "", 0.0)
    version, _payload, sig = token.split(".")
    # a payload changed to another seat keeps the old signature: forged
    other = sign(SECRET, Grant("play", 7, 3, "tg:5", 1000.0)).split(".")[1]
    with pytest.raises(Forged):
        verify(SECRET, f"{version}.{other}.{sig}", 999.0)
    for bad in ("x", "v2.a.b", token + "\u2069", "v1..", "a.b.c.d"):
        with pytest.raises(Forged):
            verify(SECRET, bad, 0.0)
    assert Missing.status == Expired.status == 401 and Forged.status == 403


def test_telegram_init_data_per_spec() -> None:
    data = init_data(42, "Lina", 5000, "1:abc")
    user = validate_init_data(data, "1:abc", now=5100, max_age=600)
    assert user.player_id == "tg:42" and user.name == "Lina" and user.language_code == "en"
    with pytest.raises(Expired):
        validate_init_data(data, "1:abc", now=5601, max_age=600)
    with pytest.raises(Forged):
        validate_init_data(data, "1:abd", now=5100)
    with pytest.raises(Forged):
        validate_init_data(data + "&extra=1", "1:abc", now=5100)
    with pytest.raises(Forged):
        validate_init_data(data.replace("hash=", "hash=0"), "1:abc", now=5100)
    with pytest.raises(Missing):
        validate_init_data(None, "1:abc", now=5100)


def _snap(game: str) -> tuple[TableSnapshot, engine.Game]:
    g = engine.new_game(game, seed=4)
    seats = (Seat("tg:1", "Ali"), Seat("ai:easy:1", is_ai=True), Seat("tg:3", "Mona"), Seat("ai:easy:3", is_ai=True))
    rec = TableRecord(table_id=3, chat_id="tg:-1", game=game, options={}, seed=4, dealer=None, creator="tg:1",
                      status="playing", seats=seats, version=5, created_at=0.0)
    return TableSnapshot(table=rec, public=g.view(None), to_act=g.to_act), g


@pytest.mark.parametrize("game", ["tarneeb41", "tarneeb", "trix"])
def test_state_of_a_spectator_has_no_hand_and_a_player_only_theirs(game: str) -> None:
    snap, g = _snap(game)
    t = translator("ar", "arabic")
    public = build_state(snap, snap.public, t, me=None, rows=[], now=0.0, watching=True)
    text = json.dumps(public, ensure_ascii=False)
    assert public["hand"] == [] and public["actions"] == []
    for seat in range(4):
        for code in g.hand(seat):
            assert f'"code": "{code}"' not in text or code == public.get("exposed", {}).get("code")
    seat = g.to_act
    mine = build_state(snap, g.view(seat), t, me=seat, rows=[], now=0.0, watching=False)
    assert sorted(c["code"] for c in mine["hand"]) == sorted(g.hand(seat))
    legal = set(g.legal())
    assert {a["code"] for a in mine["actions"]} | {"play " + c["code"] for c in mine["hand"] if c["playable"]} \
        == legal
    assert mine["rtl"] and mine["prompt"]


async def test_install_secret_is_made_once_and_kept_in_the_database(tmp_path: Any) -> None:
    from bot.adapters.web.tokens import install_secret
    from storage import open_repository

    path = str(tmp_path / "s.sqlite3")
    repo = await open_repository(path)
    first = await install_secret(repo)
    await repo.close()
    repo = await open_repository(path)
    try:
        assert await install_secret(repo) == first and len(first) == 32
    finally:
        await repo.close()
