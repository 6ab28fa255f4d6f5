"""The batched engine against ``arena.engine``: the same seeded deals and the same choices give
the same decisions, legal actions, tricks, captures and results (``arena.batch.differential``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.batch import SUPPORTED_PRESETS, BatchTables, Phase
from arena.batch.config import R_CP_LIMITS, R_MAKER_DOWN, KernelRules
from arena.batch.differential import MAX_STEPS, compare, play_recorded, seeded_uniforms
from arena.batch.layout import H_TAKEN_BY, HAND0, LEGAL
from arena.engine.rules import Rules, rules_for
from tests.batch_helpers import BATCH_OPTIONS

HANDS = 20_000


def _seeds(base: int, count: int) -> tuple[list[int], list[int]]:
    seeds = list(range(base, base + count))
    return seeds, [s % 4 for s in seeds]


@pytest.mark.parametrize("preset", SUPPORTED_PRESETS)
def test_twenty_thousand_seeded_random_hands_match(preset: str) -> None:
    seeds, dealers = _seeds(1_000_000 * (SUPPORTED_PRESETS.index(preset) + 1), HANDS)
    report = compare(rules_for(preset), seeds, dealers, seeded_uniforms(7, HANDS))
    assert report.hands == HANDS
    assert report.ok, report.summary()




@pytest.mark.parametrize(("preset", "overrides"), BATCH_OPTIONS)
def test_options_match(preset: str, overrides: dict[str, Any]) -> None:
    seeds, dealers = _seeds(5_000_000 + 10_000 * BATCH_OPTIONS.index((preset, overrides)), 2_000)
    report = compare(rules_for(preset, overrides), seeds, dealers, seeded_uniforms(11, 2_000))
    assert report.ok, report.summary()


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(SUPPORTED_PRESETS),
    seed=st.integers(-(2**63), 2**63 - 1),
    dealer=st.integers(0, 3),
    choices=st.lists(st.floats(0, 1, exclude_max=True), min_size=MAX_STEPS, max_size=MAX_STEPS),
)
def test_hypothesis_chosen_choices_match(preset: str, seed: int, dealer: int, choices: list[float]) -> None:
    uniforms = np.array(choices, dtype=np.float64).reshape(MAX_STEPS, 1)
    report = compare(rules_for(preset), [seed], [dealer], uniforms)
    assert report.ok, report.summary()


class ForgetsFollowSuit(BatchTables):
    """A twin with one rule broken on purpose: after each step the seat to move may play any
    card of its hand, as if nobody had to follow suit."""

    def step(self, actions: npt.NDArray[np.int64] | list[int]) -> None:  # type: ignore[override]
        super().step(actions)
        rows = np.flatnonzero(self.decision == Phase.PLAY)
        self.masks[rows, LEGAL] = self.masks[rows, HAND0 + self.to_move[rows].astype(np.int64)]


def test_a_broken_rule_in_the_twin_is_caught() -> None:
    seeds, dealers = _seeds(42, 200)
    rules = rules_for("dehla-pakad")
    uniforms = seeded_uniforms(3, 200)
    assert compare(rules, seeds, dealers, uniforms).ok
    broken = compare(rules, seeds, dealers, uniforms, make_tables=ForgetsFollowSuit)
    assert broken.mismatched_hands > 0
    assert "legal actions" in broken.first[0].what, broken.summary()


class ForgetsCourtPieceLimits(BatchTables):
    """A twin with Double Sir's sweep played as the ordinary sweep (claims on any trick, the
    count restarted after each, no reveal needed): its rules array loses the limits."""

    def __init__(self, rules: Rules, size: int) -> None:
        super().__init__(rules, size)
        array = self.kernel_rules.array.copy()
        array[R_CP_LIMITS] = 0
        self.kernel_rules = KernelRules(rules, array)


class NoFaceDownDiscards(BatchTables):
    """A twin whose trump maker may never discard face down (``maker_discard`` played as open).
    (A twin whose face-down cards may win their trick cannot be caught: such a card is off the
    led suit while no trump is in force, so it could not win anyway.)"""

    def __init__(self, rules: Rules, size: int) -> None:
        super().__init__(rules, size)
        array = self.kernel_rules.array.copy()
        array[R_MAKER_DOWN] = 0
        self.kernel_rules = KernelRules(rules, array)


@pytest.mark.parametrize(("twin", "words"), [(ForgetsCourtPieceLimits, "trick"), (NoFaceDownDiscards, "legal actions")])
def test_a_broken_double_sir_rule_in_the_twin_is_caught(twin: type[BatchTables], words: str) -> None:
    seeds, dealers = _seeds(77, 300)
    rules = rules_for("court-piece-double-sir")
    uniforms = seeded_uniforms(5, 300)
    assert compare(rules, seeds, dealers, uniforms).ok
    broken = compare(rules, seeds, dealers, uniforms, make_tables=twin)
    assert broken.mismatched_hands > 0
    assert words in broken.first[0].what, broken.summary()


def test_random_double_sir_hands_discard_face_down_and_claim_under_the_limits() -> None:
    """The differential tests' random Double Sir hands reach both of its rules: a good share of
    them have a card played face down, and piles are taken (from the fourth trick on only)."""
    tables = BatchTables(rules_for("court-piece-double-sir"), 2_000)
    seeds = np.arange(2_000)
    tables.reset(seeds, seeds % 4)
    play_recorded(tables, seeded_uniforms(9, 2_000))
    assert (tables.face_down != 0).mean() > 0.1
    taken_at = tables.history[:, :, H_TAKEN_BY] >= 0  # a pile taken with this trick
    assert not taken_at[:, [0, 1, 11]].any()
    assert taken_at[:, 3:11].any(axis=1).mean() > 0.2
