"""The action log holds the engine's canonical code, whatever spelling the engine accepted."""

from __future__ import annotations

import pytest

from storage.memory import MemoryRepository
from tests.core.test_manager_helpers import ALICE, make_manager, started_table, turn


@pytest.mark.parametrize("game", ["tarneeb41", "trix"])
async def test_play_10h_is_logged_as_play_th(game: str) -> None:
    repo = MemoryRepository()
    h = make_manager(repo, background=False)
    snap = await started_table(h, ALICE, game=game)
    for _ in range(2000):
        snap = h.manager.get(snap.table_id)  # type: ignore[assignment]
        assert snap is not None and snap.table.status == "playing"
        if turn(h, snap) != 0:
            await h.manager.run_due()
            continue
        legal = h.manager.view(snap.table_id, 0)["legal"]
        tens = [c for c in legal if c.startswith("play T")]
        if tens:
            typed = tens[0].replace("play T", "play 10").lower()  # "play 10h"
            await h.manager.act_current(snap.table_id, ALICE, typed)
            log = await repo.actions(snap.table_id)
            assert log[-1].action == tens[0] and log[-1].actor == ALICE.player_id
            return
        choice = next((c for c in legal if c.startswith("bid 5")), legal[-1] if "bid" in legal[0] else legal[0])
        await h.manager.act_current(snap.table_id, ALICE, choice)
        await h.manager.run_due()
    raise AssertionError("no ten to play")
