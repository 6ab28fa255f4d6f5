"""Inference: worlds weighted by the likelihood of the other seats' plays (``sdk.inference``).

The replay of a world gives each seat the view it really had (the real placement's likelihood is
the product of the model's probabilities along the real hand), the weights are the enumerated
posterior (uniform prior × likelihood, normalised), a uniform model gives the sampler's equal
weights, and every weighted world is one the seat cannot tell from the real one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.actions import Action, PlayCard
from arena.engine.cards import SUIT_MASKS, mask_of
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import Observation, observe
from arena.engine.rules import Rules, rules_for
from sdk.bot import BotView
from sdk.inference import (
    DeadlinePassedError,
    FlatModel,
    Inference,
    LikelihoodCache,
    SoftmaxModel,
    UniformModel,
    UnsupportedViewError,
    weighted_worlds,
)
from sdk.sampling import Placement
from tests.sdk_helpers import VARIANTS, brute_force, check_consistent, real_face_down

SUPPORTED = {
    name: rules for name, rules in VARIANTS.items()
    if "blind" not in name and "open_random" not in name and "later" not in name and "decline" not in name
}
"""Variants whose hands replay from a seat's view (cut trump only before its deal completes, a
face-down discard only for its maker: the tests skip the views refused)."""


def toy_scores(view: BotView) -> list[float]:
    """A cheap model that depends on the seat's hand: high cards of long suits are preferred."""
    hand = mask_of(view.observation.hand)
    out = []
    for action in view.observation.legal_actions:
        if isinstance(action, PlayCard):
            length = (hand & SUIT_MASKS[action.card // 13]).bit_count()
            out.append(action.card % 13 / 6 + length / 3)
        else:
            out.append(0.5)
    return out


TOY = SoftmaxModel(toy_scores, temperature=0.7)


def real_hand(rules: Rules, seed: int, stop: int) -> HandState:
    """A hand after ``stop`` random decisions (or at its end)."""
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    for _ in range(stop):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def play_positions(rules: Rules, seed: int) -> Iterator[tuple[HandState, float]]:
    """Each card decision of a random hand, with the toy model's product over the plays so far
    of every seat but the one to move, computed along the real hand (no replay)."""
    rng = random.Random(seed)
    state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
    history: list[tuple[int, float]] = []  # (seat, probability) per play with a choice
    while not state.is_over:
        legal = state.legal_actions()
        action: Action = rng.choice(legal)
        if state.decision is Decision.PLAY:
            me = state.to_move
            assert me is not None
            yield state, math.prod(p for s, p in history if s != me)
            if isinstance(action, PlayCard) and not action.face_down and len(legal) > 1:
                history.append((me, TOY.probability(BotView(observe(state, me), 1.0, 0.0), action)))
        state.apply(action)


@pytest.mark.parametrize("name", list(SUPPORTED))
def test_the_real_placement_scores_the_product_along_the_real_hand(name: str) -> None:
    rules = SUPPORTED[name]
    checked = 0
    for seed in range(3):
        for state, expected in play_positions(rules, seed):
            seat = state.to_move
            assert seat is not None
            obs = observe(state, seat)
            try:
                inference = Inference(obs, TOY)
            except UnsupportedViewError:
                continue
            real = Placement(
                tuple(state.hand(s) for s in range(4)),  # type: ignore[arg-type]
                tuple(state.undealt(s) for s in range(4)),  # type: ignore[arg-type]
                state.hidden_card, tuple(real_face_down(state, seat)),
            )
            assert inference.likelihood(real) == pytest.approx(expected, rel=1e-9)
            checked += 1
    assert checked >= 10


def endgames(rules: Rules) -> Iterator[Observation]:
    """Late positions (4 to 7 unseen cards) of random hands, the seat to move's view."""
    for seed in range(40):
        rng = random.Random(seed)
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        while not state.is_over:
            if state.decision is Decision.PLAY and len(state.tricks) >= 10:
                seat = state.to_move
                assert seat is not None
                obs = observe(state, seat)
                if 4 <= sum(obs.hand_sizes) - len(obs.hand) <= 7:
                    yield obs
                    break
            state.apply(rng.choice(state.legal_actions()))


def test_weights_are_the_enumerated_posterior() -> None:
    rules = rules_for("dehla-pakad")
    rng = random.Random(11)
    checked = 0
    for obs in endgames(rules):
        everything = brute_force(obs)
        if not 3 <= len(everything) <= 20:
            continue
        inference = Inference(obs, TOY)
        likelihood = {p: inference.likelihood(p) for p in everything}
        total = sum(likelihood.values())
        posterior = {p: w / total for p, w in likelihood.items()}
        draws = 150 * len(everything)
        estimate = dict.fromkeys(everything, 0.0)
        for world in inference.weighted_worlds(rng, draws):
            estimate[world.placement] += world.weight  # a draw outside the enumeration fails here
        for placement, p in posterior.items():
            assert estimate[placement] == pytest.approx(p, abs=0.02 + 0.15 * p), (placement, p)
        assert len(set(posterior.values())) > 1  # the plays did tell the placements apart
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_flat_model_gives_the_samplers_equal_weights() -> None:
    rules = rules_for("dehla-pakad")
    state = real_hand(rules, 4, 21)
    seat = state.to_move
    assert seat is not None
    obs = observe(state, seat)
    worlds = weighted_worlds(obs, 50, FlatModel(), random.Random(3))
    assert len(worlds) == 50
    assert all(w.weight == pytest.approx(1 / 50) for w in worlds)
    # Random play is a model too: a world where the others had fewer choices explains more.
    uniform = weighted_worlds(obs, 50, UniformModel(), random.Random(3))
    assert [w.placement for w in uniform] == [w.placement for w in worlds]
    assert len({round(w.weight, 12) for w in uniform}) > 1


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(SUPPORTED)), seed=st.integers(0, 10_000), stop=st.integers(1, 45))
def test_every_weighted_world_is_consistent_with_the_view(name: str, seed: int, stop: int) -> None:
    state = real_hand(SUPPORTED[name], seed, stop)
    seat = state.to_move
    if state.is_over or state.decision is not Decision.PLAY or seat is None:
        return
    obs = observe(state, seat)
    try:
        inference = Inference(obs, TOY)
    except UnsupportedViewError:
        return
    worlds = inference.weighted_worlds(random.Random(seed), 4)
    assert sum(w.weight for w in worlds) == pytest.approx(1.0)
    for world in worlds:
        check_consistent(obs, world.placement)
        assert observe(world.world, seat) == obs
        assert world.weight >= 0


