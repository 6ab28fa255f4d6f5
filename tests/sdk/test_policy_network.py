"""A policy's weights file: read back exactly, and every wrong file refused with its name and problem."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.action_ids import NUM_ACTIONS
from sdk.card_features import NUM_CARD_FEATURES
from sdk.encoding import OBSERVATION_SIZE, OFFSETS
from sdk.policy_network import PolicyFileError, PolicyNetwork


def arrays(network: PolicyNetwork) -> dict[str, np.ndarray]:
    return {"w1": network.w1, "b1": network.b1, "w2": network.w2, "b2": network.b2, "w3": network.w3, "b3": network.b3}


def test_saved_weights_load_back_exactly(tmp_path: Path) -> None:
    network = PolicyNetwork.initial(hidden=16, seed=3)
    network.save(tmp_path / "policy.npz")
    loaded = PolicyNetwork.load(tmp_path / "policy.npz")
    for name, array in arrays(loaded).items():
        assert np.array_equal(array, arrays(network)[name]) and array.dtype == np.float32


def test_a_file_written_before_the_per_card_head_loads_as_the_network_it_was(tmp_path: Path) -> None:
    """w1, b1, w2, b2 only (session 16's format): the per-card head is zero, the scores are
    ``relu(x @ w1 + b1) @ w2 + b2`` as they were."""
    old = {k: v for k, v in arrays(PolicyNetwork.initial(hidden=8, seed=1)).items() if k in ("w1", "b1", "w2", "b2")}
    np.savez(tmp_path / "old.npz", **old)
    loaded = PolicyNetwork.load(tmp_path / "old.npz")
    assert not loaded.w3.any() and not loaded.b3.any()
    x = (np.random.default_rng(1).random((5, OBSERVATION_SIZE)) < 0.1).astype(np.float32)
    expected = np.maximum(x @ old["w1"] + old["b1"], 0.0) @ old["w2"] + old["b2"]
    assert np.allclose(loaded.scores(x), expected)


def test_the_per_card_head_moves_the_scores_of_card_plays_only() -> None:
    network = PolicyNetwork.initial(hidden=8, seed=2)
    headless = PolicyNetwork(network.w1, network.b1, network.w2, network.b2, np.zeros_like(network.w3),
                             np.ones_like(network.b3))
    x = np.zeros((1, OBSERVATION_SIZE), np.float32)
    x[0, OFFSETS["hand"].start + 5] = 1.0  # one card in hand
    with_head, without = headless.scores(x), PolicyNetwork(
        network.w1, network.b1, network.w2, network.b2, np.zeros_like(network.w3), np.zeros_like(network.b3)).scores(x)
    moved = np.flatnonzero(~np.isclose(with_head, without)[0])
    assert moved.tolist() == [5], moved


def test_a_deeper_network_loads_back_exactly_and_its_layers_change_the_scores(tmp_path: Path) -> None:
    """Two hidden layers after the first (``wh1``/``bh1``, ``wh2``/``bh2``): read back as written,
    and the scores are the one-layer network's with those layers applied in order."""
    network = PolicyNetwork.initial(hidden=8, seed=4, deep=2)
    network.save(tmp_path / "deep.npz")
    loaded = PolicyNetwork.load(tmp_path / "deep.npz")
    assert len(loaded.deep) == 2 and set(loaded.arrays()) == set(network.arrays())
    assert all(np.array_equal(loaded.arrays()[n], a) for n, a in network.arrays().items())
    x = (np.random.default_rng(2).random((3, OBSERVATION_SIZE)) < 0.1).astype(np.float32)
    shallow = PolicyNetwork(network.w1, network.b1, network.w2, network.b2, network.w3, network.b3)
    h = shallow.hidden_layer(x)
    for weights, biases in network.deep:
        h = np.maximum(h @ weights + biases, 0.0)
    assert np.allclose(loaded.hidden_layer(x), h) and not np.allclose(h, shallow.hidden_layer(x))
    assert not np.allclose(loaded.scores(x), shallow.scores(x))


def test_the_one_layer_network_draws_its_weights_as_before() -> None:
    """``deep=0`` is the network of earlier sessions, draw for draw (a seed gives the same run)."""
    one, deeper = PolicyNetwork.initial(hidden=8, seed=6), PolicyNetwork.initial(hidden=8, seed=6, deep=1)
    assert one.deep == () and all(np.array_equal(getattr(one, n), getattr(deeper, n)) for n in ("w1", "w2", "w3"))


def bad_files(tmp_path: Path) -> list[tuple[Path, str]]:
    good = arrays(PolicyNetwork.initial(hidden=8))
    cases: list[tuple[Path, str]] = []

    def npz(name: str, problem: str, **changed: object) -> None:
        values = {**good, **changed}
        np.savez(tmp_path / name, **{k: v for k, v in values.items() if v is not None})  # type: ignore[arg-type]
        cases.append((tmp_path / name, problem))

    npz("missing.npz", "no array b2", b2=None)
    npz("shape.npz", f"w1 has shape (10, 8), expected ({OBSERVATION_SIZE}, hidden)", w1=np.zeros((10, 8), np.float32))
    npz("head.npz", f"w2 has shape (8, 3), expected (8, {NUM_ACTIONS})", w2=np.zeros((8, 3), np.float32))
    npz("card-head.npz", f"w3 has shape (8, 2), expected (8, {NUM_CARD_FEATURES}) (this version's per-card head",
        w3=np.zeros((8, 2), np.float32))
    npz("half-head.npz", "b3 without w3", w3=None)
    npz("nan-head.npz", "b3 holds a value that is not a finite number",
        b3=np.full(NUM_CARD_FEATURES, np.inf, np.float32))
    npz("nan.npz", "b1 holds a value that is not a finite number", b1=np.full(8, np.nan, np.float32))
    npz("ints.npz", "b2 holds int64", b2=np.zeros(NUM_ACTIONS, np.int64))
    npz("objects.npz", "not a numpy .npz of plain arrays", b1=np.array([{"x": 1}] * 8, dtype=object))
    layer = np.zeros((8, 8), np.float32)
    npz("deep-half.npz", "hidden layer 2 has no bh1", wh1=layer)
    npz("deep-shape.npz", "wh1 has shape (8, 3), expected (8, 8)", wh1=np.zeros((8, 3), np.float32),
        bh1=np.zeros(8, np.float32))
    npz("deep-nan.npz", "bh1 holds a value that is not a finite number", wh1=layer,
        bh1=np.full(8, np.nan, np.float32))
    too_deep = {f"{kind}{k}": (layer if kind == "wh" else layer[0]) for k in range(1, 6) for kind in ("wh", "bh")}
    npz("too-deep.npz", "5 hidden layers after the first, at most 4", **too_deep)
    (tmp_path / "text.npz").write_text("hello")
    cases.append((tmp_path / "text.npz", "not a numpy .npz of plain arrays"))
    (tmp_path / "pickle.npz").write_bytes(pickle.dumps(good))
    cases.append((tmp_path / "pickle.npz", "not a numpy .npz of plain arrays"))
    np.save(tmp_path / "single.npy", good["w1"])
    cases.append((tmp_path / "single.npy", "a single numpy array"))
    cases.append((tmp_path / "absent.npz", "no such weights file"))
    return cases


def test_a_wrong_weights_file_is_refused_by_name(tmp_path: Path) -> None:
    for path, problem in bad_files(tmp_path):
        with pytest.raises(PolicyFileError) as caught:
            PolicyNetwork.load(path)
        assert str(caught.value).startswith(f"{path}: ") and problem in str(caught.value), (path, caught.value)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 8))
def test_the_choice_is_always_a_legal_action(seed: int, rows: int) -> None:
    rng = np.random.default_rng(seed)
    network = PolicyNetwork.initial(hidden=8, seed=seed % 100)
    x = (rng.random((rows, OBSERVATION_SIZE)) < 0.1).astype(np.float32)
    masks = (rng.random((rows, NUM_ACTIONS)) < 0.05).astype(np.int8)
    masks[np.arange(rows), rng.integers(NUM_ACTIONS, size=rows)] = 1
    chosen = network.choose(x, masks)
    assert masks[np.arange(rows), chosen].all()
