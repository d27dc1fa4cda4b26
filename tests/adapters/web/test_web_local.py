"""``majlis web`` asks before it abandons an unfinished match, as ``majlis play`` does (issue 29)."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.web.local import LocalTable, WebOptions


async def open_local(db: Path, answers: list[str | None] | None, out: list[str],
                     asked: list[str]) -> int:
    """Start and close a local table; the table id it played. ``answers``: what the person types
    (None in the list: input ended); None: nobody to ask (input is not a terminal)."""

    async def ask(prompt: str) -> str | None:
        asked.append(prompt)
        assert answers
        return answers.pop(0)

    local = LocalTable(WebOptions(lang="en", db=str(db), port=0, ai_delay=0.0, seed=4, open_browser=False),
                       out.append, ask if answers is not None else None)
    try:
        await local.start()
        assert local.table_id is not None
        return local.table_id
    finally:
        await local.close()


async def test_an_unfinished_match_is_resumed_when_the_answer_is_yes_or_empty_or_input_ends(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    out: list[str] = []
    asked: list[str] = []
    first = await open_local(db, [], out, asked)
    assert asked == []  # nothing unfinished: nothing asked
    for answer in ("", "y", None):
        assert await open_local(db, [answer], out, asked) == first
        assert asked[-1] == f"An unfinished match of Syrian Tarneeb 41 is waiting at table {first}. Resume it? [Y/n] "
        assert out[-1] == f"Resuming table {first}."
    assert not any("abandoned" in line for line in out)


async def test_no_abandons_it_and_begins_a_new_match(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    out: list[str] = []
    asked: list[str] = []
    first = await open_local(db, [], out, asked)
    second = await open_local(db, ["N"], out, asked)
    assert second != first
    assert out[-1].startswith(f"The unfinished match at table {first} was abandoned")


async def test_without_a_terminal_to_ask_the_unfinished_match_is_abandoned_as_the_help_says(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    out: list[str] = []
    asked: list[str] = []
    first = await open_local(db, None, out, asked)
    second = await open_local(db, None, out, asked)
    assert second != first and asked == []
    assert out[-1].startswith(f"The unfinished match at table {first} was abandoned")
