"""The sampler of unseen cards: every placement is consistent, the imagined world is one the seat
cannot tell from the real one, and placements are drawn uniformly (so no consistent placement is
ever out of reach)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from arena.engine.cards import CardMask, cards_of
from arena.engine.observation import Observation, observe
from arena.engine.rules import rules_for
from sdk.sampling import Sampler, sample_placement, sample_states
from sdk.tracker import CardTracker
from tests.sdk_helpers import VARIANTS, check_consistent, check_uniform, suits_mask
from tests.sdk_helpers import playout as positions


@pytest.mark.parametrize("name", list(VARIANTS))
def test_samples_are_consistent_and_indistinguishable(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(7)
    for seed in range(6):
        for state in positions(rules, seed):
            for seat in range(4):
                obs = observe(state, seat)
                sampler = Sampler(obs)
                for _ in range(2):
                    placement = sampler.sample(rng)
                    check_consistent(obs, placement)
                    world = sampler.state(placement)
                    assert observe(world, seat) == obs
                    assert world.legal_actions() == state.legal_actions() or state.to_move != seat


def test_the_real_placement_is_always_among_the_consistent_ones() -> None:
    for name, rules in VARIANTS.items():
        for seed in range(4):
            for state in positions(rules, 100 + seed):
                for seat in range(4):
                    sampler = Sampler(observe(state, seat))
                    for holder, vmask, limit in sampler_limits(sampler):
                        assert (state.hand(holder) & vmask).bit_count() <= limit, name
                    assert sampler.count_unlimited() >= 1


def sampler_limits(sampler: Sampler) -> tuple[tuple[int, CardMask, int], ...]:
    return sampler.limits


def late_positions_with_voids() -> Iterator[Observation]:
    """Positions with 6 to 9 unseen cards, at least one relevant void, called trump."""
    rules = rules_for("dehla-pakad")
    for seed in range(200):
        for state in positions(rules, seed):
            seat = state.to_move
            assert seat is not None
            obs = observe(state, seat)
            t = CardTracker.from_view(obs)
            if 6 <= t.unknown.bit_count() <= 9 and any(
                t.unknown & suits_mask(t.voids[s]) for s in range(4) if s != seat
            ):
                yield obs
                break


def test_placements_are_uniform_over_every_consistent_one() -> None:
    assert check_uniform(late_positions_with_voids(), random.Random(2024), 6) >= 3


def test_mid_hand_every_allowed_seat_gets_each_card() -> None:
    rules = rules_for("dehla-pakad")
    rng = random.Random(5)
    for seed in range(10):
        for state in positions(rules, seed):
            if len(state.tricks) == 6 and not state.current_trick:
                break
        seat = state.to_move
        assert seat is not None
        obs = observe(state, seat)
        t = CardTracker.from_view(obs)
        sampler = Sampler(obs)
        where: dict[int, set[int]] = {c: set() for c in cards_of(t.unknown)}
        for _ in range(400):
            placement = sampler.sample(rng)
            for s in range(4):
                if s != seat:
                    for card in cards_of(placement.hands[s] & t.unknown):
                        where[card].add(s)
        for card, seats in where.items():
            allowed = {s for s in range(4) if s != seat and not t.void(s, card // 13) and obs.hand_sizes[s]}
            assert seats == allowed, (seed, card)


def test_sample_states_and_the_shortcuts() -> None:
    rules = rules_for("mendikot")
    state = next(s for i, s in enumerate(positions(rules, 3)) if i == 20)
    obs = observe(state, 2)
    worlds = sample_states(obs, random.Random(1), 5)
    assert len(worlds) == 5 and all(observe(w, 2) == obs for w in worlds)
    assert sample_states(obs, random.Random(1), 5)[0].hand(0) == worlds[0].hand(0)  # seeded
    check_consistent(obs, sample_placement(obs, random.Random(2)))
