"""What every game shares: the seeded dealer, options, and the public methods' shape."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine import cards as C
from engine.errors import IllegalAction, InvalidOptions

Event = dict[str, Any]
#: ``1 << card`` by card; a list: ``list.__getitem__`` is the cheaper call in ``sum(map(...))``.
_BIT: list[int] = [1 << i for i in range(52)]
#: The Fisher-Yates steps of ``random.shuffle`` on 52 cards: swap position ``i`` with a draw below
#: ``i + 1``, taken as ``getrandbits(k)`` with ``k = (i + 1).bit_length()``, redrawn while above ``i``.
_SHUFFLE_STEPS: tuple[tuple[int, int], ...] = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))
_DECK: list[int] = list(range(52))


@dataclass(frozen=True, slots=True)
class Option:
    """One variant option: its default and either the allowed values or an integer range."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        """Return ``value`` if it is allowed, else raise :class:`InvalidOptions`."""
        if self.choices is not None:
            for choice in self.choices:
                if value == choice and type(value) is type(choice):
                    return value
            raise InvalidOptions(f"option {self.name!r}: {value!r} is not one of {list(self.choices)}")
        if isinstance(self.default, list):
            if not isinstance(value, list) or len(value) != len(self.default) or not all(
                type(v) is int for v in value
            ):
                raise InvalidOptions(f"option {self.name!r}: expected {len(self.default)} integers")
            return list(value)
        if type(value) is not int:
            raise InvalidOptions(f"option {self.name!r}: expected an integer, got {value!r}")
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise InvalidOptions(f"option {self.name!r}: {value} is out of range {self.minimum}..{self.maximum}")
        return value


def resolve_options(spec: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Merge ``given`` over the defaults of ``spec``; unknown names or bad values raise."""
    known = {o.name: o for o in spec}
    out = {o.name: (list(o.default) if isinstance(o.default, list) else o.default) for o in spec}
    for name, value in (given or {}).items():
        opt = known.get(name)
        if opt is None:
            raise InvalidOptions(f"unknown option {name!r}; known: {sorted(known)}")
        out[name] = opt.check(value)
    return out


