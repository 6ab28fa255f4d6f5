"""The expert's mask-based greedy playout plays the search bot's greedy card at every step."""

from __future__ import annotations

import random

import pytest

from arena.engine import play_orders
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import PRESETS, Capture, rules_for
from sample_bots.expert.playout import greedy_card, playout
from sample_bots.search.bot import _greedy_card
from sample_bots.search.bot import playout as search_playout


def _random_position(preset: str, seed: int) -> HandState:
    """A hand of ``preset`` after a random number of random legal actions (calls, reveals too)."""
    rules = rules_for(preset)
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    for _ in range(rng.randrange(0, 4 * rules.hand_size - 1)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_same_card_as_the_search_bots_greedy_policy_at_every_step(preset: str) -> None:
    rules = rules_for(preset)
    order = play_orders(rules.direction)
    every_trick = rules.capture is not Capture.SWEEP
    choices = 0
    for seed in range(25):
        state = _random_position(preset, seed)
        for team in (0, 1):
            assert playout(state.clone(), rules, team) == search_playout(state.clone(), rules, team), seed
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
