"""The resolved Trix options as one frozen value, shared by a game and its clones."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidOptions
from engine.trix.contracts import CONTRACT_NAMES, KINGDOM_CONTRACTS


def _left(contracts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``[used]``: the contracts of ``contracts`` not in the bit set ``used``, in order."""
    return tuple(tuple(c for c in contracts if not used >> c & 1) for used in range(64))


#: Per mode, ``[used]``: the mode's contracts not in the bit set ``used``, in the seed's order.
_LEFT: dict[str, tuple[tuple[int, ...], ...]] = {
    mode: _left(contracts) for mode, contracts in KINGDOM_CONTRACTS.items()
}


@dataclass(frozen=True, slots=True)
class TrixRules:
    """What the engine needs from the options (rules.md §3.4), in fast-to-read form."""

    contracts: tuple[int, ...]
    #: The bits ``1 << c`` of every contract in ``contracts`` (a kingdom's owner is done when ``used`` is this).
    contracts_mask: int
    deals_total: int
    first_owner_rule: str
    first_deal_is_played: bool
    owner_sees_cards: bool
    doubling: bool
    public_doubles: bool
    self_capture: str
    no_heart_lead: bool
    king_discard: bool
    king_on_ace: bool
    early_end: bool
    penalties: tuple[int, int, int, int]
    trix_scores: tuple[int, int, int, int]
    auto_pass: bool
    partnership: bool
    expose_twos: bool
    king_rules: bool
    #: ``left[used]``: the contracts of ``contracts`` not in the bit set ``used``, in order.
    left: tuple[tuple[int, ...], ...]

    @classmethod
    def from_options(cls, o: Mapping[str, Any]) -> TrixRules:
        """Build from a resolved options dict, refusing values out of range.

        The value is frozen, so games with equal options share one (a new match or a load of a
        variant already seen builds none).
        """
        key = tuple((k, type(v), tuple(v) if isinstance(v, list) else v) for k, v in o.items())
        rules = _CACHE.get(key)
        if rules is None:
            if len(_CACHE) >= 64:
                _CACHE.clear()
            rules = _CACHE[key] = cls._build(o)
        return rules

    @classmethod
    def _build(cls, o: Mapping[str, Any]) -> TrixRules:
        pen = o["penalties"]
        ts = o["trix_scores"]
        if any(not 0 <= v <= 1000 for v in pen):
            raise InvalidOptions("option 'penalties': each value must be in 0..1000")
        if any(not 0 <= v <= 10000 for v in ts):
            raise InvalidOptions("option 'trix_scores': each value must be in 0..10000")
        if o["partnership_expose_twos"] and not o["partnership"]:
            raise InvalidOptions("option 'partnership_expose_twos' needs 'partnership'")
        k, q, d, t = (int(v) for v in pen)
        if o["swap_diamond_latoosh_values"]:
            d, t = t, d
        contracts = KINGDOM_CONTRACTS[o["mode"]]
        only = o.get("only_contract", "any")
        if only != "any":
            if CONTRACT_NAMES.index(only) not in contracts:
                raise InvalidOptions(f"option 'only_contract': {only!r} is not a contract of mode {o['mode']!r}")
            contracts = (CONTRACT_NAMES.index(only),)
        return cls(
            contracts=contracts,
            contracts_mask=sum(1 << c for c in contracts),
            deals_total=4 * len(contracts),
            first_owner_rule=o["first_owner_rule"],
            first_deal_is_played=o["first_deal_is_played"],
            owner_sees_cards=o["owner_sees_cards_before_choice"],
            doubling=o["doubling"] in ("on", True),
            public_doubles=o["doubling_procedure"] == "sequential_public",
            self_capture=o["self_capture"],
            no_heart_lead=o["no_heart_lead_in_king"],
            king_discard=o["king_must_be_discarded_when_void"],
            king_on_ace=o["king_on_ace_of_hearts"],
            early_end=o["early_end"],
            penalties=(k, q, d, t),
            trix_scores=(int(ts[0]), int(ts[1]), int(ts[2]), int(ts[3])),
            auto_pass=o["auto_pass_in_layout"],
            partnership=o["partnership"],
            expose_twos=o["partnership_expose_twos"],
            king_rules=bool(
                o["no_heart_lead_in_king"] or o["king_must_be_discarded_when_void"] or o["king_on_ace_of_hearts"]
            ),
            left=_LEFT[o["mode"]] if only == "any" else _left(contracts),
        )


#: Built rules by their options (:meth:`TrixRules.from_options`): the few variants a process plays.
_CACHE: dict[tuple[Any, ...], TrixRules] = {}