def test_the_same_seed_gives_the_same_worlds_and_the_cache_reuses_answers() -> None:
    rules = rules_for("dehla-pakad")
    state = real_hand(rules, 9, 30)
    seat = state.to_move
    assert seat is not None
    obs = observe(state, seat)
    cache = LikelihoodCache()
    first = Inference(obs, TOY, cache).weighted_worlds(random.Random(5), 20)
    misses = cache.misses
    again = Inference(obs, TOY, cache).weighted_worlds(random.Random(5), 20)
    assert [(w.placement, w.weight) for w in first] == [(w.placement, w.weight) for w in again]
    assert cache.misses == misses and cache.hits > 0


def test_a_passed_deadline_stops_a_replay_and_a_distant_one_changes_nothing() -> None:
    rules = rules_for("dehla-pakad")
    state = real_hand(rules, 9, 30)
    seat = state.to_move
    assert seat is not None
    inference = Inference(observe(state, seat), TOY)
    placement = inference.sampler.sample(random.Random(3))
    fresh = Inference(observe(state, seat), TOY)  # its own cache: every play a model call
    assert fresh.likelihood(placement, deadline=math.inf) == inference.likelihood(placement)
    with pytest.raises(DeadlinePassedError, match="deadline passed"):
        Inference(observe(state, seat), TOY).likelihood(placement, deadline=0.0)


def test_views_that_cannot_be_replayed_are_refused_by_name() -> None:
    rules = rules_for("mendikot", {"trump": "open_random"})
    state = real_hand(rules, 2, 10)
    seat = state.to_move
    assert seat is not None
    with pytest.raises(UnsupportedViewError, match="open random"):
        Inference(observe(state, seat), TOY)


def test_a_softmax_model_is_a_distribution_and_checks_its_temperature() -> None:
    rules = rules_for("dehla-pakad")
    state = real_hand(rules, 1, 6)
    seat = state.to_move
    assert seat is not None
    view = BotView(observe(state, seat), 1.0, 0.0)
    for model in (TOY, SoftmaxModel(toy_scores, 0.05, mix=0.1), UniformModel()):
        total = sum(model.probability(view, a) for a in view.observation.legal_actions)
        assert total == pytest.approx(1.0)
    with pytest.raises(ValueError, match="temperature"):
        SoftmaxModel(toy_scores, 0.0)
    with pytest.raises(ValueError, match="mix"):
        SoftmaxModel(toy_scores, 1.0, mix=1.5)
