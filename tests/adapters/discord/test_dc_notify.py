"""The Discord side of opt-in notifications: a call names people as ``<@id>`` and lets only them be
pinged (``allowed_mentions``), in Arabic and English, as the fake Discord reads it."""

from __future__ import annotations

from bot.adapters.discord.transport import MAX_TEXT, message_payload
from bot.present.i18n import translator
from bot.present.render.notify import render_table_call, render_turn_mention
from tests.adapters.discord.fake_discord import pinged


def test_a_turn_mention_pings_only_its_person_and_any_other_message_nobody() -> None:
    for lang in ("ar", "en"):
        msg = render_turn_mention(("dc:77", "سارة"), 4, "trix", translator(lang))
        body = message_payload(msg, new=True)
        assert "<@77>" in body["content"] and "سارة" not in body["content"]
        assert pinged(body["content"], body["allowed_mentions"]) == [77]
        plain = message_payload(type(msg)(text="<@88> wrote <@77>"), new=True)
        assert pinged(plain["content"], plain["allowed_mentions"]) == []


def test_a_call_of_a_hundred_subscribers_is_one_message_within_discords_limits() -> None:
    people = [(f"dc:{10**17 + i}", f"Player {i}") for i in range(100)]
    for lang in ("ar", "en"):
        msg = render_table_call("lobby", "tarneeb41", people, translator(lang), max_chars=1800)
        body = message_payload(msg, new=True)
        assert len(body["content"]) <= MAX_TEXT
        users = pinged(body["content"], body["allowed_mentions"])
        assert users and len(users) <= 100 and len(set(users)) == len(users)
        assert set(users) <= {10**17 + i for i in range(100)}
        assert users == [10**17 + i for i in range(len(users))]  # the oldest subscribers first
