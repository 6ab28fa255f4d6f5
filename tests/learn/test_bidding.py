"""The bidding games in ``dehla_v0``: their encoding hides what a seat may not know, their
rewards are the hands' game points, their action ids round-trip.

A twin of a Twenty-eight hand that one seat cannot tell apart from it: every card the seat has
not seen (the other hands, the packets still to come, its own included, and a face-down trump
card it did not set) placed anew at random, then the same calls and plays replayed (the hidden
trump being whatever card now lies where the bidder's lay); a placement that cannot replay them
is drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

from arena.engine.action_ids import NUM_BIDDING_ACTIONS, bidding_action_id, bidding_action_of
from arena.engine.actions import HIDE, HideTrump
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_outcome import BiddingMatchScore
from arena.engine.bidding_rules import BIDDING_PRESETS, bidding_rules_for
from arena.engine.cards import cards_of
from arena.engine.deal import Deal
from arena.engine.seats import Seat, partner_of
from sdk.encoding_layout import FloatArray
from sdk.learn import dehla_v0
from sdk.learn.bidding_encoding import (
    BIDDING_BLOCKS,
    BIDDING_LAYOUT,
    BIDDING_OBSERVATION_SIZE,
    bidding_action_mask,
    encode_bidding,
)
from tests.engine_helpers import examples
from tests.learn_helpers import documented_blocks

Encoder = Callable[[BiddingHand, Seat], FloatArray]
SCORE = BiddingMatchScore(dealer=2, hands_played=2, points=(1, -1))


def played_hand(preset: str, seed: int, steps: int) -> BiddingHand:
    rules = bidding_rules_for(preset)
    hand = BiddingHand(rules, Deal.from_seed(rules.deal_rules, seed), seed % 4)
    rng = random.Random(seed)
    for _ in range(steps):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    return hand


def twin(hand: BiddingHand, seat: Seat, rng: random.Random) -> BiddingHand | None:
    """A hand ``seat`` cannot tell from ``hand`` (see the module doc), or ``None`` if this draw
    of the unseen cards cannot replay the hand's calls and plays."""
    deal, history = hand.deal, hand.history
    played = {action.card for _, action in history if not isinstance(action, HideTrump) and hasattr(action, "card")}
    hidden = next((action.card for _, action in history if isinstance(action, HideTrump)), None)
    known = set(played) | set(cards_of(hand.hand(seat)))
    if hidden is not None and (hand.reveal is not None or (hand.contract is not None and hand.contract.bidder == seat)):
        known.add(hidden)
    free = [(s, i) for s in range(4) for i, card in enumerate(deal.hands[s]) if card not in known]
    cards = [deal.hands[s][i] for s, i in free]
    rng.shuffle(cards)
    hands = [list(h) for h in deal.hands]
    for (s, i), card in zip(free, cards, strict=True):
        hands[s][i] = card
    other = BiddingHand(hand.rules, Deal(tuple(tuple(h) for h in hands), chance=deal.chance), hand.dealer)
    for s, action in history:
        again = HIDE[hands[s][deal.hands[s].index(action.card)]] if isinstance(action, HideTrump) else action
        if again not in other.legal_actions():
            return None
        other.apply(again)
    return other


def seat_encoder(hand: BiddingHand, seat: Seat) -> FloatArray:
    return encode_bidding(observe_bidding(hand, seat, SCORE))


def partner_leak(hand: BiddingHand, seat: Seat) -> FloatArray:
    """A leaking variant: the partner's hand rides along."""
    partner = np.zeros(52, dtype=np.float32)
    partner[list(cards_of(hand.hand(partner_of(seat))))] = 1
    return np.concatenate([seat_encoder(hand, seat), partner])


def trump_leak(hand: BiddingHand, seat: Seat) -> FloatArray:
    """A subtler leak: the trump block from the face-down card, whoever may know it."""
    vector = seat_encoder(hand, seat)
    trump = BIDDING_LAYOUT.view(vector, "trump")
    trump[:] = 0
    if hand.trump is not None:
        trump[int(hand.trump)] = 1
    return vector


def hiding_check(encoder: Encoder, count: int, shrink: bool = True) -> Callable[[], None]:
    @settings(examples(count), phases=tuple(Phase) if shrink else (Phase.explicit, Phase.generate))
    @given(preset=st.sampled_from(sorted(BIDDING_PRESETS)), seed=st.integers(0, 2**32 - 1),
           steps=st.integers(0, 28), seat=st.integers(0, 3))
    def encodes_alike(preset: str, seed: int, steps: int, seat: Seat) -> None:
        hand = played_hand(preset, seed, steps)
        rng = random.Random(seed)
        other = next((t for t in (twin(hand, seat, rng) for _ in range(30)) if t is not None), None)
        assume(other is not None)
        assert other is not None
        assert observe_bidding(other, seat, SCORE) == observe_bidding(hand, seat, SCORE)
        assert np.array_equal(encoder(hand, seat), encoder(other, seat)), (preset, seed, steps, seat)

    return encodes_alike


def test_bidding_hands_a_seat_cannot_tell_apart_encode_alike() -> None:
    hiding_check(seat_encoder, 120)()


@pytest.mark.parametrize("leak", [partner_leak, trump_leak], ids=["partner's hand", "face-down trump"])
def test_a_leaking_bidding_encoder_is_caught(leak: Encoder) -> None:
    with pytest.raises(AssertionError):
        hiding_check(leak, 120, shrink=False)()


@examples(30)
@given(preset=st.sampled_from(sorted(BIDDING_PRESETS)), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 45))
def test_bidding_values_are_in_range_and_the_mask_is_the_legal_actions(preset: str, seed: int, steps: int) -> None:
    hand = played_hand(preset, seed, steps)
    for seat in range(4):
        view = observe_bidding(hand, seat, SCORE)
        vector = encode_bidding(view)
        assert vector.shape == (BIDDING_OBSERVATION_SIZE,) and vector.min() >= 0 and vector.max() <= 1
        assert list(bidding_action_mask(view).nonzero()[0]) == sorted(bidding_action_id(a) for a in view.legal_actions)


def test_bidding_action_ids_round_trip() -> None:
    every = range(NUM_BIDDING_ACTIONS)
    assert [bidding_action_id(bidding_action_of(n)) for n in every] == list(every)
    with pytest.raises(ValueError, match="out of range"):
        bidding_action_of(NUM_BIDDING_ACTIONS)


@pytest.mark.parametrize("preset", sorted(BIDDING_PRESETS))
def test_hand_rewards_are_the_hands_game_points(preset: str) -> None:
    env = dehla_v0.raw_env(preset=preset, match="hands:3")
    env.reset(seed=6)
    rng = random.Random(6)
    paid = []
    while not any(env.terminations.values()):
        table = env.table
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        if table.is_over:
            result = table.result
            value = float(result.game_points if result.bidding_team == 0 else -result.game_points)
            assert env.rewards == {"player_0": value, "player_1": -value, "player_2": value, "player_3": -value}
            paid.append(value)
    assert len(paid) == 3 or max(env.score.points) >= env.config.rules.target
    assert env.score.points[0] - env.score.points[1] == pytest.approx(sum(paid))


def test_the_documented_bidding_layout_is_the_code() -> None:
    documented, section = documented_blocks("### The bidding games' layout")
    assert documented == [(b.name, b.shape) for b in BIDDING_BLOCKS]
    assert f"{BIDDING_OBSERVATION_SIZE} values" in section
