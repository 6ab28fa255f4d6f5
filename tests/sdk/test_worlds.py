"""``sdk.worlds.world_from_view``: a state rebuilt from one seat's view plus the unseen cards
plays on exactly like the real one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.actions import REVEAL
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.engine.selfplay import play_randomly
from sdk.worlds import world_from_view
from tests.sdk_helpers import real_face_down


def rebuilt(state: HandState, seat: int) -> HandState:
    hidden = state.hidden_card
    return world_from_view(
        observe(state, seat), [state.hand(s) for s in range(4)], [state.undealt(s) for s in range(4)],
        None if hidden is None else int(hidden), real_face_down(state, seat),
    )


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(deal_seed=st.integers(0, 10**6), stop=st.integers(0, 60), seat=st.integers(0, 3), play_seed=st.integers(0, 99))
def test_rebuilt_state_plays_on_identically(preset: str, deal_seed: int, stop: int, seat: int, play_seed: int) -> None:
    rules = rules_for(preset)
    state = HandState(rules, Deal.from_seed(rules, deal_seed), deal_seed % 4)
    rng = random.Random(play_seed)
    play_randomly(state, rng, limit=stop)
    copy = rebuilt(state, seat)
    while True:
        for s in range(4):
            assert observe(copy, s) == observe(state, s)
        assert copy.legal_actions() == state.legal_actions()
        assert copy.must_play_trump == state.must_play_trump
        if state.is_over:
            break
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        state.apply(action)
        copy.apply(action)
    assert copy.result == state.result


def test_rebuilding_rejects_an_assignment_that_contradicts_the_view() -> None:
    rules = rules_for()
    state = HandState(rules, Deal.from_seed(rules, 3), 0)
    state.apply(state.legal_actions()[0])
    obs = observe(state, 2)
    hands = [state.hand(s) for s in range(4)]
    undealt = [state.undealt(s) for s in range(4)]
    wrong_own = list(hands)
    wrong_own[2], wrong_own[3] = hands[3], hands[2]
    with pytest.raises(ValueError, match="own hand"):
        world_from_view(obs, wrong_own, undealt, None)
    short = list(hands)
    short[1] = hands[1] & (hands[1] - 1)
    with pytest.raises(ValueError, match="seat 1 must hold"):
        world_from_view(obs, short, undealt, None)


def test_a_world_seen_by_any_seat_keeps_a_pending_request_to_play_a_trump() -> None:
    """The request is public: whoever imagines the world, the asker must still play a trump."""
    rules = rules_for("court-piece-double-sir")
    found = 0
    for seed in range(40):
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        rng = random.Random(seed)
        while not state.is_over and not state.must_play_trump:
            actions = state.legal_actions()
            state.apply(REVEAL if REVEAL in actions else actions[rng.randrange(len(actions))])
        if not state.must_play_trump:
            continue
        found += 1
        for seat in range(4):
            copy = rebuilt(state, seat)
            assert copy.must_play_trump
            assert copy.legal_actions() == state.legal_actions()
    assert found
