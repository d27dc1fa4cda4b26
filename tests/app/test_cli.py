"""The ``majlis`` command: configuration, ``run`` without tokens, ``replay``, ``bench``, choice parsing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.adapters.terminal.choices import Menu
from bot.adapters.terminal.frame import display_order
from bot.app.cli.main import build_parser, main
from bot.app.config import ConfigError, default_data_dir, load_config

ROOT = Path(__file__).resolve().parents[2]


def clean_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJLIS_")}
    env.update(HOME=str(tmp), XDG_DATA_HOME=str(tmp / "data"), LANG="C.UTF-8", PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


def majlis(tmp: Path, *args: str, env: dict[str, str] | None = None,
           stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True,
                          text=True, timeout=240, env=env or clean_env(tmp), cwd=tmp, check=False)


# -- configuration ------------------------------------------------------------------------------


def test_defaults_follow_the_xdg_data_home(tmp_path: Path) -> None:
    cfg = load_config({"XDG_DATA_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)})
    assert cfg.data_dir == tmp_path / "xdg" / "majlis"
    assert cfg.db == str(tmp_path / "xdg" / "majlis" / "majlis.sqlite3")
    assert cfg.telegram_token is None and cfg.discord_token is None
    assert cfg.config_file is None


def test_without_xdg_the_data_dir_is_under_home(tmp_path: Path) -> None:
    assert default_data_dir({"HOME": str(tmp_path)}) == tmp_path / ".local" / "share" / "majlis"


def test_the_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "majlis.toml").write_text(
        'lang = "en"\nturn_seconds = 45\nai_delay = 0.5\n'
        '[telegram]\ntoken = "from-file"\nbase_url = "http://127.0.0.1:9/bot"\n'
        '[discord]\ntoken = "dc-file"\napi_base = "http://127.0.0.1:9/api/v10"\n'
        '[extra]\nanything = 1\n', encoding="utf-8")
    env = {"MAJLIS_DATA_DIR": str(data), "MAJLIS_TELEGRAM_TOKEN": "from-env", "MAJLIS_TURN_SECONDS": "30"}
    cfg = load_config(env)
    assert cfg.config_file == data / "majlis.toml"
    assert cfg.lang == "en" and cfg.ai_delay == 0.5
    assert cfg.telegram_token == "from-env"  # the environment wins over the file
    assert cfg.turn_seconds == 30
    assert cfg.telegram_base_url == "http://127.0.0.1:9/bot"
    assert cfg.discord_token == "dc-file" and cfg.discord_api_base == "http://127.0.0.1:9/api/v10"
    assert cfg.section("extra") == {"anything": 1}
    assert "from-env" not in repr(cfg) and "dc-file" not in repr(cfg)


def test_majlis_config_names_the_file_and_overrides_win(tmp_path: Path) -> None:
    f = tmp_path / "elsewhere.toml"
    f.write_text('db = "/srv/m.sqlite3"\nlang = "ar"\n', encoding="utf-8")
    cfg = load_config({"MAJLIS_CONFIG": str(f), "HOME": str(tmp_path)}, db="/tmp/x.sqlite3", lang=None)
    assert cfg.db == "/tmp/x.sqlite3" and cfg.lang == "ar"


@pytest.mark.parametrize(("env", "needle"), [
    ({"MAJLIS_TURN_SECONDS": "soon"}, "MAJLIS_TURN_SECONDS"),
    ({"MAJLIS_AI_DELAY": "-1"}, "MAJLIS_AI_DELAY"),
    ({"MAJLIS_LANG": "fr"}, "MAJLIS_LANG"),
    ({"MAJLIS_AI_LEVEL": "godlike"}, "MAJLIS_AI_LEVEL"),
    ({"MAJLIS_CONFIG": "/nonexistent/majlis.toml"}, "MAJLIS_CONFIG"),
    ({"MAJLIS_TURN_SECONDS": "٣٠"}, "MAJLIS_TURN_SECONDS"),  # float() would read Arabic-Indic digits
    ({"MAJLIS_COMMAND_BURST": "-1"}, "MAJLIS_COMMAND_BURST"),
    ({"MAJLIS_COMMAND_EVERY": "۳"}, "MAJLIS_COMMAND_EVERY"),
    ({"MAJLIS_PRESS_BURST": "1.5"}, "MAJLIS_PRESS_BURST"),
])
def test_a_bad_value_names_its_variable(tmp_path: Path, env: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        load_config({"HOME": str(tmp_path), **env})


def test_webhook_and_metrics_settings_come_from_the_file_and_the_environment(tmp_path: Path) -> None:
    f = tmp_path / "m.toml"
    f.write_text('[telegram]\nwebhook = true\nwebhook_url = "https://bot.example.org/tg"\nwebhook_port = 8000\n'
                 'webhook_secret = "file-secret_1"\n[metrics]\nport = 9464\n', encoding="utf-8")
    cfg = load_config({"MAJLIS_CONFIG": str(f), "MAJLIS_TELEGRAM_WEBHOOK_LISTEN": "0.0.0.0",
                       "MAJLIS_METRICS_HOST": "0.0.0.0"})
    assert (cfg.telegram_webhook, cfg.telegram_webhook_url, cfg.telegram_webhook_listen, cfg.telegram_webhook_port,
            cfg.metrics_port, cfg.metrics_host) == (True, "https://bot.example.org/tg", "0.0.0.0", 8000, 9464,
                                                    "0.0.0.0")
    assert cfg.telegram_webhook_secret == "file-secret_1" and "file-secret_1" not in repr(cfg)
    plain = load_config({"HOME": str(tmp_path)})
    assert (plain.telegram_webhook, plain.metrics_port, plain.telegram_webhook_secret) == (False, None, None)


@pytest.mark.parametrize(("env", "needle"), [
    ({"MAJLIS_TELEGRAM_WEBHOOK_PORT": "80000"}, "MAJLIS_TELEGRAM_WEBHOOK_PORT"),
    ({"MAJLIS_METRICS_PORT": "http"}, "MAJLIS_METRICS_PORT"),
    ({"MAJLIS_METRICS_PORT": "²"}, "MAJLIS_METRICS_PORT"),  # "²".isdigit() is True; int("²") raised
    ({"MAJLIS_TELEGRAM_WEBHOOK_PORT": "٨٠٨٠"}, "MAJLIS_TELEGRAM_WEBHOOK_PORT"),
    ({"MAJLIS_TELEGRAM_WEBHOOK_URL": "bot.example.org"}, "MAJLIS_TELEGRAM_WEBHOOK_URL"),
    ({"MAJLIS_TELEGRAM_WEBHOOK": "maybe"}, "MAJLIS_TELEGRAM_WEBHOOK"),
])
def test_a_bad_webhook_or_metrics_value_names_its_variable(tmp_path: Path, env: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        load_config({"HOME": str(tmp_path), **env})


def test_a_bad_webhook_secret_is_refused_without_repeating_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="MAJLIS_TELEGRAM_WEBHOOK_SECRET") as info:
        load_config({"HOME": str(tmp_path), "MAJLIS_TELEGRAM_WEBHOOK_SECRET": "has spaces & $ecret"})
    assert "$ecret" not in str(info.value)


@pytest.mark.slow  # a real process
def test_run_webhook_without_its_public_address_says_what_to_set(tmp_path: Path) -> None:
    proc = majlis(tmp_path, "run", "--telegram", "--webhook",
                  env=clean_env(tmp_path, MAJLIS_TELEGRAM_TOKEN="7012345678:AAHfakeFAKEfake_fake-FAKEfakeFAKEfak"))
    assert proc.returncode == 2, proc.stderr
    assert "MAJLIS_TELEGRAM_WEBHOOK_URL" in proc.stderr and "Traceback" not in proc.stderr


def test_a_broken_file_is_reported(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text("lang = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.toml"):
        load_config({"MAJLIS_CONFIG": str(f)})


# -- run --------------------------------------------------------------------------------------


@pytest.mark.slow  # a real process
def test_run_without_any_token_says_what_to_set(tmp_path: Path) -> None:
    proc = majlis(tmp_path, "run")
    assert proc.returncode == 1
    assert "MAJLIS_TELEGRAM_TOKEN" in proc.stderr and "MAJLIS_DISCORD_TOKEN" in proc.stderr
    assert "majlis.toml" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.slow  # a real process
def test_run_telegram_without_its_token_names_only_that_variable(tmp_path: Path) -> None:
    proc = majlis(tmp_path, "run", "--telegram", env=clean_env(tmp_path, MAJLIS_DISCORD_TOKEN="x"))
    assert proc.returncode == 1
    assert "MAJLIS_TELEGRAM_TOKEN" in proc.stderr and "MAJLIS_DISCORD_TOKEN" not in proc.stderr


@pytest.mark.slow  # a real process
def test_run_speaks_the_configured_language(tmp_path: Path) -> None:
    proc = majlis(tmp_path, "run", "--discord", env=clean_env(tmp_path, MAJLIS_LANG="ar"))
    assert proc.returncode == 1
    assert "MAJLIS_DISCORD_TOKEN" in proc.stderr
    assert "No token is configured" not in proc.stderr  # said in Arabic


# -- a database in a folder that does not exist ------------------------------------------------


DB_COMMANDS = [["play", "--ai", "easy"], ["web", "--no-open", "--port", "0"], ["run"], ["replay", "1"],
               ["tables"], ["db", "migrate"]]


@pytest.mark.slow  # real processes
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("command", DB_COMMANDS, ids=[c[0] for c in DB_COMMANDS])
def test_a_database_in_a_missing_folder_is_one_line_and_creates_nothing(tmp_path: Path, command: list[str],
                                                                        lang: str) -> None:
    """Issue 29: --db into a folder that does not exist: one line naming it, exit 2, no folder made."""
    from bot.present.i18n import translator

    folder = tmp_path / "no" / "such"
    env = clean_env(tmp_path, LANG="ar_SY.UTF-8" if lang == "ar" else "en_US.UTF-8")
    proc = majlis(tmp_path, *command, "--db", str(folder / "m.sqlite3"), env=env)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    line = translator(lang).gettext(
        "The folder {folder} does not exist, so the database {db} cannot be there: create the folder "
        "first, or set --db (or MAJLIS_DB) to a file in an existing folder.",
        folder=str(folder), db=str(folder / "m.sqlite3"))
    printed = line.translate(dict.fromkeys(range(0x2066, 0x206A)))  # never an isolate on a terminal's stderr
    assert proc.stderr == f"majlis: {printed}\n"
    assert not (tmp_path / "no").exists()
    assert not (tmp_path / "data").exists()  # nor the data folder: that database is not in it
    via_env = majlis(tmp_path, *command, env={**env, "MAJLIS_DB": str(folder / "m.sqlite3")})
    assert via_env.returncode == 2 and via_env.stderr == proc.stderr
    assert not (tmp_path / "no").exists()


@pytest.mark.slow  # a real process
def test_the_default_data_folder_is_still_created(tmp_path: Path) -> None:
    proc = majlis(tmp_path, "play", "--ai", "easy", "--lang", "en", "--seed", "1", stdin="q\n")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (tmp_path / "data" / "majlis" / "majlis.sqlite3").is_file()


# -- replay and bench -------------------------------------------------------------------------


@pytest.mark.slow
def test_replay_tells_a_finished_match_deal_by_deal(tmp_path: Path) -> None:
    db = str(tmp_path / "m.sqlite3")
    played = majlis(tmp_path, "play", "--db", db, "--game", "trix", "--ai", "easy", "--seed", "3",
                    "--lang", "en", "--auto")
    assert played.returncode == 0, played.stderr[-2000:]
    proc = majlis(tmp_path, "replay", "1", "--db", db, "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("Trix · table 1 · finished")
    assert "Seed 3;" in out
    for deal in range(1, 21):
        assert f"Deal {deal} — kingdom" in out
    assert out.count("holds") + out.count("You hold ") == 80  # every seat's hand, every deal (yours: "You hold")
    assert "Trick 1:" in out and "Deal scored:" in out
    assert "wins the match" in out or "You win the match!" in out  # the terminal's player is "You"
    ar = majlis(tmp_path, "replay", "1", "--db", db, "--lang", "ar")
    assert ar.returncode == 0 and "Deal 1" not in ar.stdout and len(ar.stdout) > 1000


@pytest.mark.slow  # a real process
def test_replay_of_a_missing_table_fails(tmp_path: Path) -> None:
    assert majlis(tmp_path, "replay", "7", "--db", str(tmp_path / "none.sqlite3")).returncode == 1


@pytest.mark.slow  # a real process
def test_replay_and_tables_read_a_postgresql_database(tmp_path: Path, pg_url: str) -> None:
    empty = majlis(tmp_path, "tables", "--db", pg_url, "--lang", "en")  # read-only: no tables yet, none made
    assert empty.returncode == 1 and "does not have the tables" in empty.stderr and "Traceback" not in empty.stderr
    stopped = majlis(tmp_path, "play", "--db", pg_url, "--game", "tarneeb41", "--ai", "easy", "--seed", "3",
                     "--lang", "en")  # no input: the match stops at the first turn, saved
    assert stopped.returncode == 3, stopped.stderr
    listed = majlis(tmp_path, "tables", "--db", pg_url, "--lang", "en")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == "1 · Syrian Tarneeb 41 · being played · You, AI 1, AI 2, AI 3\n"
    arabic = majlis(tmp_path, "replay", "--list", "--db", pg_url, "--lang", "ar")
    assert arabic.returncode == 0 and "طرنيب سوري" in arabic.stdout and "Syrian" not in arabic.stdout
    story = majlis(tmp_path, "replay", "1", "--db", pg_url, "--lang", "en")
    assert story.returncode == 0, story.stderr
    assert story.stdout.startswith("Syrian Tarneeb 41 · table 1 · being played\nSeed 3;")
    assert story.stdout.rstrip().endswith("The match goes on.")
    missing = majlis(tmp_path, "replay", "2", "--db", pg_url, "--lang", "en")
    assert (missing.returncode, missing.stderr) == (1, "There is no table 2.\n")


@pytest.mark.slow  # a real process
def test_a_database_server_that_cannot_be_reached_is_one_line_without_its_password(tmp_path: Path) -> None:
    url = "postgresql://majlis:s3cret@127.0.0.1:9/majlis"  # port 9: nobody listens
    for command in (["tables"], ["replay", "1"]):
        proc = majlis(tmp_path, *command, "--db", url, "--lang", "en")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert proc.stderr.startswith("majlis: Cannot use the database postgresql://majlis:***@127.0.0.1:9/majlis")
        assert "its server runs" in proc.stderr and "s3cret" not in proc.stderr + proc.stdout


@pytest.mark.slow  # a real process
def test_tables_takes_a_sqlite_url_and_the_in_memory_database(tmp_path: Path) -> None:
    db = tmp_path / "a folder" / "m.sqlite3"
    assert majlis(tmp_path, "play", "--db", f"sqlite:///{db}", "--game", "trix", "--ai", "easy",
                  "--lang", "en").returncode == 2  # a folder named by --db is never made for it (issue 29)
    assert not db.parent.exists()
    db.parent.mkdir()
    assert majlis(tmp_path, "play", "--db", f"sqlite:///{db}", "--game", "trix", "--ai", "easy",
                  "--lang", "en").returncode == 3
    assert (db.parent / "majlis-play.log").exists()  # the log kept beside the database
    listed = majlis(tmp_path, "tables", "--db", f"sqlite:///{db}", "--lang", "en")
    assert listed.returncode == 0 and listed.stdout.startswith("1 · Trix · being played")
    memory = majlis(tmp_path, "tables", "--db", ":memory:", "--lang", "en")
    assert (memory.returncode, memory.stdout) == (0, "There are no tables yet.\n")
    gone = majlis(tmp_path, "tables", "--db", f"sqlite:///{tmp_path / 'none.sqlite3'}", "--lang", "en")
    assert (gone.returncode, gone.stderr) == (1, f"majlis: No database at {tmp_path / 'none.sqlite3'}.\n")


@pytest.mark.slow  # a real process
def test_bare_majlis_prints_the_help_and_succeeds(tmp_path: Path) -> None:
    proc = majlis(tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("usage: majlis [-h] COMMAND ...")
    for command in ("play", "web", "run", "replay", "tables", "rules", "db", "bench"):
        assert f"    {command} " in proc.stdout


@pytest.mark.slow  # a real process
def test_bench_lists_and_refuses_unknown_names(tmp_path: Path) -> None:
    listed = subprocess.run([sys.executable, "-m", "bot", "bench", "--list"], capture_output=True,
                            text=True, cwd=ROOT, env=clean_env(tmp_path), timeout=60, check=False)
    assert listed.returncode == 0
    names = listed.stdout.split()
    assert names == sorted(p.stem for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_"))
    bad = subprocess.run([sys.executable, "-m", "bot", "bench", "no_such_bench"], capture_output=True,
                         text=True, cwd=ROOT, env=clean_env(tmp_path), timeout=60, check=False)
    assert bad.returncode == 2 and "no_such_bench" in bad.stderr


# -- parsing ----------------------------------------------------------------------------------


def test_the_parser_knows_every_command_and_option() -> None:
    p = build_parser()
    a = p.parse_args(["play", "--game", "trix", "--lang", "en", "--seat", "2", "--seed", "5", "--timer", "30",
                      "--target", "41", "--ai", "strong", "--resume", "--db", "x.db"])
    assert (a.game, a.lang, a.seat, a.seed, a.timer, a.target, a.ai, a.resume, a.db) == (
        "trix", "en", 2, 5, 30, 41, "strong", True, "x.db")
    assert p.parse_args(["run", "--telegram"]).telegram
    assert p.parse_args(["replay", "12"]).table_id == 12
    with pytest.raises(SystemExit):
        p.parse_args(["play", "--seat", "4"])
    with pytest.raises(SystemExit):
        main(["dance"])


LEGAL = ["play 2S", "play TS", "play KS"]


def choice(text: str, legal: list[str]) -> str | None:
    parsed = Menu(legal, {}).parse(text)
    return parsed.code if parsed.kind == "action" else None


@pytest.mark.parametrize(("text", "expected"), [
    ("a", "play 2S"), (" c \n", "play KS"), ("KS", "play KS"), ("ks", "play KS"), ("play ts", "play TS"),
    ("10s", "play TS"), ("0", None), ("1", None), ("", None), ("QS", None), ("play", None), ("-1", None),
])
def test_a_choice_is_a_letter_or_a_code(text: str, expected: str | None) -> None:
    assert choice(text, LEGAL) == expected


def test_bids_are_their_own_number_and_contracts_parse_by_their_argument() -> None:
    assert choice("7", ["pass", "bid 7", "bid 8"]) == "bid 7"
    assert choice("bid 7", ["pass", "bid 7", "bid 8"]) == "bid 7"
    assert choice("pass", ["pass", "bid 7"]) == "pass"
    assert choice("queens", ["contract king", "contract queens"]) == "contract queens"


def test_cards_are_numbered_in_the_order_the_hand_shows_them() -> None:
    legal = ["play 3C", "play AC", "play 7D", "play 10H".replace("10", "T"), "play 8S", "play AS"]
    assert display_order(legal) == ["play AS", "play 8S", "play TH", "play 7D", "play AC", "play 3C"]
    assert display_order(["bid 7", "pass"]) == ["bid 7", "pass"]


def test_the_command_limits_come_from_the_file_and_the_environment(tmp_path: Path) -> None:
    f = tmp_path / "m.toml"
    f.write_text("command_burst = 3\ncommand_every = 4.5\npress_burst = 0\n", encoding="utf-8")
    cfg = load_config({"MAJLIS_CONFIG": str(f), "MAJLIS_PRESS_EVERY": "0.2"})
    limits = cfg.limits()
    assert (limits.burst, limits.every, limits.press_burst, limits.press_every) == (3, 4.5, 0, 0.2)
    plain = load_config({"HOME": str(tmp_path)}).limits()
    assert (plain.burst, plain.every, plain.press_burst, plain.press_every) == (5, 3.0, 30, 0.1)
