"""The search bot on Twenty-eight: the worlds it plays out (``sdk.bidding_sampling``) show the
deciding seat exactly what the table showed it; its choice is always legal."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.bidding_hand import BiddingDecision, new_hand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_rules import bidding_rules_for
from sample_bots.search import bidding
from sdk.bidding_sampling import BiddingSampler
from sdk.bot import BiddingView


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 40), preset=st.sampled_from(["twenty-eight", "twenty-nine"]))
def test_a_sampled_world_looks_the_same_to_the_deciding_seat(seed: int, stop: int, preset: str) -> None:
    hand = new_hand(bidding_rules_for(preset, {"no_exposure": "last_trick"} if seed % 2 else {}), seed, seed % 4)
    rng = random.Random(seed)
    steps = 0
    while not hand.is_over and (hand.decision is not BiddingDecision.PLAY or steps < stop):
        hand.apply(rng.choice(hand.legal_actions()))
        steps += 1
    if hand.is_over:
        return
    seat = hand.to_move
    assert seat is not None
    view = observe_bidding(hand, seat)
    for world in BiddingSampler(view).states(random.Random(seed), 4):
        assert observe_bidding(world, seat) == view
    # bounded by worlds, not by the clock: under load a 50 ms deadline passed before the first
    # world and the choice was None (the caller's cue to play the heuristic's move)
    chosen = bidding.choose(BiddingView(view, 1.0, 0.0), rng, math.inf, max_worlds=2)
    assert chosen in view.legal_actions
