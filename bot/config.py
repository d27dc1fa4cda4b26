"""Configuration: environment variables over an optional TOML file over defaults.

The file is ``$MAJLIS_CONFIG`` if set, else ``<data dir>/majlis.toml`` if it exists::

    db = "/var/lib/majlis/majlis.sqlite3"
    durability = "crash"      # or "power"
    lang = "ar"
    turn_seconds = 60
    ai_delay = 1.0

    [telegram]
    token = "..."
    base_url = "http://127.0.0.1:8081/bot"

    [discord]
    token = "..."
    api_base = "https://discord.com/api/v10"
    gateway = "wss://gateway.discord.gg/"

Every key has an environment variable that wins over the file (see :data:`ENV`). The data
directory defaults to ``$XDG_DATA_HOME/majlis`` or ``~/.local/share/majlis``; the database to
``<data dir>/majlis.sqlite3``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

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
    "telegram_token": "MAJLIS_TELEGRAM_TOKEN",
    "telegram_base_url": "MAJLIS_TELEGRAM_BASE_URL",
    "discord_token": "MAJLIS_DISCORD_TOKEN",
    "discord_api_base": "MAJLIS_DISCORD_API_BASE",
    "discord_gateway": "MAJLIS_DISCORD_GATEWAY",
}
CONFIG_ENV = "MAJLIS_CONFIG"
#: ``[section] key`` in the file -> config field (top-level keys are the field names).
_SECTIONS = {
    ("telegram", "token"): "telegram_token",
    ("telegram", "base_url"): "telegram_base_url",
    ("discord", "token"): "discord_token",
    ("discord", "api_base"): "discord_api_base",
    ("discord", "gateway"): "discord_gateway",
}
AI_LEVELS = ("easy", "normal", "strong")


class ConfigError(ValueError):
    """A configuration value that cannot be used (the message names the variable or key)."""


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
    telegram_token: str | None = None
    telegram_base_url: str | None = None
    discord_token: str | None = None
    discord_api_base: str | None = None
    discord_gateway: str | None = None
    config_file: Path | None = None
    #: The whole parsed TOML file, for settings that only one adapter reads.
    file: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:  # never print a token
        shown = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "file"}
        for k in ("telegram_token", "discord_token"):
            if shown[k]:
                shown[k] = "***"
        return "Config(" + ", ".join(f"{k}={v!r}" for k, v in shown.items()) + ")"

    def section(self, name: str) -> Mapping[str, Any]:
        """A table of the TOML file (``[telegram]``), empty if absent."""
        value = self.file.get(name, {})
        return value if isinstance(value, Mapping) else {}


def default_data_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/majlis``, else ``~/.local/share/majlis``."""
    xdg = env.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path(env.get("HOME") or Path.home()) / ".local" / "share"
    return base / "majlis"


def _coerce(name: str, value: Any, where: str) -> Any:
    try:
        if name == "turn_seconds":
            n = int(value)
            if n < 0:
                raise ValueError
            return n
        if name == "ai_delay":
            x = float(value)
            if x < 0:
                raise ValueError
            return x
    except (TypeError, ValueError):
        raise ConfigError(f"{where}: expected a non-negative number, got {value!r}") from None
    text = str(value).strip()
    if name == "ai_level" and text not in AI_LEVELS:
        raise ConfigError(f"{where}: expected one of {', '.join(AI_LEVELS)}, got {text!r}")
    if name == "durability" and text not in ("crash", "power"):
        raise ConfigError(f"{where}: expected crash or power, got {text!r}")
    if name == "digits" and text not in ("western", "arabic"):
        raise ConfigError(f"{where}: expected western or arabic, got {text!r}")
    if name == "lang":
        from bot.i18n import normalize_lang

        lang = normalize_lang(text)
        if lang is None:
            raise ConfigError(f"{where}: expected ar or en, got {text!r}")
        return lang
    return text or None


def _read_file(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: {e.strerror}") from None


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
            raise ConfigError(f"{CONFIG_ENV}: no such file {path}")
    else:
        path = (data_dir or default_data_dir(env)) / "majlis.toml"
        if not path.is_file():
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
