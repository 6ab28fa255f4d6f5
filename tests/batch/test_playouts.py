"""The playout shortcuts take the same actions as the checked API: ``step_random(u)`` is
``step(random_actions(u))`` in one pass, and ``step_keyed(k)`` is ``step_random`` of
``keyed_uniforms(k)``; the tables end in the same state."""

from __future__ import annotations

import numpy as np
import pytest

from arena.batch import SUPPORTED_PRESETS, BatchShapeError, BatchTables
from arena.engine.rules import rules_for


def _pair(preset: str, size: int) -> tuple[BatchTables, BatchTables]:
    rules = rules_for(preset)
    seeds = np.arange(900, 900 + size)
    a, b = BatchTables(rules, size), BatchTables(rules, size)
    a.reset(seeds, seeds % 4)
    b.reset(seeds, seeds % 4)
    return a, b


def _same(a: BatchTables, b: BatchTables) -> None:
    for x, y in ((a.ints, b.ints), (a.masks, b.masks), (a.history, b.history), (a.result, b.result)):
        assert (x == y).all()


@pytest.mark.parametrize("preset", SUPPORTED_PRESETS)
def test_step_random_is_the_checked_step_of_random_actions(preset: str) -> None:
    a, b = _pair(preset, 500)
    rng = np.random.default_rng(5)
    while not a.over.all():
        uniforms = rng.random(500)
        chosen = a.random_actions(uniforms)
        a.step(chosen)
        assert (b.step_random(uniforms) == chosen).all()
        _same(a, b)
    assert b.over.all()


@pytest.mark.parametrize("preset", SUPPORTED_PRESETS)
def test_step_keyed_draws_its_keyed_uniforms(preset: str) -> None:
    a, b = _pair(preset, 300)
    key = -7  # any integer, taken modulo 2**64
    while not a.over.all():
        uniforms = a.keyed_uniforms(key)
        assert ((uniforms >= 0) & (uniforms < 1)).all()
        assert (b.step_keyed(key) == a.step_random(uniforms)).all()
        _same(a, b)
        key += 1


def test_a_key_that_is_not_an_integer_is_refused() -> None:
    a, _ = _pair("dehla-pakad", 2)
    with pytest.raises(BatchShapeError, match="key must be an integer"):
        a.step_keyed(1.5)  # type: ignore[arg-type]
