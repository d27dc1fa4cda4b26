"""The repository contract, run unchanged against memory, a real SQLite file and a real PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from storage.errors import ChatHasLiveTable
from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.ratings import DEFAULT, GLOBAL, rate_match
from storage.records import (
    CANCELLED,
    FINISHED,
    LOBBY,
    PLAYING,
    STOPPED,
    ActionRecord,
    ChatRecord,
    MatchResult,
    PlayerRecord,
    PlayerResult,
    Seat,
    TableRecord,
)
from storage.repository import TableConflict, VersionConflict
from storage.sqlite import SQLiteRepository

Repo = MemoryRepository | SQLiteRepository | PostgresRepository
Reopen = Callable[[Repo], Awaitable[Repo]]
HUMANS = ("tg:1", "tg:2", "tg:3", "tg:4")


def make_table(chat: str = "tg:-100", game: str = "tarneeb", status: str = PLAYING,
               players: tuple[str, str, str, str] = HUMANS, **changes: object) -> TableRecord:
    seats = tuple(Seat(player_id=p, name=p.upper(), is_ai=p.startswith("ai:")) for p in players)
    table = TableRecord(
        table_id=0, chat_id=chat, game=game, options={"target": 31}, seed=1234, dealer=0,
        creator=players[0], status=status, seats=seats,  # type: ignore[arg-type]
        created_at=1000.0,
    )
    return replace(table, **changes)  # type: ignore[arg-type]


async def new_table(repo: Repo, **kw: object) -> TableRecord:
    table = make_table(**kw)  # type: ignore[arg-type]
    table_id = await repo.create_table(table)
    got = await repo.get_table(table_id)
    assert got is not None
    return got


def act(table: TableRecord, seq: int, action: str = "play QS", seat: int = 0) -> tuple[ActionRecord, TableRecord]:
    return (ActionRecord(table.table_id, seq, seat, action, table.seats[seat].player_id or "timer", 2000.0 + seq),
            replace(table, version=seq, deadline=3000.0 + seq))


async def play(repo: Repo, table: TableRecord, n: int) -> TableRecord:
    for seq in range(table.version + 1, table.version + n + 1):
        action, table = act(table, seq, f"bid {seq}")
        table = await repo.append_action(action, table)
    return table


def result(table: TableRecord, winners: set[int], scores: list[int] | None = None,
           left: set[int] = frozenset(), players: tuple[str, ...] | None = None) -> MatchResult:  # type: ignore[assignment]
    ids = players or tuple(s.player_id or "" for s in table.seats)
    scores = scores or [10 if i in winners else 0 for i in range(4)]
    return MatchResult(
        table_id=table.table_id, chat_id=table.chat_id, game=table.game, finished_at=5000.0,
        results=tuple(PlayerResult(ids[i], i, scores[i], i in winners, i in left) for i in range(4)),
        scores={"players": scores, "teams": [scores[0] + scores[2], scores[1] + scores[3]]},
    )


async def finish(repo: Repo, table: TableRecord, res: MatchResult) -> TableRecord:
    done = replace(table, status=FINISHED, deadline=None)
    return await repo.record_match(res, done)


# --- chats and players ---------------------------------------------------------------------------


async def test_chat_round_trip_and_overwrite(repo: Repo) -> None:
    assert await repo.get_chat("tg:-100") is None
    chat = ChatRecord("tg:-100/7", lang="ar", turn_seconds=45, digits="arabic",
                      default_options={"tarneeb": {"target": 41}}, ai_level="strong")
    await repo.save_chat(chat)
    assert await repo.get_chat("tg:-100/7") == chat
    await repo.save_chat(replace(chat, lang="en", default_options={}))
    assert await repo.get_chat("tg:-100/7") == replace(chat, lang="en", default_options={})
    assert await repo.get_chat("tg:-100") is None


async def test_a_deleted_chat_is_forgotten_and_others_are_kept(repo: Repo) -> None:
    await repo.save_chat(ChatRecord("dc:1", turn_seconds=90))
    await repo.save_chat(ChatRecord("dc:guild:7", turn_seconds=45))
    assert await repo.delete_chat("dc:1") is True
    assert await repo.get_chat("dc:1") is None
    assert await repo.delete_chat("dc:1") is False  # nothing left to forget
    assert await repo.get_chat("dc:guild:7") == ChatRecord("dc:guild:7", turn_seconds=45)
    await repo.save_chat(ChatRecord("dc:1", lang="en"))  # and it may be stored again
    assert await repo.get_chat("dc:1") == ChatRecord("dc:1", lang="en")


async def test_chat_defaults_round_trip(repo: Repo) -> None:
    await repo.save_chat(ChatRecord("dc:1"))
    assert await repo.get_chat("dc:1") == ChatRecord("dc:1")


@pytest.mark.parametrize("dm_ok", [None, True, False])
async def test_player_round_trip(repo: Repo, dm_ok: bool | None) -> None:
    assert await repo.get_player("tg:42") is None
    player = PlayerRecord("tg:42", "سامي", lang="ar", dm_ok=dm_ok)
    await repo.save_player(player)
    assert await repo.get_player("tg:42") == player
    await repo.save_player(replace(player, name="Sami", lang=None))
    assert await repo.get_player("tg:42") == replace(player, name="Sami", lang=None)


# --- tables ---------------------------------------------------------------------------------------


async def test_create_table_assigns_new_ids_and_keeps_every_field(repo: Repo) -> None:
    table = make_table(
        table_id=99, seats=(Seat("tg:1", "A"), Seat(), Seat("ai:easy:2", "AI", is_ai=True),
                            Seat("ai:easy:3", "AI 2", is_ai=True, owner="tg:4", away=True, auto_streak=2)),
        deadline=1234.5, warned=True, lobby_deadline=999.0, message_ids={"table": "77", "hand:tg:1": "78"},
        lang="ar", ai_level="easy", dealer=None, version=0,
    )
    first = await repo.create_table(table)
    second = await repo.create_table(replace(table, chat_id="tg:-101"))
    assert first != 99 and second > first
    got = await repo.get_table(first)
    assert got == replace(table, table_id=first)
    assert await repo.get_table(second + 100) is None


async def test_a_tables_own_state_round_trips_beside_its_message_ids(repo: Repo) -> None:
    table = await new_table(repo)
    changed = replace(table, message_ids={"table:1": "5"}, parked=3, left_seats={"tg:9": 2},
                      shown={"table:1": "4:ab", "hand:1:tg:1": "4:cd"})
    saved = await repo.save_table(changed)
    assert await repo.get_table(table.table_id) == saved == replace(changed, rev=table.rev + 1)
    action, moved = act(replace(saved, parked=0, left_seats={}), 1)
    appended = await repo.append_action(action, moved)
    got = await repo.get_table(table.table_id)
    assert got == appended and (got.parked, got.left_seats, got.shown) == (0, {}, saved.shown)


async def test_save_table_overwrites_and_refuses_an_unknown_table(repo: Repo) -> None:
    table = await new_table(repo, status=LOBBY)
    changed = replace(table, status=PLAYING, seats=(Seat("tg:9", "N"), *table.seats[1:]),
                      message_ids={"table": "5"}, deadline=42.0)
    saved = await repo.save_table(changed)
    assert saved == replace(changed, rev=table.rev + 1)
    assert await repo.get_table(table.table_id) == saved
    with pytest.raises(KeyError):
        await repo.save_table(replace(table, table_id=table.table_id + 1000))


async def test_live_tables_are_lobby_and_playing_oldest_first(repo: Repo) -> None:
    ids = {}
    for i, status in enumerate((PLAYING, FINISHED, LOBBY, CANCELLED, STOPPED, PLAYING)):
        ids.setdefault(status, []).append((await new_table(repo, chat=f"tg:-{i}", status=status)).table_id)
    live = await repo.live_tables()
    assert [t.table_id for t in live] == sorted(ids[PLAYING] + ids[LOBBY])
    assert all(t.status in (LOBBY, PLAYING) for t in live)


async def test_list_tables_gives_every_status_newest_first_up_to_the_limit(repo: Repo) -> None:
    assert await repo.list_tables() == []
    made = [await new_table(repo, chat=f"tg:-{i}", status=status)
            for i, status in enumerate((PLAYING, FINISHED, LOBBY, CANCELLED, STOPPED))]
    newest_first = [t.table_id for t in reversed(made)]
    assert [t.table_id for t in await repo.list_tables()] == newest_first
    assert [t.table_id for t in await repo.list_tables(2)] == newest_first[:2]
    assert await repo.list_tables(0) == []
    assert await repo.list_tables(99) == await repo.list_tables()
    assert (await repo.list_tables(1))[0] == await repo.get_table(made[-1].table_id)  # whole records
    with pytest.raises(ValueError):
        await repo.list_tables(-1)


async def test_values_come_back_json_shaped_and_unshared(repo: Repo) -> None:
    options = {"target": 31, "pair": (1, 2)}
    table = await new_table(repo, options=options)
    assert table.options == {"target": 31, "pair": [1, 2]}
    table.options["target"] = 1  # a caller mutating what it got back changes nothing stored
    options["target"] = 2
    again = await repo.get_table(table.table_id)
    assert again is not None and again.options["target"] == 31


# --- the action log -------------------------------------------------------------------------------


async def test_append_action_keeps_the_log_and_the_table_together(repo: Repo) -> None:
    table = await new_table(repo)
    table = await play(repo, table, 5)
    log = await repo.actions(table.table_id)
    assert [a.seq for a in log] == [1, 2, 3, 4, 5]
    assert [a.action for a in log] == [f"bid {i}" for i in range(1, 6)]
    assert log[0] == ActionRecord(table.table_id, 1, 0, "bid 1", "tg:1", 2001.0)
    assert await repo.get_table(table.table_id) == table
    assert table.version == 5
    assert [a.seq for a in await repo.actions(table.table_id, after_seq=3)] == [4, 5]
    assert await repo.actions(table.table_id, after_seq=5) == []
    assert await repo.actions(table.table_id + 1000) == []


@pytest.mark.parametrize("seq", [1, 2, 4, 10])
async def test_a_wrong_seq_is_a_version_conflict_and_changes_nothing(repo: Repo, seq: int) -> None:
    table = await new_table(repo)
    table = await play(repo, table, 2)
    action, moved = act(table, seq, "play AS")
    with pytest.raises(VersionConflict):
        await repo.append_action(action, moved)
    assert [a.action for a in await repo.actions(table.table_id)] == ["bid 1", "bid 2"]
    assert await repo.get_table(table.table_id) == table


async def test_a_doubled_press_applies_once_when_both_arrive_together(repo: Repo) -> None:
    table = await new_table(repo)
    action, moved = act(table, 1)
    outcomes = await asyncio.gather(*(repo.append_action(action, moved) for _ in range(5)),
                                    return_exceptions=True)
    assert sum(isinstance(o, TableRecord) for o in outcomes) == 1
    assert all(isinstance(o, VersionConflict) for o in outcomes if not isinstance(o, TableRecord))
    assert len(await repo.actions(table.table_id)) == 1


async def test_append_refuses_an_unknown_table_and_inconsistent_arguments(repo: Repo) -> None:
    table = await new_table(repo)
    ghost = replace(table, table_id=table.table_id + 1000)
    with pytest.raises(KeyError):
        await repo.append_action(*act(ghost, 1))
    action, moved = act(table, 1)
    with pytest.raises(ValueError, match="version"):
        await repo.append_action(action, replace(moved, version=7))
    with pytest.raises(ValueError):
        await repo.append_action(replace(action, table_id=ghost.table_id), moved)
    assert await repo.actions(table.table_id) == []


async def test_a_failure_inside_append_leaves_nothing_half_written(repo: Repo) -> None:
    table = await new_table(repo)
    table = await play(repo, table, 1)
    action, moved = act(table, 2)
    bad = replace(moved, message_ids={"table": object()})  # JSON cannot hold it
    with pytest.raises(TypeError):
        await repo.append_action(action, bad)  # type: ignore[arg-type]
    assert [a.seq for a in await repo.actions(table.table_id)] == [1]
    assert await repo.get_table(table.table_id) == table
    moved = await repo.append_action(action, moved)  # the same seq is still free
    assert [a.seq for a in await repo.actions(table.table_id)] == [1, 2]


async def test_many_tables_appending_at_once_never_mix(repo: Repo) -> None:
    tables = [await new_table(repo, chat=f"tg:{i}") for i in range(20)]

    async def run(table: TableRecord) -> None:
        for seq in range(1, 16):
            action, table = act(table, seq, f"play {table.table_id}-{seq}")
            table = await repo.append_action(action, table)

    await asyncio.gather(*(run(t) for t in tables))
    for t in tables:
        log = await repo.actions(t.table_id)
        assert [a.seq for a in log] == list(range(1, 16))
        assert all(a.action == f"play {t.table_id}-{a.seq}" for a in log)
        stored = await repo.get_table(t.table_id)
        assert stored is not None and stored.version == 15


async def test_one_refused_write_does_not_spoil_writes_batched_with_it(repo: Repo) -> None:
    a, b = await new_table(repo), await new_table(repo, chat="tg:-101")
    outcomes = await asyncio.gather(
        repo.append_action(*act(a, 1)), repo.append_action(*act(b, 3)), repo.append_action(*act(b, 1)),
        return_exceptions=True)
    assert isinstance(outcomes[0], TableRecord) and isinstance(outcomes[2], TableRecord)
    assert isinstance(outcomes[1], VersionConflict)
    assert len(await repo.actions(a.table_id)) == 1 and len(await repo.actions(b.table_id)) == 1


async def test_a_stale_append_batched_with_good_ones_is_refused_alone(repo: Repo) -> None:
    a, b, c = await new_table(repo), await new_table(repo, chat="tg:-101"), await new_table(repo, chat="tg:-102")
    b = await repo.save_table(replace(b, deadline=1.0))  # b's rev moves on: the append below is stale
    stale = replace(b, rev=b.rev - 1)
    outcomes = await asyncio.gather(
        repo.append_action(*act(a, 1)), repo.append_action(*act(stale, 1)), repo.append_action(*act(c, 1)),
        return_exceptions=True)
    assert isinstance(outcomes[0], TableRecord) and isinstance(outcomes[2], TableRecord)
    assert isinstance(outcomes[1], TableConflict)
    assert [len(await repo.actions(t.table_id)) for t in (a, b, c)] == [1, 0, 1]
    assert await repo.get_table(b.table_id) == b


async def test_two_appends_to_one_table_in_one_batch_both_land_in_order(repo: Repo) -> None:
    table = await new_table(repo)
    first, moved = act(table, 1)
    second, moved_again = act(replace(moved, rev=moved.rev + 1), 2)
    outcomes = await asyncio.gather(repo.append_action(first, moved), repo.append_action(second, moved_again))
    assert [o.rev for o in outcomes] == [table.rev + 1, table.rev + 2]
    assert [a.seq for a in await repo.actions(table.table_id)] == [1, 2]
    assert await repo.get_table(table.table_id) == outcomes[1]


# --- snapshots and restore ------------------------------------------------------------------------


async def test_snapshots_keep_the_latest(repo: Repo) -> None:
    table = await new_table(repo)
    assert await repo.latest_snapshot(table.table_id) is None
    table = await play(repo, table, 6)
    await repo.save_snapshot(table.table_id, 4, {"deal": [1, 2], "phase": "play"})
    assert await repo.latest_snapshot(table.table_id) == (4, {"deal": [1, 2], "phase": "play"})
    await repo.save_snapshot(table.table_id, 2, {"old": True})
    assert await repo.latest_snapshot(table.table_id) == (4, {"deal": [1, 2], "phase": "play"})
    await repo.save_snapshot(table.table_id, 6, {"new": True})
    assert await repo.latest_snapshot(table.table_id) == (6, {"new": True})
    with pytest.raises(ValueError):
        await repo.save_snapshot(table.table_id, 7, {"future": True})
    with pytest.raises(KeyError):
        await repo.save_snapshot(table.table_id + 1000, 0, {})
    assert await repo.latest_snapshot(table.table_id) == (6, {"new": True})


async def test_live_tables_with_logs_gives_the_tail_after_the_snapshot(repo: Repo) -> None:
    plain = await play(repo, await new_table(repo), 3)
    snapped = await play(repo, await new_table(repo, chat="tg:-101"), 5)
    await repo.save_snapshot(snapped.table_id, 3, {"at": 3})
    lobby = await new_table(repo, chat="tg:-102", status=LOBBY)
    ended = await play(repo, await new_table(repo, chat="tg:-103"), 2)
    done = await finish(repo, ended, result(ended, {0, 2}))
    restored = await repo.live_tables_with_logs()
    assert [t.table_id for t, _, _ in restored] == [plain.table_id, snapped.table_id, lobby.table_id]
    by_id = {t.table_id: (t, snap, log) for t, snap, log in restored}
    assert by_id[plain.table_id] == (plain, None, await repo.actions(plain.table_id))
    assert by_id[snapped.table_id][1] == (3, {"at": 3})
    assert [a.seq for a in by_id[snapped.table_id][2]] == [4, 5]
    assert by_id[lobby.table_id] == (lobby, None, [])
    assert done.table_id not in by_id


async def test_reopen_keeps_everything(repo: Repo, reopen: Reopen) -> None:
    await repo.save_chat(ChatRecord("tg:-100", lang="ar", default_options={"trix": {"doubling": True}}))
    await repo.save_player(PlayerRecord("tg:1", "One", "en", True))
    ended = await play(repo, await new_table(repo), 2)
    ended = await finish(repo, ended, result(ended, {0, 2}))
    live = await play(repo, await new_table(repo), 4)
    await repo.save_snapshot(live.table_id, 2, {"x": 1})
    board = await repo.leaderboard("tg:-100", "tarneeb")
    stats = await repo.player_stats("tg:1")

    again = await reopen(repo)
    assert await again.get_chat("tg:-100") == ChatRecord("tg:-100", lang="ar",
                                                        default_options={"trix": {"doubling": True}})
    assert await again.get_player("tg:1") == PlayerRecord("tg:1", "One", "en", True)
    assert await again.get_table(live.table_id) == live
    assert await again.get_table(ended.table_id) == ended
    assert [a.seq for a in await again.actions(live.table_id)] == [1, 2, 3, 4]
    assert await again.latest_snapshot(live.table_id) == (2, {"x": 1})
    assert [t.table_id for t in await again.live_tables()] == [live.table_id]
    assert await again.table_results(ended.table_id) == result(ended, {0, 2})
    assert await again.leaderboard("tg:-100", "tarneeb") == board
    assert await again.player_stats("tg:1") == stats
    assert await again.create_table(make_table(chat="tg:-101")) > live.table_id


# --- results, ratings and scoreboards -------------------------------------------------------------


async def test_record_match_saves_the_table_and_the_result(repo: Repo) -> None:
    table = await play(repo, await new_table(repo), 3)
    res = result(table, {1, 3}, scores=[12, 31, 12, 31])
    done = await finish(repo, table, res)
    assert await repo.get_table(table.table_id) == done
    assert await repo.table_results(table.table_id) == res
    assert await repo.table_results(table.table_id + 1000) is None
    assert await repo.live_tables() == []


async def test_recording_a_table_twice_counts_once(repo: Repo) -> None:
    table = await new_table(repo)
    res = result(table, {0, 2})
    await finish(repo, table, res)
    board = await repo.leaderboard("tg:-100", "tarneeb")
    await finish(repo, table, result(table, {1, 3}))
    assert await repo.leaderboard("tg:-100", "tarneeb") == board
    assert await repo.table_results(table.table_id) == res
    assert [r.matches for r in board] == [1, 1, 1, 1]


async def test_record_match_refuses_a_result_of_another_table(repo: Repo) -> None:
    a, b = await new_table(repo), await new_table(repo, chat="tg:-101")
    with pytest.raises(ValueError):
        await repo.record_match(result(a, {0, 2}), b)
    assert await repo.table_results(a.table_id) is None and await repo.table_results(b.table_id) is None


async def test_team_winners_go_up_and_losers_down(repo: Repo) -> None:
    table = await new_table(repo)
    await finish(repo, table, result(table, {0, 2}))
    board = {r.player_id: r for r in await repo.leaderboard("tg:-100", "tarneeb")}
    fresh = DEFAULT.display
    assert board["tg:1"].rating == board["tg:3"].rating
    assert board["tg:2"].rating == board["tg:4"].rating
    assert board["tg:1"].rating > board["tg:2"].rating
    assert board["tg:1"].wins == 1 and board["tg:2"].wins == 0
    assert board["tg:1"].win_rate == 1.0 and board["tg:2"].win_rate == 0.0
    # the conservative ordinal: a first win shows above a newcomer, a first loss below a win
    assert board["tg:1"].rating > fresh


async def test_leaderboard_order_is_rating_then_wins_and_respects_limit(repo: Repo) -> None:
    for winners in ({0, 2}, {0, 2}, {1, 3}):
        table = await new_table(repo)
        await finish(repo, table, result(table, winners))
    board = await repo.leaderboard("tg:-100", "tarneeb")
    assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)
    assert {r.player_id for r in board[:2]} == {"tg:1", "tg:3"}
    assert board[0].matches == 3 and board[0].wins == 2
    assert len(await repo.leaderboard("tg:-100", "tarneeb", limit=3)) == 3
    assert await repo.leaderboard("tg:-100", "trix") == []
    assert await repo.leaderboard("tg:-999", "tarneeb") == []


async def test_leaderboard_uses_player_names(repo: Repo) -> None:
    await repo.save_player(PlayerRecord("tg:1", "Layla"))
    table = await new_table(repo)
    await finish(repo, table, result(table, {0, 2}))
    names = {r.player_id: r.name for r in await repo.leaderboard("tg:-100", "tarneeb")}
    assert names["tg:1"] == "Layla" and names["tg:2"] == "tg:2"


async def test_a_leaver_counts_as_a_loss_even_when_the_team_wins(repo: Repo) -> None:
    table = await new_table(repo)
    await finish(repo, table, result(table, {0, 2}, left={2}))
    board = {r.player_id: r for r in await repo.leaderboard("tg:-100", "tarneeb")}
    assert board["tg:3"].wins == 0
    assert board["tg:3"].rating < board["tg:1"].rating
    assert board["tg:3"].rating == board["tg:2"].rating  # rated exactly as the losing side
    stats = await repo.player_stats("tg:3")
    assert stats[0].left == 1 and stats[0].wins == 0


async def test_trix_ranks_by_score_and_ties_share_a_rank(repo: Repo) -> None:
    table = await new_table(repo, game="trix")
    await finish(repo, table, result(table, {0}, scores=[300, 100, 100, -50]))
    board = {r.player_id: r for r in await repo.leaderboard("tg:-100", "trix")}
    assert board["tg:1"].rating > board["tg:2"].rating > board["tg:4"].rating
    assert board["tg:2"].rating == board["tg:3"].rating


async def test_a_trix_leaver_ranks_last_whatever_the_score(repo: Repo) -> None:
    table = await new_table(repo, game="trix")
    await finish(repo, table, result(table, {0}, scores=[300, 200, 100, 0], left={0}))
    board = {r.player_id: r for r in await repo.leaderboard("tg:-100", "trix")}
    assert min(board.values(), key=lambda r: r.rating).player_id == "tg:1"
    assert board["tg:1"].wins == 0


async def test_ai_seats_are_rated_against_but_never_listed(repo: Repo) -> None:
    players = ("tg:1", "ai:easy:1", "tg:3", "ai:easy:3")
    table = await new_table(repo, players=players)
    await finish(repo, table, result(table, {0, 2}))
    board = await repo.leaderboard("tg:-100", "tarneeb")
    assert {r.player_id for r in board} == {"tg:1", "tg:3"}
    assert board[0].rating > DEFAULT.display
    assert await repo.player_stats("ai:easy:1") == []
    # the AI's rating never moves: a second match against AI rates the people the same way
    second = await new_table(repo, players=("tg:5", "ai:easy:1", "tg:6", "ai:easy:3"))
    await finish(repo, second, result(second, {0, 2}))
    board = {r.player_id: r.rating for r in await repo.leaderboard("tg:-100", "tarneeb")}
    assert board["tg:5"] == board["tg:1"] and "ai:easy:1" not in board


async def test_ratings_are_per_chat_and_per_game_with_a_global_one(repo: Repo) -> None:
    t1 = await new_table(repo, chat="tg:-1")
    await finish(repo, t1, result(t1, {0, 2}))
    t2 = await new_table(repo, chat="tg:-2")
    await finish(repo, t2, result(t2, {0, 2}))
    t3 = await new_table(repo, chat="tg:-2", game="trix")
    await finish(repo, t3, result(t3, {1}, scores=[0, 100, 0, 0]))
    one = {r.player_id: r for r in await repo.leaderboard("tg:-1", "tarneeb")}
    two = {r.player_id: r for r in await repo.leaderboard("tg:-2", "tarneeb")}
    assert one["tg:1"].matches == 1 and two["tg:1"].matches == 1
    assert one["tg:1"].rating == two["tg:1"].rating  # each chat starts afresh
    everywhere = {s.game: s for s in await repo.player_stats("tg:1")}
    assert everywhere["tarneeb"].matches == 2 and everywhere["tarneeb"].wins == 2
    assert everywhere["tarneeb"].rating > one["tg:1"].rating  # the global rating saw two wins
    assert everywhere["trix"].matches == 1 and everywhere["trix"].wins == 0
    in_one = await repo.player_stats("tg:1", chat_id="tg:-1")
    assert [(s.game, s.matches, s.rating) for s in in_one] == [("tarneeb", 1, one["tg:1"].rating)]
    assert await repo.player_stats("tg:1", chat_id="tg:-3") == []


async def test_player_stats_totals(repo: Repo) -> None:
    for winners, scores in (({0, 2}, [31, 5, 31, 5]), ({1, 3}, [10, 32, 10, 32])):
        table = await new_table(repo)
        await finish(repo, table, result(table, winners, scores=scores))
    (stats,) = await repo.player_stats("tg:1", chat_id="tg:-100")
    assert (stats.game, stats.matches, stats.wins, stats.left, stats.total_score) == ("tarneeb", 2, 1, 0, 41)
    assert await repo.player_stats("tg:404") == []


async def test_a_refused_record_match_writes_nothing(repo: Repo) -> None:
    table = await new_table(repo)
    bad = replace(result(table, {0, 2}), scores={"players": [float("nan")] * 4})  # JSON refuses NaN
    with pytest.raises(ValueError):
        await repo.record_match(bad, replace(table, status=FINISHED))
    assert await repo.get_table(table.table_id) == table
    assert await repo.table_results(table.table_id) is None
    assert await repo.leaderboard("tg:-100", "tarneeb") == []
    await finish(repo, table, result(table, {0, 2}))  # and the table can still be recorded
    assert len(await repo.leaderboard("tg:-100", "tarneeb")) == 4


async def test_the_global_board_spans_every_chat(repo: Repo) -> None:
    for chat, winners in (("tg:-1", {0, 2}), ("dc:9", {0, 2}), ("dc:9", {1, 3})):
        table = await new_table(repo, chat=chat)
        await finish(repo, table, result(table, winners))
    board = {r.player_id: r for r in await repo.leaderboard(GLOBAL, "tarneeb")}
    assert board["tg:1"].matches == 3 and board["tg:1"].wins == 2
    stats = {s.game: s for s in await repo.player_stats("tg:1")}
    assert board["tg:1"].rating == stats["tarneeb"].rating
    assert board["tg:1"].rating > board["tg:2"].rating


# --- the unit of work of a match's end ------------------------------------------------------------


async def test_the_final_action_the_result_and_the_ratings_land_together(repo: Repo) -> None:
    table = await play(repo, await new_table(repo), 3)
    action, moved = act(table, 4, "play AH")
    done = replace(moved, status=FINISHED, deadline=None)
    res = result(done, {0, 2})
    stored = await repo.append_final_action(action, done, res)
    assert stored == replace(done, rev=done.rev + 1)
    assert [a.action for a in await repo.actions(table.table_id)][-1] == "play AH"
    assert await repo.get_table(table.table_id) == stored
    assert await repo.table_results(table.table_id) == res
    board = {r.player_id: r for r in await repo.leaderboard("tg:-100", "tarneeb")}
    assert board["tg:1"].wins == 1 and board["tg:1"].rating > board["tg:2"].rating
    assert await repo.live_tables() == []


async def test_a_refused_final_action_writes_nothing_at_all(repo: Repo) -> None:
    table = await play(repo, await new_table(repo), 2)
    action, moved = act(table, 3)
    done = replace(moved, status=FINISHED, deadline=None)
    with pytest.raises(VersionConflict):  # a stale seq: neither the action nor the result
        await repo.append_final_action(replace(action, seq=2), replace(done, version=2), result(done, {0, 2}))
    bad = replace(result(done, {0, 2}), scores={"players": [float("nan")] * 4})
    with pytest.raises(ValueError):  # the result cannot be stored: the action is not stored either
        await repo.append_final_action(action, done, bad)
    with pytest.raises(ValueError):
        await repo.append_final_action(action, done, result(replace(done, table_id=done.table_id + 1), {0}))
    assert [a.seq for a in await repo.actions(table.table_id)] == [1, 2]
    assert await repo.get_table(table.table_id) == table
    assert await repo.table_results(table.table_id) is None
    assert await repo.leaderboard("tg:-100", "tarneeb") == []
    await repo.append_final_action(action, done, result(done, {0, 2}))  # and it can still end
    assert await repo.table_results(table.table_id) == result(done, {0, 2})


async def test_a_match_recorded_already_refuses_a_final_action(repo: Repo) -> None:
    table = await play(repo, await new_table(repo), 1)
    table = await repo.record_match(result(table, {0, 2}), table)
    board = await repo.leaderboard("tg:-100", "tarneeb")
    action, moved = act(table, 2)
    with pytest.raises(VersionConflict):
        await repo.append_final_action(action, replace(moved, status=FINISHED), result(moved, {1, 3}))
    assert [a.seq for a in await repo.actions(table.table_id)] == [1]
    assert await repo.leaderboard("tg:-100", "tarneeb") == board


# --- install-wide settings ------------------------------------------------------------------------


async def test_meta_is_set_once_and_the_first_value_wins(repo: Repo, reopen: Reopen) -> None:
    assert await repo.get_meta("hmac_secret") is None
    assert await repo.set_meta_if_absent("hmac_secret", "first") == "first"
    assert await repo.set_meta_if_absent("hmac_secret", "second") == "first"
    assert await repo.get_meta("hmac_secret") == "first"
    raced = await asyncio.gather(*(repo.set_meta_if_absent("other", f"v{i}") for i in range(8)))
    assert len(set(raced)) == 1 and raced[0] in {f"v{i}" for i in range(8)}
    again = await reopen(repo)
    assert await again.get_meta("hmac_secret") == "first"
    assert await again.get_meta("other") == raced[0]


async def test_a_deleted_meta_key_is_forgotten_and_can_be_set_again(repo: Repo, reopen: Reopen) -> None:
    await repo.set_meta_if_absent("web:a", "http://a:1")
    await repo.set_meta_if_absent("web:b", "http://b:1")
    assert await repo.delete_meta("web:a") is True
    assert await repo.delete_meta("web:a") is False
    assert await repo.get_meta("web:a") is None
    assert await repo.set_meta_if_absent("web:a", "http://a:2") == "http://a:2"
    again = await reopen(repo)
    assert await again.get_meta("web:a") == "http://a:2"
    assert await again.get_meta("web:b") == "http://b:1"


# --- a chat that changes its id -------------------------------------------------------------------


async def test_move_chat_carries_settings_live_tables_and_history(repo: Repo) -> None:
    await repo.save_chat(ChatRecord("tg:-5", lang="en", turn_seconds=30))
    ended = await new_table(repo, chat="tg:-5")
    await finish(repo, ended, result(ended, {0, 2}))
    live = await play(repo, await new_table(repo, chat="tg:-5"), 2)
    board = await repo.leaderboard("tg:-5", "tarneeb")
    other = await new_table(repo, chat="tg:-6")
    assert await repo.move_chat("tg:-5", "tg:-1005") == 1
    assert await repo.get_chat("tg:-5") is None
    assert await repo.get_chat("tg:-1005") == ChatRecord("tg:-1005", lang="en", turn_seconds=30)
    assert await repo.get_table(live.table_id) == replace(live, chat_id="tg:-1005", rev=live.rev + 1)
    assert [t.chat_id for t in await repo.live_tables()] == ["tg:-1005", "tg:-6"]
    assert await repo.get_table(other.table_id) == other
    assert await repo.leaderboard("tg:-1005", "tarneeb") == board
    assert await repo.leaderboard("tg:-5", "tarneeb") == []
    moved = await repo.table_results(ended.table_id)
    assert moved is not None and moved.chat_id == "tg:-1005"
    assert await repo.move_chat("tg:-5", "tg:-1005") == 0  # a second notice moves nothing


async def test_move_chat_keeps_the_new_ids_own_settings(repo: Repo) -> None:
    await repo.save_chat(ChatRecord("tg:-7", lang="en"))
    await repo.save_chat(ChatRecord("tg:-1007", lang="ar"))
    assert await repo.move_chat("tg:-7", "tg:-1007") == 0
    assert await repo.get_chat("tg:-1007") == ChatRecord("tg:-1007", lang="ar")
    assert await repo.get_chat("tg:-7") is None
    with pytest.raises(ValueError):
        await repo.move_chat("tg:-1007", "tg:-1007")


# --- one live table per chat --------------------------------------------------------------------------


async def test_a_chat_has_at_most_one_live_table(repo: Repo) -> None:
    lobby = await repo.create_table(make_table(status=LOBBY), owner="p1", lease_until=100.0)
    for status in (LOBBY, PLAYING):
        with pytest.raises(ChatHasLiveTable) as refused:
            await repo.create_table(make_table(status=status), owner="p2", lease_until=100.0)
        assert (refused.value.chat_id, refused.value.table_id) == ("tg:-100", lobby)
    assert [t.table_id for t in await repo.live_tables()] == [lobby]  # the refusal wrote nothing
    assert await repo.chat_lease("tg:-100") == (lobby, "p1", 100.0)
    ended = await repo.create_table(make_table(status=FINISHED))  # ended tables do not count
    other = await repo.create_table(make_table(chat="tg:-101"))  # nor do other chats
    table = await repo.get_table(lobby)
    assert table is not None
    await repo.save_table(replace(table, status=CANCELLED))
    again = await repo.create_table(make_table())  # once it ended, the chat may open a new one
    assert again > max(ended, other)
    assert [t.table_id for t in await repo.live_tables()] == [other, again]


async def test_two_live_tables_created_for_one_chat_at_once_make_one(repo: Repo) -> None:
    for round_ in range(3):
        chat = f"tg:-9{round_}"
        got = await asyncio.gather(*(repo.create_table(make_table(chat=chat, status=LOBBY), owner=f"p{i}",
                                                       lease_until=100.0) for i in range(3)),
                                   return_exceptions=True)
        ids = [g for g in got if isinstance(g, int)]
        refusals = [g for g in got if isinstance(g, ChatHasLiveTable)]
        assert len(ids) == 1 and len(refusals) == 2, got
        assert all(r.table_id == ids[0] for r in refusals)
        assert [t.table_id for t in await repo.live_tables() if t.chat_id == chat] == ids


async def test_move_chat_onto_a_chat_with_a_live_table_ends_the_old_chats_one(repo: Repo) -> None:
    playing = await play(repo, await new_table(repo, chat="tg:-8"), 2)
    lobby = await new_table(repo, chat="tg:-1008", status=LOBBY)  # opened in the new chat before the move came
    assert await repo.move_chat("tg:-8", "tg:-1008") == 0
    stopped = await repo.get_table(playing.table_id)
    assert stopped == replace(playing, chat_id="tg:-1008", status=STOPPED, deadline=None, rev=playing.rev + 2)
    assert [t.table_id for t in await repo.live_tables()] == [lobby.table_id]
    assert await repo.get_table(lobby.table_id) == lobby
    waiting = await new_table(repo, chat="tg:-9", status=LOBBY)
    await new_table(repo, chat="tg:-1009", status=LOBBY)
    await repo.move_chat("tg:-9", "tg:-1009")
    assert (await repo.get_table(waiting.table_id)).status == CANCELLED  # type: ignore[union-attr]


# --- compare-and-set on a table row -----------------------------------------------------------------


async def test_every_write_of_a_table_bumps_its_rev(repo: Repo) -> None:
    table = await new_table(repo)
    assert table.rev == 0
    table = await repo.save_table(replace(table, message_ids={"table": "9"}))
    assert table.rev == 1
    table = await play(repo, table, 2)
    assert table.rev == 3 and await repo.get_table(table.table_id) == table
    action, moved = act(table, 3)
    done = await repo.append_final_action(action, replace(moved, status=FINISHED), result(moved, {0, 2}))
    assert done.rev == 4 and await repo.get_table(table.table_id) == done


async def test_a_stale_write_is_a_table_conflict_and_changes_nothing(repo: Repo) -> None:
    table = await new_table(repo, status=LOBBY)
    mine = await repo.save_table(replace(table, seats=(Seat("tg:9", "N"), *table.seats[1:])))
    theirs = replace(table, message_ids={"table": "5"})  # read before my write
    with pytest.raises(TableConflict) as refused:
        await repo.save_table(theirs)
    assert (refused.value.expected, refused.value.stored) == (0, 1)
    assert isinstance(refused.value, VersionConflict)  # callers that resync on a conflict do so here too
    action, moved = act(table, 1)
    with pytest.raises(TableConflict):
        await repo.append_action(action, moved)
    with pytest.raises(TableConflict):
        await repo.append_final_action(action, replace(moved, status=FINISHED), result(moved, {0, 2}))
    with pytest.raises(TableConflict):
        await repo.record_match(result(table, {0, 2}), replace(table, status=FINISHED))
    assert await repo.get_table(table.table_id) == mine
    assert await repo.actions(table.table_id) == []
    assert await repo.table_results(table.table_id) is None
    again = await repo.save_table(replace(mine, message_ids={"table": "5"}))  # re-read, then write
    assert again.rev == 2 and again.seats[0].player_id == "tg:9"


async def test_two_writers_racing_on_one_row_one_wins(repo: Repo) -> None:
    table = await new_table(repo, status=LOBBY)
    writes = [replace(table, message_ids={"table": str(i)}) for i in range(6)]
    outcomes = await asyncio.gather(*(repo.save_table(w) for w in writes), return_exceptions=True)
    won = [o for o in outcomes if isinstance(o, TableRecord)]
    assert len(won) == 1 and all(isinstance(o, TableConflict) for o in outcomes if o not in won)
    assert await repo.get_table(table.table_id) == won[0]


# --- ratings when matches finish at once --------------------------------------------------------------


async def test_matches_sharing_a_player_that_finish_at_once_lose_no_rating_update(repo: Repo) -> None:
    n = 6
    # one chat has one live table: these are stored as finished already, their results recorded at once
    done = [await new_table(repo, status=FINISHED, players=("tg:star", f"tg:a{i}", f"tg:b{i}", f"tg:c{i}"))
            for i in range(n)]
    await asyncio.gather(*(repo.record_match(result(t, {0, 2}), t) for t in done))
    expected = DEFAULT
    for t in done:  # every match is against fresh players, so the order does not matter
        expected = rate_match("tarneeb", result(t, {0, 2}).results, {"tg:star": expected})["tg:star"]
    (stats,) = await repo.player_stats("tg:star")
    assert stats.matches == n and stats.wins == n
    assert stats.rating == expected.display
    board = {r.player_id: r for r in await repo.leaderboard("tg:-100", "tarneeb")}
    assert board["tg:star"].rating == expected.display


# --- leases: which process runs which table ----------------------------------------------------------


async def test_claims_take_free_and_expired_tables_and_each_goes_to_one_owner(repo: Repo) -> None:
    mine = await repo.create_table(make_table(), owner="p1", lease_until=100.0)
    free = [(await new_table(repo, chat=f"tg:-{i}")).table_id for i in range(3)]
    lobby = (await new_table(repo, chat="tg:-3", status=LOBBY)).table_id
    ended = await new_table(repo, chat="tg:-4")
    await finish(repo, ended, result(ended, {0, 2}))
    assert await repo.table_lease(mine) == ("p1", 100.0)
    assert await repo.table_lease(free[0]) == (None, None)
    assert await repo.claim_tables("p2", now=50.0, lease_seconds=30.0, limit=2) == free[:2]
    got = await asyncio.gather(repo.claim_tables("p2", 50.0, 30.0), repo.claim_tables("p3", 50.0, 30.0))
    assert sorted(got[0] + got[1]) == [free[2], lobby]  # p1's lease runs, the finished table is nobody's
    assert await repo.table_lease(free[0]) == ("p2", 80.0)
    assert await repo.claim_tables("p3", now=90.0, lease_seconds=30.0) == [*free, lobby]  # those leases ended
    assert await repo.claim_tables("p3", now=101.0, lease_seconds=30.0) == [mine]  # p1 stopped renewing


async def test_the_heartbeat_renews_and_tells_what_is_still_held(repo: Repo) -> None:
    a = await repo.create_table(make_table(), owner="p1", lease_until=10.0)
    b = await repo.create_table(make_table(chat="tg:-101"), owner="p1", lease_until=10.0)
    await repo.create_table(make_table(chat="tg:-102"), owner="p2", lease_until=10.0)
    table = await repo.get_table(a)
    assert await repo.renew_leases("p1", now=5.0, lease_seconds=30.0) == [a, b]
    assert await repo.table_lease(a) == ("p1", 35.0)
    assert await repo.claim_tables("p3", now=20.0, lease_seconds=30.0) != [a, b]
    assert await repo.claim_tables("p3", now=36.0, lease_seconds=30.0) == [a, b]
    assert await repo.renew_leases("p1", now=37.0, lease_seconds=30.0) == []  # p1 lost them: it must let go
    assert await repo.get_table(a) == table  # leases never touch the table's record or rev


async def test_released_tables_are_free_at_once_and_restore_reads_only_the_named_ones(repo: Repo) -> None:
    a = await repo.create_table(make_table(), owner="p1", lease_until=1000.0)
    b = await repo.create_table(make_table(chat="tg:-101"), owner="p1", lease_until=1000.0)
    c = await repo.create_table(make_table(chat="tg:-102"), owner="p1", lease_until=1000.0)
    assert await repo.release_tables("p1", [a]) == 1
    assert await repo.claim_tables("p2", now=1.0, lease_seconds=30.0) == [a]
    assert await repo.release_tables("p1") == 2
    assert await repo.claim_tables("p2", now=1.0, lease_seconds=30.0) == [b, c]
    table = await play(repo, (await repo.get_table(b)) or make_table(), 2)
    restored = await repo.live_tables_with_logs([b, 999])
    assert [(t, [x.seq for x in log]) for t, _, log in restored] == [(table, [1, 2])]
    assert [t.table_id for t, _, _ in await repo.live_tables_with_logs([])] == []


async def test_a_bot_of_one_platform_claims_only_that_platforms_tables(repo: Repo) -> None:
    tg = (await new_table(repo, chat="tg:-1")).table_id
    dc = (await new_table(repo, chat="dc:9/8")).table_id
    cli = (await new_table(repo, chat="cli:local")).table_id
    assert await repo.claim_tables("tg-bot", 1.0, 30.0, chat_prefixes=("tg:",)) == [tg]
    assert await repo.claim_tables("dc-bot", 1.0, 30.0, chat_prefixes=("dc:", "cli:")) == [dc, cli]
    assert await repo.claim_tables("other", 1.0, 30.0, chat_prefixes=()) == []


# --- the inbox: commands forwarded to the process that holds the table (bot/core/cluster/routing.py) ----------------


async def test_the_chat_and_table_routes_name_the_live_table_and_its_holder(repo: Repo) -> None:
    old = await repo.create_table(make_table(chat="tg:-5"), owner="p1", lease_until=100.0)
    new = await repo.create_table(make_table(chat="tg:-4", status=LOBBY), owner="p2", lease_until=200.0)
    ended = await new_table(repo, chat="tg:-6")
    await finish(repo, ended, result(ended, {0, 2}))
    assert await repo.chat_lease("tg:-4") == (new, "p2", 200.0)
    assert await repo.chat_lease("tg:-5") == (old, "p1", 100.0)
    assert await repo.chat_lease("tg:-6") is None  # its only table ended
    assert await repo.chat_lease("tg:-7") is None
    assert await repo.table_route(old) == ("tg:-5", PLAYING, "p1", 100.0)
    assert await repo.table_route(ended.table_id) == ("tg:-6", FINISHED, None, None)
    assert await repo.table_route(999) is None


async def test_a_forwarded_command_is_one_entry_taken_once_by_its_tables_holder(repo: Repo) -> None:
    a = await repo.create_table(make_table(), owner="p1", lease_until=100.0)
    b = await repo.create_table(make_table(chat="tg:-2"), owner="p2", lease_until=100.0)
    first = await repo.inbox_post("k1", a, "p9", '{"n": 1}', 1.0)
    assert await repo.inbox_post("k1", a, "p9", '{"n": 1}', 2.0) == first  # a retry: the same entry
    second = await repo.inbox_post("k2", a, "p9", '{"n": 2}', 3.0)
    other = await repo.inbox_post("k3", b, "p9", '{"n": 3}', 3.0)
    assert await repo.inbox_result(first) == ("pending", None)
    got = await asyncio.gather(repo.inbox_take("p1", 4.0), repo.inbox_take("p1", 4.0))
    taken = sorted(got[0] + got[1], key=lambda e: e.entry_id)
    assert [(e.entry_id, e.table_id, e.sender, e.request) for e in taken] == [
        (first, a, "p9", '{"n": 1}'), (second, a, "p9", '{"n": 2}')]  # p2's table is not p1's to take
    assert await repo.inbox_take("p1", 5.0) == []
    assert not await repo.inbox_expire(first)  # taken: the sender can no longer call it off
    await repo.inbox_answer(first, '{"ok": 1}', 6.0)
    assert await repo.inbox_result(first) == ("done", '{"ok": 1}')
    assert await repo.inbox_post("k1", a, "p9", '{"n": 1}', 7.0) == first  # done stays done
    assert await repo.inbox_result(first) == ("done", '{"ok": 1}')
    assert await repo.inbox_result(other) == ("pending", None)
    assert await repo.inbox_result(12345) is None


async def test_an_expired_entry_is_never_taken_until_posted_again(repo: Repo) -> None:
    a = await repo.create_table(make_table(), owner="p1", lease_until=100.0)
    entry = await repo.inbox_post("k", a, "p9", "{}", 1.0)
    assert await repo.inbox_expire(entry)
    assert await repo.inbox_result(entry) == ("expired", None)
    assert await repo.inbox_take("p1", 2.0) == []
    assert await repo.inbox_post("k", a, "p9", '{"again": true}', 3.0) == entry  # the sender retried
    assert [e.request for e in await repo.inbox_take("p1", 4.0)] == ['{"again": true}']


async def test_a_taken_over_table_brings_its_pending_entries_and_old_ones_are_purged(repo: Repo) -> None:
    a = await repo.create_table(make_table(), owner="p1", lease_until=10.0)
    old = await repo.inbox_post("old", a, "p9", "{}", 1.0)
    new = await repo.inbox_post("new", a, "p9", "{}", 50.0)
    assert await repo.claim_tables("p2", now=20.0, lease_seconds=30.0) == [a]  # p1 died
    assert [e.entry_id for e in await repo.inbox_take("p2", 21.0)] == [old, new]
    assert await repo.inbox_purge(before=10.0) == 1
    assert await repo.inbox_result(old) is None
    assert await repo.inbox_result(new) == ("taken", None)
