"""``majlis play --option key=value``: game options from the command line, checked against the
engine's option table, every complaint in the player's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present.i18n import T


class OptionError(ValueError):
    """An option the game does not have, or a value it does not allow (the message is translated)."""


def spec(game: str) -> dict[str, Any]:
    """The game's options by name (:class:`engine.base.Option`)."""
    if game == "tarneeb41":
        from engine.tarneeb41.rules import OPTIONS
    elif game == "tarneeb":
        from engine.tarneeb.rules import OPTIONS
    else:
        from engine.trix.contracts import OPTIONS
    return {o.name: o for o in OPTIONS}


def _convert(text: str, choices: tuple[Any, ...] | None, default: Any) -> Any:
    low = text.strip().lower()
    if choices is not None:
        for c in choices:
            if isinstance(c, bool) and low in (("true", "yes", "on", "1") if c else ("false", "no", "off", "0")):
                return c
            if not isinstance(c, bool) and str(c).lower() == low:
                return c
        raise KeyError(text)
    if isinstance(default, list):
        return [int(x) for x in text.split(",")]
    return int(text)


def parse_options(game: str, items: Sequence[str], t: T) -> dict[str, Any]:
    """``["trump_mode=hearts_fixed", "target=21"]`` → checked option values for ``game``."""
    known = spec(game)
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(t.gettext("An option is written {form}, for example {example}.", form="key=value",
                                        example="trump_mode=hearts_fixed"))
        opt = known.get(key)
        if opt is None:
            raise OptionError(t.gettext("{game} has no option {name}. Its options: {names}.", game=game,
                                        name=key, names=", ".join(sorted(known))))
        try:
            converted = _convert(value, opt.choices, opt.default)
            out[key] = opt.check(converted)
        except (KeyError, ValueError):
            if opt.choices is not None:
                shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in opt.choices)
                raise OptionError(t.gettext("The option {name} is one of: {values}.", name=key,
                                            values=shown)) from None
            if isinstance(opt.default, list):
                raise OptionError(t.ngettext("The option {name} is {n} whole number separated by commas.",
                                             "The option {name} is {n} whole numbers separated by commas.",
                                             len(opt.default), name=key)) from None
            raise OptionError(t.gettext("The option {name} is a whole number from {low} to {high}.", name=key,
                                        low=opt.minimum if opt.minimum is not None else 0,
                                        high=opt.maximum if opt.maximum is not None else 999)) from None
    return out
