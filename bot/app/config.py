"""Configuration: environment variables over an optional TOML file over defaults.

The file is ``$MAJLIS_CONFIG`` if set, else ``<data dir>/majlis.toml`` if it exists::

    db = "/var/lib/majlis/majlis.sqlite3"
    durability = "crash"      # or "power"
    lang = "ar"
    turn_seconds = 60
    ai_delay = 1.0
    shutdown_grace = 10
    command_burst = 5         # commands a person may send at once in a chat,
    command_every = 3.0       # then one every this many seconds

    [telegram]
    token = "..."
    base_url = "http://127.0.0.1:8081/bot"
    concurrent_updates = 16
    outbox_pool_size = 32
    webhook = false           # true: as `majlis run --telegram --webhook`
    webhook_url = "https://bot.example.org/telegram"   # the public address Telegram posts to
    webhook_listen = "127.0.0.1"
    webhook_port = 8443
    webhook_secret = "..."    # optional: by default one is made per install and kept in the database

    [metrics]                 # /metrics and /healthz (off unless a port is given)
    port = 9464
    host = "127.0.0.1"

    [discord]
    token = "..."
    api_base = "https://discord.com/api/v10"
    gateway = "wss://gateway.discord.gg/"
    sharded = false
    shards = "0-3/8"          # this process runs shards 0-3 of 8 (bot/app/config.py)
    client_id = "123456789012345678"   # the table inside Discord (an Activity), with [web] url:
    client_secret = "..."              # the application's OAuth2 client (docs/configuration.md)

Most keys have an environment variable that wins over the file (see :data:`ENV`). A value that
cannot be used, a file that is not UTF-8 or not TOML raise :class:`ConfigError`, whose message
says what is wrong, where (the file and key, or the variable) and what to do. The data
directory defaults to ``$XDG_DATA_HOME/majlis`` or ``~/.local/share/majlis``; the database to
``<data dir>/majlis.sqlite3``.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.core.identity import ascii_int

if TYPE_CHECKING:
    from bot.adapters.throttle import CommandLimits
    from bot.adapters.web.discord_auth import DiscordActivity
    from bot.adapters.web.service import WebConfig

#: Config field -> environment variable.
ENV: dict[str, str] = {
    "data_dir": "MAJLIS_DATA_DIR",
    "db": "MAJLIS_DB",
    "durability": "MAJLIS_DURABILITY",
    "lang": "MAJLIS_LANG",
    "digits": "MAJLIS_DIGITS",
    "turn_seconds": "MAJLIS_TURN_SECONDS",
    "ai_delay": "MAJLIS_AI_DELAY",
    "ai_level": "MAJLIS_AI_LEVEL",
    "log_level": "MAJLIS_LOG_LEVEL",
    "shutdown_grace": "MAJLIS_SHUTDOWN_GRACE",
    "command_burst": "MAJLIS_COMMAND_BURST",
    "command_every": "MAJLIS_COMMAND_EVERY",
    "press_burst": "MAJLIS_PRESS_BURST",
    "press_every": "MAJLIS_PRESS_EVERY",
    "telegram_token": "MAJLIS_TELEGRAM_TOKEN",
    "telegram_base_url": "MAJLIS_TELEGRAM_BASE_URL",
    "discord_token": "MAJLIS_DISCORD_TOKEN",
    "discord_api_base": "MAJLIS_DISCORD_API_BASE",
    "discord_gateway": "MAJLIS_DISCORD_GATEWAY",
    "discord_client_id": "MAJLIS_DISCORD_CLIENT_ID",
    "discord_client_secret": "MAJLIS_DISCORD_CLIENT_SECRET",
    "telegram_webhook": "MAJLIS_TELEGRAM_WEBHOOK",
    "telegram_webhook_url": "MAJLIS_TELEGRAM_WEBHOOK_URL",
    "telegram_webhook_listen": "MAJLIS_TELEGRAM_WEBHOOK_LISTEN",
    "telegram_webhook_port": "MAJLIS_TELEGRAM_WEBHOOK_PORT",
    "telegram_webhook_secret": "MAJLIS_TELEGRAM_WEBHOOK_SECRET",
    "metrics_port": "MAJLIS_METRICS_PORT",
    "metrics_host": "MAJLIS_METRICS_HOST",
    "discord_shards": "MAJLIS_DISCORD_SHARDS",
    "lease_seconds": "MAJLIS_LEASE_SECONDS",
}
CONFIG_ENV = "MAJLIS_CONFIG"
#: ``[section] key`` in the file -> config field (top-level keys are the field names).
_SECTIONS = {
    ("telegram", "token"): "telegram_token",
    ("telegram", "base_url"): "telegram_base_url",
    ("discord", "token"): "discord_token",
    ("discord", "api_base"): "discord_api_base",
    ("discord", "gateway"): "discord_gateway",
    ("discord", "sharded"): "discord_sharded",
    ("discord", "shards"): "discord_shards",
    ("discord", "client_id"): "discord_client_id",
    ("discord", "client_secret"): "discord_client_secret",
    ("telegram", "concurrent_updates"): "telegram_concurrent_updates",
    ("telegram", "outbox_pool_size"): "telegram_outbox_pool_size",
    ("telegram", "webhook"): "telegram_webhook",
    ("telegram", "webhook_url"): "telegram_webhook_url",
    ("telegram", "webhook_listen"): "telegram_webhook_listen",
    ("telegram", "webhook_port"): "telegram_webhook_port",
    ("telegram", "webhook_secret"): "telegram_webhook_secret",
    ("metrics", "port"): "metrics_port",
    ("metrics", "host"): "metrics_host",
}
AI_LEVELS = ("easy", "normal", "strong")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_COUNTS = ("telegram_concurrent_updates", "telegram_outbox_pool_size")
_WHOLE = ("turn_seconds", "command_burst", "press_burst")
_PORTS = ("telegram_webhook_port", "metrics_port")
_BOOLS = ("discord_sharded", "telegram_webhook")
#: What Telegram accepts as a webhook's secret token.
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


class ConfigError(ValueError):
    """A configuration value that cannot be used (the message names the variable or key).

    ``fix`` says what to do about it; it ends the message, in parentheses.
    """

    def __init__(self, message: str, fix: str | None = None) -> None:
        super().__init__(f"{message} ({fix})" if fix else message)
        self.fix = fix


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the command line and the bots read from their environment."""

    data_dir: Path
    db: str
    durability: str = "crash"  # "crash" (WAL, synchronous=NORMAL) or "power" (synchronous=FULL)
    lang: str | None = None
    digits: str = "western"
    turn_seconds: int = 60
    ai_delay: float = 1.0
    ai_level: str = "normal"
    log_level: str = "INFO"
    #: Seconds ``majlis run`` waits on SIGTERM/SIGINT for the outboxes to deliver what is queued.
    shutdown_grace: float = 10.0
    #: Per person and chat: this many commands at once, then one every ``command_every`` seconds
    #: (``bot.adapters.throttle.CommandLimits``; 0 turns the limit off).
    command_burst: int = 5
    command_every: float = 3.0
    #: Button presses per person: a flood cap only (0 turns it off).
    press_burst: int = 30
    press_every: float = 0.1
    telegram_token: str | None = None
    telegram_base_url: str | None = None
    telegram_concurrent_updates: int | None = None
    telegram_outbox_pool_size: int | None = None
    discord_token: str | None = None
    discord_api_base: str | None = None
    discord_gateway: str | None = None
    discord_sharded: bool = False
    #: ``<ids>/<count>``: the Discord shards this process runs (``bot/app/config.py``); None: all.
    discord_shards: str | None = None
    #: The application's OAuth2 client: with the web table on, "Open table" on a table message opens
    #: the web table inside Discord (an Activity) and the page signs people in with it.
    discord_client_id: str | None = None
    discord_client_secret: str | None = None
    #: Several processes on PostgreSQL: seconds a table's lease lasts (renewed every third of it).
    lease_seconds: float = 30.0
    #: ``majlis run --telegram --webhook``: Telegram posts updates to ``telegram_webhook_url``, which
    #: the operator's proxy forwards to ``telegram_webhook_listen:telegram_webhook_port`` (same path).
    telegram_webhook: bool = False
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "127.0.0.1"
    telegram_webhook_port: int = 8443
    #: None: the install's own, made once and kept in the database (``meta`` key ``telegram_webhook_secret``).
    telegram_webhook_secret: str | None = None
    #: ``/metrics`` and ``/healthz`` on ``metrics_host:metrics_port``; None: not served.
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    config_file: Path | None = None
    #: The whole parsed TOML file, for settings that only one adapter reads.
    file: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:  # never print a token
        shown = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "file"}
        for k in ("telegram_token", "discord_token", "telegram_webhook_secret", "discord_client_secret"):
            if shown[k]:
                shown[k] = "***"
        return "Config(" + ", ".join(f"{k}={v!r}" for k, v in shown.items()) + ")"

    def limits(self) -> CommandLimits:
        """The adapters' per-person limits."""
        from bot.adapters.throttle import CommandLimits

        return CommandLimits(self.command_burst, self.command_every, self.press_burst, self.press_every)

    def section(self, name: str) -> Mapping[str, Any]:
        """A table of the TOML file (``[telegram]``), empty if absent."""
        value = self.file.get(name, {})
        return value if isinstance(value, Mapping) else {}


