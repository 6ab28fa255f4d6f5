"""The expert's margin before the per-move limit (``sample_bots/expert/margin.py``): learnt from
the bank, it settles where the share of moves over the limit is its target."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sample_bots.expert.margin import CEILING, FLOOR, START_SECONDS, STEP, TARGET_OVER, LimitMargin


def test_a_bank_drop_widens_the_margin_a_steady_bank_narrows_it() -> None:
    margin = LimitMargin()
    assert margin.observe(0.05, 30.0) == pytest.approx(START_SECONDS)  # no evidence yet
    assert margin.observe(0.05, 29.99) == pytest.approx(START_SECONDS + STEP * 0.05)  # the last move went over
    assert margin.overs == 1
    narrower = margin.observe(0.05, 29.99)
    assert narrower == pytest.approx(START_SECONDS + STEP * 0.05 * (1 - TARGET_OVER / (1 - TARGET_OVER)))
    assert margin.observe(0.05, 29.9896) == narrower - STEP * 0.05 * TARGET_OVER / (1 - TARGET_OVER)  # rounding


def test_a_new_clock_or_match_starts_afresh() -> None:
    margin = LimitMargin()
    margin.observe(0.05, 30.0)
    margin.observe(0.05, 29.0)
    assert margin.observe(1.0, 30.0) == pytest.approx(FLOOR * 1.0)  # 100 ms: more than 30 ms
    margin.reset()
    assert (margin.seconds, margin.last_bank, margin.overs) == (START_SECONDS, None, 0)


@settings(max_examples=100, deadline=None)
@given(per_move=st.floats(0.005, 10.0), banks=st.lists(st.floats(0.0, 60.0), max_size=50))
def test_the_margin_stays_between_its_floor_and_ceiling(per_move: float, banks: list[float]) -> None:
    margin = LimitMargin()
    for bank in banks:
        seconds = margin.observe(per_move, bank)
        assert FLOOR * per_move - 1e-12 <= seconds <= max(START_SECONDS, CEILING * per_move) + 1e-12


@pytest.mark.parametrize("tail", [0.005, 0.03])
def test_on_a_simulated_machine_the_share_over_the_limit_settles_near_its_target(tail: float) -> None:
    # A move takes its plan plus a random overhead: mostly 1-3 ms, 5% of the time up to ``tail``
    # more (a loaded machine's stalls). The referee charges the bank what is over 50 ms.
    rng = random.Random(7)
    margin, bank, per_move = LimitMargin(), 30.0, 0.05
    over = moves = 0
    for move in range(40_000):
        planned = per_move - margin.observe(per_move, bank)
        took = planned + rng.uniform(0.001, 0.003) + (rng.uniform(0, tail) if rng.random() < 0.05 else 0.0)
        bank -= max(0.0, took - per_move)
        bank = round(bank, 3)  # the protocol's whole ms
        if move >= 10_000:  # past the start
            moves += 1
            over += took > per_move
    assert over / moves < 2 * TARGET_OVER
    assert over / moves > TARGET_OVER / 3  # not needlessly wide: the search keeps its time