class Dealer:
    """Deals hands: predetermined deals first, then shuffles from a seeded ``random.Random``.

    The generator is copied lazily, so :meth:`clone` is cheap for search code that never deals.
    """

    __slots__ = ("_rng", "_shared", "deals", "used")

    def __init__(self, seed: int, deals: Sequence[Sequence[Sequence[str]]] | None) -> None:
        self._rng = random.Random(seed)
        self._shared = False
        self.deals: list[list[list[str]]] = [[list(h) for h in d] for d in (deals or [])]
        self.used = 0
        for d in self.deals:
            self._check_deal(d)

    @staticmethod
    def _check_deal(d: Sequence[Sequence[str]]) -> None:
        if len(d) != 4 or any(len(h) != 13 for h in d):
            raise InvalidOptions("a predetermined deal is four lists of 13 card codes")
        try:
            m = [C.mask_of(h) for h in d]
        except ValueError as e:
            raise InvalidOptions(str(e)) from None
        if m[0] | m[1] | m[2] | m[3] != C.FULL_DECK or sum(x.bit_count() for x in m) != 52:
            raise InvalidOptions("a predetermined deal must hold each of the 52 cards once")

    def deal(self, dealer: int) -> tuple[list[int], list[list[int]]]:
        """Deal 13 cards to each seat; return the hands as masks and each seat's cards in order."""
        if self.used < len(self.deals):
            d = self.deals[self.used]
            self.used += 1
            order = [[C.parse(x) for x in h] for h in d]
        else:
            if self._shared:
                self._own_rng()
            deck = _DECK[:]
            getrandbits = self._rng.getrandbits
            # random.Random.shuffle(deck), inlined: the same draws, the same permutation, 40% faster
            for i, k in _SHUFFLE_STEPS:
                j = getrandbits(k)
                while j > i:
                    j = getrandbits(k)
                deck[i], deck[j] = deck[j], deck[i]
            # deck[i] goes to seat (dealer + 1 + i) % 4: seat s gets every 4th card from its offset
            o = -dealer - 1
            order = [deck[o % 4 :: 4], deck[(o + 1) % 4 :: 4], deck[(o + 2) % 4 :: 4], deck[(o + 3) % 4 :: 4]]
        bit = _BIT.__getitem__
        masks = [sum(map(bit, order[0])), sum(map(bit, order[1])), sum(map(bit, order[2])), sum(map(bit, order[3]))]
        return masks, order

    def randint(self, a: int, b: int) -> int:
        """A seeded integer in ``[a, b]`` (the first dealer, a random first owner)."""
        if self._shared:
            self._own_rng()
        return self._rng.randint(a, b)

    def _own_rng(self) -> None:
        """Copy the shared generator before drawing from it (copy on write).

        ``random.Random.__new__`` and ``setstate``: an unseeded ``random.Random()`` would first
        seed itself from ``os.urandom`` (I/O, and about as slow as the copy), then be overwritten.
        """
        rng = random.Random.__new__(random.Random)
        rng.setstate(self._rng.getstate())
        self._rng, self._shared = rng, False

    def clone(self) -> Dealer:
        """A copy that shares the generator until one of the two copies draws from it."""
        d = Dealer.__new__(Dealer)
        d._rng = self._rng
        d._shared = self._shared = True
        d.deals = self.deals
        d.used = self.used
        return d

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict, generator state included."""
        version, state, gauss = self._rng.getstate()
        return {"rng": [version, list(state), gauss], "deals": self.deals, "used": self.used}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Dealer:
        """The inverse of :meth:`to_json`."""
        out = cls.__new__(cls)
        out._rng = random.Random()
        version, state, gauss = d["rng"]
        out._rng.setstate((version, tuple(state), gauss))
        out._shared = False
        out.deals = [[list(h) for h in deal] for deal in d["deals"]]
        out.used = int(d["used"])
        return out


def check_seat(seat: object) -> int:
    """Return ``seat`` if it is an int 0..3, else raise ``IllegalAction("bad_seat")``."""
    if type(seat) is not int or not 0 <= seat <= 3:
        raise IllegalAction("bad_seat", f"no such seat: {seat!r}")
    return seat


def split_code(action: object) -> list[str]:
    """Split an action code into words; anything malformed raises ``unknown_action``."""
    if not isinstance(action, str) or len(action) > 20 or not action.isascii():
        raise IllegalAction("unknown_action", f"not an action: {action!r}")
    words = action.strip().split()
    if not words or " ".join(words) != action.strip():
        raise IllegalAction("unknown_action", f"not an action: {action!r}")
    return [w.lower() for w in words]


class Game(ABC):
    """The public face of every game (docs/engine-contract.md)."""

    game_id: ClassVar[str]
    phase: str
    to_act: int | None
    winner: list[int] | None

    @abstractmethod
    def legal(self) -> list[str]:
        """The action codes that ``to_act`` may send now, in a stable order."""

    @abstractmethod
    def act(self, seat: int, action: str) -> list[Event]:
        """Apply one action for ``seat``; return the (public) events it caused."""

    @abstractmethod
    def auto(self) -> str:
        """The action a timed-out ``to_act`` plays."""

    @abstractmethod
    def hand(self, seat: int) -> list[str]:
        """That seat's cards as sorted codes."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: the public view), JSON-able."""

    def decision_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` decides its move from: a part of ``view(seat)`` (every key it holds has the
        value ``view(seat)`` gives it), for an AI that reads no more. Not part of the engine's
        contract; a game that can make it faster than the whole view overrides this."""
        return self.view(seat)

    @abstractmethod
    def scores(self) -> dict[str, list[int]]:
        """The running match totals."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict; ``engine.load`` of it continues identically."""

    @classmethod
    @abstractmethod
    def from_json(cls, d: Mapping[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_json` (what ``engine.load`` calls)."""

    @abstractmethod
    def clone(self) -> Game:
        """A cheap independent copy for search."""
