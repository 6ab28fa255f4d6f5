"""An ensemble of policies: the product of its members' distributions over the legal actions, one
weights file read back exactly, and every wrong ensemble file refused with its name, member and problem."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.action_ids import NUM_ACTIONS
from sdk.card_features import NUM_CARD_FEATURES
from sdk.encoding import OBSERVATION_SIZE
from sdk.policy_ensemble import MAX_MEMBERS, PolicyEnsemble, ensemble_of, load_policy, member_name
from sdk.policy_network import PolicyFileError, PolicyNetwork


def random_network(seed: int, hidden: int = 8, scale: float = 1.0) -> PolicyNetwork:
    """A network whose scores differ from action to action (an untrained one's are nearly flat)."""
    rng = np.random.default_rng(seed)

    def draw(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    return PolicyNetwork(draw(OBSERVATION_SIZE, hidden), draw(hidden), draw(hidden, NUM_ACTIONS), draw(NUM_ACTIONS),
                         draw(hidden, NUM_CARD_FEATURES), draw(NUM_CARD_FEATURES))


def observations_and_masks(seed: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    observations = (rng.random((rows, OBSERVATION_SIZE)) < 0.1).astype(np.float32)
    masks = (rng.random((rows, NUM_ACTIONS)) < 0.2).astype(np.int8)
    masks[np.arange(rows), rng.integers(NUM_ACTIONS, size=rows)] = 1  # at least one legal action a row
    return observations, masks


def product_choice(networks: list[PolicyNetwork], observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The definition, computed another way: the legal action with the largest product of the
    members' probabilities (softmax over the legal actions, in float64)."""
    product = np.ones(masks.shape)
    for network in networks:
        scores = network.scores(observations).astype(np.float64)
        weights = np.where(masks.astype(bool), np.exp(scores - scores.max(axis=1, keepdims=True)), 0.0)
        product *= weights / weights.sum(axis=1, keepdims=True)
    return np.argmax(np.where(masks.astype(bool), product, -1.0), axis=1)


@settings(max_examples=25, deadline=None)
@given(seeds=st.lists(st.integers(0, 10_000), min_size=1, max_size=3), data_seed=st.integers(0, 10_000))
def test_the_ensemble_plays_the_legal_action_its_members_agree_on_most(seeds: list[int], data_seed: int) -> None:
    networks = [random_network(seed, scale=0.3) for seed in seeds]
    observations, masks = observations_and_masks(data_seed, 16)
    chosen = PolicyEnsemble(tuple(networks)).choose(observations, masks)
    assert masks[np.arange(16), chosen].all(), "every choice is legal"
    assert np.array_equal(chosen, product_choice(networks, observations, masks))
    if len(networks) == 1:
        assert np.array_equal(chosen, networks[0].choose(observations, masks))


def test_an_ensemble_of_two_is_neither_of_its_members() -> None:
    """The control for the product above: two members that disagree, and the ensemble goes with
    each of them on some rows and against each on others."""
    first, second = random_network(1, scale=0.3), random_network(2, scale=0.3)
    observations, masks = observations_and_masks(3, 400)
    ensemble = PolicyEnsemble((first, second)).choose(observations, masks)
    for member in (first, second):
        agrees = ensemble == member.choose(observations, masks)
        assert 0 < agrees.sum() < len(agrees), agrees.mean()


def test_an_ensemble_file_loads_back_exactly_and_a_network_s_file_as_that_network(tmp_path: Path) -> None:
    members = (random_network(4), random_network(5, hidden=6))
    PolicyEnsemble(members).save(tmp_path / "ensemble.npz")
    loaded = load_policy(tmp_path / "ensemble.npz")
    assert isinstance(loaded, PolicyEnsemble) and len(loaded.members) == 2
    for written, read in zip(members, loaded.members, strict=True):
        for name, array in written.arrays().items():
            assert np.array_equal(read.arrays()[name], array) and read.arrays()[name].dtype == np.float32
    single = random_network(6)
    ensemble_of([single]).save(tmp_path / "single.npz")
    plain = load_policy(tmp_path / "single.npz")
    assert isinstance(plain, PolicyNetwork) and np.array_equal(plain.w2, single.w2)
    assert set(np.load(tmp_path / "single.npz").files) == set(single.arrays()), "one member: a plain network's file"


def ensemble_arrays(count: int) -> dict[str, np.ndarray]:
    return {member_name(k, name): array for k in range(count) for name, array in random_network(k).arrays().items()}


@pytest.mark.parametrize(("change", "expected"), [
    (lambda a: a | random_network(9).arrays(),
     "both a network's arrays (w1, b1, w2, b2, w3, b3) and ensemble members' (member0, member1)"),
    (lambda a: a | {"memberX_w1": a["member0_w1"]},
     "members member0, member1, memberX; expected them numbered from 0 without a gap (member0, member1, member2)"),
    (lambda a: {k.replace("member1_", "member2_"): v for k, v in a.items()}, "members member0, member2; expected"),
    (lambda a: ensemble_arrays(MAX_MEMBERS + 1), f"{MAX_MEMBERS + 1} ensemble members, at most {MAX_MEMBERS}"),
    (lambda a: {k: v for k, v in a.items() if k != "member1_w2"}, "member 1 has no array w2"),
    (lambda a: a | {"member1_b1": np.zeros(3, np.float32)}, "(member 1): b1 has shape (3,), expected (8,)"),
    (lambda a: a | {"member0_w2": np.full((8, NUM_ACTIONS), np.nan, np.float32)},
     "(member 0): w2 holds a value that is not a finite number"),
])
def test_a_wrong_ensemble_file_is_refused_naming_the_member_and_the_problem(
        tmp_path: Path, change: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]], expected: str) -> None:
    path = tmp_path / "policy.npz"
    np.savez(path, **change(ensemble_arrays(2)))
    with pytest.raises(PolicyFileError) as refused:
        load_policy(path)
    assert str(refused.value).startswith(str(path)) and expected in str(refused.value), str(refused.value)


def test_an_ensemble_has_one_to_max_members() -> None:
    with pytest.raises(ValueError, match="1 to"):
        PolicyEnsemble(())
    with pytest.raises(ValueError, match="1 to"):
        PolicyEnsemble(tuple(random_network(k) for k in range(MAX_MEMBERS + 1)))
