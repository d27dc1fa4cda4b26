"""Play again (bot/core/tables/lobby.py ``rematch``, the ``Rematch`` command): a finished match opens the next."""

from __future__ import annotations

import pytest

from bot.core.commands import Actor, Rematch
from bot.core.errors import TableError
from bot.core.model import Person, TableSnapshot
from bot.core.service import Service
from storage import open_repository
from storage.memory import MemoryRepository
from storage.records import FINISHED
from tests.core.test_manager_helpers import ALICE, BOB, CAROL, CHAT, DAN, EVE, Harness, make_manager, started_table

SHORT = {"target": 31}


async def yes() -> bool:
    return True


async def finished(h: Harness, *people: Person, game: str = "tarneeb", lang: str | None = None) -> TableSnapshot:
    snap = await started_table(h, *people, game=game, options=SHORT if game != "trix" else None)
    if lang is not None:  # the match's own language (as a chat that changed its language since would have)
        h.manager._tables[snap.table_id].update(lang=lang)
    table = h.manager._tables[snap.table_id]  # the end of a match (its result, its events) is tested elsewhere:
    table.update(status=FINISHED, deadline=None)  # here only what Play again reads of a finished one
    table.record = await h.repo.save_table(table.record)
    done = h.manager.get(snap.table_id)
    assert done is not None and done.table.status == "finished"
    return done


def people(snap: TableSnapshot) -> list[str | None]:
    return [None if s.is_ai else s.player_id for s in snap.table.seats]


async def test_play_again_alone_with_the_ai_begins_a_new_match_at_once_with_the_same_game_and_options() -> None:
    h = make_manager(MemoryRepository(), seed_source=None)
    old = await finished(h, ALICE, lang="en")
    new = await Service(h.manager).dispatch(Rematch(old.table_id), Actor(ALICE, CHAT))
    assert new.table_id != old.table_id and new.table.status == "playing"
    assert new.table.game == old.table.game and new.table.options["target"] == 31
    assert new.table.lang == "en" and new.table.seed != old.table.seed
    assert people(new) == ["tg:1", None, None, None]
    assert h.events("table_created")[-1] == {"type": "table_created", "game": "tarneeb", "rematch_of": old.table_id}


async def test_play_again_with_four_people_opens_a_lobby_with_the_same_four_in_their_seats() -> None:
    h = make_manager(MemoryRepository())
    old = await finished(h, ALICE, BOB, CAROL, DAN)
    new = await Service(h.manager).dispatch(Rematch(old.table_id), Actor(CAROL, CHAT))
    assert new.table.status == "lobby"
    assert people(new) == ["tg:1", "tg:2", "tg:3", "tg:4"]
    assert [s.name for s in new.table.seats] == ["Alice", "Bob", "Carol", "Dan"]
    started = await h.manager.begin(CHAT, BOB)  # anyone seated starts it
    assert started.table.status == "playing"


async def test_swap_partners_trades_the_people_of_seats_one_and_two() -> None:
    h = make_manager(MemoryRepository())
    old = await finished(h, ALICE, BOB, CAROL, DAN)
    new = await Service(h.manager).dispatch(Rematch(old.table_id, swap=True), Actor(ALICE, CHAT))
    assert people(new) == ["tg:1", "tg:3", "tg:2", "tg:4"]  # Alice now partners Bob, Carol partners Dan


async def test_ai_seats_stay_ai_and_a_second_press_answers_the_table_it_opened() -> None:
    h = make_manager(MemoryRepository())
    old = await finished(h, ALICE, BOB)
    service = Service(h.manager)
    first = await service.dispatch(Rematch(old.table_id), Actor(BOB, CHAT))
    again = await service.dispatch(Rematch(old.table_id), Actor(ALICE, CHAT))
    assert first.table_id == again.table_id and people(again) == ["tg:1", "tg:2", None, None]
    assert len(h.events("table_created")) == 2  # the old table and the new one, not a third


