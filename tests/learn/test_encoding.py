"""The observation encoding hides what a seat may not know, and its layout is the documented one.

The hiding test plays a seeded random prefix of a hand, then builds a second state that the
seat cannot tell from the first (``sdk.sampling``: the other hands, the packets to come and a
face-down card it did not set, placed anew consistently with its view) and asks that both
encode alike for it. An encoder that leaks (a partner's hand; the true trump suit) fails it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from arena.engine.action_ids import action_id
from arena.engine.cards import cards_of
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.match import MatchScore
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.engine.seats import Seat, partner_of
from arena.engine.selfplay import play_randomly
from sdk.encoding import BLOCKS, OBSERVATION_SIZE, action_mask, block_view, encode
from sdk.encoding_layout import FloatArray
from sdk.sampling import sample_states
from tests.engine_helpers import examples
from tests.learn_helpers import documented_blocks

Encoder = Callable[[HandState, Seat], FloatArray]
SCORE = MatchScore(dealer=1, hands_played=3, kots=(1, 0), hands_won=(2, 1), runs=(0, 1))


def seat_encoder(state: HandState, seat: Seat) -> FloatArray:
    """What the environment gives a seat: the encoding of its ``observe()``."""
    return encode(observe(state, seat, SCORE))


def partner_leak(state: HandState, seat: Seat) -> FloatArray:
    """A leaking variant: the partner's hand rides along (a seat may not see it)."""
    partner = np.zeros(52, dtype=np.float32)
    partner[list(cards_of(state.hand(partner_of(seat))))] = 1
    return np.concatenate([seat_encoder(state, seat), partner])


def trump_leak(state: HandState, seat: Seat) -> FloatArray:
    """A subtler leak: the trump block from the true trump suit, known to the seat or not."""
    vector = seat_encoder(state, seat)
    trump = block_view(vector, "trump")
    trump[:] = 0
    if state.trump is not None:
        trump[int(state.trump)] = 1
    return vector


def hiding_check(encoder: Encoder, count: int, shrink: bool = True) -> Callable[[], None]:
    """The property: two states a seat cannot tell apart encode alike for it (``shrink``: find the
    smallest failing example; the leak tests only need one)."""

    @settings(examples(count), phases=tuple(Phase) if shrink else (Phase.explicit, Phase.generate))
    @given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60),
           seat=st.integers(0, 3))
    def encodes_alike(preset: str, seed: int, steps: int, seat: Seat) -> None:
        rules = rules_for(preset)
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        play_randomly(state, random.Random(seed), steps)
        view = observe(state, seat, SCORE)
        (other,) = sample_states(view, random.Random(seed + 1), 1)
        assert observe(other, seat, SCORE) == view  # the two states are alike for this seat
        assert np.array_equal(encoder(state, seat), encoder(other, seat)), (preset, seed, steps, seat)

    return encodes_alike


def test_states_a_seat_cannot_tell_apart_encode_alike() -> None:
    hiding_check(seat_encoder, 150)()


@pytest.mark.parametrize("leak", [partner_leak, trump_leak], ids=["partner's hand", "true trump"])
def test_a_leaking_encoder_is_caught(leak: Encoder) -> None:
    with pytest.raises(AssertionError):
        hiding_check(leak, 150, shrink=False)()


@examples(40)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_values_are_in_range_and_the_mask_is_the_legal_actions(preset: str, seed: int, steps: int) -> None:
    rules = rules_for(preset)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    play_randomly(state, random.Random(seed), steps)
    for seat in range(4):
        view = observe(state, seat, SCORE)
        vector = encode(view)
        assert vector.shape == (OBSERVATION_SIZE,) and vector.dtype == np.float32
        assert vector.min() >= 0 and vector.max() <= 1
        assert np.array_equal(block_view(vector, "hand").nonzero()[0], view.hand)
        legal = sorted(action_id(a) for a in view.legal_actions)
        assert list(action_mask(view).nonzero()[0]) == legal
        assert bool(legal) == (state.to_move == seat and not state.is_over)


def test_seats_are_relative_to_the_observer() -> None:
    rules = rules_for("dehla-pakad")
    state = HandState(rules, Deal.from_seed(rules, 7), dealer=2)
    for seat in range(4):
        vector = encode(observe(state, seat))
        assert block_view(vector, "dealer").nonzero()[0].tolist() == [(2 - seat) % 4]
        assert block_view(vector, "to_move").nonzero()[0].tolist() == [(state.first_player - seat) % 4]


def test_the_documented_layout_is_the_code() -> None:
    """docs/learning.md's table lists every block, in order, with its shape."""
    documented, section = documented_blocks("## The observation encoding")
    assert documented == [(b.name, b.shape) for b in BLOCKS]
    assert f"{OBSERVATION_SIZE} values" in section
