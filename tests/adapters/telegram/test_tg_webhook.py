"""``majlis run --telegram --webhook`` as a real process against the fake Bot API (bot/adapters/telegram/app.py,
bot/app/runner.py).

The fake plays Telegram's side of a webhook: it records ``setWebhook`` and POSTs every update to the
address it was given, with the secret header. The test also POSTs to the listen port itself: without
the secret, or with a wrong one, an update is refused (403) and changes nothing.
"""

from __future__ import annotations

import json
import signal
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.adapters.processes import free_port, start_run, stop_run, wait_listening
from tests.adapters.telegram.fake_server import TOKEN, FakeTelegram
from tests.adapters.telegram.harness import join_url_payload

pytestmark = pytest.mark.slow  # majlis run as a real process

GROUP = -100888
HEADER = "X-Telegram-Bot-Api-Secret-Token"


def _update(update_id: int, user: dict[str, Any], text: str) -> dict[str, Any]:
    command = text.split(maxsplit=1)[0]
    return {"update_id": update_id, "message": {
        "message_id": 900 + update_id, "date": 1_800_000_000, "text": text, "from": user,
        "chat": {"id": GROUP, "type": "supergroup", "title": "Majlis"},
        "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}]}}


async def _post(url: str, update: dict[str, Any], headers: dict[str, str]) -> int:
    async with aiohttp.ClientSession() as s, s.post(url, data=json.dumps(update), headers={
            "Content-Type": "application/json", **headers}) as r:
        return r.status


async def test_webhook_applies_what_carries_the_secret_refuses_the_rest_and_stops_on_sigterm(
        tg: FakeTelegram, tmp_path: Path) -> None:
    people = [tg.add_user(601 + i, name, "en") for i, name in enumerate(["Ali", "Huda", "Omar", "Sara"])]
    tg.add_group(GROUP, admins=[people[0].user_id])
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg/hook"
    db = tmp_path / "hook.sqlite3"
    proc = await start_run("telegram", tmp_path, {
        "MAJLIS_TELEGRAM_TOKEN": TOKEN, "MAJLIS_TELEGRAM_BASE_URL": tg.base_url, "MAJLIS_DB": str(db),
        "PTB_TIMEDELTA": "1", "MAJLIS_LOG_LEVEL": "DEBUG", "MAJLIS_TELEGRAM_WEBHOOK_URL": url,
        "MAJLIS_TELEGRAM_WEBHOOK_PORT": str(port)}, ["--webhook"])
    try:
        await tg.wait_for(lambda: tg.webhook is not None, timeout=60)
        assert tg.webhook is not None
        secret = str(tg.webhook["secret_token"])
        assert tg.webhook["url"] == url and len(secret) >= 32
        # refused: no header, a wrong one (once the server listens)
        await wait_listening(port)
        statuses = [await _post(url, _update(10_000 + i, people[0].to_json(), "/new trix"), headers)
                    for i, headers in enumerate([{}, {HEADER: "not-the-secret"}])]
        assert statuses == [403, 403]
        # applied: what the fake delivers with the secret (a /new, three joins, a press)
        await tg.say(people[0], GROUP, "/lang en")
        await tg.say(people[0], GROUP, "/new tarneeb41 target=1")
        lobby = await tg.wait_for(lambda: tg.last_bot_message(GROUP, lambda m: "waiting for players" in m.text),
                                  timeout=30)
        assert "Tarneeb 41 · table 1 ·" in lobby.text  # not the refused /new trix
        payload = join_url_payload(lobby)
        for p in people[1:]:
            await tg.start_bot(p, payload)

        def mover() -> Any:
            for p in people:
                m = tg.last_bot_message(p.user_id, lambda m: any(
                    str(b.get("callback_data", "")).startswith("mj1:a:") for b in m.buttons))
                if m is not None:
                    return p, m
            return None

        person, hand = await tg.wait_for(mover, timeout=30)
        move = next(b["callback_data"] for b in hand.buttons if str(b.get("callback_data", "")).startswith("mj1:a:"))
        edits = len(lobby.history)
        answer = await tg.press(person, hand, move)
        assert not answer.text or answer.text.startswith("Your turn"), answer.text  # accepted
        await tg.wait_for(lambda: len(lobby.history) > edits, timeout=30)  # the table shows the move
        assert "getUpdates" not in tg.calls  # a webhook, not polling
        assert tg.deliveries and {status for _, status in tg.deliveries} == {200}
        # a reply still waiting out a 429 when SIGTERM comes is delivered before the exit
        tg.fail_next(GROUP, status=429, retry_after=2, methods=["sendmessage"])
        errors = sum(op.kind == "error" for op in tg.ops[GROUP])
        await tg.say(people[0], GROUP, "/help")
        await tg.wait_for(lambda: sum(op.kind == "error" for op in tg.ops[GROUP]) > errors, timeout=30)
    finally:
        code, err = await stop_run(proc, signal.SIGTERM)
    assert [m for m in tg.bot_messages(GROUP) if m.text.startswith("Majlis hosts")]  # the outbox drained
    log = err.decode()
    assert code == 0, log[-3000:]
    # the only tracebacks: PTB's, at DEBUG, of the two refused requests
    assert log.count("Traceback") == log.count("tornado.web.HTTPError: HTTP 403") == 2, log[-3000:]
    assert "setWebhook" in log  # PTB logged the call (at DEBUG) ...
    assert secret not in log  # ... but not the secret
    assert [m for m, _ in tg.webhook_calls] == ["setwebhook"]  # stopping leaves it set for the other workers
    with sqlite3.connect(db) as conn:  # the install's secret, kept for the next start and the other workers
        (stored,) = conn.execute("SELECT value FROM meta WHERE key = 'telegram_webhook_secret'").fetchone()
        (links,) = conn.execute("SELECT value FROM meta WHERE key = 'link_secret'").fetchone()
    assert stored == secret
    assert links not in log  # the join links' secret neither (the database driver logs parameters at DEBUG)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables").fetchone() == (1,)
