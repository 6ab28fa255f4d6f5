"""A trained policy as plain arrays: a small network from the observation vector to action scores.

One hidden layer (ReLU), optionally followed by more of the same width (``deep``: each
``relu(h @ w + b)``), and a linear head over the action space (``arena.engine.action_ids``),
plus a per-card head: each card play's score also gets ``features(card) . (hidden @ w3 + b3)``,
the card's facts (``sdk.card_features``) weighted by the state; the choice is the legal action
with the highest score. Training (``sdk.learn.training``) and the
bot at play time (``sdk.policy_bot``) run this same forward pass, so a bot plays the policy it
was trained as. The weights are a ``.npz`` of float32 arrays, loaded with ``allow_pickle=False``:
a weights file is untrusted input, and numpy alone reads it. A file without ``w3``/``b3`` (written
before the per-card head, session 17) loads with that head at zero: the network it was; the
further hidden layers are ``wh1``/``bh1``, ``wh2``/``bh2``, ... (none in a one-layer file).
"""

from __future__ import annotations

import zipfile
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt
from numpy.lib.npyio import NpzFile

from arena.engine.action_ids import NUM_ACTIONS, PLAY_BASE
from arena.engine.errors import ArenaError
from sdk.card_features import NUM_CARD_FEATURES, card_features
from sdk.encoding import OBSERVATION_SIZE

FloatArray = npt.NDArray[np.float32]
CARDS = 52
assert PLAY_BASE == 0, "the per-card head scores action ids 0..51"
MAX_HIDDEN = 4096
"""The widest hidden layer a weights file may declare (a bound on memory and time per move)."""
MAX_DEEP = 4
"""The most hidden layers a weights file may add after the first (a bound on time per move)."""

WEIGHT_NAMES = ("w1", "b1", "w2", "b2")
CARD_HEAD_NAMES = ("w3", "b3")
"""The per-card head's arrays; optional in a file (absent: zero)."""


def deep_names(layer: int) -> tuple[str, str]:
    """The file's names of the weights and biases of hidden layer ``layer`` (1: the second)."""
    return f"wh{layer}", f"bh{layer}"


class PolicyFileError(ArenaError):
    """A weights file that is missing, not a numpy archive, or not this network's arrays."""


