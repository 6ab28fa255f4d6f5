"""The SDK's tracker for Twenty-eight and Twenty-nine: what it says is out is exactly what has not
been played and is not the seat's own, its voids are sound, and its masters follow the game's
rank order (J 9 A 10 K Q 8 7), not the ace-high one of the other presets."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.bidding_hand import BiddingHand, new_hand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.cards import SUIT_MASKS, Rank, cards_of
from arena.engine.ranking import card_points, strength
from sdk.bidding_tracker import BiddingTracker


def position(seed: int, steps: int, preset: str) -> BiddingHand:
    """A hand dealt from ``seed`` and played ``steps`` random legal actions on (or to its end)."""
    hand = new_hand(bidding_rules_for(preset), seed, seed % 4)
    rng = random.Random(seed)
    for _ in range(steps):
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def played_mask(hand: BiddingHand) -> int:
    cards = [c for t in hand.tricks for c in t.cards if c is not None] + [c for _, c in hand.current_trick]
    return sum(1 << c for c in cards)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 45), seat=st.integers(0, 3),
       preset=st.sampled_from(["twenty-eight", "twenty-nine"]))
def test_what_is_out_is_what_is_neither_played_nor_the_seats_own_and_the_voids_hold(
        seed: int, steps: int, seat: int, preset: str) -> None:
    hand = position(seed, steps, preset)
    tracker = BiddingTracker.from_view(observe_bidding(hand, seat))
    own = hand.hand(seat)
    if hand.hidden_card is not None and hand.contract is not None and hand.contract.bidder == seat:
        own |= 1 << hand.hidden_card
    assert tracker.out == hand.rules.deck_mask & ~played_mask(hand) & ~own
    assert tracker.card_points_out == card_points(hand.rules.deck_mask & ~played_mask(hand))
    for other in range(4):
        holds = hand.hand(other) | hand.undealt(other)
        for suit in range(4):
            if tracker.void(other, suit):  # sound: it holds none of the cards this seat cannot place
                assert not holds & tracker.unknown & SUIT_MASKS[suit], (other, suit)
    for card in cards_of(own):
        higher_out = [c for c in cards_of(tracker.out_of(card // 13))
                      if strength(hand.rules.rank_order, c) > strength(hand.rules.rank_order, card)]
        assert tracker.is_master(card) == (not higher_out)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**6), seat=st.integers(0, 3))
def test_before_any_play_the_top_card_out_is_the_jack_then_the_nine(seed: int, seat: int) -> None:
    """rules.md: "ranks in every suit J 9 A 10 K Q 8 7": the ace is only the third card."""
    hand = position(seed, 0, "twenty-eight")
    tracker = BiddingTracker.from_view(observe_bidding(hand, seat))
    held = {card for card in cards_of(hand.hand(seat))}
    for suit in range(4):
        jack, nine, ace = (suit * 13 + rank for rank in (Rank.JACK, Rank.NINE, Rank.ACE))
        expected = jack if jack not in held else nine if nine not in held else ace if ace not in held else None
        if expected is not None:
            assert tracker.top_out(suit) == expected
        if jack in held:
            assert tracker.is_master(jack)
        if nine in held:
            assert tracker.is_master(nine) == (jack in held)
