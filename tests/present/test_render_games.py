"""Rendering real games: no hidden card in any public table, hands offer exactly the legal moves,
notices for every scored deal and the match end, and Arabic output with no untranslated words."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from bot.core.model import TableSnapshot, TableUpdate
from bot.present.codec import decode
from bot.present.i18n import FSI, PDI, T, translator
from bot.present.render import render_hand, render_notices, render_table
from bot.present.render.cards import card_label
from bot.present.render.message import OutMessage
from tests.present.test_render_helpers import NAMES, record

LANGS = (translator("en"), translator("ar"), translator("ar", digits="arabic"))
GAME_OPTIONS: dict[str, dict[str, Any]] = {
    "tarneeb41": {"target": 11}, "tarneeb": {}, "trix": {},
    "trix_complex": {"mode": "complex", "partnership": True, "partnership_expose_twos": True},
    "tarneeb_variant": {"trump_mode": "exposed_sister_suit", "no_trump_allowed": True},
}
VARIANTS = ("tarneeb41", "tarneeb", "trix", "trix_complex", "tarneeb_variant")
_ISOLATED = re.compile(f"{FSI}[^{FSI}{PDI}]*{PDI}")


def play(game: str, seed: int, max_actions: int = 3000) -> Iterator[tuple[engine.Game, list[dict], int]]:
    """Random legal play (auto moves now and then); yields the game after each action."""
    rng = random.Random(seed)
    g = engine.new_game(game.split("_", maxsplit=1)[0], seed=seed, options=GAME_OPTIONS[game])
    version = 0
    while g.to_act is not None and version < max_actions:
        legal = g.legal()
        if game == "tarneeb41" and g.phase == "bid":
            code = rng.choice(["bid 3", "bid 3", "bid 4", "bid 2"])  # low bids end a random match sooner
        else:
            code = g.auto() if rng.random() < 0.3 else rng.choice(legal)
        events = g.act(g.to_act, code)
        version += 1
        yield g, events, version


def snap(g: engine.Game, version: int, game: str) -> TableSnapshot:
    rec = record(g.game_id, version=version)
    rec = dataclasses.replace(rec, options=dict(GAME_OPTIONS[game]))
    return TableSnapshot(rec, g.view(None), g.to_act)


def public_cards(pub: dict[str, Any]) -> set[str]:
    out = {d["card"] for d in pub.get("doubled") or []}
    for twos in (pub.get("exposed_twos") or {}).values():
        out |= set(twos)
    if pub.get("exposed"):
        out.add(pub["exposed"])
    return out


def check_buttons(msg: OutMessage) -> None:
    assert len(msg.buttons) <= 5
    for row in msg.buttons:
        assert 1 <= len(row) <= 5
        for b in row:
            assert b.payload is not None or b.url is not None
            assert 0 < len(b.label) <= 80  # Discord's label limit
            if b.payload is not None:
                assert len(b.payload.encode()) <= 64
                decode(b.payload)


def untranslated(text: str) -> list[str]:
    """Latin words left in an Arabic text once isolated names, codes and numbers are removed."""
    while True:
        stripped = _ISOLATED.sub("", text)
        if stripped == text:
            break
        text = stripped
    return re.findall(r"[A-Za-z]{2,}", text)


@pytest.mark.slow
@pytest.mark.parametrize("game", VARIANTS)
def test_public_tables_never_show_a_hidden_card(game: str) -> None:
    rendered = 0
    for seed in range(2):
        for g, _, version in play(game, seed, max_actions=700):
            s = snap(g, version, game)
            hidden = set().union(*(g.hand(seat) for seat in range(4))) - public_cards(s.public or {})
            for t in LANGS[:2]:
                msg = render_table(s, t, platform="telegram")
                rendered += 1
                for code in hidden:
                    assert card_label(code) not in msg.text, (code, msg.text)
                    assert not re.search(rf"\b{code}\b", msg.text), (code, msg.text)
                assert all(decode(b.payload or "").verb == "h" for row in msg.buttons for b in row)
    assert rendered >= 1500  # five variants: about 10 000 public tables in all


def test_the_doubling_window_names_nobody() -> None:
    seen = 0
    for g, _, version in play("trix", 11, max_actions=1500):
        if g.phase != "double":
            continue
        texts = {render_table(TableSnapshot(record("trix", version=version), g.view(None), seat),
                              translator("en"), platform="discord").text for seat in range(4)}
        assert len(texts) == 1
        assert "Turn:" not in texts.pop()
        seen += 1
    assert seen > 0


@pytest.mark.parametrize("game", VARIANTS)
def test_private_hands_offer_exactly_the_legal_moves(game: str) -> None:
    for g, _, version in play(game, 21, max_actions=900):
        if g.to_act is None:
            break
        s = snap(g, version, game)
        view = g.view(g.to_act)
        msg = render_hand(s, view, translator("en"))
        check_buttons(msg)
        buttons = [b for row in msg.buttons for b in row]
        enabled = {decode(b.payload or "").arg for b in buttons if not b.disabled}
        assert enabled == set(g.legal())
        assert all(decode(b.payload or "").version == version for b in buttons)
        if g.phase == "play":  # every card of the hand is a button, illegal ones disabled
            cards = {decode(b.payload or "").arg.split()[1] for b in buttons if b.payload and "play" in b.payload}
            assert cards == set(view["hand"]) or view.get("contract") == "trix"
        other = (g.to_act + 1) % 4
        idle = render_hand(s, g.view(other), translator("ar"))
        if g.phase != "double":
            assert idle.buttons == ()
        for code in g.hand(other):
            assert card_label(code)[:-1] in idle.text


def full_match(game: str, seed: int) -> tuple[list[tuple[TableSnapshot, list[dict]]], engine.Game]:
    out = []
    g = None
    for g, events, version in play(game, seed, max_actions=20000):
        if any(e["type"] in {"deal_scored", "match_over", "deal_thrown_in", "doubles_revealed"} for e in events):
            out.append((snap(g, version, game), events))
    assert g is not None and g.to_act is None, "the match did not finish"
    return out, g


@pytest.mark.parametrize("game", VARIANTS)
def test_notices_for_every_scored_deal_and_the_end_of_the_match(game: str) -> None:
    updates, g = full_match(game, 3)
    scored = sum(1 for _, evs in updates for e in evs if e["type"] == "deal_scored")
    assert scored >= 1
    for t in LANGS:
        notices: list[OutMessage] = []
        for s, events in updates:
            notices += render_notices(TableUpdate(s, events), t)
        summaries = [m for m in notices if m.text.startswith(t.gettext("Deal scored · {game} · table {table}",
                                                                        game="", table=7)[:6])]
        assert len(summaries) >= scored
        final = notices[-1].text
        assert any(NAMES[w] in final for w in g.winner or [])
        if t.lang == "ar":
            for m in notices:
                assert untranslated(m.text) == [], m.text


@pytest.mark.parametrize("game", VARIANTS)
def test_arabic_tables_and_hands_have_no_untranslated_words(game: str) -> None:
    t: T = translator("ar", digits="arabic")
    for g, _, version in play(game, 5, max_actions=800):
        s = snap(g, version, game)
        texts = [render_table(s, t, platform="telegram").text]
        if g.to_act is not None:
            msg = render_hand(s, g.view(g.to_act), t)
            texts.append(msg.text)
            texts += [b.label for row in msg.buttons for b in row]
        for text in texts:
            assert untranslated(text) == [], text
            assert not re.search(r"[0-9]", text), text  # every number in the chosen Arabic-Indic digits


def test_arabic_rules_lobby_and_boards_have_no_untranslated_words() -> None:
    from test_render_helpers import snapshot as lobby_snapshot

    from bot.present.render import render_leaderboard, render_lobby, render_rules, render_stats
    from storage.records import LeaderRow, PlayerStats

    t = translator("ar")
    texts = [render_rules(g, t) for g in ("tarneeb41", "tarneeb", "trix")]
    texts += [render_lobby(lobby_snapshot(g, None, status="lobby", seated=n), t, platform="discord").text
              for g in engine.GAME_IDS for n in (1, 4)]
    texts.append(render_leaderboard([LeaderRow("tg:1", "Ali", 3, 1, 27.4)], "trix", t).text)
    texts.append(render_stats([PlayerStats("tarneeb", 2, 0, 1, 20.0, -12)], "Ali", t).text)
    for text in texts:
        assert untranslated(text) == [], text
