"""Trix: every edge case of rules.md §3.6, each with a scenario deal or a searched playout."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import cards as C
from engine.base import Event
from engine.trix.game import TrixGame
from tests.engine.trix_scenario import build_deal, close_doubling, find_playout, play_cards, rotate

# K♥ contract, owner 0: T1 2C AC 2S 3S (seat 1), T2 AD QD 4S 3C (seat 1), T3 AH 2H KH 7H (seat 1).
KING_DEAL = [
    ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "7H"],
    ["AC", "AH", "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD"],
    ["QD", "KD", "2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH", "2S"],
    ["KH", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
]
KING_PLAY = "2C AC 2S 3S AD QD 4S 3C AH 2H KH 7H"


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def scored(events: list[Event]) -> dict[str, Any]:
    (e,) = of(events, "deal_scored")
    return e


def trix_game(deals: list[list[list[str]]] | None = None, **options: Any) -> TrixGame:
    g = engine.new_game("trix", seed=5, deals=deals, options=options)
    assert isinstance(g, TrixGame)
    return g


def play_deal_auto(g: TrixGame) -> list[Event]:
    deal = g.deal_index
    events: list[Event] = []
    while g.to_act is not None and g.deal_index == deal:
        events += g.act(g.to_act, g.auto())
    return events


def search(contract: str, accept: Any, **options: Any) -> list[Event]:
    """The events of a deal of ``contract`` that ``accept`` takes, over many seeded deals."""
    for seed in range(300):
        g = engine.new_game("trix", seed=seed, options=options)
        assert isinstance(g, TrixGame)
        g.act(g.owner, "contract " + contract)
        close_doubling(g)
        try:
            return find_playout(g, accept, seed=seed, tries=40)[1]
        except LookupError:
            continue
    raise AssertionError("no such deal found")


def test_edge_3_6_1_first_owner_holds_7h_on_same_cards() -> None:
    deal = build_deal({2: ["7H"]}, seed=3)
    g = trix_game([deal])
    assert g.owner == 2 and g.phase == "contract" and g.to_act == 2
    assert g.hand(2) == sorted(deal[2], key=C.parse)
    assert g.view(2)["hand"] == g.hand(2)
    assert g.deal_no == 1 and g.deal_index == 0


def test_edge_3_6_2_rotation_of_owners_and_match_end() -> None:
    g = trix_game([build_deal({2: ["7H"]}, seed=3)])
    owners: dict[int, int] = {0: g.owner}
    while g.to_act is not None:
        for e in g.act(g.to_act, g.auto()):
            if e["type"] == "deal_started":
                owners[e["deal_index"]] = e["owner"]
    assert [owners[i] for i in range(20)] == [2] * 5 + [3] * 5 + [0] * 5 + [1] * 5
    assert g.phase == "over" and g.deal_index == 20 and g.legal() == []


def test_edge_3_6_3_no_repeated_contract() -> None:
    g = trix_game()
    g.act(g.owner, "contract queens")
    play_deal_auto(g)
    assert g.phase == "contract"
    with pytest.raises(engine.IllegalAction) as e:
        g.act(g.owner, "contract queens")
    assert e.value.reason == "contract_already_played"
    assert "contract queens" not in g.legal()


def test_edge_3_6_4_last_contract_starts_automatically() -> None:
    g = trix_game()
    for name in ("king", "queens", "diamonds", "trix"):
        g.act(g.owner, "contract " + name)
        events = play_deal_auto(g)
    chosen = of(events, "contract_chosen")
    assert chosen == [{"type": "contract_chosen", "seat": g.owner, "contract": "tricks", "automatic": True}]
    assert g.phase == "play" and g.contract == 3 and g.to_act == g.owner


def test_edge_3_6_5_timeout_choice_is_first_unplayed() -> None:
    g = trix_game()
    for name in ("king", "queens", "tricks"):
        g.act(g.owner, "contract " + name)
        play_deal_auto(g)
    assert g.view(None)["contracts_left"] == ["diamonds", "trix"]
    assert g.auto() == "contract diamonds"


def test_edge_3_6_6_owner_leads_no_trump() -> None:
    diamonds = ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"]
    g = trix_game([build_deal({0: ["5C", "7H"], 1: ["AH", *diamonds], 2: ["9C"], 3: ["2C"]}, seed=1)])
    g.act(0, "contract queens")
    close_doubling(g)
    assert g.to_act == 0
    events = play_cards(g, "5C AH 9C 2C")
    assert of(events, "trick_taken")[0]["seat"] == 2
    assert g.to_act == 2 and g.leader == 2


def test_edge_3_6_7_king_early_end() -> None:
    g = trix_game([KING_DEAL])
    g.act(0, "contract king")
    close_doubling(g)
    events = play_cards(g, KING_PLAY)
    assert [e["trick_no"] for e in of(events, "trick_taken")] == [1, 2, 3]
    assert scored(events)["deltas"] == {"players": [0, -75, 0, 0]}
    assert g.deal_index == 1


def test_edge_3_6_8_queens_early_end() -> None:
    def fourth_queen_in_trick_9(h: TrixGame, events: list[Event]) -> bool:
        taken = of(events, "trick_taken")
        return len(taken) == 9 and any(c["card"][0] == "Q" for c in taken[-1]["cards"])

    events = search("queens", fourth_queen_in_trick_9)
    result = scored(events)
    assert len(of(events, "trick_taken")) == 9
    assert sum(result["deltas"]["players"]) == -100
    assert sorted(q for cards in result["summary"]["taken"].values() for q in cards) == ["QC", "QD", "QH", "QS"]


def test_edge_3_6_9_diamonds() -> None:
    def counts_5_3_4_1(h: TrixGame, events: list[Event]) -> bool:
        taken = scored(events)["summary"]["taken"]
        return [len(taken[str(s)]) for s in range(4)] == [5, 3, 4, 1]

    events = search("diamonds", counts_5_3_4_1)
    assert scored(events)["deltas"]["players"] == [-50, -30, -40, -10]
    last = of(events, "trick_taken")[-1]
    assert any(c["card"][1] == "D" for c in last["cards"])


def test_edge_3_6_10_latoosh() -> None:
    def tricks_5_4_3_1(h: TrixGame, events: list[Event]) -> bool:
        return bool(scored(events)["summary"]["tricks"] == [5, 4, 3, 1])

    events = search("tricks", tricks_5_4_3_1)
    assert scored(events)["deltas"]["players"] == [-75, -60, -45, -15]
    assert len(of(events, "trick_taken")) == 13


def test_edge_3_6_11_doubling_only_where_allowed() -> None:
    for name in ("diamonds", "tricks", "trix"):
        g = trix_game()
        events = g.act(g.owner, "contract " + name)
        assert g.phase == "play" and not of(events, "doubling_opened")
        assert not any(a.startswith("double") for a in g.legal())
    g = trix_game([KING_DEAL])
    g.act(0, "contract king")
    assert g.to_act == 3 and g.legal() == ["double KH", "done"]
    with pytest.raises(engine.IllegalAction) as e:
        g.act(3, "double QS")
    assert e.value.reason == "cannot_double"
    g = trix_game([build_deal({0: ["7H", "KH", "QS"]}, seed=4)])
    g.act(0, "contract queens")
    assert g.to_act == 0
    with pytest.raises(engine.IllegalAction) as e:
        g.act(0, "double KH")
    assert e.value.reason == "cannot_double"


def test_edge_3_6_12_doubled_king_taken_by_another() -> None:
    g = trix_game([rotate(KING_DEAL, 2)])
    assert g.owner == 2
    g.act(2, "contract king")
    assert g.to_act == 1
    g.act(1, "double KH")
    assert g.legal() == ["done"]
    events = g.act(1, "done")
    assert of(events, "doubles_revealed")[0]["doubles"] == [{"card": "KH", "seat": 1}]
    events = play_cards(g, KING_PLAY)
    assert scored(events)["deltas"]["players"] == [0, 75, 0, -150]


SELF_DEAL = [
    ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "7H"],
    ["AC", "KH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"],
    ["KD", "AD", "2H", "3H", "4H", "5H", "6H", "8H", "9H", "TH", "JH", "QH", "AH"],
    ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
]


def test_edge_3_6_13_doubled_king_taken_by_doubler() -> None:
    g = trix_game([SELF_DEAL])
    g.act(0, "contract king")
    g.act(1, "double KH")
    g.act(1, "done")
    events = play_cards(g, "2C AC KD 2S KH 2H 3S 7H")
    assert scored(events)["deltas"]["players"] == [0, -75, 0, 0]


def test_edge_3_6_14_queens_with_several_doubles() -> None:
    g = trix_game([build_deal({0: ["7H", "QS", "QD"], 2: ["QC"], 3: ["QH"]}, seed=8)])
    g.act(0, "contract queens")
    assert g.to_act == 0 and g.legal() == ["double QD", "double QS", "done"]
    g.act(0, "double QS")
    g.act(0, "double QD")
    close_doubling(g)

    def takers(h: TrixGame, events: list[Event]) -> bool:
        taken = scored(events)["summary"]["taken"]
        return bool(taken == {"0": ["QD"], "1": [], "2": ["QC", "QS"], "3": ["QH"]})

    _, events = find_playout(g, takers, seed=4)
    assert scored(events)["deltas"]["players"] == [0, 0, -75, -25]


def test_edge_3_6_15_doubling_window() -> None:
    g = trix_game([rotate(KING_DEAL, 2)])
    events = g.act(2, "contract king")
    assert of(events, "doubling_opened") == [{"type": "doubling_opened", "contract": "king"}]
    assert g.auto() == "done"
    g.act(1, "double KH")
    for seat in (None, 0, 2, 3):
        v = g.view(seat)
        assert v["to_act"] is None and v["doubled"] == [] and v["legal"] == []
        assert "my_doubles" not in v or v["my_doubles"] == []
    assert g.view(1)["to_act"] == 1 and g.view(1)["my_doubles"] == ["KH"]
    events = g.act(1, g.auto())
    kinds = [e["type"] for e in events]
    assert kinds == ["doubles_revealed"]
    assert g.phase == "play" and g.to_act == 2
    assert g.view(None)["doubled"] == [{"card": "KH", "seat": 1}]
    with pytest.raises(engine.IllegalAction) as e:
        g.act(2, "double KH")
    assert e.value.reason == "cannot_double"


def layout_game(deal: list[list[str]], **options: Any) -> TrixGame:
    g = trix_game([deal], **options)
    g.act(g.owner, "contract trix")
    return g


def test_edge_3_6_16_layout_legality() -> None:
    deal = build_deal({0: ["7H", "JH"], 1: ["QH", "TH", "KH", "9H", "JS"]}, seed=2)
    g = layout_game(deal)
    g.act(0, "play JH")
    while g.to_act != 1:
        assert g.to_act is not None
        g.act(g.to_act, next(a for a in g.legal() if a[-1] != "H"))
    g.act(1, "play QH")
    assert g.view(None)["layout"]["H"] == ["J", "Q"]
    legal = set(C.codes_of(g.open_mask))
    assert {"TH", "KH"} <= legal and "9H" not in legal
    spades = {c for c in legal if c[1] == "S"}
    assert spades == ({"JS"} if g.rows[3] == (0, 0) else spades)
    g2 = layout_game(build_deal({0: ["7H", "JC"], 1: ["JD"]}, seed=2), auto_pass_in_layout=False)
    with pytest.raises(engine.IllegalAction) as e:
        g2.act(0, "pass")
    assert e.value.reason == "must_play_when_able"


def test_edge_3_6_16_no_legal_card_must_pass() -> None:
    deal = build_deal({0: ["7H", "2C", "3C", "4C", "5C"], 1: ["JC", "JD", "JH", "JS"]}, seed=6)
    g = layout_game(deal, auto_pass_in_layout=False)
    assert g.to_act == 0 and g.legal() == ["pass"] and g.auto() == "pass"
    with pytest.raises(engine.IllegalAction) as e:
        g.act(0, "play 2C")
    assert e.value.reason == "not_legal_in_layout"
    events = g.act(0, "pass")
    assert events == [{"type": "layout_passed", "seat": 0, "automatic": False}]


def test_edge_3_6_17_owner_without_jack_passes_first() -> None:
    deal = build_deal({0: ["7H"], 1: ["JC", "JD", "JH", "JS"]}, seed=6)
    g = trix_game([deal])
    events = g.act(0, "contract trix")
    assert of(events, "layout_passed") == [{"type": "layout_passed", "seat": 0, "automatic": True}]
    assert g.to_act == 1
    assert "pass" not in g.legal()


def test_edge_3_6_18_finish_order_and_end() -> None:
    def order_3_0_1(h: TrixGame, events: list[Event]) -> bool:
        return [e["seat"] for e in of(events, "player_out")][:3] == [3, 0, 1]

    events = search("trix", order_3_0_1)
    outs = of(events, "player_out")
    assert [(e["seat"], e["place"], e["points"]) for e in outs] == [(3, 1, 200), (0, 2, 150), (1, 3, 100), (2, 4, 50)]
    assert scored(events)["deltas"]["players"] == [150, 100, 50, 200]
    assert scored(events)["summary"]["places"] == [3, 0, 1, 2]


def test_edge_3_6_19_skipping_finished_players() -> None:
    def seat_2_after_seat_3_out(h: TrixGame, events: list[Event]) -> bool:
        outs = [e["seat"] for e in of(events, "player_out")]
        if outs[:1] != [3]:
            return False
        after = events[events.index(of(events, "player_out")[0]) :]
        plays = [e["seat"] for e in after if e["type"] in ("card_played", "layout_passed")]
        return 2 in plays[:-1]

    events = search("trix", seat_2_after_seat_3_out, auto_pass_in_layout=False)
    first_out = events.index(of(events, "player_out")[0])
    moves = [e["seat"] for e in events[first_out:] if e["type"] in ("card_played", "layout_passed")]
    i = moves.index(2)
    assert moves[i + 1] == 0
    assert 3 not in moves


def test_edge_3_6_20_kingdom_zero_sum() -> None:
    table = [[0, 75, 0, -150], [0, 0, -75, -25], [-50, -30, -40, -10], [-75, -60, -45, -15], [150, 100, 50, 200]]
    totals = [sum(row[s] for row in table) for s in range(4)]
    assert totals == [25, 85, -110, 0] and sum(totals) == 0
    for seed in range(20):
        g = engine.new_game("trix", seed=seed)
        per_kingdom = [0, 0, 0, 0]
        k = 0
        while g.to_act is not None:
            for e in g.act(g.to_act, g.auto()):
                if e["type"] == "deal_scored":
                    per_kingdom[k // 5] += sum(e["deltas"]["players"])
                    k += 1
        assert per_kingdom == [0, 0, 0, 0]


@pytest.mark.parametrize(("target", "winner"), [((120, 120, -90, -150), [0, 1]), ((130, 120, -100, -150), [0])])
def test_edge_3_6_21_match_result(target: tuple[int, ...], winner: list[int]) -> None:
    g = trix_game()
    while g.deal_index < 19:
        assert g.to_act is not None
        g.act(g.to_act, g.auto())
    probe = g.clone()
    play_deal_auto(probe)
    last = probe.score_list
    g.score_list = [target[s] - (last[s] - g.score_list[s]) for s in range(4)]
    events = play_deal_auto(g)
    assert g.scores()["players"] == list(target)
    assert g.winner == winner
    assert of(events, "match_over") == [{"type": "match_over", "winner": winner, "scores": {"players": list(target)}}]


def test_edge_3_6_22_auto_trick_play() -> None:
    low = ["6C", "7C", "8C", "9C", "TC", "6D", "7D", "8D", "9D", "TD"]
    seat1 = ["QS", "3S", "JC", "QC", "KC", "AC", "JD", "QD", "KD", "AD", "2H", "3H", "4H"]
    deal = build_deal({0: ["7H", "AS"], 1: seat1, 3: ["5D", "5C", "KH", *low]}, seed=1)
    g = trix_game([deal])
    g.act(0, "contract diamonds")
    g.act(0, "play AS")
    assert g.legal() == ["play 3S", "play QS"] and g.auto() == "play 3S"
    g.act(1, "play QS")
    if g.to_act == 2:
        g.act(2, g.auto())
    assert g.to_act == 3 and g.auto() == "play 5C"


def test_edge_3_6_23_auto_layout_play() -> None:
    seat1 = ["JC", "TH", "2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D", "7D"]
    g = layout_game(build_deal({0: ["7H", "JH"], 1: seat1}, seed=1))
    g.act(0, "play JH")
    assert g.to_act == 1 and g.legal() == ["play JC", "play TH"]
    assert g.auto() == "play TH"
