"""Seasons in storage, on memory, a real SQLite file and a real PostgreSQL alike: a match joins the
season it started in, counts only where it should, moves the season's ratings, and a season closes
once with its champions, who stay after it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository
from storage.ratings import DEFAULT
from storage.records import FINISHED, ActionRecord, LeagueRecord, PlayerRecord, TableRecord
from storage.seasons import CLOSE_GRACE, DAY, league_of, locate, month_start, window_end
from storage.sqlite import SQLiteRepository
from tests.storage.test_storage_contract import new_table, result

Repo = MemoryRepository | SQLiteRepository | PostgresRepository


def ts(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()  # type: ignore[arg-type]


JAN_10, JAN_31_NIGHT, FEB_1, FEB_2 = ts(2027, 1, 10), ts(2027, 1, 31, 23, 30), ts(2027, 2, 1), ts(2027, 2, 2)


async def play_match(repo: Repo, started: float, finished: float, winners: set[int], *, chat: str = "tg:-100",
                     players: tuple[str, str, str, str] = ("tg:1", "tg:2", "tg:3", "tg:4"),
                     left: set[int] = frozenset()) -> TableRecord:  # type: ignore[assignment]
    """A Tarneeb match whose first action is at ``started`` and last at ``finished``."""
    table = await new_table(repo, chat=chat, players=players)
    first = ActionRecord(table.table_id, 1, 0, "bid 7", players[0], started)
    table = await repo.append_action(first, replace(table, version=1))
    last = ActionRecord(table.table_id, 2, 0, "play QS", players[0], finished)
    res = replace(result(table, winners, left=left), finished_at=finished)
    done = replace(table, version=2, status=FINISHED, deadline=None)
    return await repo.append_final_action(last, done, res)


def test_a_season_is_a_calendar_month_unless_a_length_is_chosen() -> None:
    assert month_start(JAN_10) == ts(2027, 1, 1)
    assert window_end(ts(2027, 1, 1), None) == FEB_1
    assert window_end(ts(2027, 2, 1), None) == ts(2027, 3, 1)
    assert window_end(JAN_10, 14) == JAN_10 + 14 * DAY


def test_locate_makes_the_next_season_where_the_last_ended_and_skips_empty_months() -> None:
    first, made = locate([], "tg:-1", JAN_10, None)
    assert (first.number, first.starts_at, first.ends_at) == (1, ts(2027, 1, 1), FEB_1) and made == [first]
    assert locate([first], "tg:-1", JAN_31_NIGHT, None) == (first, [])
    second, _ = locate([first], "tg:-1", FEB_2, None)
    assert (second.number, second.starts_at, second.ends_at) == (2, FEB_1, ts(2027, 3, 1))
    later, _ = locate([first], "tg:-1", ts(2027, 6, 5), None)  # nobody played from February to May
    assert (later.number, later.starts_at) == (2, ts(2027, 6, 1))


def test_a_forum_topic_and_a_discord_channel_belong_to_their_group_and_server() -> None:
    assert league_of("tg:-100/7", None) == "tg:-100"
    assert league_of("dc:55", "dc:guild:9") == "dc:guild:9"
    assert league_of("dc:55", None) == "dc:55"


async def test_a_match_across_the_boundary_counts_in_the_season_it_started_in(repo: Repo) -> None:
    await play_match(repo, JAN_10, JAN_10 + 3600, {0, 2})
    straddling = await play_match(repo, JAN_31_NIGHT, FEB_1 + 1800, {1, 3})
    await play_match(repo, FEB_2, FEB_2 + 3600, {0, 2})
    seasons = await repo.seasons("tg:-100")
    assert [(s.number, s.starts_at, s.ends_at) for s in seasons] == [(1, ts(2027, 1, 1), FEB_1),
                                                                    (2, FEB_1, ts(2027, 3, 1))]
    january = {r.player_id: r for r in await repo.season_board("tg:-100", 1, "tarneeb")}
    february = {r.player_id: r for r in await repo.season_board("tg:-100", 2, "tarneeb")}
    assert january["tg:2"].matches == 2 and january["tg:2"].wins == 1
    assert february["tg:2"].matches == 1 and february["tg:2"].wins == 0
    all_time = {r.player_id: r for r in await repo.season_board("tg:-100", None, "tarneeb")}
    assert all_time["tg:1"].matches == 3 and all_time["tg:1"].wins == 2
    changes = await repo.rating_changes(straddling.table_id)
    assert {c.player_id for c in changes} == {"tg:1", "tg:2", "tg:3", "tg:4"}
    winner = next(c for c in changes if c.player_id == "tg:2")
    assert winner.after > winner.before and winner.matches == 2


async def test_ai_seats_never_appear_and_their_match_counts_only_where_the_league_says(repo: Repo) -> None:
    with_ai = ("tg:1", "ai:normal:1", "tg:3", "ai:normal:3")
    first = await play_match(repo, JAN_10, JAN_10 + 60, {0, 2}, players=with_ai)
    assert await repo.rating_changes(first.table_id) == []
    assert await repo.season_board("tg:-100", 1, "tarneeb") == []
    await repo.save_league(LeagueRecord("tg:-100", ai_counts=True))
    second = await play_match(repo, JAN_10 + 100, JAN_10 + 200, {0, 2}, players=with_ai)
    assert {c.player_id for c in await repo.rating_changes(second.table_id)} == {"tg:1", "tg:3"}
    board = await repo.season_board("tg:-100", 1, "tarneeb")
    assert [r.player_id for r in board] == ["tg:1", "tg:3"] or [r.player_id for r in board] == ["tg:3", "tg:1"]
    assert all(r.matches == 1 for r in board)


async def test_a_leaver_s_match_is_a_loss_on_the_season_table(repo: Repo) -> None:
    table = await play_match(repo, JAN_10, JAN_10 + 60, {0, 2}, left={0})
    row = {r.player_id: r for r in await repo.season_board("tg:-100", 1, "tarneeb")}["tg:1"]
    assert (row.matches, row.wins, row.left) == (1, 0, 1)
    change = {c.player_id: c for c in await repo.rating_changes(table.table_id)}["tg:1"]
    assert change.after < change.before


async def test_a_season_closes_once_with_its_champion_who_stays_in_the_history(repo: Repo) -> None:
    await repo.save_league(LeagueRecord("tg:-100", min_matches=2))
    for player in ("tg:1", "tg:2", "tg:3", "tg:4"):
        await repo.save_player(PlayerRecord(player, player.upper()))
    for i in range(3):
        await play_match(repo, JAN_10 + i * 100, JAN_10 + i * 100 + 50, {0, 2})
    assert await repo.due_seasons(JAN_31_NIGHT) == []
    assert await repo.close_season("tg:-100", 1, JAN_31_NIGHT) is None  # not over yet
    due = await repo.due_seasons(FEB_1)
    assert [(s.league, s.number) for s in due] == [("tg:-100", 1)]
    summary = await repo.close_season("tg:-100", 1, FEB_1)
    assert summary is not None and summary.chat_id == "tg:-100"
    assert [(c.game, c.player_id in ("tg:1", "tg:3"), c.matches) for c in summary.champions] == [("tarneeb", True, 3)]
    assert summary.most_matches is not None and summary.most_matches[2] == 3
    assert summary.partnership is not None and {summary.partnership[0], summary.partnership[2]} == {"tg:1", "tg:3"}
    assert summary.partnership[4:] == (3, 3)
    assert await repo.close_season("tg:-100", 1, FEB_1 + 5) is None  # once only
    assert await repo.due_seasons(FEB_1 + 5) == []
    history = await repo.champions("tg:-100")
    assert [(c.number, c.game) for c in history] == [(1, "tarneeb")] and history[0].name in ("TG:1", "TG:3")


async def test_a_player_under_the_minimum_is_never_champion(repo: Repo) -> None:
    await play_match(repo, JAN_10, JAN_10 + 50, {0, 2})  # min_matches is 5 by default
    summary = await repo.close_season("tg:-100", 1, FEB_1)
    assert summary is not None and summary.champions == ()
    assert await repo.champions("tg:-100") == []


async def test_a_season_waits_for_a_match_that_started_in_it_up_to_the_grace(repo: Repo) -> None:
    table = await new_table(repo)
    await repo.append_action(ActionRecord(table.table_id, 1, 0, "bid 7", "tg:1", JAN_31_NIGHT),
                             replace(table, version=1))
    await repo.season_at("tg:-100", JAN_31_NIGHT)
    assert await repo.close_season("tg:-100", 1, FEB_1 + 60) is None  # still being played
    assert await repo.close_season("tg:-100", 1, FEB_1 + CLOSE_GRACE) is not None  # waited long enough


async def test_an_admin_ends_the_running_season_and_the_next_starts_then(repo: Repo) -> None:
    first = await repo.season_at("tg:-100", JAN_10)
    ended = await repo.end_season("tg:-100", first.number, JAN_10 + 100)
    assert ended is not None and ended.ends_at == JAN_10 + 100
    assert await repo.end_season("tg:-100", first.number, JAN_10 + 200) is None  # ended already
    second = await repo.season_at("tg:-100", JAN_10 + 300)
    assert (second.number, second.starts_at, second.ends_at) == (2, JAN_10 + 100, FEB_1)


async def test_a_league_keeps_its_settings_and_a_discord_channel_plays_in_its_server(repo: Repo) -> None:
    assert await repo.get_league("dc:guild:9") == LeagueRecord("dc:guild:9")
    await repo.save_league(LeagueRecord("dc:guild:9", length_days=14, min_matches=3, ai_counts=True))
    assert await repo.get_league("dc:guild:9") == LeagueRecord("dc:guild:9", 14, 3, True)
    await repo.set_meta_if_absent("parent:dc:55", "dc:guild:9")
    await play_match(repo, JAN_10, JAN_10 + 60, {0, 2}, chat="dc:55",
                     players=("dc:1", "dc:2", "dc:3", "dc:4"))
    (season,) = await repo.seasons("dc:guild:9")
    assert (season.starts_at, season.ends_at) == (JAN_10, JAN_10 + 14 * DAY)
    assert len(await repo.season_board("dc:guild:9", 1, "tarneeb")) == 4
    assert await repo.seasons("dc:55") == []


async def test_a_new_season_starts_everyone_again_at_the_default(repo: Repo) -> None:
    await play_match(repo, JAN_10, JAN_10 + 60, {0, 2})
    second = await play_match(repo, FEB_2, FEB_2 + 60, {0, 2})
    change = {c.player_id: c for c in await repo.rating_changes(second.table_id)}["tg:1"]
    assert change.before == DEFAULT.display and change.matches == 1


@pytest.mark.parametrize("kind", ["sqlite"])
async def test_seasons_survive_an_export_and_import(repo: Repo, tmp_path: object, kind: str) -> None:
    import io
    from pathlib import Path

    from storage.transfer import export_database, import_database, read_export

    await play_match(repo, JAN_10, JAN_10 + 60, {0, 2})
    await repo.save_league(LeagueRecord("tg:-100", min_matches=1))
    assert await repo.close_season("tg:-100", 1, FEB_1) is not None
    assert isinstance(repo, SQLiteRepository)
    out = io.StringIO()
    counts = await export_database(repo, out)
    assert counts["seasons"] == 1 and counts["champions"] == 1 and counts["rating_changes"] == 4
    target = SQLiteRepository(Path(str(tmp_path)) / "copy.db")
    await target.open()
    try:
        await import_database(target, read_export(out.getvalue().splitlines()))
        assert await target.seasons("tg:-100") == await repo.seasons("tg:-100")
        assert await target.champions("tg:-100") == await repo.champions("tg:-100")
        assert await target.season_board("tg:-100", 1, "tarneeb") == await repo.season_board("tg:-100", 1, "tarneeb")
        assert await target.get_league("tg:-100") == LeagueRecord("tg:-100", min_matches=1)
    finally:
        await target.close()
