"""Each engine's shared step kernel (``advance``) is compiled for one signature: the checked
step, ``step_random`` and the vector environment's random opponents all reach it with the same
argument types, so a fresh clone (CI) compiles the inlined hand step once per engine, not once
per use or per dtype (``docs/performance.md``, issue 28 part 3, session 17)."""

from __future__ import annotations

import numpy as np
import pytest

from arena.batch import BatchTables, bidding_kernels, kernels
from arena.batch.bidding_tables import BiddingBatchTables
from sdk.learn.vector import vector_env


@pytest.mark.parametrize(("preset", "kind", "module"), [
    ("dehla-pakad", BatchTables, kernels), ("twenty-eight", BiddingBatchTables, bidding_kernels)])
def test_every_step_reaches_one_compiled_advance(preset: str, kind: type[BatchTables] | type[BiddingBatchTables],
                                                 module: object) -> None:
    tables = kind.of_preset(preset, 4)
    tables.reset([1, 2, 3, 4])
    tables.step(tables.random_actions(tables.keyed_uniforms(5)))
    tables.step(np.array(tables.random_actions(tables.keyed_uniforms(6)), dtype=np.int32))
    tables.step_random(np.full(4, 0.25, dtype=np.float32))
    env = vector_env(4, preset)  # its opponents play until the learning seat is to move
    observations, _ = env.reset(seed=3)
    env.step(np.argmax(observations["action_mask"], axis=1))
    assert len(module.advance.signatures) == 1  # type: ignore[attr-defined]