@dataclass(frozen=True, eq=False)
class PolicyNetwork:
    """``scores(x) = h @ w2 + b2`` with ``h = relu(x @ w1 + b1)`` (then ``h = relu(h @ w + b)``
    for each ``(w, b)`` of ``deep``), each card play's score plus ``card_features(x)[card] . (h @
    w3 + b3)``: observation vectors in, one score per action out."""

    w1: FloatArray
    b1: FloatArray
    w2: FloatArray
    b2: FloatArray
    w3: FloatArray
    b3: FloatArray
    deep: tuple[tuple[FloatArray, FloatArray], ...] = ()

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    @classmethod
    def initial(cls, hidden: int = 128, seed: int = 0, deep: int = 0) -> PolicyNetwork:
        """Untrained weights (He-scaled hidden layers, ``deep`` of them after the first; a small
        head: choices start near uniform). With ``deep`` 0 the draws are the one-layer network's."""
        rng = np.random.default_rng(seed)
        w1 = rng.standard_normal((OBSERVATION_SIZE, hidden)) * np.sqrt(2.0 / OBSERVATION_SIZE)
        w2 = rng.standard_normal((hidden, NUM_ACTIONS)) * 0.01
        w3 = rng.standard_normal((hidden, NUM_CARD_FEATURES)) * 0.01
        layers = tuple(((rng.standard_normal((hidden, hidden)) * np.sqrt(2.0 / hidden)).astype(np.float32),
                        np.zeros(hidden, np.float32)) for _ in range(deep))
        return cls(w1.astype(np.float32), np.zeros(hidden, np.float32), w2.astype(np.float32),
                   np.zeros(NUM_ACTIONS, np.float32), w3.astype(np.float32), np.zeros(NUM_CARD_FEATURES, np.float32),
                   layers)

    def hidden_layers(self, observations: FloatArray) -> list[FloatArray]:
        """Every hidden layer's activations, first to last, each ``(N, hidden)`` (for training's gradients)."""
        out: list[FloatArray] = [np.maximum(observations @ self.w1 + self.b1, 0.0)]
        for weights, biases in self.deep:
            out.append(np.maximum(out[-1] @ weights + biases, 0.0))
        return out

    def hidden_layer(self, observations: FloatArray) -> FloatArray:
        """The last hidden layer's activations, ``(N, hidden)`` for ``(N, OBSERVATION_SIZE)`` observations."""
        return self.hidden_layers(observations)[-1]

    def scores_from(self, hidden: FloatArray, features: FloatArray) -> FloatArray:
        """The action scores from the hidden activations and the observations' ``card_features``."""
        out: FloatArray = hidden @ self.w2 + self.b2
        out[:, :CARDS] += np.matmul(features, (hidden @ self.w3 + self.b3)[:, :, None])[:, :, 0]
        return out

    def scores(self, observations: FloatArray) -> FloatArray:
        """One score per action id for each observation row."""
        return self.scores_from(self.hidden_layer(observations), card_features(observations))

    def choose(self, observations: FloatArray, masks: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """The legal action with the highest score, per row (a row needs at least one legal action)."""
        scores = np.where(masks.astype(bool), self.scores(observations), -np.inf)
        chosen: npt.NDArray[np.int64] = np.argmax(scores, axis=1).astype(np.int64)
        return chosen

    def arrays(self) -> dict[str, FloatArray]:
        """The weights by their file names."""
        named = {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2, "w3": self.w3, "b3": self.b3}
        for layer, (weights, biases) in enumerate(self.deep, start=1):
            weights_name, biases_name = deep_names(layer)
            named[weights_name], named[biases_name] = weights, biases
        return named

    def save(self, target: Path | BinaryIO) -> None:
        """Write the weights as a ``.npz`` of float32 arrays (no pickled objects)."""
        named: dict[str, Any] = dict(self.arrays())  # Any: savez's own keywords are not arrays
        np.savez(target, **named)

    @classmethod
    def load(cls, source: Path) -> PolicyNetwork:
        """Read weights written by ``save``; a wrong file is a ``PolicyFileError`` naming it and the problem."""
        deeper = tuple(name for layer in range(1, MAX_DEEP + 2) for name in deep_names(layer))
        arrays, _ = read_arrays(source, WEIGHT_NAMES + CARD_HEAD_NAMES + deeper)
        return cls.from_arrays(arrays, str(source))

    @classmethod
    def from_arrays(cls, arrays: dict[str, npt.NDArray[np.generic]], where: str) -> PolicyNetwork:
        """The network of a file's arrays: ``of``, once the arrays every network needs are there."""
        missing = [name for name in WEIGHT_NAMES if name not in arrays]
        if missing:
            raise PolicyFileError(f"{where}: no array {', '.join(missing)} (a policy file holds "
                                  f"{', '.join(WEIGHT_NAMES)})")
        return cls.of(arrays, where)

    @classmethod
    def of(cls, arrays: dict[str, npt.NDArray[np.generic]], where: str) -> PolicyNetwork:
        """The network of these arrays, their shapes and values checked (``where`` names them in errors)."""
        w1 = arrays["w1"]
        if w1.ndim != 2 or w1.shape[0] != OBSERVATION_SIZE or not 1 <= w1.shape[1] <= MAX_HIDDEN:
            raise PolicyFileError(f"{where}: w1 has shape {w1.shape}, expected ({OBSERVATION_SIZE}, hidden) "
                                  f"with hidden 1..{MAX_HIDDEN}")
        hidden = w1.shape[1]
        arrays = dict(arrays)
        present = [name for name in CARD_HEAD_NAMES if name in arrays]
        if len(present) == 1:
            raise PolicyFileError(f"{where}: {present[0]} without {({'w3', 'b3'} - set(present)).pop()} (the "
                                  f"per-card head needs both, or neither in a file written before it)")
        if not present:  # written before the per-card head: that head at zero is the same network
            arrays["w3"] = np.zeros((hidden, NUM_CARD_FEATURES), np.float32)
            arrays["b3"] = np.zeros(NUM_CARD_FEATURES, np.float32)
        expected = {"b1": (hidden,), "w2": (hidden, NUM_ACTIONS), "b2": (NUM_ACTIONS,),
                    "w3": (hidden, NUM_CARD_FEATURES), "b3": (NUM_CARD_FEATURES,)}
        deep = 0
        while deep_names(deep + 1)[0] in arrays or deep_names(deep + 1)[1] in arrays:
            deep += 1
        if deep > MAX_DEEP:
            raise PolicyFileError(f"{where}: {deep} hidden layers after the first, at most {MAX_DEEP}")
        for layer in range(1, deep + 1):
            weights_name, biases_name = deep_names(layer)
            for name in (weights_name, biases_name):
                if name not in arrays:
                    raise PolicyFileError(f"{where}: hidden layer {layer + 1} has no {name}")
            expected[weights_name], expected[biases_name] = (hidden, hidden), (hidden,)
        for name, shape in expected.items():
            if arrays[name].shape != shape:
                raise PolicyFileError(f"{where}: {name} has shape {arrays[name].shape}, expected {shape} "
                                      f"(this version's per-card head has {NUM_CARD_FEATURES} card features)")
        names = ["w1", *expected]
        for name in names:
            array = arrays[name]
            if array.dtype.kind != "f":
                raise PolicyFileError(f"{where}: {name} holds {array.dtype}, expected floating-point numbers")
            if not np.isfinite(array).all():
                raise PolicyFileError(f"{where}: {name} holds a value that is not a finite number")
        w1f, b1, w2, b2, w3, b3 = (arrays[name].astype(np.float32) for name in WEIGHT_NAMES + CARD_HEAD_NAMES)
        layers = tuple((arrays[deep_names(k)[0]].astype(np.float32), arrays[deep_names(k)[1]].astype(np.float32))
                       for k in range(1, deep + 1))
        return cls(w1f, b1, w2, b2, w3, b3, layers)


def read_arrays(source: Path, wanted: Collection[str]) -> tuple[dict[str, npt.NDArray[np.generic]], list[str]]:
    """The ``wanted`` arrays that the numpy archive ``source`` holds, and the names of all it holds;
    only wanted arrays are read. A missing or wrong file is a ``PolicyFileError`` naming it."""
    try:
        with _opened(source) as archive:
            files = list(archive.files)
            return {name: archive[name] for name in wanted if name in files}, files
    except PolicyFileError:
        raise
    except FileNotFoundError:
        raise PolicyFileError(f"{source}: no such weights file") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise PolicyFileError(f"{source}: not a numpy .npz of plain arrays ({exc})") from None


@contextmanager
def _opened(source: Path) -> Iterator[NpzFile]:
    """``source`` as a numpy archive of arrays (a lone ``.npy`` array is refused, as is a pickle)."""
    loaded = np.load(source, allow_pickle=False)
    if not isinstance(loaded, NpzFile):
        raise PolicyFileError(f"{source}: a single numpy array, not a .npz archive of {', '.join(WEIGHT_NAMES)}")
    with loaded:
        yield loaded