def default_data_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/majlis``, else ``~/.local/share/majlis``."""
    xdg = env.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path(env.get("HOME") or Path.home()) / ".local" / "share"
    return base / "majlis"


def _fix(where: str) -> str:
    """What to do about a bad value found at ``where`` (a variable, an option or ``file: key``)."""
    if where.startswith("--"):
        return f"give {where} another value"
    if where.startswith("MAJLIS_"):
        return f"set {where} to a valid value or unset it"
    path, _, key = where.partition(": ")
    return f"correct {key} in {path}" if key else f"correct {path}"


def _coerce(name: str, value: Any, where: str) -> Any:
    def bad(expected: str) -> ConfigError:
        return ConfigError(f"{where}: expected {expected}, got {value!r}", _fix(where))

    if name == "discord_shards":
        try:
            parse_shards(str(value))
        except ValueError as e:
            raise ConfigError(f"{where}: {e}, got {value!r}", _fix(where)) from None
        return str(value).strip()
    if name == "lease_seconds":
        try:
            x = -1.0 if isinstance(value, bool) or not str(value).isascii() else float(value)
        except (TypeError, ValueError):
            x = -1.0
        if not 1.0 <= x < float("inf"):
            raise bad("a number of seconds, at least 1")
        return x
    if name in ("ai_delay", "shutdown_grace", "command_every", "press_every", *_WHOLE, *_COUNTS):
        if isinstance(value, bool) or not isinstance(value, int | float | str) \
                or (isinstance(value, str) and not value.isascii()):  # float() also reads "٣٠"
            raise bad("a number")
        try:
            x = float(value)
        except ValueError:
            raise bad("a number") from None
        if name in (*_WHOLE, *_COUNTS):
            if x != int(x):
                raise bad("a whole number")
            n = int(x)
            if n < (1 if name in _COUNTS else 0):
                raise bad("a positive number" if name in _COUNTS else "a non-negative number")
            return n
        if not x >= 0 or x == float("inf"):
            raise bad("a non-negative number")
        return x
    if name in _PORTS:
        text = str(value).strip()
        port = None if isinstance(value, bool) else ascii_int(text)  # "²".isdigit() is True, int("²") fails
        if port is None or not 0 < port < 65536:
            raise bad("a port number (1 to 65535)")
        return port
    if name == "discord_client_id":
        text = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""
        if not (text.isascii() and text.isdigit() and len(text) < 25):
            raise bad("the application's id (digits)")
        return text
    if name == "discord_client_secret":
        text = str(value).strip() if isinstance(value, str) else ""
        if not text or not text.isascii() or not text.isprintable() or " " in text:
            raise ConfigError(f"{where}: expected the application's OAuth2 client secret", _fix(where))  # never echoed
        return text
    if name == "telegram_webhook_secret":
        text = str(value).strip() if isinstance(value, str) else ""
        if not _SECRET.fullmatch(text):
            # never repeat the value: it is a secret
            raise ConfigError(f"{where}: expected 1 to 256 of the characters A-Z, a-z, 0-9, _ and -", _fix(where))
        return text
    if name in _BOOLS:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off", ""):
            return False
        raise bad("true or false")
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise bad("a text value")
    text = str(value).strip()
    if name == "ai_level" and text not in AI_LEVELS:
        raise bad(f"one of {', '.join(AI_LEVELS)}")
    if name == "durability" and text not in ("crash", "power"):
        raise bad("crash or power")
    if name == "telegram_webhook_url" and text and not text.startswith(("https://", "http://")):
        raise bad("an https:// address")
    if name == "digits" and text not in ("western", "arabic"):
        raise bad("western or arabic")
    if name == "log_level":
        if text.upper() not in LOG_LEVELS:
            raise bad(f"one of {', '.join(LOG_LEVELS)}")
        return text.upper()
    if name == "lang":
        from bot.core.lang import normalize_lang

        lang = normalize_lang(text)
        if lang is None:
            raise bad("ar or en")
        return lang
    return text or None


def _read_file(path: Path) -> dict[str, Any]:
    """The parsed TOML file; :class:`ConfigError` (never a traceback) if it cannot be read."""
    fix = f"correct {path}, or point {CONFIG_ENV} at another file"
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder, not a configuration file", fix) from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot be read ({e.strerror or e})", fix) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ConfigError(f"{path}: line {line} is not UTF-8 text (byte 0x{data[e.start]:02x})",
                          f"save {path} as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}", fix) from None


def load_config(env: Mapping[str, str] | None = None, **overrides: Any) -> Config:
    """Read the configuration; ``overrides`` (command-line options) win over everything.

    Raises :class:`ConfigError` for a value that cannot be used or an unreadable file.
    """
    env = os.environ if env is None else env
    data_dir = Path(env[ENV["data_dir"]]).expanduser() if env.get(ENV["data_dir"]) else None
    explicit = env.get(CONFIG_ENV)
    path: Path | None
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(f"{CONFIG_ENV}: no such file {path}",
                              f"create {path} or point {CONFIG_ENV} at an existing file")
    else:
        path = (data_dir or default_data_dir(env)) / "majlis.toml"
        if not path.exists():
            path = None
    raw = _read_file(path) if path is not None else {}

    values: dict[str, Any] = {}
    names = {f.name for f in fields(Config)} - {"file", "config_file"}
    for key, value in raw.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                name = _SECTIONS.get((key, sub))
                if name is not None:
                    values[name] = _coerce(name, v, f"{path}: [{key}] {sub}")
        elif key in names:
            values[key] = _coerce(key, value, f"{path}: {key}")
    for name, var in ENV.items():
        if env.get(var, "").strip():
            values[name] = _coerce(name, env[var], var) if name != "data_dir" else env[var]
    for name, value in overrides.items():
        if value is not None:
            values[name] = _coerce(name, value, f"--{name.replace('_', '-')}") if name != "data_dir" else value

    base = Path(values.pop("data_dir", None) or default_data_dir(env)).expanduser()
    db = values.pop("db", None) or str(base / "majlis.sqlite3")
    cfg = Config(data_dir=base, db=str(db), config_file=path, file=raw)
    return replace(cfg, **values)



# ---------------------------------------------------------------------- the web table beside the bots
WEB_ENV = {"url": "MAJLIS_WEB_URL", "host": "MAJLIS_WEB_HOST", "port": "MAJLIS_WEB_PORT",
           "telegram_max_age": "MAJLIS_WEB_TG_MAX_AGE", "internal_url": "MAJLIS_WEB_INTERNAL_URL"}


def web_config(config: Config | None = None, env: Mapping[str, str] | None = None) -> WebConfig | None:
    """The web settings from the environment and the file's ``[web]`` table; None when off."""
    from bot.adapters.web.service import DEFAULT_PORT, WebConfig
    from bot.adapters.web.telegram_auth import DEFAULT_MAX_AGE

    env = os.environ if env is None else env
    section: Mapping[str, Any] = config.section("web") if config is not None else {}
    values = {k: env.get(var, "").strip() or section.get(k) for k, var in WEB_ENV.items()}
    if not values["url"] and not values["port"]:
        return None
    try:
        port = int(values["port"] or DEFAULT_PORT)
        max_age = float(values["telegram_max_age"] or DEFAULT_MAX_AGE)
    except (TypeError, ValueError):
        raise ConfigError(f"{WEB_ENV['port']} / {WEB_ENV['telegram_max_age']}: expected numbers") from None
    url = str(values["url"]).rstrip("/") if values["url"] else None
    internal = str(values["internal_url"]).rstrip("/") if values["internal_url"] else None
    return WebConfig(url=url, host=str(values["host"] or "127.0.0.1"), port=port, telegram_max_age=max_age,
                     internal_url=internal)

