"""A person's history for the profile page's tests: matches stored as the bot stores them, in two
leagues, over two seasons, with real action logs where a best deal must be found.

Sara (``tg:11``) plays in the web tests' group (``CHAT``, its own league) with Omar across the table,
most of them won, over last month (season 1, which she wins) and this month (season 2); and three
matches in another group (``OTHER``) with Huda, one of them holding a bigger deal than any of the
first group's. A league's page must show none of the other group's figures.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import engine
from bot.adapters.web.server import WebServer, WebSettings
from bot.adapters.web.tokens import install_secret
from bot.core.manager import TableManager
from bot.core.profiles import best_deal_of
from bot.core.service import routed
from bot.core.settings import ManagerSettings
from bot.core.views import events_of
from storage import open_repository
from storage.records import (
    FINISHED,
    ActionRecord,
    MatchResult,
    PlayerRecord,
    PlayerResult,
    Seat,
    TableRecord,
)
from storage.seasons import month_start

CHAT = "tg:-100500"
OTHER = "tg:-200600"
SARA, OMAR, ALI, HUDA, ZAID, NOUR = "tg:11", "tg:12", "tg:13", "tg:14", "tg:15", "tg:16"
NAMES = {"en": {SARA: "Sara", OMAR: "Omar", ALI: "Ali", HUDA: "Huda", ZAID: "Zaid", NOUR: "Nour"},
         "ar": {SARA: "سارة", OMAR: "عمر", ALI: "علي", HUDA: "هدى", ZAID: "زيد", NOUR: "نور"}}
DAY = 86400.0
#: Sara's results in the group, oldest first: last month's (season 1), then this month's (season 2).
LAST_MONTH = (True, True, False, True, True, True, False, True)
THIS_MONTH = (True, False, True, True, False, True, True)


def first_deal(game: str, seed: int) -> list[tuple[int, str]]:
    """The moves of a whole first deal, up to its score: the first bidder bids 7, everything else is
    the move a timed-out seat plays."""
    g = engine.new_game(game, seed=seed, dealer=0, options={})
    moves: list[tuple[int, str]] = []
    while len(moves) < 400:
        seat = g.to_act
        assert seat is not None
        legal = g.legal()
        action = "bid 7" if "bid 7" in legal else g.auto()
        moves.append((seat, action))
        if any(e["type"] == "deal_scored" for e in events_of(g.act(seat, action))):
            return moves
    raise AssertionError("no deal was scored")


def deal_points(seed: int) -> int | None:
    """What seat 0's side made in the first deal of a Tarneeb match of ``seed``."""
    moves = first_deal("tarneeb", seed)
    record = TableRecord(0, CHAT, "tarneeb", {}, seed, 0, SARA, FINISHED, (Seat(), Seat(), Seat(), Seat()))
    return best_deal_of(record, [ActionRecord(0, i + 1, s, a, "", 0.0) for i, (s, a) in enumerate(moves)], 0)


def two_seeds() -> tuple[int, int, int, int]:
    """(a seed, its points, a seed whose points are more, those points): both deals won by seat 0's side."""
    found = [(s, p) for s in range(1, 60) if (p := deal_points(s)) is not None and p > 0]
    small = min(found, key=lambda sp: sp[1])
    big = max(found, key=lambda sp: sp[1])
    assert big[1] > small[1], found
    return small[0], small[1], big[0], big[1]


async def record(repo: Any, chat: str, people: tuple[str, str, str, str], won: bool, started: float,
                 *, seed: int | None = None, names: dict[str, str]) -> int:
    """A finished Tarneeb match of ``chat`` (seat 0's side won or lost); with ``seed`` its log is a real
    first deal (its best deal is found), else two passes (no deal scored)."""
    seats = tuple(Seat(player_id=p, name=names[p]) for p in people)
    table = TableRecord(table_id=0, chat_id=chat, game="tarneeb", options={}, seed=seed or 1, dealer=0,
                        creator=people[0], status="playing", seats=seats, created_at=started)  # type: ignore[arg-type]
    tid = await repo.create_table(table)
    stored = await repo.get_table(tid)
    moves = first_deal("tarneeb", seed) if seed is not None else [(1, "pass"), (2, "pass")]
    for i, (seat, action) in enumerate(moves[:-1]):
        stored = await repo.append_action(ActionRecord(tid, i + 1, seat, action, people[seat], started + i),
                                          replace(stored, version=i + 1))
    finished = started + 1800
    winners = {0, 2} if won else {1, 3}
    result = MatchResult(tid, chat, "tarneeb", finished,
                         tuple(PlayerResult(p, i, 31 if i in winners else 12, i in winners, False)
                               for i, p in enumerate(people)), {"teams": [31, 12] if won else [12, 31]})
    seat, action = moves[-1]
    await repo.append_final_action(ActionRecord(tid, len(moves), seat, action, people[seat], finished),
                                   replace(stored, version=len(moves), status=FINISHED, deadline=None), result)
    return tid


@dataclass(frozen=True)
class History:
    """What :func:`sara_history` stored: the points of each group's best deal."""

    best_here: int
    best_other: int
    matches_here: int
    matches_other: int


async def sara_history(manager: TableManager, lang: str) -> History:
    """Sara's matches in both groups (see the module); season 1 of the group closed, Sara its champion."""
    repo = manager.repo
    names = NAMES[lang]
    for chat in (CHAT, OTHER):
        await manager.update_chat(chat, lang=lang, digits="arabic" if lang == "ar" else "western")
    for pid, name in names.items():
        await repo.save_player(PlayerRecord(pid, name, lang=lang))
        manager.prefs.forget_player(pid)
    small, small_points, big, big_points = two_seeds()
    now = manager.clock.now()
    this_month = month_start(now)
    here = (SARA, ALI, OMAR, HUDA)
    start = this_month - 25 * DAY
    for i, won in enumerate(LAST_MONTH):  # Zaid sits in for Omar three times: Sara alone is the champion
        await record(repo, CHAT, (SARA, ALI, ZAID, HUDA) if i < 3 else here, won, start + i * DAY, names=names)
    assert await repo.close_season(CHAT, 1, this_month + 1) is not None
    step = max(1.0, min(DAY, (now - this_month - 3600) / (len(THIS_MONTH) + 1)))
    for i, won in enumerate(THIS_MONTH):
        await record(repo, CHAT, here, won, this_month + 60 + i * step, names=names,
                     seed=small if i == len(THIS_MONTH) - 1 else None)
    there = (SARA, ZAID, NOUR, ALI)
    for i in range(3):
        await record(repo, OTHER, there, True, this_month + 120 + i * step, names=names,
                     seed=big if i == 1 else None)
    return History(small_points, big_points, len(LAST_MONTH) + len(THIS_MONTH), 3)


@contextlib.asynccontextmanager
async def profile_bed(tmp_path: Path) -> AsyncIterator[tuple[TableManager, WebServer]]:
    """A table manager on a real SQLite file and the web server listening on 127.0.0.1."""
    repo = await open_repository(str(tmp_path / "profile.sqlite3"))
    manager = TableManager(repo, router=routed, settings=ManagerSettings())
    server = WebServer(manager, await install_secret(repo), WebSettings(port=0))
    await manager.start()
    try:
        await server.start()
        yield manager, server
    finally:
        await server.close()
        await manager.close()
        await repo.close()
