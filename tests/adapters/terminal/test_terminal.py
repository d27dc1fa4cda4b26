"""The terminal table in-process: choices and keys, digits, the screen and its frames, bidi, options,
and whole matches driven through scripted input (issue 15)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sqlite3
import sys
import threading
import tracemalloc
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from bot.adapters.terminal import bidi
from bot.adapters.terminal.app import PlayOptions, TerminalGame
from bot.adapters.terminal.choices import COMMANDS, KEYS, Menu, ascii_digits, card_code, is_extreme
from bot.adapters.terminal.options import OptionError, parse_options
from bot.adapters.terminal.screen import Screen, visible
from bot.present.i18n import translator

TARNEEB_BIDS = [f"bid {n}" for n in range(7, 14)] + ["pass"]


def menu(legal: list[str], offset: int = 0) -> Menu:
    return Menu(legal, {c: c for c in legal}, bid_offset=offset)


# -- 1. choices that mean what they say --------------------------------------------------------

def test_in_a_bid_prompt_a_number_is_the_bid_not_an_option_number() -> None:
    m = menu(TARNEEB_BIDS)
    assert m.parse("7").code == "bid 7"  # used to bid 13 (the 7th option)
    assert m.parse("13").code == "bid 13"
    assert m.parse("p").code == "pass" and m.parse("pass").code == "pass"
    forty_one = menu([f"bid {n}" for n in range(2, 14)])
    assert forty_one.parse("5").code == "bid 5"  # used to bid 6
    assert [c.key for c in forty_one.choices] == [str(n) for n in range(2, 14)]


def test_a_bid_not_allowed_now_goes_to_the_engine_for_its_reason() -> None:
    m = menu([f"bid {n}" for n in range(9, 14)] + ["pass"])
    assert (m.parse("8").kind, m.parse("8").code) == ("try", "bid 8")
    assert m.parse("1").kind == "try"


def test_levels_display_reads_a_level_as_the_bid() -> None:
    m = menu(TARNEEB_BIDS, offset=6)
    assert m.parse("1").code == "bid 7" and m.parse("7").code == "bid 13"


def test_cards_and_contracts_have_letter_keys_that_are_never_commands_or_numbers() -> None:
    cards = menu(["play AS", "play KS", "play TH", "play 2C"])
    keys = [c.key for c in cards.choices]
    assert keys == list(KEYS[:4])
    assert not set(keys) & set(COMMANDS) and all(not k.isdigit() for k in keys)
    assert cards.parse("b").code == "play KS"
    assert cards.parse("10h").code == "play TH" and cards.parse("Th").code == "play TH"
    assert cards.parse("play 2c").code == "play 2C" and cards.parse("A♠").code == "play AS"
    assert cards.parse("1").kind == "unknown"  # no option numbers outside a bid prompt
    contracts = menu(["contract king", "contract queens", "contract trix"])
    assert contracts.parse("c").code == "contract trix" and contracts.parse("queens").code == "contract queens"


def test_a_held_card_that_may_not_be_played_is_tried_so_the_rule_can_be_named() -> None:
    m = menu(["play AS", "play KS"])
    parsed = m.parse("qh")
    assert (parsed.kind, parsed.code) == ("try", "play QH")


def test_commands_work_at_every_prompt() -> None:
    for legal in (TARNEEB_BIDS, ["play AS", "play KS"], ["contract king", "contract trix"]):
        m = menu(legal)
        assert {k: m.parse(k).code for k in ("h", "?", "r", "s", "l", "q")} == {
            "h": "help", "?": "help", "r": "rules", "s": "scores", "l": "last", "q": "quit"}


@pytest.mark.parametrize("text", ["²", "①", "³", "¹³", "Ⅻ", "٫", "𝟕", "\x00", "bid ²", "bid", "7 7", "99999999"])
def test_strange_digits_never_crash_and_never_bid(text: str) -> None:
    parsed = menu(TARNEEB_BIDS).parse(text)
    assert parsed.kind in ("unknown", "try", "action")
    if parsed.kind == "action":  # only real decimal digits may make a bid ("𝟕" is a decimal digit 7)
        assert unicodedata.decimal(text.strip()[-1], None) is not None


def test_arabic_indic_and_persian_digits_are_read_as_numbers() -> None:
    assert ascii_digits("١٣") == "13" and ascii_digits("۷") == "7" and ascii_digits("²") == "²"
    m = menu(TARNEEB_BIDS)
    assert m.parse("٧").code == "bid 7" and m.parse("bid ١٣").code == "bid 13"
    assert m.parse("bid ١٣").typed_in_full and not m.parse("١٣").typed_in_full


def test_a_kaboot_bid_is_extreme_in_both_tarneeb_games_only() -> None:
    assert is_extreme("tarneeb", "bid 13") and is_extreme("tarneeb41", "bid 13")
    assert not is_extreme("tarneeb", "bid 12") and not is_extreme("trix", "bid 13")


def test_card_codes_in_every_spelling() -> None:
    assert [card_code(x) for x in ("qs", "10h", "TD", "k♣", "ab", "q")] == ["QS", "TH", "TD", "KC", None, None]


# -- 7. options from the command line ---------------------------------------------------------

def test_options_are_checked_and_their_errors_translated() -> None:
    en, ar = translator("en"), translator("ar")
    assert parse_options("tarneeb41", ["trump_mode=hearts_fixed"], en) == {"trump_mode": "hearts_fixed"}
    assert parse_options("trix", ["mode=complex", "partnership=true"], en) == {"mode": "complex",
                                                                              "partnership": True}
    assert parse_options("tarneeb41", ["min_total=12"], en) == {"min_total": 12}
    for bad in (["trump_mode=clubs"], ["nope=1"], ["min_total=x"], ["trump_mode"]):
        with pytest.raises(OptionError) as err:
            parse_options("tarneeb41", bad, ar)
        words = [w for w in str(err.value).replace("=", " ").split() if w.isascii() and w.isalpha()]
        known = {"trump_mode", "clubs", "nope", "min_total", "key", "value", "hearts_fixed", "exposed_sister_suit",
                 "tarneeb41"}
        assert set(words) <= known | set(parse_options.__globals__["spec"]("tarneeb41")), str(err.value)


# -- 8. Arabic in a terminal ------------------------------------------------------------------

def test_bidi_modes_never_print_isolates_and_visual_order_is_reshaped() -> None:
    t = translator("ar")
    line = t.lines([t.gettext("Turn: {name} to play", name="AI 2")])
    assert "\u2068" in line
    for mode in ("terminal", "none"):
        out = bidi.for_terminal(line, mode)
        assert not set(out) & set(bidi.ISOLATES)
    shown = bidi.for_terminal(line, "none")
    assert any(0xFE70 <= ord(ch) <= 0xFEFF for ch in shown)  # joined presentation forms
    assert bidi.for_terminal(line, "terminal").lstrip("\u200f").startswith("دور")


def test_bidi_auto_detects_terminals_that_do_bidi() -> None:
    assert bidi.detect({"VTE_VERSION": "7200"}, tty=True) == "terminal"
    assert bidi.detect({"MLTERM": "3.9"}, tty=True) == "terminal"
    assert bidi.detect({"XTERM_VERSION": "XTerm(379)"}, tty=True) == "none"
    assert bidi.detect({"VTE_VERSION": "7200", "TMUX": "/tmp/x"}, tty=True) == "none"
    assert bidi.detect({"XTERM_VERSION": "XTerm(379)"}, tty=False) == "terminal"  # a pipe: logical order
    for odd in ("²", "①", "٧٢٠٠", "7200²"):  # isdigit() is true for these; int() refuses or misreads them
        assert bidi.detect({"VTE_VERSION": odd}, tty=True) == "none"
        assert not bidi.wants_autodetect("terminal", {"VTE_VERSION": odd})
    assert bidi.configured(None, {"bidi": "terminal"}, {}) == "terminal"
    assert bidi.configured("none", {"bidi": "terminal"}, {}) == "none"
    assert bidi.configured(None, None, {"MAJLIS_BIDI": "none"}) == "none"
    assert bidi.configured("auto", None, {}, tty=True) == "none"
    with pytest.raises(ValueError):
        bidi.configured("sideways", None, {})


@pytest.mark.parametrize("mode", ["none", "terminal"])
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_frames_are_aligned_and_fit_80_columns(lang: str, mode: str) -> None:
    t = translator(lang)
    out = io.StringIO()
    screen = Screen(stream=out, mode=mode, rtl=t.rtl)
    table = [t.gettext("Turn: {name} to play", name="AI 2"), t.gettext("Scores:"),
             t.gettext("{team} ({name_a} & {name_b}): {total}", team=t.gettext("Us"), name_a=t.gettext("You"),
                       name_b="AI 2", total=12)]
    screen.side_by_side((t.gettext("Majlis"), table), (t.gettext("Your hand"), ["♠  a·A  b·K", "♥  \x01Q\x02"]))
    rows = out.getvalue().rstrip("\n").split("\n")
    widths = {bidi.cells(visible(r)) for r in rows}
    assert max(widths) <= 79
    if not (lang == "ar" and mode == "terminal"):
        assert len(widths) == 1, rows  # every row of the frame ends in the same column
    assert not set(out.getvalue()) & set(bidi.ISOLATES)


def test_colour_only_when_asked_hearts_and_diamonds_red() -> None:
    out = io.StringIO()
    Screen(stream=out, color=True).line("A♠ 10♥ K♦")
    assert "\x1b[31m10♥" in out.getvalue() and "\x1b[31mA♠" not in out.getvalue()
    plain = io.StringIO()
    Screen(stream=plain).line("10♥ \x01Q\x02")
    assert plain.getvalue() == "10♥ Q\n"


# -- whole matches in-process -----------------------------------------------------------------

class Script:
    """Feeds lines to the game as if typed (a stand-in for sys.stdin's reader thread)."""

    def __init__(self, lines: list[str]) -> None:
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        for line in lines:
            self.queue.put_nowait(line + "\n")
        self.queue.put_nowait("")


async def run_game(tmp_path: Path, lines: list[str], **kw: Any) -> tuple[int, str]:
    out = io.StringIO()
    opts = PlayOptions(db=str(tmp_path / "t.sqlite3"), interactive=False, ai_level="easy", pause=0.0, **kw)
    game = TerminalGame(opts, Screen(stream=out, rtl=translator(opts.lang).rtl))
    game._lines = Script(lines).queue
    code = await game.run()
    return code, out.getvalue()


async def test_a_whole_match_from_seat_two_through_sqlite(tmp_path: Path) -> None:
    code, text = await run_game(tmp_path, [], game="trix", lang="en", seat=2, seed=8, auto=True)
    assert code == 0
    assert "Match over · Trix · table 1" in text
    assert "You play" in text
    with sqlite3.connect(tmp_path / "t.sqlite3") as conn:
        status, seats = conn.execute("SELECT status, seats FROM tables WHERE table_id = 1").fetchone()
        actors = {row[0] for row in conn.execute("SELECT DISTINCT actor FROM actions WHERE seat = 2")}
    assert status == "finished"
    assert actors == {"cli:you"}
    assert "cli:you" in seats
    assert text.rstrip().endswith("Play again? [Y/n]")  # Trix alone: no partners to swap; the input ended


async def test_play_again_opens_the_next_match_with_the_same_options_and_seat(tmp_path: Path) -> None:
    code, text = await run_game(tmp_path, ["y", "", "n"], game="tarneeb41", lang="en", seat=1, seed=5,
                                target=1, auto=True)
    assert code == 0
    assert text.count("Play again? [Y/n]") == 3  # alone with the AI: no partners to swap
    for table in (1, 2, 3):
        assert f"Match over · Syrian Tarneeb 41 · table {table}" in text
        assert f"Syrian Tarneeb 41 starts at table {table}:" in text  # each told from its first event
    assert "table 4" not in text
    with sqlite3.connect(tmp_path / "t.sqlite3") as conn:
        rows = conn.execute("SELECT table_id, status, seats, options, lang FROM tables ORDER BY table_id").fetchall()
        movers = [conn.execute("SELECT DISTINCT seat FROM actions WHERE table_id = ? AND actor = 'cli:you'",
                               (t,)).fetchall() for t in (1, 2, 3)]
        seeds = [r[0] for r in conn.execute("SELECT seed FROM tables")]
    assert len(set(seeds)) == 3  # --seed fixes the deals of every match, not one match played three times
    assert [r[1] for r in rows] == ["finished"] * 3
    assert all(json.loads(r[3])["target"] == 1 and r[4] == "en" for r in rows)
    assert [r[0][0] for r in movers] == [1, 1, 1]  # the same seat each time


async def test_play_again_answered_no_ends_as_before(tmp_path: Path) -> None:
    code, text = await run_game(tmp_path, ["n", "y"], game="tarneeb41", lang="ar", seed=5, target=1, auto=True)
    assert code == 0
    prompt = bidi.plain(translator("ar").gettext("Play again? [Y/n] "), "none").strip()
    assert text.count(prompt) == 1
    with sqlite3.connect(tmp_path / "t.sqlite3") as conn:
        assert conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 1


async def test_typing_7_in_classic_tarneeb_bids_7_and_13_asks_first(tmp_path: Path) -> None:
    # seed 4: the two seats before us bid 7 and pass, so 8..13 are open to us
    code, text = await run_game(tmp_path, ["13", "n", "7", "h", "q"], game="tarneeb", lang="en", seed=4)
    assert code == 0
    assert "Bid 13: all 13 tricks, and it cannot be taken back. Are you sure? [y/N]" in text
    assert "Not bid. Choose again." in text
    assert "Your bid must be at least 8." in text  # "7" is the bid 7 (refused by the rule), not option 7
    assert "Type your bid as a number" in text
    assert "The match is saved: continue it with majlis play --resume." in text
    with sqlite3.connect(tmp_path / "t.sqlite3") as conn:
        bids = [r[0] for r in conn.execute("SELECT action FROM actions WHERE seat = 0")]
    assert bids == []  # nothing was bid by mistake


async def test_a_refused_card_names_the_rule(tmp_path: Path) -> None:
    # seed 4: we pass; AI 1 declares with diamonds as trump and leads K♦; we hold 9♦ 6♦ 3♦ and J♠ …
    lines = ["p", "js", "qh", "1", "q"]
    code, text = await run_game(tmp_path, lines, game="tarneeb", lang="en", seed=4)
    assert code == 0
    assert "You must follow suit: play Diamonds." in text
    assert "You do not hold Q♥." in text
    assert "“1” is not one of the choices. Type the letter shown before it, or h for help." in text
    assert "♦  a·9  b·6  c·3" in text and "♠  J  10  4  3" in text  # the playable cards carry their keys
    with sqlite3.connect(tmp_path / "t.sqlite3") as conn:
        mine = [r[0] for r in conn.execute("SELECT action FROM actions WHERE seat = 0")]
    assert mine == ["pass"]  # the refused cards changed nothing


async def test_an_unfinished_match_asks_to_resume(tmp_path: Path) -> None:
    code, _ = await run_game(tmp_path, ["q"], game="tarneeb41", lang="en", seed=3)
    assert code == 0
    code, text = await run_game(tmp_path, ["n", "q"], game="tarneeb41", lang="en", seed=3)
    assert "An unfinished match of Syrian Tarneeb 41 is waiting at table 1. Resume it? [Y/n]" in text
    assert "The unfinished match at table 1 was abandoned." in text
    code, text = await run_game(tmp_path, ["", "q"], game="tarneeb41", lang="en", seed=3)
    assert "Resuming table 2." in text


async def test_resuming_with_lang_asked_for_renames_you(tmp_path: Path) -> None:
    await run_game(tmp_path, ["q"], game="tarneeb41", lang="ar", seed=3)
    code, text = await run_game(tmp_path, ["q"], game="tarneeb41", lang="en", lang_asked=True, seed=3, resume=True)
    assert code == 0
    assert "أنت" not in text and "You" in text


async def test_resuming_without_lang_keeps_the_match_s_language(tmp_path: Path) -> None:
    await run_game(tmp_path, ["q"], game="tarneeb41", lang="ar", seed=3)
    code, text = await run_game(tmp_path, ["q"], game="tarneeb41", lang="en", seed=3, resume=True)
    assert code == 0
    assert "You" not in text and "Resuming" not in text and "bid" not in text  # Arabic (reshaped), not English


class Counted(io.TextIOBase):
    """A terminal that keeps nothing: it counts the refusals and samples the traced memory every
    ``every`` of them."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.refused = 0
        self.samples: list[int] = []

    def write(self, text: str) -> int:
        if "is not a bid" in text:
            self.refused += 1
            if self.refused % self.every == 0:
                self.samples.append(tracemalloc.get_traced_memory()[0])
        return len(text)


@pytest.mark.slow
async def test_the_terminal_stays_flat_over_100000_refused_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    answers, every = 100_000, 10_000
    read_end, write_end = os.pipe()

    def feed() -> None:  # as fast as the pipe takes them
        with os.fdopen(write_end, "w") as pipe:
            for _ in range(answers // 1000):
                pipe.write("zzz\n" * 1000)

    screen = Counted(every)
    opts = PlayOptions(db=":memory:", game="tarneeb41", lang="en", seed=3, interactive=False, ai_level="easy",
                       pause=0.0)
    game = TerminalGame(opts, Screen(stream=screen))
    feeder = threading.Thread(target=feed, daemon=True)
    with os.fdopen(read_end) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        tracemalloc.start()
        try:
            feeder.start()
            code = await game.run()
        finally:
            tracemalloc.stop()
            feeder.join(timeout=30)
    assert code == 3  # the input ended, the match is saved
    assert screen.refused == answers and len(screen.samples) == answers // every
    spread = max(screen.samples) - min(screen.samples)
    assert spread < 256 * 1024, [f"{n // 1024} KiB" for n in screen.samples]  # not ~60 bytes an answer


# -- 6. one language per screen: replay, tables, rules --------------------------------------

async def test_replay_tells_a_match_in_its_own_language_unless_told(tmp_path: Path) -> None:
    from bot.present.story import replay_text, table_list

    await run_game(tmp_path, ["q"], game="tarneeb41", lang="ar", seed=3)
    db = tmp_path / "t.sqlite3"
    own = await replay_text(db, 1)
    assert own is not None and "المقعد" in own and "Seat" not in own
    english = await replay_text(db, 1, translator("en"))
    assert english is not None and "Seat 0: You" in english and "أنت" not in english
    rows = await table_list(db, translator("en"))
    assert rows == ["1 · Syrian Tarneeb 41 · being played · You, AI 1, AI 2, AI 3"]


@pytest.mark.slow  # a real process
def test_rules_and_tables_commands(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), LANG="C.UTF-8",
               PYTHONPATH=str(Path(__file__).resolve().parents[3]))

    def majlis(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True,
                              env=env, timeout=60, check=False)

    rules = majlis("rules", "trix", "--lang", "en", "--option", "no_heart_lead_in_king=true")
    assert rules.returncode == 0 and "There is no trump" in rules.stdout and "hearts may not be led" in rules.stdout
    arabic = majlis("rules", "tarneeb41", "--lang", "ar")
    assert arabic.returncode == 0 and "الطرنيب" in arabic.stdout and not set(arabic.stdout) & set(bidi.ISOLATES)
    bad = majlis("rules", "tarneeb41", "--lang", "ar", "--option", "trump_mode=purple")
    assert bad.returncode == 2 and "الخيار" in bad.stderr and "Traceback" not in bad.stderr
    bad_play = majlis("play", "--lang", "ar", "--game", "trix", "--option", "colour=red", "--db",
                      str(tmp_path / "x.sqlite3"))
    assert bad_play.returncode == 2 and "لا خيار باسم" in bad_play.stderr
    none = majlis("tables", "--lang", "en", "--db", str(tmp_path / "none.sqlite3"))
    assert none.returncode == 1 and "No database" in none.stderr


def test_done_keeps_its_key_while_doubles_are_chosen() -> None:
    first = menu(["double QS", "double QH", "done"])
    assert [c.key for c in first.choices] == ["a", "b", "d"]
    after = menu(["double QH", "done"])
    assert after.parse("d").code == "done" and after.parse("done").code == "done"
