"""``sdk.worlds.world_from_view``: a state rebuilt from one seat's view plus the unseen cards
plays on exactly like the real one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.actions import DECLINE, REVEAL
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, Rules, rules_for
from arena.engine.selfplay import play_randomly
from sdk.worlds import world_from_view
from tests.sdk_helpers import real_face_down


def rebuilt(state: HandState, seat: int) -> HandState:
    hidden = state.hidden_card
    return world_from_view(
        observe(state, seat), [state.hand(s) for s in range(4)], [state.undealt(s) for s in range(4)],
        None if hidden is None else int(hidden), real_face_down(state, seat),
    )


WORLD_RULES: dict[str, Rules] = {preset: rules_for(preset) for preset in PRESETS} | {
    # Seed 003's trump variants: a card turned up in the caller's hand, a blind face-down trump.
    "court-piece trump_card=later": rules_for("court-piece", {"trump_card": "later", "trump_card_index": 10}),
    "court-piece decline=second_packet": rules_for("court-piece", {"decline": "second_packet"}),
    "court-piece-double-sir hidden_blind=true": rules_for("court-piece-double-sir", {"hidden_blind": True}),
    "dehla-pakad-hidden hidden_blind=true": rules_for("dehla-pakad-hidden", {"hidden_blind": True}),
}


@pytest.mark.parametrize("preset", list(WORLD_RULES))
@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(deal_seed=st.integers(0, 10**6), stop=st.integers(0, 60), seat=st.integers(0, 3), play_seed=st.integers(0, 99))
def test_rebuilt_state_plays_on_identically(preset: str, deal_seed: int, stop: int, seat: int, play_seed: int) -> None:
    rules = WORLD_RULES[preset]
    state = HandState(rules, Deal.from_seed(rules, deal_seed), deal_seed % 4)
    rng = random.Random(play_seed)
    play_randomly(state, rng, limit=stop)
    if DECLINE in state.legal_actions():
        # Which card a decline turns up nobody has seen (a later card, a draw from the deal's
        # seed): a world imagined before it draws its own, so these worlds start after the call.
        state.apply(rng.choice(state.legal_actions()))
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


@pytest.mark.parametrize("blind", [False, True])
def test_a_world_rebuilt_right_after_a_reveal_on_lead_keeps_the_previous_tricks_claim(blind: bool) -> None:
    """Double Sir: a claim needs the previous trick won after the reveal. The holder revealing on
    lead puts the reveal in the new trick: the previous trick, won before it, starts no claim in
    the rebuilt world either (``won_after_reveal`` must not read an earlier trick's position
    against a later reveal)."""
    rules = rules_for("court-piece-double-sir", {"hidden_blind": blind})
    found = 0
    for seed in range(60):
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        rng = random.Random(seed)
        while not state.is_over and state.reveal is None:
            actions = state.legal_actions()
            on_lead = not state.current_trick and state.trick_number >= 4
            if REVEAL in actions and on_lead and state.streak_holder == state.to_move:
                state.apply(REVEAL)
                break
            plays = [a for a in actions if a is not REVEAL]
            state.apply(plays[rng.randrange(len(plays))])
        if state.reveal is None or state.is_over:
            continue
        found += 1
        copies = [rebuilt(state, seat) for seat in range(4)]
        while not state.is_over:
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            state.apply(action)
            for copy in copies:
                copy.apply(action)
                assert copy.tricks == state.tricks
        for copy in copies:
            assert copy.result == state.result
    assert found >= 3
