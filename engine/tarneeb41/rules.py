"""Syrian Tarneeb 41 variant options (rules.md §2.6), defaults first."""

from __future__ import annotations

from engine.base import Option

OPTIONS: tuple[Option, ...] = (
    Option("trump_mode", "exposed_sister_suit", choices=("exposed_sister_suit", "hearts_fixed")),
    Option("exposed_card", "dealer_13th", choices=("dealer_13th",)),
    Option("min_bid", 2, choices=(1, 2)),
    Option("max_bid", 13, choices=(13,)),
    Option("min_total", 11, minimum=4, maximum=52),
    Option("low_total_redeal", "next_dealer", choices=("next_dealer", "same_dealer")),
    Option("value_table", "face", choices=("face", "double_from_7", "levant400", "tiered_multiplier")),
    Option("rising_minimums", False, choices=(False, True)),
    Option("first_lead", "dealer_right", choices=("dealer_right", "highest_bidder")),
    Option("target", 41, minimum=1, maximum=1000),
    Option("partner_rule", "positive", choices=("positive", "non_negative")),
    Option(
        "both_qualify",
        "higher_team_total_then_extra_deal",
        choices=("higher_team_total_then_extra_deal", "higher_individual_then_team"),
    ),
    Option("bid13_wins_match", False, choices=(False, True)),
    Option("first_dealer", "random", choices=("random", 0, 1, 2, 3)),
)
"""Every option of Syrian Tarneeb 41 with its default (``first_dealer`` may also be ``dealer=``)."""
