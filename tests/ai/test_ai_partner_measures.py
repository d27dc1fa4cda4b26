"""bench/ai.py --game partner's measures (bench/_ai_measure.py) on hand-made positions: what counts
as ruffing a partner's winning trick, overbidding a partner's won auction and a jump bid near the
target, and the pooled rate's standard error."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from typing import Any

import pytest

from ai.strong import dds
from bench._ai_measure import jumps_near_target, overbids_partner, rate, ruff_over_partner

ROOT = Path(__file__).resolve().parents[2]
ALL = ["AS", "3S", "4D", "9C", "2H", "5H", "KH", "7H"]


def play_view(trick: list[tuple[int, str]], legal: list[str], trump: str | None = "S", seat: int = 0) -> dict[str, Any]:
    """Seat ``seat``'s view of a Tarneeb card play, the cards ``trick`` on the table (seat, card)."""
    return {"game": "tarneeb", "phase": "play", "seat": seat, "trump": trump,
            "trick": [{"seat": s, "card": c} for s, c in trick], "legal": [f"play {c}" for c in legal]}


def test_a_ruff_over_the_partners_winning_ace_is_counted_and_a_discard_is_the_clean_answer() -> None:
    trick = [(1, "5H"), (2, "AH"), (3, "7H")]  # the partner (seat 2) wins with the ace; seat 0 plays last
    view = play_view(trick, ["3S", "4D", "9C"])
    assert ruff_over_partner(view, "play 3S") == (True, True)
    assert ruff_over_partner(view, "play 4D") == (False, True)


def test_a_ruff_when_the_partner_is_losing_the_trick_is_not_counted() -> None:
    view = play_view([(1, "5H"), (2, "4H"), (3, "KH")], ["3S", "4D", "9C"])
    assert ruff_over_partner(view, "play 3S") is None
    assert ruff_over_partner(view, "play 4D") is None


def test_third_hand_ruffing_the_partners_lead_is_counted_but_not_as_a_sure_winner() -> None:
    view = play_view([(2, "AH"), (3, "5H")], ["3S", "4D"])
    assert ruff_over_partner(view, "play 3S") == (True, False)


def test_overruffing_a_partner_who_ruffed_and_is_winning_is_counted() -> None:
    view = play_view([(1, "5H"), (2, "2S"), (3, "7H")], ["3S", "4D"])
    assert ruff_over_partner(view, "play 3S") == (True, True)


@pytest.mark.parametrize(("trick", "legal", "trump"), [
    ([(1, "5H"), (2, "AH"), (3, "7H")], ["2H", "KH"], "S"),  # it must follow suit
    ([(1, "5H"), (2, "AH"), (3, "7H")], ["3S", "AS"], "S"),  # only trumps: it must ruff
    ([(1, "5H"), (2, "AH"), (3, "7H")], ["4D", "9C"], "S"),  # no trump to ruff with
    ([(1, "5S"), (2, "AS"), (3, "7S")], ["4D", "9C"], "S"),  # trumps led: no ruff
    ([(1, "5H"), (2, "AH"), (3, "7H")], ["3S", "4D"], None),  # no trump at all
    ([], ALL, "S"),  # its own lead
])
def test_positions_without_a_choice_between_ruffing_and_discarding_are_no_chance(
        trick: list[tuple[int, str]], legal: list[str], trump: str | None) -> None:
    view = play_view(trick, legal, trump)
    assert all(ruff_over_partner(view, f"play {c}") is None for c in legal)


def bid_view(high: tuple[int, int] | None, passed: list[bool], legal: list[str], scores: tuple[int, int] = (0, 0),
             seat: int = 0) -> dict[str, Any]:
    return {"game": "tarneeb", "phase": "bid", "seat": seat, "passed": passed, "target": 31,
            "high_bid": None if high is None else {"seat": high[0], "bid": high[1]},
            "scores": {"teams": list(scores)}, "legal": legal}


def test_bidding_over_a_partner_whose_bid_had_won_the_auction_is_an_overbid_and_passing_is_not() -> None:
    view = bid_view((2, 8), [False, True, False, True], ["pass", "bid 9", "bid 10"])
    assert overbids_partner(view, "bid 9") is True
    assert overbids_partner(view, "pass") is False


@pytest.mark.parametrize(("high", "passed"), [
    ((2, 8), [False, True, False, False]),  # an opponent may still bid: the partner has not won yet
    ((1, 8), [False, False, False, True]),  # the opponent holds the bid
    (None, [False] * 4),
])
def test_the_partners_bid_must_have_won_the_auction_for_an_overbid_to_count(
        high: tuple[int, int] | None, passed: list[bool]) -> None:
    assert overbids_partner(bid_view(high, passed, ["pass", "bid 9"]), "bid 9") is None


def test_near_the_target_a_bid_above_the_lowest_is_a_jump_and_the_lowest_is_not() -> None:
    legal = ["pass", "bid 8", "bid 9", "bid 10"]
    view = bid_view((1, 7), [False] * 4, legal, scores=(24, 12))
    assert jumps_near_target(view, "bid 10") is True
    assert jumps_near_target(view, "bid 8") is False
    assert jumps_near_target(view, "pass") is None  # a pass is not a bid
    far = bid_view((1, 7), [False] * 4, legal, scores=(12, 24))  # the other side is near, not ours
    assert jumps_near_target(far, "bid 10") is None


def test_the_rate_pools_chances_and_its_error_counts_deals_not_decisions() -> None:
    r, se, hits, chances = rate([(1, 2), (0, 2), (0, 0), (1, 1)])
    assert (hits, chances) == (2, 5) and r == pytest.approx(0.4)
    resid = (1 - 0.8) ** 2 + (0 - 0.8) ** 2 + 0 + (1 - 0.4) ** 2
    assert se == pytest.approx(math.sqrt(resid * 4 / 3) / 5)
    assert math.isnan(rate([(0, 0)])[0])


@pytest.mark.skipif(not dds.available(), reason="endplay (DDS) not installed")
def test_the_bench_counts_every_measure_of_a_real_deal_within_its_chances() -> None:
    spec = importlib.util.spec_from_file_location("bench_ai_partner", ROOT / "bench" / "ai.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    total: dict[str, tuple[int, int]] = {}
    for i in range(4):  # a deal may be thrown in (no chance at all): four of them
        out, _ = bench._partner_unit((i, ("easy",), bench.SEEDS["report"]))
        assert {k.split("|")[2] for k in out} == {"dd", "ruff", "ruff_sure", "ruff_dd", "overbid", "jump"}
        assert all(0 <= h <= c for h, c in out.values())
        for k, (h, c) in out.items():
            total[k] = (total.get(k, (0, 0))[0] + h, total.get(k, (0, 0))[1] + c)
    assert total["tarneeb41|easy|dd"][1] > 0 and total["tarneeb|easy|dd"][1] > 0  # cards with a choice
    assert total["tarneeb|easy|jump"][0] == 0  # the rule player always bids the lowest it may
    for game in ("tarneeb", "tarneeb41"):
        assert total[f"{game}|easy|ruff_sure"][1] <= total[f"{game}|easy|ruff"][1]
        assert total[f"{game}|easy|ruff_dd"][1] == total[f"{game}|easy|ruff"][0]  # each of its ruffs, scored
