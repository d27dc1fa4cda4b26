"""A group upgraded to a supergroup (Telegram's ``ChatMigrated``): its live table, its settings and
its results follow it to the new id (bot/adapters/telegram/transport.py, TableManager.move_chat)."""

from __future__ import annotations

import pytest

from tests.adapters.telegram.harness import CHAT, GROUP, Bed, join_url_payload

NEW = -1009990001
NEW_CHAT = f"tg:{NEW}"


async def _lobby(bed: Bed) -> tuple[int, list]:  # type: ignore[type-arg]
    people = bed.people(["Ali", "Huda", "Omar", "Sara"], "en")
    tg = bed.tg
    tg.add_group(GROUP, admins=[people[0].user_id])
    await tg.say(people[0].user, GROUP, "/lang en")
    await tg.say(people[0].user, GROUP, "/new trix")
    snap = await tg.wait_for(lambda: bed.manager.table_in_chat(CHAT))
    await tg.wait_for(lambda: bed.table_message(snap.table_id))
    return snap.table_id, people


async def _moved(bed: Bed, tid: int) -> None:
    """The table, its chat's settings and its storage row are all at the new id."""
    await bed.tg.wait_for(lambda: bed.manager.table_in_chat(NEW_CHAT) is not None, timeout=20)
    assert bed.manager.table_in_chat(CHAT) is None
    snap = bed.manager.table_in_chat(NEW_CHAT)
    assert snap is not None and snap.table_id == tid
    stored = await bed.manager.repo.get_table(tid)
    assert stored is not None and stored.chat_id == NEW_CHAT
    assert (await bed.manager.chat_settings(NEW_CHAT)).lang == "en"  # the /lang choice came along


@pytest.mark.slow
async def test_a_send_that_meets_chat_migrated_moves_the_table_and_goes_to_the_supergroup(bed: Bed) -> None:
    tg = bed.tg
    tid, people = await _lobby(bed)
    payload = join_url_payload(bed.table_message(tid))  # type: ignore[arg-type]
    before = len(tg.ops[GROUP])
    await tg.migrate(GROUP, NEW, announce=False)  # the bot hears of it only when it writes there
    await tg.start_bot(people[1].user, payload)  # Huda joins: the lobby message must change
    await _moved(bed, tid)
    shown = await tg.wait_for(lambda: bed.table_message(tid, NEW), timeout=20)
    assert "Huda" in shown.text  # the lobby is shown again in the supergroup, up to date
    # the table goes on from the new chat
    for p in people[2:]:
        await tg.start_bot(p.user, payload)
    await tg.wait_for(lambda: bed.manager.get(tid).table.status == "playing", timeout=30)  # type: ignore[union-attr]
    assert len(tg.ops[GROUP]) == before  # nothing more reached the old group
    assert any(op.kind == "send" for op in tg.ops[NEW])


@pytest.mark.slow
async def test_the_service_message_alone_moves_the_table(bed: Bed) -> None:
    tid, people = await _lobby(bed)
    await bed.tg.migrate(GROUP, NEW)  # Telegram posts "migrate_to_chat_id" / "migrate_from_chat_id"
    await _moved(bed, tid)
    await bed.tg.wait_for(lambda: bed.table_message(tid, NEW), timeout=20)
    await bed.tg.say(people[0].user, NEW, "/stop")  # commands in the supergroup find the table
    await bed.tg.wait_for(lambda: bed.manager.table_in_chat(NEW_CHAT) is None, timeout=20)
