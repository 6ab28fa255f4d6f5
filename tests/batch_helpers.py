"""What the batched engine's differential tests and the vector environment's share: every option
the batched engine plays, in combinations (a test module may not import another)."""

from __future__ import annotations

from typing import Any

BATCH_OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("dehla-pakad", {"direction": "anticlockwise", "two_two": "tricks_won_at_table"}),
    ("dehla-pakad", {"two_two": "tricks_captured", "capture": "direct"}),
    ("dehla-pakad", {"two_two": "draw", "deck": "short32"}),
    ("dehla-pakad", {"trump": "none"}),
    ("dehla-pakad", {"trump": "first_discard"}),
    ("dehla-pakad-cut", {"deck": "short32", "direction": "anticlockwise"}),
    ("court-piece", {"early_end": True}),
    ("court-piece", {"deck": "short32", "capture": "sweep"}),
    ("court-piece", {"trump": "first_discard", "capture": "sweep"}),
    ("dehla-pakad", {"hand_result": "mendikot", "bonus_aces": True, "mendikot_bonus": 2, "kot_bonus": 3,
                     "capture": "direct"}),
    ("dehla-pakad", {"hand_result": "mendikot", "trump": "cut", "mendikot_bonus": 1}),
    ("dehla-pakad", {"hand_result": "seven_tricks", "trump": "none", "kot_bonus": 2}),
    ("dehla-pakad-hidden", {"hide_from": "full_hand", "direction": "anticlockwise"}),
    ("dehla-pakad-hidden", {"deck": "short32", "capture": "direct"}),
    ("dehla-pakad-hidden", {"reveal": "on_request"}),
    ("mendikot", {"capture": "sweep", "deck": "short32"}),
    ("mendikot", {"hide_from": "full_hand", "bonus_aces": True}),
    ("court-piece", {"trump": "hidden", "reveal": "on_request", "early_end": True}),
    ("mendikot-closed", {"hide_from": "first_packet", "deck": "short32", "capture": "sweep"}),
    ("dehla-pakad-hidden", {"reveal": "on_play"}),
    ("court-piece-double-sir", {"deck": "short32", "direction": "clockwise"}),
    ("court-piece-double-sir", {"maker_discard": "open", "early_end": True}),
    ("court-piece-double-sir", {"sweep_limits": "none"}),
    ("court-piece-double-sir", {"hide_from": "full_hand", "hand_result": "tens"}),
    ("court-piece", {"capture": "sweep", "sweep_limits": "court_piece"}),
    ("dehla-pakad", {"sweep_limits": "court_piece", "trump": "first_discard"}),
    ("dehla-pakad-hidden", {"sweep_limits": "court_piece", "deck": "short32"}),
]
"""(preset, option overrides) pairs, each held to the rules engine by ``tests/batch``."""

BIDDING_BATCH_OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("twenty-eight", {"direction": "clockwise", "game_points": "by_bid"}),
    ("twenty-eight", {"no_exposure": "last_trick", "overbid_partner_min": 20}),
    ("twenty-eight", {"auction": "single_round", "rank_order": "ace_high"}),
    ("twenty-eight", {"min_bid": 1, "max_bid": 20, "last_trick_points": 3}),
    ("twenty-nine", {"no_exposure": "last_trick", "game_points": "by_bid", "target": 12}),
    ("twenty-nine", {"overbid_partner_min": 22, "auction": "single_round", "direction": "clockwise"}),
]
"""(bidding preset, option overrides) pairs: every option of ``BiddingRules`` at a value other than
the presets', each held to ``BiddingHand`` by ``tests/batch``."""

VECTOR_OPTIONS: list[tuple[str, dict[str, Any]]] = [*BATCH_OPTIONS, *BIDDING_BATCH_OPTIONS]
"""The pairs the vector environment is held to ``dehla_v0`` on: every option set the batched engine plays."""
