"""The expert's greedy playout: the search bot's card at every step and its value, faster."""

from __future__ import annotations

import random

import pytest

from arena.engine import play_orders
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import PRESETS, Capture, Rules, rules_for
from sample_bots.expert.playout import engine_playout, greedy_card, lean_applies, lean_playout, playout
from sample_bots.search.bot import _greedy_card
from sample_bots.search.bot import playout as search_playout

VARIANTS = {**{preset: rules_for(preset) for preset in PRESETS},
            "court-piece, early end": rules_for("court-piece", {"early_end": True})}
LEAN_VARIANTS = {"dehla-pakad", "dehla-pakad-cut", "court-piece"}
"""The variants whose play, once trumps are in force and face up, is plain trick play."""


def _random_position(rules: Rules, seed: int) -> HandState:
    """A hand after a random number of random legal actions (calls, reveals too)."""
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    for _ in range(rng.randrange(0, 4 * rules.hand_size - 1)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_same_card_as_the_search_bots_greedy_policy_at_every_step(variant: str) -> None:
    rules = VARIANTS[variant]
    order = play_orders(rules.direction)
    every_trick = rules.capture is not Capture.SWEEP
    choices = 0
    for seed in range(25):
        state = _random_position(rules, seed)
        while not state.is_over:
            mask = state.legal_mask()
            if mask == 0:
                state.apply(state.legal_actions()[0])
                continue
            args = (mask, order, rules.hand_size, every_trick)
            expected = _greedy_card(state, *args)
            assert greedy_card(state, *args) == expected, (seed, state.trick_cards, state.to_move)
            choices += mask & (mask - 1) != 0
            state.play(expected)
    assert choices > 100  # positions with a real choice were compared


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_same_value_as_the_search_bots_playout(variant: str) -> None:
    rules = VARIANTS[variant]
    lean = 0
    for seed in range(60):
        state = _random_position(rules, seed)
        if state.is_over:
            continue
        for team in (0, 1):
            expected = search_playout(state.clone(), rules, team)
            assert engine_playout(state.clone(), rules, team) == expected, seed
            assert playout(state.clone(), rules, team) == expected, seed
            if lean_applies(state, rules):
                before = state.clone()
                assert lean_playout(state, rules, team) == expected, seed
                assert state.legal_mask() == before.legal_mask() and state.trick_cards == before.trick_cards
                lean += 1
    # The lean path is taken wherever trick play is plain, and only there.
    assert (lean > 50) == (variant in LEAN_VARIANTS), lean
