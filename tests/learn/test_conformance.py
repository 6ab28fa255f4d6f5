"""PettingZoo's own conformance tests on ``dehla_v0``: ``api_test`` and ``seed_test``, every preset.

``api_test`` warns about two things it asks of every environment but PettingZoo's own classic
card games (which it exempts by name): a dict observation and a ``Dict`` observation space.
Any other warning fails here.
"""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.engine.rules import PRESETS
from sdk.learn import dehla_v0

DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)


def api_test_warnings(env: object, cycles: int) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    return sorted({str(w.message) for w in caught} - set(DICT_OBSERVATION_WARNINGS))


@pytest.mark.parametrize("preset", sorted([*PRESETS, *BIDDING_PRESETS]))
def test_api_test_passes_on_every_preset(preset: str) -> None:
    assert api_test_warnings(dehla_v0.env(preset=preset, render_mode="ansi"), 60) == []


@pytest.mark.parametrize(("preset", "match", "reward"), [
    ("dehla-pakad", "hands:3", "hand"), ("dehla-pakad", "kots:1", "match"), ("mendikot", "tens:6", "match"),
    ("twenty-eight", "hands:3", "match"), ("twenty-nine", "hands:3", "hand"),
])
def test_api_test_passes_on_a_match(preset: str, match: str, reward: str) -> None:
    assert api_test_warnings(dehla_v0.env(preset=preset, match=match, reward=reward), 200) == []


def test_api_test_passes_on_the_raw_environment() -> None:
    assert api_test_warnings(dehla_v0.raw_env(preset="mendikot-closed"), 60) == []


@pytest.mark.parametrize("preset", ["dehla-pakad", "mendikot", "court-piece-double-sir", "twenty-eight"])
def test_seed_test_passes(preset: str) -> None:
    seed_test(lambda: dehla_v0.env(preset=preset, match="hands:2"), num_cycles=60)


def test_seed_test_catches_an_environment_that_ignores_its_seed() -> None:
    """The control: an environment whose first hand changes with every construction fails."""
    made = iter(range(10))

    def unseeded() -> object:
        env = dehla_v0.env()
        offset = next(made)
        reset = env.reset
        env.reset = lambda seed=None, options=None: reset(seed=None if seed is None else seed + offset)
        return env

    with pytest.raises(AssertionError):
        seed_test(unseeded, num_cycles=60)