def discord_activity(config: Config) -> DiscordActivity | None:
    """The Discord Activity's sign-in settings (the application's OAuth2 client and the bot's
    token), or None unless the client id, its secret and the bot's token are all configured."""
    from bot.adapters.web.discord_auth import DEFAULT_API, DiscordActivity

    if not (config.discord_client_id and config.discord_client_secret and config.discord_token):
        return None
    return DiscordActivity(client_id=config.discord_client_id, client_secret=config.discord_client_secret,
                           bot_token=config.discord_token, api_base=config.discord_api_base or DEFAULT_API)

# ---------------------------------------------------------------------- Discord shards
# Discord shards across processes: which shards this process connects, and every table's home shard.
#
# ``MAJLIS_DISCORD_SHARDS`` (``[discord] shards``) is ``<ids>/<count>``: the shard ids this process
# runs, out of ``count`` shards in all processes together. ``ids`` is one id, a range, or a list of
# them: ``0/2`` and ``1/2`` split a bot over two processes; ``0-3/8`` is shards 0 to 3 of 8 (another
# process runs ``4-7/8``); ``0,2,4-5/8`` works too. Unset: one process runs every shard (the
# ``[discord] sharded`` switch chooses one gateway connection or Discord's recommended count).
#
# A server's events reach only its shard, ``(guild_id >> 22) % count`` (Discord's rule): that is the
# home shard of every table in its channels. The process that runs the home shard receives the
# table's first command and so holds the table. Direct messages (presses on a hand sent in DM)
# reach shard 0 only; the routing (``bot/core/cluster/routing.py``) forwards them to the table's holder, and a
# table taken over by another process after its holder died is run there, presses forwarded too.

_SHARD_SPEC = re.compile(r"^\s*([0-9,\s-]+)/\s*([0-9]+)\s*$")


def parse_shards(text: str) -> tuple[list[int], int]:
    """``"0-3/8"`` → ``([0, 1, 2, 3], 8)``; ``ValueError`` with what is wrong otherwise."""
    match = _SHARD_SPEC.match(text)
    if match is None:
        raise ValueError("expected <ids>/<count>, e.g. 0/2, 0-3/8 or 0,2,4-5/8")
    count = int(match.group(2))
    if count < 1:
        raise ValueError("the shard count must be at least 1")
    ids: set[int] = set()
    for raw in match.group(1).split(","):
        part = raw.strip()
        if not part:
            raise ValueError("an empty shard id in the list")
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3") from None
        if first > last:
            raise ValueError(f"the range {part} runs backwards")
        ids.update(range(first, last + 1))
    if max(ids) >= count:
        raise ValueError(f"shard ids run from 0 to {count - 1} when there are {count}")
    return sorted(ids), count


def home_shard(guild_id: int, count: int) -> int:
    """The shard that receives the events of server ``guild_id`` (0 for direct messages: guild 0)."""
    return (guild_id >> 22) % count if count > 0 else 0
