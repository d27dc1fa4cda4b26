"""Classic Tarneeb variant options (rules.md §1.5), defaults first."""

from __future__ import annotations

from engine.base import Option

OPTIONS: tuple[Option, ...] = (
    Option("target", 31, choices=(31, 41, 61)),
    Option("first_dealer", "random", choices=("random", 0, 1, 2, 3)),
    Option("bid_display", "tricks", choices=("tricks", "levels")),
    Option("pass_is_final", True, choices=(True, False)),
    Option("all_pass", "redeal_same_dealer", choices=("redeal_same_dealer", "redeal_next_dealer", "dealer_forced_min")),
    Option("trump_mode", "bidder_chooses", choices=("bidder_chooses", "exposed_sister_suit")),
    Option("no_trump_allowed", False, choices=(False, True)),
    Option("first_lead_must_be_trump", False, choices=(False, True)),
    Option("made_score", "tricks_taken", choices=("tricks_taken", "bid")),
    Option("defenders_score_when_made", False, choices=(False, True)),
    Option("fail_defender_award", "their_tricks", choices=("their_tricks", "bid", "nothing")),
    Option("kaboot_unbid_score", 16, minimum=0, maximum=200),
    Option("kaboot_bid_made_score", 26, minimum=0, maximum=200),
    Option("kaboot_bid_fail_penalty", 16, minimum=0, maximum=200),
    Option("kaboot_fail_defenders", "single", choices=("single", "double")),
    Option("defender_kaboot_bonus", True, choices=(True, False)),
    Option("both_cross_tie", "play_on", choices=("play_on", "declarer_team_wins")),
    Option("lose_at_negative_target", False, choices=(False, True)),
    Option("bid13_wins_match", False, choices=(False, True)),
)
"""Every option of classic Tarneeb with its default (``first_dealer`` may also be ``dealer=``)."""
