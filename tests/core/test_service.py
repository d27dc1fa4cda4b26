"""The one dispatch (bot/core/service.py) and the signed join links (bot/core/links.py), without a platform."""

from __future__ import annotations

import re

import pytest

from bot.core.commands import Act, Actor, Begin, ChangeSettings, Claim, Join, JoinByLink, SetLanguage, Stop
from bot.core.errors import TableError
from bot.core.identity import ascii_int
from bot.core.links import Links
from bot.core.model import Person
from bot.core.service import Service
from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, BOB, CHAT, make_manager

OTHER = "tg:-200"


async def yes() -> bool:
    return True


def code(e: pytest.ExceptionInfo[TableError]) -> str:
    return e.value.code


async def test_join_links_are_signed_short_and_url_safe_and_survive_a_restart() -> None:
    repo = MemoryRepository()
    links = await Links.load(repo)
    payload = links.join_payload(123456789)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)
    assert links.table_of(payload) == 123456789
    assert (await Links.load(repo)).table_of(payload) == 123456789  # the secret is stored once
    assert (await Links.load(MemoryRepository())).join_payload(123456789) != payload  # per install
    for forged in ("j123456789", payload[:-1] + ("A" if payload[-1] != "A" else "B"), "j1_" + payload[11:],
                   "j²_" + payload[11:], "x" + payload[1:], ""):
        with pytest.raises(TableError) as e:
            links.table_of(forged)
        assert code(e) == "bad_link"


def test_ascii_digits_only() -> None:
    assert ascii_int("12") == 12 and ascii_int("-3") == -3
    assert ascii_int("²") is None and ascii_int("①") is None and ascii_int("١") is None and ascii_int("") is None


async def test_a_command_touches_only_the_live_table_of_the_chat_it_came_from() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    a = await h.manager.create(CHAT, ALICE, "trix")
    b = await h.manager.create(OTHER, BOB, "trix")
    for cmd in (Join(b.table_id), Begin(b.table_id), Stop(b.table_id), Claim(1, b.table_id),
                Act(b.table_id, 0, "play 2C")):
        with pytest.raises(TableError) as e:
            await service.dispatch(cmd, Actor(ALICE, CHAT, yes))
        assert code(e) == "wrong_table", cmd
    with pytest.raises(TableError) as e:  # from a private chat: only a table where one sits
        await service.dispatch(Begin(b.table_id), Actor(ALICE, f"dm:{ALICE.player_id}"))
    assert code(e) == "not_seated"
    assert h.manager.get(b.table_id).table.seats == b.table.seats  # type: ignore[union-attr]
    assert h.manager.get(a.table_id).table.version == 0  # type: ignore[union-attr]


async def test_a_leaver_reclaims_only_the_seat_they_left() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    await h.manager.create(CHAT, ALICE, "trix")
    await h.manager.join(CHAT, BOB)
    await h.manager.begin(CHAT, ALICE)
    await h.manager.leave(CHAT, BOB)
    with pytest.raises(TableError) as e:
        await service.dispatch(Claim(2), Actor(BOB, CHAT))
    assert code(e) == "left_seat" and e.value.params == {"seat": 1}
    snap = await service.dispatch(Claim(1), Actor(BOB, CHAT))
    assert snap.seat_of(BOB.player_id) == 1


async def test_admin_rules_and_anonymous_admins() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    anonymous = Actor(Person("tg:1087968824", "Group"), CHAT, yes, can_sit=False)
    with pytest.raises(TableError) as e:
        await service.dispatch(ChangeSettings({"turn_seconds": 30}), Actor(BOB, CHAT))
    assert code(e) == "admins_only"
    with pytest.raises(TableError) as e:
        await service.dispatch(SetLanguage("ar"), Actor(BOB, CHAT))
    assert code(e) == "admins_only"
    assert (await service.dispatch(ChangeSettings({"turn_seconds": 30}), anonymous)).turn_seconds == 30
    with pytest.raises(TableError) as e:
        await service.dispatch(Join(), anonymous)
    assert code(e) in ("anonymous", "no_table")
    await h.manager.create(CHAT, ALICE, "trix")
    with pytest.raises(TableError) as e:
        await service.dispatch(Join(), anonymous)
    assert code(e) == "anonymous"
    with pytest.raises(TableError) as e:
        await service.dispatch(Stop(), Actor(BOB, CHAT))
    assert code(e) == "not_allowed"
    snap = await service.dispatch(Stop(), anonymous)
    assert snap.table.status == "stopped"


async def test_a_deep_link_to_a_started_or_ended_table_is_old() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    snap = await h.manager.create(CHAT, ALICE, "trix")
    payload = h.manager.links.join_payload(snap.table_id)
    dm = Actor(BOB, f"dm:{BOB.player_id}")
    joined = await service.dispatch(JoinByLink(payload), dm)
    assert joined.seat_of(BOB.player_id) == 1
    await h.manager.begin(CHAT, ALICE)
    carol = Person("tg:3", "Carol")
    with pytest.raises(TableError) as e:
        await service.dispatch(JoinByLink(payload), Actor(carol, f"dm:{carol.player_id}"))
    assert code(e) == "link_expired"
