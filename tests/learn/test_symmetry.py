"""Renaming the suits of a labelled decision gives the decision of the renamed deal: the same
hand played with every card's suit renamed encodes, at every step, to the original vector and
mask under the renaming (``sdk.learn.symmetry``), and its legal actions are the renamed ones."""

from __future__ import annotations

import random

import numpy as np
import pytest

from arena.engine.action_ids import action_id, action_of
from arena.engine.cards import CARDS
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import rules_for
from sdk.encoding import action_mask, encode
from sdk.learn.symmetry import ALL_RENAMINGS, renaming


@pytest.mark.parametrize("preset", ["dehla-pakad", "dehla-pakad-hidden", "mendikot"])
@pytest.mark.parametrize("perm", [(1, 2, 3, 0), (3, 2, 0, 1)])
def test_a_renamed_deal_encodes_as_the_renamed_vector(preset: str, perm: tuple[int, int, int, int]) -> None:
    rules = rules_for(preset)
    renamed = renaming(perm)
    rng = random.Random(f"{preset}{perm}")
    for seed in range(2):
        deal = Deal.from_seed(rules, seed)
        twin_deal = Deal(tuple(tuple(CARDS[perm[c.suit] * 13 + c.rank] for c in hand) for hand in deal.hands),
                         deal.chance)
        state, twin = HandState(rules, deal, seed % 4), HandState(rules, twin_deal, seed % 4)
        while not state.is_over:
            for seat in range(4):
                view, twin_view = observe(state, seat), observe(twin, seat)
                assert np.array_equal(encode(view)[renamed.observation_source], encode(twin_view))
                assert np.array_equal(action_mask(view)[renamed.action_source], action_mask(twin_view))
            action = rng.choice(state.legal_actions())
            state.apply(action)
            twin.apply(action_of(int(renamed.action_target[action_id(action)])))


def test_the_renamings_are_the_24_permutations_and_the_first_is_the_identity() -> None:
    assert len({tuple(r.action_target) for r in ALL_RENAMINGS}) == 24
    assert np.array_equal(ALL_RENAMINGS[0].observation_source, np.arange(len(ALL_RENAMINGS[0].observation_source)))
    with pytest.raises(ValueError, match="not a permutation"):
        renaming((0, 0, 1, 2))
