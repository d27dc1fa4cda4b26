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
from storage.tournaments import Tournament, TourneyStatus

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
