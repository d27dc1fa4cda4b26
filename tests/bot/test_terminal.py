"""The terminal table in-process: the console transport, the screen, and a whole match from seat 2."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from bot.render.message import Button, OutMessage
from bot.terminal.app import PlayOptions, TerminalGame
from bot.terminal.screen import ConsoleTransport, Screen


async def test_the_console_prints_notices_and_keeps_silent_messages_for_later() -> None:
    out = io.StringIO()
    transport = ConsoleTransport(Screen(fancy=False, stream=out), show={"cli:local", "dm:cli:you"})
    table = await transport.send("cli:local", OutMessage("the table", ((Button("My hand", payload="x"),),),
                                                          notify=False))
    await transport.send("cli:local", OutMessage("Deal scored"))
    await transport.send("cli:other", OutMessage("elsewhere"))
    await transport.edit("cli:local", table, OutMessage("the table, later", notify=False))
    assert out.getvalue() == "Deal scored\n"
    latest = transport.latest(table)
    assert latest is not None and latest.text == "the table, later"
    await transport.delete("cli:local", table)
    assert transport.latest(table) is None
    assert transport.budget("cli:local").ops >= 1000


def test_a_fancy_screen_frames_and_numbers_a_plain_one_does_not() -> None:
    fancy, plain = io.StringIO(), io.StringIO()
    for stream, is_fancy in ((fancy, True), (plain, False)):
        screen = Screen(fancy=is_fancy, stream=stream)
        screen.panel("♠ A K\n♥ 7", title="Your hand")
        screen.choices(["A♠", "K♠", "7♥"])
    assert "╭" in fancy.getvalue() and "Your hand" in fancy.getvalue()
    assert plain.getvalue() == "-- Your hand --\n♠ A K\n♥ 7\n[1] A♠  [2] K♠  [3] 7♥\n"


async def test_a_whole_match_from_seat_two_through_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    out = io.StringIO()
    opts = PlayOptions(game="trix", lang="en", seat=2, seed=8, ai_level="easy", db=str(db), auto=True,
                       interactive=False)
    code = await TerminalGame(opts, Screen(fancy=False, stream=out)).run()
    assert code == 0
    text = out.getvalue()
    assert "Match over · Trix · table 1" in text
    assert "You play" in text
    with sqlite3.connect(db) as conn:
        status, seats = conn.execute("SELECT status, seats FROM tables WHERE table_id = 1").fetchone()
        actors = {row[0] for row in conn.execute("SELECT DISTINCT actor FROM actions WHERE seat = 2")}
    assert status == "finished"
    assert actors == {"cli:you"}
    assert "cli:you" in seats
