"""The sampler of unseen cards: every placement is consistent, the imagined world is one the seat
cannot tell from the real one, and placements are drawn uniformly (so no consistent placement is
ever out of reach)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

import pytest

from arena.engine.cards import CardMask, cards_of
from arena.engine.observation import Observation, observe
from arena.engine.rules import rules_for
from sdk.sampling import Placement, Sampler, sample_placement, sample_states
from sdk.tracker import CardTracker
from tests.sdk_helpers import VARIANTS, suits_mask
from tests.sdk_helpers import playout as positions


def check_consistent(obs: Observation, placement: Placement) -> None:
    t = CardTracker.from_view(obs)
    me = obs.seat
    hands, undealt = placement.hands, placement.undealt
    assert hands[me] == t.hand
    placed = sum(hands[s] for s in range(4) if s != me) + sum(undealt)
    if placement.hidden_card is not None and obs.hidden_trump_holder != me:
        placed += 1 << placement.hidden_card
    placed += sum(1 << c for c in placement.face_down)
    assert placed == t.out  # exactly the unseen cards, each once (sums equal ORs only then)
    assert sum(h.bit_count() for s, h in enumerate(hands) if s != me) + sum(u.bit_count() for u in undealt) + (
        1 if placement.hidden_card is not None and obs.hidden_trump_holder != me else 0
    ) + len(placement.face_down) == t.out.bit_count()
    # A face-down discard: one per unseen one, of no suit its player had shown void in (the led
    # suit among them).
    assert len(placement.face_down) == len(t.face_down_slots)
    for card, voids in zip(placement.face_down, t.face_down_slots, strict=True):
        assert not voids >> card.suit & 1
    for s in range(4):
        assert hands[s].bit_count() == obs.hand_sizes[s]
        assert undealt[s].bit_count() == obs.cards_to_come[s]
        if s != me:
            assert hands[s] & t.known[s] == t.known[s]
            assert hands[s] & ~t.known[s] & suits_mask(t.voids[s]) == 0
    if obs.hidden_trump_holder == me:
        assert placement.hidden_card == obs.hidden_trump_card
    elif obs.hidden_trump_holder is None:
        assert placement.hidden_card is None


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
    return sampler._limits


def brute_force(obs: Observation) -> list[Placement]:
    """Every consistent placement of a small position, by enumeration."""
    t = CardTracker.from_view(obs)
    me = obs.seat
    pool = cards_of(t.unknown)
    others = [s for s in range(4) if s != me]
    sizes = [obs.hand_sizes[s] - t.known[s].bit_count() for s in others]
    out: list[Placement] = []
    for order in set(itertools.product(range(len(others)), repeat=len(pool))):
        if [order.count(i) for i in range(len(others))] != sizes:
            continue
        hands = [t.known[s] for s in range(4)]
        hands[me] = t.hand
        for card, i in zip(pool, order, strict=True):
            hands[others[i]] |= 1 << card
        if all(hands[s] & ~t.known[s] & suits_mask(t.voids[s]) == 0 for s in others):
            out.append(Placement((hands[0], hands[1], hands[2], hands[3]), (0, 0, 0, 0), None))
    return out


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


def check_uniform(
    observations: Iterable[Observation], rng: random.Random, want: int,
    enumerate_all: Callable[[Observation], list[Placement]] | None = None,
) -> int:
    """Sample each view's placements and compare with brute force: the same set (nothing
    inconsistent, nothing out of reach) at equal frequencies (chi-square). Views with 3 to 60
    placements count, each distinct view once; returns how many were checked (at most ``want``)."""
    checked = 0
    tried: set[tuple[object, ...]] = set()
    for obs in observations:
        key = (obs.hand, obs.tricks, obs.current_trick)
        if key in tried:
            continue
        tried.add(key)
        everything = (enumerate_all or brute_force)(obs)
        sampler = Sampler(obs)
        assert sampler.count_unlimited() == len(everything)
        if not 3 <= len(everything) <= 60:
            continue
        assert_uniform(sampler, everything, rng)
        checked += 1
        if checked == want:
            break
    return checked


def assert_uniform(sampler: Sampler, everything: list[Placement], rng: random.Random) -> None:
    """The sampler's draws hit exactly ``everything`` (nothing inconsistent, nothing out of reach)
    at equal frequencies (chi-square, 150 draws a placement)."""
    draws = 150 * len(everything)
    seen = Counter(sampler.sample(rng) for _ in range(draws))
    assert set(seen) == set(everything)
    expected = draws / len(everything)
    chi2 = sum((n - expected) ** 2 / expected for n in seen.values())
    dof = len(everything) - 1
    assert chi2 < dof + 6 * dof**0.5 + 10, (chi2, dof)


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
