"""The SDK's sampler for Twenty-eight and Twenty-nine: every world it draws shows the seat exactly
what the table showed it, respects the voids the seat saw, and places the face-down trump among
the cards the seat has not seen, never at the real one's place alone."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.bidding_hand import BiddingDecision, BiddingHand, new_hand
from arena.engine.bidding_observation import BiddingObservation, observe_bidding
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.cards import cards_of, mask_of
from sdk.bidding_sampling import (
    BiddingSampler,
    InconsistentViewError,
    Placement,
    bidding_facts,
    sample_bidding_states,
)
from sdk.placement_draw import suits_mask


def position(seed: int, steps: int, preset: str = "twenty-eight", last_trick: bool = False) -> BiddingHand:
    """A hand dealt from ``seed`` and played ``steps`` random legal actions on (or to its end)."""
    hand = new_hand(bidding_rules_for(preset, {"no_exposure": "last_trick"} if last_trick else {}), seed, seed % 4)
    rng = random.Random(seed)
    for _ in range(steps):
        if hand.is_over:
            break
        hand.apply(rng.choice(hand.legal_actions()))
    return hand


def check_world(obs: BiddingObservation, sampler: BiddingSampler, rng: random.Random) -> None:
    placement, world = sampler.sample_world(rng)
    assert observe_bidding(world, obs.seat) == replace(obs, match=None)
    facts = sampler.facts
    for seat in range(4):
        assert placement.hands[seat] & facts.known[seat] == facts.known[seat]
        if seat != obs.seat:
            assert not placement.hands[seat] & facts.unknown & suits_mask(facts.voids[seat]), seat
    if obs.hidden_trump_card is not None:
        assert placement.hidden_card == obs.hidden_trump_card


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 45), seat=st.integers(0, 3),
       preset=st.sampled_from(["twenty-eight", "twenty-nine"]))
def test_every_sampled_world_agrees_with_the_seats_observation(seed: int, steps: int, seat: int, preset: str) -> None:
    hand = position(seed, steps, preset, last_trick=seed % 2 == 1)
    if hand.is_over:
        return
    obs = observe_bidding(hand, seat)
    sampler = BiddingSampler(obs)
    assert sampler.count_unlimited() >= 1
    rng = random.Random(seed)
    for _ in range(3):
        check_world(obs, sampler, rng)


def first_play_of_a_non_bidder(seed: int) -> tuple[BiddingHand, BiddingObservation]:
    hand = position(seed, 0)
    rng = random.Random(seed)
    while hand.decision is not BiddingDecision.PLAY:
        hand.apply(rng.choice(hand.legal_actions()))
    assert hand.contract is not None
    seat = (hand.contract.bidder + 1) % 4
    return hand, observe_bidding(hand, seat)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_face_down_trump_may_be_any_card_the_seat_has_not_seen(seed: int) -> None:
    """Before the bidder has led, another seat knows nothing of the face-down card: over many
    draws every card it has not seen is placed there, the real one no more often than others."""
    hand, obs = first_play_of_a_non_bidder(seed)
    assert obs.hidden_trump_card is None and obs.trump is None
    sampler = BiddingSampler(obs)
    rng = random.Random(seed)
    counts: dict[int, int] = {}
    for _ in range(600):
        card = sampler.sample(rng).hidden_card
        assert card is not None
        counts[card] = counts.get(card, 0) + 1
    unseen = set(cards_of(sampler.facts.unknown))
    assert set(counts) == unseen and len(unseen) == 24
    real = hand.hidden_card
    assert real is not None and counts[real] < 2 * 600 / len(unseen)


def test_the_bidder_knows_its_own_face_down_card() -> None:
    hand, _ = first_play_of_a_non_bidder(4)
    assert hand.contract is not None
    obs = observe_bidding(hand, hand.contract.bidder)
    for world in sample_bidding_states(obs, random.Random(4), 5):
        assert world.hidden_card == hand.hidden_card
        assert observe_bidding(world, obs.seat) == obs


def test_the_voids_are_the_suits_a_seat_failed_to_follow_and_the_real_hands_agree() -> None:
    """Soundness (the real hand holds none of a void suit, so no world is lost) and completeness
    (every suit a seat did not follow is a void, and trumps for a seat that called for them and
    then played none, so the draw wastes nothing on the replay)."""
    shown = called_without_trumps = 0
    for seed in range(60):
        hand = position(seed, 10 + seed)
        seat = seed % 4
        facts = bidding_facts(observe_bidding(hand, seat))
        for trick in hand.tricks:
            led = trick.cards[0]
            assert led is not None
            for player, card in zip(trick.seats, trick.cards, strict=True):
                if card is not None and card.suit != led.suit:
                    assert facts.voids[player] >> led.suit & 1
                    shown += 1
        reveal = hand.reveal
        if reveal is not None and reveal.trick <= len(hand.tricks):
            card = hand.tricks[reveal.trick - 1].cards[reveal.position]
            if card is not None and card.suit != reveal.card.suit:  # called, then played no trump
                assert facts.voids[reveal.seat] >> reveal.card.suit & 1
                called_without_trumps += 1
        for other in range(4):
            assert not hand.hand(other) & ~facts.known[other] & suits_mask(facts.voids[other]), (seed, other)
    assert shown and called_without_trumps


def test_a_forged_view_is_refused_with_a_clear_error() -> None:
    _, obs = first_play_of_a_non_bidder(5)
    forged = replace(obs, hand_sizes=(9, 9, 9, 9))
    with pytest.raises(InconsistentViewError):
        BiddingSampler(forged)


def every_consistent_placement(obs: BiddingObservation, sampler: BiddingSampler) -> list[Placement]:
    """Brute force, by the rules alone: every way to deal the unseen cards into the other hands
    (and the face-down slot) whose replay shows the seat exactly ``obs``."""
    facts = sampler.facts
    unseen = cards_of(facts.unknown)
    rooms = {s: obs.hand_sizes[s] - facts.known[s].bit_count() for s in range(4) if s != obs.seat}
    hidden_slot = obs.hidden_trump_holder is not None and obs.hidden_trump_card is None
    out: list[Placement] = []
    for hidden in (unseen if hidden_slot else (obs.hidden_trump_card,)):
        rest = [c for c in unseen if c != hidden] if hidden_slot else list(unseen)
        seats = sorted(rooms)
        for first in combinations(rest, rooms[seats[0]]):
            left = [c for c in rest if c not in first]
            for second in combinations(left, rooms[seats[1]]):
                third = [c for c in left if c not in second]
                hands = list(facts.known)
                for seat, cards in zip(seats, (first, second, third), strict=True):
                    hands[seat] |= mask_of(cards)
                placement = Placement((hands[0], hands[1], hands[2], hands[3]), (0, 0, 0, 0), hidden)
                try:
                    world = sampler.state(placement)
                except InconsistentViewError:
                    continue
                if observe_bidding(world, obs.seat) == replace(obs, match=None):
                    out.append(placement)
    return out


def test_placements_are_uniform_over_every_consistent_one() -> None:
    """Late positions, the trump down or exposed: the sampler hits exactly the placements the
    rules allow, at equal frequencies (chi-square, 150 draws a placement)."""
    checked = {"down": 0, "exposed": 0}
    rng = random.Random(2026)
    for seed in range(300):
        hand = position(seed, 0, last_trick=seed % 2 == 1)
        play = random.Random(seed)
        while not hand.is_over and len(hand.tricks) < 6 + seed % 2:
            hand.apply(play.choice(hand.legal_actions()))
        if hand.is_over or hand.decision is not BiddingDecision.PLAY:
            continue
        seat = hand.to_move
        assert seat is not None
        obs = observe_bidding(hand, seat)
        kind = "exposed" if obs.reveal is not None else "down"
        if checked[kind] >= 2 or obs.hidden_trump_card is not None:
            continue
        sampler = BiddingSampler(obs)
        if not 3 <= sampler.count_unlimited() <= 40:  # at least as many as the consistent ones
            continue
        everything = every_consistent_placement(obs, sampler)
        if not 3 <= len(everything) <= 24:
            continue
        draws = 150 * len(everything)
        seen = Counter(sampler.sample(rng) for _ in range(draws))
        assert set(seen) == set(everything)
        expected = draws / len(everything)
        chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
        dof = len(everything) - 1
        assert chi2 < dof + 6 * dof**0.5 + 10, (chi2, dof)
        checked[kind] += 1
        if min(checked.values()) >= 2:
            return
    pytest.fail(f"too few positions checked: {checked}")