async def test_only_its_players_or_an_admin_may_play_a_match_again_and_only_from_its_chat() -> None:
    h = make_manager(MemoryRepository())
    old = await finished(h, ALICE, BOB)
    service = Service(h.manager)
    with pytest.raises(TableError) as e:
        await service.dispatch(Rematch(old.table_id), Actor(EVE, CHAT))
    assert e.value.code == "not_allowed" and e.value.params == {"what": "rematch"}
    with pytest.raises(TableError) as e:
        await service.dispatch(Rematch(old.table_id), Actor(ALICE, "tg:-200"))
    assert e.value.code == "wrong_table"
    with pytest.raises(TableError) as e:  # a private chat: only someone who sat at it
        await service.dispatch(Rematch(old.table_id), Actor(EVE, f"dm:{EVE.player_id}"))
    assert e.value.code == "not_seated"
    with pytest.raises(TableError) as e:
        await service.dispatch(Rematch(old.table_id), Actor(Person("tg:9", "Group"), CHAT, yes, can_sit=False))
    assert e.value.code == "anonymous"
    assert h.manager.table_in_chat(CHAT) is None  # nothing was opened
    new = await service.dispatch(Rematch(old.table_id), Actor(EVE, CHAT, yes))  # an admin: the first free seat
    assert people(new) == ["tg:1", "tg:2", "tg:5", None]


async def test_play_again_is_refused_while_the_match_runs_or_while_another_table_is_live() -> None:
    h = make_manager(MemoryRepository())
    service = Service(h.manager)
    running = await started_table(h, ALICE, game="tarneeb", options=SHORT)
    with pytest.raises(TableError) as e:
        await service.dispatch(Rematch(running.table_id), Actor(ALICE, CHAT))
    assert e.value.code == "not_over"
    table = h.manager._tables[running.table_id]
    table.update(status=FINISHED, deadline=None)
    table.record = await h.repo.save_table(table.record)
    done = running
    await h.manager.create(CHAT, BOB, "trix")
    with pytest.raises(TableError) as e:
        await service.dispatch(Rematch(done.table_id), Actor(ALICE, CHAT))
    assert e.value.code == "table_exists"
    with pytest.raises(TableError) as e:
        await service.dispatch(Rematch(10_000), Actor(ALICE, CHAT))
    assert e.value.code == "no_table"


async def test_play_again_after_a_restart_reads_the_finished_match_from_storage(tmp_path: object) -> None:
    path = f"{tmp_path}/m.db"
    repo = await open_repository(path)
    h = make_manager(repo)
    old = await finished(h, ALICE, BOB)
    await h.manager.close()
    await repo.close()
    repo = await open_repository(path)
    try:
        h2 = make_manager(repo)
        await h2.manager.start()
        assert h2.manager.get(old.table_id) is None  # not held: read from the file
        new = await Service(h2.manager).dispatch(Rematch(old.table_id), Actor(BOB, CHAT))
        assert people(new) == ["tg:1", "tg:2", None, None] and new.table.status == "lobby"
        await h2.manager.close()
    finally:
        await repo.close()


async def test_a_tournament_match_is_not_played_again_while_its_tournament_runs() -> None:
    """Play again on a tournament match's result would take the table the bracket calls its next match to."""
    from types import SimpleNamespace

    h = make_manager(MemoryRepository())
    old = await finished(h, ALICE, BOB, CAROL, DAN)
    running = SimpleNamespace(open=True, matches=[SimpleNamespace(table_id=old.table_id)])

    async def chat_tournament(chat_id: str) -> object:
        return running if chat_id == CHAT else None

    h.repo.chat_tournament = chat_tournament  # type: ignore[method-assign]
    with pytest.raises(TableError) as e:
        await Service(h.manager).dispatch(Rematch(old.table_id), Actor(ALICE, CHAT))
    assert e.value.code == "not_allowed" and e.value.params == {"what": "tournament"}
    assert h.manager.table_in_chat(CHAT) is None
    running.open = False  # once it is over, the players may play again as after any match
    assert (await Service(h.manager).dispatch(Rematch(old.table_id), Actor(ALICE, CHAT))).table.status == "lobby"
